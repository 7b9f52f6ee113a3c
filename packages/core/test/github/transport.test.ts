/**
 * The limits every request of Writ's client passes through (transport.ts, and client.ts's deadline),
 * against hostile answers from loopback servers, through the real client (Octokit, its plugins, the
 * toolkit's undici fetch): compression bombs (gzip, deflate, br) and a 1 GiB plain body, each streamed
 * by the server as the client reads it and never allocated whole, refused with bounded memory; a body
 * that drips, and a retry that would wait, ended by the deadline; redirects followed only under the
 * rules (no https → http, no credential to another origin, bounded). Each failure is a request with no
 * answer (status 500, no response) whose cause carries the code, so callers read back.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { constants, createBrotliCompress, createDeflate, createGzip } from 'node:zlib';
import { Agent, fetch as undiciFetch } from 'undici';
import { httpStatus } from '../../src/errors.js';
import { createGitHubClient, loopbackTimings } from '../../src/github/client.js';
import type { GitHubClientOptions } from '../../src/github/client.js';
import { explainRequestFailure, requestFailureOf } from '../../src/github/request-failure.js';
import type { Fetch } from '../../src/github/transport.js';
import { MAX_REDIRECTS } from '../../src/github/transport.js';

const TOKEN = `ghs_${'t'.repeat(36)}`;
const MiB = 1024 * 1024;
/** What a compression bomb grows to if it is read whole (a few MB of gzip, a few KB of br). */
const BOMB_BYTES = 4096 * MiB;
const PLAIN_BYTES = 1024 * MiB;
/** How much the process may grow while refusing one: several times the bound, far below the answers. */
const MEMORY_ALLOWANCE = 96 * MiB;

interface Seen {
  method: string;
  path: string;
  host: string;
  authorization: string | undefined;
  cookie: string | undefined;
  body: string;
}

/** A loopback server with named routes; it logs what each request carried. */
async function serve(
  routes: (req: IncomingMessage, res: ServerResponse, seen: Seen) => void,
  tls = false,
): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry: Seen = {
        method: req.method ?? '',
        path: req.url ?? '',
        host: req.headers.host ?? '',
        authorization: req.headers.authorization,
        cookie: req.headers.cookie,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(entry);
      routes(req, res, entry);
    });
  };
  const server: Server = tls
    ? createTlsServer(
        {
          cert: readFileSync(new URL('../support/tls/loopback-cert.pem', import.meta.url)),
          key: readFileSync(new URL('../support/tls/loopback-key.pem', import.meta.url)),
        },
        handler,
      )
    : createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`, seen };
}

/** What the hostile server produced, and the most the client process held meanwhile. */
const produced = { bytes: 0, peak: 0 };
function held(): number {
  const { heapUsed, arrayBuffers, external } = process.memoryUsage();
  return heapUsed + arrayBuffers + external;
}

/**
 * Writes `total` bytes of zeros (through `encoder` when there is one) as fast as the client reads
 * them, 1 MiB at a time from one buffer, and stops when the client goes: never allocated whole.
 */
function stream(res: ServerResponse, total: number, encoder?: NodeJS.ReadWriteStream): void {
  const zeros = Buffer.alloc(MiB);
  const sink: NodeJS.WritableStream = encoder ?? res;
  if (encoder !== undefined) encoder.pipe(res);
  let closed = false;
  res.on('close', () => {
    closed = true;
    (encoder as unknown as { destroy?: () => void } | undefined)?.destroy?.();
  });
  const pump = (): void => {
    while (!closed && produced.bytes < total) {
      produced.bytes += zeros.length;
      produced.peak = Math.max(produced.peak, held());
      if (!sink.write(zeros)) {
        sink.once('drain', pump);
        return;
      }
    }
    if (!closed) sink.end();
  };
  pump();
}

/** 127 strings of 64 KiB: 8,323,454 bytes of JSON, within 1 % of the bound, decoded. */
const JUST_UNDER = Array.from({ length: 127 }, () => 'x'.repeat(65536));

/** The most the process held while `run` ran, sampled as it runs (and as the hostile server writes). */
async function peakDuring<T>(run: () => Promise<T>): Promise<{ result: T; grown: number }> {
  const before = held();
  produced.bytes = 0;
  produced.peak = before;
  const sampler = setInterval(() => {
    produced.peak = Math.max(produced.peak, held());
  }, 1);
  try {
    const result = await run();
    produced.peak = Math.max(produced.peak, held());
    return { result, grown: produced.peak - before };
  } finally {
    clearInterval(sampler);
  }
}

let hostile: Awaited<ReturnType<typeof serve>>;
let other: Awaited<ReturnType<typeof serve>>;
let secure: Awaited<ReturnType<typeof serve>>;

function redirectRoute(req: IncomingMessage, res: ServerResponse, base: string): boolean {
  // /redirect/<status>/<absolute|relative>/<target path or full URL, encoded>
  const match = /^\/redirect\/(\d{3})\/(absolute|relative|to)\/(.+)$/.exec(req.url ?? '');
  if (match === null) return false;
  const [, status, form, rest] = match as unknown as [string, string, string, string];
  const target = decodeURIComponent(rest);
  const location = form === 'relative' ? target : form === 'absolute' ? `${base}${target}` : target;
  res.writeHead(Number(status), { location, 'content-type': 'text/plain' });
  res.end('moved');
  return true;
}

function echo(res: ServerResponse, seen: Seen): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(seen));
}

beforeAll(async () => {
  other = await serve((req, res, seen) => {
    if (!redirectRoute(req, res, '')) echo(res, seen);
  });
  hostile = await serve((req, res, seen) => {
    const path = req.url ?? '';
    if (redirectRoute(req, res, hostile.url)) return;
    if (path === '/loop') {
      res.writeHead(302, { location: '/loop' });
      res.end();
    } else if (path.startsWith('/bomb/')) {
      const coding = path.slice('/bomb/'.length);
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-encoding': coding });
      const encoder =
        coding === 'gzip'
          ? createGzip({ level: 9 })
          : coding === 'deflate'
            ? createDeflate({ level: 9 })
            : createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
      stream(res, BOMB_BYTES, encoder);
    } else if (path === '/plain/declared') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(PLAIN_BYTES) });
      stream(res, PLAIN_BYTES);
    } else if (path === '/plain/chunked') {
      res.writeHead(200, { 'content-type': 'application/json' });
      stream(res, PLAIN_BYTES);
    } else if (path === '/drip') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 500);
      res.on('close', () => clearInterval(timer));
    } else if (path === '/fail') {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"message":"bad gateway"}');
    } else if (path === '/just-under') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      const body = Buffer.from(JSON.stringify(JUST_UNDER));
      const gzip = createGzip();
      gzip.pipe(res);
      gzip.end(body);
    } else {
      echo(res, seen);
    }
  });
  secure = await serve((req, res, seen) => {
    if (!redirectRoute(req, res, secure.url)) echo(res, seen);
  }, true);
});

afterAll(async () => {
  for (const { server } of [hostile, other, secure]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

let clients = 0;
function client(options: GitHubClientOptions = {}) {
  clients += 1;
  return createGitHubClient(TOKEN, {
    baseUrl: hostile.url,
    ...loopbackTimings(5),
    throttleId: `transport-test-${clients}`,
    ...options,
  });
}

/** The code on the failure's cause chain, checked to be a request with no answer. */
async function failureCode(request: Promise<unknown>): Promise<string | null> {
  const error = await request.then(
    () => {
      throw new Error('the request succeeded');
    },
    (thrown: unknown) => thrown,
  );
  expect(httpStatus(error)).toBeUndefined();
  expect(error).toMatchObject({ status: 500, response: undefined });
  return requestFailureOf(error)?.transport ?? null;
}

describe('answer bodies are bounded while they stream', () => {
  it.each(['gzip', 'deflate', 'br'])(
    'refuses a %s bomb (4 GiB decoded) with bounded memory, hanging up long before its end',
    async (coding) => {
      const { result: code, grown } = await peakDuring(() =>
        failureCode(client({ retries: 0 }).request(`GET /bomb/${coding}`)),
      );
      expect(code).toBe('github-response-too-large');
      expect(grown).toBeLessThan(MEMORY_ALLOWANCE);
      expect(produced.bytes).toBeLessThan(BOMB_BYTES);
    },
  );

  it.each(['declared', 'chunked'])(
    'refuses a 1 GiB plain body (%s length) with bounded memory',
    async (form) => {
      const { result: code, grown } = await peakDuring(() =>
        failureCode(client({ retries: 0 }).request(`GET /plain/${form}`)),
      );
      expect(code).toBe('github-response-too-large');
      expect(grown).toBeLessThan(MEMORY_ALLOWANCE);
      expect(produced.bytes).toBeLessThan(PLAIN_BYTES / 8);
    },
  );

  it('accepts an answer just under the bound, decoded', async () => {
    const { data } = await client().request('GET /just-under');
    expect(data).toEqual(JUST_UNDER);
  });

  it('says what happened, with the code, in the explanation of the failure', async () => {
    const error = await client({ retries: 0, maxResponseBytes: 1024 })
      .request('GET /plain/chunked')
      .catch((thrown: unknown) => thrown);
    expect(explainRequestFailure(error, { apiUrl: hostile.url })).toMatch(
      /\(github-response-too-large\).*may or may not have happened/,
    );
  });
});

describe('the deadline of a request, its retries included', () => {
  it('ends a body that drips a byte every 500 ms', async () => {
    const code = await failureCode(client({ retries: 0, deadlineMs: 1200 }).request('GET /drip'));
    expect(code).toBe('github-request-deadline');
  });

  it('ends a request whose retry would wait past it, without waiting for the retry', async () => {
    const before = hostile.seen.length;
    // The retries would come 3 s, then 12 s after the first 502; the deadline fails the request
    // first (jest's own 5 s timeout would end the test otherwise).
    const code = await failureCode(
      client({ retries: 3, retryBaseMs: 3000, deadlineMs: 300 }).request('GET /fail'),
    );
    expect(code).toBe('github-request-deadline');
    expect(hostile.seen.slice(before).map((s) => s.path)).toEqual(['/fail']);
    // The retry plugin-retry scheduled for 3 s after the 502 is still pending (a timer that would keep
    // jest's worker alive after its last suite): this timer, set later for as long, fires after it, so
    // the retry has run by then, finding the signal aborted, and sent nothing.
    await sleep(3000);
    expect(hostile.seen.slice(before).map((s) => s.path)).toEqual(['/fail']);
  });

  it('leaves a request that ends in time alone', async () => {
    const { data } = await client({ deadlineMs: 5000 }).request('GET /fine');
    expect((data as Seen).path).toBe('/fine');
  });
});

/** Where a redirect took the request, and what arrived there. */
async function followed(path: string, options: GitHubClientOptions = {}, method = 'GET') {
  const { data } = await client({ retries: 0, ...options }).request(`${method} ${path}`, {
    headers: { cookie: 'session=abc' },
    ...(method === 'GET' ? {} : { payload: 'kept' }),
  });
  return data as Seen;
}

describe('redirects', () => {
  const statuses = [301, 302, 303, 307, 308];

  it.each(statuses.flatMap((status) => ['absolute', 'relative'].map((form) => [status, form] as const)))(
    'follows a %i with a %s Location within the origin, keeping the credentials',
    async (status, form) => {
      const seen = await followed(`/redirect/${status}/${form}/${encodeURIComponent('/landed')}`);
      expect(seen).toMatchObject({ path: '/landed', authorization: `token ${TOKEN}`, cookie: 'session=abc' });
    },
  );

  it.each(statuses)('a %i to another port or host loses the authorization and the cookie', async (status) => {
    const port = new URL(other.url).port;
    for (const target of [`${other.url}/landed`, `http://localhost:${new URL(hostile.url).port}/landed`]) {
      const seen = await followed(`/redirect/${status}/to/${encodeURIComponent(target)}`);
      expect(seen.path).toBe('/landed');
      expect(seen.authorization).toBeUndefined();
      expect(seen.cookie).toBeUndefined();
    }
    expect(port).not.toBe(new URL(hostile.url).port);
  });

  it.each([
    [301, 'GET', ''],
    [302, 'GET', ''],
    [303, 'GET', ''],
    [307, 'POST', '{"payload":"kept"}'],
    [308, 'POST', '{"payload":"kept"}'],
  ])('turns a POST redirected by a %i into a %s, as fetch does', async (status, method, body) => {
    const seen = await followed(`/redirect/${status}/relative/${encodeURIComponent('/landed')}`, {}, 'POST');
    expect(seen).toMatchObject({ path: '/landed', method, body });
  });

  it.each(statuses)('never follows a %i from https to http, nor to another scheme', async (status) => {
    // The toolkit's fetch with the loopback certificate trusted: the same undici, another dispatcher.
    const trusting: Fetch = ((url: string, init: Record<string, unknown>) =>
      undiciFetch(url, {
        ...init,
        dispatcher: new Agent({
          connect: { ca: readFileSync(new URL('../support/tls/loopback-cert.pem', import.meta.url)) },
        }),
      })) as unknown as Fetch;
    const before = other.seen.length;
    for (const target of [`${other.url}/leaked`, 'file:///etc/passwd', 'data:,x']) {
      const code = await failureCode(
        client({ baseUrl: secure.url, transport: trusting, retries: 0 }).request(
          `GET /redirect/${status}/to/${encodeURIComponent(target)}`,
        ),
      );
      expect(code).toBe('github-redirect-refused');
    }
    expect(other.seen.slice(before)).toEqual([]);
    // Within https it is followed.
    const { data } = await client({ baseUrl: secure.url, transport: trusting }).request(
      `GET /redirect/${status}/absolute/${encodeURIComponent('/landed')}`,
    );
    expect((data as Seen).authorization).toBe(`token ${TOKEN}`);
  });

  it('stops a redirect loop after a bounded number of hops', async () => {
    const before = hostile.seen.length;
    expect(await failureCode(client({ retries: 0 }).request('GET /loop'))).toBe('github-redirect-refused');
    expect(hostile.seen.length - before).toBe(MAX_REDIRECTS + 1);
  });

  it('answers a redirect itself where the request asks for manual handling', async () => {
    const error = await client({ retries: 0 })
      .request(`GET /redirect/302/relative/${encodeURIComponent('/landed')}`, {
        request: { redirect: 'manual' },
      })
      .then(
        (response) => response,
        (thrown: unknown) => thrown,
      );
    expect(error).toMatchObject({ status: 302 });
  });
});
