/** Helpers shared by the REST handlers. */
import type { Scope } from '../access.js';
import { requireAccess } from '../access.js';
import { recordEvent } from '../events.js';
import type { Ctx } from '../http.js';
import { notFound } from '../http.js';
import type { Urls } from '../represent.js';
import { repository, simpleUser } from '../represent.js';
import type { Repo } from '../state.js';

export function urlsOf(ctx: Ctx): Urls {
  return { api: ctx.base, web: ctx.web };
}

/** The repository named in the path, after checking the caller may act on it. */
export function loadRepo(ctx: Ctx, scope: Scope, level: 'read' | 'write'): Repo {
  const repo = ctx.world.repo(ctx.params.owner ?? '', ctx.params.repo ?? '');
  if (!repo) throw notFound();
  requireAccess(ctx, repo, scope, level);
  return repo;
}

/** A commit SHA, a branch or tag name, or a full ref name, resolved to what it points at; undefined if none. */
export function resolveCommitish(repo: Repo, ref: string): string | undefined {
  if (/^[0-9a-f]{40}$/.test(ref) && repo.git.has(ref, 'commit')) return ref;
  const name = ref.replace(/^refs\//, '');
  return (
    repo.refs.get(`refs/${name}`) ?? repo.refs.get(`refs/heads/${ref}`) ?? repo.refs.get(`refs/tags/${ref}`)
  );
}

export function intParam(ctx: Ctx, name: string): number {
  const value = Number(ctx.params[name]);
  if (!Number.isInteger(value) || value < 0) throw notFound();
  return value;
}

/** Records a webhook delivery about `repo`, with the `repository` and `sender` GitHub adds to every one. */
export function recordRepoEvent(
  ctx: Ctx,
  repo: Repo,
  event: string,
  action: string,
  payload: Record<string, unknown>,
): void {
  recordEvent(ctx.world, ctx.token, event, action, {
    ...payload,
    repository: { ...repository(urlsOf(ctx), repo), custom_properties: {} },
    sender: ctx.token ? simpleUser(urlsOf(ctx), ctx.token.account) : undefined,
  });
}
