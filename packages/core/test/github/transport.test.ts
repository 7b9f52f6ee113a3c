/**
 * The transport under Writ's client, where no proxy applies: the platform's `fetch`, which
 * `createGitHubClient` passes to @actions/github's `getOctokit` as `request.fetch` (the proxy path,
 * @actions/github's own proxy-aware fetch, is in proxy-transport.test.ts). The proxy decision is
 * @actions/http-client's, tested here variant by variant; the client is tested against the emulator
 * with a recording platform fetch, behind a proxy that must see nothing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import Bottleneck from 'bottleneck/light.js';
import { createGitHubClient, loopbackTimings } from '../../src/github/client.js';
import { promptScheduling } from '../../src/github/scheduling.js';
import type { Fetch } from '../../src/github/transport.js';
import { directFetch, proxyFor } from '../../src/github/transport.js';
import type { TestProxy } from '../support/proxy.js';
import { startProxy } from '../support/proxy.js';
import { startEmulator } from '@writ/github-emulator/index.js';
import type { Emulator } from '@writ/github-emulator/index.js';

let emulator: Emulator;
let proxy: TestProxy;

beforeAll(async () => {
  emulator = await startEmulator({ seed: 16 });
  emulator.admin.createUser({ login: 'alice' });
  emulator.admin.createToken({ token: 'alice-pat', kind: 'pat', login: 'alice' });
  emulator.admin.createRepo({ owner: 'alice', name: 'repo', files: { 'README.md': 'hello\n' } });
  const port = Number(new URL(emulator.url).port);
  proxy = await startProxy(() => ({ host: '127.0.0.1', port }));
});

afterAll(async () => {
  await proxy.close();
  await emulator.close();
});

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];
const saved = Object.fromEntries(PROXY_VARIABLES.map((name) => [name, process.env[name]]));
afterEach(() => {
  for (const name of PROXY_VARIABLES) {
    if (saved[name] === undefined) Reflect.deleteProperty(process.env, name);
    else process.env[name] = saved[name];
  }
  proxy.seen.length = 0;
});

function useEnv(values: Record<string, string>): void {
  for (const name of PROXY_VARIABLES) Reflect.deleteProperty(process.env, name);
  Object.assign(process.env, values);
}

describe('the proxy decision (as @actions/http-client makes it)', () => {
  it('uses HTTPS_PROXY for https and HTTP_PROXY for http, the lowercase name first', () => {
    useEnv({ HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2', HTTP_PROXY: 'http://plain:3' });
    expect(proxyFor('https://api.github.com/repos/o/r')?.host).toBe('lower:2');
    expect(proxyFor('http://ghe.example/api/v3')?.host).toBe('plain:3');
    useEnv({ HTTP_PROXY: 'http://plain:3' });
    expect(proxyFor('https://api.github.com/')).toBeUndefined();
    // A bare host is read as http://host; `host:port` parses as a URL with no host, which
    // @actions/http-client (and so @actions/github's own fetch) treats as no proxy at all.
    useEnv({ HTTPS_PROXY: 'proxy.corp' });
    expect(proxyFor('https://api.github.com/')?.href).toBe('http://proxy.corp/');
    useEnv({ HTTPS_PROXY: 'proxy.corp:8080' });
    expect(proxyFor('https://api.github.com/')).toBeUndefined();
  });

  it('honours NO_PROXY by host, suffix, host:port and *, and never proxies loopback', () => {
    useEnv({ HTTPS_PROXY: 'http://p:1', NO_PROXY: 'internal.example, .corp:8443' });
    expect(proxyFor('https://internal.example/')).toBeUndefined();
    expect(proxyFor('https://api.internal.example/')).toBeUndefined();
    expect(proxyFor('https://ghe.corp:8443/')).toBeUndefined();
    expect(proxyFor('https://ghe.corp/')?.host).toBe('p:1');
    expect(proxyFor('https://api.github.com/')?.host).toBe('p:1');
    for (const loopback of ['https://127.0.0.1:9/', 'https://localhost:9/', 'https://[::1]:9/'])
      expect(proxyFor(loopback)).toBeUndefined();
    useEnv({ HTTPS_PROXY: 'http://p:1', no_proxy: '*' });
    expect(proxyFor('https://api.github.com/')).toBeUndefined();
  });

  it('passes the platform fetch only where no proxy applies', () => {
    const platform: Fetch = () => Promise.reject(new Error('not called'));
    useEnv({});
    expect(directFetch('https://api.github.com', platform)).toBe(platform);
    expect(directFetch('https://api.github.com')).toBe(globalThis.fetch);
    useEnv({ HTTPS_PROXY: 'http://p:1' });
    expect(directFetch('https://api.github.com', platform)).toBeUndefined();
    expect(directFetch('http://127.0.0.1:8080', platform)).toBe(platform);
    useEnv({ HTTPS_PROXY: 'http://p:1', NO_PROXY: 'github.com' });
    expect(directFetch('https://api.github.com', platform)).toBe(platform);
  });
});

/** The platform fetch, recording every call. */
function recording(calls: string[]): Fetch {
  return (resource, init) => {
    calls.push(resource instanceof Request ? resource.url : resource.toString());
    return globalThis.fetch(resource, init);
  };
}

let clients = 0;
function client(platformFetch: Fetch) {
  clients += 1;
  return createGitHubClient('alice-pat', {
    baseUrl: emulator.url,
    ...loopbackTimings(5),
    throttleId: `transport-test-${clients}`,
    platformFetch,
  });
}

describe("Writ's client where no proxy applies", () => {
  it('sends REST and GraphQL requests through the platform fetch, and nothing to a proxy', async () => {
    // A proxy is configured, but the emulator is on loopback, which is never proxied.
    useEnv({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url });
    const calls: string[] = [];
    const github = client(recording(calls));
    const { data } = await github.rest.repos.get({ owner: 'alice', repo: 'repo' });
    expect(data.full_name).toBe('alice/repo');
    const graphql = await github.request('POST /graphql', { query: 'query { viewer { login } }' });
    expect((graphql.data as { data: { viewer: { login: string } } }).data.viewer.login).toBe('alice');
    expect(calls).toEqual([`${emulator.url}/repos/alice/repo`, `${emulator.url}/graphql`]);
    expect(proxy.seen).toEqual([]);
  });

  it('keeps the retry plugin on the platform fetch: a dropped connection is retried', async () => {
    useEnv({});
    const calls: string[] = [];
    let dropped = false;
    const flaky: Fetch = (resource, init) => {
      calls.push(resource instanceof Request ? resource.url : resource.toString());
      if (!dropped) {
        dropped = true;
        return Promise.reject(new TypeError('fetch failed'));
      }
      return globalThis.fetch(resource, init);
    };
    const { data } = await client(flaky).rest.repos.get({ owner: 'alice', repo: 'repo' });
    expect(data.full_name).toBe('alice/repo');
    expect(calls).toHaveLength(2);
  });
});

describe('prompt scheduling of the plugins’ limiters', () => {
  interface Datastore {
    yieldLoop(this: { Promise: PromiseConstructor }, t?: number): Promise<void>;
  }
  const datastore = (): Datastore =>
    Object.getPrototypeOf((new Bottleneck() as unknown as { _store: object })._store) as Datastore;

  it('yields a zero-length step through setImmediate, not a timer, once per process', async () => {
    expect(promptScheduling()).toBe(true);
    const timers: unknown[] = [];
    const setTimer = globalThis.setTimeout;
    globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
      timers.push(args[1]);
      return setTimer(...args);
    }) as typeof setTimeout;
    try {
      await datastore().yieldLoop.call({ Promise });
      await datastore().yieldLoop.call({ Promise }, 0);
    } finally {
      globalThis.setTimeout = setTimer;
    }
    expect(timers).toEqual([]);
    expect(promptScheduling()).toBe(true);
  });

  it('leaves a limiter whose shape it does not know as it was', () => {
    class NoStore {
      queue = [];
    }
    class OtherStore {
      _store = { yieldLoop: 'not a function' };
    }
    expect(promptScheduling(NoStore)).toBe(false);
    expect(promptScheduling(OtherStore)).toBe(false);
    expect(new OtherStore()._store.yieldLoop).toBe('not a function');
  });

  it('keeps a real wait on its timer', async () => {
    expect(promptScheduling()).toBe(true);
    let fired = false;
    const waited = datastore()
      .yieldLoop.call({ Promise }, 20)
      .then(() => (fired = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(fired).toBe(false);
    await waited;
    expect(fired).toBe(true);
  });

  it('leaves a limiter’s spacing alone: each job starts minTime after the one before', async () => {
    expect(promptScheduling()).toBe(true);
    const limiter = new Bottleneck({ maxConcurrent: 1, minTime: 40 });
    const starts: number[] = [];
    await Promise.all([0, 1, 2].map(() => limiter.schedule(() => Promise.resolve(starts.push(Date.now())))));
    // Spacing, not speed: a lower bound that holds however slow the machine (timer slack aside).
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(35);
    expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(35);
  });
});
