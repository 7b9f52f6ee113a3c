/**
 * Labels: the repository's labels (create, get, update, delete, list) and an issue's (list, add, set,
 * remove). Names match case-insensitively; every label endpoint needs triage access.
 */
import { canTriage } from '../access.js';
import type { Ctx, Reply } from '../http.js';
import {
  bodyObject,
  HttpError,
  notFound,
  optionalString,
  paginate,
  patForbidden,
  requireString,
  unprocessable,
  validationFailed,
} from '../http.js';
import { label } from '../represent.js';
import type { Router } from '../router.js';
import type { Issue, Label, Repo, World } from '../state.js';
import { nodeId } from '../state.js';
import { intParam, loadRepo, urlsOf } from './common.js';
import { findIssue, issueEvent } from './issue-records.js';

const LABELS_DOC = 'https://docs.github.com/rest/issues/labels';

function labelNamed(repo: Repo, name: string): Label | undefined {
  const lower = name.toLowerCase();
  return [...repo.labels.values()].find((entry) => entry.name.toLowerCase() === lower);
}

function findLabel(repo: Repo, name: string, documentation: string): Label {
  const found = labelNamed(repo, name);
  if (!found) throw notFound(documentation);
  return found;
}

/** The label of that name, created (grey, no description) if the repository has none. */
function ensureLabel(world: World, repo: Repo, name: string): Label {
  const existing = labelNamed(repo, name);
  if (existing) return existing;
  const id = world.id();
  const created: Label = { id, node_id: nodeId('LA', id), name, color: 'ededed', description: null };
  repo.labels.set(id, created);
  return created;
}

function issueLabels(repo: Repo, value: Issue): Label[] {
  return value.labels.map((id) => repo.labels.get(id)).filter((entry): entry is Label => entry !== undefined);
}

/** The label names of a request body's `labels` (strings or `{name}` objects); GitHub's 422 otherwise. */
export function labelNames(value: unknown, field = 'labels'): string[] {
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

/** Sets an issue's labels to `names` (creating missing ones), with `unlabeled`/`labeled` events if asked. */
export function applyIssueLabels(
  ctx: Ctx,
  repo: Repo,
  value: Issue,
  names: string[],
  emitEvents: boolean,
): void {
  const urls = urlsOf(ctx);
  const wanted = names.map((name) => ensureLabel(ctx.world, repo, name).id);
  const removed = value.labels.filter((id) => !wanted.includes(id));
  const added = wanted.filter((id) => !value.labels.includes(id));
  value.labels = [...new Set(wanted)];
  if (!emitEvents) return;
  for (const id of removed) {
    const entry = repo.labels.get(id);
    if (entry) issueEvent(ctx, repo, value, 'unlabeled', { label: label(urls, repo, entry) });
  }
  for (const id of added) {
    const entry = repo.labels.get(id);
    if (entry) issueEvent(ctx, repo, value, 'labeled', { label: label(urls, repo, entry) });
  }
}

function requireTriage(ctx: Ctx, repo: Repo): void {
  if (!canTriage(ctx.world, ctx.token, repo)) throw patForbidden(LABELS_DOC);
}

function refuseTakenName(repo: Repo, name: string, documentation: string): void {
  if (labelNamed(repo, name))
    throw validationFailed([{ resource: 'Label', code: 'already_exists', field: 'name' }], documentation);
}

/** A six-digit hex colour (lower-cased); GitHub's 422 otherwise. */
function checkColor(color: string, documentation: string): string {
  if (!/^[0-9a-fA-F]{6}$/.test(color))
    throw validationFailed([{ resource: 'Label', code: 'invalid', field: 'color' }], documentation);
  // GitHub keeps the colour as given (`FFFFFF` stays upper case, as in its own examples).
  return color;
}

function checkDescription(description: string | null, documentation: string): void {
  if (description !== null && description.length > 100)
    throw validationFailed([{ resource: 'Label', code: 'invalid', field: 'description' }], documentation);
}

/** Adds labels to an issue, or with `replace` sets them; answers the issue's labels. */
function setLabels(ctx: Ctx, replace: boolean): Reply {
  const repo = loadRepo(ctx, 'issues', 'write');
  const found = findIssue(repo, intParam(ctx, 'number'), `${LABELS_DOC}#add-labels-to-an-issue`);
  requireTriage(ctx, repo);
  const raw = Array.isArray(ctx.body) ? ctx.body : bodyObject(ctx).labels;
  const names = labelNames(raw ?? []);
  const ids = names.map((name) => ensureLabel(ctx.world, repo, name).id);
  const next = replace ? ids : [...found.labels, ...ids];
  applyIssueLabels(
    ctx,
    repo,
    found,
    [...new Set(next)].map((id) => repo.labels.get(id)?.name ?? ''),
    true,
  );
  found.updated_at = ctx.world.now();
  return { status: 200, body: issueLabels(repo, found).map((entry) => label(urlsOf(ctx), repo, entry)) };
}

export function registerLabelRoutes(router: Router): void {
  router.add('GET', '/repos/:owner/:repo/issues/:number/labels', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'read');
    const found = findIssue(repo, intParam(ctx, 'number'), `${LABELS_DOC}#list-labels-for-an-issue`);
    return {
      status: 200,
      body: paginate(ctx, issueLabels(repo, found)).map((entry) => label(urlsOf(ctx), repo, entry)),
    };
  });

  router.add('POST', '/repos/:owner/:repo/issues/:number/labels', (ctx) => setLabels(ctx, false));
  router.add('PUT', '/repos/:owner/:repo/issues/:number/labels', (ctx) => setLabels(ctx, true));

  router.add('DELETE', '/repos/:owner/:repo/issues/:number/labels/:name', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'write');
    const documentation = `${LABELS_DOC}#remove-a-label-from-an-issue`;
    const found = findIssue(repo, intParam(ctx, 'number'), documentation);
    requireTriage(ctx, repo);
    const name = (ctx.params.name ?? '').toLowerCase();
    const target = found.labels.find((id) => repo.labels.get(id)?.name.toLowerCase() === name);
    if (target === undefined) {
      throw new HttpError(404, {
        message: 'Label does not exist',
        documentation_url: documentation,
        status: '404',
      });
    }
    applyIssueLabels(
      ctx,
      repo,
      found,
      found.labels.filter((id) => id !== target).map((id) => repo.labels.get(id)?.name ?? ''),
      true,
    );
    found.updated_at = ctx.world.now();
    return { status: 200, body: issueLabels(repo, found).map((entry) => label(urlsOf(ctx), repo, entry)) };
  });

  router.add('GET', '/repos/:owner/:repo/labels', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'read');
    const items = [...repo.labels.values()].sort((a, b) => a.id - b.id);
    return { status: 200, body: paginate(ctx, items).map((entry) => label(urlsOf(ctx), repo, entry)) };
  });

  router.add('GET', '/repos/:owner/:repo/labels/:name', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'read');
    const found = findLabel(repo, ctx.params.name ?? '', `${LABELS_DOC}#get-a-label`);
    return { status: 200, body: label(urlsOf(ctx), repo, found) };
  });

  router.add('PATCH', '/repos/:owner/:repo/labels/:name', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'write');
    requireTriage(ctx, repo);
    const documentation = `${LABELS_DOC}#update-a-label`;
    const found = findLabel(repo, ctx.params.name ?? '', documentation);
    const body = bodyObject(ctx);
    const newName = optionalString(body, 'new_name');
    if (newName !== undefined && newName.toLowerCase() !== found.name.toLowerCase()) {
      refuseTakenName(repo, newName, documentation);
    }
    const rawColor = optionalString(body, 'color')?.replace(/^#/, '');
    const color = rawColor === undefined ? undefined : checkColor(rawColor, documentation);
    const description = Object.prototype.hasOwnProperty.call(body, 'description')
      ? (optionalString(body, 'description') ?? null)
      : undefined;
    if (description !== undefined) checkDescription(description, documentation);
    if (newName !== undefined) found.name = newName;
    if (color !== undefined) found.color = color;
    if (description !== undefined) found.description = description;
    return { status: 200, body: label(urlsOf(ctx), repo, found) };
  });

  router.add('DELETE', '/repos/:owner/:repo/labels/:name', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'write');
    requireTriage(ctx, repo);
    const found = findLabel(repo, ctx.params.name ?? '', `${LABELS_DOC}#delete-a-label`);
    repo.labels.delete(found.id);
    for (const entry of repo.issues.values()) entry.labels = entry.labels.filter((id) => id !== found.id);
    return { status: 204 };
  });

  router.add('POST', '/repos/:owner/:repo/labels', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'write');
    requireTriage(ctx, repo);
    const documentation = `${LABELS_DOC}#create-a-label`;
    const body = bodyObject(ctx);
    const name = requireString(body, 'name', documentation);
    refuseTakenName(repo, name, documentation);
    const color = checkColor((optionalString(body, 'color') ?? 'ededed').replace(/^#/, ''), documentation);
    const description = optionalString(body, 'description') ?? null;
    checkDescription(description, documentation);
    const id = ctx.world.id();
    const created: Label = { id, node_id: nodeId('LA', id), name, color, description };
    repo.labels.set(id, created);
    const out = label(urlsOf(ctx), repo, created);
    return { status: 201, body: out, headers: { location: String(out.url) } };
  });
}
