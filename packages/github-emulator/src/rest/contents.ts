/** Contents, commits, branches and the merges endpoint. */
import { identityOf, webFlowIdentity, writeCommit } from '../commits.js';
import type { TreeEntry } from '../git.js';
import { lastModified } from '../caching.js';
import type { Ctx, Reply } from '../http.js';
import { bodyObject, HttpError, notFound, optionalString, paginate, requireString } from '../http.js';
import { mergeBase, mergeTrees } from '../merge.js';
import { changeRefs, RefError } from '../refs.js';
import { repoUrls, restCommit } from '../represent.js';
import type { Router } from '../router.js';
import type { Repo } from '../state.js';
import { loadRepo, resolveCommitish, urlsOf } from './common.js';

function contentItem(
  ctx: Ctx,
  repo: Repo,
  path: string,
  sha: string,
  mode: string,
  ref: string,
): Record<string, unknown> {
  const { api, web } = repoUrls(urlsOf(ctx), repo);
  const type =
    mode === '40000' ? 'dir' : mode === '120000' ? 'symlink' : mode === '160000' ? 'submodule' : 'file';
  const url = `${api}/contents/${path}?ref=${encodeURIComponent(ref)}`;
  const gitUrl = type === 'dir' ? `${api}/git/trees/${sha}` : `${api}/git/blobs/${sha}`;
  const htmlUrl = `${web}/${type === 'dir' ? 'tree' : 'blob'}/${ref}/${path}`;
  return {
    name: path.split('/').pop() ?? path,
    path,
    sha,
    size: type === 'file' ? (repo.git.get(sha)?.body.length ?? 0) : 0,
    url,
    html_url: htmlUrl,
    git_url: gitUrl,
    download_url: type === 'file' ? `${web}/raw/${ref}/${path}` : null,
    type,
    _links: { self: url, git: gitUrl, html: htmlUrl },
  };
}

/** GitHub lists at most this many entries of a directory (the Git Trees API has the rest). */
const DIRECTORY_LIMIT = 1000;

const RAW_TYPES = new Set([
  'application/vnd.github.raw',
  'application/vnd.github.v3.raw',
  'application/vnd.github.raw+json',
  'application/vnd.github.v3.raw+json',
]);
const HTML_TYPES = new Set([
  'application/vnd.github.html',
  'application/vnd.github.v3.html',
  'application/vnd.github.html+json',
  'application/vnd.github.v3.html+json',
]);
const OBJECT_TYPES = new Set([
  'application/vnd.github.object',
  'application/vnd.github.v3.object',
  'application/vnd.github.object+json',
  'application/vnd.github.v3.object+json',
]);

/** The custom media type an `Accept` header asks the contents endpoint for (the first one it names). */
function contentsMedia(ctx: Ctx): { kind: 'json' | 'raw' | 'html' | 'object'; type: string } {
  const accept = typeof ctx.headers.accept === 'string' ? ctx.headers.accept : '';
  for (const part of accept.split(',')) {
    const type = (part.split(';')[0] ?? '').trim().toLowerCase();
    if (RAW_TYPES.has(type)) return { kind: 'raw', type };
    if (HTML_TYPES.has(type)) return { kind: 'html', type };
    if (OBJECT_TYPES.has(type)) return { kind: 'object', type };
  }
  return { kind: 'json', type: 'application/json' };
}

/** The committer date of the newest commit from `head` that changed `path` (contents' `Last-Modified`). */
function pathChangedAt(repo: Repo, head: string, path: string): number {
  const at = (sha: string): string | undefined => repo.git.lookup(repo.git.commit(sha).tree, path)?.sha;
  for (const sha of repo.git.history(head)) {
    const parents = repo.git.commit(sha).parents;
    const changed = parents.length === 0 || parents.some((parent) => at(parent) !== at(sha));
    if (changed) return repo.git.commit(sha).committer.time * 1000;
  }
  return repo.git.commit(head).committer.time * 1000;
}

/**
 * `GET contents/{path}` and the root (`GET contents`, with or without a trailing slash): a directory
 * is an array of entries in tree order (at most 1,000; submodules listed as `file`, as GitHub does), a
 * file its base64 content. Raw media types answer the file's bytes with GitHub's content type, the
 * object media type a directory as `{…, entries}`; HTML is not rendered (415, a known difference).
 */
function getContents(ctx: Ctx): Reply {
  const repo = loadRepo(ctx, 'contents', 'read');
  const ref = ctx.query.get('ref') ?? repo.default_branch;
  const documentation = 'https://docs.github.com/rest/repos/contents#get-repository-content';
  if (repo.refs.size === 0) {
    throw new HttpError(404, {
      message: 'This repository is empty.',
      documentation_url: documentation,
      status: '404',
    });
  }
  const commit = resolveCommitish(repo, ref);
  if (!commit)
    throw new HttpError(404, {
      message: `No commit found for the ref ${ref}`,
      documentation_url: documentation,
      status: '404',
    });
  const path = (ctx.params.path ?? '').replace(/^\/+|\/+$/g, '');
  const entry = repo.git.lookup(repo.git.commit(commit).tree, path);
  if (!entry) throw notFound(documentation);
  const media = contentsMedia(ctx);
  const modified = lastModified(
    path === '' ? repo.git.commit(commit).committer.time * 1000 : pathChangedAt(repo, commit, path),
  );
  if (entry.mode === '40000') {
    const items = repo.git
      .tree(entry.sha)
      .slice(0, DIRECTORY_LIMIT)
      .map((child) => {
        const item = contentItem(
          ctx,
          repo,
          path === '' ? child.name : `${path}/${child.name}`,
          child.sha,
          child.mode,
          ref,
        );
        // GitHub lists a submodule in a directory as a file (kept for API v3 compatibility).
        return item.type === 'submodule' ? { ...item, type: 'file' } : item;
      });
    if (media.kind === 'object') {
      const self = contentItem(ctx, repo, path, entry.sha, entry.mode, ref);
      return {
        status: 200,
        body: { ...self, name: path === '' ? '' : self.name, entries: items },
        headers: modified,
      };
    }
    return { status: 200, body: items, headers: modified };
  }
  const item = contentItem(ctx, repo, path, entry.sha, entry.mode, ref);
  const bytes = repo.git.get(entry.sha)?.body ?? Buffer.alloc(0);
  if (media.kind === 'raw' && (item.type === 'file' || item.type === 'symlink')) {
    return {
      status: 200,
      body: bytes,
      headers: {
        'content-type': `${media.type.replace(/\+json$/, '')}; charset=utf-8`,
        'x-github-media-type': 'github.v3; param=raw',
        // GitHub tags raw contents with the blob's SHA (a strong tag).
        etag: `"${entry.sha}"`,
        ...modified,
      },
    };
  }
  if (media.kind === 'html' && item.type === 'file') {
    throw new HttpError(415, {
      message: `Emulator: the ${media.type} media type (rendered HTML) is not modelled`,
      documentation_url: documentation,
      status: '415',
    });
  }
  const encoded = bytes.toString('base64').replace(/(.{60})/g, '$1\n');
  return {
    status: 200,
    body: {
      ...item,
      content: bytes.length === 0 ? '' : `${encoded}${encoded.endsWith('\n') ? '' : '\n'}`,
      encoding: 'base64',
    },
    headers: modified,
  };
}

export function registerContentRoutes(router: Router): void {
  router.add('GET', '/repos/:owner/:repo/contents', getContents);
  router.add('GET', '/repos/:owner/:repo/contents/*path', getContents);

  router.add('GET', '/repos/:owner/:repo/commits', (ctx) => {
    const repo = loadRepo(ctx, 'contents', 'read');
    const ref = ctx.query.get('sha') ?? repo.default_branch;
    const head = resolveCommitish(repo, ref);
    if (!head) {
      if (repo.refs.size === 0)
        throw new HttpError(409, {
          message: 'Git Repository is empty.',
          documentation_url: 'https://docs.github.com/rest/commits/commits#list-commits',
          status: '409',
        });
      throw notFound('https://docs.github.com/rest/commits/commits#list-commits');
    }
    let oids = repo.git.history(head);
    const since = ctx.query.get('since');
    const until = ctx.query.get('until');
    const path = ctx.query.get('path');
    if (since) oids = oids.filter((sha) => repo.git.commit(sha).committer.time * 1000 >= Date.parse(since));
    if (until) oids = oids.filter((sha) => repo.git.commit(sha).committer.time * 1000 <= Date.parse(until));
    if (path) {
      const at = (sha: string): string | undefined => repo.git.lookup(repo.git.commit(sha).tree, path)?.sha;
      oids = oids.filter((sha) => {
        const parents = repo.git.commit(sha).parents;
        return parents.length === 0
          ? at(sha) !== undefined
          : parents.every((parent) => at(parent) !== at(sha));
      });
    }
    return {
      status: 200,
      body: paginate(ctx, oids).map((sha) => restCommit(urlsOf(ctx), ctx.world, repo, sha)),
    };
  });

  router.add('GET', '/repos/:owner/:repo/commits/*ref', (ctx) => {
    const repo = loadRepo(ctx, 'contents', 'read');
    const sha = resolveCommitish(repo, ctx.params.ref ?? '');
    if (!sha) {
      throw new HttpError(422, {
        message: `No commit found for SHA: ${ctx.params.ref ?? ''}`,
        documentation_url: 'https://docs.github.com/rest/commits/commits#get-a-commit',
        status: '422',
      });
    }
    const commit = repo.git.commit(sha);
    const before = commit.parents[0]
      ? repo.git.flatten(repo.git.commit(commit.parents[0]).tree)
      : new Map<string, TreeEntry>();
    const after = repo.git.flatten(commit.tree);
    const files: Record<string, unknown>[] = [];
    for (const path of new Set([...before.keys(), ...after.keys()])) {
      const a = before.get(path);
      const b = after.get(path);
      if (a?.sha === b?.sha) continue;
      const status = !a ? 'added' : !b ? 'removed' : 'modified';
      const { api, web } = repoUrls(urlsOf(ctx), repo);
      files.push({
        sha: (b ?? a)?.sha ?? null,
        filename: path,
        status,
        additions: 0,
        deletions: 0,
        changes: 0,
        blob_url: `${web}/blob/${sha}/${path}`,
        raw_url: `${web}/raw/${sha}/${path}`,
        contents_url: `${api}/contents/${path}?ref=${sha}`,
      });
    }
    return {
      status: 200,
      body: {
        ...restCommit(urlsOf(ctx), ctx.world, repo, sha),
        stats: { total: 0, additions: 0, deletions: 0 },
        files,
      },
    };
  });

  router.add('GET', '/repos/:owner/:repo/branches/*branch', (ctx) => {
    const repo = loadRepo(ctx, 'contents', 'read');
    const name = ctx.params.branch ?? '';
    const sha = repo.refs.get(`refs/heads/${name}`);
    if (!sha)
      throw new HttpError(404, {
        message: 'Branch not found',
        documentation_url: 'https://docs.github.com/rest/branches/branches#get-a-branch',
        status: '404',
      });
    const { api, web } = repoUrls(urlsOf(ctx), repo);
    return {
      status: 200,
      body: {
        name,
        commit: restCommit(urlsOf(ctx), ctx.world, repo, sha),
        _links: { self: `${api}/branches/${name}`, html: `${web}/tree/${name}` },
        protected: false,
        protection: {
          enabled: false,
          required_status_checks: { enforcement_level: 'off', contexts: [], checks: [] },
        },
        protection_url: `${api}/branches/${name}/protection`,
      },
    };
  });

  router.add('POST', '/repos/:owner/:repo/merges', (ctx) => {
    const repo = loadRepo(ctx, 'contents', 'write');
    const documentation = 'https://docs.github.com/rest/branches/branches#merge-a-branch';
    const body = bodyObject(ctx);
    const base = requireString(body, 'base', documentation);
    const head = requireString(body, 'head', documentation);
    const baseSha = repo.refs.get(`refs/heads/${base}`);
    if (!baseSha)
      throw new HttpError(404, {
        message: 'Base does not exist',
        documentation_url: documentation,
        status: '404',
      });
    const headSha = resolveCommitish(repo, head);
    if (!headSha)
      throw new HttpError(404, {
        message: 'Head does not exist',
        documentation_url: documentation,
        status: '404',
      });
    if (repo.git.isAncestor(headSha, baseSha)) return { status: 204 };
    const tree = mergeTrees(repo.git, mergeBase(repo.git, baseSha, headSha), baseSha, headSha);
    if (tree === null)
      throw new HttpError(409, {
        message: 'Merge conflict',
        documentation_url: documentation,
        status: '409',
      });
    const token = ctx.token;
    if (!token) throw notFound();
    const sha = writeCommit(ctx.world, repo, {
      tree,
      parents: [baseSha, headSha],
      message: optionalString(body, 'commit_message') ?? `Merge ${head} into ${base}`,
      author: identityOf(ctx.world, token.account),
      committer: webFlowIdentity(ctx.world),
      sign: true,
    });
    try {
      changeRefs(ctx.world, token, repo, [{ ref: `refs/heads/${base}`, after: sha, expectBefore: baseSha }]);
    } catch (error) {
      if (error instanceof RefError) {
        throw new HttpError(error.kind === 'rules' ? 422 : 409, {
          message: error.message,
          documentation_url: documentation,
          status: error.kind === 'rules' ? '422' : '409',
        });
      }
      throw error;
    }
    const out = restCommit(urlsOf(ctx), ctx.world, repo, sha);
    return { status: 201, body: out, headers: { location: String(out.url) } };
  });
}
