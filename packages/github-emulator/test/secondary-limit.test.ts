/**
 * GitHub's secondary limit on content creation, modelled on the emulator's (frozen) clock: the 81st
 * content-creating request in a minute refused with 403 and `retry-after`, freed by advancing the clock,
 * the hourly 500, reads never counted, GraphQL mutations counted and queries not, one caller's windows
 * apart from another's, the switch (World option, admin API, off by default) and the request log.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { startEmulator } from '../src/server.js';
import type { Emulator, EmulatorOptions } from '../src/server.js';
import { World } from '../src/state.js';
import { Clock } from '../src/clock.js';
import { COMMIT_MUTATION, commitInput, graphqlRaw } from './support/helpers.js';

const START = Date.parse('2026-11-30T09:00:00Z');
const MESSAGE = 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** alice/repo, an app installation (two tokens of it), alice's and bob's PATs; the clock frozen. */
async function world(options: EmulatorOptions = { secondaryLimits: true }): Promise<Emulator> {
  emulator = await startEmulator({ seed: 1, startTime: START, ...options });
  const { admin } = emulator;
  admin.createUser({ login: 'alice' });
  admin.createUser({ login: 'bob' });
  admin.createApp({ slug: 'writ' });
  admin.createToken({ token: 'app-token', kind: 'installation', app: 'writ' });
  admin.createToken({ token: 'app-token-2', kind: 'installation', app: 'writ' });
  admin.createToken({ token: 'alice-pat', kind: 'pat', login: 'alice' });
  admin.createToken({ token: 'bob-pat', kind: 'pat', login: 'bob' });
  admin.createRepo({ owner: 'alice', name: 'repo', files: { 'README.md': 'hello\n' } });
  admin.setCollaborator('alice', 'repo', 'bob', 'write');
  admin.clock({ freeze: true });
  return emulator;
}

async function call(
  target: Emulator,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; retryAfter: string | null; body: Record<string, unknown> }> {
  const response = await fetch(`${target.url}${path}`, {
    method,
    headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

function createIssue(target: Emulator, token: string, title: string) {
  return call(target, token, 'POST', '/repos/alice/repo/issues', { title });
}

async function createIssues(target: Emulator, token: string, count: number, prefix: string): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    const answer = await createIssue(target, token, `${prefix} ${index}`);
    expect(answer.status).toBe(201);
  }
}

function issueCount(target: Emulator): number {
  return target.world.repo('alice', 'repo')?.issues.size ?? 0;
}

describe('the secondary limit on content creation (80 a minute, 500 an hour)', () => {
  it('refuses the 81st content-creating request in a minute with 403, GitHub’s message and retry-after; nothing applied', async () => {
    const target = await world();
    await createIssues(target, 'app-token', 80, 'within');
    target.admin.clock({ advance_ms: 20_000 });
    const refused = await createIssue(target, 'app-token', 'the 81st');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      message: MESSAGE,
      documentation_url:
        'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
    });
    expect(refused.body.message).toMatch(/\bsecondary rate\b/i);
    // The first of the 80 leaves the window 60 s after it was admitted: 40 s from now.
    expect(refused.retryAfter).toBe('40');
    expect(issueCount(target)).toBe(80);
    const log = target.admin.requests();
    const last = log[log.length - 1];
    expect(last).toMatchObject({
      method: 'POST',
      status: 403,
      contentCreating: true,
      secondaryLimited: true,
    });
    expect(log.filter((entry) => entry.secondaryLimited)).toHaveLength(1);
    expect(log.filter((entry) => entry.contentCreating && !entry.secondaryLimited)).toHaveLength(80);
  });

  it('frees the caller once the emulator clock moves past the window, and a refusal is not counted', async () => {
    const target = await world();
    await createIssues(target, 'app-token', 80, 'first minute');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await createIssue(target, 'app-token', 'refused')).status).toBe(403);
    }
    target.admin.clock({ advance_ms: 59_999 });
    expect((await createIssue(target, 'app-token', 'still refused')).retryAfter).toBe('1');
    target.admin.clock({ advance_ms: 1 });
    // The five refusals did not count: a whole new minute's 80 fit.
    await createIssues(target, 'app-token', 80, 'second minute');
    expect(issueCount(target)).toBe(160);
  });

  it('refuses the 501st in an hour until the oldest leaves it, with retry-after in whole seconds', async () => {
    const target = await world();
    for (let minute = 0; minute < 7; minute += 1) {
      await createIssues(target, 'app-token', minute < 6 ? 80 : 20, `minute ${minute}`);
      target.admin.clock({ advance_ms: 60_000 });
    }
    expect(issueCount(target)).toBe(500);
    const refused = await createIssue(target, 'app-token', 'the 501st');
    expect(refused.status).toBe(403);
    // Seven minutes have passed since the first of the hour's 500: 53 minutes to go.
    expect(refused.retryAfter).toBe(String(53 * 60));
    target.admin.clock({ advance_ms: 53 * 60_000 });
    expect((await createIssue(target, 'app-token', 'in the next hour')).status).toBe(201);
  });

  it('never counts reads', async () => {
    const target = await world({ secondaryLimits: { perMinute: 2, perHour: 10 } });
    for (let index = 0; index < 20; index += 1) {
      expect((await call(target, 'app-token', 'GET', '/repos/alice/repo/issues')).status).toBe(200);
      expect((await graphqlRaw(target, 'app-token', 'query { viewer { login } }')).status).toBe(200);
    }
    await createIssues(target, 'app-token', 2, 'after reads');
    expect((await createIssue(target, 'app-token', 'third')).status).toBe(403);
    // A read still passes while the caller's writes are refused.
    expect((await call(target, 'app-token', 'GET', '/repos/alice/repo')).status).toBe(200);
  });

  it('counts a GraphQL mutation and refuses it with 403; a query is neither counted nor refused', async () => {
    const target = await world({ secondaryLimits: { perMinute: 2, perHour: 10 } });
    const head = target.world.repo('alice', 'repo')?.refs.get('refs/heads/main') ?? '';
    const first = await graphqlRaw(target, 'app-token', COMMIT_MUTATION, commitInput(head, 'a.txt', 'a'));
    expect(first.status).toBe(200);
    await createIssues(target, 'app-token', 1, 'rest and graphql share the window');
    const next = target.world.repo('alice', 'repo')?.refs.get('refs/heads/main') ?? '';
    const refused = await graphqlRaw(target, 'app-token', COMMIT_MUTATION, commitInput(next, 'b.txt', 'b'));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ message: MESSAGE });
    expect(target.world.repo('alice', 'repo')?.refs.get('refs/heads/main')).toBe(next);
    expect((await graphqlRaw(target, 'app-token', 'query { viewer { login } }')).status).toBe(200);
    const log = target.admin.requests();
    expect(log.filter((entry) => entry.path === '/graphql').map((entry) => entry.contentCreating)).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('keeps each caller’s windows apart: a user, another user, an installation (its tokens together)', async () => {
    const target = await world({ secondaryLimits: { perMinute: 2, perHour: 10 } });
    await createIssues(target, 'alice-pat', 2, 'alice');
    expect((await createIssue(target, 'alice-pat', 'alice 3')).status).toBe(403);
    await createIssues(target, 'bob-pat', 2, 'bob');
    await createIssues(target, 'app-token', 1, 'app');
    await createIssues(target, 'app-token-2', 1, 'app, another token');
    expect((await createIssue(target, 'app-token', 'app 3')).status).toBe(403);
    expect((await createIssue(target, 'app-token-2', 'app 3')).status).toBe(403);
  });

  it('is off by default: a burst of writes is never refused', async () => {
    const target = await world({});
    await createIssues(target, 'app-token', 120, 'burst');
    expect(target.admin.requests().some((entry) => entry.secondaryLimited)).toBe(false);
    expect(target.world.secondaryLimits).toBeNull();
    expect(new World(1, new Clock(START)).secondaryLimits).toBeNull();
  });

  it('is switched by the admin API (GitHub’s figures or a test’s own), and reset comes back to the option', async () => {
    const target = await world({});
    const set = async (value: unknown) =>
      (await (
        await fetch(`${target.adminUrl}/settings`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ secondary_limits: value }),
        })
      ).json()) as { secondary_limits: unknown; message?: string };
    expect((await set(true)).secondary_limits).toEqual({ perMinute: 80, perHour: 500 });
    expect((await set({ perMinute: 1 })).secondary_limits).toEqual({ perMinute: 1, perHour: 500 });
    await createIssues(target, 'app-token', 1, 'one');
    expect((await createIssue(target, 'app-token', 'two')).status).toBe(403);
    expect((await set({ perMinute: 0 })).message).toMatch(/perMinute must be a positive integer/);
    expect((await set('yes')).message).toMatch(/secondary_limits must be/);
    expect((await set(false)).secondary_limits).toBeNull();
    expect((await createIssue(target, 'app-token', 'two')).status).toBe(201);
    target.admin.setSecondaryLimits({ perMinute: 1 });
    target.admin.reset();
    expect(target.world.secondaryLimits).toBeNull();
    const limited = new World(1, new Clock(START), { secondaryLimits: { perHour: 7 } });
    expect(limited.secondaryLimits).toEqual({ perMinute: 80, perHour: 7 });
    limited.secondaryLimits = null;
    limited.reset();
    expect(limited.secondaryLimits).toEqual({ perMinute: 80, perHour: 7 });
  });
});
