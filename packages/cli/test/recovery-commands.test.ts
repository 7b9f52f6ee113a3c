import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimStep, readRun } from '@writ/core/ledger/ledger.js';
import { runCli } from '@writ/cli/cli.js';
import type { SliceWorld } from '../../../test/support/world.js';
import { APP_SLUG, REPOSITORY, sliceWorld } from '../../../test/support/world.js';
import {
  SWEEPER_TOKEN,
  approvedRun,
  expireLeases,
  freshPlan,
  mintSweeperTokens,
  sweep,
  sweeperLedger,
} from '../../core/test/recovery/support.js';

let world: SliceWorld;
let runId: string;
let step: string;
let env: Record<string, string>;
const dir = mkdtempSync(join(tmpdir(), 'writ-cli-recovery-'));

beforeAll(async () => {
  world = await sliceWorld({ seed: 41 });
  mintSweeperTokens(world);
  const planFile = freshPlan(dir, 'cli');
  const holder = { workflow_run_id: 5151, attempt: 1 };
  const approved = await approvedRun(world, planFile, holder);
  runId = approved.runId;
  const { ledger } = sweeperLedger(world);
  step = (await readRun(ledger, runId)).run!.steps[0]!.id;
  await claimStep(ledger, {
    runId,
    stepId: step,
    epoch: approved.epoch,
    holder: { run_id: runId, ...holder },
  });
  expireLeases(world);
  await sweep(world, { planFile });
  env = {
    GITHUB_TOKEN: SWEEPER_TOKEN,
    GITHUB_API_URL: world.emulator.url,
    GITHUB_REPOSITORY: REPOSITORY,
    WRIT_APP_SLUG: APP_SLUG,
    WRIT_APP_ID: String(world.appId),
  };
});
afterAll(async () => {
  await world.close();
});

async function writ(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, env, { stdout: (text) => (out += text), stderr: (text) => (err += text) });
  return { code, out, err };
}

describe('writ reconcile, writ cancel and writ recover', () => {
  it('writ reconcile prints the claimed steps and the exact commands to post', async () => {
    const { code, out } = await writ(['reconcile', '--run', runId]);
    expect(code).toBe(0);
    expect(out).toContain(`${step}  milestone.upsert`);
    expect(out).toContain('reason observer-unavailable');
    for (const decision of ['done', 'failed', 'retry']) {
      expect(out).toContain(`  writ: reconcile ${runId} ${step} ${decision}\n`);
    }
    const json = await writ([
      'reconcile',
      '--run',
      runId,
      '--step',
      step,
      '--decision',
      'retry',
      '--prefix',
      'ops',
      '--json',
    ]);
    expect(JSON.parse(json.out)).toEqual({
      run_id: runId,
      state: 'needs-reconciliation',
      claimed: [step],
      commands: [`ops: reconcile ${runId} ${step} retry`],
    });
  });

  it('writ reconcile refuses a step that is not claimed and a bad decision', async () => {
    expect((await writ(['reconcile', '--run', runId, '--step', 'nope'])).err).toMatch(/^invalid-input: /);
    expect((await writ(['reconcile', '--run', runId, '--decision', 'skip'])).err).toMatch(/^invalid-input: /);
    expect((await writ(['reconcile', '--run', 'no-such-run'])).err).toMatch(/^run-not-found: /);
  });

  it('writ cancel prints the cancel command and the claimed steps', async () => {
    const { code, out } = await writ(['cancel', '--run', runId]);
    expect(code).toBe(0);
    expect(out).toContain(`  writ: cancel ${runId}\n`);
    expect(out).toContain(step);
  });

  it('writ recover runs the recovery core, as a dry run unless --apply', async () => {
    const head = (await readRun(sweeperLedger(world).ledger, runId)).headOid;
    const { code, out } = await writ(['recover', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(out) as {
      dryRun: boolean;
      scanned: number;
      runs: { runId: string; after: string }[];
    };
    expect(report).toMatchObject({ dryRun: true, scanned: 1 });
    expect(report.runs[0]).toMatchObject({ runId, after: 'needs-reconciliation' });
    expect((await readRun(sweeperLedger(world).ledger, runId)).headOid).toBe(head);
    expect((await writ(['recover'])).out).toContain('## Writ recovery (dry run: nothing written)');
  });
});
