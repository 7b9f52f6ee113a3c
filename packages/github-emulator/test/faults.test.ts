/**
 * Injected faults seen through the real client with its retry and throttling plugins (5xx, dropped
 * connections, apply-then-drop, secondary and primary limits, latency, seeded probability), and
 * pagination, rate-limit windows and the request log.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { CAS_WRITE } from '@writ/core/github/write-retry.js';
import type { World } from './support/helpers.js';
import { client, COMMIT_MUTATION, commitInput, expectConformance, setup } from './support/helpers.js';

let world: World;
beforeAll(async () => {
  world = await setup();
});
afterAll(async () => {
  await world.emulator.close();
  expectConformance();
});
beforeEach(() => {
  world.emulator.admin.clearFaults();
});

const repo = { owner: 'alice', repo: 'repo' };

async function issueTitles(): Promise<string[]> {
  const { data } = await client(world.emulator, 'alice-pat').rest.issues.listForRepo({
    ...repo,
    state: 'all',
    per_page: 100,
  });
  return data.map((entry) => entry.title);
}

describe('faults with the real client (retry + throttling installed)', () => {
  // Writ's client sends a mutative request once (core/src/github/write-retry.ts): each fault's outcome
  // reaches the caller, which reads back before anything is written again.
  it('answers a 502 before applying: nothing is written and the write is not resent', async () => {
    world.emulator.admin.addFault({
      match: { method: 'POST', path: '/repos/*/*/issues' },
      fault: { type: 'status', status: 502 },
      times: 1,
    });
    const seqBefore = world.emulator.world.requestSeq;
    await expect(
      client(world.emulator, 'app-token').rest.issues.create({ ...repo, title: 'not after 502' }),
    ).rejects.toMatchObject({ status: 502 });
    expect((await issueTitles()).filter((title) => title === 'not after 502')).toHaveLength(0);
    const posts = world.emulator.admin
      .requests()
      .filter((entry) => entry.seq > seqBefore && entry.method === 'POST');
    expect(posts.map((entry) => entry.status)).toEqual([502]);
  });

  it('drops a connection before applying: nothing is written', async () => {
    world.emulator.admin.addFault({
      match: { method: 'POST', path: '/repos/*/*/issues' },
      fault: { type: 'drop-before-apply' },
      times: 1,
    });
    await expect(
      client(world.emulator, 'app-token').rest.issues.create({ ...repo, title: 'dropped first' }),
    ).rejects.toThrow();
    expect((await issueTitles()).filter((title) => title === 'dropped first')).toHaveLength(0);
  });

  it('applies then drops: the write landed though the caller saw no answer (only a read-back can tell)', async () => {
    world.emulator.admin.addFault({
      match: { method: 'POST', path: '/repos/*/*/issues' },
      fault: { type: 'apply-then-drop' },
      times: 1,
    });
    await expect(
      client(world.emulator, 'app-token').rest.issues.create({ ...repo, title: 'applied then dropped' }),
    ).rejects.toThrow();
    expect((await issueTitles()).filter((title) => title === 'applied then dropped')).toHaveLength(1);
  });

  it('makes apply-then-drop on createCommitOnBranch followed by the retry end in STALE_DATA while the first attempt landed', async () => {
    const app = client(world.emulator, 'app-token');
    const { data: main } = await app.rest.git.getRef({ ...repo, ref: 'heads/main' });
    world.emulator.admin.addFault({
      match: { operation: 'createCommitOnBranch' },
      fault: { type: 'apply-then-drop' },
      times: 1,
    });
    await expect(
      // A compare-and-set commit is the one write the client resends (CAS_WRITE): its outcome is read back.
      app.graphql(COMMIT_MUTATION, {
        ...commitInput(main.object.sha, 'ledger.json', '{"n":1}'),
        request: CAS_WRITE,
      }),
    ).rejects.toMatchObject({
      name: 'GraphqlResponseError',
      errors: [expect.objectContaining({ type: 'STALE_DATA' })],
    });
    const { data: after } = await app.rest.git.getRef({ ...repo, ref: 'heads/main' });
    expect(after.object.sha).not.toBe(main.object.sha);
    const { data: commit } = await app.rest.git.getCommit({ ...repo, commit_sha: after.object.sha });
    expect(commit.parents.map((parent) => parent.sha)).toEqual([main.object.sha]);
    const { data: file } = await app.rest.repos.getContent({ ...repo, path: 'ledger.json' });
    expect(Buffer.from((file as { content: string }).content, 'base64').toString()).toBe('{"n":1}');
    const log = world.emulator.admin
      .requests()
      .filter((entry) => entry.mutations.includes('createCommitOnBranch'));
    expect(log.slice(-2).map((entry) => entry.status)).toEqual(['dropped', 200]);
  });

  it.each([403, 429])('waits out a %i secondary rate limit (retry-after) and succeeds', async (status) => {
    world.emulator.admin.addFault({
      match: { path: '/repos/*/*' },
      fault: { type: 'secondary-rate-limit', status, retry_after: 1 },
      times: 1,
    });
    const seqBefore = world.emulator.world.requestSeq;
    const { data } = await client(world.emulator, 'app-token').rest.repos.get({ ...repo });
    expect(data.name).toBe('repo');
    const entries = world.emulator.admin.requests().filter((entry) => entry.seq > seqBefore);
    expect(entries.map((entry) => entry.status)).toEqual([status, 200]);
  });

  it('answers a secondary limit with retry-after and a message the throttling plugin recognises', async () => {
    world.emulator.admin.addFault({
      match: { method: 'GET' },
      fault: { type: 'secondary-rate-limit', status: 429, retry_after: 7 },
      times: 1,
    });
    const response = await fetch(`${world.emulator.url}/repos/alice/repo`, {
      headers: { authorization: 'token app-token' },
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(((await response.json()) as { message: string }).message).toMatch(/\bsecondary rate\b/i);
  });

  it('reports primary-limit exhaustion with x-ratelimit-remaining 0, which the client waits out', async () => {
    world.emulator.admin.addFault({
      match: { method: 'GET' },
      fault: { type: 'primary-rate-limit', status: 403, retry_after: 1 },
      times: 1,
    });
    const raw = await fetch(`${world.emulator.url}/repos/alice/repo`, {
      headers: { authorization: 'token app-token' },
    });
    expect(raw.status).toBe(403);
    expect(raw.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(((await raw.json()) as { message: string }).message).toMatch(
      /^API rate limit exceeded for installation ID \d+\.$/,
    );
    world.emulator.admin.addFault({
      match: { method: 'GET' },
      fault: { type: 'primary-rate-limit', status: 403, retry_after: 1 },
      times: 1,
    });
    const { data } = await client(world.emulator, 'app-token').rest.repos.get({ ...repo });
    expect(data.name).toBe('repo');
  });

  it('adds latency without changing the answer, and logs the fault', async () => {
    world.emulator.admin.addFault({
      match: { method: 'GET', path: '/repos/*/*' },
      fault: { type: 'latency', ms: 30 },
      times: 1,
    });
    const { data } = await client(world.emulator, 'app-token').rest.repos.get({ ...repo });
    expect(data.name).toBe('repo');
    expect(world.emulator.admin.requests().at(-1)).toMatchObject({
      fault: 'latency',
      status: 200,
      actor: 'writ-ledger[bot]',
    });
  });

  it('fires a probabilistic fault reproducibly for a given seed', async () => {
    const pattern = async (): Promise<number[]> => {
      const other = await setup(42);
      try {
        other.emulator.admin.addFault({
          match: { path: '/rate_limit' },
          fault: { type: 'status', status: 503 },
          probability: 0.5,
        });
        const statuses: number[] = [];
        for (let index = 0; index < 20; index++) {
          statuses.push(
            (
              await fetch(`${other.emulator.url}/rate_limit`, {
                headers: { authorization: 'token app-token' },
              })
            ).status,
          );
        }
        return statuses;
      } finally {
        await other.emulator.close();
      }
    };
    const first = await pattern();
    expect(first).toEqual(await pattern());
    expect(first).toContain(503);
    expect(first).toContain(200);
  });
});

describe('pagination, rate limit and clock', () => {
  it('walks every page through absolute Link URLs (default 30, max 100)', async () => {
    const app = client(world.emulator, 'app-token');
    const before = (await issueTitles()).length;
    for (let index = 0; index < 75 - before; index++)
      await app.rest.issues.create({ ...repo, title: `bulk ${index}` });
    const walked = await app.paginate(app.rest.issues.listForRepo, { ...repo, state: 'all', per_page: 10 });
    expect(walked).toHaveLength(75);
    expect(new Set(walked.map((entry) => entry.number)).size).toBe(75);
    const first = await fetch(`${world.emulator.url}/repos/alice/repo/issues?state=all`, {
      headers: { authorization: 'token app-token' },
    });
    expect(((await first.json()) as unknown[]).length).toBe(30);
    const link = first.headers.get('link') ?? '';
    // GitHub links a repository's lists by its ID (the form that survives a rename).
    const id = world.emulator.world.repo('alice', 'repo')?.id ?? 0;
    expect(link).toContain(
      `<${world.emulator.url}/repositories/${id}/issues?state=all&per_page=30&page=2>; rel="next"`,
    );
    expect(link).toContain('page=3>; rel="last"');
    const capped = await fetch(`${world.emulator.url}/repos/alice/repo/issues?state=all&per_page=500`, {
      headers: { authorization: 'token app-token' },
    });
    expect(((await capped.json()) as unknown[]).length).toBe(75);
    expect(capped.headers.get('link')).toBeNull();
  });

  it('counts requests in the rate limit and resets the window when the clock passes it', async () => {
    const app = client(world.emulator, 'gh-token');
    const { data: first } = await app.rest.rateLimit.get();
    expect(first.resources.core.limit).toBe(1000);
    await app.rest.repos.get({ ...repo });
    const { data: second } = await app.rest.rateLimit.get();
    expect(second.resources.core.used).toBeGreaterThan(first.resources.core.used);
    world.emulator.admin.clock({ advance_ms: 3_600_000 });
    const { data: third } = await app.rest.rateLimit.get();
    expect(third.resources.core.used).toBeLessThan(second.resources.core.used);
    expect(third.resources.core.reset).toBeGreaterThan(second.resources.core.reset);
  });

  it('records the request log with operation and mutation names', async () => {
    const app = client(world.emulator, 'app-token');
    await app.graphql(
      'query Head { repository(owner: "alice", name: "repo") { defaultBranchRef { name } } }',
    );
    const entry = world.emulator.admin.requests().at(-1);
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/graphql',
      operation: 'Head',
      mutations: [],
      status: 200,
      actor: 'writ-ledger[bot]',
    });
    expect(typeof entry?.timestamp).toBe('string');
  });
});
