import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createGitHubClient, loopbackTimings } from '../../src/github/client.js';
import { WritError, httpStatus } from '../../src/errors.js';
import {
  CAS_WRITE,
  classifyRequest,
  isGraphqlQueryOnly,
  mayResend,
  secondaryLimitOf,
} from '../../src/github/write-retry.js';

interface Scripted {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A loopback server that answers each request with the next scripted response and logs it. */
let server: Server;
let baseUrl = '';
let script: Scripted[] = [];
let log: { method: string; url: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      log.push({ method: req.method ?? '', url: req.url ?? '' });
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
function client(options: { baseUrl?: string } = {}) {
  clientCount += 1;
  return createGitHubClient(`ghs_${'t'.repeat(36)}`, {
    baseUrl: options.baseUrl ?? baseUrl,
    ...loopbackTimings(2),
    throttleId: `write-retry-test-${clientCount}`,
  });
}

function run(responses: Scripted[]): void {
  script = [...responses];
  log = [];
}

const BAD_GATEWAY: Scripted = { status: 502, body: { message: 'Server Error' } };
const SECONDARY = {
  message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
  documentation_url:
    'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
};
const QUERY = 'query WritRead { viewer { login } }';
const MUTATION =
  'mutation WritWrite($input: AddCommentInput!) { addComment(input: $input) { clientMutationId } }';
const VIEWER: Scripted = { status: 200, body: { data: { viewer: { login: 'octocat' } } } };

describe('write-retry (the client sends a write once unless it is a CAS write)', () => {
  it('POST 502: one request, and the 502 reaches the caller', async () => {
    run([BAD_GATEWAY, { status: 201, body: { number: 7 } }]);
    await expect(client().rest.issues.create({ owner: 'o', repo: 'r', title: 't' })).rejects.toMatchObject({
      status: 502,
    });
    expect(log.map((r) => r.method)).toEqual(['POST']);
  });

  it.each(['PATCH', 'PUT', 'DELETE'])('%s 503: one request', async (method) => {
    run([
      { status: 503, body: { message: 'Unavailable' } },
      { status: 200, body: {} },
    ]);
    await expect(client().request(`${method} /repos/o/r/things/1`)).rejects.toMatchObject({ status: 503 });
    expect(log).toHaveLength(1);
  });

  it('a write whose connection drops without an answer: one request', async () => {
    const dropping = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        log.push({ method: req.method ?? '', url: req.url ?? '' });
        res.socket?.destroy();
      });
    });
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    try {
      log = [];
      const github = client({ baseUrl: `http://127.0.0.1:${(dropping.address() as AddressInfo).port}` });
      await expect(github.rest.issues.create({ owner: 'o', repo: 'r', title: 't' })).rejects.toBeDefined();
      expect(log.map((r) => r.method)).toEqual(['POST']);
    } finally {
      await new Promise((resolve) => dropping.close(resolve));
    }
  });

  it("a caller's own retries do not turn a write's retries back on", async () => {
    run([BAD_GATEWAY, { status: 201, body: { number: 7 } }]);
    await expect(
      client().rest.issues.create({ owner: 'o', repo: 'r', title: 't', request: { retries: 3 } }),
    ).rejects.toMatchObject({ status: 502 });
    expect(log).toHaveLength(1);
  });

  it('GET 502: retried, and the later success returned', async () => {
    run([BAD_GATEWAY, { status: 200, body: { full_name: 'o/r' } }]);
    const { data } = await client().rest.repos.get({ owner: 'o', repo: 'r' });
    expect(data.full_name).toBe('o/r');
    expect(log.map((r) => r.method)).toEqual(['GET', 'GET']);
  });

  it('GraphQL query 502: retried (a query is a read)', async () => {
    run([BAD_GATEWAY, VIEWER]);
    const { data } = await client().request('POST /graphql', { query: QUERY });
    expect(data).toEqual({ data: { viewer: { login: 'octocat' } } });
    expect(log).toHaveLength(2);
  });

  it('GraphQL shorthand query through octokit.graphql 502: retried', async () => {
    run([BAD_GATEWAY, VIEWER]);
    const result = await client().graphql<{ viewer: { login: string } }>('{ viewer { login } }');
    expect(result.viewer.login).toBe('octocat');
    expect(log).toHaveLength(2);
  });

  it('GraphQL mutation 502: one request', async () => {
    run([BAD_GATEWAY, { status: 200, body: { data: {} } }]);
    await expect(
      client().request('POST /graphql', { query: MUTATION, variables: { input: {} } }),
    ).rejects.toMatchObject({ status: 502 });
    expect(log).toHaveLength(1);
  });

  it('GraphQL mutation through octokit.graphql 502: one request', async () => {
    run([BAD_GATEWAY, { status: 200, body: { data: {} } }]);
    await expect(client().graphql(MUTATION, { input: {} })).rejects.toMatchObject({ status: 502 });
    expect(log).toHaveLength(1);
  });

  it('a GraphQL "Something went wrong" answer to a mutation (a retryable 500 to plugin-retry): one request', async () => {
    run([
      {
        status: 200,
        body: { data: null, errors: [{ message: 'Something went wrong while executing your query.' }] },
      },
      { status: 200, body: { data: {} } },
    ]);
    await expect(client().request('POST /graphql', { query: MUTATION })).rejects.toMatchObject({
      status: 500,
    });
    expect(log).toHaveLength(1);
  });

  it('protected CAS mutation 502: retried (its caller reads the outcome back)', async () => {
    run([BAD_GATEWAY, { status: 200, body: { data: { addComment: { clientMutationId: null } } } }]);
    const { data } = await client().request('POST /graphql', { query: MUTATION, request: CAS_WRITE });
    expect(data).toEqual({ data: { addComment: { clientMutationId: null } } });
    expect(log).toHaveLength(2);
  });

  it.each([
    ['a misspelt marker', { writ: 'CAS' }],
    ['another marker', { writ: 'protected' }],
    ['a marker of the wrong type', { writ: true }],
    ['a marker under another key', { cas: 'cas' }],
  ])('mis-marked (%s) mutation 502: one request', async (_what, marker) => {
    run([BAD_GATEWAY, { status: 200, body: { data: {} } }]);
    await expect(
      client().request('POST /graphql', { query: MUTATION, request: marker }),
    ).rejects.toMatchObject({ status: 502 });
    expect(log).toHaveLength(1);
  });

  it.each([403, 429])(
    'a write refused by a secondary rate limit (%i) is not sent again: it fails with secondary-rate-limit',
    async (status) => {
      run([
        { status, body: SECONDARY, headers: { 'retry-after': '17' } },
        { status: 201, body: { number: 7 } },
      ]);
      const error = await client()
        .rest.issues.create({ owner: 'o', repo: 'r', title: 't' })
        .then(
          () => null,
          (thrown: unknown) => thrown,
        );
      expect(error).toBeInstanceOf(WritError);
      expect(error).toMatchObject({
        code: 'secondary-rate-limit',
        details: { retryAfterSeconds: 17, status },
      });
      // Not GitHub's refusal of what was asked (so callers read back), but the status stays reachable.
      expect(httpStatus(error)).toBeUndefined();
      expect(httpStatus((error as WritError).cause)).toBe(status);
      expect((error as WritError).message).not.toMatch(/secondary rate/i);
      expect(log.map((r) => r.method)).toEqual(['POST']);
    },
  );

  it('a 403 with retry-after and no message is a secondary limit too; without either it is no limit', async () => {
    run([
      { status: 403, body: { message: 'Forbidden' }, headers: { 'retry-after': '5' } },
      { status: 201, body: { number: 7 } },
    ]);
    await expect(client().request('PATCH /repos/o/r/issues/1', { title: 't' })).rejects.toMatchObject({
      code: 'secondary-rate-limit',
      details: { retryAfterSeconds: 5 },
    });
    expect(log).toHaveLength(1);
    run([
      { status: 403, body: { message: 'Resource not accessible by integration' } },
      { status: 200, body: {} },
    ]);
    await expect(client().request('PATCH /repos/o/r/issues/1', { title: 't' })).rejects.toMatchObject({
      status: 403,
    });
    expect(log).toHaveLength(1);
  });

  it('a GraphQL mutation refused by a secondary limit (403, or 200 with the error) is not sent again', async () => {
    run([
      { status: 403, body: SECONDARY, headers: { 'retry-after': '3' } },
      { status: 200, body: { data: {} } },
    ]);
    await expect(client().request('POST /graphql', { query: MUTATION })).rejects.toMatchObject({
      code: 'secondary-rate-limit',
      details: { retryAfterSeconds: 3, status: 403 },
    });
    expect(log).toHaveLength(1);
    run([
      { status: 200, body: { data: null, errors: [{ message: SECONDARY.message }] } },
      { status: 200, body: { data: {} } },
    ]);
    await expect(client().graphql(MUTATION, { input: {} })).rejects.toMatchObject({
      code: 'secondary-rate-limit',
      details: { retryAfterSeconds: 60, status: 200 },
    });
    expect(log).toHaveLength(1);
  });

  it('a CAS write refused by a secondary limit is waited out and sent again (its caller reads back anyway)', async () => {
    run([
      { status: 403, body: SECONDARY, headers: { 'retry-after': '1' } },
      { status: 200, body: { data: { addComment: { clientMutationId: null } } } },
    ]);
    const { data } = await client().request('POST /graphql', { query: MUTATION, request: CAS_WRITE });
    expect(data).toEqual({ data: { addComment: { clientMutationId: null } } });
    expect(log).toHaveLength(2);
  });

  it.each([403, 429])(
    'a write refused by the primary rate limit (%i, x-ratelimit-remaining 0) is waited out and sent again: GitHub ran nothing',
    async (status) => {
      run([
        {
          status,
          body: { message: 'API rate limit exceeded for installation ID 1.' },
          headers: {
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(Math.floor(Date.now() / 1000)),
          },
        },
        { status: 201, body: { number: 7 } },
      ]);
      const { data } = await client().rest.issues.create({ owner: 'o', repo: 'r', title: 't' });
      expect(data.number).toBe(7);
      expect(log.map((r) => r.method)).toEqual(['POST', 'POST']);
    },
  );

  it('a GraphQL mutation answered only with RATE_LIMIT errors is waited out and sent again', async () => {
    run([
      {
        status: 200,
        body: { errors: [{ type: 'RATE_LIMIT', message: 'API rate limit already exceeded for user ID 1.' }] },
        headers: { 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000)) },
      },
      { status: 200, body: { data: { addComment: { clientMutationId: null } } } },
    ]);
    const { data } = await client().request('POST /graphql', { query: MUTATION });
    expect(data).toEqual({ data: { addComment: { clientMutationId: null } } });
    expect(log).toHaveLength(2);
  });

  it('a 5xx to a GraphQL mutation whose message claims a secondary rate limit is not sent again', async () => {
    run([
      { status: 502, body: SECONDARY, headers: { 'retry-after': '1' } },
      { status: 200, body: { data: {} } },
    ]);
    await expect(client().request('POST /graphql', { query: MUTATION })).rejects.toMatchObject({
      status: 502,
    });
    expect(log).toHaveLength(1);
  });

  it('a GraphQL query that hides a mutation (second operation, comment, string) is a write', async () => {
    for (const query of [
      `${QUERY}\nmutation Second { addComment(input: {}) { clientMutationId } }`,
      'query Q { viewer { login } } Mutation { x }',
    ]) {
      run([BAD_GATEWAY, VIEWER]);
      await expect(client().request('POST /graphql', { query })).rejects.toMatchObject({ status: 502 });
      expect(log).toHaveLength(1);
    }
  });
});

describe('classifyRequest', () => {
  it.each([
    [{ method: 'GET', url: '/repos/o/r' }, 'read'],
    [{ method: 'HEAD', url: '/repos/o/r' }, 'read'],
    [{ method: 'POST', url: '/repos/o/r/issues' }, 'write'],
    [{ method: 'post', url: '/repos/o/r/issues' }, 'write'],
    [{ method: 'PATCH', url: '/repos/o/r/issues/1', request: CAS_WRITE }, 'cas-write'],
    [{ method: 'DELETE', url: '/repos/o/r/issues/comments/1' }, 'write'],
    [{ method: 'PROPFIND', url: '/repos/o/r' }, 'write'],
    [{ url: '/repos/o/r' }, 'write'],
    [{ method: 'POST', url: '/graphql', query: QUERY }, 'read'],
    [{ method: 'POST', url: 'https://ghes.example/api/graphql', query: QUERY }, 'read'],
    [{ method: 'POST', url: '/graphql', query: MUTATION }, 'write'],
    [{ method: 'POST', url: '/graphql', query: MUTATION, request: CAS_WRITE }, 'cas-write'],
    [{ method: 'POST', url: '/graphql', query: MUTATION, request: { writ: 'cas ' } }, 'write'],
    [{ method: 'POST', url: '/graphql' }, 'write'],
    [{ method: 'POST', url: '/graphql', query: 42 }, 'write'],
    [{ method: 'POST', url: '/graphql', query: 'subscription S { x }' }, 'write'],
    [{ method: 'POST', url: '/markdown', query: QUERY }, 'write'],
    [{ method: 'GET', url: '/graphql', query: MUTATION }, 'read'],
  ])('%o is a %s', (options, kind) => {
    expect(classifyRequest(options)).toBe(kind);
  });

  it('reads a mutation keyword only outside comments and strings', () => {
    expect(isGraphqlQueryOnly('query Q { search(query: "mutation") { issueCount } }')).toBe(true);
    expect(isGraphqlQueryOnly('# mutation\nquery Q { viewer { login } }')).toBe(true);
    expect(isGraphqlQueryOnly('query Q { a: viewer { login } }\nmutation M { x }')).toBe(false);
    expect(isGraphqlQueryOnly('query Q { viewer { login } } "unterminated')).toBe(false);
    expect(isGraphqlQueryOnly('')).toBe(false);
    expect(isGraphqlQueryOnly('query Q { mutationField }')).toBe(true);
  });
});

describe('mayResend (asked by the throttling limit handlers)', () => {
  it('a read or a CAS write may always be sent again; a write not yet sent may be; nothing unknown may', () => {
    expect(mayResend({ method: 'GET', url: '/repos/o/r' })).toBe(true);
    expect(mayResend({ method: 'POST', url: '/graphql', query: MUTATION, request: CAS_WRITE })).toBe(true);
    expect(mayResend({ method: 'POST', url: '/repos/o/r/issues' })).toBe(true);
    expect(mayResend(null)).toBe(false);
    expect(mayResend('POST /repos/o/r/issues')).toBe(false);
  });

  it('a URL it cannot parse is not a GraphQL endpoint: the request is a write', () => {
    expect(classifyRequest({ method: 'POST', url: 'http://[::1/graphql', query: QUERY })).toBe('write');
  });
});

describe('secondaryLimitOf (what a secondary-limit answer asks)', () => {
  const NOW = Date.parse('2026-11-30T09:00:00Z');
  const refused = (status: number, message: string, headers: Record<string, string> = {}) => ({
    status,
    message,
    response: { status, headers, data: { message } },
  });

  it('waits retry-after seconds (at least one)', () => {
    expect(secondaryLimitOf(refused(403, SECONDARY.message, { 'retry-after': '42' }), NOW)).toEqual({
      status: 403,
      retryAfterSeconds: 42,
    });
    expect(secondaryLimitOf(refused(429, SECONDARY.message, { 'retry-after': '0' }), NOW)).toEqual({
      status: 429,
      retryAfterSeconds: 1,
    });
  });

  it('else until x-ratelimit-reset when none remain, else a minute', () => {
    const reset = String(NOW / 1000 + 90);
    expect(
      secondaryLimitOf(
        refused(403, SECONDARY.message, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }),
        NOW,
      ),
    ).toEqual({ status: 403, retryAfterSeconds: 90 });
    expect(
      secondaryLimitOf(
        refused(403, SECONDARY.message, { 'x-ratelimit-remaining': '12', 'x-ratelimit-reset': reset }),
        NOW,
      ),
    ).toEqual({ status: 403, retryAfterSeconds: 60 });
  });

  it('is no secondary limit: a 5xx, a permission 403, a primary limit, a GraphQL answer without the words', () => {
    expect(secondaryLimitOf(refused(502, SECONDARY.message, { 'retry-after': '1' }), NOW)).toBeNull();
    expect(secondaryLimitOf(refused(403, 'Resource not accessible by integration'), NOW)).toBeNull();
    expect(
      secondaryLimitOf(refused(403, 'API rate limit exceeded', { 'x-ratelimit-remaining': '0' }), NOW),
    ).toBeNull();
    expect(
      secondaryLimitOf({ status: 200, headers: {}, data: { errors: [{ message: 'Not found' }] } }, NOW),
    ).toBeNull();
    expect(secondaryLimitOf(new Error('no answer'), NOW)).toBeNull();
    expect(secondaryLimitOf(null, NOW)).toBeNull();
  });
});
