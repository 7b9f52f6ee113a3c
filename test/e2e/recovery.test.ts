/**
 * The recovery and comment-command bundles, run as the runner runs them: a sweep that takes over an
 * expired run and lists it for persist, its dry-run default, and a cancel command after which the run's
 * claim and publish are refused and nothing is written to GitHub.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SliceWorld } from '../support/world.js';
import { PEOPLE, requestLog, sliceWorld } from '../support/world.js';
import {
  SWEEPER_TOKEN,
  approvedRun,
  expireLeases,
  freshPlan,
  mintSweeperTokens,
} from '../../packages/core/test/recovery/support.js';

let world: SliceWorld;
const dir = mkdtempSync(join(tmpdir(), 'writ-e2e-recovery-'));
let plans = 0;

beforeEach(async () => {
  world = await sliceWorld({ seed: 51 });
  mintSweeperTokens(world);
});
afterEach(async () => {
  await world.close();
});

function inputs(extra: Record<string, string> = {}): Record<string, string> {
  return { ...world.ledgerInputs(), token: SWEEPER_TOKEN, ...extra };
}

function plan(): string {
  plans += 1;
  return freshPlan(dir, `e2e-${plans}`);
}

describe('the recovery action', () => {
  it('takes over an expired run whose holder is gone and lists it in resumable-runs', async () => {
    const planFile = plan();
    const { runId } = await approvedRun(world, planFile, { workflow_run_id: 6161, attempt: 1 });
    expireLeases(world);
    const swept = await world.run('recovery', inputs({ 'plan-file': planFile, 'dry-run': 'false' }));
    expect(swept.outputs).toMatchObject({
      outcome: 'swept',
      reason: '',
      scanned: '1',
      'taken-over': '1',
      reconciled: '0',
      'needs-reconciliation': '0',
      'approvals-recovered': '0',
    });
    expect(JSON.parse(swept.outputs['resumable-runs']!)).toEqual([{ run_id: runId, epoch: 2 }]);
    expect(swept.summary).toContain(`| \`${runId}\` | approved | approved | taken-over | \`resumable\` |`);
    const again = await world.run('recovery', inputs({ 'plan-file': planFile, 'dry-run': 'false' }));
    expect(again.outputs).toMatchObject({ 'taken-over': '0', 'resumable-runs': '[]' });
    expect(again.summary).toContain('`lease-unexpired`');
  });

  it('is a dry run by default: it reports and writes nothing', async () => {
    const planFile = plan();
    await approvedRun(world, planFile, { workflow_run_id: 6162, attempt: 1 });
    expireLeases(world);
    const head = await world.head();
    const { lastSeq, writesSince } = requestLog(() => world.emulator);
    const seq = lastSeq();
    const swept = await world.run('recovery', inputs({ 'plan-file': planFile }));
    expect(swept.outputs).toMatchObject({ outcome: 'dry-run', 'taken-over': '1', 'resumable-runs': '[]' });
    expect(writesSince(seq)).toEqual([]);
    expect(await world.head()).toBe(head);
  });

  it('refuses an invalid input with its code', async () => {
    const swept = await world.run('recovery', inputs({ 'command-prefix': 'Not A Prefix' }));
    expect(swept.outputs).toMatchObject({ outcome: 'refused', reason: 'invalid-input' });
  });
});

describe('a cancel command through the issue-comment workflow', () => {
  it('cancels the run; its claim and its publish are then refused and nothing reaches GitHub', async () => {
    const planFile = plan();
    const holder = { workflow_run_id: 6163, attempt: 1 };
    const { runId, issue, epoch } = await approvedRun(world, planFile, holder);
    const event = await world.comment({ login: PEOPLE.maintain }, `writ: cancel ${runId}`, issue);
    const cancelled = await world.run(
      'consume-approval',
      { 'plan-file': planFile, 'dry-run': 'false', ...world.ledgerInputs() },
      { event },
    );
    expect(cancelled.outputs).toMatchObject({ outcome: 'cancelled', 'run-id': runId, reason: '' });
    expect((await world.runFile(runId))?.cancelled_by?.actor_login).toBe(PEOPLE.maintain);

    const { lastSeq, writesSince } = requestLog(() => world.emulator);
    const seq = lastSeq();
    const env = { GITHUB_RUN_ID: String(holder.workflow_run_id), GITHUB_RUN_ATTEMPT: '1' };
    const claim = await world.run(
      'claim-checkpoint',
      {
        operation: 'claim',
        'run-id': runId,
        'step-id': (await world.runFile(runId))!.steps[0]!.id,
        epoch: String(epoch),
        'dry-run': 'false',
        ...world.ledgerInputs(),
      },
      { env },
    );
    expect(claim.outputs).toMatchObject({ outcome: 'refused', reason: 'invalid-transition' });
    const content = join(dir, `content-${plans}.md`);
    writeFileSync(content, '# roadmap\n');
    const publish = await world.run(
      'publish-artifact',
      {
        'run-id': runId,
        epoch: String(epoch),
        'plan-file': planFile,
        path: 'docs/reference/roadmap.md',
        'content-file': content,
        'dry-run': 'false',
        ...world.ledgerInputs(),
      },
      { env: { ...env, RUNNER_TEMP: dir } },
    );
    expect(publish.outputs.outcome).toBe('refused');
    expect(writesSince(seq)).toEqual([]);
  });
});
