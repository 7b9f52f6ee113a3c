/** The probe bundle run as the runner runs it, against the emulator: the guard, the dry run, a full run. */
import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { ProbeEvidence } from '@writ/core/probe/evidence.js';
import { evidenceProblems } from '@writ/core/probe/evidence.js';
import type { ProbeWorld } from '../../packages/core/test/probe/support.js';
import {
  CURRENT,
  REPOSITORY_TOKEN,
  SANDBOX,
  SANDBOX_TOKEN,
  probeWorld,
} from '../../packages/core/test/probe/support.js';
import { runAction } from '../support/run-action.js';
import { requestLog } from '../support/world.js';

let world: ProbeWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function run(w: ProbeWorld, inputs: Record<string, string>, env: Record<string, string> = {}) {
  const workspace = mkdtempSync(join(tmpdir(), 'writ-probe-ws-'));
  return runAction('probe', {
    workspace,
    inputs: {
      repository: SANDBOX,
      'confirm-sandbox': SANDBOX,
      token: SANDBOX_TOKEN,
      'repository-token': REPOSITORY_TOKEN,
      ...inputs,
    },
    env: { GITHUB_API_URL: w.emulator.url, GITHUB_REPOSITORY: CURRENT, GITHUB_RUN_ID: '42', ...env },
  }).then((result) => ({ ...result, workspace }));
}

describe('the probe guard refuses before any write', () => {
  const refusals: [string, Record<string, string>, Record<string, string>, string[] | null][] = [
    ['an unconfirmed sandbox', { 'confirm-sandbox': 'acme/Sandbox' }, {}, [SANDBOX]],
    ['a sandbox the allow-list does not list', {}, {}, ['acme/other']],
    ['no allow-list on the default branch', {}, {}, null],
    [
      'the repository the workflow runs in',
      { repository: CURRENT, 'confirm-sandbox': CURRENT },
      {},
      [SANDBOX],
    ],
    [
      'the running repository spelled in another case',
      { repository: 'ACME/widgets', 'confirm-sandbox': 'ACME/widgets' },
      {},
      ['ACME/widgets'],
    ],
    ['an allow-list that lists the running repository', {}, {}, [SANDBOX, 'Acme/Widgets']],
    ['an allow-list the workflow token cannot read', { 'repository-token': SANDBOX_TOKEN }, {}, [SANDBOX]],
  ];

  it.each(refusals)('%s: probe-repository-refused, zero writes', async (_name, inputs, env, allowlist) => {
    world = await probeWorld({ allowlist });
    const log = requestLog(() => world!.emulator);
    const start = log.lastSeq();
    const before = world.listing();
    const result = await run(world, { 'dry-run': 'false', ...inputs }, env);
    expect(result.outputs).toMatchObject({ outcome: 'refused', reason: 'probe-repository-refused' });
    expect(result.commands.errors[0]).toMatch(/^probe-repository-refused: /);
    expect(log.writesSince(start)).toEqual([]);
    expect(world.listing()).toEqual(before);
  });
});

describe('the probe bundle', () => {
  it('a dry run passes the guard, says what it would create and writes nothing', async () => {
    world = await probeWorld();
    const log = requestLog(() => world!.emulator);
    const start = log.lastSeq();
    const result = await run(world, {});
    expect(result.outputs).toMatchObject({ outcome: 'dry-run', reason: '' });
    expect(result.summary).toContain('dry run: nothing written');
    expect(result.summary).toContain('<!-- writ-probe run=gh-42-1 -->');
    expect(result.summary).toMatch(/case 2b: creates 2 milestones, 1 label and 1 issue/);
    expect(log.writesSince(start)).toEqual([]);
  });

  it('in the realistic world: cases 1-4 negative, primitives positive, evidence in the workspace, the sandbox left as it was', async () => {
    world = await probeWorld();
    const before = world.listing();
    const log = requestLog(() => world!.emulator);
    const start = log.lastSeq();
    const result = await run(world, { 'dry-run': 'false' }, { GITHUB_ACTION_REF: 'a'.repeat(40) });
    expect(result.status).toBe(0);
    expect(result.outputs).toMatchObject({
      outcome: 'probed',
      reason: '',
      cases: '1=negative,2a=negative,2b=negative,3a=negative,3b=negative,4=negative',
      primitives:
        'stale-expected-head-oid=positive,create-ref-existing=positive,update-refs-stale-before-oid=positive,update-ref-non-fast-forward=positive',
      opens: '',
      'cleanup-left': '0',
    });
    const sent = world.emulator.admin.requests().filter((r) => r.seq > start);
    // The guard's five reads (the running repository and its allow-list, the sandbox, and the running
    // repository by name and by ID with the sandbox token, each a 404) plus what the probe counts itself.
    expect(sent).toHaveLength(Number(result.outputs.requests) + 5);
    const path = join(result.workspace, '.writ/probe-evidence.json');
    expect(result.outputs['evidence-file']).toBe(path);
    const evidence = JSON.parse(readFileSync(path, 'utf8')) as ProbeEvidence;
    expect(evidenceProblems(evidence)).toEqual([]);
    expect(evidence).toMatchObject({ probe_run: 'gh-42-1', writ: { commit: 'a'.repeat(40) } });
    expect(result.summary).toContain(
      '| 2b | issue milestone change after an external pin-label change | **negative** |',
    );
    expect(result.summary).toContain('`issue.create`: stays closed: case 4 negative');
    expect(world.listing()).toEqual(before);
  });

  it('refuses an evidence file that leads out of the workspace', async () => {
    world = await probeWorld();
    const outside = mkdtempSync(join(tmpdir(), 'writ-probe-out-'));
    const workspace = mkdtempSync(join(tmpdir(), 'writ-probe-ws-'));
    symlinkSync(outside, join(workspace, 'out'));
    const result = await runAction('probe', {
      workspace,
      inputs: {
        repository: SANDBOX,
        'confirm-sandbox': SANDBOX,
        token: SANDBOX_TOKEN,
        'repository-token': REPOSITORY_TOKEN,
        'dry-run': 'false',
        cases: 'create-ref-existing',
        'evidence-file': 'out/evidence.json',
      },
      env: { GITHUB_API_URL: world.emulator.url, GITHUB_REPOSITORY: CURRENT },
    });
    expect(result.outputs).toMatchObject({ outcome: 'refused', reason: 'output-write-failed' });
    const traversal = await run(world, { 'evidence-file': '../evidence.json' });
    expect(traversal.outputs).toMatchObject({ outcome: 'refused', reason: 'invalid-input' });
  });
});
