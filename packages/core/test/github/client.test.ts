import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { GitHubClientOptions } from '../../src/github/client.js';
import { DO_NOT_RETRY, createGitHubClient, loopbackTimings, pacerOf } from '../../src/github/client.js';

interface Scripted {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A loopback server that answers each request with the next scripted response and logs it. */
let server: Server;
let baseUrl = '';
let script: Scripted[] = [];
let log: { method: string; url: string; auth: string | undefined; agent?: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      log.push({
        method: req.method ?? '',
        url: req.url ?? '',
        auth: req.headers.authorization,
        agent: req.headers['user-agent'],
      });
      const next = script.shift() ?? { status: 500, body: { message: 'script exhausted' } };
      res.writeHead(next.status, { 'content-type': 'application/json; charset=utf-8', ...next.headers });
      res.end(JSON.stringify(next.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

let clientCount = 0;
function client(options: GitHubClientOptions = {}) {
  clientCount += 1;
  return createGitHubClient(`ghs_${'t'.repeat(36)}`, {
    baseUrl,
    ...loopbackTimings(5),
    throttleId: `client-test-${clientCount}`,
    ...options,
  });
}

function run(responses: Scripted[]): void {
  script = [...responses];
  log = [];
}

const SECONDARY = {
  message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
  documentation_url:
    'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
};

describe('createGitHubClient (the real @actions/github client with retry and throttling)', () => {
  it('installs both plugins', () => {
    const github = client() as unknown as { retry?: unknown };
    expect(typeof github.retry).toBe('object');
  });

  it('gives every client its pacer: on by default (GitHub’s figures), off with loopback timings', () => {
    const paced = pacerOf(createGitHubClient(`ghs_${'t'.repeat(36)}`, { baseUrl }));
    expect(paced).toMatchObject({ enabled: true, hourlyBudget: 480, minSpacingMs: 1000 });
    expect(pacerOf(client())?.enabled).toBe(false);
    expect(pacerOf({})).toBeUndefined();
  });

  it('retries a 502 on GET and returns the later success', async () => {
    run([
      { status: 502, body: { message: 'Server Error' } },
      { status: 200, body: { id: 1, full_name: 'o/r' } },
    ]);
    const { data } = await client().rest.repos.get({ owner: 'o', repo: 'r' });
    expect(data.full_name).toBe('o/r');
    expect(log.map((r) => r.method)).toEqual(['GET', 'GET']);
    expect(log[0]!.auth).toMatch(/^token ghs_/);
  });

  it.each([403, 429])(
    'waits out a secondary rate limit (%i with retry-after) and retries',
    async (status) => {
      run([
        { status, body: SECONDARY, headers: { 'retry-after': '1' } },
        { status: 200, body: { id: 1, full_name: 'o/r' } },
      ]);
      const { data } = await client().rest.repos.get({ owner: 'o', repo: 'r' });
      expect(data.full_name).toBe('o/r');
      expect(log).toHaveLength(2);
    },
  );

  it('does not retry a 422', async () => {
    run([{ status: 422, body: { message: 'Reference already exists', documentation_url: 'x' } }]);
    await expect(
      client().rest.git.createRef({ owner: 'o', repo: 'r', ref: 'refs/heads/x', sha: 'a'.repeat(40) }),
    ).rejects.toMatchObject({ status: 422 });
    expect(log).toHaveLength(1);
  });

  it('does not retry a GraphQL STALE_DATA error', async () => {
    run([
      {
        status: 200,
        body: {
          data: { createCommitOnBranch: null },
          errors: [
            {
              type: 'STALE_DATA',
              path: ['createCommitOnBranch'],
              message: `Expected branch to point to "${'a'.repeat(40)}" but it did not. Pull and try again.`,
            },
          ],
        },
      },
    ]);
    await expect(
      client().graphql('mutation { createCommitOnBranch(input: {}) { commit { oid } } }'),
    ).rejects.toMatchObject({
      errors: [expect.objectContaining({ type: 'STALE_DATA' })],
    });
    expect(log).toHaveLength(1);
  });

  it.each(['RATE_LIMITED', 'RATE_LIMIT'])(
    'waits out a GraphQL rate limit reported as type %s',
    async (type) => {
      const reset = String(Math.floor(Date.now() / 1000));
      run([
        {
          status: 200,
          body: {
            errors: [
              { type, code: 'graphql_rate_limit', message: 'API rate limit already exceeded for user ID 1.' },
            ],
          },
          headers: { 'x-ratelimit-reset': reset },
        },
        { status: 200, body: { data: { viewer: { login: 'octocat' } } } },
      ]);
      const result = await client().graphql<{ viewer: { login: string } }>('query { viewer { login } }');
      expect(result.viewer.login).toBe('octocat');
      expect(log).toHaveLength(2);
    },
  );

  it('sends a POST that answered 5xx once: a write whose outcome is unknown is read back, not retried', async () => {
    run([
      { status: 502, body: { message: 'Server Error' } },
      { status: 201, body: { id: 7, number: 7 } },
    ]);
    await expect(client().rest.issues.create({ owner: 'o', repo: 'r', title: 't' })).rejects.toMatchObject({
      status: 502,
    });
    expect(log.map((r) => r.method)).toEqual(['POST']);
  });

  it('gives up on a persistent 5xx after the bounded retries', async () => {
    run(Array.from({ length: 4 }, () => ({ status: 503, body: { message: 'Unavailable' } })));
    await expect(client().rest.repos.get({ owner: 'o', repo: 'r' })).rejects.toMatchObject({ status: 503 });
    expect(log).toHaveLength(4);
  });
});

describe("the client's retry rule", () => {
  it('leaves client errors and 429 to their callers and to throttling: exactly these statuses', () => {
    expect(DO_NOT_RETRY).toEqual([400, 401, 403, 404, 409, 410, 422, 429, 451]);
  });

  it.each([400, 401, 403, 404, 409, 410, 451])('sends a GET answered %i once', async (status) => {
    run([
      { status, body: { message: 'refused', documentation_url: 'x' } },
      { status: 200, body: { id: 1, full_name: 'o/r' } },
    ]);
    await expect(client().rest.repos.get({ owner: 'o', repo: 'r' })).rejects.toMatchObject({ status });
    expect(log).toHaveLength(1);
  });

  it.each([500, 502, 503, 504])('retries a GET answered %i', async (status) => {
    run([
      { status, body: { message: 'Server Error' } },
      { status: 200, body: { id: 1, full_name: 'o/r' } },
    ]);
    expect((await client().rest.repos.get({ owner: 'o', repo: 'r' })).data.full_name).toBe('o/r');
    expect(log).toHaveLength(2);
  });

  it('retries as many times as `retries` says (3 by default), then gives up', async () => {
    run(Array.from({ length: 6 }, () => ({ status: 503, body: { message: 'Unavailable' } })));
    await expect(client({ retries: 1 }).rest.repos.get({ owner: 'o', repo: 'r' })).rejects.toMatchObject({
      status: 503,
    });
    expect(log).toHaveLength(2);
    run(Array.from({ length: 6 }, () => ({ status: 503, body: { message: 'Unavailable' } })));
    await expect(client({ retries: 0 }).rest.repos.get({ owner: 'o', repo: 'r' })).rejects.toMatchObject({
      status: 503,
    });
    expect(log).toHaveLength(1);
  });

  it('waits out a rate limit at most `rateLimitRetries` times (2 by default)', async () => {
    const limited = { status: 403, body: SECONDARY, headers: { 'retry-after': '1' } };
    run([limited, limited, limited, { status: 200, body: { id: 1, full_name: 'o/r' } }]);
    await expect(client().rest.repos.get({ owner: 'o', repo: 'r' })).rejects.toMatchObject({ status: 403 });
    expect(log).toHaveLength(3);
    run([limited, limited, { status: 200, body: { id: 1, full_name: 'o/r' } }]);
    await expect(
      client({ rateLimitRetries: 1 }).rest.repos.get({ owner: 'o', repo: 'r' }),
    ).rejects.toMatchObject({
      status: 403,
    });
    expect(log).toHaveLength(2);
  });

  it('gives up at once on a rate limit longer than `maxRateLimitWaitSeconds` (300 by default)', async () => {
    run([
      { status: 403, body: SECONDARY, headers: { 'retry-after': '301' } },
      { status: 200, body: { id: 1, full_name: 'o/r' } },
    ]);
    await expect(client().rest.repos.get({ owner: 'o', repo: 'r' })).rejects.toMatchObject({ status: 403 });
    expect(log).toHaveLength(1);
    run([
      { status: 403, body: SECONDARY, headers: { 'retry-after': '2' } },
      { status: 200, body: { id: 1, full_name: 'o/r' } },
    ]);
    await expect(
      client({ maxRateLimitWaitSeconds: 1 }).rest.repos.get({ owner: 'o', repo: 'r' }),
    ).rejects.toMatchObject({ status: 403 });
    expect(log).toHaveLength(1);
  });

  it('says who it is: `writ` unless told otherwise', async () => {
    run([{ status: 200, body: { id: 1, full_name: 'o/r' } }]);
    await client().rest.repos.get({ owner: 'o', repo: 'r' });
    expect(log[0]?.agent).toMatch(/^writ /);
    run([{ status: 200, body: { id: 1, full_name: 'o/r' } }]);
    await client({ userAgent: 'writ-probe' }).rest.repos.get({ owner: 'o', repo: 'r' });
    expect(log[0]?.agent).toMatch(/^writ-probe /);
  });
});
