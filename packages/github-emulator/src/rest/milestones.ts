/**
 * Milestones: create, get, update (last write wins), delete and list. Titles are unique per repository;
 * a PAT needs write access (an app token, `issues: write`).
 */
import { requireAccess } from '../access.js';
import type { Ctx } from '../http.js';
import {
  bodyObject,
  notFound,
  optionalString,
  paginate,
  patForbidden,
  requireString,
  validationFailed,
} from '../http.js';
import { milestone } from '../represent.js';
import type { Router } from '../router.js';
import type { Milestone, Repo } from '../state.js';
import { nodeId, roleAtLeast } from '../state.js';
import { intParam, loadRepo, urlsOf } from './common.js';
import { conditional, markerCreate, withEtag } from './conditional.js';

const MILESTONES_DOC = 'https://docs.github.com/rest/issues/milestones';

function milestoneTitleTaken(repo: Repo, title: string, except?: number): boolean {
  return [...repo.milestones.values()].some((entry) => entry.title === title && entry.number !== except);
}

function refuseTakenTitle(repo: Repo, title: string, documentation: string, except?: number): void {
  if (milestoneTitleTaken(repo, title, except)) {
    throw validationFailed(
      [{ resource: 'Milestone', code: 'already_exists', field: 'title' }],
      documentation,
    );
  }
}

function checkState(state: string | undefined): asserts state is Milestone['state'] | undefined {
  if (state !== undefined && state !== 'open' && state !== 'closed')
    throw validationFailed([{ resource: 'Milestone', code: 'invalid', field: 'state' }], MILESTONES_DOC);
}

function requireMilestoneWrite(ctx: Ctx, repo: Repo): void {
  requireAccess(ctx, repo, 'issues', 'write');
  const token = ctx.token;
  if (token?.kind === 'pat' && !roleAtLeast(ctx.world.roleOf(token.account, repo), 'write')) {
    throw patForbidden(MILESTONES_DOC);
  }
}

/** `due_on` as GitHub stores it (seconds, `Z`); `undefined` when absent, `null` to clear it. */
function parseDue(body: Record<string, unknown>): string | null | undefined {
  if (body.due_on === undefined) return undefined;
  if (body.due_on === null) return null;
  const due = optionalString(body, 'due_on');
  const parsed = due === undefined ? NaN : Date.parse(due);
  if (!Number.isFinite(parsed))
    throw validationFailed([{ resource: 'Milestone', code: 'invalid', field: 'due_on' }], MILESTONES_DOC);
  return new Date(parsed).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function listMilestones(ctx: Ctx, repo: Repo): Milestone[] {
  const state = ctx.query.get('state') ?? 'open';
  const sort = ctx.query.get('sort') ?? 'due_on';
  const direction = ctx.query.get('direction') ?? 'asc';
  let items = [...repo.milestones.values()];
  if (state !== 'all') items = items.filter((entry) => entry.state === state);
  const completeness = (entry: Milestone): number => {
    const issues = [...repo.issues.values()].filter((candidate) => candidate.milestone === entry.number);
    return issues.length === 0
      ? 0
      : issues.filter((candidate) => candidate.state === 'closed').length / issues.length;
  };
  items.sort((a, b) => {
    if (sort === 'completeness') return completeness(a) - completeness(b) || a.number - b.number;
    const due = (entry: Milestone): number =>
      entry.due_on ? Date.parse(entry.due_on) : Number.MAX_SAFE_INTEGER;
    return due(a) - due(b) || a.number - b.number;
  });
  if (direction === 'desc') items.reverse();
  return items;
}

export function registerMilestoneRoutes(router: Router): void {
  router.add('GET', '/repos/:owner/:repo/milestones', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'read');
    return {
      status: 200,
      body: paginate(ctx, listMilestones(ctx, repo)).map((entry) => milestone(urlsOf(ctx), repo, entry)),
    };
  });

  router.add('POST', '/repos/:owner/:repo/milestones', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'write');
    requireMilestoneWrite(ctx, repo);
    const documentation = `${MILESTONES_DOC}#create-a-milestone`;
    const body = bodyObject(ctx);
    const title = requireString(body, 'title', documentation);
    refuseTakenTitle(repo, title, documentation);
    const state = optionalString(body, 'state') ?? 'open';
    checkState(state);
    const description = optionalString(body, 'description') ?? null;
    const unique = markerCreate(
      ctx,
      'Milestone',
      description,
      [...repo.milestones.values()].map((entry) => entry.description),
    );
    if (!unique.apply && unique.refuse) return unique.refuse;
    const id = ctx.world.id();
    const now = ctx.world.now();
    const token = ctx.token;
    if (!token) throw notFound();
    const created: Milestone = {
      id,
      node_id: nodeId('MI', id),
      number: repo.nextMilestone++,
      title,
      description,
      state,
      due_on: parseDue(body) ?? null,
      creator: token.account,
      created_at: now,
      updated_at: now,
      closed_at: state === 'closed' ? now : null,
    };
    repo.milestones.set(created.number, created);
    if (unique.refuse) return unique.refuse;
    const reply = withEtag(milestone(urlsOf(ctx), repo, created), 201);
    return {
      ...reply,
      headers: {
        ...reply.headers,
        location: `${ctx.base}/repos/${repo.owner.login}/${repo.name}/milestones/${created.number}`,
      },
    };
  });

  router.add('GET', '/repos/:owner/:repo/milestones/:number', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'read');
    const found = repo.milestones.get(intParam(ctx, 'number'));
    if (!found) throw notFound(`${MILESTONES_DOC}#get-a-milestone`);
    return withEtag(milestone(urlsOf(ctx), repo, found));
  });

  router.add('PATCH', '/repos/:owner/:repo/milestones/:number', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'write');
    requireMilestoneWrite(ctx, repo);
    const found = repo.milestones.get(intParam(ctx, 'number'));
    if (!found) throw notFound(`${MILESTONES_DOC}#update-a-milestone`);
    const body = bodyObject(ctx);
    const { refuse, apply } = conditional(ctx, milestone(urlsOf(ctx), repo, found));
    if (apply) {
      const title = optionalString(body, 'title');
      if (title !== undefined)
        refuseTakenTitle(repo, title, `${MILESTONES_DOC}#update-a-milestone`, found.number);
      const state = optionalString(body, 'state');
      checkState(state);
      const due = parseDue(body);
      if (title !== undefined) found.title = title;
      if (Object.prototype.hasOwnProperty.call(body, 'description')) {
        found.description = body.description === null ? null : (optionalString(body, 'description') ?? null);
      }
      if (due !== undefined) found.due_on = due;
      if (state !== undefined && state !== found.state) {
        found.state = state;
        found.closed_at = state === 'closed' ? ctx.world.now() : null;
      }
      found.updated_at = ctx.world.now();
    }
    if (refuse) return refuse;
    return withEtag(milestone(urlsOf(ctx), repo, found));
  });

  router.add('DELETE', '/repos/:owner/:repo/milestones/:number', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'write');
    requireMilestoneWrite(ctx, repo);
    const number = intParam(ctx, 'number');
    if (!repo.milestones.delete(number)) throw notFound(`${MILESTONES_DOC}#delete-a-milestone`);
    for (const entry of repo.issues.values()) if (entry.milestone === number) entry.milestone = null;
    return { status: 204 };
  });
}
