/**
 * Issues, issue comments, labels and milestones. Last write wins (GitHub does not honour `If-Match` on
 * these); a caller without triage access has label, milestone and assignee changes silently dropped.
 */
import { createHash } from 'node:crypto';
import { canTriage, hasPush, requireAccess } from '../access.js';
import { recordEvent } from '../events.js';
import type { Ctx, Reply } from '../http.js';
import {
  bodyObject,
  HttpError,
  notFound,
  optionalString,
  paginate,
  requireString,
  unprocessable,
  validationFailed,
} from '../http.js';
import type { Urls } from '../represent.js';
import { comment, issue, label, milestone, repository, simpleUser } from '../represent.js';
import type { Router } from '../router.js';
import type { Comment, Issue, Label, Milestone, Repo, World } from '../state.js';
import { nodeId, roleAtLeast } from '../state.js';
import { intParam, loadRepo, urlsOf } from './common.js';

const ISSUES_DOC = 'https://docs.github.com/rest/issues/issues';
const COMMENTS_DOC = 'https://docs.github.com/rest/issues/comments';
const LABELS_DOC = 'https://docs.github.com/rest/issues/labels';
const MILESTONES_DOC = 'https://docs.github.com/rest/issues/milestones';

export function etagOf(body: unknown): string {
  return `W/"${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 40)}"`;
}

/**
 * Applies GitHub's If-Match behaviour for the current mode. Returns a reply to send *instead of* the
 * normal one (412), and whether the write must still be applied.
 */
export function conditional(ctx: Ctx, current: unknown): { refuse: Reply | null; apply: boolean } {
  const header = ctx.headers['if-match'];
  const mode = ctx.world.conditionalWrites;
  if (typeof header !== 'string' || mode === 'ignored') return { refuse: null, apply: true };
  const tags = header.split(',').map((tag) => tag.trim());
  if (tags.includes('*') || tags.includes(etagOf(current))) return { refuse: null, apply: true };
  const refuse: Reply = {
    status: 412,
    body: {
      message: 'Precondition Failed',
      documentation_url: 'https://docs.github.com/rest',
      status: '412',
    },
  };
  return { refuse, apply: mode === 'applied-then-412' };
}

function repoPayload(ctx: Ctx, repo: Repo): Record<string, unknown> {
  return { ...repository(urlsOf(ctx), repo), custom_properties: {} };
}

function sender(ctx: Ctx): Record<string, unknown> | undefined {
  return ctx.token ? simpleUser(urlsOf(ctx), ctx.token.account) : undefined;
}

function emit(ctx: Ctx, repo: Repo, event: string, action: string, payload: Record<string, unknown>): void {
  recordEvent(ctx.world, ctx.token, event, action, {
    ...payload,
    repository: repoPayload(ctx, repo),
    sender: sender(ctx),
  });
}

function issueEvent(
  ctx: Ctx,
  repo: Repo,
  value: Issue,
  action: string,
  extra: Record<string, unknown> = {},
): void {
  const urls = urlsOf(ctx);
  if (value.pull) return;
  emit(ctx, repo, 'issues', action, { issue: issue(urls, ctx.world, repo, value), ...extra });
}

function findIssue(repo: Repo, number: number, documentation = `${ISSUES_DOC}#get-an-issue`): Issue {
  const found = repo.issues.get(number);
  if (!found) throw notFound(documentation);
  return found;
}

export function ensureLabel(world: World, repo: Repo, name: string): Label {
  for (const existing of repo.labels.values())
    if (existing.name.toLowerCase() === name.toLowerCase()) return existing;
  const id = world.id();
  const created: Label = { id, node_id: nodeId('LA', id), name, color: 'ededed', description: null };
  repo.labels.set(id, created);
  return created;
}

function labelNames(value: unknown, field = 'labels'): string[] {
  if (!Array.isArray(value))
    throw unprocessable(
      `Invalid request.\n\nFor 'properties/${field}', ${JSON.stringify(value)} is not an array.`,
    );
  return value.map((entry) => {
    if (typeof entry === 'string') return entry;
    if (
      typeof entry === 'object' &&
      entry !== null &&
      typeof (entry as { name?: unknown }).name === 'string'
    ) {
      return (entry as { name: string }).name;
    }
    throw unprocessable(`Invalid request.\n\nFor 'items', ${JSON.stringify(entry)} is not a string.`);
  });
}

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
  if (body.labels !== undefined) {
    const wanted = labelNames(body.labels).map((name) => ensureLabel(ctx.world, repo, name).id);
    const removed = value.labels.filter((id) => !wanted.includes(id));
    const added = wanted.filter((id) => !value.labels.includes(id));
    value.labels = [...new Set(wanted)];
    if (emitEvents) {
      for (const id of removed) {
        const entry = repo.labels.get(id);
        if (entry) issueEvent(ctx, repo, value, 'unlabeled', { label: label(urls, repo, entry) });
      }
      for (const id of added) {
        const entry = repo.labels.get(id);
        if (entry) issueEvent(ctx, repo, value, 'labeled', { label: label(urls, repo, entry) });
      }
    }
  }
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

function canEditComment(ctx: Ctx, repo: Repo, target: Comment): boolean {
  const token = ctx.token;
  if (!token) return false;
  if (token.kind !== 'pat') return true;
  return token.account.id === target.user.id || roleAtLeast(ctx.world.roleOf(token.account, repo), 'write');
}

function commentEvent(
  ctx: Ctx,
  repo: Repo,
  target: Comment,
  action: string,
  extra: Record<string, unknown> = {},
): void {
  const parent = repo.issues.get(target.issue_number);
  if (!parent) return;
  const urls: Urls = urlsOf(ctx);
  emit(ctx, repo, 'issue_comment', action, {
    issue: issue(urls, ctx.world, repo, parent),
    comment: comment(urls, ctx.world, repo, target),
    ...extra,
  });
}

function sendIssue(ctx: Ctx, repo: Repo, value: Issue, status = 200): Reply {
  const body = issue(urlsOf(ctx), ctx.world, repo, value);
  return { status, body, headers: { etag: etagOf(body) } };
}

/** The comment named by the path, if the caller may edit or delete it (its author, or a writer). */
function editableComment(ctx: Ctx, anchor: string) {
  const repo = loadRepo(ctx, 'issues', 'write');
  const found = repo.comments.get(intParam(ctx, 'id'));
  if (!found) throw notFound(`${COMMENTS_DOC}#${anchor}`);
  if (!canEditComment(ctx, repo, found)) {
    throw new HttpError(403, {
      message: 'Resource not accessible by personal access token',
      documentation_url: COMMENTS_DOC,
      status: '403',
    });
  }
  return { repo, found };
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
    if (canTriage(ctx.world, ctx.token, repo)) {
      if (body.milestone !== undefined) milestoneNumber(repo, body.milestone);
      if (body.assignees !== undefined) assigneeIds(ctx, repo, body.assignees);
      if (body.labels !== undefined) labelNames(body.labels);
    }
    const created = createIssueRecord(ctx, repo, String(title), optionalString(body, 'body') ?? null);
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
    return {
      ...sendIssue(ctx, repo, created, 201),
      headers: { location: `${ctx.base}/repos/${repo.owner.login}/${repo.name}/issues/${created.number}` },
    };
  });

  router.add('GET', '/repos/:owner/:repo/issues/comments', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'read');
    const since = ctx.query.get('since');
    let items = [...repo.comments.values()];
    if (since) items = items.filter((entry) => Date.parse(entry.updated_at) >= Date.parse(since));
    const sort = ctx.query.get('sort');
    if (sort === 'updated')
      items.sort((a, b) => Date.parse(a.updated_at) - Date.parse(b.updated_at) || a.id - b.id);
    else items.sort((a, b) => a.id - b.id);
    if (sort && ctx.query.get('direction') === 'desc') items.reverse();
    return {
      status: 200,
      body: paginate(ctx, items).map((entry) => comment(urlsOf(ctx), ctx.world, repo, entry)),
    };
  });

  router.add('GET', '/repos/:owner/:repo/issues/comments/:id', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'read');
    const found = repo.comments.get(intParam(ctx, 'id'));
    if (!found) throw notFound(`${COMMENTS_DOC}#get-an-issue-comment`);
    const body = comment(urlsOf(ctx), ctx.world, repo, found);
    return { status: 200, body, headers: { etag: etagOf(body) } };
  });

  router.add('PATCH', '/repos/:owner/:repo/issues/comments/:id', (ctx) => {
    const { repo, found } = editableComment(ctx, 'update-an-issue-comment');
    const text = requireString(bodyObject(ctx), 'body', `${COMMENTS_DOC}#update-an-issue-comment`);
    const { refuse, apply } = conditional(ctx, comment(urlsOf(ctx), ctx.world, repo, found));
    if (apply) {
      const previous = found.body;
      found.body = text;
      found.updated_at = ctx.world.now();
      if (previous !== text)
        commentEvent(ctx, repo, found, 'edited', { changes: { body: { from: previous } } });
    }
    if (refuse) return refuse;
    const body = comment(urlsOf(ctx), ctx.world, repo, found);
    return { status: 200, body, headers: { etag: etagOf(body) } };
  });

  router.add('DELETE', '/repos/:owner/:repo/issues/comments/:id', (ctx) => {
    const { repo, found } = editableComment(ctx, 'delete-an-issue-comment');
    commentEvent(ctx, repo, found, 'deleted');
    repo.comments.delete(found.id);
    return { status: 204 };
  });

  router.add('GET', '/repos/:owner/:repo/issues/:number', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'read');
    return sendIssue(ctx, repo, findIssue(repo, intParam(ctx, 'number')));
  });

  router.add('PATCH', '/repos/:owner/:repo/issues/:number', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'write');
    const found = findIssue(repo, intParam(ctx, 'number'), `${ISSUES_DOC}#update-an-issue`);
    const token = ctx.token;
    if (!token) throw notFound();
    const isAuthor = token.account.id === found.user.id;
    if (!isAuthor && !canTriage(ctx.world, token, repo)) {
      throw new HttpError(403, {
        message: 'Resource not accessible by personal access token',
        documentation_url: ISSUES_DOC,
        status: '403',
      });
    }
    const body = bodyObject(ctx);
    const requestedState = optionalString(body, 'state');
    if (requestedState !== undefined && requestedState !== 'open' && requestedState !== 'closed') {
      throw validationFailed([{ resource: 'Issue', field: 'state', code: 'invalid', value: requestedState }]);
    }
    if (canTriage(ctx.world, token, repo)) {
      // Validate before changing anything, so a bad milestone or assignee leaves the issue untouched.
      if (body.milestone !== undefined) milestoneNumber(repo, body.milestone);
      if (body.assignees !== undefined) assigneeIds(ctx, repo, body.assignees);
      if (body.labels !== undefined) labelNames(body.labels);
    }
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
    return sendIssue(ctx, repo, found);
  });

  router.add('GET', '/repos/:owner/:repo/issues/:number/comments', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'read');
    const number = intParam(ctx, 'number');
    findIssue(repo, number, `${COMMENTS_DOC}#list-issue-comments`);
    const since = ctx.query.get('since');
    const items = [...repo.comments.values()]
      .filter((entry) => entry.issue_number === number)
      .filter((entry) => !since || Date.parse(entry.updated_at) >= Date.parse(since))
      .sort((a, b) => a.id - b.id);
    return {
      status: 200,
      body: paginate(ctx, items).map((entry) => comment(urlsOf(ctx), ctx.world, repo, entry)),
    };
  });

  router.add('POST', '/repos/:owner/:repo/issues/:number/comments', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'write');
    const number = intParam(ctx, 'number');
    const parent = findIssue(repo, number, `${COMMENTS_DOC}#create-an-issue-comment`);
    const text = requireString(bodyObject(ctx), 'body', `${COMMENTS_DOC}#create-an-issue-comment`);
    if (parent.locked && !hasPush(ctx.world, ctx.token, repo)) {
      throw new HttpError(403, {
        message: 'Unable to create comment because issue is locked.',
        documentation_url: COMMENTS_DOC,
        status: '403',
      });
    }
    const token = ctx.token;
    if (!token) throw notFound();
    const id = ctx.world.id();
    const now = ctx.world.now();
    const created: Comment = {
      id,
      node_id: nodeId('IC', id),
      issue_number: number,
      body: text,
      user: token.account,
      app: token.kind === 'pat' ? null : token.app,
      created_at: now,
      updated_at: now,
    };
    repo.comments.set(id, created);
    parent.updated_at = now;
    commentEvent(ctx, repo, created, 'created');
    const body = comment(urlsOf(ctx), ctx.world, repo, created);
    return { status: 201, body, headers: { location: String(body.url) } };
  });

  router.add('GET', '/repos/:owner/:repo/issues/:number/labels', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'read');
    const found = findIssue(repo, intParam(ctx, 'number'), `${LABELS_DOC}#list-labels-for-an-issue`);
    const items = found.labels
      .map((id) => repo.labels.get(id))
      .filter((entry): entry is Label => entry !== undefined);
    return { status: 200, body: paginate(ctx, items).map((entry) => label(urlsOf(ctx), repo, entry)) };
  });

  const setLabels = (ctx: Ctx, replace: boolean): Reply => {
    const repo = loadRepo(ctx, 'issues', 'write');
    const found = findIssue(repo, intParam(ctx, 'number'), `${LABELS_DOC}#add-labels-to-an-issue`);
    if (!canTriage(ctx.world, ctx.token, repo)) {
      throw new HttpError(403, {
        message: 'Resource not accessible by personal access token',
        documentation_url: LABELS_DOC,
        status: '403',
      });
    }
    const raw = Array.isArray(ctx.body) ? ctx.body : bodyObject(ctx).labels;
    const names = labelNames(raw ?? []);
    const ids = names.map((name) => ensureLabel(ctx.world, repo, name).id);
    const next = replace ? ids : [...found.labels, ...ids];
    applyTriageFields(
      ctx,
      repo,
      found,
      { labels: [...new Set(next)].map((id) => repo.labels.get(id)?.name ?? '') },
      true,
    );
    found.updated_at = ctx.world.now();
    const items = found.labels
      .map((id) => repo.labels.get(id))
      .filter((entry): entry is Label => entry !== undefined);
    return { status: 200, body: items.map((entry) => label(urlsOf(ctx), repo, entry)) };
  };
  router.add('POST', '/repos/:owner/:repo/issues/:number/labels', (ctx) => setLabels(ctx, false));
  router.add('PUT', '/repos/:owner/:repo/issues/:number/labels', (ctx) => setLabels(ctx, true));

  router.add('DELETE', '/repos/:owner/:repo/issues/:number/labels/:name', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'write');
    const found = findIssue(repo, intParam(ctx, 'number'), `${LABELS_DOC}#remove-a-label-from-an-issue`);
    if (!canTriage(ctx.world, ctx.token, repo)) {
      throw new HttpError(403, {
        message: 'Resource not accessible by personal access token',
        documentation_url: LABELS_DOC,
        status: '403',
      });
    }
    const name = (ctx.params.name ?? '').toLowerCase();
    const target = found.labels.find((id) => repo.labels.get(id)?.name.toLowerCase() === name);
    if (target === undefined) {
      throw new HttpError(404, {
        message: 'Label does not exist',
        documentation_url: `${LABELS_DOC}#remove-a-label-from-an-issue`,
        status: '404',
      });
    }
    applyTriageFields(
      ctx,
      repo,
      found,
      { labels: found.labels.filter((id) => id !== target).map((id) => repo.labels.get(id)?.name ?? '') },
      true,
    );
    found.updated_at = ctx.world.now();
    const items = found.labels
      .map((id) => repo.labels.get(id))
      .filter((entry): entry is Label => entry !== undefined);
    return { status: 200, body: items.map((entry) => label(urlsOf(ctx), repo, entry)) };
  });

  router.add('GET', '/repos/:owner/:repo/labels', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'read');
    const items = [...repo.labels.values()].sort((a, b) => a.id - b.id);
    return { status: 200, body: paginate(ctx, items).map((entry) => label(urlsOf(ctx), repo, entry)) };
  });

  router.add('GET', '/repos/:owner/:repo/labels/:name', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'read');
    const name = (ctx.params.name ?? '').toLowerCase();
    const found = [...repo.labels.values()].find((entry) => entry.name.toLowerCase() === name);
    if (!found) throw notFound(`${LABELS_DOC}#get-a-label`);
    return { status: 200, body: label(urlsOf(ctx), repo, found) };
  });

  const findLabel = (repo: Repo, name: string, documentation: string): Label => {
    const lower = name.toLowerCase();
    const found = [...repo.labels.values()].find((entry) => entry.name.toLowerCase() === lower);
    if (!found) throw notFound(documentation);
    return found;
  };

  router.add('PATCH', '/repos/:owner/:repo/labels/:name', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'write');
    if (!canTriage(ctx.world, ctx.token, repo)) {
      throw new HttpError(403, {
        message: 'Resource not accessible by personal access token',
        documentation_url: LABELS_DOC,
        status: '403',
      });
    }
    const documentation = `${LABELS_DOC}#update-a-label`;
    const found = findLabel(repo, ctx.params.name ?? '', documentation);
    const body = bodyObject(ctx);
    const newName = optionalString(body, 'new_name');
    if (newName !== undefined && newName.toLowerCase() !== found.name.toLowerCase()) {
      if ([...repo.labels.values()].some((entry) => entry.name.toLowerCase() === newName.toLowerCase())) {
        throw validationFailed([{ resource: 'Label', code: 'already_exists', field: 'name' }], documentation);
      }
    }
    const color = optionalString(body, 'color')?.replace(/^#/, '');
    if (color !== undefined && !/^[0-9a-fA-F]{6}$/.test(color)) {
      throw validationFailed([{ resource: 'Label', code: 'invalid', field: 'color' }], documentation);
    }
    const description = Object.prototype.hasOwnProperty.call(body, 'description')
      ? (optionalString(body, 'description') ?? null)
      : undefined;
    if (description && description.length > 100)
      throw validationFailed([{ resource: 'Label', code: 'invalid', field: 'description' }], documentation);
    if (newName !== undefined) found.name = newName;
    if (color !== undefined) found.color = color.toLowerCase();
    if (description !== undefined) found.description = description;
    return { status: 200, body: label(urlsOf(ctx), repo, found) };
  });

  router.add('DELETE', '/repos/:owner/:repo/labels/:name', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'write');
    if (!canTriage(ctx.world, ctx.token, repo)) {
      throw new HttpError(403, {
        message: 'Resource not accessible by personal access token',
        documentation_url: LABELS_DOC,
        status: '403',
      });
    }
    const found = findLabel(repo, ctx.params.name ?? '', `${LABELS_DOC}#delete-a-label`);
    repo.labels.delete(found.id);
    for (const entry of repo.issues.values()) entry.labels = entry.labels.filter((id) => id !== found.id);
    return { status: 204 };
  });

  router.add('POST', '/repos/:owner/:repo/labels', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'write');
    if (!canTriage(ctx.world, ctx.token, repo)) {
      throw new HttpError(403, {
        message: 'Resource not accessible by personal access token',
        documentation_url: LABELS_DOC,
        status: '403',
      });
    }
    const body = bodyObject(ctx);
    const name = requireString(body, 'name', `${LABELS_DOC}#create-a-label`);
    if ([...repo.labels.values()].some((entry) => entry.name.toLowerCase() === name.toLowerCase())) {
      throw validationFailed(
        [{ resource: 'Label', code: 'already_exists', field: 'name' }],
        `${LABELS_DOC}#create-a-label`,
      );
    }
    const color = (optionalString(body, 'color') ?? 'ededed').replace(/^#/, '');
    if (!/^[0-9a-fA-F]{6}$/.test(color))
      throw validationFailed(
        [{ resource: 'Label', code: 'invalid', field: 'color' }],
        `${LABELS_DOC}#create-a-label`,
      );
    const description = optionalString(body, 'description') ?? null;
    if (description !== null && description.length > 100) {
      throw validationFailed(
        [{ resource: 'Label', code: 'invalid', field: 'description' }],
        `${LABELS_DOC}#create-a-label`,
      );
    }
    const id = ctx.world.id();
    const created: Label = { id, node_id: nodeId('LA', id), name, color: color.toLowerCase(), description };
    repo.labels.set(id, created);
    const out = label(urlsOf(ctx), repo, created);
    return { status: 201, body: out, headers: { location: String(out.url) } };
  });

  registerMilestoneRoutes(router);
}

function milestoneTitleTaken(repo: Repo, title: string, except?: number): boolean {
  return [...repo.milestones.values()].some((entry) => entry.title === title && entry.number !== except);
}

function registerMilestoneRoutes(router: Router): void {
  const requireMilestoneWrite = (ctx: Ctx, repo: Repo): void => {
    requireAccess(ctx, repo, 'issues', 'write');
    const token = ctx.token;
    if (token?.kind === 'pat' && !roleAtLeast(ctx.world.roleOf(token.account, repo), 'write')) {
      throw new HttpError(403, {
        message: 'Resource not accessible by personal access token',
        documentation_url: MILESTONES_DOC,
        status: '403',
      });
    }
  };
  const parseDue = (body: Record<string, unknown>): string | null | undefined => {
    if (body.due_on === undefined) return undefined;
    if (body.due_on === null) return null;
    const due = optionalString(body, 'due_on');
    const parsed = due === undefined ? NaN : Date.parse(due);
    if (!Number.isFinite(parsed))
      throw validationFailed([{ resource: 'Milestone', code: 'invalid', field: 'due_on' }], MILESTONES_DOC);
    return new Date(parsed).toISOString().replace(/\.\d{3}Z$/, 'Z');
  };
  const sendMilestone = (ctx: Ctx, repo: Repo, value: Milestone, status = 200): Reply => {
    const body = milestone(urlsOf(ctx), repo, value);
    return { status, body, headers: { etag: etagOf(body) } };
  };

  router.add('GET', '/repos/:owner/:repo/milestones', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'read');
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
    return { status: 200, body: paginate(ctx, items).map((entry) => milestone(urlsOf(ctx), repo, entry)) };
  });

  router.add('POST', '/repos/:owner/:repo/milestones', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'write');
    requireMilestoneWrite(ctx, repo);
    const body = bodyObject(ctx);
    const title = requireString(body, 'title', `${MILESTONES_DOC}#create-a-milestone`);
    if (milestoneTitleTaken(repo, title)) {
      throw validationFailed(
        [{ resource: 'Milestone', code: 'already_exists', field: 'title' }],
        `${MILESTONES_DOC}#create-a-milestone`,
      );
    }
    const state = optionalString(body, 'state') ?? 'open';
    if (state !== 'open' && state !== 'closed')
      throw validationFailed([{ resource: 'Milestone', code: 'invalid', field: 'state' }], MILESTONES_DOC);
    const id = ctx.world.id();
    const now = ctx.world.now();
    const token = ctx.token;
    if (!token) throw notFound();
    const created: Milestone = {
      id,
      node_id: nodeId('MI', id),
      number: repo.nextMilestone++,
      title,
      description: optionalString(body, 'description') ?? null,
      state,
      due_on: parseDue(body) ?? null,
      creator: token.account,
      created_at: now,
      updated_at: now,
      closed_at: state === 'closed' ? now : null,
    };
    repo.milestones.set(created.number, created);
    const reply = sendMilestone(ctx, repo, created, 201);
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
    return sendMilestone(ctx, repo, found);
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
      if (title !== undefined && milestoneTitleTaken(repo, title, found.number)) {
        throw validationFailed(
          [{ resource: 'Milestone', code: 'already_exists', field: 'title' }],
          `${MILESTONES_DOC}#update-a-milestone`,
        );
      }
      const state = optionalString(body, 'state');
      if (state !== undefined && state !== 'open' && state !== 'closed') {
        throw validationFailed([{ resource: 'Milestone', code: 'invalid', field: 'state' }], MILESTONES_DOC);
      }
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
    return sendMilestone(ctx, repo, found);
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
