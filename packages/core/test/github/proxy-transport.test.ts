/**
 * Writ's client where a proxy applies: every request still goes through the platform's HTTP client
 * (wire.ts), through @actions/http-client's own agent for the proxy (a CONNECT tunnel), never through
 * the global `fetch` nor the undici @actions/github bundles. The emulator is addressed by a name
 * (loopback is never proxied) that the loopback CONNECT proxy routes to it, so a request that skipped
 * the proxy could not reach it at all. HTTP_PROXY and GITHUB_API_URL are set as on a runner behind a
 * proxy before anything imports the client, since @actions/github builds its (unused) proxy-aware
 * default when it is imported.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { Emulator } from '@writ/github-emulator/index.js';
import type * as ClientModule from '../../src/github/client.js';
import type { TestProxy } from '../support/proxy.js';
import { startProxy } from '../support/proxy.js';
import { transportsDuring } from '../support/transports.js';

const API_HOST = 'api.github.test';
let emulator: Emulator;
let proxy: TestProxy;
let apiUrl = '';
let createGitHubClient: typeof ClientModule.createGitHubClient;
let loopbackTimings: typeof ClientModule.loopbackTimings;
const saved = { ...process.env };

beforeAll(async () => {
  const { startEmulator } = await import('@writ/github-emulator/index.js');
  emulator = await startEmulator({ seed: 16 });
  emulator.admin.createUser({ login: 'alice' });
  emulator.admin.createToken({ token: 'alice-pat', kind: 'pat', login: 'alice' });
  emulator.admin.createRepo({ owner: 'alice', name: 'repo', files: { 'README.md': 'hello\n' } });
  const port = Number(new URL(emulator.url).port);
  proxy = await startProxy(() => ({ host: '127.0.0.1', port }));
  apiUrl = `http://${API_HOST}:${port}`;
  for (const name of ['HTTPS_PROXY', 'https_proxy', 'http_proxy', 'NO_PROXY', 'no_proxy'])
    Reflect.deleteProperty(process.env, name);
  process.env.HTTP_PROXY = proxy.url;
  process.env.GITHUB_API_URL = apiUrl;
  ({ createGitHubClient, loopbackTimings } = await import('../../src/github/client.js'));
});

afterEach(() => {
  proxy.seen.length = 0;
});

afterAll(async () => {
  for (const name of Object.keys(process.env))
    if (!(name in saved)) Reflect.deleteProperty(process.env, name);
  Object.assign(process.env, saved);
  await proxy.close();
  await emulator.close();
});

let clients = 0;
function client(baseUrl = apiUrl) {
  clients += 1;
  return createGitHubClient('alice-pat', {
    baseUrl,
    ...loopbackTimings(5),
    throttleId: `proxy-transport-test-${clients}`,
  });
}

describe("Writ's client where HTTP_PROXY applies to the API URL", () => {
  it('tunnels every REST and GraphQL request through the proxy on node:http, none through fetch', async () => {
    const before = emulator.admin.requests().length;
    const { sent, fetched } = await transportsDuring(async () => {
      const github = client();
      const { data } = await github.rest.repos.get({ owner: 'alice', repo: 'repo' });
      expect(data.full_name).toBe('alice/repo');
      const graphql = await github.graphql<{ viewer: { login: string } }>('query { viewer { login } }');
      expect(graphql.viewer.login).toBe('alice');
    });
    const host = new URL(apiUrl).host;
    // Each through a tunnel of its own (the tunnel's CONNECT is a node:http request too).
    expect(sent).toEqual([
      `CONNECT ${host}`,
      `GET ${host}/repos/alice/repo`,
      `CONNECT ${host}`,
      `POST ${host}/graphql`,
    ]);
    expect(fetched).toEqual([]);
    expect(proxy.seen.length).toBeGreaterThanOrEqual(1);
    expect(proxy.seen.every((s) => s.method === 'CONNECT' && s.target === host)).toBe(true);
    const served = emulator.admin.requests().slice(before);
    expect(served.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /repos/alice/repo', 'POST /graphql']);
  });

  it('goes direct for a loopback API URL, which is never proxied', async () => {
    const { sent, fetched } = await transportsDuring(async () => {
      await client(emulator.url).rest.repos.get({ owner: 'alice', repo: 'repo' });
    });
    expect(sent).toEqual([`GET ${new URL(emulator.url).host}/repos/alice/repo`]);
    expect(fetched).toEqual([]);
    expect(proxy.seen).toEqual([]);
  });

  it('reports a proxy that cannot be reached as a request with no answer', async () => {
    process.env.HTTP_PROXY = 'http://127.0.0.1:9';
    try {
      await expect(
        createGitHubClient('alice-pat', {
          baseUrl: apiUrl,
          ...loopbackTimings(5),
          retries: 0,
          throttleId: 'proxy-transport-test-unreachable',
        }).rest.repos.get({ owner: 'alice', repo: 'repo' }),
      ).rejects.toMatchObject({ status: 500, response: undefined });
    } finally {
      process.env.HTTP_PROXY = proxy.url;
    }
    expect(proxy.seen).toEqual([]);
  });
});
