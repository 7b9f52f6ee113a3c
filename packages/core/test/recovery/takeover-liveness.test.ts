/**
 * Issue 26, class 8: the lease moves only away from a holder that is really gone. Every path that moves
 * it (the ledger's `takeoverRun`, the recovery sweep, claim-checkpoint's `takeover`) reads the holder's
 * workflow run attempt on the Actions API first, on the emulator with the real Octokit: a live attempt is
 * never taken over, whatever the lease's expiry and whichever run the takeover is for; a completed or
 * missing one is; one Writ cannot read is not.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { LedgerContext } from '../../src/ledger/cas.js';
import {
  checkpointStep,
  claimStep,
  consumeApproval,
  createLedgerContext,
  readRun,
  releaseLease,
  takeoverRun,
} from '../../src/ledger/ledger.js';
import { recoverRuns } from '../../src/recovery/recover.js';
import { silentLogger } from '../../src/redact.js';
import type { ClaimCheckpointStageSettings } from '../../src/stages/claim-checkpoint.js';
import { claimCheckpointStage } from '../../src/stages/claim-checkpoint.js';
import { connect } from '../../src/stages/connect.js';
import { refusal, refusalError } from '../support/code-of.js';
import type { LedgerWorld } from '../ledger/support/emulator.js';
import {
  ACTIONS_TOKEN,
  BRANCH,
  LEDGER_TOKEN,
  OWNER,
  REPO,
  REPOSITORY,
  emulatorClient,
  ledgerWorld,
} from '../ledger/support/emulator.js';
import { proposePlanFor, recomputed } from '../ledger/support/fixtures.js';

let world: LedgerWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The holder whose lease the tests try to take: workflow run 100, attempt 1. */
const HOLDER = { workflow_run_id: 100, attempt: 1 };
/** Who tries to take it over. */
const TAKER = { workflow_run_id: 300, attempt: 1 };
const EXPIRED_MS = 20 * 60_000;

function setRun(current: LedgerWorld, id: number, status: string, attempt?: number): void {
  current.emulator.admin.setRun(OWNER, REPO, {
    id,
    status,
    conclusion: status === 'completed' ? 'failure' : null,
    ...(attempt === undefined ? {} : { run_attempt: attempt }),
  });
}

async function approve(
  current: LedgerWorld,
  ledger: LedgerContext,
  runId: string,
  holder: { workflow_run_id: number; attempt: number },
): Promise<void> {
  const plan = await proposePlanFor(ledger, runId);
  await consumeApproval(ledger, {
    runId,
    approval: await current.approve(runId, plan),
    plan: recomputed(plan),
    holder,
  });
}

/** run-1 approved by HOLDER (the lease at epoch 1), whose lease has expired on the server's clock. */
async function expiredHolder(status: string | null): Promise<LedgerContext> {
  world = await ledgerWorld();
  const ledger = world.context();
  if (status !== null) setRun(world, HOLDER.workflow_run_id, status);
  await approve(world, ledger, 'run-1', HOLDER);
  world.emulator.admin.clock({ advance_ms: EXPIRED_MS });
  return ledger;
}

/**
 * The lease held by HOLDER for run-2 (expired), while run-1 (owned by workflow run 200, completed, which
 * released the lease) waits to be taken over: a takeover of run-1 would move HOLDER's lease.
 */
async function anotherRunsHolder(status: string): Promise<LedgerContext> {
  world = await ledgerWorld();
  const ledger = world.context();
  const previous = { workflow_run_id: 200, attempt: 1 };
  setRun(world, previous.workflow_run_id, 'completed');
  setRun(world, HOLDER.workflow_run_id, status);
  await approve(world, ledger, 'run-1', previous);
  await releaseLease(ledger, { runId: 'run-1', epoch: 1, holder: { run_id: 'run-1', ...previous } });
  await approve(world, ledger, 'run-2', HOLDER);
  world.emulator.admin.clock({ advance_ms: EXPIRED_MS });
  return ledger;
}

async function leaseOf(ledger: LedgerContext): Promise<{ epoch: number; holder: unknown }> {
  const { lease } = await readRun(ledger, 'run-1');
  return { epoch: lease.epoch, holder: lease.holder };
}

function claimSettings(overrides: Partial<ClaimCheckpointStageSettings>): ClaimCheckpointStageSettings {
  return {
    apiUrl: 'http://127.0.0.1:1',
    repository: REPOSITORY,
    operation: 'takeover',
    runId: 'run-1',
    stepId: undefined,
    epoch: undefined,
    outcome: undefined,
    statusCode: null,
    errorCode: null,
    dryRun: false,
    ledger: { token: 'unused', branch: BRANCH, app: { slug: 'writ-ledger', id: 1 }, leaseMs: 600_000 },
    holder: TAKER,
    ...overrides,
  };
}

function sweep(current: LedgerWorld, ledger: LedgerContext) {
  return recoverRuns(
    {
      github: emulatorClient(current.emulator, LEDGER_TOKEN),
      actions: emulatorClient(current.emulator, ACTIONS_TOKEN),
      ledger,
      logger: silentLogger,
      observe: () => Promise.resolve({ state: 'unknown', reason: 'observer-unavailable' }),
    },
    {
      repository: { owner: OWNER, repo: REPO },
      serverUrl: 'https://github.com',
      holder: TAKER,
      commandPrefix: 'writ',
      allowedRoles: ['admin', 'maintain', 'write'],
      requireDistinctApprover: false,
      appBotLogin: 'writ-ledger[bot]',
      planFile: null,
      dryRun: false,
    },
  );
}

describe('a live holder is never taken over, whatever its lease says', () => {
  // Every status GitHub gives an attempt that has not completed (the REST API's run statuses).
  it.each(['in_progress', 'queued', 'waiting', 'requested', 'pending'])(
    'refuses takeoverRun of a %s holder after its lease expired, and the lease stays',
    async (status) => {
      const ledger = await expiredHolder(status);
      const before = await leaseOf(ledger);
      const error = await refusalError(takeoverRun(ledger, { runId: 'run-1', holder: TAKER }));
      expect(error.code).toBe('repository-lease-held');
      expect(error.message).toContain(`workflow run 100 attempt 1`);
      expect(error.message).toContain(status);
      expect(await leaseOf(ledger)).toEqual(before);
      // A dry run says the same.
      expect(await refusal(takeoverRun(ledger, { runId: 'run-1', holder: TAKER }, { dryRun: true }))).toBe(
        'repository-lease-held',
      );
    },
  );

  it('refuses claim-checkpoint takeover of an in-progress holder after expiry', async () => {
    const ledger = await expiredHolder('in_progress');
    const before = await leaseOf(ledger);
    expect(await refusal(claimCheckpointStage(claimSettings({}), { ledger }))).toBe('repository-lease-held');
    expect(await leaseOf(ledger)).toEqual(before);
  });

  it('leaves an in-progress holder alone in a recovery sweep after expiry', async () => {
    const ledger = await expiredHolder('in_progress');
    const before = await leaseOf(ledger);
    const report = await sweep(world!, ledger);
    expect(report.takenOver).toBe(0);
    expect(report.runs[0]).toMatchObject({
      runId: 'run-1',
      action: 'left-alone',
      reason: 'holder-in-progress',
    });
    expect(await leaseOf(ledger)).toEqual(before);
  });
});

describe('a live holder of another run is not taken over through this one', () => {
  it('refuses takeoverRun of a run whose own owner is gone while the lease holder runs', async () => {
    const ledger = await anotherRunsHolder('in_progress');
    const before = await leaseOf(ledger);
    expect(before.holder).toMatchObject({ run_id: 'run-2', ...HOLDER });
    const error = await refusalError(takeoverRun(ledger, { runId: 'run-1', holder: TAKER }));
    expect(error.code).toBe('repository-lease-held');
    expect(await leaseOf(ledger)).toEqual(before);
  });

  it('refuses claim-checkpoint takeover of that run', async () => {
    const ledger = await anotherRunsHolder('queued');
    const before = await leaseOf(ledger);
    expect(await refusal(claimCheckpointStage(claimSettings({}), { ledger }))).toBe('repository-lease-held');
    expect(await leaseOf(ledger)).toEqual(before);
  });

  it('takes over neither run in a recovery sweep', async () => {
    const ledger = await anotherRunsHolder('in_progress');
    const before = await leaseOf(ledger);
    const report = await sweep(world!, ledger);
    expect(report.takenOver).toBe(0);
    const byRun = Object.fromEntries(report.runs.map((run) => [run.runId, run]));
    expect(byRun['run-1']).toMatchObject({ action: 'waiting', reason: 'repository-lease-held' });
    expect(byRun['run-2']).toMatchObject({ action: 'left-alone', reason: 'holder-in-progress' });
    expect(await leaseOf(ledger)).toEqual(before);
  });

  it('takes the run over once that holder completed', async () => {
    const ledger = await anotherRunsHolder('in_progress');
    setRun(world!, HOLDER.workflow_run_id, 'completed');
    const outcome = await takeoverRun(ledger, { runId: 'run-1', holder: TAKER });
    expect(outcome.result.lease?.holder).toMatchObject({ run_id: 'run-1', ...TAKER });
  });
});

describe('a holder that is gone is taken over', () => {
  it('takes over a completed holder (takeoverRun, then claim-checkpoint on a second expiry)', async () => {
    const ledger = await expiredHolder('completed');
    const outcome = await takeoverRun(ledger, { runId: 'run-1', holder: TAKER });
    expect(outcome.result.epoch).toBe(2);
    expect(outcome.result.lease?.holder).toMatchObject(TAKER);
    setRun(world!, TAKER.workflow_run_id, 'completed');
    world!.emulator.admin.clock({ advance_ms: EXPIRED_MS });
    const result = await claimCheckpointStage(
      claimSettings({ holder: { workflow_run_id: 301, attempt: 1 } }),
      {
        ledger,
      },
    );
    expect(result.outputs).toMatchObject({ outcome: 'taken-over', epoch: 3 });
  });

  it('takes over a completed holder in a recovery sweep', async () => {
    const ledger = await expiredHolder('completed');
    const report = await sweep(world!, ledger);
    expect(report.takenOver).toBe(1);
    expect((await leaseOf(ledger)).holder).toMatchObject(TAKER);
  });

  it('takes over a holder whose workflow run GitHub does not have (404: deleted, or never started)', async () => {
    const ledger = await expiredHolder(null);
    const outcome = await takeoverRun(ledger, { runId: 'run-1', holder: TAKER });
    expect(outcome.result.lease?.holder).toMatchObject(TAKER);
  });

  it('lets a re-run take over its own earlier attempt: the recorded attempt completed', async () => {
    const ledger = await expiredHolder('in_progress');
    // GitHub re-runs only a completed run: attempt 1 completed, attempt 2 now runs.
    setRun(world!, HOLDER.workflow_run_id, 'completed');
    setRun(world!, HOLDER.workflow_run_id, 'in_progress', 2);
    const outcome = await takeoverRun(ledger, { runId: 'run-1', holder: { ...HOLDER, attempt: 2 } });
    expect(outcome.result.lease?.holder).toMatchObject({ ...HOLDER, attempt: 2 });
    // Now attempt 2 holds the lease and runs: nobody takes it from it, even after expiry.
    world!.emulator.admin.clock({ advance_ms: EXPIRED_MS });
    expect(await refusal(takeoverRun(ledger, { runId: 'run-1', holder: TAKER }))).toBe(
      'repository-lease-held',
    );
  });
});

/**
 * run-1 `running` under HOLDER, whose workflow run is still in progress (the handover job runs in it):
 * step-1 done, then the lease released at the owner's own epoch (persist's `handover`, released by the
 * workflow's release step), long before it would expire.
 */
async function handedOver(): Promise<LedgerContext> {
  world = await ledgerWorld();
  const ledger = world.context();
  setRun(world, HOLDER.workflow_run_id, 'in_progress');
  await approve(world, ledger, 'run-1', HOLDER);
  const holder = { run_id: 'run-1', ...HOLDER };
  await claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder });
  await checkpointStep(ledger, {
    runId: 'run-1',
    stepId: 'step-1',
    epoch: 1,
    holder,
    outcome: 'done',
    evidence: { status_code: 200, error_code: null },
  });
  await releaseLease(ledger, { runId: 'run-1', epoch: 1, holder });
  return ledger;
}

describe('a holder that released the lease at its own epoch (a handover) is taken over at once', () => {
  it('is taken over by the next sweep and listed as resumable, its workflow run still in progress', async () => {
    const ledger = await handedOver();
    expect((await readRun(ledger, 'run-1')).run?.state).toBe('running');
    const report = await sweep(world!, ledger);
    expect(report.takenOver).toBe(1);
    expect(report.runs[0]).toMatchObject({ runId: 'run-1', action: 'taken-over', reason: 'resumable' });
    expect(report.resumable).toEqual([{ run_id: 'run-1', epoch: 2 }]);
    expect(await leaseOf(ledger)).toEqual({ epoch: 2, holder: { run_id: 'run-1', ...TAKER } });
    const run = (await readRun(ledger, 'run-1')).run;
    expect(run?.steps.map((step) => step.status)).toEqual(['done', 'pending', 'pending']);
    // The released holder is fenced: it claims nothing more.
    expect(
      await refusal(
        claimStep(ledger, {
          runId: 'run-1',
          stepId: 'step-2',
          epoch: 1,
          holder: { run_id: 'run-1', ...HOLDER },
        }),
      ),
    ).toBe('fenced');
  });

  it('reads no liveness for it: takeoverRun succeeds while the Actions API cannot be read', async () => {
    const ledger = await handedOver();
    world!.emulator.admin.addFault({
      match: { method: 'GET', path: '/repos/acme/widgets/actions/runs/*/attempts/*' },
      fault: { type: 'status', status: 502 },
    });
    const outcome = await takeoverRun(ledger, { runId: 'run-1', holder: TAKER });
    expect(outcome.result.epoch).toBe(2);
  });

  it('still waits for an in-progress holder whose lease was not released (unexpired, then expired)', async () => {
    const ledger = await expiredHolder('in_progress');
    world!.emulator.admin.clock({ advance_ms: -EXPIRED_MS });
    expect((await sweep(world!, ledger)).runs[0]).toMatchObject({ reason: 'lease-unexpired' });
    world!.emulator.admin.clock({ advance_ms: EXPIRED_MS });
    expect((await sweep(world!, ledger)).runs[0]).toMatchObject({ reason: 'holder-in-progress' });
  });
});

describe('a holder Writ cannot read is not gone', () => {
  it('refuses when the Actions read fails with a 5xx, and makes no commit', async () => {
    const ledger = await expiredHolder('completed');
    const before = await leaseOf(ledger);
    world!.emulator.admin.addFault({
      match: { method: 'GET', path: '/repos/acme/widgets/actions/runs/*/attempts/*' },
      fault: { type: 'status', status: 502 },
    });
    const error = await refusalError(takeoverRun(ledger, { runId: 'run-1', holder: TAKER }));
    expect(error.code).toBe('holder-liveness-unproven');
    expect(error.message).toContain('liveness-unreadable');
    expect(await refusal(claimCheckpointStage(claimSettings({}), { ledger }))).toBe(
      'holder-liveness-unproven',
    );
    expect(await leaseOf(ledger)).toEqual(before);
  });

  it('refuses when the token cannot read Actions (403), even for a completed holder', async () => {
    world = await ledgerWorld();
    setRun(world, HOLDER.workflow_run_id, 'completed');
    const reader = world.context();
    await approve(world, reader, 'run-1', HOLDER);
    world.emulator.admin.clock({ advance_ms: EXPIRED_MS });
    // The ledger's default liveness reads with the ledger's own client: the app token has no actions: read.
    const ledger = createLedgerContext(
      { github: emulatorClient(world.emulator, LEDGER_TOKEN) },
      {
        repository: REPOSITORY,
        branch: BRANCH,
        app: world.app,
        policy: { leaseMs: 600_000, graceMs: 60_000 },
      },
    );
    const error = await refusalError(takeoverRun(ledger, { runId: 'run-1', holder: TAKER }));
    expect(error.code).toBe('holder-liveness-unproven');
    expect(error.message).toContain('liveness-forbidden');
  });
});

describe('a consume that finds an expired lease', () => {
  it('takes it only from a holder proven gone: live keeps it, unreadable keeps it, completed gives it up', async () => {
    const ledger = await expiredHolder('in_progress');
    const before = await leaseOf(ledger);
    // run-2's approval arrives after run-1's lease expired while run-1's job still runs.
    expect(await refusal(approve(world!, ledger, 'run-2', TAKER))).toBe('repository-lease-held');
    expect(await leaseOf(ledger)).toEqual(before);
    world!.emulator.admin.addFault({
      match: { method: 'GET', path: '/repos/acme/widgets/actions/runs/*/attempts/*' },
      fault: { type: 'status', status: 502 },
    });
    const plan = await proposePlanFor(ledger, 'run-3');
    const unreadable = consumeApproval(ledger, {
      runId: 'run-3',
      approval: await world!.approve('run-3', plan),
      plan: recomputed(plan),
      holder: TAKER,
    });
    expect(await refusal(unreadable)).toBe('holder-liveness-unproven');
    expect(await leaseOf(ledger)).toEqual(before);
    world!.emulator.admin.clearFaults();
    setRun(world!, HOLDER.workflow_run_id, 'completed');
    const again = await proposePlanFor(ledger, 'run-4');
    const outcome = await consumeApproval(ledger, {
      runId: 'run-4',
      approval: await world!.approve('run-4', again),
      plan: recomputed(again),
      holder: TAKER,
    });
    expect(outcome.result.epoch).toBe(2);
  });
});

describe('claim-checkpoint reads liveness with its actions-token', () => {
  it('takes over a completed holder with the actions token; the app token alone cannot read Actions', async () => {
    const seeded = await expiredHolder('completed');
    const before = await leaseOf(seeded);
    const target = { apiUrl: world!.emulator.url, repository: REPOSITORY };
    const settings = claimSettings({
      ledger: { token: LEDGER_TOKEN, branch: BRANCH, app: world!.app, leaseMs: 600_000 },
    });
    const appOnly = connect(target, settings.ledger, silentLogger);
    expect(await refusal(claimCheckpointStage(settings, appOnly))).toBe('holder-liveness-unproven');
    expect(await leaseOf(seeded)).toEqual(before);
    const withActions = connect(target, settings.ledger, silentLogger, { actionsToken: ACTIONS_TOKEN });
    const result = await claimCheckpointStage({ ...settings, actionsToken: ACTIONS_TOKEN }, withActions);
    expect(result.outputs).toMatchObject({ outcome: 'taken-over', epoch: 2 });
  });
});

describe('every path that takes a lease over passes through takeoverRun', () => {
  it('finds the takeover transition evaluated only in takeoverRun (and replayed, never committed, by replay)', () => {
    const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
    const sources = ['core/src', 'cli/src'].flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .map((file) => join(dir, file)),
    );
    // A call through the module namespace, or the function imported by name.
    const uses = /\btransitions\.takeover\(|\{[^}]*\btakeover\b[^}]*\}\s*from\s*'[^']*transitions\.js'/;
    const callers = sources.filter((file) => uses.test(readFileSync(join(root, file), 'utf8'))).sort();
    expect(callers).toEqual(['core/src/ledger/ledger.ts', 'core/src/ledger/replay.ts']);
  });
});
