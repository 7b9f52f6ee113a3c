/**
 * The platform's HTTP client behind the part of `fetch` Octokit calls (wire.ts), against loopback
 * servers that answer as a test scripts them: the request as sent, the answer as read, redirects as
 * fetch follows them, and every failure with no answer as fetch reports it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import { Agent as HttpsAgent, createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { proxyAgents } from '../../src/github/transport.js';
import { WireHeaders, wireFetch } from '../../src/github/wire.js';
import { startProxy } from '../support/proxy.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A loopback server answering by path; every request it took is in `seen`. */
async function serve(
  routes: Record<string, Handler>,
): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
      if (route === undefined) {
        res.writeHead(404).end();
        return;
      }
      route(req, res, body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  servers.push({ server, sockets });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const servers: { server: Server; sockets: Set<Socket> }[] = [];
const fetch = wireFetch();
let main: Awaited<ReturnType<typeof serve>>;
let other: Awaited<ReturnType<typeof serve>>;

beforeAll(async () => {
  other = await serve({
    '/landed': (req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('elsewhere'),
  });
  main = await serve({
    '/json': (_req, res) => res.writeHead(201, 'Made', { 'content-type': 'application/json' }).end('{"a":1}'),
    '/echo': (req, res, body) =>
      res
        .writeHead(200, [
          ['content-type', 'application/json'],
          ['x-many', 'one'],
          ['X-Many', 'two'],
          ['Link', '<https://x/?page=2>; rel="next"'],
        ])
        .end(JSON.stringify({ method: req.method, body })),
    '/bom': (_req, res) => res.writeHead(200).end(Buffer.from('\uFEFFtext', 'utf8')),
    '/gzip': (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('zipped')),
    '/br': (_req, res) => res.writeHead(200, { 'content-encoding': 'br' }).end(brotliCompressSync('brotli')),
    '/deflate': (_req, res) =>
      res.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateSync('wrapped')),
    '/raw-deflate': (_req, res) =>
      res.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateRawSync('raw')),
    '/two-codings': (_req, res) =>
      res.writeHead(200, { 'content-encoding': 'deflate, gzip' }).end(gzipSync(deflateSync('twice'))),
    '/unknown-coding': (_req, res) => res.writeHead(200, { 'content-encoding': 'zstd' }).end('as sent'),
    '/bad-gzip': (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end('not gzip at all'),
    '/to-json': (_req, res) => res.writeHead(302, { location: '/json' }).end('moved'),
    '/see-other': (_req, res) => res.writeHead(303, { location: '/echo' }).end(),
    '/moved': (_req, res) => res.writeHead(301, { location: '/echo' }).end(),
    '/temporary': (_req, res) => res.writeHead(307, { location: '/echo' }).end(),
    '/permanent': (_req, res) => res.writeHead(308, { location: '/echo#fragment' }).end(),
    '/away': (_req, res) => res.writeHead(302, { location: `${other.url}/landed` }).end(),
    '/loop': (_req, res) => res.writeHead(302, { location: '/loop' }).end(),
    '/to-file': (_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end(),
    '/not-modified': (_req, res) => res.writeHead(304, { etag: '"e"' }).end(),
    '/cut': (_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('partial');
      setTimeout(() => res.socket?.destroy(), 10);
    },
    '/reset': (req) => req.socket.destroy(),
    '/silent': () => undefined,
    '/slow': (_req, res) => setTimeout(() => res.writeHead(200).end('late'), 200),
  });
});

afterAll(async () => {
  for (const { server, sockets } of servers) {
    for (const socket of sockets) socket.destroy();
    await new Promise((done) => server.close(done));
  }
});

/** What a fetch rejected with. */
async function failure(promise: Promise<unknown>): Promise<Error & { cause?: Error & { code?: string } }> {
  try {
    await promise;
  } catch (error: unknown) {
    return error as Error & { cause?: Error & { code?: string } };
  }
  throw new Error('the fetch did not fail');
}

describe('a request and its answer', () => {
  it('sends the method, headers and body as given, with the body’s length and the codings it reads', async () => {
    const response = await fetch(`${main.url}/echo?x=1`, {
      method: 'post',
      headers: { Authorization: 'token t', 'Content-Type': 'application/json; charset=utf-8' },
      body: '{"é":1}',
    });
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.url).toBe(`${main.url}/echo?x=1`);
    expect(response.redirected).toBe(false);
    expect(await response.json()).toEqual({ method: 'POST', body: '{"é":1}' });
    const sent = main.seen.at(-1);
    expect(sent?.url).toBe('/echo?x=1');
    expect(sent?.headers).toMatchObject({
      authorization: 'token t',
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength('{"é":1}')),
      'accept-encoding': 'gzip, deflate, br',
    });
  });

  it('keeps an accept-encoding the caller set, and sends bytes as bytes', async () => {
    await fetch(`${main.url}/echo`, {
      method: 'PUT',
      headers: { 'accept-encoding': 'identity' },
      body: new Uint8Array([104, 105]),
    });
    expect(main.seen.at(-1)).toMatchObject({ method: 'PUT', body: 'hi' });
    expect(main.seen.at(-1)?.headers['accept-encoding']).toBe('identity');
    await fetch(`${main.url}/echo`, { method: 'PATCH', body: new TextEncoder().encode('ab').buffer });
    expect(main.seen.at(-1)).toMatchObject({ method: 'PATCH', body: 'ab' });
  });

  it('reads the headers as fetch does: lower-case, in name order, repeated values joined', async () => {
    const response = await fetch(`${main.url}/echo`);
    const names = [...response.headers].map(([name]) => name);
    expect(names).toEqual([...names].sort());
    expect(response.headers.get('X-MANY')).toBe('one, two');
    expect(response.headers.has('link')).toBe(true);
    expect(response.headers.get('absent')).toBeNull();
    const visited: string[] = [];
    response.headers.forEach((value, name) => visited.push(`${name}=${value}`));
    expect(visited).toContain('x-many=one, two');
    expect(Object.fromEntries(new WireHeaders(['A', '1', 'a', '2']))).toEqual({ a: '1, 2' });
  });

  it('answers an error status as an answer, with its status text', async () => {
    const response = await fetch(`${main.url}/nowhere`);
    expect(response.status).toBe(404);
    expect(response.ok).toBe(false);
    expect(response.statusText).toBe('Not Found');
    expect(await response.text()).toBe('');
    expect((await fetch(`${main.url}/json`)).statusText).toBe('Made');
    const notModified = await fetch(`${main.url}/not-modified`);
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('etag')).toBe('"e"');
  });

  it('lets the body be read once, as text, JSON or bytes', async () => {
    const response = await fetch(`${main.url}/json`);
    expect(response.bodyUsed).toBe(false);
    expect(new TextDecoder().decode(await response.arrayBuffer())).toBe('{"a":1}');
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
    await expect(response.arrayBuffer()).rejects.toThrow(TypeError);
    expect(await (await fetch(`${main.url}/bom`)).text()).toBe('text');
  });

  it.each([
    ['/gzip', 'zipped'],
    ['/br', 'brotli'],
    ['/deflate', 'wrapped'],
    ['/raw-deflate', 'raw'],
    ['/two-codings', 'twice'],
    ['/unknown-coding', 'as sent'],
  ])('decodes %s', async (path, text) => {
    expect(await (await fetch(`${main.url}${path}`)).text()).toBe(text);
  });
});

describe('redirects', () => {
  it('follows one, and says where it ended', async () => {
    const response = await fetch(`${main.url}/to-json`);
    expect(response.status).toBe(201);
    expect(response.redirected).toBe(true);
    expect(response.url).toBe(`${main.url}/json`);
  });

  it('turns a POST into a GET without its body after 301, 302 and 303, and keeps it after 307 and 308', async () => {
    const post = { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'payload' };
    for (const path of ['/moved', '/see-other']) {
      expect(await (await fetch(`${main.url}${path}`, post)).json()).toEqual({ method: 'GET', body: '' });
      expect(main.seen.at(-1)?.headers['content-type']).toBeUndefined();
      expect(main.seen.at(-1)?.headers['content-length']).toBeUndefined();
    }
    for (const path of ['/temporary', '/permanent']) {
      expect(await (await fetch(`${main.url}${path}`, post)).json()).toEqual({
        method: 'POST',
        body: 'payload',
      });
      expect(main.seen.at(-1)?.headers['content-type']).toBe('text/plain');
    }
    expect(main.seen.at(-1)?.url).toBe('/echo');
    expect(await (await fetch(`${main.url}/see-other`, { method: 'PUT', body: 'x' })).json()).toEqual({
      method: 'GET',
      body: '',
    });
    expect(await (await fetch(`${main.url}/moved`, { method: 'PUT', body: 'x' })).json()).toEqual({
      method: 'PUT',
      body: 'x',
    });
  });

  it('keeps the token within the origin and drops it, and cookies, when the redirect leaves', async () => {
    const credentials = { authorization: 'token secret', cookie: 'c=1', 'proxy-authorization': 'Basic p' };
    await fetch(`${main.url}/to-json`, { headers: credentials });
    expect(main.seen.at(-1)?.headers).toMatchObject(credentials);
    const response = await fetch(`${main.url}/away`, { headers: { ...credentials, 'x-kept': 'yes' } });
    expect(await response.text()).toBe('elsewhere');
    expect(response.url).toBe(`${other.url}/landed`);
    const landed = other.seen.at(-1)?.headers;
    expect(landed?.['x-kept']).toBe('yes');
    expect(landed?.authorization).toBeUndefined();
    expect(landed?.cookie).toBeUndefined();
    expect(landed?.['proxy-authorization']).toBeUndefined();
  });

  it('answers the redirect itself when asked to, and fails when redirects are an error', async () => {
    const manual = await fetch(`${main.url}/to-json`, { redirect: 'manual' });
    expect(manual.status).toBe(302);
    expect(manual.headers.get('location')).toBe('/json');
    expect(await manual.text()).toBe('moved');
    const refused = await failure(fetch(`${main.url}/to-json`, { redirect: 'error' }));
    expect(refused).toBeInstanceOf(TypeError);
    expect(refused.message).toBe('fetch failed');
  });

  it('stops after 20 redirects and never follows one off http(s)', async () => {
    const before = main.seen.length;
    const looped = await failure(fetch(`${main.url}/loop`));
    expect(looped).toBeInstanceOf(TypeError);
    expect(looped.cause?.message).toBe('redirect count exceeded');
    expect(main.seen.length - before).toBe(21);
    expect((await failure(fetch(`${main.url}/to-file`))).cause?.message).toMatch(/file:/);
  });
});

describe('failures with no answer', () => {
  it('reports a refused connection as fetch does, with the system code as its cause', async () => {
    const closed = await serve({});
    await new Promise((done) => closed.server.close(done));
    const refused = await failure(fetch(`${closed.url}/x`));
    expect(refused).toBeInstanceOf(TypeError);
    expect(refused.message).toBe('fetch failed');
    expect(refused.cause?.code).toBe('ECONNREFUSED');
  });

  it('fails on a connection reset before the answer and on one cut in the middle of it', async () => {
    expect((await failure(fetch(`${main.url}/reset`))).cause?.code).toBe('ECONNRESET');
    const cut = await failure(fetch(`${main.url}/cut`));
    expect(cut).toBeInstanceOf(TypeError);
    expect(cut.cause?.code).toBe('ECONNRESET');
  });

  it('fails an answer whose body cannot be decoded, rather than answering it empty', async () => {
    const broken = await failure(fetch(`${main.url}/bad-gzip`));
    expect(broken).toBeInstanceOf(TypeError);
    expect(broken.cause?.message).toMatch(/header/i);
  });

  it('gives up on a server silent for the idle timeout', async () => {
    const silent = await failure(wireFetch({ idleTimeoutMs: 50 })(`${main.url}/silent`));
    expect(silent).toBeInstanceOf(TypeError);
    expect(silent.cause?.code).toBe('ETIMEDOUT');
  });

  it('rejects with the abort reason, before the request and while it waits', async () => {
    const before = main.seen.length;
    const early = await failure(fetch(`${main.url}/json`, { signal: AbortSignal.abort() }));
    expect(early.name).toBe('AbortError');
    expect(main.seen.length).toBe(before);
    const controller = new AbortController();
    const waiting = fetch(`${main.url}/slow`, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stopped by the test')), 50);
    expect((await failure(waiting)).message).toBe('stopped by the test');
    const plain = new AbortController();
    const pending = fetch(`${main.url}/slow`, { signal: plain.signal });
    setTimeout(() => plain.abort('not an error'), 50);
    expect((await failure(pending)).name).toBe('AbortError');
    // An abort after the answer changes nothing.
    const done = new AbortController();
    const answered = await fetch(`${main.url}/json`, { signal: done.signal });
    done.abort();
    expect(await answered.json()).toEqual({ a: 1 });
  });

  it('refuses what it cannot send before sending anything', async () => {
    const before = main.seen.length;
    const stream = await failure(
      fetch(`${main.url}/echo`, { method: 'POST', body: {} as unknown as string }),
    );
    expect(stream).toBeInstanceOf(TypeError);
    expect((await failure(fetch('ftp://127.0.0.1/x'))).cause?.message).toMatch(/ftp:/);
    expect((await failure(fetch('not a url'))).message).toMatch(/Invalid URL|fetch failed/);
    const badHeader = await failure(fetch(`${main.url}/echo`, { headers: { 'x-bad': 'line\nbreak' } }));
    expect(badHeader).toBeInstanceOf(TypeError);
    expect(main.seen.length).toBe(before);
  });
});

describe('https', () => {
  const tls = (name: string): Buffer => readFileSync(new URL(`../support/tls/${name}`, import.meta.url));
  let secure: { server: Server; url: string };

  beforeAll(async () => {
    const server = createHttpsServer(
      { key: tls('loopback-key.pem'), cert: tls('loopback-cert.pem') },
      (req, res) =>
        res.writeHead(200, { 'content-type': 'text/plain' }).end(`secure ${req.method} ${req.url}`),
    );
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    secure = { server, url: `https://127.0.0.1:${(server.address() as AddressInfo).port}` };
  });

  afterAll(async () => {
    secure.server.closeAllConnections();
    await new Promise((done) => secure.server.close(done));
  });

  it('goes over TLS with the agent it is given', async () => {
    const agent = new HttpsAgent({ ca: tls('loopback-cert.pem') });
    const response = await wireFetch({ agentFor: () => agent })(`${secure.url}/x`);
    expect(await response.text()).toBe('secure GET /x');
    agent.destroy();
  });

  it('verifies the server’s certificate by default', async () => {
    const refused = await failure(fetch(`${secure.url}/x`));
    expect(refused).toBeInstanceOf(TypeError);
    expect(refused.cause?.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });

  it('verifies it through a proxy’s tunnel too', async () => {
    const port = Number(new URL(secure.url).port);
    const proxy = await startProxy(() => ({ host: '127.0.0.1', port }));
    const saved = process.env.HTTPS_PROXY;
    process.env.HTTPS_PROXY = proxy.url;
    try {
      const refused = await failure(
        wireFetch({ agentFor: proxyAgents() })(`https://api.github.test:${port}/x`),
      );
      expect(refused).toBeInstanceOf(TypeError);
      expect(refused.cause?.code).toMatch(/SELF_SIGNED|CERT/);
      expect(proxy.seen).toEqual([
        { method: 'CONNECT', target: `api.github.test:${port}`, authorization: undefined },
      ]);
    } finally {
      if (saved === undefined) Reflect.deleteProperty(process.env, 'HTTPS_PROXY');
      else process.env.HTTPS_PROXY = saved;
      await proxy.close();
    }
  });
});
