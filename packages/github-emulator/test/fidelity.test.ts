/**
 * Fidelity to GitHub's documented behaviour: conditional GETs (ETag, Last-Modified, 304 without body and
 * without rate-limit cost), directory and ref listings, default labels, raw media types,
 * author_association per relation, `/repositories/{id}` paths, and the GHES layout.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startEmulator } from '@writ/github-emulator/index.js';
import type { Emulator } from '@writ/github-emulator/index.js';
import { client, conformanceOf, expectConformance, setup } from './support/helpers.js';
import type { World } from './support/helpers.js';

let world: World;

beforeAll(async () => {
  world = await setup(21, {
    'README.md': '# hello\n',
    'docs/guide.md': 'guide\n',
    'docs/api/index.md': 'api\n',
    'b.txt': 'b\n',
    'A.txt': 'A\n',
  });
});

afterAll(async () => {
  await world.emulator.close();
  expectConformance();
});

async function get(
  path: string,
  headers: Record<string, string> = {},
  token: string | null = 'alice-pat',
  base = world.emulator.url,
): Promise<Response> {
  return fetch(`${base}${path}`, {
    headers: { ...(token === null ? {} : { authorization: `token ${token}` }), ...headers },
  });
}

const used = (response: Response): number => Number(response.headers.get('x-ratelimit-used'));
const remaining = (response: Response): number => Number(response.headers.get('x-ratelimit-remaining'));

describe('conditional requests', () => {
  it('tags a JSON GET with a weak ETag that is stable across requests and changes with the resource', async () => {
    const alice = client(world.emulator, 'alice-pat');
    const { data: created } = await alice.rest.issues.create({ owner: 'alice', repo: 'repo', title: 'etag' });
    const first = await get(`/repos/alice/repo/issues/${created.number}`);
    const second = await get(`/repos/alice/repo/issues/${created.number}`);
    const tag = first.headers.get('etag');
    expect(tag).toMatch(/^W\/"[0-9a-f]{40}"$/);
    expect(second.headers.get('etag')).toBe(tag);
    expect(first.headers.get('cache-control')).toBe('private, max-age=60, s-maxage=60');
    expect(first.headers.get('vary')).toContain('Authorization');
    expect(first.headers.get('last-modified')).toBe(new Date(created.updated_at).toUTCString());
    await alice.rest.issues.update({
      owner: 'alice',
      repo: 'repo',
      issue_number: created.number,
      title: 'changed',
    });
    const third = await get(`/repos/alice/repo/issues/${created.number}`);
    expect(third.headers.get('etag')).not.toBe(tag);
    // Lists are tagged too, and a new item changes the list's tag.
    const list = await get('/repos/alice/repo/issues?state=all');
    await alice.rest.issues.create({ owner: 'alice', repo: 'repo', title: 'another' });
    const again = await get('/repos/alice/repo/issues?state=all');
    expect(list.headers.get('etag')).toMatch(/^W\//);
    expect(again.headers.get('etag')).not.toBe(list.headers.get('etag'));
    expect(list.headers.get('last-modified')).toBeNull();
  });

  it('answers If-None-Match with 304, no body, and leaves the primary rate limit where it was', async () => {
    const first = await get('/repos/alice/repo');
    const tag = first.headers.get('etag') ?? '';
    await first.arrayBuffer();
    const probe = await get('/repos/alice/repo/labels');
    await probe.arrayBuffer();
    const before = { used: used(probe), remaining: remaining(probe) };
    for (const match of [tag, tag.replace(/^W\//, ''), `"other", ${tag}`, '*']) {
      const conditional = await get('/repos/alice/repo', { 'if-none-match': match });
      expect(conditional.status).toBe(304);
      expect(await conditional.text()).toBe('');
      expect(conditional.headers.get('etag')).toBe(tag);
      expect(conditional.headers.get('content-type')).toBeNull();
      expect(used(conditional)).toBe(before.used);
      expect(remaining(conditional)).toBe(before.remaining);
    }
    const after = await get('/repos/alice/repo/labels');
    expect(used(after)).toBe(before.used + 1);
    // A stale tag is a full 200 that counts.
    const stale = await get('/repos/alice/repo', { 'if-none-match': 'W/"0000"' });
    expect(stale.status).toBe(200);
    expect(used(stale)).toBe(before.used + 2);
    // Through Octokit: a 304 is thrown as RequestError 304 (what a conditional-read cache must catch).
    const alice = client(world.emulator, 'alice-pat');
    await expect(
      alice.request('GET /repos/{owner}/{repo}', {
        owner: 'alice',
        repo: 'repo',
        headers: { 'if-none-match': tag },
      }),
    ).rejects.toMatchObject({ status: 304 });
  });

  it('counts an anonymous 304 (GitHub exempts only authorized ones) and honours If-Modified-Since', async () => {
    const first = await get('/repos/alice/repo', {}, null);
    const tag = first.headers.get('etag') ?? '';
    const modified = first.headers.get('last-modified') ?? '';
    expect(first.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=60');
    const conditional = await get('/repos/alice/repo', { 'if-none-match': tag }, null);
    expect(conditional.status).toBe(304);
    expect(used(conditional)).toBe(used(first) + 1);
    const since = await get('/repos/alice/repo', { 'if-modified-since': modified });
    expect(since.status).toBe(304);
    const older = await get('/repos/alice/repo', {
      'if-modified-since': new Date(Date.parse(modified) - 60_000).toUTCString(),
    });
    expect(older.status).toBe(200);
    // A write answers with its representation's ETag but no Last-Modified; no write is ever a 304.
    const alice = client(world.emulator, 'alice-pat');
    const label = await alice.rest.issues.createLabel({
      owner: 'alice',
      repo: 'repo',
      name: 'cond',
      color: 'ABCDEF',
    });
    expect(label.headers.etag).toMatch(/^W\//);
    expect(label.headers['last-modified']).toBeUndefined();
    const read = await get('/repos/alice/repo/labels/cond');
    expect(read.headers.get('etag')).toBe(label.headers.etag);
  });
});

describe('directory and ref listings', () => {
  it('lists the root with and without a trailing slash, and a directory, in tree order', async () => {
    for (const path of ['/repos/alice/repo/contents', '/repos/alice/repo/contents/']) {
      const response = await get(path);
      expect(response.status).toBe(200);
      const entries = (await response.json()) as { name: string; type: string; path: string }[];
      expect(entries.map((entry) => [entry.name, entry.type])).toEqual([
        ['A.txt', 'file'],
        ['README.md', 'file'],
        ['b.txt', 'file'],
        ['docs', 'dir'],
      ]);
    }
    const docs = (await (await get('/repos/alice/repo/contents/docs')).json()) as {
      path: string;
      type: string;
      download_url: string | null;
    }[];
    expect(docs.map((entry) => [entry.path, entry.type])).toEqual([
      ['docs/api', 'dir'],
      ['docs/guide.md', 'file'],
    ]);
    expect(docs[0]?.download_url).toBeNull();
    const object = (await (
      await get('/repos/alice/repo/contents/docs', { accept: 'application/vnd.github.object+json' })
    ).json()) as { type: string; entries: { path: string }[] };
    expect(object.type).toBe('dir');
    expect(object.entries.map((entry) => entry.path)).toEqual(['docs/api', 'docs/guide.md']);
    const missing = await get('/repos/alice/repo/contents/nope');
    expect(missing.status).toBe(404);
  });

  it('lists refs: git/refs paginated, git/refs/{prefix} one ref or the ones it prefixes, matching-refs all', async () => {
    const app = client(world.emulator, 'app-token');
    for (let index = 0; index < 5; index++)
      await app.rest.git.createRef({
        owner: 'alice',
        repo: 'repo',
        ref: `refs/heads/feature-${index}`,
        sha: world.head,
      });
    await app.rest.git.createRef({ owner: 'alice', repo: 'repo', ref: 'refs/tags/v1', sha: world.head });
    const all = await app.paginate('GET /repos/{owner}/{repo}/git/refs', {
      owner: 'alice',
      repo: 'repo',
      per_page: 2,
    });
    const names = (all as { ref: string }[]).map((entry) => entry.ref);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('refs/heads/main');
    expect(names).toContain('refs/tags/v1');
    const page = await get('/repos/alice/repo/git/refs?per_page=2', {}, 'app-token');
    expect(page.headers.get('link')).toContain('rel="next"');
    expect(page.headers.get('last-modified')).not.toBeNull();
    const one = (await (await get('/repos/alice/repo/git/refs/heads/main', {}, 'app-token')).json()) as {
      ref: string;
    };
    expect(one.ref).toBe('refs/heads/main');
    const prefixed = (await (
      await get('/repos/alice/repo/git/refs/heads/feature', {}, 'app-token')
    ).json()) as {
      ref: string;
    }[];
    expect(prefixed.map((entry) => entry.ref)).toEqual([0, 1, 2, 3, 4].map((n) => `refs/heads/feature-${n}`));
    expect((await get('/repos/alice/repo/git/refs/heads/zzz', {}, 'app-token')).status).toBe(404);
    // matching-refs answers every match in one response (GitHub ignores per_page there).
    const matching = await get(
      '/repos/alice/repo/git/matching-refs/heads/feature?per_page=2',
      {},
      'app-token',
    );
    expect(((await matching.json()) as unknown[]).length).toBe(5);
    expect(matching.headers.get('link')).toBeNull();
    const none = await get('/repos/alice/repo/git/matching-refs/heads/zzz', {}, 'app-token');
    expect(await none.json()).toEqual([]);
    const everything = (await (
      await get('/repos/alice/repo/git/matching-refs', {}, 'app-token')
    ).json()) as unknown[];
    expect(everything.length).toBe(names.length);
  });
});

describe('repository defaults', () => {
  it("gives a new repository GitHub's nine default labels, keeps a label colour's case, and full-repository keys", async () => {
    const admin = world.emulator.admin;
    admin.createRepo({ owner: 'alice', name: 'fresh' });
    const alice = client(world.emulator, 'alice-pat');
    const labels = await alice.rest.issues.listLabelsForRepo({ owner: 'alice', repo: 'fresh' });
    expect(labels.data.map((entry) => [entry.name, entry.color, entry.default])).toEqual([
      ['bug', 'd73a4a', true],
      ['documentation', '0075ca', true],
      ['duplicate', 'cfd3d7', true],
      ['enhancement', 'a2eeef', true],
      ['good first issue', '7057ff', true],
      ['help wanted', '008672', true],
      ['invalid', 'e4e669', true],
      ['question', 'd876e3', true],
      ['wontfix', 'ffffff', true],
    ]);
    expect(labels.data[0]?.description).toBe("Something isn't working");
    const upper = await alice.rest.issues.createLabel({
      owner: 'alice',
      repo: 'fresh',
      name: 'Loud',
      color: 'FF00AA',
    });
    expect(upper.data.color).toBe('FF00AA');
    expect(upper.data.default).toBe(false);
    admin.createRepo({ owner: 'alice', name: 'bare', default_labels: false });
    expect((await alice.rest.issues.listLabelsForRepo({ owner: 'alice', repo: 'bare' })).data).toEqual([]);
    const { data: repo } = await alice.rest.repos.get({ owner: 'alice', repo: 'fresh' });
    expect(repo).toMatchObject({
      has_issues: true,
      has_projects: true,
      has_wiki: true,
      has_downloads: true,
      has_discussions: false,
      allow_update_branch: false,
      use_squash_pr_title_as_default: false,
      squash_merge_commit_title: 'COMMIT_OR_PR_TITLE',
      squash_merge_commit_message: 'COMMIT_MESSAGES',
      merge_commit_title: 'MERGE_MESSAGE',
      merge_commit_message: 'PR_TITLE',
      temp_clone_token: '',
      custom_properties: {},
    });
  });
});

describe('raw media types on contents', () => {
  it.each([
    'application/vnd.github.raw',
    'application/vnd.github.v3.raw',
    'application/vnd.github.raw+json',
    'application/vnd.github.v3.raw+json',
  ])('answers %s with the bytes and GitHub content type, tagged by the blob SHA', async (type) => {
    const response = await get('/repos/alice/repo/contents/README.md', { accept: type });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(`${type.replace(/\+json$/, '')}; charset=utf-8`);
    expect(response.headers.get('x-github-media-type')).toBe('github.v3; param=raw');
    expect(await response.text()).toBe('# hello\n');
    const json = (await (await get('/repos/alice/repo/contents/README.md')).json()) as { sha: string };
    expect(response.headers.get('etag')).toBe(`"${json.sha}"`);
    const again = await get('/repos/alice/repo/contents/README.md', {
      accept: type,
      'if-none-match': `"${json.sha}"`,
    });
    expect(again.status).toBe(304);
  });

  it('answers a directory in JSON whatever the raw type, and refuses HTML rendering by name (415)', async () => {
    const directory = await get('/repos/alice/repo/contents/docs', { accept: 'application/vnd.github.raw' });
    expect(directory.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Array.isArray(await directory.json())).toBe(true);
    const html = await get('/repos/alice/repo/contents/README.md', { accept: 'application/vnd.github.html' });
    expect(html.status).toBe(415);
    expect(((await html.json()) as { message: string }).message).toContain('not modelled');
  });
});

describe('author_association', () => {
  it('is computed per relation: OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, FIRST_TIME_CONTRIBUTOR, FIRST_TIMER, NONE', async () => {
    const admin = world.emulator.admin;
    for (const login of ['acme', 'mem', 'own', 'contrib', 'firsttime', 'newbie', 'stranger'])
      admin.createUser({ login, ...(login === 'acme' ? { type: 'Organization' } : {}) });
    for (const login of ['mem', 'own', 'contrib', 'firsttime', 'newbie', 'stranger'])
      admin.createToken({ token: `${login}-pat`, kind: 'pat', login });
    admin.setOrgMember('acme', 'mem', 'member');
    admin.setOrgMember('acme', 'own', 'admin');
    admin.createRepo({ owner: 'acme', name: 'product', files: { 'README.md': 'x\n' } });
    admin.createRepo({ owner: 'contrib', name: 'elsewhere', files: { 'a.txt': 'a\n' } });
    admin.setCollaborator('acme', 'product', 'bob', 'write');
    const repo = { owner: 'acme', repo: 'product' };
    // contrib authors a commit on the default branch (Git data API as bob's write access allows).
    const bob = client(world.emulator, 'bob-pat');
    const head = (await bob.rest.git.getRef({ ...repo, ref: 'heads/main' })).data.object.sha;
    const base = (await bob.rest.git.getCommit({ ...repo, commit_sha: head })).data.tree.sha;
    const tree = await bob.rest.git.createTree({
      ...repo,
      base_tree: base,
      tree: [{ path: 'c.txt', mode: '100644', type: 'blob', content: 'c\n' }],
    });
    const contrib = world.emulator.world.account('contrib');
    const commit = await bob.rest.git.createCommit({
      ...repo,
      message: 'by contrib',
      tree: tree.data.sha,
      parents: [head],
      author: { name: 'contrib', email: `${contrib?.id ?? 0}+contrib@users.noreply.github.com` },
    });
    await bob.rest.git.updateRef({ ...repo, ref: 'heads/main', sha: commit.data.sha });
    // firsttime and newbie open pull requests from branches bob pushes for them; firsttime has committed
    // elsewhere (its own repository), newbie nowhere.
    admin.createRepo({ owner: 'firsttime', name: 'own-work', files: { 'x.txt': 'x\n' } });
    for (const login of ['firsttime', 'newbie']) {
      await bob.rest.git.createRef({ ...repo, ref: `refs/heads/${login}`, sha: head });
      const pr = await bob.rest.git.createTree({
        ...repo,
        base_tree: base,
        tree: [{ path: `${login}.txt`, mode: '100644', type: 'blob', content: `${login}\n` }],
      });
      const change = await bob.rest.git.createCommit({
        ...repo,
        message: login,
        tree: pr.data.sha,
        parents: [head],
      });
      await bob.rest.git.updateRef({ ...repo, ref: `heads/${login}`, sha: change.data.sha, force: true });
    }
    admin.setCollaborator('acme', 'product', 'firsttime', 'write');
    admin.setCollaborator('acme', 'product', 'newbie', 'write');
    for (const login of ['firsttime', 'newbie']) {
      await client(world.emulator, `${login}-pat`).rest.pulls.create({
        ...repo,
        title: login,
        head: login,
        base: 'main',
      });
    }
    // Pull request authors lose their write access again: their association comes from their commits.
    admin.setCollaborator('acme', 'product', 'firsttime', 'none');
    admin.setCollaborator('acme', 'product', 'newbie', 'none');
    const { data: issue } = await bob.rest.issues.create({ ...repo, title: 'relations' });
    const expected: [string, string][] = [
      ['own', 'MEMBER'],
      ['mem', 'MEMBER'],
      ['bob', 'COLLABORATOR'],
      ['contrib', 'CONTRIBUTOR'],
      ['firsttime', 'FIRST_TIME_CONTRIBUTOR'],
      ['newbie', 'FIRST_TIMER'],
      ['stranger', 'NONE'],
    ];
    for (const [who] of expected) {
      await client(world.emulator, `${who}-pat`).rest.issues.createComment({
        ...repo,
        issue_number: issue.number,
        body: who,
      });
    }
    const comments = await bob.rest.issues.listComments({ ...repo, issue_number: issue.number });
    expect(comments.data.map((entry) => [entry.body, entry.author_association])).toEqual(expected);
    expect(issue.author_association).toBe('COLLABORATOR');
    // On a user-owned repository the owner is OWNER.
    const own = await client(world.emulator, 'alice-pat').rest.issues.create({
      owner: 'alice',
      repo: 'repo',
      title: 'o',
    });
    expect(own.data.author_association).toBe('OWNER');
    // Organization owners have admin on its repositories.
    const permission = await bob.rest.repos.getCollaboratorPermissionLevel({ ...repo, username: 'own' });
    expect(permission.data.permission).toBe('admin');
  });

  it('resolves /repositories/{id}/… like /repos/{owner}/{repo}/… and 404s an unknown ID', async () => {
    const id = world.emulator.world.repo('alice', 'repo')?.id ?? 0;
    const byId = (await (await get(`/repositories/${id}`)).json()) as { full_name: string };
    expect(byId.full_name).toBe('alice/repo');
    const issues = await get(`/repositories/${id}/issues?state=all&per_page=1`);
    expect(issues.status).toBe(200);
    expect(issues.headers.get('link')).toContain(`/repositories/${id}/issues?`);
    expect((await get('/repositories/999999999/issues')).status).toBe(404);
  });
});

describe('GHES layout', () => {
  let ghes: Emulator;

  beforeAll(async () => {
    const checker = conformanceOf('unnamed');
    ghes = await startEmulator({
      seed: 3,
      layout: 'ghes',
      onExchange: (exchange) => checker.observe(exchange),
    });
    ghes.admin.createUser({ login: 'alice' });
    ghes.admin.createToken({ token: 'alice-pat', kind: 'pat', login: 'alice' });
    ghes.admin.createRepo({ owner: 'alice', name: 'repo', files: { 'README.md': 'hi\n' } });
  });

  afterAll(async () => {
    await ghes.close();
  });

  it('serves REST under /api/v3, GraphQL at /api/graphql and web URLs at the host', async () => {
    expect(ghes.url).toBe(`${ghes.serverUrl}/api/v3`);
    expect(ghes.graphqlUrl).toBe(`${ghes.serverUrl}/api/graphql`);
    const repo = await get('/repos/alice/repo', {}, 'alice-pat', ghes.url);
    expect(repo.status).toBe(200);
    expect(repo.headers.get('x-github-enterprise-version')).toMatch(/^enterprise-server@/);
    const body = (await repo.json()) as { url: string; html_url: string; clone_url: string };
    expect(body.url).toBe(`${ghes.url}/repos/alice/repo`);
    expect(body.html_url).toBe(`${ghes.serverUrl}/alice/repo`);
    expect(body.clone_url).toBe(`${ghes.serverUrl}/alice/repo.git`);
    // Neither the dotcom paths nor /api/v3/graphql are endpoints on a GHES host.
    expect((await get('/repos/alice/repo', {}, 'alice-pat', ghes.serverUrl)).status).toBe(404);
    const graphql = (path: string): Promise<Response> =>
      fetch(`${ghes.serverUrl}${path}`, {
        method: 'POST',
        headers: { authorization: 'token alice-pat', 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ viewer { login } }' }),
      });
    const answered = await graphql('/api/graphql');
    expect(((await answered.json()) as { data: { viewer: { login: string } } }).data.viewer.login).toBe(
      'alice',
    );
    expect((await graphql('/api/v3/graphql')).status).toBe(404);
    expect((await graphql('/graphql')).status).toBe(404);
    // Link headers and the admin API's self-description name the layout's URLs.
    const info = (await (await fetch(ghes.adminUrl)).json()) as Record<string, string>;
    expect(info).toMatchObject({ url: ghes.url, graphqlUrl: ghes.graphqlUrl, serverUrl: ghes.serverUrl });
    const labels = await get('/repos/alice/repo/labels?per_page=2', {}, 'alice-pat', ghes.url);
    expect(labels.headers.get('link')).toContain(`${ghes.url}/repositories/`);
    // Writ's client reaches it with GITHUB_API_URL-style base URL, paginating through the links.
    const alice = client(ghes, 'alice-pat');
    const all = await alice.paginate(alice.rest.issues.listLabelsForRepo, {
      owner: 'alice',
      repo: 'repo',
      per_page: 2,
    });
    expect(all).toHaveLength(9);
  });
});
