/**
 * A stage's bundle direct and behind a proxy, as a runner runs it. Every request goes through the
 * toolkit's own transport (the undici fetch @actions/github carries, with the proxy dispatcher
 * @actions/http-client picks; github/transport.ts puts Writ's limits around it) and none through the
 * global `fetch`. Behind a proxy (HTTP_PROXY set, the API addressed by a name, since loopback is never
 * proxied), every request reaches the emulator through the proxy's CONNECT tunnel; where no proxy
 * applies (the emulator on loopback, a proxy configured all the same), none goes to the proxy. A
 * preloaded module (test/support/record-requests.mjs) logs each request undici creates and each call
 * of the global `fetch`. (Which hosts go direct under NO_PROXY is tested in-process, in
 * packages/core/test/github/proxy-transport.test.ts.) The two runs are one run's claim and
 * checkpoint, in that order.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProxy } from '../../packages/core/test/support/proxy.js';
import { startProxy } from '../../packages/core/test/support/proxy.js';
import type { SliceWorld } from '../support/world.js';
import { PEOPLE, approveInProcess, planVariant, proposePlan, sliceWorld } from '../support/world.js';

const API_HOST = 'api.github.test';
const RECORD_REQUESTS = fileURLToPath(new URL('../support/record-requests.mjs', import.meta.url));
let world: SliceWorld;
let proxy: TestProxy;
let runId = '';
let epoch = 0;
const work = mkdtempSync(join(tmpdir(), 'writ-proxy-'));

beforeAll(async () => {
  world = await sliceWorld({ seed: 21 });
  const port = Number(new URL(world.emulator.url).port);
  proxy = await startProxy(() => ({ host: '127.0.0.1', port }));
  const planFile = planVariant(work, 'proxied');
  const proposed = await proposePlan(world, planFile);
  runId = proposed.runId;
  const event = await world.comment({ login: PEOPLE.write }, proposed.command);
  const approved = await approveInProcess(world, planFile, event, { holder: 31, allowedRoles: ['write'] });
  epoch = approved.epoch;
});

afterAll(async () => {
  await proxy.close();
  await world.close();
});

/** The undici requests and global fetch calls a run logged, and the emulator's requests during it. */
async function observed(
  name: string,
  run: (env: Record<string, string>) => Promise<{ outputs: Record<string, string> }>,
) {
  const log = join(work, `${name}.fetch.log`);
  const before = world.emulator.admin.requests().at(-1)?.seq ?? 0;
  const { outputs } = await run({ NODE_OPTIONS: `--import ${RECORD_REQUESTS}`, WRIT_TEST_FETCH_LOG: log });
  return {
    outputs,
    platform: existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [],
    served: world.emulator.admin
      .requests()
      .filter((r) => r.seq > before)
      .map((r) => `${r.method} ${r.path}`),
  };
}

describe('a stage bundle and its transport', () => {
  it('behind HTTP_PROXY, tunnels every request through the proxy, and none through the global fetch', async () => {
    const port = new URL(world.emulator.url).port;
    const claim = await observed('claim', (env) =>
      world.run(
        'claim-checkpoint',
        {
          ...world.ledgerInputs(),
          operation: 'claim',
          'run-id': runId,
          epoch: String(epoch),
          'step-id': 'build-artifacts',
          'dry-run': 'false',
        },
        {
          env: {
            ...env,
            GITHUB_RUN_ID: '31',
            GITHUB_API_URL: `http://${API_HOST}:${port}`,
            HTTP_PROXY: proxy.url,
          },
        },
      ),
    );
    expect(claim.outputs).toMatchObject({ outcome: 'claimed', reason: '' });
    expect(claim.served.length).toBeGreaterThan(0);
    expect(
      claim.platform
        .filter((line) => !line.startsWith('CONNECT '))
        .map((line) => line.replace(`http://${API_HOST}:${port}`, '')),
    ).toEqual(claim.served);
    expect(proxy.seen.length).toBeGreaterThan(0);
    expect(proxy.seen.every((s) => s.method === 'CONNECT' && s.target === `${API_HOST}:${port}`)).toBe(true);
  });

  it('where no proxy applies (loopback), sends every request direct, none through the global fetch and none to the proxy', async () => {
    proxy.seen.length = 0;
    const checkpoint = await observed('checkpoint', (env) =>
      world.run(
        'claim-checkpoint',
        {
          ...world.ledgerInputs(),
          operation: 'checkpoint',
          'run-id': runId,
          epoch: String(epoch),
          'step-id': 'build-artifacts',
          'step-outcome': 'done',
          'dry-run': 'false',
        },
        { env: { ...env, GITHUB_RUN_ID: '31', HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url } },
      ),
    );
    expect(checkpoint.outputs).toMatchObject({ outcome: 'checkpointed', reason: '' });
    expect(checkpoint.served.length).toBeGreaterThan(0);
    expect(checkpoint.platform.map((line) => line.replace(world.emulator.url, ''))).toEqual(
      checkpoint.served,
    );
    expect(proxy.seen).toEqual([]);
  });
});
