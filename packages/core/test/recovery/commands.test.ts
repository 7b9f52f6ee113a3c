/**
 * The reconcile and cancel commands through the consume-approval stage in-process (its settings straight
 * in, the real Octokit against the emulator): the approval's rules (exact bytes, human author, live
 * role, unedited, one-time), the bad-comment corpus, the ledger record with the human's ID and the
 * status comment that shows it; and a cancelled run that makes no further write.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCommand } from '../../src/command/grammar.js';
import { WritError } from '../../src/errors.js';
import { claimStep, readRun } from '../../src/ledger/ledger.js';
import type { RunFile } from '../../src/ledger/types.js';
import { silentLogger } from '../../src/redact.js';
import type { StageDeps } from '../../src/stages/connect.js';
import type { ConsumeApprovalStageSettings } from '../../src/stages/consume-approval.js';
import { consumeApprovalStage } from '../../src/stages/consume-approval.js';
import { systemClock } from '../../src/ledger/cas.js';
import { BAD_COMMANDS, CANONICAL, HEX, RUN } from '../../../../test/fixtures/approval-corpus.js';
import type { SliceWorld } from '../../../../test/support/world.js';
import {
  APP_SLUG,
  OWNER,
  PEOPLE,
  REPO,
  REPOSITORY,
  client,
  patOf,
  sliceWorld,
} from '../../../../test/support/world.js';
import { approvedRun, expireLeases, freshPlan, mintSweeperTokens, sweep, sweeperLedger } from './support.js';

let world: SliceWorld;
const dir = mkdtempSync(join(tmpdir(), 'writ-commands-'));

// A fresh repository per test: the one repository-wide lease makes runs of one test wait on another's.
beforeEach(async () => {
  world = await sliceWorld({ seed: 31 });
  mintSweeperTokens(world);
});
afterEach(async () => {
  await world.close();
});

function deps(): StageDeps {
  const { github, ledger } = sweeperLedger(world);
  return { github, ledger, clock: systemClock, logger: silentLogger, ownLogin: `${APP_SLUG}[bot]` };
}

function settings(commentId: number, planFile: string): ConsumeApprovalStageSettings {
  return {
    apiUrl: world.emulator.url,
    repository: { owner: OWNER, repo: REPO, full: REPOSITORY },
    commentId,
    dryRun: false,
    commandPrefix: 'writ',
    ledger: {
      token: 'unused',
      branch: 'bot/writ-ledger',
      app: { slug: APP_SLUG, id: world.appId },
      leaseMs: 600_000,
    },
    planFile,
    planRoots: { workspace: dir, runnerTemp: tmpdir() },
    allowedRoles: ['admin', 'maintain', 'write'],
    requireDistinctApprover: false,
    holder: { workflow_run_id: 3131, attempt: 1 },
  };
}

async function post(login: string, body: string, issue: number): Promise<number> {
  const event = await world.comment({ login }, body, issue);
  return (event.comment as { id: number }).id;
}

async function consume(commentId: number, planFile: string): Promise<{ outcome: string; reason: string }> {
  try {
    const result = await consumeApprovalStage(settings(commentId, planFile), deps());
    return { outcome: String(result.outputs.outcome), reason: '' };
  } catch (error: unknown) {
    if (error instanceof WritError) return { outcome: 'refused', reason: error.code };
    throw error;
  }
}

async function runFile(runId: string): Promise<RunFile> {
  return (await readRun(sweeperLedger(world).ledger, runId)).run as RunFile;
}

/** A run stopped at needs-reconciliation: its holder died with the first step claimed. */
async function stoppedRun(name: string): Promise<{ runId: string; issue: number; planFile: string }> {
  const planFile = freshPlan(dir, name);
  const holder = { workflow_run_id: 4343, attempt: 1 };
  const { runId, issue, epoch } = await approvedRun(world, planFile, holder);
  const first = (await runFile(runId)).steps[0]!.id;
  await claimStep(sweeperLedger(world).ledger, {
    runId,
    stepId: first,
    epoch,
    holder: { run_id: runId, ...holder },
  });
  expireLeases(world);
  await sweep(world, { planFile });
  expect((await runFile(runId)).state).toBe('needs-reconciliation');
  return { runId, issue, planFile };
}

describe('the command grammar', () => {
  it('parses reconcile and cancel exactly, with one optional trailing newline', () => {
    for (const end of ['', '\n', '\r\n']) {
      expect(parseCommand(`writ: reconcile ${RUN} step-1 retry${end}`, 'writ')).toEqual({
        kind: 'reconcile',
        prefix: 'writ',
        runId: RUN,
        stepId: 'step-1',
        decision: 'retry',
      });
      expect(parseCommand(`writ: cancel ${RUN}${end}`, 'writ')).toEqual({
        kind: 'cancel',
        prefix: 'writ',
        runId: RUN,
      });
    }
  });

  // Every class of the approval corpus, applied to the reconcile and the cancel command.
  const variants = (replacement: string): [string, string][] =>
    BAD_COMMANDS.map(([name, body]) => [
      name,
      body
        .split(CANONICAL)
        .join(replacement)
        .replace(`approve ${RUN} ${HEX}`, replacement.slice(6))
        .replace('approve', replacement.slice(6).split(' ')[0]!),
    ]);
  it.each([
    ...variants(`writ: reconcile ${RUN} step-1 done`).map(
      ([name, body]) => [`reconcile: ${name}`, body] as const,
    ),
    ...variants(`writ: cancel ${RUN}`).map(([name, body]) => [`cancel: ${name}`, body] as const),
  ])('refuses %s with malformed-command', (_name, body) => {
    let code: string | undefined;
    try {
      const command = parseCommand(body, 'writ');
      // A mutation that still parses must not name the same command (e.g. a longer digest is another run).
      code = command.kind === 'approve' ? 'approve' : `${command.kind}:${command.runId}`;
    } catch (error: unknown) {
      code = error instanceof WritError ? error.code : 'not-a-writ-error';
    }
    expect([`reconcile:${RUN}`, `cancel:${RUN}`]).not.toContain(code);
  });

  it('refuses a reconcile with an unknown decision, a bad step ID or an extra argument', () => {
    for (const body of [
      `writ: reconcile ${RUN} step-1 skip`,
      `writ: reconcile ${RUN} Step-1 done`,
      `writ: reconcile ${RUN} ../x done`,
      `writ: reconcile ${RUN} step-1`,
      `writ: reconcile ${RUN} step-1 done now`,
      `writ: cancel ${RUN} now`,
      `writ: cancel`,
    ]) {
      expect(() => parseCommand(body, 'writ')).toThrow(WritError);
    }
  });
});

describe('reconcile and cancel through the issue-comment workflow', () => {
  it('records a writer’s retry with their ID, resumes the run and shows it on the status comment', async () => {
    const { runId, issue, planFile } = await stoppedRun('retry');
    const step = (await runFile(runId)).steps[0]!.id;
    const id = await post(PEOPLE.write, `writ: reconcile ${runId} ${step} retry`, issue);
    expect(await consume(id, planFile)).toEqual({ outcome: 'reconciled', reason: '' });
    const run = await runFile(runId);
    expect(run.state).toBe('running');
    expect(run.steps[0]).toMatchObject({
      status: 'pending',
      reconciled_by: { actor_login: PEOPLE.write, actor_id: world.ids[PEOPLE.write], role_name: 'write' },
    });
    const { data } = await client(world.emulator, patOf(PEOPLE.admin)).rest.issues.listComments({
      owner: OWNER,
      repo: REPO,
      issue_number: issue,
    });
    const status = data.find((comment) => comment.body?.includes(`writ-status run=${runId}`));
    expect(status?.body).toContain(`reconciled as \`pending\` by @${PEOPLE.write}`);
    // One-time: the same comment again is a tombstone.
    expect(await consume(id, planFile)).toEqual({ outcome: 'refused', reason: 'approval-already-consumed' });
  });

  it('refuses a reconcile from a reader, a triager, an app, an edited comment, and a run that is not stopped', async () => {
    const { runId, issue, planFile } = await stoppedRun('refusals');
    const step = (await runFile(runId)).steps[0]!.id;
    const command = `writ: reconcile ${runId} ${step} done`;
    expect(await consume(await post(PEOPLE.read, command, issue), planFile)).toMatchObject({
      reason: 'insufficient-permission',
    });
    expect(await consume(await post(PEOPLE.triage, command, issue), planFile)).toMatchObject({
      reason: 'insufficient-permission',
    });
    const app = await world.comment({ app: 'helpful-bot' }, command, issue);
    expect(await consume((app.comment as { id: number }).id, planFile)).toMatchObject({
      reason: 'unauthorized-approval',
    });
    const edited = await post(PEOPLE.maintain, command, issue);
    world.emulator.admin.clock({ advance_ms: 3_000 });
    await client(world.emulator, patOf(PEOPLE.maintain)).rest.issues.updateComment({
      owner: OWNER,
      repo: REPO,
      comment_id: edited,
      body: command,
    });
    expect(await consume(edited, planFile)).toMatchObject({ reason: 'approval-comment-edited' });
    expect((await runFile(runId)).state).toBe('needs-reconciliation');
    expect(
      await consume(await post(PEOPLE.write, `writ: reconcile ${runId} no-such-step done`, issue), planFile),
    ).toMatchObject({
      reason: 'invalid-transition',
    });
  });

  it('refuses every class of the bad-comment corpus as a reconcile or cancel comment, writing nothing', async () => {
    const { runId, issue, planFile } = await stoppedRun('corpus');
    const head = (await readRun(sweeperLedger(world).ledger, runId)).headOid;
    const bodies = BAD_COMMANDS.flatMap(([name, body]) => [
      [
        `reconcile ${name}`,
        body.split(CANONICAL).join(`writ: reconcile ${runId} x done`).replace(' approve ', ' reconcile '),
      ],
      [
        `cancel ${name}`,
        body.split(CANONICAL).join(`writ: cancel ${runId}`).replace(' approve ', ' cancel '),
      ],
    ]);
    const results: Record<string, string> = {};
    for (let i = 0; i < bodies.length; i += 8) {
      await Promise.all(
        bodies.slice(i, i + 8).map(async ([name, body]) => {
          let id: number;
          try {
            id = await post(PEOPLE.write, body!, issue);
          } catch (error: unknown) {
            results[name!] = `github-refused-${String((error as { status?: number }).status)}`;
            return;
          }
          results[name!] = (await consume(id, planFile)).reason;
        }),
      );
    }
    // `cancel <run>0` ("long digest") is a well-formed cancel of another run: refused as run-not-found.
    const unexpected = Object.entries(results).filter(
      ([name, code]) =>
        code !== 'malformed-command' &&
        !code.startsWith('github-refused-4') &&
        !(name === 'cancel long digest' && code === 'run-not-found'),
    );
    expect(unexpected).toEqual([]);
    expect(
      Object.values(results).filter((code) => code === 'malformed-command').length,
    ).toBeGreaterThanOrEqual(80);
    expect((await readRun(sweeperLedger(world).ledger, runId)).headOid).toBe(head);
    expect((await runFile(runId)).state).toBe('needs-reconciliation');
  });

  it('cancels a run for a writer: it makes no further write, and recovery leaves it alone', async () => {
    const { runId, issue, planFile } = await stoppedRun('cancel');
    const id = await post(PEOPLE.maintain, `writ: cancel ${runId}`, issue);
    expect(await consume(id, planFile)).toEqual({ outcome: 'cancelled', reason: '' });
    const run = await runFile(runId);
    expect(run).toMatchObject({ state: 'cancelled', cancelled_by: { actor_login: PEOPLE.maintain } });
    const holder = { run_id: runId, workflow_run_id: 4343, attempt: 1 };
    const { ledger } = sweeperLedger(world);
    const later = run.steps.find((step) => step.status === 'pending')!;
    await expect(
      claimStep(ledger, { runId, stepId: later.id, epoch: run.owner!.epoch, holder }),
    ).rejects.toMatchObject({
      code: 'invalid-transition',
    });
    expireLeases(world);
    const report = await sweep(world, { planFile });
    expect(report.runs.find((entry) => entry.runId === runId)).toBeUndefined();
    expect(
      await consume(await post(PEOPLE.maintain, `writ: cancel ${runId}`, issue), planFile),
    ).toMatchObject({
      reason: 'invalid-transition',
    });
  });
});
