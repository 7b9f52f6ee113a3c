/**
 * Writ's client where a proxy applies: @actions/github's own proxy-aware fetch (undici through
 * @actions/http-client's ProxyAgent), which @actions/github builds for GITHUB_API_URL when it is first
 * imported. So this file sets HTTP_PROXY and GITHUB_API_URL as a runner behind a proxy would, before
 * anything imports the client, and addresses the emulator by a name (loopback is never proxied) that
 * the loopback CONNECT proxy routes to it. The platform fetch Writ would otherwise use records every
 * call: it must see none.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { Emulator } from '@writ/github-emulator/index.js';
import type * as ClientModule from '../../src/github/client.js';
import type { Fetch } from '../../src/github/transport.js';
import type { TestProxy } from '../support/proxy.js';
import { startProxy } from '../support/proxy.js';

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
  // Only now: @actions/github decides its transport for GITHUB_API_URL when it is imported.
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

function recording(calls: string[]): Fetch {
  return (resource, init) => {
    const url = resource instanceof Request ? resource.url : resource.toString();
    calls.push(url);
    return globalThis.fetch(url.replace(`//${API_HOST}:`, '//127.0.0.1:'), init);
  };
}

let clients = 0;
function client(platformFetch: Fetch) {
  clients += 1;
  return createGitHubClient('alice-pat', {
    baseUrl: apiUrl,
    ...loopbackTimings(5),
    throttleId: `proxy-transport-test-${clients}`,
    platformFetch,
  });
}

describe("Writ's client where HTTP_PROXY applies to the API URL", () => {
  it('tunnels every REST and GraphQL request through the proxy, none through the platform fetch', async () => {
    const calls: string[] = [];
    const github = client(recording(calls));
    const before = emulator.admin.requests().length;
    const { data } = await github.rest.repos.get({ owner: 'alice', repo: 'repo' });
    expect(data.full_name).toBe('alice/repo');
    const graphql = await github.request('POST /graphql', { query: 'query { viewer { login } }' });
    expect((graphql.data as { data: { viewer: { login: string } } }).data.viewer.login).toBe('alice');
    expect(calls).toEqual([]);
    expect(proxy.seen.length).toBeGreaterThan(0);
    expect(proxy.seen.every((s) => s.method === 'CONNECT' && s.target === new URL(apiUrl).host)).toBe(true);
    const served = emulator.admin.requests().slice(before);
    expect(served.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /repos/alice/repo', 'POST /graphql']);
  });

  it('goes direct through the platform fetch for a host NO_PROXY names', async () => {
    process.env.NO_PROXY = API_HOST;
    try {
      const calls: string[] = [];
      const { data } = await client(recording(calls)).rest.repos.get({ owner: 'alice', repo: 'repo' });
      expect(data.full_name).toBe('alice/repo');
      expect(calls).toEqual([`${apiUrl}/repos/alice/repo`]);
      expect(proxy.seen).toEqual([]);
    } finally {
      Reflect.deleteProperty(process.env, 'NO_PROXY');
    }
  });

  it('goes direct for a loopback API URL, which is never proxied', async () => {
    const calls: string[] = [];
    const github = createGitHubClient('alice-pat', {
      baseUrl: emulator.url,
      ...loopbackTimings(5),
      throttleId: `proxy-transport-test-loopback`,
      platformFetch: recording(calls),
    });
    await github.rest.repos.get({ owner: 'alice', repo: 'repo' });
    expect(calls).toEqual([`${emulator.url}/repos/alice/repo`]);
    expect(proxy.seen).toEqual([]);
  });
});
