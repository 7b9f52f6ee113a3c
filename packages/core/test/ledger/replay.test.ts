/**
 * The attacker holds the Writ app's token (it is in every Writ job), so every forged commit below is
 * app-authored and verified, on a branch the rulesets let the app append to. Each forgery starts from
 * the exact commit a legal transition would make (its checkpoint included) and changes one thing; the
 * replay must name it `ledger-provenance-unproven` in the full check, in the incremental check every
 * gate makes, and in the next writer — which then writes nothing.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { refusalError } from '../support/code-of.js';
import { bootstrapLedger, verifyLedger } from '../../src/ledger/bootstrap.js';
import type { LedgerContext, TransitionOutcome } from '../../src/ledger/cas.js';
import {
  checkpointStep,
  claimStep,
  completeRun,
  consumeApproval,
  createLedgerContext,
  proposeRun,
  readVerifiedRun,
  recordStatusComment,
  releaseLease,
} from '../../src/ledger/ledger.js';
import { LEASE_PATH, LEDGER_ROOT_PATH, PROVENANCE_PATH } from '../../src/ledger/paths.js';
import type { Holder, Lease, ProvenanceCheckpoint, RunFile } from '../../src/ledger/types.js';
import { APP, MemoryLedgerStore, holdersFinished, instantClock } from './support/memory-store.js';
import { HOLDER, approvalFor, planFor, proposalOf, proposePlanFor, recomputed } from './support/fixtures.js';

const RUN_PATH = 'runs/acme--widgets/run-1.json';
const policy = { leaseMs: 60_000, graceMs: 10_000 };
const me: Holder = { run_id: 'run-1', ...HOLDER };

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

type Files = Record<string, string>;

/** The files and message of a legal transition's commit, as the dry run computed them. */
function planned(outcome: TransitionOutcome): { files: Files; message: string } {
  const files: Files = {};
  for (const file of outcome.commit.additions) files[file.path] = file.contents;
  return { files, message: `${outcome.commit.headline}\n\n${outcome.commit.body}` };
}

// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- T names the file's shape at each call
function edit<T>(text: string, change: (value: T) => void): string {
  const value = JSON.parse(text) as T;
  change(value);
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Re-serializes the way the ledger does (schemas.ts), so only the content differs. */
function same(text: string): string {
  return edit(text, () => undefined);
}

/** Appends a forged commit as the app and proves every reader and writer refuses it. */
async function expectForgeryRefused(files: Files, message: string, because?: RegExp): Promise<void> {
  const forged = store.append(files, message);
  for (const check of [
    () => verifyLedger(ledger, { mode: 'full' }),
    () => verifyLedger(ledger, { mode: 'incremental' }),
    () => readVerifiedRun(ledger, 'run-1'),
    () =>
      recordStatusComment(ledger, {
        runId: 'run-1',
        statusComment: { issue_number: 7, comment_id: null, body_digest: null, pending_digest: null },
      }),
  ]) {
    const error = await refusalError(check());
    expect(error.code).toBe('ledger-provenance-unproven');
    if (because !== undefined) expect(error.message).toMatch(because);
  }
  expect(store.head).toBe(forged);
}

async function approvedRun(): Promise<void> {
  const plan = await proposePlanFor(ledger, 'run-1');
  await consumeApproval(ledger, {
    runId: 'run-1',
    approval: approvalFor(plan),
    plan: recomputed(plan),
    holder: HOLDER,
  });
}

/** Claims and checkpoints `done` every step before `last` (steps 1..3 of the fixture plan). */
async function doneThrough(last: number, options: { completeRun?: boolean } = {}): Promise<void> {
  for (let index = 1; index <= last; index += 1) {
    const stepId = `step-${index}`;
    await claimStep(ledger, { runId: 'run-1', stepId, epoch: 1, holder: me });
    await checkpointStep(ledger, {
      runId: 'run-1',
      stepId,
      epoch: 1,
      holder: me,
      outcome: 'done',
      evidence: { status_code: 200, error_code: null },
      ...options,
    });
  }
}

function lastCheckpoint(stepId: string): Promise<TransitionOutcome> {
  return checkpointStep(
    ledger,
    {
      runId: 'run-1',
      stepId,
      epoch: 1,
      holder: me,
      outcome: 'done',
      evidence: { status_code: 200, error_code: null },
    },
    { dryRun: true },
  );
}

describe('completion in the last checkpoint', () => {
  it('replays a checkpoint that completes the run and frees the lease in one commit', async () => {
    await approvedRun();
    await doneThrough(3);
    const { report } = await verifyLedger(ledger, { mode: 'full' });
    // root, propose, consume, three claims, three checkpoints: no separate complete commit.
    expect(report.totalCommits).toBe(9);
  });

  it('still replays a ledger written before: the last checkpoint, then a separate complete', async () => {
    await approvedRun();
    await doneThrough(3, { completeRun: false });
    await completeRun(ledger, { runId: 'run-1', epoch: 1, holder: me, state: 'completed' });
    expect((await verifyLedger(ledger, { mode: 'full' })).report.totalCommits).toBe(10);
  });

  it('refuses a checkpoint that completes a run with a step still pending', async () => {
    await approvedRun();
    await claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me });
    const { files, message } = planned(await lastCheckpoint('step-1'));
    files[RUN_PATH] = edit<RunFile>(files[RUN_PATH]!, (run) => {
      run.state = 'completed';
    });
    files[LEASE_PATH] = edit<Lease>(files[LEASE_PATH]!, (lease) => {
      lease.holder = null;
      lease.lease_expires_at = null;
    });
    await expectForgeryRefused(files, message, /is not what checkpoint writes/);
  });

  it('refuses a last checkpoint that frees the lease but leaves the run running', async () => {
    await approvedRun();
    await doneThrough(2);
    await claimStep(ledger, { runId: 'run-1', stepId: 'step-3', epoch: 1, holder: me });
    const { files, message } = planned(await lastCheckpoint('step-3'));
    files[RUN_PATH] = edit<RunFile>(files[RUN_PATH]!, (run) => {
      run.state = 'running';
    });
    await expectForgeryRefused(files, message, /lease\.json is not what checkpoint writes/);
  });

  it('refuses a last checkpoint that completes the run but keeps the lease', async () => {
    await approvedRun();
    await doneThrough(2);
    await claimStep(ledger, { runId: 'run-1', stepId: 'step-3', epoch: 1, holder: me });
    const { files, message } = planned(await lastCheckpoint('step-3'));
    files[LEASE_PATH] = edit<Lease>(files[LEASE_PATH]!, (lease) => {
      lease.holder = me;
      lease.lease_expires_at = new Date(store.now + policy.leaseMs).toISOString();
    });
    await expectForgeryRefused(files, message, /lease\.json is not what checkpoint writes/);
  });
});

describe('a status reservation carries the server time', () => {
  const reservation = {
    issue_number: 7,
    comment_id: null,
    body_digest: null,
    pending_digest: 'sha256:' + 'a'.repeat(64),
  };

  async function plannedReservation(): Promise<{ files: Files; message: string }> {
    await proposePlanFor(ledger, 'run-1');
    return planned(
      await recordStatusComment(ledger, { runId: 'run-1', statusComment: reservation }, { dryRun: true }),
    );
  }

  it('stamps a first POST’s reservation with the time of the read, whatever the caller passes', async () => {
    await proposePlanFor(ledger, 'run-1');
    await recordStatusComment(ledger, {
      runId: 'run-1',
      statusComment: { ...reservation, reserved_at: '2001-01-01T00:00:00.000Z' },
    });
    const run = (await readVerifiedRun(ledger, 'run-1')).run;
    expect(run?.status_comment?.reserved_at).toMatch(/^20[2-9]\d-/);
    expect(run?.status_comment?.reserved_at).not.toBe('2001-01-01T00:00:00.000Z');
  });

  it('replays a reservation recorded before reserved_at existed', async () => {
    const { files, message } = await plannedReservation();
    files[RUN_PATH] = edit<RunFile>(files[RUN_PATH]!, (run) => {
      delete run.status_comment?.reserved_at;
    });
    store.append(files, message);
    expect((await verifyLedger(ledger, { mode: 'full' })).report.totalCommits).toBe(3);
  });

  it('refuses a reservation time outside its commit’s window (a forged since= to hide a landed POST)', async () => {
    const { files, message } = await plannedReservation();
    files[RUN_PATH] = edit<RunFile>(files[RUN_PATH]!, (run) => {
      if (run.status_comment) run.status_comment.reserved_at = '2099-01-01T00:00:00.000Z';
    });
    await expectForgeryRefused(files, message, /reserved_at is outside the commit's time/);
  });

  it('refuses a reservation time on a record that reserves no POST', async () => {
    const { files, message } = await plannedReservation();
    files[RUN_PATH] = edit<RunFile>(files[RUN_PATH]!, (run) => {
      if (run.status_comment) run.status_comment.pending_digest = null;
    });
    await expectForgeryRefused(files, message, /the run file is not what status writes/);
  });
});

describe('a status reservation folded into a propose or a consume commit', () => {
  const D1 = `sha256:${'1'.repeat(64)}`;
  const D2 = `sha256:${'2'.repeat(64)}`;
  const first = { issue_number: 7, comment_id: null, body_digest: null, pending_digest: D1 };

  function foldedPropose(options: { dryRun?: boolean } = {}): Promise<TransitionOutcome> {
    const plan = planFor('run-1');
    return proposeRun(ledger, { ...proposalOf(plan, 'run-1'), statusFold: () => first }, options);
  }

  /** The dry-run consume of run-1 with `fold` as its status fold. */
  function consumeFolding(fold: RunFile['status_comment'] | undefined): Promise<TransitionOutcome> {
    const plan = planFor('run-1');
    return consumeApproval(
      ledger,
      {
        runId: 'run-1',
        approval: approvalFor(plan),
        plan: recomputed(plan),
        holder: HOLDER,
        statusFold: () => fold ?? null,
      },
      { dryRun: true },
    );
  }

  /** A proposed run whose status comment 424242 is recorded with body D1, then the consume it folds. */
  async function foldedConsume(fold: RunFile['status_comment'] | undefined): Promise<TransitionOutcome> {
    await foldedPropose();
    await recordStatusComment(ledger, {
      runId: 'run-1',
      statusComment: { issue_number: 7, comment_id: 424242, body_digest: D1, pending_digest: null },
    });
    return consumeFolding(fold);
  }

  it('replays a propose that reserves the first POST in the same commit, stamped with its proposal time', async () => {
    await foldedPropose();
    const { run } = await readVerifiedRun(ledger, 'run-1');
    expect(run?.status_comment).toMatchObject({ ...first, reserved_at: run?.proposed_at });
    expect((await verifyLedger(ledger, { mode: 'full' })).report.totalCommits).toBe(2);
  });

  it('replays a consume that reserves the status comment update in the same commit', async () => {
    const { files, message } = planned(
      await foldedConsume({ issue_number: 7, comment_id: 424242, body_digest: D1, pending_digest: D2 }),
    );
    store.append(files, message);
    const { report } = await verifyLedger(ledger, { mode: 'full' });
    expect(report.totalCommits).toBe(4);
    expect((await readVerifiedRun(ledger, 'run-1')).run?.status_comment?.pending_digest).toBe(D2);
  });

  type Record = NonNullable<RunFile['status_comment']>;
  it.each<[string, (record: Record) => void]>([
    ['claims a comment', (record) => (record.comment_id = 424242)],
    ['claims a body', (record) => (record.body_digest = D1)],
    ['reserves no body', (record) => (record.pending_digest = null)],
  ])('refuses a propose whose folded record %s', async (_what, change) => {
    const { files, message } = planned(await foldedPropose({ dryRun: true }));
    files[RUN_PATH] = edit<RunFile>(files[RUN_PATH]!, (run) => {
      change(run.status_comment!);
    });
    await expectForgeryRefused(files, message, /propose is refused|the run file is not what propose writes/);
  });

  it('refuses a propose whose folded reservation carries another time than its proposal', async () => {
    const { files, message } = planned(await foldedPropose({ dryRun: true }));
    files[RUN_PATH] = edit<RunFile>(files[RUN_PATH]!, (run) => {
      run.status_comment!.reserved_at = new Date(Date.parse(run.proposed_at) - 30_000).toISOString();
    });
    await expectForgeryRefused(files, message, /the run file is not what propose writes/);
  });

  it.each<[string, (run: RunFile) => void]>([
    ['swaps the comment', (run) => (run.status_comment!.comment_id = 111)],
    ['moves the issue', (run) => (run.status_comment!.issue_number = 8)],
    ['changes the known body', (run) => (run.status_comment!.body_digest = D2)],
    ['drops the record', (run) => (run.status_comment = null)],
    ['resets it to a first reservation', (run) => (run.status_comment = { ...first })],
  ])('refuses a consume whose folded status record %s', async (_what, change) => {
    const { files, message } = planned(
      await foldedConsume({ issue_number: 7, comment_id: 424242, body_digest: D1, pending_digest: D2 }),
    );
    files[RUN_PATH] = edit<RunFile>(files[RUN_PATH]!, change);
    await expectForgeryRefused(files, message, /consume is refused|the run file is not what consume writes/);
  });

  it('refuses to fold an update into a consume while the first POST is unresolved', async () => {
    await foldedPropose();
    // The first POST's reservation is still unresolved (no comment ID): a consume cannot fold over it.
    expect((await refusalError(consumeFolding({ ...first, pending_digest: D2 }))).code).toBe(
      'invalid-transition',
    );
    expect(
      (
        await refusalError(
          consumeFolding({ issue_number: 7, comment_id: 5, body_digest: D1, pending_digest: D2 }),
        )
      ).code,
    ).toBe('invalid-transition');
  });
});

describe('the replay refuses what no legal transition writes', () => {
  it('checks itself: the untouched legal commit is accepted', async () => {
    await approvedRun();
    const { files, message } = planned(
      await claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me }, { dryRun: true }),
    );
    store.append(files, message);
    expect((await verifyLedger(ledger, { mode: 'full' })).report.totalCommits).toBe(4);
    expect((await verifyLedger(ledger, { mode: 'incremental' })).report.commitsChecked).toBe(1);
  });

  it('a consumed approval reset to proposed (the tombstone erased in the run file)', async () => {
    await approvedRun();
    const { files, message } = planned(
      await claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me }, { dryRun: true }),
    );
    files[RUN_PATH] = edit<RunFile>(files[RUN_PATH]!, (run) => {
      run.state = 'proposed';
      run.approval = null;
      run.owner = null;
      run.steps[0]!.status = 'pending';
      run.steps[0]!.epoch = null;
    });
    await expectForgeryRefused(
      files,
      message,
      /0 steps changed, not one|the run file is not what claim writes/,
    );
  });

  it('an approval written into a proposed run without a consume', async () => {
    const plan = await proposePlanFor(ledger, 'run-1');
    const { files, message } = planned(
      await recordStatusComment(
        ledger,
        {
          runId: 'run-1',
          statusComment: { issue_number: 7, comment_id: null, body_digest: null, pending_digest: null },
        },
        { dryRun: true },
      ),
    );
    files[RUN_PATH] = edit<RunFile>(files[RUN_PATH]!, (run) => {
      run.state = 'approved';
      run.approval = { ...approvalFor(plan), consumed_at: '2026-11-30T09:00:00.000Z', epoch: 1 };
    });
    await expectForgeryRefused(files, message, /the run file is not what status writes/);
  });

  it('the lease epoch moved backwards', async () => {
    await approvedRun();
    const { files, message } = planned(
      await releaseLease(ledger, { runId: 'run-1', epoch: 1, holder: me }, { dryRun: true }),
    );
    files[LEASE_PATH] = edit<Lease>(files[LEASE_PATH]!, (lease) => {
      lease.epoch = 0;
    });
    await expectForgeryRefused(files, message, /lease\.json is not what release writes/);
  });

  it('a step checkpointed done that was never claimed', async () => {
    await approvedRun();
    const { files, message } = planned(
      await claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me }, { dryRun: true }),
    );
    files[RUN_PATH] = edit<RunFile>(files[RUN_PATH]!, (run) => {
      run.steps[0]!.status = 'done';
      run.steps[0]!.evidence = { status_code: 200, error_code: null };
    });
    await expectForgeryRefused(files, message.replace(/claim/g, 'checkpoint'), /checkpoint is refused/);
  });

  it('a step claimed out of order', async () => {
    await approvedRun();
    const { files, message } = planned(
      await claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me }, { dryRun: true }),
    );
    files[RUN_PATH] = edit<RunFile>(files[RUN_PATH]!, (run) => {
      run.steps[0]!.status = 'pending';
      run.steps[0]!.epoch = null;
      run.steps[1]!.status = 'claimed';
      run.steps[1]!.epoch = 1;
    });
    await expectForgeryRefused(files, message, /steps are claimed in order/);
  });

  it("a legal claim's files under a checkpoint trailer", async () => {
    await approvedRun();
    const { files, message } = planned(
      await claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me }, { dryRun: true }),
    );
    await expectForgeryRefused(
      files,
      message.replace(/Writ-Transition: claim/, 'Writ-Transition: checkpoint'),
    );
  });

  it('a legal commit that also changes a file outside its transition', async () => {
    await approvedRun();
    const { files, message } = planned(
      await claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me }, { dryRun: true }),
    );
    files['runs/acme--widgets/run-2.json'] = files[RUN_PATH]!;
    await expectForgeryRefused(files, message, /changed files outside its transition/);
  });

  it('a checkpoint that erases the consumed-approval tombstones', async () => {
    await approvedRun();
    await claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me });
    const { files, message } = planned(
      await checkpointStep(
        ledger,
        {
          runId: 'run-1',
          stepId: 'step-1',
          epoch: 1,
          holder: me,
          outcome: 'done',
          evidence: { status_code: 200, error_code: null },
        },
        { dryRun: true },
      ),
    );
    files[PROVENANCE_PATH] = edit<ProvenanceCheckpoint>(files[PROVENANCE_PATH]!, (checkpoint) => {
      checkpoint.consumed_run_ids = [];
      checkpoint.consumed_comment_ids = [];
    });
    await expectForgeryRefused(files, message, /checkpoint is not the proven state of its parent/);
  });

  it('a checkpoint that claims more of the history proven than its parent', async () => {
    await approvedRun();
    const { files, message } = planned(
      await claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me }, { dryRun: true }),
    );
    files[PROVENANCE_PATH] = edit<ProvenanceCheckpoint>(files[PROVENANCE_PATH]!, (checkpoint) => {
      checkpoint.verified_commits += 5;
    });
    await expectForgeryRefused(files, message, /checkpoint is not the proven state of its parent/);
  });

  it('a changed ledger root', async () => {
    await approvedRun();
    const { files, message } = planned(
      await claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me }, { dryRun: true }),
    );
    files[LEDGER_ROOT_PATH] = '{"schema":1,"repository":"acme/widgets","branch":"bot/writ-ledger"}';
    await expectForgeryRefused(files, message, /changed ledger-root\.json/);
  });

  it('a takeover while the lease is live', async () => {
    await approvedRun();
    store.now += 1000;
    const { files, message } = planned(
      await releaseLease(ledger, { runId: 'run-1', epoch: 1, holder: me }, { dryRun: true }),
    );
    // What a takeover at epoch 2 would write, made by hand while the holder's lease still runs.
    files[LEASE_PATH] = edit<Lease>(files[LEASE_PATH]!, (lease) => {
      lease.epoch = 2;
      lease.holder = { run_id: 'run-1', workflow_run_id: 666, attempt: 1 };
      lease.lease_expires_at = new Date(store.now + policy.leaseMs).toISOString();
    });
    const run = (await readVerifiedRun(ledger, 'run-1')).run!;
    files[RUN_PATH] = same(
      JSON.stringify({
        ...run,
        owner: { epoch: 2, holder: { run_id: 'run-1', workflow_run_id: 666, attempt: 1 } },
      }),
    );
    await expectForgeryRefused(
      files,
      message
        .replace(/release/g, 'takeover')
        .replace(/epoch 1\)/, 'epoch 2)')
        .replace('Writ-Epoch: 1', 'Writ-Epoch: 2'),
      /takeover is refused from its parent's state \(repository-lease-held/,
    );
  });

  it('a consume whose approval comment is by someone else, or approves another run', async () => {
    const plan = await proposePlanFor(ledger, 'run-1');
    const outcome = await consumeApproval(
      ledger,
      { runId: 'run-1', approval: approvalFor(plan), plan: recomputed(plan), holder: HOLDER },
      { dryRun: true },
    );
    const { files, message } = planned(outcome);
    const comment = {
      userId: 999,
      body: `writ: approve run-1 ${plan.digest.slice(7)}`,
      htmlUrl: approvalFor(plan).comment_url,
      edited: false,
    };
    store.comments.set(1001, comment);
    const forged = store.append(files, message);
    expect((await refusalError(verifyLedger(ledger))).message).toMatch(/is not by the approver/);
    store.comments.set(1001, {
      ...comment,
      userId: 501,
      body: `writ: approve run-2 ${plan.digest.slice(7)}`,
    });
    expect((await refusalError(verifyLedger(ledger))).message).toMatch(/does not hold the approve command/);
    // A comment deleted or edited since cannot be re-verified: the ledger stays provable, and every
    // gate re-reads the comment live and refuses such an approval (gate.ts).
    store.comments.delete(1001);
    expect((await verifyLedger(ledger)).report.state.unverifiableApprovals).toBe(1);
    expect(store.head).toBe(forged);
  });

  it('a forger who writes two commits defeats only the incremental check: the full check catches it', async () => {
    await approvedRun();
    const first = planned(
      await claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me }, { dryRun: true }),
    );
    first.files[RUN_PATH] = edit<RunFile>(first.files[RUN_PATH]!, (run) => {
      run.state = 'proposed';
      run.approval = null;
    });
    const forged = store.append(first.files, first.message);
    // The second commit is a status record on the forged state whose checkpoint claims the forged
    // commit proven. The incremental reader trusts that claim (SPEC §3's inductive checkpoint: each
    // writer proves what came after the last writer); `writ ledger verify` replays from the root.
    const through = edit<ProvenanceCheckpoint>(first.files[PROVENANCE_PATH]!, (checkpoint) => {
      checkpoint.verified_through = forged;
      checkpoint.verified_commits += 1;
    });
    const run = edit<RunFile>(first.files[RUN_PATH], (file) => {
      file.status_comment = { issue_number: 7, comment_id: null, body_digest: null, pending_digest: null };
    });
    store.append(
      { [RUN_PATH]: run, [PROVENANCE_PATH]: through },
      first.message
        .replace(/claim/g, 'status')
        .replace(
          /Writ-Transition-Id: \S+/,
          `Writ-Transition-Id: ${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}.1`,
        ),
    );
    expect((await verifyLedger(ledger, { mode: 'incremental' })).report.commitsChecked).toBe(1);
    const error = await refusalError(verifyLedger(ledger, { mode: 'full' }));
    expect(error.code).toBe('ledger-provenance-unproven');
    expect(error.message).toContain(forged);
  });
});
