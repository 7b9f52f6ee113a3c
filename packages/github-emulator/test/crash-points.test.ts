/**
 * Crash points (src/crash-points.ts) with the real client: the matching request is applied and its
 * answer dropped while the sender is killed, later requests are dropped unapplied until the crash point
 * is disarmed, and a request the match refuses (by method, path or body) passes untouched.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { CrashPoints, requestTo, startEmulator } from '@writ/github-emulator/index.js';
import type { Emulator } from '@writ/github-emulator/index.js';
import { client } from './support/helpers.js';

const repo = { owner: 'alice', repo: 'repo' };
const crash = new CrashPoints();
let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator({ seed: 7, onRequest: crash.onRequest });
  crash.attach(emulator.admin);
  emulator.admin.createUser({ login: 'alice' });
  emulator.admin.createToken({ token: 'alice-pat', kind: 'pat', login: 'alice' });
  emulator.admin.createRepo({ owner: 'alice', name: 'repo', files: { 'README.md': 'hello\n' } });
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(() => {
  crash.disarm();
  emulator.admin.clearFaults();
});

const github = () => client(emulator, 'alice-pat', { retries: 0 });
const lastSeq = (): number => emulator.admin.requests().at(-1)?.seq ?? 0;

async function titles(): Promise<string[]> {
  const { data } = await github().rest.issues.listForRepo({ ...repo, state: 'all', per_page: 100 });
  return data.map((issue) => issue.title);
}

describe('crash points', () => {
  it('applies the matching request, drops its answer and kills; later requests are dropped unapplied', async () => {
    const kills: string[] = [];
    crash.arm(requestTo('POST', /^\/repos\/alice\/repo\/issues$/), () => kills.push('SIGKILL'));
    const seq = lastSeq();
    await expect(github().rest.issues.create({ ...repo, title: 'landed' })).rejects.toThrow();
    expect(kills).toEqual(['SIGKILL']);
    // A request after the kill (a dead process sends none; this one stands for it) is not applied.
    await expect(github().rest.issues.create({ ...repo, title: 'after the kill' })).rejects.toThrow();
    expect(kills).toEqual(['SIGKILL']);
    const log = emulator.admin.requests().filter((entry) => entry.seq > seq);
    expect(log.map((entry) => [entry.status, entry.fault])).toEqual([
      ['dropped', 'apply-then-drop'],
      ['dropped', 'drop-before-apply'],
    ]);
    expect(crash.disarm()).toBe(true);
    expect((await titles()).filter((title) => title === 'landed' || title === 'after the kill')).toEqual([
      'landed',
    ]);
  });

  it('lets every request the match refuses through, and reports that it never fired', async () => {
    const kills: number[] = [];
    crash.arm(requestTo('PATCH', /^\/repos\/alice\/repo\/issues\/\d+$/), () => kills.push(1));
    await github().rest.issues.create({ ...repo, title: 'untouched' });
    expect(await titles()).toContain('untouched');
    expect(kills).toEqual([]);
    expect(crash.disarm()).toBe(false);
  });

  it('matches on the request body: only the write carrying it is the crash point', async () => {
    const kills: number[] = [];
    crash.arm(
      (entry, body) => entry.method === 'POST' && (body as { title?: string }).title === 'second',
      () => kills.push(1),
    );
    await github().rest.issues.create({ ...repo, title: 'first' });
    await expect(github().rest.issues.create({ ...repo, title: 'second' })).rejects.toThrow();
    expect(kills).toEqual([1]);
    expect(crash.disarm()).toBe(true);
    const all = await titles();
    expect(all.filter((title) => title === 'first' || title === 'second').sort()).toEqual([
      'first',
      'second',
    ]);
  });

  it('refuses to fire before it knows the emulator it adds faults to', () => {
    const unattached = new CrashPoints();
    unattached.arm(
      () => true,
      () => undefined,
    );
    expect(() => unattached.onRequest(emulator.admin.requests()[0]!, undefined)).toThrow(
      'crash points: arm() before attach()',
    );
  });
});
