/**
 * "Unedited" is GitHub's edit record, not a timestamp comparison (issue 26, class 5). Against the
 * emulator with the real Octokit, through the one verification every command passes — the
 * consume-approval stage for approve, cancel and reconcile, and recovery's lost-approval scan — a
 * comment edited into a command within the second it was posted (REST `updated_at === created_at`) is
 * refused, as is one edited by someone else and one edited and then edited back to its original text;
 * the same command never edited is accepted; and when GitHub's edit record cannot be read the comment is
 * refused as not judged (`github-request-failed`), never accepted.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WritError } from '../../src/errors.js';
import { verifyLedger } from '../../src/ledger/bootstrap.js';
import { claimStep, readRun } from '../../src/ledger/ledger.js';
import type { RunFile } from '../../src/ledger/types.js';
import { silentLogger } from '../../src/redact.js';
import type { StageDeps } from '../../src/stages/connect.js';
import type { ConsumeApprovalStageSettings } from '../../src/stages/consume-approval.js';
import { consumeApprovalStage } from '../../src/stages/consume-approval.js';
import { systemClock } from '../../src/ledger/cas.js';
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
import {
  approvedRun,
  expireLeases,
  freshPlan,
  mintSweeperTokens,
  proposeWithStatus,
  sweep,
  sweeperLedger,
} from './support.js';

let world: SliceWorld;
const dir = mkdtempSync(join(tmpdir(), 'writ-edit-record-'));

beforeEach(async () => {
  world = await sliceWorld({ seed: 26 });
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
    holder: { workflow_run_id: 2626, attempt: 1 },
  };
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

async function post(login: string, body: string, issue: number): Promise<number> {
  const { data } = await client(world.emulator, patOf(login)).rest.issues.createComment({
    owner: OWNER,
    repo: REPO,
    issue_number: issue,
    body,
  });
  return data.id;
}

async function edit(login: string, commentId: number, body: string): Promise<void> {
  await client(world.emulator, patOf(login)).rest.issues.updateComment({
    owner: OWNER,
    repo: REPO,
    comment_id: commentId,
    body,
  });
}

/**
 * Runs `write` with the emulator's clock frozen, so every comment it posts and edits carries the same
 * second; asserts REST shows each of `ids()` as unedited by its timestamps (what the old check read).
 */
async function inOneSecond<T>(write: () => Promise<T>, ids: (value: T) => number[]): Promise<T> {
  world.emulator.admin.clock({ freeze: true });
  let value: T;
  try {
    value = await write();
  } finally {
    world.emulator.admin.clock({ freeze: false });
  }
  for (const id of ids(value)) {
    const { data } = await client(world.emulator, patOf(PEOPLE.admin)).rest.issues.getComment({
      owner: OWNER,
      repo: REPO,
      comment_id: id,
    });
    expect(data.updated_at).toBe(data.created_at);
  }
  return value;
}

/** The ways a comment can come to hold `command` by an edit, all within the second it was posted. */
const EDITS: [string, (command: string, issue: number) => Promise<number>][] = [
  [
    'edited into the command by its author',
    async (command, issue) => {
      const id = await post(PEOPLE.write, 'LGTM', issue);
      await edit(PEOPLE.write, id, command);
      return id;
    },
  ],
  [
    "edited into the command by an admin (another user's comment)",
    async (command, issue) => {
      const id = await post(PEOPLE.write, 'LGTM', issue);
      await edit(PEOPLE.admin, id, command);
      return id;
    },
  ],
  [
    'edited away and back to the original command',
    async (command, issue) => {
      const id = await post(PEOPLE.write, command, issue);
      await edit(PEOPLE.write, id, 'writ: cancel nothing');
      await edit(PEOPLE.write, id, command);
      return id;
    },
  ],
  [
    'edited to the very same text',
    async (command, issue) => {
      const id = await post(PEOPLE.write, command, issue);
      await edit(PEOPLE.write, id, command);
      return id;
    },
  ],
];

async function runFile(runId: string): Promise<RunFile> {
  return (await readRun(sweeperLedger(world).ledger, runId)).run as RunFile;
}

/** A run stopped at needs-reconciliation: its holder died with the first step claimed. */
async function stoppedRun(name: string): Promise<{ runId: string; issue: number; planFile: string }> {
  const planFile = freshPlan(dir, name);
  const holder = { workflow_run_id: 4646, attempt: 1 };
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

describe('an edited approve comment', () => {
  it('is refused however it was edited within the second it was posted; the same command unedited approves', async () => {
    const planFile = freshPlan(dir, 'approve');
    const { runId, issue, command } = await proposeWithStatus(world, planFile);
    const head = await world.head();
    for (const [name, make] of EDITS) {
      const id = await inOneSecond(
        () => make(command, issue),
        (value) => [value],
      );
      expect([name, await consume(id, planFile)]).toEqual([
        name,
        { outcome: 'refused', reason: 'approval-comment-edited' },
      ]);
    }
    expect(await world.head()).toBe(head);
    expect((await runFile(runId)).approval).toBeNull();
    const never = await inOneSecond(
      () => post(PEOPLE.write, command, issue),
      (value) => [value],
    );
    expect(await consume(never, planFile)).toEqual({ outcome: 'approved', reason: '' });
    expect((await runFile(runId)).approval?.comment_id).toBe(never);
  });
});

describe('an edited cancel comment', () => {
  it('is refused however it was edited within the second it was posted; the same command unedited cancels', async () => {
    const planFile = freshPlan(dir, 'cancel');
    const { runId, issue } = await proposeWithStatus(world, planFile);
    const command = `writ: cancel ${runId}`;
    for (const [name, make] of EDITS) {
      const id = await inOneSecond(
        () => make(command, issue),
        (value) => [value],
      );
      expect([name, await consume(id, planFile)]).toEqual([
        name,
        { outcome: 'refused', reason: 'approval-comment-edited' },
      ]);
      expect((await runFile(runId)).state).toBe('proposed');
    }
    const never = await inOneSecond(
      () => post(PEOPLE.write, command, issue),
      (value) => [value],
    );
    expect(await consume(never, planFile)).toEqual({ outcome: 'cancelled', reason: '' });
    expect((await runFile(runId)).state).toBe('cancelled');
  });
});

describe('an edited reconcile comment', () => {
  it('is refused however it was edited within the second it was posted; the same command unedited reconciles', async () => {
    const { runId, issue, planFile } = await stoppedRun('reconcile');
    const step = (await runFile(runId)).steps[0]!.id;
    const command = `writ: reconcile ${runId} ${step} retry`;
    for (const [name, make] of EDITS) {
      const id = await inOneSecond(
        () => make(command, issue),
        (value) => [value],
      );
      expect([name, await consume(id, planFile)]).toEqual([
        name,
        { outcome: 'refused', reason: 'approval-comment-edited' },
      ]);
    }
    expect((await runFile(runId)).state).toBe('needs-reconciliation');
    const never = await inOneSecond(
      () => post(PEOPLE.write, command, issue),
      (value) => [value],
    );
    expect(await consume(never, planFile)).toEqual({ outcome: 'reconciled', reason: '' });
    expect((await runFile(runId)).steps[0]?.status).toBe('pending');
  });
});

describe("the ledger's replay", () => {
  it('holds an approval comment edited within the second it was posted as unverifiable, not as backing its consume', async () => {
    const planFile = freshPlan(dir, 'replay');
    const { issue, command } = await proposeWithStatus(world, planFile);
    world.emulator.admin.clock({ freeze: true });
    try {
      const id = await post(PEOPLE.write, command, issue);
      expect(await consume(id, planFile)).toEqual({ outcome: 'approved', reason: '' });
      const before = await verifyLedger(sweeperLedger(world).ledger, { mode: 'full' });
      expect(before.report.state.unverifiableApprovals).toBe(0);
      await edit(PEOPLE.write, id, command);
    } finally {
      world.emulator.admin.clock({ freeze: false });
    }
    const after = await verifyLedger(sweeperLedger(world).ledger, { mode: 'full' });
    expect(after.report.state.unverifiableApprovals).toBe(1);
  });
});

describe("recovery's lost-approval scan", () => {
  it('never consumes an approve command edited within the second it was posted, in any of the ways', async () => {
    const planFile = freshPlan(dir, 'scan');
    const { runId, issue, command } = await proposeWithStatus(world, planFile);
    await inOneSecond(
      async () => {
        const ids: number[] = [];
        for (const [, make] of EDITS) ids.push(await make(command, issue));
        return ids;
      },
      (ids) => ids,
    );
    const report = await sweep(world, { planFile });
    expect(report.runs.find((entry) => entry.runId === runId)).toMatchObject({
      action: 'approval-refused',
      reason: 'approval-comment-edited',
      after: 'proposed',
    });
    expect(report.approvalsRecovered).toBe(0);
    expect((await runFile(runId)).approval).toBeNull();
    // The same command, never edited, is recovered by the next sweep.
    const never = await post(PEOPLE.write, command, issue);
    const next = await sweep(world, { planFile });
    expect(next.runs.find((entry) => entry.runId === runId)).toMatchObject({
      action: 'approval-recovered',
    });
    expect((await runFile(runId)).approval?.comment_id).toBe(never);
  });
});

describe('when GitHub cannot show the edit record', () => {
  it.each([502, 403])(
    'refuses the command as not judged (github-request-failed) on HTTP %s, and accepts it once GitHub answers',
    async (status) => {
      const planFile = freshPlan(dir, `unreadable-${status}`);
      const { runId, issue, command } = await proposeWithStatus(world, planFile);
      const id = await post(PEOPLE.write, command, issue);
      const head = await world.head();
      world.emulator.admin.addFault({
        match: { operation: 'WritCommentEdits' },
        fault: { type: 'status', status },
        times: 20,
      });
      expect(await consume(id, planFile)).toEqual({ outcome: 'refused', reason: 'github-request-failed' });
      expect(await world.head()).toBe(head);
      // Recovery's scan reports the run failed rather than judge the comment.
      const report = await sweep(world, { planFile });
      expect(report.runs.find((entry) => entry.runId === runId)).toMatchObject({
        action: 'failed',
        reason: 'github-request-failed',
        after: 'proposed',
      });
      expect(report.approvalsRecovered).toBe(0);
      expect((await runFile(runId)).approval).toBeNull();
      world.emulator.admin.clearFaults();
      expect(await consume(id, planFile)).toEqual({ outcome: 'approved', reason: '' });
    },
  );
});
