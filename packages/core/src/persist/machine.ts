/**
 * persist's rules as a pure step machine: `next(state, observation)` says the one effect persist makes
 * next — read the gate, pre-read a step, claim a window, read a claim's time, write, verify (the
 * post-read), read back an unanswered write, retire duplicates, checkpoint, complete the run — or that
 * it finishes, with which outcome. It performs nothing: the executor (persist.ts) performs each action
 * with the real client and ledger and feeds what it observed back in. Every request persist makes and
 * every ledger commit it adds is decided here, in this order:
 *
 *   gate → (dry run: one read per step in the budget) →
 *   per window: resumed (steps this epoch left claimed) or fresh (pre-read each step, claim them all in
 *   one commit) → per step: read (a resumed step) → write → verify, or, with no definite answer, read
 *   back and write once more only when the pre-state is unchanged → one checkpoint per window (the
 *   last one completes the run).
 *
 * A window's pre-reads are actions of their own, so pacing or batching them is a change of this module
 * only. The state is plain data (the run file as last committed, the plan position, the budget, the
 * reports so far); nothing here reads a clock or the environment.
 */
import type { ErrorCode } from '../errors.js';
import { WritError } from '../errors.js';
import type { StepCheckpoint } from '../ledger/transitions.js';
import type { RunFile, RunStep, StepOutcome } from '../ledger/types.js';
import type { Plan, PlanStep } from '../plan/types.js';
import { milestoneKeysOf } from './observe.js';
import type { WritableStep } from './steps.js';
import { readsWriteOf } from './steps.js';

/** `handover`: the time budget was spent with steps left; the run stays `running`, resumable at every step. */
export type PersistOutcome =
  'completed' | 'handover' | 'waiting-external' | 'stopped' | 'gate-closed' | 'dry-run';

export interface StepReport {
  id: string;
  kind: PlanStep['kind'];
  /** What this invocation did with the step. */
  result: StepOutcome | 'claimed' | 'planned' | 'no-op' | 'waiting';
  write: string | null;
  statusCode: number | null;
  errorCode: string | null;
  resources: number[];
  diff: string[];
  notes: string[];
  /** Writes sent for the step in this invocation (0 for a no-op). */
  writes: number;
}

/** What one read of a step observed (steps.ts `Assessment`, without its write). */
export interface Reading {
  desired: boolean;
  resources: number[];
  diff: string[];
  inconclusive: string | null;
  notes: string[];
  duplicates: number[];
  /** Its `pre_state_digest` (preStateDigest). */
  digest: string | null;
  /** The write that would bring the desired state (`METHOD /path`), or null: none. */
  write: string | null;
}

/** What a step came to in this invocation (`unknown`: it stays claimed). */
export interface StepResult {
  status: StepOutcome | 'unknown';
  statusCode: number | null;
  errorCode: string | null;
  /** Why the run stops here (unknown outcomes and failures). */
  stopCode: ErrorCode | null;
  resources: number[];
  diff: string[];
  notes: string[];
  write: string | null;
  writes: number;
}

export interface MachineConfig {
  runId: string;
  epoch: number;
  plan: Plan;
  maxSteps: number;
  claimWindow: number;
  dryRun: boolean;
}

/** What a read is for: a dry run's, a fresh window's pre-read, a resumed step's read, a read-back. */
export type ReadPurpose = 'dry-run' | 'pre-read' | 'read' | 'read-back';

/** The facts of a read's `StepReadContext` that change during a run. */
export interface ReadContext {
  precheck: boolean;
  createdAfter: string | null;
  milestoneKeys: ReadonlyMap<string, number>;
}

export type Action = (
  | { kind: 'read-gate' }
  | { kind: 'read'; stepId: string; index: number; purpose: ReadPurpose; context: ReadContext }
  | { kind: 'claim'; stepIds: string[]; digests: Record<string, string | null> }
  | { kind: 'read-claim-time' }
  | { kind: 'write'; stepId: string; attempt: number }
  | { kind: 'verify'; stepId: string; resource: number | null }
  | { kind: 'retire-duplicates'; stepId: string; keep: number; duplicates: number[]; context: ReadContext }
  | { kind: 'checkpoint'; steps: StepCheckpoint[]; finish: CheckpointFinish }
  | { kind: 'complete-run' }
  | { kind: 'finish'; outcome: PersistOutcome; reason: string; refusal: Refusal | null }
) & {
  /** Logged, in order, before the action is performed. */
  warnings?: string[];
};

export type CheckpointFinish = { state: 'failed' | 'completed'; stopReason: string | null } | null;

export interface Refusal {
  code: ErrorCode;
  message: string;
}

export type Observation =
  | {
      kind: 'gate';
      open: boolean;
      code: ErrorCode | null;
      closed: readonly { kind: string; why: string }[];
      run: RunFile;
    }
  | { kind: 'read'; reading: Reading }
  | { kind: 'read-failed'; status: number | undefined; message: string }
  | { kind: 'claimed'; run: RunFile | null; serverTime: number }
  | { kind: 'claim-time'; at: number | null }
  | { kind: 'write-answered'; status: number; resource: number | null }
  | { kind: 'write-refused'; status: number | undefined }
  | { kind: 'write-ambiguous'; status: number | undefined }
  | { kind: 'verified'; observed: boolean }
  | { kind: 'verify-failed'; message: string }
  | { kind: 'retired'; left: number[] }
  | { kind: 'checkpointed'; run: RunFile | null }
  | { kind: 'completed'; run: RunFile | null };

interface Candidate {
  index: number;
  id: string;
  reading: Reading;
}

interface WindowRun {
  ids: readonly string[];
  /** Claimed by an earlier invocation (its steps are read again before anything is written). */
  resumed: boolean;
  /** A fresh window's pre-reads, made before its claim. */
  pre: ReadonlyMap<string, Reading>;
  position: number;
  outcomes: readonly { id: string; result: StepResult }[];
  stopAt: { id: string; result: StepResult } | null;
}

interface StepProgress {
  id: string;
  index: number;
  /** The `pre_state_digest` its claim recorded. */
  recorded: string | null;
  before: Reading | null;
  attempt: number;
  writes: number;
  /** The answered write awaiting its verify. */
  sent: { status: number; resource: number | null } | null;
  /** The unanswered write (its status, if any), awaiting its read-back. */
  unanswered: { status: number | undefined } | null;
  /** A done step awaiting its duplicates' retirement. */
  settling: { reading: Reading; statusCode: number | null } | null;
}

type Phase =
  | { at: 'gate' }
  | { at: 'dry-run'; index: number; budget: number }
  | { at: 'pre-read'; index: number; window: readonly Candidate[] }
  | { at: 'claim'; window: readonly Candidate[] }
  | { at: 'claim-time'; window: WindowRun }
  | { at: 'step'; window: WindowRun; step: StepProgress }
  | { at: 'checkpoint'; window: WindowRun; allDone: boolean }
  | { at: 'complete' }
  | { at: 'finished' };

export interface PersistState {
  config: MachineConfig;
  /** The run file as last read or committed (null until the gate was read). */
  run: RunFile | null;
  /** Steps this invocation may still claim (max-steps). */
  budget: number;
  /** The window's first claim on the server clock (the lower bound of a create's marker pre-check). */
  claimedAt: string | null;
  /** Milestone numbers known for marker keys. */
  milestoneKeys: ReadonlyMap<string, number>;
  reports: readonly StepReport[];
  ledgerCommits: number;
  phase: Phase;
}

export interface Decision {
  state: PersistState;
  action: Action;
}

const CREATING_KINDS: readonly PlanStep['kind'][] = ['milestone.upsert', 'issue.create', 'comment.upsert'];

function emptyResult(): StepResult {
  return {
    status: 'unknown',
    statusCode: null,
    errorCode: null,
    stopCode: null,
    resources: [],
    diff: [],
    notes: [],
    write: null,
    writes: 0,
  };
}

function codeForStatus(status: number | undefined): string {
  return status === undefined ? 'no-response' : `http-${status}`;
}

/** The first decision: read the gate. */
export function start(config: MachineConfig): Decision {
  return {
    state: {
      config,
      run: null,
      budget: config.maxSteps,
      claimedAt: null,
      milestoneKeys: new Map(),
      reports: [],
      ledgerCommits: 0,
      phase: { at: 'gate' },
    },
    action: { kind: 'read-gate' },
  };
}

/** The next action, given what the last one observed. */
export function next(state: PersistState, observation: Observation): Decision {
  const { phase } = state;
  switch (phase.at) {
    case 'gate':
      return afterGate(state, observed(observation, 'gate'));
    case 'dry-run':
      return afterDryRead(state, phase, observed(observation, 'read'));
    case 'pre-read':
      return afterPreRead(state, phase, observation);
    case 'claim':
      return afterClaim(state, phase.window, observed(observation, 'claimed'));
    case 'claim-time': {
      const { at } = observed(observation, 'claim-time');
      const claimedAt = at === null ? null : new Date(at).toISOString();
      return runWindow({ ...state, claimedAt }, phase.window);
    }
    case 'step':
      return afterStepObservation(state, phase.window, phase.step, observation);
    case 'checkpoint': {
      const { run } = observed(observation, 'checkpointed');
      const committed = { ...state, run: run ?? heldRun(state), ledgerCommits: state.ledgerCommits + 1 };
      return afterCheckpoint(committed, phase.window, phase.allDone);
    }
    case 'complete': {
      const { run } = observed(observation, 'completed');
      const completed = { ...state, run: run ?? heldRun(state), ledgerCommits: state.ledgerCommits + 1 };
      return finish(completed, 'completed', '', null);
    }
    case 'finished':
      throw new WritError('internal-error', 'persist machine: an observation after the finish');
  }
}

function observed<K extends Observation['kind']>(
  observation: Observation,
  kind: K,
): Extract<Observation, { kind: K }> {
  if (observation.kind !== kind)
    throw new WritError(
      'internal-error',
      `persist machine: expected a ${kind} observation, got ${observation.kind}`,
    );
  return observation as Extract<Observation, { kind: K }>;
}

function heldRun(state: PersistState): RunFile {
  if (state.run === null) throw new WritError('internal-error', 'persist machine: no run before the gate');
  return state.run;
}

function planStep(state: PersistState, index: number): PlanStep {
  return state.config.plan.steps[index] as PlanStep;
}

function readContext(state: PersistState, precheck: boolean): ReadContext {
  return {
    precheck,
    createdAfter: state.claimedAt ?? heldRun(state).approval?.consumed_at ?? null,
    milestoneKeys: state.milestoneKeys,
  };
}

function finish(
  state: PersistState,
  outcome: PersistOutcome,
  reason: string,
  refusal: Refusal | null,
  warning?: string,
): Decision {
  const action: Action = { kind: 'finish', outcome, reason, refusal };
  if (warning !== undefined) action.warnings = [warning];
  return { state: { ...state, phase: { at: 'finished' } }, action };
}

function stopped(state: PersistState, code: ErrorCode, message: string, warning?: string): Decision {
  return finish(state, 'stopped', code, { code, message }, warning);
}

function afterGate(state: PersistState, gate: Extract<Observation, { kind: 'gate' }>): Decision {
  const run = gate.run;
  const known = { ...state, run, milestoneKeys: milestoneKeysOf(state.config.plan, run) };
  const runId = state.config.runId;
  if (!gate.open) {
    const code = gate.code ?? 'live-writes-disabled';
    const closed = gate.closed.map((kind) => `${kind.kind} (${kind.why})`).join('; ');
    return finish(known, 'gate-closed', code, {
      code,
      message: `the persistence gate is closed for ${closed}; nothing was written`,
    });
  }
  if (run.state === 'completed') return finish(known, 'completed', '', null);
  if (run.state === 'needs-reconciliation')
    return stopped(known, 'needs-reconciliation', `run ${runId} needs reconciliation by a repository writer`);
  if (run.state !== 'approved' && run.state !== 'running') {
    return stopped(
      known,
      'invalid-transition',
      `run ${runId} is ${run.state} (${run.stop_reason ?? 'no reason'}); nothing to persist`,
    );
  }
  if (state.config.dryRun) return dryRunFrom(known, 0, state.config.maxSteps);
  return nextWindow(known);
}

/** A dry run: each open step in the budget is read once, and reported as `planned` or `no-op`. */
function dryRunFrom(state: PersistState, from: number, budget: number): Decision {
  const steps = heldRun(state).steps;
  for (let index = from; index < steps.length; index += 1) {
    const record = steps[index] as RunStep;
    if (record.status === 'done' || budget === 0) continue;
    const step = planStep(state, index);
    if (step.kind === 'external') {
      const reports = [...state.reports, report(step, 'waiting', emptyResult())];
      return finish({ ...state, reports }, 'dry-run', '', null);
    }
    return {
      state: { ...state, phase: { at: 'dry-run', index, budget: budget - 1 } },
      action: {
        kind: 'read',
        stepId: step.id,
        index,
        purpose: 'dry-run',
        context: readContext(state, record.status === 'claimed'),
      },
    };
  }
  return finish(state, 'dry-run', '', null);
}

function afterDryRead(
  state: PersistState,
  phase: { index: number; budget: number },
  { reading }: { reading: Reading },
): Decision {
  const step = planStep(state, phase.index);
  const result: StepResult = {
    ...emptyResult(),
    diff: reading.diff,
    notes: reading.notes,
    resources: reading.resources,
    write: reading.desired ? null : reading.write,
  };
  const reports = [...state.reports, report(step, reading.desired ? 'no-op' : 'planned', result)];
  return dryRunFrom({ ...state, reports }, phase.index + 1, phase.budget);
}

/** The loop's head: resume the steps this epoch left claimed, or pre-read and claim a fresh window. */
function nextWindow(state: PersistState): Decision {
  const run = heldRun(state);
  const { epoch } = state.config;
  const claimed = run.steps.filter((step) => step.status === 'claimed');
  if (claimed.length > 0) {
    const foreign = claimed.find((step) => step.epoch !== epoch);
    if (foreign !== undefined) {
      return stopped(
        state,
        'needs-reconciliation',
        `step ${foreign.id} was claimed by epoch ${foreign.epoch ?? '?'}, not ${epoch}`,
      );
    }
    if (claimed.some((step) => step.kind === 'external')) return finish(state, 'waiting-external', '', null);
    const window = openWindow(
      claimed.map((step) => step.id),
      true,
      new Map(),
    );
    const budgeted = { ...state, budget: state.budget - claimed.length };
    // Claimed by an earlier invocation: the claim commit's date bounds a create's pre-check.
    if (claimed.some((step) => step.kind === 'issue.create'))
      return {
        state: { ...budgeted, phase: { at: 'claim-time', window } },
        action: { kind: 'read-claim-time' },
      };
    return runWindow(budgeted, window);
  }
  const nextIndex = run.steps.findIndex((step) => step.status === 'pending');
  if (nextIndex === -1) return complete(state);
  if (run.steps[nextIndex]?.kind === 'external') return finish(state, 'waiting-external', '', null);
  if (state.budget <= 0) return finish(state, 'stopped', '', null);
  return preReadFrom(state, nextIndex, []);
}

function complete(state: PersistState): Decision {
  const open = heldRun(state).steps.find((step) => step.status !== 'done');
  if (open !== undefined) {
    return finish(state, 'stopped', heldRun(state).stop_reason ?? 'invalid-transition', {
      code: 'invalid-transition',
      message: `step ${open.id} is ${open.status}; the run cannot complete`,
    });
  }
  return { state: { ...state, phase: { at: 'complete' } }, action: { kind: 'complete-run' } };
}

function openWindow(ids: readonly string[], resumed: boolean, pre: ReadonlyMap<string, Reading>): WindowRun {
  return { ids, resumed, pre, position: 0, outcomes: [], stopAt: null };
}

/**
 * A fresh window grows from `index` while its steps are pending, writable, inside the claim window and
 * the budget, and none reads what an earlier one of the window writes; each is pre-read before the claim.
 */
function preReadFrom(state: PersistState, index: number, window: readonly Candidate[]): Decision {
  const steps = heldRun(state).steps;
  const record = steps[index];
  const room = window.length < Math.min(state.config.claimWindow, state.budget);
  if (record === undefined || !room || record.status !== 'pending' || record.kind === 'external')
    return claim(state, window);
  const step = planStep(state, index) as WritableStep;
  if (window.some((earlier) => readsWriteOf(step, planStep(state, earlier.index) as WritableStep)))
    return claim(state, window);
  return {
    state: { ...state, phase: { at: 'pre-read', index, window } },
    action: { kind: 'read', stepId: step.id, index, purpose: 'pre-read', context: readContext(state, false) },
  };
}

function afterPreRead(
  state: PersistState,
  phase: { index: number; window: readonly Candidate[] },
  observation: Observation,
): Decision {
  const id = planStep(state, phase.index).id;
  if (observation.kind === 'read-failed') {
    if (phase.window.length > 0) return claim(state, phase.window);
    return stopped(
      state,
      'github-request-failed',
      `run ${state.config.runId} stopped before claiming step ${id}: reading its pre-state failed (${codeForStatus(observation.status)})`,
      `step ${id}: reading its pre-state failed: ${observation.message}`,
    );
  }
  const { reading } = observed(observation, 'read');
  return preReadFrom(state, phase.index + 1, [...phase.window, { index: phase.index, id, reading }]);
}

function claim(state: PersistState, window: readonly Candidate[]): Decision {
  const digests: Record<string, string | null> = {};
  for (const candidate of window) digests[candidate.id] = candidate.reading.digest;
  return {
    state: { ...state, phase: { at: 'claim', window } },
    action: { kind: 'claim', stepIds: window.map((candidate) => candidate.id), digests },
  };
}

function afterClaim(
  state: PersistState,
  candidates: readonly Candidate[],
  claimed: Extract<Observation, { kind: 'claimed' }>,
): Decision {
  const pre = new Map(candidates.map((candidate) => [candidate.id, candidate.reading]));
  const window = openWindow(
    candidates.map((candidate) => candidate.id),
    false,
    pre,
  );
  return runWindow(
    {
      ...state,
      run: claimed.run ?? heldRun(state),
      ledgerCommits: state.ledgerCommits + 1,
      claimedAt: new Date(claimed.serverTime).toISOString(),
      budget: state.budget - candidates.length,
    },
    window,
  );
}

/** The window's next step: attempted, or, after a stop, recorded as not attempted; then its checkpoint. */
function runWindow(state: PersistState, window: WindowRun): Decision {
  if (window.position >= window.ids.length) return checkpoint(state, window);
  const id = window.ids[window.position] as string;
  if (window.stopAt !== null) {
    const result: StepResult = {
      ...emptyResult(),
      status: window.stopAt.result.status === 'unknown' ? 'unknown' : 'failed',
      errorCode: 'not-attempted',
    };
    return runWindow(state, {
      ...window,
      position: window.position + 1,
      outcomes: [...window.outcomes, { id, result }],
    });
  }
  const run = heldRun(state);
  const index = run.steps.findIndex((step) => step.id === id);
  const progress: StepProgress = {
    id,
    index,
    recorded: run.steps[index]?.pre_state_digest ?? null,
    before: null,
    attempt: 0,
    writes: 0,
    sent: null,
    unanswered: null,
    settling: null,
  };
  const pre = window.pre.get(id);
  if (pre !== undefined) return fromBefore(state, window, { ...progress, before: pre });
  const action: Action = {
    kind: 'read',
    stepId: id,
    index,
    purpose: 'read',
    context: readContext(state, window.resumed),
  };
  return { state: { ...state, phase: { at: 'step', window, step: progress } }, action };
}

function afterStepObservation(
  state: PersistState,
  window: WindowRun,
  step: StepProgress,
  observation: Observation,
): Decision {
  if (step.settling !== null) return settled(state, window, step, observed(observation, 'retired').left);
  if (step.before === null) {
    if (observation.kind === 'read-failed') {
      const result: StepResult = {
        ...emptyResult(),
        status: 'unknown',
        stopCode: 'github-request-failed',
        errorCode: codeForStatus(observation.status),
      };
      return stepDone(state, window, step, result, `step ${step.id}: reading failed: ${observation.message}`);
    }
    return fromBefore(state, window, { ...step, before: observed(observation, 'read').reading });
  }
  if (step.sent !== null) return afterVerify(state, window, step, observation);
  if (step.unanswered !== null) return afterReadBack(state, window, step, observation);
  return afterWrite(state, window, step, observation);
}

/** The pre-state read (before any write): desired, drifted, conflicting, or written. */
function fromBefore(state: PersistState, window: WindowRun, step: StepProgress): Decision {
  const before = step.before as Reading;
  const notes = before.notes;
  const unknown = (code: ErrorCode, extra: Partial<StepResult> = {}): Decision =>
    stepDone(state, window, step, {
      ...emptyResult(),
      status: 'unknown',
      stopCode: code,
      errorCode: code,
      notes,
      ...extra,
    });
  if (before.inconclusive !== null) return unknown('precheck-inconclusive');
  if (before.desired) return settle(state, window, step, before, null);
  if (window.resumed && drifted(step, before)) {
    return unknown('pre-state-drift', {
      diff: [`step ${step.id}: what it reads changed since its claim recorded it; nothing is written`],
    });
  }
  if (before.diff.length > 0) {
    if (window.resumed) return unknown('needs-reconciliation', { diff: before.diff });
    return stepDone(state, window, step, {
      ...emptyResult(),
      status: 'conflict',
      stopCode: 'conflict',
      errorCode: 'conflict',
      diff: before.diff,
      notes,
      resources: before.resources,
    });
  }
  if (before.write === null) {
    const result: StepResult = {
      ...emptyResult(),
      status: 'failed',
      stopCode: 'internal-error',
      errorCode: 'internal-error',
    };
    return stepDone(state, window, step, result);
  }
  return write(state, window, step);
}

/** The pre-state differs from the one its claim recorded (and the step is not done). */
function drifted(step: StepProgress, reading: Reading): boolean {
  return step.recorded !== null && !reading.desired && reading.digest !== step.recorded;
}

function write(state: PersistState, window: WindowRun, step: StepProgress): Decision {
  const attempt = step.attempt + 1;
  const progress: StepProgress = { ...step, attempt, writes: step.writes + 1, unanswered: null };
  return {
    state: { ...state, phase: { at: 'step', window, step: progress } },
    action: { kind: 'write', stepId: step.id, attempt },
  };
}

/** What the write's answer leads to: its verify, a refusal, or (no definite answer) a read-back. */
function afterWrite(
  state: PersistState,
  window: WindowRun,
  step: StepProgress,
  observation: Observation,
): Decision {
  const before = step.before as Reading;
  if (observation.kind === 'write-answered') {
    const sent = { status: observation.status, resource: observation.resource };
    return {
      state: { ...state, phase: { at: 'step', window, step: { ...step, sent } } },
      action: { kind: 'verify', stepId: step.id, resource: observation.resource },
    };
  }
  if (observation.kind === 'write-refused') {
    const { status } = observation;
    return stepDone(state, window, step, {
      ...emptyResult(),
      status: 'failed',
      stopCode: 'github-request-failed',
      errorCode: codeForStatus(status),
      statusCode: status ?? null,
      diff: [`GitHub refused ${before.write} with HTTP ${status ?? '?'}`],
      writes: step.writes,
      write: before.write,
      notes: before.notes,
    });
  }
  const { status } = observed(observation, 'write-ambiguous');
  const progress: StepProgress = { ...step, unanswered: { status } };
  return {
    state: { ...state, phase: { at: 'step', window, step: progress } },
    action: {
      kind: 'read',
      stepId: step.id,
      index: step.index,
      purpose: 'read-back',
      context: readContext(state, true),
      warnings: [
        `step ${step.id}: ${before.write} had no definite answer (${codeForStatus(status)}); reading back`,
      ],
    },
  };
}

/** The post-read of an answered write: the desired state observed, or the write silently dropped. */
function afterVerify(
  state: PersistState,
  window: WindowRun,
  step: StepProgress,
  observation: Observation,
): Decision {
  const before = step.before as Reading;
  const sent = step.sent as { status: number; resource: number | null };
  const common = { statusCode: sent.status, writes: step.writes, write: before.write, notes: before.notes };
  if (observation.kind === 'verify-failed') {
    const result: StepResult = {
      ...emptyResult(),
      status: 'unknown',
      stopCode: 'write-outcome-unknown',
      errorCode: 'write-outcome-unknown',
      ...common,
    };
    return stepDone(
      state,
      window,
      step,
      result,
      `step ${step.id}: the post-read failed: ${observation.message}`,
    );
  }
  const resources = sent.resource === null ? before.resources : [sent.resource];
  if (observed(observation, 'verified').observed)
    return stepDone(state, window, step, { ...emptyResult(), status: 'done', resources, ...common });
  return stepDone(state, window, step, {
    ...emptyResult(),
    status: 'failed',
    stopCode: 'write-silently-dropped',
    errorCode: 'write-silently-dropped',
    resources,
    diff: [`GitHub answered ${sent.status} to ${before.write} but a re-read shows the state unchanged`],
    ...common,
  });
}

/** The read-back of an unanswered write: landed, unchanged (sent once more, once), or unknown. */
function afterReadBack(
  state: PersistState,
  window: WindowRun,
  step: StepProgress,
  observation: Observation,
): Decision {
  const before = step.before as Reading;
  const common = { writes: step.writes, write: before.write };
  if (observation.kind === 'read-failed') {
    const result: StepResult = {
      ...emptyResult(),
      status: 'unknown',
      stopCode: 'write-outcome-unknown',
      errorCode: codeForStatus(observation.status),
      ...common,
    };
    return stepDone(state, window, step, result, `step ${step.id}: reading failed: ${observation.message}`);
  }
  const after = observed(observation, 'read').reading;
  const unknown = (code: ErrorCode, diff: string[]): Decision =>
    stepDone(state, window, step, {
      ...emptyResult(),
      status: 'unknown',
      stopCode: code,
      errorCode: code,
      diff,
      notes: before.notes,
      ...common,
    });
  if (after.inconclusive !== null) return unknown('precheck-inconclusive', []);
  const status = step.unanswered?.status;
  if (after.desired)
    return settle(state, window, step, after, status !== undefined && status >= 100 ? status : null);
  if (after.diff.length > 0 || drifted(step, after) || step.attempt === 2)
    return unknown('write-outcome-unknown', after.diff);
  // The read-back shows the pre-state unchanged: the write did not land, so it is sent once more.
  return write(state, window, step);
}

/** The desired state is observed: done, after Writ's own later duplicates are retired (oldest wins). */
function settle(
  state: PersistState,
  window: WindowRun,
  step: StepProgress,
  reading: Reading,
  statusCode: number | null,
): Decision {
  const keep = reading.resources[0];
  const progress: StepProgress = { ...step, settling: { reading, statusCode } };
  if (reading.duplicates.length === 0 || keep === undefined) return settled(state, window, progress, null);
  return {
    state: { ...state, phase: { at: 'step', window, step: progress } },
    action: {
      kind: 'retire-duplicates',
      stepId: step.id,
      keep,
      duplicates: reading.duplicates,
      context: readContext(state, true),
    },
  };
}

function settled(
  state: PersistState,
  window: WindowRun,
  step: StepProgress,
  left: number[] | null,
): Decision {
  const { reading, statusCode } = step.settling as { reading: Reading; statusCode: number | null };
  const before = step.before as Reading;
  const resources = reading.resources;
  const notes =
    left === null
      ? before.notes
      : [
          ...before.notes,
          `retired ${reading.duplicates.length - left.length} duplicate(s) of #${resources[0]}: ${reading.duplicates.map((n) => `#${n}`).join(', ')}`,
        ];
  return stepDone(state, window, step, {
    ...emptyResult(),
    status: 'done',
    statusCode,
    resources,
    notes,
    writes: step.writes,
    write: reading.write,
  });
}

/** A step's result: reported, its milestone key learnt, and the window moves on (or stops). */
function stepDone(
  state: PersistState,
  window: WindowRun,
  step: StepProgress,
  result: StepResult,
  warning?: string,
): Decision {
  const planned = planStep(state, step.index);
  const reports = [
    ...state.reports,
    report(planned, result.status === 'unknown' ? 'claimed' : result.status, result),
  ];
  let milestoneKeys = state.milestoneKeys;
  if (result.status === 'done' && planned.kind === 'milestone.upsert' && result.resources[0] !== undefined)
    milestoneKeys = new Map([...milestoneKeys, [planned.key, result.resources[0]]]);
  const outcome = { id: step.id, result };
  const decision = runWindow(
    { ...state, reports, milestoneKeys },
    {
      ...window,
      position: window.position + 1,
      outcomes: [...window.outcomes, outcome],
      stopAt: result.status === 'done' ? window.stopAt : outcome,
    },
  );
  if (warning !== undefined) decision.action.warnings = [warning, ...(decision.action.warnings ?? [])];
  return decision;
}

/** One checkpoint for the window's definite outcomes; it finishes the run when it failed or is done. */
function checkpoint(state: PersistState, window: WindowRun): Decision {
  const run = heldRun(state);
  const definite = window.outcomes.filter((entry) => entry.result.status !== 'unknown');
  const unknown = window.outcomes.some((entry) => entry.result.status === 'unknown');
  const failed = definite.find((entry) => entry.result.status !== 'done');
  const doneAfter = new Set([
    ...run.steps.filter((step) => step.status === 'done').map((step) => step.id),
    ...definite.filter((entry) => entry.result.status === 'done').map((entry) => entry.id),
  ]);
  const allDone = !unknown && run.steps.every((step) => doneAfter.has(step.id));
  const finishRun: CheckpointFinish = unknown
    ? null
    : failed !== undefined
      ? { state: 'failed', stopReason: failed.result.stopCode ?? 'failed' }
      : allDone
        ? { state: 'completed', stopReason: null }
        : null;
  if (definite.length === 0 && finishRun === null) return afterCheckpoint(state, window, allDone);
  const steps: StepCheckpoint[] = definite.map((entry) => ({
    stepId: entry.id,
    outcome: entry.result.status as StepOutcome,
    evidence: { status_code: entry.result.statusCode, error_code: entry.result.errorCode },
    resources: entry.result.resources.slice(0, 100),
  }));
  return {
    state: { ...state, phase: { at: 'checkpoint', window, allDone } },
    action: { kind: 'checkpoint', steps, finish: finishRun },
  };
}

function afterCheckpoint(state: PersistState, window: WindowRun, allDone: boolean): Decision {
  const stop = window.stopAt;
  if (stop !== null) {
    const code = stop.result.stopCode ?? 'write-outcome-unknown';
    return stopped(
      state,
      code,
      `run ${state.config.runId} stopped at step ${stop.id}: ${stop.result.diff[0] ?? code}`,
    );
  }
  if (allDone) return finish(state, 'completed', '', null);
  return nextWindow(state);
}

function report(step: PlanStep, result: StepReport['result'], run: StepResult): StepReport {
  return {
    id: step.id,
    kind: step.kind,
    result,
    write: run.write,
    statusCode: run.statusCode,
    errorCode: run.errorCode,
    resources: run.resources,
    diff: run.diff,
    notes: run.notes,
    writes: run.writes,
  };
}

/** What a finished run reports of its steps (the run file as last committed). */
export function summaryOf(state: PersistState): {
  stepsDone: number;
  stepsTotal: number;
  nextStep: string;
  created: Record<string, number>;
  steps: StepReport[];
  ledgerCommits: number;
} {
  const run = heldRun(state);
  const firstOpen = run.steps.find((step) => step.status !== 'done');
  const created: Record<string, number> = {};
  state.config.plan.steps.forEach((step, index) => {
    const number = run.steps[index]?.resources[0];
    if (CREATING_KINDS.includes(step.kind) && number !== undefined) created[step.id] = number;
  });
  return {
    stepsDone: run.steps.filter((step) => step.status === 'done').length,
    stepsTotal: run.steps.length,
    nextStep: firstOpen?.id ?? '',
    created,
    steps: [...state.reports],
    ledgerCommits: state.ledgerCommits,
  };
}
