/** Pull requests: create/get/update/list and merge (a merge commit on the base, signed by web-flow). */
import { canTriage } from '../access.js';
import { identityOf, webFlowIdentity, writeCommit } from '../commits.js';
import type { Ctx } from '../http.js';
import {
  bodyObject,
  HttpError,
  notFound,
  optionalString,
  paginate,
  patForbidden,
  requireString,
  validationFailed,
} from '../http.js';
import { mergeBase, mergeTrees } from '../merge.js';
import { changeRefs, RefError } from '../refs.js';
import { pull } from '../represent.js';
import type { Router } from '../router.js';
import type { Issue, Repo } from '../state.js';
import { nodeId } from '../state.js';
import { intParam, loadRepo, recordRepoEvent, urlsOf } from './common.js';
import { createIssueRecord } from './issue-records.js';

const PULLS_DOC = 'https://docs.github.com/rest/pulls/pulls';

function pullEvent(ctx: Ctx, repo: Repo, value: Issue, action: string): void {
  const payload = pull(urlsOf(ctx), ctx.world, repo, value, true);
  for (const side of ['head', 'base']) {
    const branch = payload[side] as { repo: Record<string, unknown> };
    branch.repo = { ...branch.repo, custom_properties: {} };
  }
  recordRepoEvent(ctx, repo, 'pull_request', action, { number: value.number, pull_request: payload });
}

function findPull(repo: Repo, number: number): Issue {
  const found = repo.issues.get(number);
  if (!found?.pull) throw notFound(`${PULLS_DOC}#get-a-pull-request`);
  return found;
}

function branchOf(repo: Repo, spec: string): string {
  const colon = spec.indexOf(':');
  if (colon === -1) return spec;
  const owner = spec.slice(0, colon);
  if (owner.toLowerCase() !== repo.owner.login.toLowerCase()) return `\u0000${spec}`; // forks are not modelled
  return spec.slice(colon + 1);
}

export function registerPullRoutes(router: Router): void {
  router.add('GET', '/repos/:owner/:repo/pulls', (ctx) => {
    const repo = loadRepo(ctx, 'pull_requests', 'read');
    const state = ctx.query.get('state') ?? 'open';
    const head = ctx.query.get('head');
    const base = ctx.query.get('base');
    const sort = ctx.query.get('sort') ?? 'created';
    const direction = ctx.query.get('direction') ?? (sort === 'created' ? 'desc' : 'desc');
    let items = [...repo.issues.values()].filter((entry) => entry.pull !== null);
    if (state !== 'all') items = items.filter((entry) => entry.state === state);
    if (head) items = items.filter((entry) => entry.pull?.head_ref === branchOf(repo, head));
    if (base) items = items.filter((entry) => entry.pull?.base_ref === base);
    const key = (entry: Issue): number =>
      Date.parse(sort === 'updated' ? entry.updated_at : entry.created_at);
    items.sort((a, b) => key(a) - key(b) || a.number - b.number);
    if (direction !== 'asc') items.reverse();
    return {
      status: 200,
      body: paginate(ctx, items).map((entry) => pull(urlsOf(ctx), ctx.world, repo, entry, false)),
    };
  });

  router.add('POST', '/repos/:owner/:repo/pulls', (ctx) => {
    const repo = loadRepo(ctx, 'pull_requests', 'write');
    const documentation = `${PULLS_DOC}#create-a-pull-request`;
    const body = bodyObject(ctx);
    const headSpec = requireString(body, 'head', documentation);
    const base = requireString(body, 'base', documentation);
    const title = optionalString(body, 'title');
    if (title === undefined)
      throw validationFailed(
        [{ resource: 'PullRequest', code: 'missing_field', field: 'title' }],
        documentation,
      );
    const head = branchOf(repo, headSpec);
    const headSha = repo.refs.get(`refs/heads/${head}`);
    const baseSha = repo.refs.get(`refs/heads/${base}`);
    if (!headSha)
      throw validationFailed([{ resource: 'PullRequest', field: 'head', code: 'invalid' }], documentation);
    if (!baseSha)
      throw validationFailed([{ resource: 'PullRequest', field: 'base', code: 'invalid' }], documentation);
    const duplicate = [...repo.issues.values()].find(
      (entry) => entry.state === 'open' && entry.pull?.head_ref === head && entry.pull.base_ref === base,
    );
    if (duplicate) {
      throw validationFailed(
        [
          {
            resource: 'PullRequest',
            code: 'custom',
            message: `A pull request already exists for ${repo.owner.login}:${head}.`,
          },
        ],
        documentation,
      );
    }
    if (repo.git.isAncestor(headSha, baseSha)) {
      throw validationFailed(
        [{ resource: 'PullRequest', code: 'custom', message: `No commits between ${base} and ${head}` }],
        documentation,
      );
    }
    const created = createIssueRecord(ctx, repo, title, optionalString(body, 'body') ?? null);
    const id = ctx.world.id();
    created.pull = {
      id,
      node_id: nodeId('PR', id),
      head_ref: head,
      head_sha: headSha,
      base_ref: base,
      base_sha: baseSha,
      draft: body.draft === true,
      merged_at: null,
      merged_by: null,
      merge_commit_sha: null,
      maintainer_can_modify: body.maintainer_can_modify === true,
    };
    pullEvent(ctx, repo, created, 'opened');
    const out = pull(urlsOf(ctx), ctx.world, repo, created, true);
    return { status: 201, body: out, headers: { location: String(out.url) } };
  });

  router.add('GET', '/repos/:owner/:repo/pulls/:number', (ctx) => {
    const repo = loadRepo(ctx, 'pull_requests', 'read');
    return {
      status: 200,
      body: pull(urlsOf(ctx), ctx.world, repo, findPull(repo, intParam(ctx, 'number')), true),
    };
  });

  router.add('PATCH', '/repos/:owner/:repo/pulls/:number', (ctx) => {
    const repo = loadRepo(ctx, 'pull_requests', 'write');
    const found = findPull(repo, intParam(ctx, 'number'));
    const token = ctx.token;
    if (!token) throw notFound();
    if (token.account.id !== found.user.id && !canTriage(ctx.world, token, repo)) {
      throw patForbidden(PULLS_DOC);
    }
    const body = bodyObject(ctx);
    const pr = found.pull;
    if (!pr) throw notFound();
    const title = optionalString(body, 'title');
    if (title !== undefined) found.title = title;
    if (Object.prototype.hasOwnProperty.call(body, 'body')) found.body = optionalString(body, 'body') ?? null;
    const base = optionalString(body, 'base');
    if (base !== undefined) {
      if (!repo.refs.has(`refs/heads/${base}`))
        throw validationFailed([{ resource: 'PullRequest', field: 'base', code: 'invalid' }]);
      pr.base_ref = base;
    }
    const state = optionalString(body, 'state');
    let action: string | null = null;
    if (state !== undefined && state !== found.state && pr.merged_at === null) {
      if (state !== 'open' && state !== 'closed')
        throw validationFailed([{ resource: 'PullRequest', field: 'state', code: 'invalid' }]);
      found.state = state;
      found.closed_at = state === 'closed' ? ctx.world.now() : null;
      action = state === 'closed' ? 'closed' : 'reopened';
    }
    found.updated_at = ctx.world.now();
    if (action) pullEvent(ctx, repo, found, action);
    return { status: 200, body: pull(urlsOf(ctx), ctx.world, repo, found, true) };
  });

  router.add('PUT', '/repos/:owner/:repo/pulls/:number/merge', (ctx) => {
    const repo = loadRepo(ctx, 'contents', 'write');
    const documentation = `${PULLS_DOC}#merge-a-pull-request`;
    const found = findPull(repo, intParam(ctx, 'number'));
    const pr = found.pull;
    const token = ctx.token;
    if (!pr || !token) throw notFound();
    const body = bodyObject(ctx);
    if (found.state !== 'open' || pr.merged_at !== null) {
      throw new HttpError(405, {
        message: 'Pull Request is not mergeable',
        documentation_url: documentation,
        status: '405',
      });
    }
    const headSha = repo.refs.get(`refs/heads/${pr.head_ref}`);
    const baseSha = repo.refs.get(`refs/heads/${pr.base_ref}`);
    if (!headSha || !baseSha)
      throw new HttpError(405, {
        message: 'Pull Request is not mergeable',
        documentation_url: documentation,
        status: '405',
      });
    const expected = optionalString(body, 'sha');
    if (expected !== undefined && expected !== headSha) {
      throw new HttpError(409, {
        message: 'Head branch was modified. Review and try the merge again.',
        documentation_url: documentation,
        status: '409',
      });
    }
    const tree = mergeTrees(repo.git, mergeBase(repo.git, baseSha, headSha), baseSha, headSha);
    if (tree === null)
      throw new HttpError(405, {
        message: 'Pull Request is not mergeable',
        documentation_url: documentation,
        status: '405',
      });
    const method = optionalString(body, 'merge_method') ?? 'merge';
    const title =
      optionalString(body, 'commit_title') ??
      (method === 'merge'
        ? `Merge pull request #${found.number} from ${repo.owner.login}/${pr.head_ref}`
        : `${found.title} (#${found.number})`);
    const extra = optionalString(body, 'commit_message') ?? (method === 'merge' ? found.title : '');
    const sha = writeCommit(ctx.world, repo, {
      tree,
      parents: method === 'merge' ? [baseSha, headSha] : [baseSha],
      message: extra ? `${title}\n\n${extra}` : title,
      author: identityOf(ctx.world, token.account),
      committer: webFlowIdentity(ctx.world),
      sign: true,
    });
    try {
      changeRefs(
        ctx.world,
        token,
        repo,
        [{ ref: `refs/heads/${pr.base_ref}`, after: sha, expectBefore: baseSha }],
        { viaPull: true },
      );
    } catch (error) {
      if (error instanceof RefError) {
        throw new HttpError(405, { message: error.message, documentation_url: documentation, status: '405' });
      }
      throw error;
    }
    const now = ctx.world.now();
    pr.merged_at = now;
    pr.merged_by = token.account;
    pr.merge_commit_sha = sha;
    pr.head_sha = headSha;
    found.state = 'closed';
    found.closed_at = now;
    found.updated_at = now;
    pullEvent(ctx, repo, found, 'closed');
    return { status: 200, body: { sha, merged: true, message: 'Pull Request successfully merged' } };
  });
}
