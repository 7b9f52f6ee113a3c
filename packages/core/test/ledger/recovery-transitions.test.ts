/**
 * The ledger transitions recovery and the human commands add: a takeover that applies observed
 * resolutions to claimed steps, a human reconcile that can retry a step, a cancel that fences the run,
 * one-time command comments (tombstoned like approvals) and a status comment re-reserved only once the
 * old one is gone. Each is replayed: what a writer commits, every reader re-derives.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { refusal } from '../support/code-of.js';
import { bootstrapLedger, verifyLedger } from '../../src/ledger/bootstrap.js';
import type { LedgerContext } from '../../src/ledger/cas.js';
import {
  cancelRun,
  claimStep,
  consumeApproval,
  createLedgerContext,
  readRun,
  recordArtifactPublish,
  recordStatusComment,
  reconcileStep,
  takeoverRun,
} from '../../src/ledger/ledger.js';
import type { Actor, Holder } from '../../src/ledger/types.js';
import { APP, MemoryLedgerStore, holdersFinished, instantClock } from './support/memory-store.js';
import { HOLDER, approvalFor, proposePlanFor, recomputed } from './support/fixtures.js';

const policy = { leaseMs: 60_000, graceMs: 10_000 };
const me: Holder = { run_id: 'run-1', ...HOLDER };
const SWEEPER = { workflow_run_id: 9100, attempt: 1 };
const WRITER: Actor = { actor_login: 'wren', actor_id: 777, role_name: 'write' };

let store: MemoryLedgerStore;
let ledger: LedgerContext;

beforeEach(async () => {
  store = new MemoryLedgerStore();
  ledger = createLedgerContext(
    { github: store, clock: instantClock, liveness: holdersFinished },
    { repository: 'acme/widgets', app: APP, policy, seed: 1 },
  );
  await bootstrapLedger(ledger, { apply: true });
});

async function approvedRun(): Promise<void> {
  const plan = await proposePlanFor(ledger, 'run-1');
  await consumeApproval(ledger, {
    runId: 'run-1',
    approval: approvalFor(plan),
    plan: recomputed(plan),
    holder: HOLDER,
  });
}

/** Approved, step-1 and then step-2 claimed (step-1 checkpointed in between is not needed: one claim). */
async function claimedRun(): Promise<void> {
  await approvedRun();
  await claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me });
}

function expire(): void {
  store.now += policy.leaseMs + policy.graceMs + 1;
}

/** A human's command comment as GitHub would hold it (what replay re-reads). */
function commented(id: number, body: string, userId = WRITER.actor_id): void {
  store.comments.set(id, {
    userId,
    body,
    htmlUrl: `https://github.com/acme/widgets/issues/7#issuecomment-${id}`,
    edited: false,
  });
}

async function proven(): Promise<void> {
  await verifyLedger(ledger, { mode: 'full' });
}

describe('takeover with observed resolutions', () => {
  it('marks a claimed step whose desired state was observed done with its resources', async () => {
    await claimedRun();
    expire();
    const outcome = await takeoverRun(ledger, {
      runId: 'run-1',
      holder: SWEEPER,
      resolutions: { 'step-1': { state: 'desired', resources: [42] } },
    });
    const run = outcome.result.run!;
    expect(run.steps[0]).toMatchObject({ status: 'done', resources: [42], epoch: 1 });
    expect(run.state).toBe('running');
    expect(outcome.result.lease).toMatchObject({ epoch: 2, holder: { run_id: 'run-1', ...SWEEPER } });
    expect(run.approval?.epoch).toBe(1); // the approval is never re-consumed
    await proven();
  });

  it('puts a claimed step whose pre-state was observed unchanged back to pending', async () => {
    await claimedRun();
    expire();
    const outcome = await takeoverRun(ledger, {
      runId: 'run-1',
      holder: SWEEPER,
      resolutions: { 'step-1': { state: 'pre-state' } },
    });
    expect(outcome.result.run!.steps[0]).toMatchObject({ status: 'pending', epoch: null, evidence: null });
    expect(outcome.result.needsReconciliation).toBe(false);
    // The new holder claims it again at its own epoch.
    await claimStep(ledger, {
      runId: 'run-1',
      stepId: 'step-1',
      epoch: 2,
      holder: { run_id: 'run-1', ...SWEEPER },
    });
    await proven();
  });

  it('stops at needs-reconciliation with the reason on the step when the outcome is unknown', async () => {
    await claimedRun();
    expire();
    const outcome = await takeoverRun(ledger, {
      runId: 'run-1',
      holder: SWEEPER,
      resolutions: { 'step-1': { state: 'unknown', reason: 'observer-unavailable' } },
    });
    const run = outcome.result.run!;
    expect(run.state).toBe('needs-reconciliation');
    expect(run.steps[0]).toMatchObject({
      status: 'claimed',
      evidence: { status_code: null, error_code: 'observer-unavailable' },
    });
    expect(outcome.result.lease).toMatchObject({ epoch: 2, holder: null });
    await proven();
  });

  it('takes over a run at needs-reconciliation only when a resolution settles a claimed step', async () => {
    await claimedRun();
    expire();
    await takeoverRun(ledger, { runId: 'run-1', holder: SWEEPER });
    expect(
      await refusal(
        takeoverRun(ledger, {
          runId: 'run-1',
          holder: SWEEPER,
          resolutions: { 'step-1': { state: 'unknown', reason: 'observer-unavailable' } },
        }),
      ),
    ).toBe('needs-reconciliation');
    const outcome = await takeoverRun(ledger, {
      runId: 'run-1',
      holder: { workflow_run_id: 9101, attempt: 1 },
      resolutions: { 'step-1': { state: 'desired', resources: [7] } },
    });
    expect(outcome.result.run).toMatchObject({ state: 'running', stop_reason: null, blockers: [] });
    expect(outcome.result.epoch).toBe(3);
    await proven();
  });

  it('is refused while the lease plus grace has not expired on the server clock', async () => {
    await claimedRun();
    store.now += policy.leaseMs + policy.graceMs - 1;
    expect(await refusal(takeoverRun(ledger, { runId: 'run-1', holder: SWEEPER }))).toBe(
      'repository-lease-held',
    );
  });

  it('refuses a forged takeover whose resolution replay cannot re-derive', async () => {
    await claimedRun();
    expire();
    const outcome = await takeoverRun(
      ledger,
      { runId: 'run-1', holder: SWEEPER, resolutions: { 'step-1': { state: 'desired', resources: [42] } } },
      { dryRun: true },
    );
    const files: Record<string, string> = {};
    for (const file of outcome.commit.additions) files[file.path] = file.contents;
    const path = 'runs/acme--widgets/run-1.json';
    const run = JSON.parse(files[path]!) as { steps: { status: string; evidence: unknown }[] };
    run.steps[0]!.evidence = { status_code: 201, error_code: null }; // not what a resolution writes
    files[path] = `${JSON.stringify(run, null, 2)}\n`;
    store.append(files, `${outcome.commit.headline}\n\n${outcome.commit.body}`);
    expect(await refusal(verifyLedger(ledger, { mode: 'full' }))).toBe('ledger-provenance-unproven');
  });
});

describe('human reconcile and cancel', () => {
  async function stoppedRun(): Promise<void> {
    await claimedRun();
    expire();
    await takeoverRun(ledger, { runId: 'run-1', holder: SWEEPER });
  }

  it('retries a step (back to pending) for a writer, records them and tombstones the comment', async () => {
    await stoppedRun();
    commented(5001, 'writ: reconcile run-1 step-1 retry');
    const outcome = await reconcileStep(ledger, {
      runId: 'run-1',
      stepId: 'step-1',
      actor: WRITER,
      outcome: 'pending',
      evidence: { status_code: null, error_code: null },
      commentId: 5001,
    });
    expect(outcome.result.run!.steps[0]).toMatchObject({ status: 'pending', reconciled_by: WRITER });
    expect(outcome.result.run!.state).toBe('running');
    expect(outcome.result.commentId).toBe(5001);
    const { report } = await verifyLedger(ledger, { mode: 'full' });
    expect(report.consumedCommentIds.has(5001)).toBe(true);
  });

  it('refuses a command comment already consumed (one-time)', async () => {
    await stoppedRun();
    commented(5001, 'writ: cancel run-1');
    await cancelRun(ledger, { runId: 'run-1', actor: WRITER, commentId: 5001 });
    await proposePlanFor(ledger, 'run-2');
    expect(await refusal(cancelRun(ledger, { runId: 'run-2', actor: WRITER, commentId: 5001 }))).toBe(
      'approval-already-consumed',
    );
  });

  it('refuses replay of a reconcile whose comment holds another command', async () => {
    await stoppedRun();
    commented(5002, 'writ: reconcile run-1 step-1 failed');
    await reconcileStep(ledger, {
      runId: 'run-1',
      stepId: 'step-1',
      actor: WRITER,
      outcome: 'done',
      evidence: { status_code: null, error_code: null },
      commentId: 5002,
    });
    expect(await refusal(verifyLedger(ledger, { mode: 'full' }))).toBe('ledger-provenance-unproven');
  });

  it('refuses replay of a command comment by someone else than the recorded writer', async () => {
    await stoppedRun();
    commented(5003, 'writ: cancel run-1', 12345);
    await cancelRun(ledger, { runId: 'run-1', actor: WRITER, commentId: 5003 });
    expect(await refusal(verifyLedger(ledger, { mode: 'full' }))).toBe('ledger-provenance-unproven');
  });

  it('counts a deleted command comment as unverifiable, not as a forgery', async () => {
    await stoppedRun();
    commented(5004, 'writ: cancel run-1');
    await cancelRun(ledger, { runId: 'run-1', actor: WRITER, commentId: 5004 });
    store.comments.delete(5004);
    const { report } = await verifyLedger(ledger, { mode: 'full' });
    expect(report.state.unverifiableApprovals).toBe(1);
  });

  it('cancels a running run: the lease is freed at epoch + 1 and the old holder can claim nothing', async () => {
    await approvedRun();
    commented(5005, 'writ: cancel run-1');
    const outcome = await cancelRun(ledger, { runId: 'run-1', actor: WRITER, commentId: 5005 });
    expect(outcome.result.run).toMatchObject({
      state: 'cancelled',
      stop_reason: 'cancelled',
      cancelled_by: WRITER,
    });
    expect(outcome.result.lease).toMatchObject({ epoch: 2, holder: null });
    expect(await refusal(claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me }))).toBe(
      'invalid-transition',
    );
    expect(
      await refusal(
        recordArtifactPublish(ledger, {
          runId: 'run-1',
          artifact: {
            commit_oid: 'a'.repeat(40),
            pr_number: 3,
            content_digest: `sha256:${'b'.repeat(64)}`,
            epoch: 1,
          },
          holder: me,
        }),
      ),
    ).toBe('invalid-transition');
    expect(await refusal(cancelRun(ledger, { runId: 'run-1', actor: WRITER, commentId: 5006 }))).toBe(
      'invalid-transition',
    );
    await proven();
  });

  it('cancels a proposed run without touching the lease, and refuses a reader', async () => {
    await proposePlanFor(ledger, 'run-1');
    expect(
      await refusal(
        cancelRun(ledger, { runId: 'run-1', actor: { ...WRITER, role_name: 'read' }, commentId: null }),
      ),
    ).toBe('insufficient-permission');
    const outcome = await cancelRun(ledger, { runId: 'run-1', actor: WRITER, commentId: null });
    expect(outcome.result.lease).toBeNull();
    expect((await readRun(ledger, 'run-1')).run?.state).toBe('cancelled');
    await proven();
  });
});

describe('status comment re-reservation', () => {
  const record = (commentId: number | null) =>
    recordStatusComment(ledger, {
      runId: 'run-1',
      statusComment: { issue_number: 7, comment_id: commentId, body_digest: null, pending_digest: null },
    });

  it('re-reserves the identity of a deleted status comment, and replay proves it was gone', async () => {
    await proposePlanFor(ledger, 'run-1');
    await record(3001);
    expect(await refusal(record(3002))).toBe('invalid-transition');
    await record(null);
    await record(3002);
    await proven();
  });

  it('refuses a re-reservation while the recorded comment still exists', async () => {
    await proposePlanFor(ledger, 'run-1');
    await record(3001);
    commented(3001, '<!-- writ-status run=run-1 -->', 1);
    await record(null);
    expect(await refusal(verifyLedger(ledger, { mode: 'full' }))).toBe('ledger-provenance-unproven');
  });
});
