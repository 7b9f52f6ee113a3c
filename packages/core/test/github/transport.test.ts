/**
 * The transport under Writ's client, where no proxy applies: the platform's HTTP client (wire.ts,
 * tested on its own in wire.test.ts), which `createGitHubClient` passes to @actions/github's
 * `getOctokit` as `request.fetch` (the proxy path, @actions/github's own proxy-aware fetch, is in
 * proxy-transport.test.ts). The proxy decision is @actions/http-client's, tested here variant by
 * variant; the client is tested against the emulator with a recording fetch, behind a proxy that must
 * see nothing, and with its default transport, which must never call the global `fetch`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import Bottleneck from 'bottleneck/light.js';
import { createGitHubClient, loopbackTimings } from '../../src/github/client.js';
import { promptScheduling } from '../../src/github/scheduling.js';
import type { Fetch } from '../../src/github/transport.js';
import { clientFetch, proxyAgents, proxyFor } from '../../src/github/transport.js';
import type { TestProxy } from '../support/proxy.js';
import { startProxy } from '../support/proxy.js';
import { transportsDuring } from '../support/transports.js';
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

  it('gives a request the proxy’s tunnel agent where a proxy applies, and none where it does not', () => {
    useEnv({});
    const agentFor = proxyAgents();
    expect(agentFor(new URL('https://api.github.com/repos/o/r'))).toBeUndefined();
    useEnv({ HTTPS_PROXY: 'http://writ:s3cret@p:1', HTTP_PROXY: 'http://q:2' });
    const secure = agentFor(new URL('https://api.github.com/repos/o/r'));
    // @actions/http-client's own agent for this proxy: CONNECT through p:1 with its credentials.
    expect((secure as unknown as { proxyOptions: unknown }).proxyOptions).toEqual({
      host: 'p',
      port: '1',
      proxyAuth: 'writ:s3cret',
    });
    expect(agentFor(new URL('https://api.github.com/graphql'))).toBe(secure);
    const plain = agentFor(new URL('http://ghe.example/api/v3'));
    expect((plain as unknown as { proxyOptions: unknown }).proxyOptions).toEqual({ host: 'q', port: '2' });
    expect(agentFor(new URL('http://127.0.0.1:8080/'))).toBeUndefined();
    useEnv({ HTTPS_PROXY: 'http://p:1', NO_PROXY: 'github.com' });
    expect(agentFor(new URL('https://api.github.com/'))).toBeUndefined();
    expect(agentFor(new URL('https://ghe.example/'))).toBeDefined();
  });

  it('sends through the platform client unless a test gives its own transport', () => {
    const transport: Fetch = () => Promise.reject(new Error('not called'));
    expect(clientFetch(transport)).toBe(transport);
    expect(clientFetch()).not.toBe(globalThis.fetch);
  });
});

let clients = 0;
function client(transport: Fetch) {
  clients += 1;
  return createGitHubClient('alice-pat', {
    baseUrl: emulator.url,
    ...loopbackTimings(5),
    throttleId: `transport-test-${clients}`,
    transport,
  });
}

describe("Writ's client where no proxy applies", () => {
  it('sends through node:http, never through the global fetch, and nothing to a proxy', async () => {
    // A proxy is configured, but the emulator is on loopback, which is never proxied.
    useEnv({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url });
    const host = new URL(emulator.url).host;
    const { sent, fetched } = await transportsDuring(async () => {
      clients += 1;
      const github = createGitHubClient('alice-pat', {
        baseUrl: emulator.url,
        ...loopbackTimings(5),
        throttleId: `transport-test-${clients}`,
      });
      const { data } = await github.rest.repos.get({ owner: 'alice', repo: 'repo' });
      expect(data.full_name).toBe('alice/repo');
      const graphql = await github.graphql<{ viewer: { login: string } }>('query { viewer { login } }');
      expect(graphql.viewer.login).toBe('alice');
      // An answer Octokit reads as an error keeps its status and GitHub's message.
      await expect(github.rest.repos.get({ owner: 'alice', repo: 'missing' })).rejects.toMatchObject({
        status: 404,
        response: { status: 404, url: `${emulator.url}/repos/alice/missing` },
      });
    });
    expect(sent).toEqual([
      `GET ${host}/repos/alice/repo`,
      `POST ${host}/graphql`,
      `GET ${host}/repos/alice/missing`,
    ]);
    expect(fetched).toEqual([]);
    expect(proxy.seen).toEqual([]);
  });

  it('keeps the retry plugin on the transport: a dropped connection is retried', async () => {
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

  /** The delays of every timer set while `run` runs. */
  async function timersDuring(run: () => Promise<unknown>): Promise<unknown[]> {
    const timers: unknown[] = [];
    const setTimer = globalThis.setTimeout;
    globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
      timers.push(args[1]);
      return setTimer(...args);
    }) as typeof setTimeout;
    try {
      await run();
    } finally {
      globalThis.setTimeout = setTimer;
    }
    return timers;
  }

  it('yields a zero-length step through setImmediate, not a timer, once per process', async () => {
    expect(promptScheduling()).toBe(true);
    const timers = await timersDuring(async () => {
      await datastore().yieldLoop.call({ Promise });
      await datastore().yieldLoop.call({ Promise }, 0);
    });
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
    // A datastore it knows under a limiter whose dispatch it does not: neither is touched.
    const yieldLoop = (): Promise<void> => Promise.resolve();
    class Store {
      yieldLoop = yieldLoop;
    }
    class NoDispatch {
      _store = new Store();
      _run(): void {}
    }
    expect(promptScheduling(NoDispatch)).toBe(false);
    expect(new NoDispatch()._store.yieldLoop).toBe(yieldLoop);
    expect(Object.getOwnPropertyNames(Store.prototype)).toEqual(['constructor']);
  });

  it('dispatches a job that is due at once through setImmediate, and one that must wait on its timer', async () => {
    expect(promptScheduling()).toBe(true);
    const limiter = new Bottleneck({ maxConcurrent: 1, minTime: 250 });
    const results: number[] = [];
    const timers = await timersDuring(() =>
      Promise.all([1, 2].map((n) => limiter.schedule(() => Promise.resolve(results.push(n))))),
    );
    expect(results).toEqual([1, 2]);
    // The first is due now: no timer. The second is owed the spacing: one timer of about minTime.
    expect(timers).toHaveLength(1);
    expect(timers[0]).toBeGreaterThan(0);
    expect(timers[0]).toBeLessThanOrEqual(250);
  });

  it('keeps a job’s expiration and its failure on a dispatch through setImmediate', async () => {
    expect(promptScheduling()).toBe(true);
    const limiter = new Bottleneck();
    await expect(
      limiter.schedule({ expiration: 20 }, () => new Promise((resolve) => setTimeout(resolve, 200))),
    ).rejects.toThrow(/timed out after 20 ms/);
    await expect(limiter.schedule(() => Promise.reject(new Error('job failed')))).rejects.toThrow(
      'job failed',
    );
    expect(await limiter.schedule(() => Promise.resolve('ran'))).toBe('ran');
  });

  it('dispatches with the job’s own steps, and never runs one whose status is gone at its turn', async () => {
    const calls: string[] = [];
    let status: string | null = 'RUNNING';
    class Store {
      yieldLoop(): Promise<void> {
        return Promise.resolve();
      }
    }
    class Limiter {
      _store = new Store();
      _limiter = 'chained';
      _scheduled: Record<string, unknown> = {};
      _run(index: string, _job: unknown, wait: number): string {
        calls.push(`timer ${index} ${wait}`);
        return 'timer';
      }
      _clearGlobalState(index: string): boolean {
        calls.push(`clear ${index}`);
        return true;
      }
      _free(index: string): void {
        calls.push(`free ${index}`);
      }
      jobStatus(id: string): string | null {
        calls.push(`status ${id}`);
        return status;
      }
    }
    expect(promptScheduling(Limiter)).toBe(true);
    const job = {
      options: { id: 'j', expiration: null },
      doRun: () => calls.push('doRun'),
      doExecute: (limiter: unknown, clear: () => boolean, _run: unknown, free: () => void) => {
        calls.push(`doExecute ${String(limiter)}`);
        clear();
        free();
      },
      doExpire: () => calls.push('doExpire'),
    };
    const limiter = new Limiter();
    expect(limiter._run('a', job, 7)).toBe('timer');
    limiter._run('b', job, 0);
    expect(Object.keys(limiter._scheduled)).toEqual(['b']);
    await new Promise((resolve) => setImmediate(resolve));
    status = null;
    limiter._run('c', job, 0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([
      'timer a 7',
      'doRun',
      'status j',
      'doExecute chained',
      'clear b',
      'free b',
      'doRun',
      'status j',
    ]);
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
    const scheduled = Date.now();
    await Promise.all([0, 1, 2].map(() => limiter.schedule(() => Promise.resolve(starts.push(Date.now())))));
    // Spacing, not speed: minTime spaces each job's dispatch after the one before it was registered, so
    // the n-th job starts no sooner than n × minTime after the first was scheduled, however slow the
    // machine or late the first job's own start (a millisecond of clock granularity aside).
    expect(starts[1]! - scheduled).toBeGreaterThanOrEqual(39);
    expect(starts[2]! - scheduled).toBeGreaterThanOrEqual(79);
  });
});
