/** The issue records the issue, comment, label and pull request modules share: find, create, announce. */
import type { Ctx } from '../http.js';
import { notFound } from '../http.js';
import { issue } from '../represent.js';
import type { Issue, Repo } from '../state.js';
import { nodeId } from '../state.js';
import { recordRepoEvent, urlsOf } from './common.js';

export const ISSUES_DOC = 'https://docs.github.com/rest/issues/issues';

export function findIssue(repo: Repo, number: number, documentation = `${ISSUES_DOC}#get-an-issue`): Issue {
  const found = repo.issues.get(number);
  if (!found) throw notFound(documentation);
  return found;
}

/** Records an `issues` event (none for a pull request, which has its own). */
export function issueEvent(
  ctx: Ctx,
  repo: Repo,
  value: Issue,
  action: string,
  extra: Record<string, unknown> = {},
): void {
  if (value.pull) return;
  recordRepoEvent(ctx, repo, 'issues', action, {
    issue: issue(urlsOf(ctx), ctx.world, repo, value),
    ...extra,
  });
}

/** A new open issue (or the issue half of a pull request) by the caller, numbered next in the repository. */
export function createIssueRecord(ctx: Ctx, repo: Repo, title: string, body: string | null): Issue {
  const id = ctx.world.id();
  const now = ctx.world.now();
  const token = ctx.token;
  if (!token) throw notFound();
  const created: Issue = {
    id,
    node_id: nodeId('I', id),
    number: repo.nextNumber++,
    title,
    body,
    user: token.account,
    state: 'open',
    state_reason: null,
    labels: [],
    milestone: null,
    assignees: [],
    locked: false,
    created_at: now,
    updated_at: now,
    closed_at: null,
    closed_by: null,
    app: token.kind === 'pat' ? null : token.app,
    pull: null,
  };
  repo.issues.set(created.number, created);
  return created;
}
