/**
 * Model-based tests (fast-check): random sequences of propose / consume / claim / checkpoint / takeover
 * / release / clock moves run against the real ledger functions (over the in-memory store) and against
 * a small reference model written independently from transitions.ts. After every command the outcome
 * (success or the exact refusal code) and the whole ledger state must agree. A second property races
 * concurrent consumers under fast-check's scheduler: exactly one wins, the rest are refused with a code.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { WritError } from '../../src/errors.js';
import { bootstrapLedger, showLedger } from '../../src/ledger/bootstrap.js';
import type { LedgerContext } from '../../src/ledger/cas.js';
import {
  checkpointStep,
  claimStep,
  consumeApproval,
  createLedgerContext,
  proposeRun,
  releaseLease,
  takeoverRun,
} from '../../src/ledger/ledger.js';
import type { LedgerStore } from '../../src/ledger/store.js';
import { APP, MemoryLedgerStore, holdersFinished, instantClock } from './support/memory-store.js';
import { CAMPAIGNS } from '../../../../test/support/campaigns.mjs';
import { approvalFor, planFor, recomputed } from './support/fixtures.js';

const LEASE_MS = 60_000;
const GRACE_MS = 5_000;
const RUNS = ['run-a', 'run-b'] as const;
const STEPS = ['step-1', 'step-2'] as const;

type StepStatus = 'pending' | 'claimed' | 'done' | 'conflict' | 'failed';
interface ModelRun {
  state: string;
  approved: boolean;
  ownerEpoch: number | null;
  steps: { status: StepStatus; epoch: number | null }[];
}
interface ModelHolder {
  run: string;
  wf: number;
  attempt: number;
}
interface Model {
  now: number;
  runs: Map<string, ModelRun>;
  epoch: number;
  holder: ModelHolder | null;
  expiresAt: number | null;
  consumedRuns: Set<string>;
  consumedComments: Set<number>;
}
interface Real {
  store: MemoryLedgerStore;
  ledger: LedgerContext;
}

function leaseLive(model: Model): boolean {
  return model.holder !== null && (model.expiresAt === null || model.now < model.expiresAt + GRACE_MS);
}

/** The holder check, written from the contract: another run's lease → held; any other mismatch → fenced. */
function fence(model: Model, run: string, epoch: number, holder: ModelHolder): string | null {
  if (model.holder !== null && model.holder.run !== run) return 'repository-lease-held';
  const owner = model.runs.get(run)?.ownerEpoch ?? null;
  const same =
    model.holder !== null &&
    model.holder.wf === holder.wf &&
    model.holder.attempt === holder.attempt &&
    model.holder.run === holder.run;
  if (model.epoch !== epoch || !same || owner !== epoch) return 'fenced';
  return null;
}

function stateGate(run: ModelRun, allowed: string[]): string | null {
  if (allowed.includes(run.state)) return null;
  return run.state === 'needs-reconciliation' ? 'needs-reconciliation' : 'invalid-transition';
}

async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error: unknown) {
    if (error instanceof WritError) return error.code;
    throw error;
  }
}

async function compare(model: Model, real: Real): Promise<void> {
  const overview = await showLedger(real.ledger);
  expect(overview.lease.epoch).toBe(model.epoch);
  expect(overview.lease.holder === null ? null : overview.lease.holder.run_id).toBe(
    model.holder?.run ?? null,
  );
  expect(overview.lease.lease_expires_at === null ? null : Date.parse(overview.lease.lease_expires_at)).toBe(
    model.holder === null ? null : model.expiresAt,
  );
  expect(overview.runs.map((run) => run.run_id).sort()).toEqual([...model.runs.keys()].sort());
  for (const run of overview.runs) {
    const expected = model.runs.get(run.run_id)!;
    expect({
      state: run.state,
      approved: run.approval !== null,
      ownerEpoch: run.owner?.epoch ?? null,
      steps: run.steps.map((step) => ({ status: step.status, epoch: step.epoch })),
    }).toEqual(expected);
  }
}

type Cmd = fc.AsyncCommand<Model, Real>;

class Propose implements Cmd {
  constructor(readonly runId: string) {}
  check = (): boolean => true;
  async run(model: Model, real: Real): Promise<void> {
    const plan = planFor(this.runId, STEPS.length);
    const expected = model.runs.has(this.runId) ? 'run-exists' : 'ok';
    const got = await outcome(
      proposeRun(real.ledger, {
        runId: this.runId,
        planDigest: plan.digest,
        evidenceDigest: null,
        scope: plan.scope,
        bounds: plan.bounds,
        steps: plan.steps,
      }),
    );
    expect(got).toBe(expected);
    if (expected === 'ok') {
      model.runs.set(this.runId, {
        state: 'proposed',
        approved: false,
        ownerEpoch: null,
        steps: STEPS.map(() => ({ status: 'pending', epoch: null })),
      });
    }
    await compare(model, real);
  }
  toString = (): string => `propose(${this.runId})`;
}

class Consume implements Cmd {
  constructor(
    readonly runId: string,
    readonly comment: number,
    readonly wf: number,
  ) {}
  check = (): boolean => true;
  async run(model: Model, real: Real): Promise<void> {
    const plan = planFor(this.runId, STEPS.length);
    const run = model.runs.get(this.runId);
    let expected = 'ok';
    if (run === undefined) expected = 'run-not-found';
    else if (run.approved || run.state !== 'proposed') expected = 'approval-already-consumed';
    else if (model.consumedRuns.has(this.runId) || model.consumedComments.has(this.comment))
      expected = 'approval-already-consumed';
    else if (leaseLive(model)) expected = 'repository-lease-held';
    const got = await outcome(
      consumeApproval(real.ledger, {
        runId: this.runId,
        approval: approvalFor(plan, this.comment),
        plan: recomputed(plan),
        holder: { workflow_run_id: this.wf, attempt: 1 },
      }),
    );
    expect(got).toBe(expected);
    if (expected === 'ok' && run !== undefined) {
      model.epoch += 1;
      model.holder = { run: this.runId, wf: this.wf, attempt: 1 };
      model.expiresAt = model.now + LEASE_MS;
      run.state = 'approved';
      run.approved = true;
      run.ownerEpoch = model.epoch;
      model.consumedRuns.add(this.runId);
      model.consumedComments.add(this.comment);
    }
    await compare(model, real);
  }
  toString = (): string => `consume(${this.runId}, comment ${this.comment}, wf ${this.wf})`;
}

/** Claims/checkpoints/releases act as the run's current owner, or with a stale epoch (offset). */
function actingHolder(model: Model, run: string, wf: number): { epoch: number; holder: ModelHolder } {
  const owner = model.holder !== null && model.holder.run === run ? model.holder : { run, wf, attempt: 1 };
  return { epoch: model.runs.get(run)?.ownerEpoch ?? model.epoch, holder: owner };
}

class Claim implements Cmd {
  constructor(
    readonly runId: string,
    readonly step: number,
    readonly stale: boolean,
    readonly wf: number,
  ) {}
  check = (): boolean => true;
  async run(model: Model, real: Real): Promise<void> {
    const { epoch: ownerEpoch, holder } = actingHolder(model, this.runId, this.wf);
    const epoch = this.stale ? Math.max(1, ownerEpoch - 1) : ownerEpoch;
    const run = model.runs.get(this.runId);
    let expected: string | null = null;
    if (run === undefined) expected = 'run-not-found';
    else expected = stateGate(run, ['approved', 'running']) ?? fence(model, this.runId, epoch, holder);
    if (expected === null && run !== undefined) {
      const step = run.steps[this.step]!;
      if (step.status !== 'pending') expected = 'invalid-transition';
      else if (run.steps.slice(0, this.step).some((s) => s.status === 'pending' || s.status === 'claimed'))
        expected = 'invalid-transition';
    }
    const got = await outcome(
      claimStep(real.ledger, {
        runId: this.runId,
        stepId: STEPS[this.step]!,
        epoch,
        holder: { run_id: holder.run, workflow_run_id: holder.wf, attempt: holder.attempt },
      }),
    );
    expect(got).toBe(expected ?? 'ok');
    if (expected === null && run !== undefined) {
      run.state = 'running';
      run.steps[this.step] = { status: 'claimed', epoch };
      model.expiresAt = model.now + LEASE_MS;
    }
    await compare(model, real);
  }
  toString = (): string => `claim(${this.runId}, ${this.step}${this.stale ? ', stale epoch' : ''})`;
}

class Checkpoint implements Cmd {
  constructor(
    readonly runId: string,
    readonly step: number,
    readonly result: 'done' | 'conflict' | 'failed',
    readonly wf: number,
  ) {}
  check = (): boolean => true;
  async run(model: Model, real: Real): Promise<void> {
    const { epoch, holder } = actingHolder(model, this.runId, this.wf);
    const run = model.runs.get(this.runId);
    let expected: string | null = null;
    if (run === undefined) expected = 'run-not-found';
    else expected = stateGate(run, ['running']) ?? fence(model, this.runId, epoch, holder);
    if (expected === null && run !== undefined) {
      const step = run.steps[this.step]!;
      if (step.status !== 'claimed' || step.epoch !== epoch) expected = 'invalid-transition';
    }
    const got = await outcome(
      checkpointStep(real.ledger, {
        runId: this.runId,
        stepId: STEPS[this.step]!,
        epoch,
        holder: { run_id: holder.run, workflow_run_id: holder.wf, attempt: holder.attempt },
        outcome: this.result,
        evidence: { status_code: 200, error_code: null },
      }),
    );
    expect(got).toBe(expected ?? 'ok');
    if (expected === null && run !== undefined) {
      run.steps[this.step] = { status: this.result, epoch };
      model.expiresAt = model.now + LEASE_MS;
      // The checkpoint that leaves every step done completes the run and frees the lease with it.
      if (run.steps.every((step) => step.status === 'done')) {
        run.state = 'completed';
        model.holder = null;
        model.expiresAt = null;
      }
    }
    await compare(model, real);
  }
  toString = (): string => `checkpoint(${this.runId}, ${this.step}, ${this.result})`;
}

class Takeover implements Cmd {
  constructor(
    readonly runId: string,
    readonly attempt: number,
  ) {}
  check = (): boolean => true;
  async run(model: Model, real: Real): Promise<void> {
    const run = model.runs.get(this.runId);
    let expected: string | null = null;
    if (run === undefined) expected = 'run-not-found';
    else
      expected =
        stateGate(run, ['approved', 'running']) ?? (leaseLive(model) ? 'repository-lease-held' : null);
    const got = await outcome(
      takeoverRun(real.ledger, { runId: this.runId, holder: { workflow_run_id: 1, attempt: this.attempt } }),
    );
    expect(got).toBe(expected ?? 'ok');
    if (expected === null && run !== undefined) {
      model.epoch += 1;
      run.ownerEpoch = model.epoch;
      if (run.steps.some((step) => step.status === 'claimed')) {
        run.state = 'needs-reconciliation';
        model.holder = null;
        model.expiresAt = null;
      } else {
        model.holder = { run: this.runId, wf: 1, attempt: this.attempt };
        model.expiresAt = model.now + LEASE_MS;
      }
    }
    await compare(model, real);
  }
  toString = (): string => `takeover(${this.runId}, attempt ${this.attempt})`;
}

class Release implements Cmd {
  constructor(
    readonly runId: string,
    readonly wf: number,
  ) {}
  check = (): boolean => true;
  async run(model: Model, real: Real): Promise<void> {
    const { epoch, holder } = actingHolder(model, this.runId, this.wf);
    const expected = model.runs.has(this.runId) ? fence(model, this.runId, epoch, holder) : 'run-not-found';
    const got = await outcome(
      releaseLease(real.ledger, {
        runId: this.runId,
        epoch,
        holder: { run_id: holder.run, workflow_run_id: holder.wf, attempt: holder.attempt },
      }),
    );
    expect(got).toBe(expected ?? 'ok');
    if (expected === null) {
      model.holder = null;
      model.expiresAt = null;
    }
    await compare(model, real);
  }
  toString = (): string => `release(${this.runId})`;
}

class Advance implements Cmd {
  constructor(readonly ms: number) {}
  check = (): boolean => true;
  run(model: Model, real: Real): Promise<void> {
    model.now += this.ms;
    real.store.now += this.ms;
    return Promise.resolve();
  }
  toString = (): string => `advance(${this.ms})`;
}

const runArb = fc.constantFrom(...RUNS);
const commands = [
  // Weighted by repetition: leases, claims and clock moves are where the rules bite.
  runArb.map((run) => new Propose(run)),
  fc
    .tuple(runArb, fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 2 }))
    .map(([run, comment, wf]) => new Consume(run, comment, wf)),
  fc
    .tuple(runArb, fc.integer({ min: 0, max: 1 }), fc.boolean(), fc.integer({ min: 1, max: 2 }))
    .map(([run, step, stale, wf]) => new Claim(run, step, stale, wf)),
  fc
    .tuple(
      runArb,
      fc.integer({ min: 0, max: 1 }),
      fc.constantFrom('done', 'conflict', 'failed' as const),
      fc.integer({ min: 1, max: 2 }),
    )
    .map(([run, step, result, wf]) => new Checkpoint(run, step, result, wf)),
  fc.tuple(runArb, fc.integer({ min: 2, max: 4 })).map(([run, attempt]) => new Takeover(run, attempt)),
  fc.tuple(runArb, fc.integer({ min: 1, max: 2 })).map(([run, wf]) => new Release(run, wf)),
  fc
    .constantFrom(1_000, LEASE_MS / 2, LEASE_MS, LEASE_MS + GRACE_MS / 2, LEASE_MS + GRACE_MS)
    .map((ms) => new Advance(ms)),
];
commands.push(commands[1]!, commands[2]!, commands[3]!, commands[4]!, commands[6]!);

async function freshLedger(): Promise<Real> {
  const store = new MemoryLedgerStore();
  const ledger = createLedgerContext(
    { github: store, clock: instantClock, liveness: holdersFinished },
    { repository: 'acme/widgets', app: APP, policy: { leaseMs: LEASE_MS, graceMs: GRACE_MS }, seed: 5 },
  );
  await bootstrapLedger(ledger, { apply: true });
  return { store, ledger };
}

/** A ledger and model where run-a is already proposed, so short sequences reach leases and takeovers. */
async function seededWorld(): Promise<{ model: Model; real: Real }> {
  const real = await freshLedger();
  const model: Model = {
    now: real.store.now,
    runs: new Map(),
    epoch: 0,
    holder: null,
    expiresAt: null,
    consumedRuns: new Set(),
    consumedComments: new Set(),
  };
  await new Propose('run-a').run(model, real);
  return { model, real };
}

const NUM_RUNS = CAMPAIGNS.ledgerModelRuns;

describe('the ledger against a reference model', () => {
  it(`agrees with the model on every outcome and state (${NUM_RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 24, size: 'medium' }), async (cmds) => {
        const world = await seededWorld();
        await fc.asyncModelRun(() => world, cmds);
      }),
      { numRuns: NUM_RUNS, seed: 20261130 },
    );
  }, 120_000);

  it('elects exactly one winner among concurrent consumers in any interleaving (scheduler)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 2, max: 5 }), async (scheduler, writers) => {
        const { store, ledger } = await freshLedger();
        const plan = planFor('run-a', STEPS.length);
        await proposeRun(ledger, {
          runId: 'run-a',
          planDigest: plan.digest,
          evidenceDigest: null,
          scope: plan.scope,
          bounds: plan.bounds,
          steps: plan.steps,
        });
        // Every store call of every writer is an interleaving point chosen by the scheduler.
        const scheduled: LedgerStore = {
          location: store.location,
          read: scheduler.scheduleFunction((request) => store.read(request)),
          readFilesAt: scheduler.scheduleFunction((oid, paths) => store.readFilesAt(oid, paths)),
          readHistory: scheduler.scheduleFunction((head, cursor, first) =>
            store.readHistory(head, cursor, first),
          ),
          readCommits: scheduler.scheduleFunction((requests) => store.readCommits(requests)),
          comment: scheduler.scheduleFunction((repository, id) => store.comment(repository, id)),
          commit: scheduler.scheduleFunction((request) => store.commit(request)),
          branchRules: scheduler.scheduleFunction(() => store.branchRules()),
          ruleset: scheduler.scheduleFunction((id) => store.ruleset(id)),
          createRoot: (files, message) => store.createRoot(files, message),
        };
        const results = Array.from({ length: writers }, (_, index) =>
          outcome(
            consumeApproval(
              createLedgerContext(
                { github: scheduled, clock: instantClock, liveness: holdersFinished },
                { repository: 'acme/widgets', app: APP, seed: index + 1, maxAttempts: 20 },
              ),
              {
                runId: 'run-a',
                approval: approvalFor(plan, 77),
                plan: recomputed(plan),
                holder: { workflow_run_id: 100 + index, attempt: 1 },
              },
            ),
          ),
        );
        const codes = await scheduler.waitFor(Promise.all(results));
        expect(codes.filter((code) => code === 'ok')).toHaveLength(1);
        expect(
          codes.filter((code) => code !== 'ok').every((code) => code === 'approval-already-consumed'),
        ).toBe(true);
        const overview = await showLedger(ledger);
        expect(overview.lease.epoch).toBe(1);
      }),
      { numRuns: 300, seed: 42 },
    );
  }, 120_000);
});
