/**
 * Issues: create, get, update and list (the list includes pull requests). Last write wins (GitHub does
 * not honour `If-Match` on these); a caller without triage access has label, milestone and assignee
 * changes silently dropped. Comments, labels and milestones have their own modules.
 */
import { canTriage } from '../access.js';
import type { Ctx, Reply } from '../http.js';
import {
  bodyObject,
  notFound,
  optionalString,
  paginate,
  patForbidden,
  unprocessable,
  validationFailed,
} from '../http.js';
import { issue, label, milestone } from '../represent.js';
import type { Router } from '../router.js';
import type { Issue, Repo } from '../state.js';
import { intParam, loadRepo, urlsOf } from './common.js';
import { conditional, markerCreate, withEtag } from './conditional.js';
import { createIssueRecord, findIssue, ISSUES_DOC, issueEvent } from './issue-records.js';
import { applyIssueLabels, labelNames } from './labels.js';

function milestoneNumber(repo: Repo, value: unknown): number | null {
  if (value === null) return null;
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !repo.milestones.has(number)) {
    throw validationFailed(
      [{ value, resource: 'Issue', field: 'milestone', code: 'invalid' }],
      `${ISSUES_DOC}#update-an-issue`,
    );
  }
  return number;
}

function assigneeIds(ctx: Ctx, repo: Repo, value: unknown): number[] {
  if (!Array.isArray(value))
    throw unprocessable(
      `Invalid request.\n\nFor 'properties/assignees', ${JSON.stringify(value)} is not an array.`,
    );
  return value.map((login) => {
    const account = typeof login === 'string' ? ctx.world.account(login) : undefined;
    if (!account || ctx.world.roleOf(account, repo) === null) {
      throw validationFailed([{ value: login, resource: 'Issue', field: 'assignees', code: 'invalid' }]);
    }
    return account.id;
  });
}

/** Checks the triage fields before anything changes, so a bad one leaves the issue untouched. */
function validateTriageFields(ctx: Ctx, repo: Repo, body: Record<string, unknown>): void {
  if (!canTriage(ctx.world, ctx.token, repo)) return;
  if (body.milestone !== undefined) milestoneNumber(repo, body.milestone);
  if (body.assignees !== undefined) assigneeIds(ctx, repo, body.assignees);
  if (body.labels !== undefined) labelNames(body.labels);
}

/** Applies label/milestone/assignee fields (triage-gated, silently dropped otherwise) and records events. */
function applyTriageFields(
  ctx: Ctx,
  repo: Repo,
  value: Issue,
  body: Record<string, unknown>,
  emitEvents: boolean,
): void {
  if (!canTriage(ctx.world, ctx.token, repo)) return;
  const urls = urlsOf(ctx);
  if (body.labels !== undefined) applyIssueLabels(ctx, repo, value, labelNames(body.labels), emitEvents);
  if (body.milestone !== undefined) {
    const next = milestoneNumber(repo, body.milestone);
    const previous = value.milestone;
    value.milestone = next;
    if (emitEvents && previous !== next) {
      const previousValue = previous === null ? undefined : repo.milestones.get(previous);
      if (previousValue && next === null)
        issueEvent(ctx, repo, value, 'demilestoned', { milestone: milestone(urls, repo, previousValue) });
      const nextValue = next === null ? undefined : repo.milestones.get(next);
      if (nextValue)
        issueEvent(ctx, repo, value, 'milestoned', { milestone: milestone(urls, repo, nextValue) });
    }
  }
  if (body.assignees !== undefined) value.assignees = assigneeIds(ctx, repo, body.assignees);
  else if (typeof body.assignee === 'string') value.assignees = assigneeIds(ctx, repo, [body.assignee]);
  else if (body.assignee === null) value.assignees = [];
}

function listIssues(ctx: Ctx, repo: Repo): Issue[] {
  const state = ctx.query.get('state') ?? 'open';
  const milestoneFilter = ctx.query.get('milestone');
  const labelsFilter = ctx.query.get('labels');
  const since = ctx.query.get('since');
  const creator = ctx.query.get('creator');
  const assignee = ctx.query.get('assignee');
  const sort = ctx.query.get('sort') ?? 'created';
  const direction = ctx.query.get('direction') ?? 'desc';
  let items = [...repo.issues.values()];
  if (state !== 'all') items = items.filter((entry) => entry.state === state);
  if (milestoneFilter === 'none') items = items.filter((entry) => entry.milestone === null);
  else if (milestoneFilter === '*') items = items.filter((entry) => entry.milestone !== null);
  else if (milestoneFilter !== null)
    items = items.filter((entry) => entry.milestone === Number(milestoneFilter));
  if (labelsFilter) {
    const wanted = labelsFilter
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== '');
    items = items.filter((entry) =>
      wanted.every((name) => entry.labels.some((id) => repo.labels.get(id)?.name.toLowerCase() === name)),
    );
  }
  if (since) {
    const threshold = Date.parse(since);
    items = items.filter((entry) => Date.parse(entry.updated_at) >= threshold);
  }
  if (creator) items = items.filter((entry) => entry.user.login.toLowerCase() === creator.toLowerCase());
  if (assignee === 'none') items = items.filter((entry) => entry.assignees.length === 0);
  else if (assignee === '*') items = items.filter((entry) => entry.assignees.length > 0);
  else if (assignee)
    items = items.filter((entry) =>
      entry.assignees.some((id) => ctx.world.accountById(id)?.login.toLowerCase() === assignee.toLowerCase()),
    );
  const commentCount = (entry: Issue): number =>
    [...repo.comments.values()].filter((c) => c.issue_number === entry.number).length;
  const key = (entry: Issue): number =>
    sort === 'updated'
      ? Date.parse(entry.updated_at)
      : sort === 'comments'
        ? commentCount(entry)
        : Date.parse(entry.created_at);
  items.sort((a, b) => key(a) - key(b) || a.number - b.number);
  if (direction !== 'asc') items.reverse();
  return items;
}

function issueReply(ctx: Ctx, repo: Repo, value: Issue, status = 200): Reply {
  return withEtag(issue(urlsOf(ctx), ctx.world, repo, value), status);
}

export function registerIssueRoutes(router: Router): void {
  router.add('GET', '/repos/:owner/:repo/issues', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'read');
    return {
      status: 200,
      body: paginate(ctx, listIssues(ctx, repo)).map((entry) => issue(urlsOf(ctx), ctx.world, repo, entry)),
    };
  });

  router.add('POST', '/repos/:owner/:repo/issues', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'write');
    const body = bodyObject(ctx);
    const title = body.title;
    if (typeof title !== 'string' && typeof title !== 'number') {
      throw validationFailed(
        [{ resource: 'Issue', code: 'missing_field', field: 'title' }],
        `${ISSUES_DOC}#create-an-issue`,
      );
    }
    validateTriageFields(ctx, repo, body);
    const text = optionalString(body, 'body') ?? null;
    const unique = markerCreate(
      ctx,
      'Issue',
      text,
      [...repo.issues.values()].map((entry) => entry.body),
    );
    if (!unique.apply && unique.refuse) return unique.refuse;
    const created = createIssueRecord(ctx, repo, String(title), text);
    // GitHub sends `opened` with the labels and milestone already set, then `labeled` / `milestoned`.
    applyTriageFields(ctx, repo, created, body, false);
    issueEvent(ctx, repo, created, 'opened');
    const urls = urlsOf(ctx);
    for (const id of created.labels) {
      const entry = repo.labels.get(id);
      if (entry) issueEvent(ctx, repo, created, 'labeled', { label: label(urls, repo, entry) });
    }
    const chosen = created.milestone === null ? undefined : repo.milestones.get(created.milestone);
    if (chosen) issueEvent(ctx, repo, created, 'milestoned', { milestone: milestone(urls, repo, chosen) });
    if (unique.refuse) return unique.refuse;
    return {
      ...issueReply(ctx, repo, created, 201),
      headers: { location: `${ctx.base}/repos/${repo.owner.login}/${repo.name}/issues/${created.number}` },
    };
  });

  router.add('GET', '/repos/:owner/:repo/issues/:number', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'read');
    return issueReply(ctx, repo, findIssue(repo, intParam(ctx, 'number')));
  });

  router.add('PATCH', '/repos/:owner/:repo/issues/:number', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'write');
    const found = findIssue(repo, intParam(ctx, 'number'), `${ISSUES_DOC}#update-an-issue`);
    const token = ctx.token;
    if (!token) throw notFound();
    const isAuthor = token.account.id === found.user.id;
    if (!isAuthor && !canTriage(ctx.world, token, repo)) throw patForbidden(ISSUES_DOC);
    const body = bodyObject(ctx);
    const requestedState = optionalString(body, 'state');
    if (requestedState !== undefined && requestedState !== 'open' && requestedState !== 'closed') {
      throw validationFailed([{ resource: 'Issue', field: 'state', code: 'invalid', value: requestedState }]);
    }
    validateTriageFields(ctx, repo, body);
    const { refuse, apply } = conditional(ctx, issue(urlsOf(ctx), ctx.world, repo, found));
    if (apply) {
      const changes: Record<string, { from: string }> = {};
      const title = optionalString(body, 'title');
      if (title !== undefined && title !== found.title) {
        changes.title = { from: found.title };
        found.title = title;
      }
      if (Object.prototype.hasOwnProperty.call(body, 'body')) {
        const text = body.body === null ? null : (optionalString(body, 'body') ?? null);
        if (text !== found.body) {
          changes.body = { from: found.body ?? '' };
          found.body = text;
        }
      }
      const state = requestedState;
      let stateAction: string | null = null;
      if (state !== undefined) {
        if (state !== found.state) {
          found.state = state;
          found.closed_at = state === 'closed' ? ctx.world.now() : null;
          found.closed_by = state === 'closed' ? token.account : null;
          found.state_reason =
            state === 'closed' ? (optionalString(body, 'state_reason') ?? 'completed') : 'reopened';
          stateAction = state === 'closed' ? 'closed' : 'reopened';
        }
      }
      found.updated_at = ctx.world.now();
      if (Object.keys(changes).length > 0) issueEvent(ctx, repo, found, 'edited', { changes });
      applyTriageFields(ctx, repo, found, body, true);
      if (stateAction) issueEvent(ctx, repo, found, stateAction);
    }
    if (refuse) return refuse;
    return issueReply(ctx, repo, found);
  });
}
