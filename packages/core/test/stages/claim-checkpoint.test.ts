/**
 * The claim-checkpoint stage in-process: its settings straight in, the real ledger over the real
 * Octokit against the emulator on loopback, its outputs and summary back; no environment.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { WritError } from '../../src/errors.js';
import { readRun } from '../../src/ledger/ledger.js';
import type { ClaimCheckpointStageSettings } from '../../src/stages/claim-checkpoint.js';
import { claimCheckpointStage } from '../../src/stages/claim-checkpoint.js';
import type { LedgerWorld } from '../ledger/support/emulator.js';
import { REPOSITORY, ledgerWorld } from '../ledger/support/emulator.js';
import { approvedRunFor, proposePlanFor } from '../ledger/support/fixtures.js';

let world: LedgerWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function settings(overrides: Partial<ClaimCheckpointStageSettings>): ClaimCheckpointStageSettings {
  return {
    apiUrl: 'http://127.0.0.1:1',
    repository: REPOSITORY,
    operation: 'claim',
    runId: 'run-1',
    stepId: 'step-1',
    epoch: 1,
    outcome: undefined,
    statusCode: null,
    errorCode: null,
    dryRun: false,
    ledger: {
      token: 'unused',
      branch: 'bot/writ-ledger',
      app: { slug: 'writ-ledger', id: 1 },
      leaseMs: 600_000,
    },
    holder: { workflow_run_id: 7, attempt: 1 },
    ...overrides,
  };
}

describe('claim-checkpoint stage, in-process against the emulator', () => {
  it('claims a step at the lease epoch and returns its outputs and summary', async () => {
    world = await ledgerWorld();
    const ledger = world.context();
    await approvedRunFor(world, ledger, 'run-1', { workflow_run_id: 7, attempt: 1 });
    // The first approval of the repository takes the lease at epoch 1.
    const result = await claimCheckpointStage(settings({ epoch: 1 }), { ledger });
    expect(result.outputs).toMatchObject({
      epoch: 1,
      'run-id': 'run-1',
      'step-status': 'claimed',
      outcome: 'claimed',
      reason: '',
    });
    expect(result.summary).toContain('## Writ claim');
    expect(result.refusal).toBeUndefined();
  });

  it('refuses a claim on a run that was never approved, as a coded refusal', async () => {
    world = await ledgerWorld();
    const ledger = world.context();
    await proposePlanFor(ledger, 'run-1');
    const refusal = await claimCheckpointStage(settings({ epoch: 99 }), { ledger }).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(WritError);
    expect((refusal as WritError).code).toMatch(/^[a-z]+(-[a-z]+)*$/);
  });

  /** A run approved at epoch 1 with its first step claimed by holder 7. */
  async function claimedRun(current: LedgerWorld) {
    const ledger = current.context();
    await approvedRunFor(current, ledger, 'run-1', { workflow_run_id: 7, attempt: 1 });
    await claimCheckpointStage(settings({ epoch: 1 }), { ledger });
    return ledger;
  }

  it('checkpoints a claimed step with its outcome and evidence', async () => {
    world = await ledgerWorld();
    const ledger = await claimedRun(world);
    const result = await claimCheckpointStage(
      settings({ operation: 'checkpoint', outcome: 'done', statusCode: 201, errorCode: null }),
      { ledger },
    );
    expect(result.outputs).toMatchObject({ 'step-status': 'done', outcome: 'checkpointed', epoch: 1 });
    expect(String(result.outputs['idempotency-key'])).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(result.summary).toContain('step done');
  });

  it('a dry run shows the ledger commit it would make and writes nothing', async () => {
    world = await ledgerWorld();
    const ledger = await claimedRun(world);
    const before = (await readRun(ledger, 'run-1')).headOid;
    const result = await claimCheckpointStage(
      settings({ operation: 'checkpoint', outcome: 'failed', errorCode: 'upstream-refused', dryRun: true }),
      { ledger },
    );
    expect(result.outputs).toMatchObject({ outcome: 'dry-run' });
    expect(result.summary).toContain('(dry run: nothing written)');
    expect(result.summary).toContain('Ledger commit (dry run: not written)');
    expect((await readRun(ledger, 'run-1')).headOid).toBe(before);
  });

  it('releases the lease at the holder epoch', async () => {
    world = await ledgerWorld();
    const ledger = await claimedRun(world);
    const result = await claimCheckpointStage(settings({ operation: 'release', stepId: undefined }), {
      ledger,
    });
    expect(result.outputs).toMatchObject({ outcome: 'released', 'step-status': '', 'idempotency-key': '' });
    expect(result.summary).not.toContain(', step `');
  });

  it('takes over an expired run with a claimed step: outputs stand, the step fails as needs-reconciliation', async () => {
    world = await ledgerWorld();
    const ledger = await claimedRun(world);
    world.emulator.admin.clock({ advance_ms: 20 * 60_000 });
    const result = await claimCheckpointStage(
      settings({
        operation: 'takeover',
        stepId: undefined,
        epoch: undefined,
        holder: { workflow_run_id: 8, attempt: 1 },
      }),
      { ledger },
    );
    expect(result.outputs).toMatchObject({ outcome: 'taken-over', epoch: 2 });
    expect(result.refusal).toBeInstanceOf(WritError);
    expect(result.refusal?.code).toBe('needs-reconciliation');
  });

  it('completes the run and releases the lease at the last checkpoint; a release after it writes nothing', async () => {
    world = await ledgerWorld();
    const ledger = world.context();
    await approvedRunFor(world, ledger, 'run-1', { workflow_run_id: 7, attempt: 1 });
    let last: Awaited<ReturnType<typeof claimCheckpointStage>> | undefined;
    for (const stepId of ['step-1', 'step-2', 'step-3']) {
      await claimCheckpointStage(settings({ stepId }), { ledger });
      last = await claimCheckpointStage(
        settings({ stepId, operation: 'checkpoint', outcome: 'done', statusCode: 200 }),
        { ledger },
      );
    }
    expect(last?.outputs).toMatchObject({
      'step-status': 'done',
      'lease-expires-at': '',
      outcome: 'checkpointed',
    });
    expect(last?.summary).toContain('the run is completed and the repository lease is released');
    const head = (await readRun(ledger, 'run-1')).headOid;
    expect((await readRun(ledger, 'run-1')).lease.holder).toBeNull();

    const released = await claimCheckpointStage(settings({ operation: 'release', stepId: undefined }), {
      ledger,
    });
    expect(released.outputs).toMatchObject({ outcome: 'released', reason: '', epoch: 1 });
    expect(released.summary).toContain('nothing to release');
    expect((await readRun(ledger, 'run-1')).headOid).toBe(head);
    // A stale epoch is still fenced: only the epoch the run ended at finds nothing to release.
    const stale = await claimCheckpointStage(
      settings({ operation: 'release', stepId: undefined, epoch: 2 }),
      {
        ledger,
      },
    ).catch((error: unknown) => error);
    expect((stale as WritError).code).toBe('fenced');
  });

  it('releases the lease of a run whose last step failed (it stays running, holding the lease)', async () => {
    world = await ledgerWorld();
    const ledger = world.context();
    await approvedRunFor(world, ledger, 'run-1', { workflow_run_id: 7, attempt: 1 });
    await claimCheckpointStage(settings({}), { ledger });
    await claimCheckpointStage(settings({ operation: 'checkpoint', outcome: 'failed', statusCode: 500 }), {
      ledger,
    });
    expect((await readRun(ledger, 'run-1')).lease.holder?.run_id).toBe('run-1');
    const released = await claimCheckpointStage(settings({ operation: 'release', stepId: undefined }), {
      ledger,
    });
    expect(released.outputs).toMatchObject({ outcome: 'released' });
    expect(released.summary).not.toContain('nothing to release');
    expect((await readRun(ledger, 'run-1')).lease.holder).toBeNull();
  });

  it('refuses a claim without a step and a checkpoint with an unsafe error code, writing nothing', async () => {
    world = await ledgerWorld();
    const ledger = await claimedRun(world);
    const before = (await readRun(ledger, 'run-1')).headOid;
    const missing = await claimCheckpointStage(settings({ stepId: undefined }), { ledger }).catch(
      (error: unknown) => error,
    );
    expect(missing).toBeInstanceOf(WritError);
    expect((missing as WritError).code).toBe('invalid-input');
    expect((missing as WritError).message).toBe("input 'step-id' is required for operation 'claim'");
    const unsafe = await claimCheckpointStage(
      settings({ operation: 'checkpoint', outcome: 'failed', errorCode: 'Upstream <b>refused</b>' }),
      { ledger },
    ).catch((error: unknown) => error);
    expect((unsafe as WritError).code).toBe('invalid-input');
    expect((unsafe as WritError).message).toMatch(/^input 'error-code' must be a kebab-case code/);
    expect((await readRun(ledger, 'run-1')).headOid).toBe(before);
  });
});
