/** Git data REST API: refs, blobs, trees and commits. */
import { identityOf, webFlowIdentity, writeCommit } from '../commits.js';
import type { GitIdentity } from '../git.js';
import { OID_PATTERN } from '../git.js';
import type { Ctx, Reply } from '../http.js';
import { lastModified } from '../caching.js';
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
import { changeRefs, isValidRefName, RefError } from '../refs.js';
import { gitCommit, gitRef, repoUrls } from '../represent.js';
import type { Router } from '../router.js';
import type { Repo } from '../state.js';
import { loadRepo, urlsOf } from './common.js';

const REFS_DOC = 'https://docs.github.com/rest/git/refs';

function refErrorToHttp(error: unknown, documentation: string): unknown {
  if (!(error instanceof RefError)) return error;
  if (error.kind === 'rules') {
    return new HttpError(422, { message: error.message, documentation_url: documentation, status: '422' });
  }
  return unprocessable(error.message, documentation);
}

/** GitHub refuses the Git data API on a repository without commits (409 `Git Repository is empty.`). */
function requireNonEmpty(repo: Repo): void {
  if (repo.refs.size === 0) {
    throw new HttpError(409, {
      message: 'Git Repository is empty.',
      documentation_url: REFS_DOC,
      status: '409',
    });
  }
}

function sortedRefs(repo: Repo): [string, string][] {
  return [...repo.refs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function blobBody(repo: Repo, sha: string, base: string): Record<string, unknown> {
  const object = repo.git.get(sha);
  if (object?.type !== 'blob') throw notFound('https://docs.github.com/rest/git/blobs#get-a-blob');
  const encoded = object.body.toString('base64').replace(/(.{60})/g, '$1\n');
  return {
    sha,
    node_id: `B_${Buffer.from(`${repo.id}:${sha}`).toString('base64url')}`,
    size: object.body.length,
    url: `${base}/git/blobs/${sha}`,
    content: object.body.length === 0 ? '' : `${encoded}${encoded.endsWith('\n') ? '' : '\n'}`,
    encoding: 'base64',
  };
}

const MODE_TYPES: Record<string, string> = {
  '100644': 'blob',
  '100755': 'blob',
  '120000': 'blob',
  '040000': 'tree',
  '160000': 'commit',
};

function treeBody(repo: Repo, sha: string, base: string, recursive: boolean): Record<string, unknown> {
  const entries: Record<string, unknown>[] = [];
  const walk = (treeSha: string, prefix: string): void => {
    for (const entry of repo.git.tree(treeSha)) {
      const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      const type = entry.mode === '40000' ? 'tree' : entry.mode === '160000' ? 'commit' : 'blob';
      const item: Record<string, unknown> = {
        path,
        mode: entry.mode === '40000' ? '040000' : entry.mode,
        type,
        sha: entry.sha,
      };
      if (type === 'blob') {
        item.size = repo.git.get(entry.sha)?.body.length ?? 0;
        item.url = `${base}/git/blobs/${entry.sha}`;
      } else if (type === 'tree') item.url = `${base}/git/trees/${entry.sha}`;
      entries.push(item);
      if (recursive && type === 'tree') walk(entry.sha, path);
    }
  };
  walk(sha, '');
  return { sha, url: `${base}/git/trees/${sha}`, tree: entries, truncated: false };
}

function parseIdentity(ctx: Ctx, value: unknown, field: string): GitIdentity | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object')
    throw unprocessable(
      `Invalid request.\n\nFor 'properties/${field}', ${JSON.stringify(value)} is not an object.`,
    );
  const record = value as Record<string, unknown>;
  const name = requireString(record, 'name');
  const email = requireString(record, 'email');
  const date = optionalString(record, 'date');
  const time = date ? Math.floor(Date.parse(date) / 1000) : ctx.world.clock.epochSeconds();
  if (!Number.isFinite(time))
    throw unprocessable(`Invalid request.\n\n${JSON.stringify(date)} is not a valid date-time.`);
  return { name, email, time, tz: '+0000' };
}

export function registerGitRoutes(router: Router): void {
  router.add('GET', '/repos/:owner/:repo/git/ref/*ref', (ctx) => {
    const repo = loadRepo(ctx, 'contents', 'read');
    requireNonEmpty(repo);
    const ref = `refs/${ctx.params.ref ?? ''}`;
    const sha = repo.refs.get(ref);
    if (!sha) throw notFound(`${REFS_DOC}#get-a-reference`);
    return { status: 200, body: gitRef(urlsOf(ctx), repo, ref, sha) };
  });

  // Every ref whose name starts with `refs/<ref>` (an empty array when none), sorted by name. Not
  // paginated: GitHub ignores `per_page` here and answers every match (github/docs#3863, go-github#1567;
  // the OpenAPI description lists no paging parameters).
  const matchingRefs = (ctx: Ctx): Reply => {
    const repo = loadRepo(ctx, 'contents', 'read');
    requireNonEmpty(repo);
    const prefix = `refs/${ctx.params.ref ?? ''}`;
    const refs = sortedRefs(repo).filter(([name]) => name.startsWith(prefix));
    return { status: 200, body: refs.map(([name, sha]) => gitRef(urlsOf(ctx), repo, name, sha)) };
  };
  router.add('GET', '/repos/:owner/:repo/git/matching-refs', matchingRefs);
  router.add('GET', '/repos/:owner/:repo/git/matching-refs/*ref', matchingRefs);

  // The older list endpoint, still served: `git/refs` lists every ref (paginated, with the time of the
  // last push as Last-Modified); `git/refs/<ref>` answers the ref itself when the name is exact, else
  // the array of refs it prefixes, else 404.
  router.add('GET', '/repos/:owner/:repo/git/refs', (ctx) => {
    const repo = loadRepo(ctx, 'contents', 'read');
    requireNonEmpty(repo);
    const refs = paginate(ctx, sortedRefs(repo));
    return {
      status: 200,
      body: refs.map(([name, sha]) => gitRef(urlsOf(ctx), repo, name, sha)),
      headers: lastModified(repo.pushed_at),
    };
  });
  router.add('GET', '/repos/:owner/:repo/git/refs/*ref', (ctx) => {
    const repo = loadRepo(ctx, 'contents', 'read');
    requireNonEmpty(repo);
    const name = `refs/${ctx.params.ref ?? ''}`;
    const exact = repo.refs.get(name);
    if (exact !== undefined)
      return {
        status: 200,
        body: gitRef(urlsOf(ctx), repo, name, exact),
        headers: lastModified(repo.pushed_at),
      };
    const refs = sortedRefs(repo).filter(([ref]) => ref.startsWith(name));
    if (refs.length === 0) throw notFound(`${REFS_DOC}#get-a-reference`);
    return {
      status: 200,
      body: paginate(ctx, refs).map(([ref, sha]) => gitRef(urlsOf(ctx), repo, ref, sha)),
      headers: lastModified(repo.pushed_at),
    };
  });

  router.add('POST', '/repos/:owner/:repo/git/refs', (ctx) => {
    const repo = loadRepo(ctx, 'contents', 'write');
    const body = bodyObject(ctx);
    const ref = requireString(body, 'ref', `${REFS_DOC}#create-a-reference`);
    const sha = requireString(body, 'sha', `${REFS_DOC}#create-a-reference`);
    if (repo.refs.size === 0) {
      throw new HttpError(409, {
        message: 'Git Repository is empty.',
        documentation_url: `${REFS_DOC}#create-a-reference`,
        status: '409',
      });
    }
    if (!isValidRefName(ref))
      throw unprocessable(`${ref} is not a valid ref name.`, `${REFS_DOC}#create-a-reference`);
    try {
      changeRefs(ctx.world, ctx.token, repo, [{ ref, after: sha, createOnly: true }]);
    } catch (error) {
      throw refErrorToHttp(error, `${REFS_DOC}#create-a-reference`);
    }
    const out = gitRef(urlsOf(ctx), repo, ref, sha);
    return { status: 201, body: out, headers: { location: String(out.url) } };
  });

  router.add('PATCH', '/repos/:owner/:repo/git/refs/*ref', (ctx) => {
    const repo = loadRepo(ctx, 'contents', 'write');
    const body = bodyObject(ctx);
    const sha = requireString(body, 'sha', `${REFS_DOC}#update-a-reference`);
    const force = body.force === true;
    const ref = `refs/${ctx.params.ref ?? ''}`;
    try {
      changeRefs(ctx.world, ctx.token, repo, [{ ref, after: sha, mustExist: true, fastForwardOnly: !force }]);
    } catch (error) {
      throw refErrorToHttp(error, `${REFS_DOC}#update-a-reference`);
    }
    return { status: 200, body: gitRef(urlsOf(ctx), repo, ref, sha) };
  });

  router.add('DELETE', '/repos/:owner/:repo/git/refs/*ref', (ctx) => {
    const repo = loadRepo(ctx, 'contents', 'write');
    const ref = `refs/${ctx.params.ref ?? ''}`;
    try {
      changeRefs(ctx.world, ctx.token, repo, [{ ref, after: null, mustExist: true }]);
    } catch (error) {
      throw refErrorToHttp(error, `${REFS_DOC}#delete-a-reference`);
    }
    return { status: 204 };
  });

  router.add('POST', '/repos/:owner/:repo/git/blobs', (ctx) => {
    const repo = loadRepo(ctx, 'contents', 'write');
    requireNonEmpty(repo);
    const body = bodyObject(ctx);
    const content = requireString(body, 'content', 'https://docs.github.com/rest/git/blobs#create-a-blob');
    const encoding = optionalString(body, 'encoding') ?? 'utf-8';
    if (encoding !== 'utf-8' && encoding !== 'utf8' && encoding !== 'base64') {
      throw validationFailed([{ resource: 'Blob', field: 'encoding', code: 'invalid' }]);
    }
    const sha = repo.git.putBlob(Buffer.from(content, encoding === 'base64' ? 'base64' : 'utf8'));
    const url = `${repoUrls(urlsOf(ctx), repo).api}/git/blobs/${sha}`;
    return { status: 201, body: { sha, url }, headers: { location: url } };
  });

  router.add('GET', '/repos/:owner/:repo/git/blobs/:sha', (ctx) => {
    const repo = loadRepo(ctx, 'contents', 'read');
    return { status: 200, body: blobBody(repo, ctx.params.sha ?? '', repoUrls(urlsOf(ctx), repo).api) };
  });

  router.add('POST', '/repos/:owner/:repo/git/trees', (ctx) => createTree(ctx));

  router.add('GET', '/repos/:owner/:repo/git/trees/:sha', (ctx) => {
    const repo = loadRepo(ctx, 'contents', 'read');
    let sha = ctx.params.sha ?? '';
    if (!repo.git.has(sha, 'tree')) {
      const resolved = repo.refs.get(`refs/heads/${sha}`) ?? (repo.git.has(sha, 'commit') ? sha : undefined);
      if (!resolved) throw notFound('https://docs.github.com/rest/git/trees#get-a-tree');
      sha = repo.git.commit(resolved).tree;
    }
    const recursive =
      ctx.query.has('recursive') && !['0', 'false'].includes(ctx.query.get('recursive') ?? '');
    return { status: 200, body: treeBody(repo, sha, repoUrls(urlsOf(ctx), repo).api, recursive) };
  });

  router.add('POST', '/repos/:owner/:repo/git/commits', (ctx) => {
    const repo = loadRepo(ctx, 'contents', 'write');
    requireNonEmpty(repo);
    const documentation = 'https://docs.github.com/rest/git/commits#create-a-commit';
    const body = bodyObject(ctx);
    const message = requireString(body, 'message', documentation);
    const tree = requireString(body, 'tree', documentation);
    const parents = body.parents ?? [];
    if (!Array.isArray(parents) || parents.some((parent) => typeof parent !== 'string')) {
      throw unprocessable(
        `Invalid request.\n\nFor 'properties/parents', ${JSON.stringify(parents)} is not an array of strings.`,
        documentation,
      );
    }
    if (!repo.git.has(tree, 'tree')) throw unprocessable('Tree SHA does not exist', documentation);
    for (const parent of parents as string[]) {
      if (!repo.git.has(parent, 'commit'))
        throw unprocessable('Parent SHA does not exist or is not a commit object', documentation);
    }
    const customAuthor = parseIdentity(ctx, body.author, 'author');
    const customCommitter = parseIdentity(ctx, body.committer, 'committer');
    const signature = optionalString(body, 'signature');
    const token = ctx.token;
    if (!token) throw notFound();
    const sign = token.kind !== 'pat' && !customAuthor && !customCommitter && !signature;
    const author = customAuthor ?? identityOf(ctx.world, token.account);
    const committer = customCommitter ?? (sign ? webFlowIdentity(ctx.world) : author);
    const sha = writeCommit(ctx.world, repo, {
      tree,
      parents: parents as string[],
      message,
      author,
      committer,
      sign,
      gpgsig: signature ?? null,
    });
    const out = gitCommit(urlsOf(ctx), ctx.world, repo, sha);
    return { status: 201, body: out, headers: { location: String(out.url) } };
  });

  router.add('GET', '/repos/:owner/:repo/git/commits/:sha', (ctx) => {
    const repo = loadRepo(ctx, 'contents', 'read');
    const sha = ctx.params.sha ?? '';
    if (!repo.git.has(sha, 'commit'))
      throw notFound('https://docs.github.com/rest/git/commits#get-a-commit-object');
    return { status: 200, body: gitCommit(urlsOf(ctx), ctx.world, repo, sha) };
  });
}

function createTree(ctx: Ctx): Reply {
  const repo = loadRepo(ctx, 'contents', 'write');
  requireNonEmpty(repo);
  const documentation = 'https://docs.github.com/rest/git/trees#create-a-tree';
  const body = bodyObject(ctx);
  const baseTree = optionalString(body, 'base_tree');
  if (baseTree !== undefined && !repo.git.has(baseTree, 'tree')) {
    throw unprocessable('base_tree is not a valid tree oid', documentation);
  }
  if (!Array.isArray(body.tree))
    throw unprocessable(`Invalid request.\n\n"tree" wasn't supplied.`, documentation);
  const changes = new Map<string, { mode: string; sha: string } | null>();
  for (const [index, raw] of (body.tree as unknown[]).entries()) {
    if (typeof raw !== 'object' || raw === null)
      throw unprocessable(`Invalid tree entry at index ${index}`, documentation);
    const entry = raw as Record<string, unknown>;
    const path = requireString(entry, 'path', documentation);
    const mode = requireString(entry, 'mode', documentation);
    const type = optionalString(entry, 'type');
    const expectedType = MODE_TYPES[mode];
    if (!expectedType || (type !== undefined && type !== expectedType)) {
      throw unprocessable(
        `Invalid tree info: mode ${mode} and type ${String(type)} at tree.${index}`,
        documentation,
      );
    }
    if (
      path === '' ||
      path.startsWith('/') ||
      path.endsWith('/') ||
      path.split('/').some((part) => part === '' || part === '.' || part === '..' || part === '.git')
    ) {
      throw unprocessable(`tree.path contains a malformed path component`, documentation);
    }
    const hasContent = entry.content !== undefined;
    const hasSha = Object.prototype.hasOwnProperty.call(entry, 'sha');
    if (hasContent && hasSha)
      throw unprocessable(
        'Must supply either tree.sha or tree.content. Request will fail if both are supplied.',
        documentation,
      );
    const gitMode = mode === '040000' ? '40000' : mode;
    if (hasContent) {
      const content = requireString(entry, 'content', documentation);
      changes.set(path, { mode: gitMode, sha: repo.git.putBlob(Buffer.from(content, 'utf8')) });
      continue;
    }
    if (entry.sha === null) {
      if (!baseTree || !repo.git.lookup(baseTree, path)) {
        throw unprocessable(`GitRPC::BadObjectState`, documentation);
      }
      changes.set(path, null);
      continue;
    }
    const sha = requireString(entry, 'sha', documentation);
    if (
      !OID_PATTERN.test(sha) ||
      (expectedType !== 'commit' && !repo.git.has(sha, expectedType as 'blob' | 'tree'))
    ) {
      throw unprocessable(`Invalid tree info: sha ${sha} at tree.${index} does not exist`, documentation);
    }
    changes.set(path, { mode: gitMode, sha });
  }
  const sha = repo.git.applyChanges(baseTree ?? null, changes);
  const out = treeBody(repo, sha, repoUrls(urlsOf(ctx), repo).api, false);
  return { status: 201, body: out, headers: { location: String(out.url) } };
}
