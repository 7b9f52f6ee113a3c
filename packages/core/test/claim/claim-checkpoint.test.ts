/**
 * claim/claim-checkpoint.ts directly (the stage's tests go through its inputs and summary): each
 * operation's required inputs, the error-code rule, the result's fields, and which refused release
 * counts as "already released" (only `fenced` on a run that ended at that very epoch).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { ClaimCheckpointSettings } from '../../src/claim/claim-checkpoint.js';
import { SAFE_ERROR_CODE, runClaimCheckpoint, stepIdempotencyKey } from '../../src/claim/claim-checkpoint.js';
import { WritError } from '../../src/errors.js';
import type { LedgerContext } from '../../src/ledger/cas.js';
import { readRun } from '../../src/ledger/ledger.js';
import type { LedgerWorld } from '../ledger/support/emulator.js';
import { REPOSITORY, ledgerWorld } from '../ledger/support/emulator.js';
import { approvedRunFor } from '../ledger/support/fixtures.js';

let world: LedgerWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const HOLDER = { workflow_run_id: 7, attempt: 1 };

function settings(overrides: Partial<ClaimCheckpointSettings>): ClaimCheckpointSettings {
  return {
    repository: REPOSITORY,
    operation: 'claim',
    runId: 'run-1',
    stepId: 'step-1',
    epoch: 1,
    holder: HOLDER,
    ...overrides,
  };
}

async function approvedRun(): Promise<LedgerContext> {
  world = await ledgerWorld();
  const ledger = world.context();
  await approvedRunFor(world, ledger, 'run-1', HOLDER);
  return ledger;
}

async function refusal(promise: Promise<unknown>): Promise<WritError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WritError);
  return error as WritError;
}

describe('the error-code rule and the step key', () => {
  it('takes 1 to 64 characters of [a-z0-9-], starting with a letter or digit', () => {
    for (const ok of ['a', '0', 'upstream-refused', `a${'b'.repeat(63)}`])
      expect(SAFE_ERROR_CODE.test(ok)).toBe(true);
    for (const bad of ['', '-a', 'A', 'a_b', 'a b', `a${'b'.repeat(64)}`, 'a\n', 'x<b>'])
      expect(SAFE_ERROR_CODE.test(bad)).toBe(false);
  });

  it('keys a step by repository, run, step and epoch', () => {
    const key = stepIdempotencyKey('o/r', 'run-1', 'step-1', 1);
    expect(key).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(stepIdempotencyKey('o/r', 'run-1', 'step-1', 1)).toBe(key);
    for (const other of [
      stepIdempotencyKey('o/s', 'run-1', 'step-1', 1),
      stepIdempotencyKey('o/r', 'run-2', 'step-1', 1),
      stepIdempotencyKey('o/r', 'run-1', 'step-2', 1),
      stepIdempotencyKey('o/r', 'run-1', 'step-1', 2),
    ])
      expect(other).not.toBe(key);
  });
});

describe('runClaimCheckpoint', () => {
  it('refuses each missing input by name, for its operation, before anything is read', async () => {
    world = await ledgerWorld();
    const ledger = world.context();
    const cases: [Partial<ClaimCheckpointSettings>, string][] = [
      [{ stepId: undefined }, "input 'step-id' is required for operation 'claim'"],
      [{ epoch: undefined }, "input 'epoch' is required for operation 'claim'"],
      [
        { operation: 'checkpoint', stepId: undefined, outcome: 'done' },
        "input 'step-id' is required for operation 'checkpoint'",
      ],
      [
        { operation: 'checkpoint', epoch: undefined, outcome: 'done' },
        "input 'epoch' is required for operation 'checkpoint'",
      ],
      [{ operation: 'checkpoint' }, "input 'outcome' is required for operation 'checkpoint'"],
      [{ operation: 'release', epoch: undefined }, "input 'epoch' is required for operation 'release'"],
    ];
    for (const [overrides, message] of cases) {
      const refused = await refusal(runClaimCheckpoint(ledger, settings(overrides)));
      expect([refused.code, refused.message]).toEqual(['invalid-input', message]);
    }
    const unsafe = await refusal(
      runClaimCheckpoint(
        ledger,
        settings({ operation: 'checkpoint', outcome: 'failed', errorCode: 'Bad Code' }),
      ),
    );
    expect(unsafe.code).toBe('invalid-input');
    expect(unsafe.message).toContain("input 'error-code' must be a kebab-case code");
  });

  it('claims: the step, its key at the epoch, the lease, the commit made and the run after it', async () => {
    const ledger = await approvedRun();
    const result = await runClaimCheckpoint(ledger, settings({}));
    expect(result).toMatchObject({
      epoch: 1,
      stepStatus: 'claimed',
      idempotencyKey: stepIdempotencyKey(REPOSITORY, 'run-1', 'step-1', 1),
      runState: 'running',
      committed: true,
      needsReconciliation: false,
      alreadyReleased: false,
    });
    expect(result.leaseExpiresAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(result.ledgerHead).toBe((await readRun(ledger, 'run-1')).headOid);
    expect(result.commit).not.toBeNull();
    expect(result.after?.run.steps.find((step) => step.id === 'step-1')?.status).toBe('claimed');
  });

  it('checkpoints with its evidence; a dry run plans the commit, writes nothing and has no run after', async () => {
    const ledger = await approvedRun();
    await runClaimCheckpoint(ledger, settings({}));
    const head = (await readRun(ledger, 'run-1')).headOid;
    const dry = await runClaimCheckpoint(
      ledger,
      settings({
        operation: 'checkpoint',
        outcome: 'failed',
        statusCode: 502,
        errorCode: 'upstream-502',
        dryRun: true,
      }),
    );
    expect(dry.committed).toBe(false);
    expect(dry.commit).not.toBeNull();
    expect(dry.after).toBeNull();
    expect((await readRun(ledger, 'run-1')).headOid).toBe(head);
    const done = await runClaimCheckpoint(
      ledger,
      settings({ operation: 'checkpoint', outcome: 'failed', statusCode: 502, errorCode: 'upstream-502' }),
    );
    expect(done).toMatchObject({ stepStatus: 'failed', committed: true });
    const step = (await readRun(ledger, 'run-1')).run?.steps.find((s) => s.id === 'step-1');
    expect(step).toMatchObject({ status: 'failed' });
    expect(JSON.stringify(step)).toContain('upstream-502');
  });

  it('releases: no step, no key, no step status; a second release is fenced, not "already released"', async () => {
    const ledger = await approvedRun();
    const released = await runClaimCheckpoint(ledger, settings({ operation: 'release', stepId: undefined }));
    expect(released).toMatchObject({
      epoch: 1,
      stepStatus: '',
      idempotencyKey: '',
      leaseExpiresAt: '',
      committed: true,
      alreadyReleased: false,
    });
    // The run is still running (nothing ended it): the release after it is a stale holder's, refused.
    const again = await refusal(
      runClaimCheckpoint(ledger, settings({ operation: 'release', stepId: undefined })),
    );
    expect(again.code).toBe('fenced');
  });

  it('counts a release as already done only at the epoch the run ended at', async () => {
    const ledger = await approvedRun();
    for (const stepId of ['step-1', 'step-2', 'step-3']) {
      await runClaimCheckpoint(ledger, settings({ stepId }));
      await runClaimCheckpoint(ledger, settings({ stepId, operation: 'checkpoint', outcome: 'done' }));
    }
    const view = await readRun(ledger, 'run-1');
    expect(view.run?.state).toBe('completed');
    const ended = await runClaimCheckpoint(ledger, settings({ operation: 'release', stepId: undefined }));
    expect(ended).toEqual({
      epoch: 1,
      stepStatus: '',
      leaseExpiresAt: '',
      idempotencyKey: '',
      runState: 'completed',
      ledgerHead: view.headOid,
      committed: false,
      needsReconciliation: false,
      alreadyReleased: true,
      commit: null,
      after: null,
    });
    expect(
      (await refusal(runClaimCheckpoint(ledger, settings({ operation: 'release', epoch: 2 })))).code,
    ).toBe('fenced');
    // Another run's release is not this run's ending: refused, not "already released".
    await refusal(
      runClaimCheckpoint(ledger, settings({ operation: 'release', runId: 'run-2', stepId: undefined })),
    );
  });
});
