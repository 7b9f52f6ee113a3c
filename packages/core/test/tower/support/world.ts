/** A small in-memory ledger for the tower's unit tests: a completed run, a stopped one, one awaiting approval. */
import { bootstrapLedger } from '../../../src/ledger/bootstrap.js';
import type { LedgerContext } from '../../../src/ledger/cas.js';
import {
  checkpointStep,
  claimStep,
  consumeApproval,
  createLedgerContext,
} from '../../../src/ledger/ledger.js';
import { APP, MemoryLedgerStore, holdersFinished, instantClock } from '../../ledger/support/memory-store.js';
import { HOLDER, approvalFor, proposePlanFor, recomputed } from '../../ledger/support/fixtures.js';

export interface TowerWorld {
  store: MemoryLedgerStore;
  ledger: LedgerContext;
}

export async function towerWorld(): Promise<TowerWorld> {
  const store = new MemoryLedgerStore();
  const ledger = createLedgerContext(
    { github: store, clock: instantClock, liveness: holdersFinished },
    { repository: 'acme/widgets', app: APP, policy: { leaseMs: 60_000, graceMs: 10_000 }, seed: 1 },
  );
  await bootstrapLedger(ledger, { apply: true });

  const done = await proposePlanFor(ledger, 'run-done');
  await consumeApproval(ledger, {
    runId: 'run-done',
    approval: approvalFor(done, 1001),
    plan: recomputed(done),
    holder: HOLDER,
  });
  const holder = { run_id: 'run-done', ...HOLDER };
  for (const stepId of ['step-1', 'step-2', 'step-3']) {
    await claimStep(ledger, { runId: 'run-done', stepId, epoch: 1, holder });
    await checkpointStep(ledger, {
      runId: 'run-done',
      stepId,
      epoch: 1,
      holder,
      outcome: 'done',
      evidence: { status_code: 201, error_code: null },
    });
  }

  const stop = await proposePlanFor(ledger, 'run-stop');
  const stopHolder = { workflow_run_id: 9002, attempt: 1 };
  await consumeApproval(ledger, {
    runId: 'run-stop',
    approval: approvalFor(stop, 1002),
    plan: recomputed(stop),
    holder: stopHolder,
  });
  await claimStep(ledger, {
    runId: 'run-stop',
    stepId: 'step-1',
    epoch: 2,
    holder: { run_id: 'run-stop', ...stopHolder },
  });
  await checkpointStep(ledger, {
    runId: 'run-stop',
    stepId: 'step-1',
    epoch: 2,
    holder: { run_id: 'run-stop', ...stopHolder },
    outcome: 'conflict',
    evidence: { status_code: 409, error_code: 'conflict' },
  });

  await proposePlanFor(ledger, 'run-wait');
  return { store, ledger };
}
