import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createGitHubClient, loopbackTimings } from '../../src/github/client.js';

interface Scripted {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A loopback server that answers each request with the next scripted response and logs it. */
let server: Server;
let baseUrl = '';
let script: Scripted[] = [];
let log: { method: string; url: string; auth: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      log.push({ method: req.method ?? '', url: req.url ?? '', auth: req.headers.authorization });
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
function client() {
  clientCount += 1;
  return createGitHubClient(`ghs_${'t'.repeat(36)}`, {
    baseUrl,
    ...loopbackTimings(5),
    throttleId: `client-test-${clientCount}`,
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
