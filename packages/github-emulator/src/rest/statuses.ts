/**
 * Commit statuses: create one on a commit (`statuses: write`, or push access for a user), list a ref's
 * statuses (newest first) and its combined status (the latest per context: `failure` if any is `error` or
 * `failure`, `pending` if any is pending or there are none, else `success`). Event `status`.
 */
import { recordEvent } from '../events.js';
import type { Ctx } from '../http.js';
import {
  bodyObject,
  notFound,
  optionalString,
  paginate,
  requireString,
  unprocessable,
  validationFailed,
} from '../http.js';
import {
  commitStatus,
  minimalRepository,
  repoUrls,
  repository,
  restCommit,
  simpleUser,
} from '../represent.js';
import type { Router } from '../router.js';
import type { CommitStatus, Repo } from '../state.js';
import { nodeId } from '../state.js';
import { loadRepo, resolveCommitish, urlsOf } from './common.js';

const STATUSES_DOC = 'https://docs.github.com/rest/commits/statuses';
const STATES = ['error', 'failure', 'pending', 'success'] as const;

function statusEvent(ctx: Ctx, repo: Repo, value: CommitStatus): void {
  const urls = urlsOf(ctx);
  const { api } = repoUrls(urls, repo);
  const branches = [...repo.refs.entries()]
    .filter(
      ([ref, sha]) =>
        ref.startsWith('refs/heads/') && (sha === value.sha || repo.git.isAncestor(value.sha, sha)),
    )
    .slice(0, 10)
    .map(([ref, sha]) => {
      const name = ref.slice('refs/heads/'.length);
      return {
        name,
        commit: { sha, url: `${api}/commits/${sha}` },
        protected: repo.branchProtection.has(name),
      };
    });
  const commit = restCommit(urls, ctx.world, repo, value.sha);
  recordEvent(ctx.world, ctx.token, 'status', '', {
    id: value.id,
    sha: value.sha,
    name: `${repo.owner.login}/${repo.name}`,
    avatar_url: simpleUser(urls, value.creator).avatar_url,
    target_url: value.target_url,
    context: value.context,
    description: value.description,
    state: value.state,
    commit,
    branches,
    created_at: value.created_at,
    updated_at: value.updated_at,
    repository: { ...repository(urls, repo), custom_properties: {} },
    sender: simpleUser(urls, value.creator),
  });
}

/** A ref's statuses, newest first. */
function statusesOf(ctx: Ctx, repo: Repo): { sha: string; statuses: CommitStatus[] } {
  const sha = resolveCommitish(repo, ctx.params.ref ?? '');
  if (!sha) throw notFound(STATUSES_DOC);
  return { sha, statuses: repo.statuses.filter((entry) => entry.sha === sha).sort((a, b) => b.id - a.id) };
}

export function registerStatusRoutes(router: Router): void {
  router.add('POST', '/repos/:owner/:repo/statuses/:sha', (ctx) => {
    const repo = loadRepo(ctx, 'statuses', 'write');
    const token = ctx.token;
    if (!token) throw notFound(STATUSES_DOC);
    const sha = ctx.params.sha ?? '';
    if (!/^[0-9a-f]{40}$/.test(sha) || !repo.git.has(sha, 'commit')) {
      throw unprocessable(`No commit found for SHA: ${sha}`, `${STATUSES_DOC}#create-a-commit-status`);
    }
    const body = bodyObject(ctx);
    const state = requireString(body, 'state', STATUSES_DOC);
    if (!(STATES as readonly string[]).includes(state)) {
      throw validationFailed([{ resource: 'Status', field: 'state', code: 'invalid' }], STATUSES_DOC);
    }
    const id = ctx.world.id();
    const now = ctx.world.now();
    const value: CommitStatus = {
      id,
      node_id: nodeId('SC', id),
      sha,
      state: state as CommitStatus['state'],
      description: optionalString(body, 'description') ?? null,
      target_url: optionalString(body, 'target_url') ?? null,
      context: optionalString(body, 'context') ?? 'default',
      creator: token.account,
      created_at: now,
      updated_at: now,
    };
    repo.statuses.push(value);
    statusEvent(ctx, repo, value);
    return { status: 201, body: commitStatus(urlsOf(ctx), repo, value) };
  });

  router.add('GET', '/repos/:owner/:repo/commits/:ref/statuses', (ctx) => {
    const repo = loadRepo(ctx, 'statuses', 'read');
    const { statuses } = statusesOf(ctx, repo);
    return {
      status: 200,
      body: paginate(ctx, statuses).map((entry) => commitStatus(urlsOf(ctx), repo, entry)),
    };
  });

  router.add('GET', '/repos/:owner/:repo/commits/:ref/status', (ctx) => {
    const repo = loadRepo(ctx, 'statuses', 'read');
    const { sha, statuses } = statusesOf(ctx, repo);
    const seen = new Set<string>();
    const latest = statuses.filter((entry) => {
      if (seen.has(entry.context)) return false;
      seen.add(entry.context);
      return true;
    });
    const state = latest.some((entry) => entry.state === 'error' || entry.state === 'failure')
      ? 'failure'
      : latest.length === 0 || latest.some((entry) => entry.state === 'pending')
        ? 'pending'
        : 'success';
    const urls = urlsOf(ctx);
    const { api } = repoUrls(urls, repo);
    return {
      status: 200,
      body: {
        state,
        // `simple-commit-status`: the status without its creator.
        statuses: paginate(ctx, latest).map((entry) =>
          Object.fromEntries(
            Object.entries(commitStatus(urls, repo, entry)).filter(([key]) => key !== 'creator'),
          ),
        ),
        sha,
        total_count: latest.length,
        repository: minimalRepository(urls, repo),
        commit_url: `${api}/commits/${sha}`,
        url: `${api}/commits/${sha}/status`,
      },
    };
  });
}
