/**
 * A creating step's receipt in the ledger step record (issue 32, item 6): the claim records its key,
 * scope and what the pre-read knew; a checkpoint settles it (or keeps the claim's when it names none);
 * a claim without one drops a stale one. Every commit is replayed (`verifyLedger` full): what persist
 * commits, every reader re-derives. Older run files without receipts still read.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { bootstrapLedger, verifyLedger } from '../../src/ledger/bootstrap.js';
import type { LedgerContext } from '../../src/ledger/cas.js';
import {
  checkpointSteps,
  claimStep,
  claimSteps,
  consumeApproval,
  createLedgerContext,
  readRun,
  takeoverRun,
} from '../../src/ledger/ledger.js';
import { RUN_FILE, checkLedgerFile } from '../../src/ledger/schemas.js';
import type { Holder, RunFile, StepReceipt } from '../../src/ledger/types.js';
import { APP, MemoryLedgerStore, holdersFinished, instantClock } from './support/memory-store.js';
import { HOLDER, approvalFor, proposePlanFor, recomputed } from './support/fixtures.js';

const policy = { leaseMs: 60_000, graceMs: 10_000 };
const me: Holder = { run_id: 'run-1', ...HOLDER };
const KEY = `sha256:${'a'.repeat(64)}`;
const pending = (scope: StepReceipt['key_scope'] = 'repository'): StepReceipt => ({
  idempotency_key: KEY,
  key_scope: scope,
  outcome: null,
});

let store: MemoryLedgerStore;
let ledger: LedgerContext;

beforeEach(async () => {
  store = new MemoryLedgerStore();
  ledger = createLedgerContext(
    { github: store, clock: instantClock, liveness: holdersFinished },
    { repository: 'acme/widgets', app: APP, policy, seed: 1 },
  );
  await bootstrapLedger(ledger, { apply: true });
  const plan = await proposePlanFor(ledger, 'run-1');
  await consumeApproval(ledger, {
    runId: 'run-1',
    approval: approvalFor(plan),
    plan: recomputed(plan),
    holder: HOLDER,
  });
});

async function run(): Promise<RunFile> {
  const read = (await readRun(ledger, 'run-1')).run;
  if (read === null) throw new Error('no run file');
  return read;
}

const evidence = { status_code: 201, error_code: null };

describe("a create's receipt in the ledger", () => {
  it('the claim records the key and scope; the checkpoint settles the outcome; replay re-derives both', async () => {
    await claimSteps(ledger, {
      runId: 'run-1',
      stepIds: ['step-1', 'step-2'],
      epoch: 1,
      holder: me,
      receipts: { 'step-1': pending('run'), 'step-2': null },
    });
    expect((await run()).steps.map((step) => step.receipt)).toEqual([pending('run'), undefined]);
    await checkpointSteps(ledger, {
      runId: 'run-1',
      epoch: 1,
      holder: me,
      steps: [
        {
          stepId: 'step-1',
          outcome: 'done',
          evidence,
          resources: [12],
          receipt: { ...pending('run'), outcome: 'created' },
        },
        { stepId: 'step-2', outcome: 'done', evidence, resources: [13] },
      ],
    });
    const steps = (await run()).steps;
    expect(steps[0]?.receipt).toEqual({ idempotency_key: KEY, key_scope: 'run', outcome: 'created' });
    expect(steps[1]?.receipt).toBeUndefined();
    await expect(verifyLedger(ledger, { mode: 'full' })).resolves.toBeDefined();
  });

  it("a checkpoint that names no receipt keeps the claim's (an inconclusive step reconciled later)", async () => {
    const inconclusive: StepReceipt = { ...pending(), outcome: 'inconclusive' };
    await claimStep(ledger, {
      runId: 'run-1',
      stepId: 'step-1',
      epoch: 1,
      holder: me,
      receipt: inconclusive,
    });
    await checkpointSteps(ledger, {
      runId: 'run-1',
      epoch: 1,
      holder: me,
      steps: [{ stepId: 'step-1', outcome: 'failed', evidence: { status_code: null, error_code: 'x' } }],
    });
    expect((await run()).steps[0]?.receipt).toEqual(inconclusive);
    await expect(verifyLedger(ledger, { mode: 'full' })).resolves.toBeDefined();
  });

  it('a step sent back to pending keeps its old receipt until a claim without one drops it', async () => {
    await claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me, receipt: pending() });
    store.now += policy.leaseMs + policy.graceMs + 1;
    await takeoverRun(ledger, {
      runId: 'run-1',
      holder: { workflow_run_id: 9100, attempt: 1 },
      resolutions: { 'step-1': { state: 'pre-state' } },
    });
    expect((await run()).steps[0]).toMatchObject({ status: 'pending', receipt: pending() });
    await claimStep(ledger, {
      runId: 'run-1',
      stepId: 'step-1',
      epoch: 2,
      holder: { run_id: 'run-1', workflow_run_id: 9100, attempt: 1 },
    });
    expect((await run()).steps[0]?.receipt).toBeUndefined();
    await expect(verifyLedger(ledger, { mode: 'full' })).resolves.toBeDefined();
  });

  it('the run schema reads a step without a receipt and refuses a malformed one', async () => {
    const current = await run();
    expect(() => checkLedgerFile(RUN_FILE, 'runs/run-1.json', current)).not.toThrow();
    const withStep = (receipt: unknown): unknown => ({
      ...current,
      steps: current.steps.map((step, index) => (index === 0 ? { ...step, receipt } : step)),
    });
    expect(() => checkLedgerFile(RUN_FILE, 'runs/run-1.json', withStep(pending()))).not.toThrow();
    for (const bad of [
      { ...pending(), outcome: 'maybe' },
      { ...pending(), key_scope: 'org' },
      { ...pending(), idempotency_key: 'has spaces <!--' },
      { idempotency_key: KEY, key_scope: 'run' },
      { ...pending(), extra: 1 },
    ])
      expect(() => checkLedgerFile(RUN_FILE, 'runs/run-1.json', withStep(bad))).toThrow();
  });
});
