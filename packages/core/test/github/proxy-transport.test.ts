/**
 * Writ's client where a proxy applies: every request goes through the toolkit's own transport
 * (@actions/github's undici fetch with the ProxyAgent @actions/http-client picks for the API URL, a
 * CONNECT tunnel) inside Writ's limits (transport.ts). The emulator is addressed by a name (loopback is
 * never proxied) that the loopback CONNECT proxy routes to it, so a request that skipped the proxy
 * could not reach it at all (the name does not resolve). HTTP_PROXY and GITHUB_API_URL are set as on a
 * runner behind a proxy before anything imports the client. The proxy decision is made per client, when
 * it is created, from HTTPS_PROXY/https_proxy, HTTP_PROXY/http_proxy and NO_PROXY/no_proxy as
 * @actions/http-client reads them.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { Emulator } from '@writ/github-emulator/index.js';
import type * as ClientModule from '../../src/github/client.js';
import { requestFailureOf } from '../../src/github/request-failure.js';
import type { TestProxy } from '../support/proxy.js';
import { startProxy } from '../support/proxy.js';

const API_HOST = 'api.github.test';
let emulator: Emulator;
let proxy: TestProxy;
let apiUrl = '';
let createGitHubClient: typeof ClientModule.createGitHubClient;
let loopbackTimings: typeof ClientModule.loopbackTimings;
const saved = { ...process.env };
const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];

function useEnv(values: Record<string, string>): void {
  for (const name of PROXY_VARIABLES) Reflect.deleteProperty(process.env, name);
  Object.assign(process.env, values);
}

beforeAll(async () => {
  const { startEmulator } = await import('@writ/github-emulator/index.js');
  emulator = await startEmulator({ seed: 16 });
  emulator.admin.createUser({ login: 'alice' });
  emulator.admin.createToken({ token: 'alice-pat', kind: 'pat', login: 'alice' });
  emulator.admin.createRepo({ owner: 'alice', name: 'repo', files: { 'README.md': 'hello\n' } });
  const port = Number(new URL(emulator.url).port);
  proxy = await startProxy(() => ({ host: '127.0.0.1', port }));
  apiUrl = `http://${API_HOST}:${port}`;
  useEnv({ HTTP_PROXY: proxy.url });
  process.env.GITHUB_API_URL = apiUrl;
  ({ createGitHubClient, loopbackTimings } = await import('../../src/github/client.js'));
});

afterEach(() => {
  useEnv({ HTTP_PROXY: proxy.url });
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
    retries: 0,
    throttleId: `proxy-transport-test-${clients}`,
  });
}

describe("Writ's client where a proxy applies to the API URL", () => {
  it.each([
    ['HTTP_PROXY', { HTTP_PROXY: 'PROXY' }],
    ['http_proxy', { http_proxy: 'PROXY' }],
    ['HTTP_PROXY with NO_PROXY naming another host', { HTTP_PROXY: 'PROXY', NO_PROXY: 'ghe.example,.corp' }],
  ])('tunnels every REST and GraphQL request through the proxy under %s', async (_name, env) => {
    useEnv(
      Object.fromEntries(Object.entries(env).map(([key, value]) => [key, value.replace('PROXY', proxy.url)])),
    );
    const before = emulator.admin.requests().length;
    const github = client();
    const { data } = await github.rest.repos.get({ owner: 'alice', repo: 'repo' });
    expect(data.full_name).toBe('alice/repo');
    const graphql = await github.graphql<{ viewer: { login: string } }>('query { viewer { login } }');
    expect(graphql.viewer.login).toBe('alice');
    const host = new URL(apiUrl).host;
    expect(proxy.seen.length).toBeGreaterThanOrEqual(1);
    // Only tunnels, and the token inside them: the proxy never sees the Authorization header.
    expect(proxy.seen).toEqual(
      proxy.seen.map(() => ({ method: 'CONNECT', target: host, authorization: undefined })),
    );
    const served = emulator.admin.requests().slice(before);
    expect(served.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /repos/alice/repo', 'POST /graphql']);
  });

  it('sends the proxy its credentials from the proxy URL, and only to the proxy', async () => {
    const withCredentials = new URL(proxy.url);
    withCredentials.username = 'writ';
    withCredentials.password = 's3cret';
    useEnv({ HTTP_PROXY: withCredentials.href });
    await client().rest.repos.get({ owner: 'alice', repo: 'repo' });
    expect(proxy.seen[0]?.authorization).toBe(`Basic ${Buffer.from('writ:s3cret').toString('base64')}`);
  });

  it('goes direct for a loopback API URL, which is never proxied', async () => {
    const before = emulator.admin.requests().length;
    await client(emulator.url).rest.repos.get({ owner: 'alice', repo: 'repo' });
    expect(emulator.admin.requests().length - before).toBe(1);
    expect(proxy.seen).toEqual([]);
  });

  it.each([
    ['NO_PROXY names the host', { HTTP_PROXY: 'PROXY', NO_PROXY: API_HOST }],
    ['no_proxy names a suffix', { HTTP_PROXY: 'PROXY', no_proxy: '.github.test' }],
    ['NO_PROXY is *', { HTTP_PROXY: 'PROXY', NO_PROXY: '*' }],
    ['only HTTPS_PROXY is set, for an http API URL', { HTTPS_PROXY: 'PROXY' }],
  ])('goes direct, past the proxy, where %s', async (_name, env) => {
    useEnv(
      Object.fromEntries(Object.entries(env).map(([key, value]) => [key, value.replace('PROXY', proxy.url)])),
    );
    // Direct, the name does not resolve: a request with no answer, and nothing reached the proxy.
    const error = await client()
      .rest.repos.get({ owner: 'alice', repo: 'repo' })
      .catch((thrown: unknown) => thrown);
    expect(requestFailureOf(error)).toMatchObject({ status: null, transport: 'ENOTFOUND' });
    expect(proxy.seen).toEqual([]);
  });

  it('reports a proxy that cannot be reached as a request with no answer', async () => {
    useEnv({ HTTP_PROXY: 'http://127.0.0.1:9' });
    await expect(client().rest.repos.get({ owner: 'alice', repo: 'repo' })).rejects.toMatchObject({
      status: 500,
      response: undefined,
    });
    expect(proxy.seen).toEqual([]);
  });
});
