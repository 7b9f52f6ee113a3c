/**
 * The emulator's admin API (provisioning, workflow runs, bare-repository export, the clock, faults and the
 * request log) and GitHub's access rules: private repositories, read-only collaborators, GITHUB_TOKEN's
 * scope and rate limit, anonymous callers, `/user`, and empty repositories.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Emulator } from '@writ/github-emulator/index.js';
import {
  client,
  COMMIT_MUTATION,
  commitInput,
  expectConformance,
  graphqlRaw,
  start,
} from './support/helpers.js';

let emulator: Emulator;
const dirs: string[] = [];
beforeAll(async () => {
  emulator = await start(5);
});
afterAll(async () => {
  await emulator.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  expectConformance();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- admin answers are checked field by field below
async function admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${emulator.url}/_emulator${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

describe('admin HTTP API', () => {
  it('provisions users, apps, tokens, repositories, collaborators, rulesets and runs', async () => {
    expect((await admin('POST', '/reset')).status).toBe(200);
    expect((await admin('POST', '/users', { login: 'owner' })).status).toBe(201);
    await admin('POST', '/users', { login: 'reader' });
    const app = await admin('POST', '/apps', { slug: 'ledger-app' });
    expect(app.body).toMatchObject({
      slug: 'ledger-app',
      bot_login: 'ledger-app[bot]',
      app_id: expect.any(Number),
      bot_id: expect.any(Number),
    });
    expect(
      (await admin('POST', '/tokens', { token: 'inst', kind: 'installation', app: 'ledger-app' })).status,
    ).toBe(201);
    await admin('POST', '/tokens', { token: 'own', kind: 'pat', login: 'owner' });
    await admin('POST', '/tokens', { token: 'rdr', kind: 'pat', login: 'reader' });
    await admin('POST', '/tokens', { token: 'wf', kind: 'github_token', repositories: ['owner/private'] });
    expect((await admin('POST', '/tokens', { token: 'x', kind: 'pat', login: 'ghost' })).status).toBe(400);
    const repo = await admin('POST', '/repos', {
      owner: 'owner',
      name: 'private',
      private: true,
      default_branch: 'trunk',
      files: { 'a.txt': 'a' },
    });
    expect(repo.body).toMatchObject({
      full_name: 'owner/private',
      default_branch: 'trunk',
      head: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
    await admin('POST', '/repos', { owner: 'owner', name: 'other', files: { 'b.txt': 'b' } });
    expect((await admin('PUT', '/repos/owner/private/collaborators/reader', { role: 'read' })).status).toBe(
      200,
    );
    const ruleset = await admin('POST', '/repos/owner/private/rulesets', {
      name: 'protect trunk',
      rules: [{ type: 'required_signatures' }, { type: 'creation' }],
      conditions: { ref_name: { include: ['~DEFAULT_BRANCH', 'refs/heads/release/*'], exclude: [] } },
    });
    expect(ruleset.body).toMatchObject({ enforcement: 'active', target: 'branch' });
    const run = await admin('POST', '/repos/owner/private/actions/runs', { id: 4242, status: 'in_progress' });
    expect(run.body).toEqual({ id: 4242, status: 'in_progress', conclusion: null });
    expect((await admin('GET', '/')).body).toMatchObject({ url: emulator.url, seed: 5 });
  });

  it('serves workflow runs, updated through the admin API', async () => {
    const octokit = client(emulator, 'inst');
    const { data: running } = await octokit.rest.actions.getWorkflowRun({
      owner: 'owner',
      repo: 'private',
      run_id: 4242,
    });
    expect(running).toMatchObject({
      id: 4242,
      status: 'in_progress',
      conclusion: null,
      head_branch: 'trunk',
    });
    await admin('POST', '/repos/owner/private/actions/runs', {
      id: 4242,
      status: 'completed',
      conclusion: 'cancelled',
    });
    const { data: done } = await octokit.rest.actions.getWorkflowRun({
      owner: 'owner',
      repo: 'private',
      run_id: 4242,
    });
    expect(done).toMatchObject({ status: 'completed', conclusion: 'cancelled' });
    const { data: list } = await octokit.rest.actions.listWorkflowRunsForRepo({
      owner: 'owner',
      repo: 'private',
      status: 'cancelled',
    });
    expect(list.workflow_runs.map((entry) => entry.id)).toEqual([4242]);
    const { data: branch } = await octokit.rest.repos.getBranch({
      owner: 'owner',
      repo: 'private',
      branch: 'trunk',
    });
    expect(branch.commit.sha).toBe(done.head_sha);
    await expect(
      octokit.rest.actions.getWorkflowRun({ owner: 'owner', repo: 'private', run_id: 1 }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('exports a repository as a bare git directory', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'writ-emu-admin-')), 'private.git');
    dirs.push(join(dir, '..'));
    const exported = await admin('POST', '/repos/owner/private/export', { dir });
    expect(exported.status).toBe(200);
    expect(execFileSync('git', ['-C', dir, 'rev-parse', 'trunk'], { encoding: 'utf8' }).trim()).toBe(
      exported.body.refs['refs/heads/trunk'],
    );
  });

  it('sets, advances and freezes the clock', async () => {
    const set = await admin('POST', '/clock', { now: '2031-05-06T07:08:09Z', freeze: true });
    expect(set.body).toEqual({ now: '2031-05-06T07:08:09.000Z', frozen: true });
    const advanced = await admin('POST', '/clock', { advance_ms: 61_000 });
    expect(advanced.body.now).toBe('2031-05-06T07:09:10.000Z');
    const response = await fetch(`${emulator.url}/rate_limit`, { headers: { authorization: 'token own' } });
    expect(response.headers.get('date')).toBe('Tue, 06 May 2031 07:09:10 GMT');
    // Back to real time: the throttling plugin computes waits from x-ratelimit-reset against its own clock.
    await admin('POST', '/clock', { freeze: false, now: Date.now() });
  });

  it('lists and clears faults, and reports the request log and events', async () => {
    const fault = await admin('POST', '/faults', {
      match: { path: '/nothing' },
      fault: { type: 'status', status: 500 },
      times: 2,
    });
    expect(fault.body).toMatchObject({ times: 2, hits: 0 });
    expect((await admin('GET', '/faults')).body).toHaveLength(1);
    expect((await admin('POST', '/faults', { fault: { type: 'explode' } })).status).toBe(400);
    await admin('DELETE', '/faults');
    expect((await admin('GET', '/faults')).body).toEqual([]);
    const requests = (await admin('GET', '/requests')).body as unknown[];
    expect(requests.at(-1)).toMatchObject({
      method: 'GET',
      path: '/rate_limit',
      status: 200,
      actor: 'owner',
    });
    expect(Array.isArray((await admin('GET', '/events')).body)).toBe(true);
  });
});

describe('access', () => {
  it('hides a private repository from anonymous callers and non-collaborators with 404', async () => {
    await admin('POST', '/users', { login: 'stranger' });
    await admin('POST', '/tokens', { token: 'str', kind: 'pat', login: 'stranger' });
    const anonymous = await fetch(`${emulator.url}/repos/owner/private`);
    expect(anonymous.status).toBe(404);
    await expect(
      client(emulator, 'str').rest.repos.get({ owner: 'owner', repo: 'private' }),
    ).rejects.toMatchObject({ status: 404 });
    const { data } = await client(emulator, 'rdr').rest.repos.get({ owner: 'owner', repo: 'private' });
    expect(data.permissions).toEqual({
      admin: false,
      maintain: false,
      push: false,
      triage: false,
      pull: true,
    });
  });

  it('refuses a write from a read-only collaborator and lets the public read a public repository', async () => {
    await expect(
      client(emulator, 'rdr').rest.git.createRef({
        owner: 'owner',
        repo: 'private',
        ref: 'refs/heads/x',
        sha: '0'.repeat(40),
      }),
    ).rejects.toMatchObject({
      status: 403,
      response: { data: { message: 'Resource not accessible by personal access token' } },
    });
    const anonymous = await fetch(`${emulator.url}/repos/owner/other/git/ref/heads/main`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get('x-ratelimit-limit')).toBe('60');
  });

  it('limits a GITHUB_TOKEN to its own repository and to 1,000 requests an hour', async () => {
    const workflow = client(emulator, 'wf');
    const { data, headers } = await workflow.rest.repos.get({ owner: 'owner', repo: 'private' });
    expect(data.full_name).toBe('owner/private');
    expect(headers['x-ratelimit-limit']).toBe('1000');
    // Outside its repository it sees only what the public sees: it reads the public repository, cannot write.
    const { data: other } = await workflow.rest.repos.get({ owner: 'owner', repo: 'other' });
    expect(other.permissions).toEqual({
      admin: false,
      maintain: false,
      push: false,
      triage: false,
      pull: true,
    });
    await expect(
      workflow.rest.issues.create({ owner: 'owner', repo: 'other', title: 'not mine' }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('exhausts the anonymous primary limit with 403 and x-ratelimit-remaining 0', async () => {
    let last: Response | undefined;
    for (let index = 0; index < 61; index++) last = await fetch(`${emulator.url}/repos/owner/other`);
    expect(last?.status).toBe(403);
    expect(last?.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(((await last?.json()) as { message: string }).message).toMatch(/^API rate limit exceeded/);
  });

  it('lets a non-collaborator open an issue on a public repository but not on a private one', async () => {
    const stranger = client(emulator, 'str');
    const { data } = await stranger.rest.issues.create({
      owner: 'owner',
      repo: 'other',
      title: 'from outside',
      labels: ['x'],
    });
    expect(data).toMatchObject({ user: { login: 'stranger' }, author_association: 'NONE', labels: [] });
    await expect(
      stranger.rest.issues.create({ owner: 'owner', repo: 'private', title: 'no' }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('answers /user for a PAT and refuses it for an installation', async () => {
    const { data } = await client(emulator, 'own').rest.users.getAuthenticated();
    expect(data).toMatchObject({ login: 'owner', type: 'User' });
    await expect(client(emulator, 'inst').rest.users.getAuthenticated()).rejects.toMatchObject({
      status: 403,
    });
    const { data: bot } = await client(emulator, 'own').rest.users.getByUsername({
      username: 'ledger-app[bot]',
    });
    expect(bot.type).toBe('Bot');
  });
});

describe('empty repositories', () => {
  it('refuse the Git data API with 409 Git Repository is empty', async () => {
    await admin('POST', '/repos', { owner: 'owner', name: 'empty' });
    const octokit = client(emulator, 'own');
    await expect(
      octokit.rest.git.createBlob({ owner: 'owner', repo: 'empty', content: 'x' }),
    ).rejects.toMatchObject({
      status: 409,
      response: { data: { message: 'Git Repository is empty.' } },
    });
    await expect(
      octokit.rest.git.getRef({ owner: 'owner', repo: 'empty', ref: 'heads/main' }),
    ).rejects.toMatchObject({ status: 409 });
    const result = await octokit.graphql<{ repository: { isEmpty: boolean; defaultBranchRef: null } }>(
      '{ repository(owner: "owner", name: "empty") { isEmpty defaultBranchRef { name } } }',
    );
    expect(result.repository).toEqual({ isEmpty: true, defaultBranchRef: null });
  });
});

describe('settings doctor reads', () => {
  it('reports default workflow permissions (settable through the admin API) to admins only', async () => {
    const owner = client(emulator, 'own');
    const { data: initial } = await owner.request('GET /repos/{owner}/{repo}/actions/permissions/workflow', {
      owner: 'owner',
      repo: 'private',
    });
    expect(initial).toEqual({
      default_workflow_permissions: 'read',
      can_approve_pull_request_reviews: false,
    });
    const set = await admin('PUT', '/repos/owner/private/actions/permissions/workflow', {
      default_workflow_permissions: 'write',
    });
    expect(set.body).toEqual({
      default_workflow_permissions: 'write',
      can_approve_pull_request_reviews: false,
    });
    const { data: after } = await owner.request('GET /repos/{owner}/{repo}/actions/permissions/workflow', {
      owner: 'owner',
      repo: 'private',
    });
    expect(after.default_workflow_permissions).toBe('write');
    await expect(
      client(emulator, 'rdr').request('GET /repos/{owner}/{repo}/actions/permissions/workflow', {
        owner: 'owner',
        repo: 'private',
      }),
    ).rejects.toMatchObject({ status: 403 });
    expect(
      (
        await admin('PUT', '/repos/owner/private/actions/permissions/workflow', {
          default_workflow_permissions: 'all',
        })
      ).status,
    ).toBe(400);
  });

  it('reports classic branch protection set through the admin API, 404 when unprotected, 403 without administration', async () => {
    const owner = client(emulator, 'own');
    const get = () =>
      owner.rest.repos.getBranchProtection({ owner: 'owner', repo: 'private', branch: 'trunk' });
    await expect(get()).rejects.toMatchObject({
      status: 404,
      response: { data: { message: 'Branch not protected' } },
    });
    const set = await admin('PUT', '/repos/owner/private/branches/trunk/protection', {
      required_status_checks: { strict: true, contexts: ['ci'] },
      enforce_admins: true,
      required_pull_request_reviews: { required_approving_review_count: 2, dismiss_stale_reviews: true },
      restrictions: null,
      allow_force_pushes: false,
      allow_deletions: false,
    });
    expect(set.status).toBe(200);
    const { data } = await get();
    expect(data).toMatchObject({
      required_status_checks: { strict: true, contexts: ['ci'], checks: [{ context: 'ci', app_id: null }] },
      enforce_admins: { enabled: true },
      required_pull_request_reviews: { required_approving_review_count: 2, dismiss_stale_reviews: true },
      allow_force_pushes: { enabled: false },
      allow_deletions: { enabled: false },
    });
    await expect(
      client(emulator, 'inst').rest.repos.getBranchProtection({
        owner: 'owner',
        repo: 'private',
        branch: 'trunk',
      }),
    ).rejects.toMatchObject({
      status: 403,
      response: { data: { message: 'Resource not accessible by integration' } },
    });
    expect(
      (await admin('PUT', '/repos/owner/private/branches/trunk/protection', { allow_deletions: 'yes' }))
        .status,
    ).toBe(400);
    expect((await admin('DELETE', '/repos/owner/private/branches/trunk/protection')).status).toBe(200);
    await expect(get()).rejects.toMatchObject({ status: 404 });
  });
});

describe('ruleset rules beyond the ledger set', () => {
  it('requires verified signatures and restricts creation on matching refs', async () => {
    const pat = client(emulator, 'own');
    const inst = client(emulator, 'inst');
    const { data: trunk } = await pat.rest.git.getRef({
      owner: 'owner',
      repo: 'private',
      ref: 'heads/trunk',
    });
    const { data: base } = await pat.rest.git.getCommit({
      owner: 'owner',
      repo: 'private',
      commit_sha: trunk.object.sha,
    });
    const { data: unsigned } = await pat.rest.git.createCommit({
      owner: 'owner',
      repo: 'private',
      message: 'u',
      tree: base.tree.sha,
      parents: [trunk.object.sha],
    });
    await expect(
      pat.rest.git.updateRef({ owner: 'owner', repo: 'private', ref: 'heads/trunk', sha: unsigned.sha }),
    ).rejects.toMatchObject({
      status: 422,
      response: { data: { message: expect.stringContaining('Commits must have verified signatures.') } },
    });
    const { data: signed } = await inst.rest.git.createCommit({
      owner: 'owner',
      repo: 'private',
      message: 's',
      tree: base.tree.sha,
      parents: [trunk.object.sha],
    });
    const { data: moved } = await inst.rest.git.updateRef({
      owner: 'owner',
      repo: 'private',
      ref: 'heads/trunk',
      sha: signed.sha,
    });
    expect(moved.object.sha).toBe(signed.sha);
    await expect(
      inst.rest.git.createRef({
        owner: 'owner',
        repo: 'private',
        ref: 'refs/heads/release/1',
        sha: signed.sha,
      }),
    ).rejects.toMatchObject({
      status: 422,
      response: { data: { message: expect.stringContaining('creations being restricted') } },
    });
    const created = await inst.rest.git.createRef({
      owner: 'owner',
      repo: 'private',
      ref: 'refs/heads/feature/1',
      sha: signed.sha,
    });
    expect(created.status).toBe(201);
  });

  it('requires changes through a pull request when the pull_request rule is active', async () => {
    await admin('POST', '/repos/owner/other/rulesets', {
      name: 'pr only',
      rules: [{ type: 'pull_request' }],
    });
    const inst = client(emulator, 'inst');
    const { data: main } = await inst.rest.git.getRef({ owner: 'owner', repo: 'other', ref: 'heads/main' });
    const direct = await graphqlRaw(emulator, 'inst', COMMIT_MUTATION, {
      input: {
        ...(commitInput(main.object.sha, 'c.txt', 'c').input as object),
        branch: { repositoryNameWithOwner: 'owner/other', branchName: 'main' },
      },
    });
    expect(direct.body.data).toEqual({ createCommitOnBranch: null });
    expect(String((direct.body.errors as { message: string }[])[0]?.message)).toContain(
      'Changes must be made through a pull request.',
    );
    await inst.rest.git.createRef({
      owner: 'owner',
      repo: 'other',
      ref: 'refs/heads/change',
      sha: main.object.sha,
    });
    await inst.graphql(COMMIT_MUTATION, {
      input: {
        ...(commitInput(main.object.sha, 'c.txt', 'c').input as object),
        branch: { repositoryNameWithOwner: 'owner/other', branchName: 'change' },
      },
    });
    const { data: pr } = await inst.rest.pulls.create({
      owner: 'owner',
      repo: 'other',
      title: 'c',
      head: 'change',
      base: 'main',
    });
    const { data: merged } = await inst.rest.pulls.merge({
      owner: 'owner',
      repo: 'other',
      pull_number: pr.number,
    });
    expect(merged.merged).toBe(true);
  });
});

describe('GraphQL surface', () => {
  it('answers viewer, rateLimit, defaultBranchRef and refs', async () => {
    const result = await client(emulator, 'inst').graphql<{
      viewer: { login: string };
      rateLimit: { limit: number; remaining: number; cost: number };
      repository: {
        defaultBranchRef: { name: string };
        refs: { totalCount: number; nodes: { name: string }[] };
      };
    }>(
      '{ viewer { login } rateLimit { limit remaining cost } repository(owner: "owner", name: "private") { defaultBranchRef { name } refs(refPrefix: "refs/heads/", first: 10) { totalCount nodes { name } } } }',
    );
    expect(result.viewer.login).toBe('ledger-app[bot]');
    expect(result.rateLimit).toMatchObject({ limit: 5000, cost: 1 });
    expect(result.repository.defaultBranchRef.name).toBe('trunk');
    expect(result.repository.refs.nodes.map((node) => node.name)).toEqual(['feature/1', 'trunk']);
  });

  it('fails loudly on a valid field it does not model instead of answering null', async () => {
    const response = await graphqlRaw(
      emulator,
      'inst',
      '{ repository(owner: "owner", name: "private") { stargazerCount } }',
    );
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        type: 'EMULATOR_UNSUPPORTED',
        message: expect.stringContaining('Repository.stargazerCount'),
      }),
    ]);
  });

  it('reports a GraphQL primary limit as HTTP 200 with RATE_LIMIT, which the client waits out', async () => {
    await admin('POST', '/faults', {
      match: { path: '/graphql' },
      fault: { type: 'primary-rate-limit', retry_after: 1 },
      times: 1,
    });
    const raw = await graphqlRaw(emulator, 'inst', '{ viewer { login } }');
    expect(raw.status).toBe(200);
    expect(raw.body.errors).toEqual([expect.objectContaining({ type: 'RATE_LIMIT' })]);
    await admin('POST', '/faults', {
      match: { path: '/graphql' },
      fault: { type: 'primary-rate-limit', retry_after: 1 },
      times: 1,
    });
    const result = await client(emulator, 'inst').graphql<{ viewer: { login: string } }>(
      '{ viewer { login } }',
    );
    expect(result.viewer.login).toBe('ledger-app[bot]');
  });
});
