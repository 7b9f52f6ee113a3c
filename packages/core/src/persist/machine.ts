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
import type {
  KeyScope,
  ReceiptOutcome,
  RunFile,
  RunStep,
  StepOutcome,
  StepReceipt,
} from '../ledger/types.js';
import type { Plan, PlanStep } from '../plan/types.js';
import { milestoneKeysOf } from './observe.js';
import type { ReceiptKey, WritableStep } from './steps.js';
import { readsWriteOf } from './steps.js';

export type PersistOutcome =
  | 'completed'
  | 'waiting-external'
  | 'stopped'
  | 'gate-closed'
  | 'dry-run'
  /** The time budget is spent with steps left: the run stays running, for the next job to resume. */
  | 'handover';

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
  /** A creating step's receipt as this invocation left it (null: it creates nothing, or was not read). */
  receipt: StepReceipt | null;
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
  /** A creating step's key and scope, and whether its marker lookup found Writ's own item. */
  receipt: ReceiptKey | null;
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
  /** A creating step's receipt (its outcome settled, or `inconclusive`); null: none. */
  receipt: StepReceipt | null;
}

export interface MachineConfig {
  runId: string;
  epoch: number;
  plan: Plan;
  maxSteps: number;
  /** Steps per claim (`claimWindowFor`). */
  claimWindow: number;
  dryRun: boolean;
  /**
   * Milliseconds this invocation may spend (from its first window); null: no limit. No window is
   * claimed once the time spent plus the longest window so far reaches it: the run is handed over.
   */
  timeBudgetMs: number | null;
}

/** The largest window the adaptive default claims (its crash cost: the steps a kill leaves claimed). */
export const MAX_AUTO_WINDOW = 20;

/**
 * The claim window: the input's number, or (null, `auto`) ceil(√steps) capped at MAX_AUTO_WINDOW —
 * 1 for one step, 3 for 7, 8 for 50, 15 for 200, 20 from 362 on. A window costs two ledger commits
 * (its claim and its checkpoint), so content-creating requests per step are 1 + 2/k; a kill leaves up
 * to k steps claimed for the next invocation to read back, so k grows only as √n.
 */
export function claimWindowFor(plan: Plan, setting: number | null): number {
  if (setting !== null) return setting;
  return Math.min(MAX_AUTO_WINDOW, Math.max(1, Math.ceil(Math.sqrt(plan.steps.length))));
}

/**
 * The content-creating requests the run's open steps take at most (the pacer's hint): a write each (a
 * read-back's second send aside), and a claim and a checkpoint per window.
 */
export function contentRequestsLeft(run: RunFile, claimWindow: number): number {
  const open = run.steps.filter((step) => step.status !== 'done' && step.kind !== 'external').length;
  return open + 2 * Math.ceil(open / Math.max(1, claimWindow));
}

/** What a read is for: a dry run's, a resumed step's read, a read-back (a window's pre-reads: `read-window`). */
export type ReadPurpose = 'dry-run' | 'read' | 'read-back';

/** A read that failed: its status (none: no answer) and message. */
export interface ReadFailure {
  failed: true;
  status: number | undefined;
  message: string;
}

/** A window's post-read of one answered write: the desired state observed or not, or the read failed. */
export type VerifyResult = { observed: boolean } | { failed: string };

/** The facts of a read's `StepReadContext` that change during a run. */
export interface ReadContext {
  precheck: boolean;
  /** How far an issue create's key reaches (a claimed step: the scope its claim recorded). */
  keyScope: KeyScope;
  createdAfter: string | null;
  milestoneKeys: ReadonlyMap<string, number>;
}

export type Action = (
  | { kind: 'read-gate' }
  | { kind: 'read-clock' }
  | { kind: 'read'; stepId: string; index: number; purpose: ReadPurpose; context: ReadContext }
  | { kind: 'read-window'; stepIds: string[]; indexes: number[]; context: ReadContext }
  | {
      kind: 'claim';
      stepIds: string[];
      digests: Record<string, string | null>;
      /** Each creating step's receipt as its pre-read found it (outcome `exists`, `inconclusive`, or null). */
      receipts: Record<string, StepReceipt | null>;
    }
  | { kind: 'read-claim-time' }
  | { kind: 'write'; stepId: string; attempt: number }
  | { kind: 'verify-window'; entries: { stepId: string; resource: number | null }[]; context: ReadContext }
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
      /** The owner's policy's key scope (absent: `repository`). */
      keyScope?: KeyScope;
    }
  | { kind: 'clock'; now: number }
  | { kind: 'read'; reading: Reading }
  | { kind: 'read-failed'; status: number | undefined; message: string }
  /** One per step of the `read-window`, in its order. */
  | { kind: 'window-read'; readings: (Reading | ReadFailure)[] }
  | { kind: 'claimed'; run: RunFile | null; serverTime: number }
  | { kind: 'claim-time'; at: number | null }
  | { kind: 'write-answered'; status: number; resource: number | null }
  | { kind: 'write-refused'; status: number | undefined }
  | { kind: 'write-ambiguous'; status: number | undefined }
  /** GitHub's secondary rate limit refused the write (the client holds every request until it passes). */
  | { kind: 'write-limited'; status: number | undefined; retryAfterSeconds: number | null }
  /** One per entry of the `verify-window`, in its order. */
  | { kind: 'window-verified'; results: VerifyResult[] }
  | { kind: 'retired'; left: number[] }
  | { kind: 'checkpointed'; run: RunFile | null }
  | { kind: 'completed'; run: RunFile | null };

interface Candidate {
  index: number;
  id: string;
  reading: Reading;
}

/** An answered write awaiting the window's post-read. */
interface SentWrite {
  step: StepProgress;
  status: number;
  resource: number | null;
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
  /** Answered writes, verified together when the window's writes are sent. */
  sent: readonly SentWrite[];
}

interface StepProgress {
  id: string;
  index: number;
  /** The `pre_state_digest` its claim recorded. */
  recorded: string | null;
  before: Reading | null;
  attempt: number;
  /** Writes the secondary rate limit refused (each read back, then sent again: not a resend). */
  limited: number;
  writes: number;
  /** The unanswered write (its status, if any), awaiting its read-back. */
  unanswered: { status: number | undefined } | null;
  /** A done step awaiting its duplicates' retirement. */
  settling: { reading: Reading; statusCode: number | null } | null;
}

type Phase =
  | { at: 'gate' }
  | { at: 'dry-run'; index: number; budget: number }
  | { at: 'clock'; index: number }
  | { at: 'pre-read'; window: readonly { index: number; id: string }[] }
  | { at: 'claim'; window: readonly Candidate[] }
  | { at: 'claim-time'; window: WindowRun }
  | { at: 'step'; window: WindowRun; step: StepProgress }
  | { at: 'verify-window'; window: WindowRun }
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
  /** The owner's policy's key scope for a create claimed in this invocation. */
  keyScope: KeyScope;
  reports: readonly StepReport[];
  ledgerCommits: number;
  /** The clock at the first window, at the latest window, and the longest window so far (ms). */
  timing: { startedAt: number | null; lastWindowAt: number | null; longestWindowMs: number };
  phase: Phase;
}

/** The most secondary-rate-limit refusals one step's write may meet before the run stops, resumable. */
export const MAX_LIMITED = 3;

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
    receipt: null,
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
      keyScope: 'repository',
      reports: [],
      ledgerCommits: 0,
      timing: { startedAt: null, lastWindowAt: null, longestWindowMs: 0 },
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
    case 'clock':
      return afterClock(state, phase.index, observed(observation, 'clock').now);
    case 'pre-read':
      return afterPreRead(state, phase.window, observed(observation, 'window-read').readings);
    case 'claim':
      return afterClaim(state, phase.window, observed(observation, 'claimed'));
    case 'claim-time': {
      const { at } = observed(observation, 'claim-time');
      const claimedAt = at === null ? null : new Date(at).toISOString();
      return runWindow({ ...state, claimedAt }, phase.window);
    }
    case 'step':
      return afterStepObservation(state, phase.window, phase.step, observation);
    case 'verify-window':
      return afterVerifyWindow(state, phase.window, observed(observation, 'window-verified').results);
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

/**
 * What a step's reads know that changes during a run; `index`: the step read. A claimed step is read
 * with the key scope its claim recorded, not the policy's (which may have changed since), so a resumed
 * create looks for the key it was claimed with; one claimed before scopes were recorded, with
 * `repository` (how every key was derived then).
 */
function readContext(state: PersistState, precheck: boolean, index?: number): ReadContext {
  const record = index === undefined ? undefined : heldRun(state).steps[index];
  const recorded = record?.receipt?.key_scope ?? (record?.status === 'claimed' ? 'repository' : undefined);
  return {
    precheck,
    keyScope: recorded ?? state.keyScope,
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
  const known = {
    ...state,
    run,
    milestoneKeys: milestoneKeysOf(state.config.plan, run),
    keyScope: gate.keyScope ?? state.keyScope,
  };
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
        context: readContext(state, record.status === 'claimed', index),
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
    receipt: reading.receipt === null ? null : claimReceipt(reading, reading.receipt),
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
  if (state.config.timeBudgetMs === null) return preReadFrom(state, nextIndex);
  return { state: { ...state, phase: { at: 'clock', index: nextIndex } }, action: { kind: 'read-clock' } };
}

/**
 * A fresh window is claimed only while the time spent plus the longest window so far stays inside the
 * budget; otherwise the run is handed over (it stays running; the next invocation resumes it).
 */
function afterClock(state: PersistState, index: number, now: number): Decision {
  const { startedAt, lastWindowAt, longestWindowMs } = state.timing;
  const longest = lastWindowAt === null ? longestWindowMs : Math.max(longestWindowMs, now - lastWindowAt);
  const started = startedAt ?? now;
  const timed = { ...state, timing: { startedAt: started, lastWindowAt: now, longestWindowMs: longest } };
  const budget = state.config.timeBudgetMs ?? Number.POSITIVE_INFINITY;
  if (now - started + longest < budget) return preReadFrom(timed, index);
  const run = heldRun(state);
  const left = run.steps.filter((step) => step.status !== 'done').length;
  return finish(
    timed,
    'handover',
    '',
    null,
    `the time budget (${Math.round(budget / 60_000)} min) is spent with ${left} of ${run.steps.length} steps left: handing over`,
  );
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
  return { ids, resumed, pre, position: 0, outcomes: [], stopAt: null, sent: [] };
}

/**
 * A fresh window grows from `index` while its steps are pending, writable, inside the claim window and
 * the budget, and none reads what an earlier one of the window writes; its steps are read together
 * (one `read-window`) before the claim.
 */
function preReadFrom(state: PersistState, index: number): Decision {
  const steps = heldRun(state).steps;
  const size = Math.min(state.config.claimWindow, state.budget);
  const window: { index: number; id: string }[] = [];
  for (let at = index; window.length < size; at += 1) {
    const record = steps[at];
    if (record === undefined || record.status !== 'pending' || record.kind === 'external') break;
    const step = planStep(state, at) as WritableStep;
    if (window.some((earlier) => readsWriteOf(step, planStep(state, earlier.index) as WritableStep))) break;
    window.push({ index: at, id: step.id });
  }
  return {
    state: { ...state, phase: { at: 'pre-read', window } },
    action: {
      kind: 'read-window',
      stepIds: window.map((entry) => entry.id),
      indexes: window.map((entry) => entry.index),
      context: readContext(state, false),
    },
  };
}

function isFailure(reading: Reading | ReadFailure): reading is ReadFailure {
  return 'failed' in reading;
}

/** The window's pre-reads: claimed up to the first that failed (the first failed: stopped, unclaimed). */
function afterPreRead(
  state: PersistState,
  window: readonly { index: number; id: string }[],
  readings: readonly (Reading | ReadFailure)[],
): Decision {
  const candidates: Candidate[] = [];
  for (const [at, entry] of window.entries()) {
    const reading = readings[at];
    if (reading === undefined || isFailure(reading)) {
      if (candidates.length > 0) break;
      const status = reading === undefined ? undefined : reading.status;
      return stopped(
        state,
        'github-request-failed',
        `run ${state.config.runId} stopped before claiming step ${entry.id}: reading its pre-state failed (${codeForStatus(status)})`,
        `step ${entry.id}: reading its pre-state failed: ${reading?.message ?? 'no reading'}`,
      );
    }
    candidates.push({ ...entry, reading });
  }
  return claim(state, candidates);
}

/**
 * A creating step's receipt as its pre-read found it: `inconclusive` (the marker scan could not
 * decide), `exists` (Writ's own item carries the key), or null (to be created: settled at its checkpoint).
 */
function claimReceipt(reading: Reading, key: ReceiptKey): StepReceipt {
  const outcome = reading.inconclusive !== null ? 'inconclusive' : key.found ? 'exists' : null;
  return { idempotency_key: key.key, key_scope: key.scope, outcome };
}

function claim(state: PersistState, window: readonly Candidate[]): Decision {
  const digests: Record<string, string | null> = {};
  const receipts: Record<string, StepReceipt | null> = {};
  for (const candidate of window) {
    digests[candidate.id] = candidate.reading.digest;
    const key = candidate.reading.receipt;
    if (key !== null) receipts[candidate.id] = claimReceipt(candidate.reading, key);
  }
  return {
    state: { ...state, phase: { at: 'claim', window } },
    action: { kind: 'claim', stepIds: window.map((candidate) => candidate.id), digests, receipts },
  };
}

/**
 * A creating step's settled receipt. `wrote`: a write of this invocation landed (read back or verified):
 * `created`, unless its pre-read had found Writ's own item (an upsert's update: `exists`). Otherwise
 * the desired state was found: `exists` on a fresh step (an earlier run made it); on a resumed step
 * `created` when its claim expected to create (an earlier invocation's write), else `exists`.
 */
function settledReceipt(
  state: PersistState,
  window: WindowRun,
  step: StepProgress,
  wrote: boolean,
): StepReceipt | null {
  const key = (step.before as Reading).receipt;
  if (key === null) return null;
  const claimed = heldRun(state).steps[step.index]?.receipt;
  let outcome: ReceiptOutcome;
  if (wrote) outcome = key.found ? 'exists' : 'created';
  else if (!window.resumed) outcome = 'exists';
  else outcome = claimed === undefined || claimed.outcome === null ? 'created' : 'exists';
  return { idempotency_key: key.key, key_scope: key.scope, outcome };
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
  if (window.position >= window.ids.length) {
    if (window.sent.length > 0) return verifyWindow(state, window);
    return checkpoint(state, window);
  }
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
    limited: 0,
    writes: 0,
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
    context: readContext(state, window.resumed, index),
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
  if (before.inconclusive !== null)
    return unknown('precheck-inconclusive', {
      receipt: before.receipt === null ? null : claimReceipt(before, before.receipt),
    });
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

/**
 * What the write's answer leads to: an answered write waits for the window's post-read and the window
 * moves on; a refusal stops it; no definite answer, or the secondary rate limit, is read back first.
 */
function afterWrite(
  state: PersistState,
  window: WindowRun,
  step: StepProgress,
  observation: Observation,
): Decision {
  const before = step.before as Reading;
  if (observation.kind === 'write-answered') {
    const sent: SentWrite = { step, status: observation.status, resource: observation.resource };
    return runWindow(state, { ...window, position: window.position + 1, sent: [...window.sent, sent] });
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
  if (observation.kind === 'write-limited') {
    const limited = step.limited + 1;
    const wait = observation.retryAfterSeconds === null ? '' : ` for ${observation.retryAfterSeconds}s`;
    if (limited > MAX_LIMITED) {
      return stepDone(state, window, step, {
        ...emptyResult(),
        status: 'unknown',
        stopCode: 'secondary-rate-limit',
        errorCode: 'secondary-rate-limit',
        statusCode: observation.status ?? null,
        writes: step.writes,
        write: before.write,
        notes: before.notes,
      });
    }
    return readBack(state, window, { ...step, limited }, observation.status, [
      `step ${step.id}: GitHub's secondary rate limit refused ${before.write}${wait}; reading back before it is sent again`,
    ]);
  }
  const { status } = observed(observation, 'write-ambiguous');
  return readBack(state, window, step, status, [
    `step ${step.id}: ${before.write} had no definite answer (${codeForStatus(status)}); reading back`,
  ]);
}

function readBack(
  state: PersistState,
  window: WindowRun,
  step: StepProgress,
  status: number | undefined,
  warnings: string[],
): Decision {
  const progress: StepProgress = { ...step, unanswered: { status } };
  return {
    state: { ...state, phase: { at: 'step', window, step: progress } },
    action: {
      kind: 'read',
      stepId: step.id,
      index: step.index,
      purpose: 'read-back',
      context: readContext(state, true, step.index),
      warnings,
    },
  };
}

/** The window's answered writes, post-read together: each must show its desired state. */
function verifyWindow(state: PersistState, window: WindowRun): Decision {
  const entries = window.sent.map((sent) => ({ stepId: sent.step.id, resource: sent.resource }));
  return {
    state: { ...state, phase: { at: 'verify-window', window } },
    action: { kind: 'verify-window', entries, context: readContext(state, false) },
  };
}

/**
 * Each answered write's post-read: the desired state observed (done), unchanged
 * (`write-silently-dropped`), or unreadable (unknown: it stays claimed). The window stops at its first
 * step, in plan order, that is not done.
 */
function afterVerifyWindow(
  state: PersistState,
  window: WindowRun,
  results: readonly VerifyResult[],
): Decision {
  let current = state;
  let outcomes = window.outcomes;
  const warnings: string[] = [];
  for (const [at, sent] of window.sent.entries()) {
    const verdict = results[at] ?? { failed: 'no post-read' };
    if ('failed' in verdict) warnings.push(`step ${sent.step.id}: the post-read failed: ${verdict.failed}`);
    const result = verifiedResult(sent, verdict, settledReceipt(state, window, sent.step, true));
    current = recorded(current, sent.step, result);
    outcomes = [...outcomes, { id: sent.step.id, result }];
  }
  const order = (id: string): number => window.ids.indexOf(id);
  const ordered = [...outcomes].sort((a, b) => order(a.id) - order(b.id));
  const stopAt = ordered.find((entry) => entry.result.status !== 'done') ?? null;
  const decision = checkpoint(current, { ...window, outcomes: ordered, sent: [], stopAt });
  if (warnings.length > 0) decision.action.warnings = [...warnings, ...(decision.action.warnings ?? [])];
  return decision;
}

function verifiedResult(sent: SentWrite, verdict: VerifyResult, receipt: StepReceipt | null): StepResult {
  const before = sent.step.before as Reading;
  const common = {
    statusCode: sent.status,
    writes: sent.step.writes,
    write: before.write,
    notes: before.notes,
  };
  if ('failed' in verdict) {
    return {
      ...emptyResult(),
      status: 'unknown',
      stopCode: 'write-outcome-unknown',
      errorCode: 'write-outcome-unknown',
      ...common,
    };
  }
  const resources = sent.resource === null ? before.resources : [sent.resource];
  if (verdict.observed) return { ...emptyResult(), status: 'done', resources, ...common, receipt };
  return {
    ...emptyResult(),
    status: 'failed',
    stopCode: 'write-silently-dropped',
    errorCode: 'write-silently-dropped',
    resources,
    diff: [`GitHub answered ${sent.status} to ${before.write} but a re-read shows the state unchanged`],
    ...common,
  };
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
  if (after.diff.length > 0 || drifted(step, after) || step.attempt - step.limited >= 2)
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
    receipt: settledReceipt(state, window, step, step.writes > 0),
  });
}

/** A step's result reported, and a done milestone upsert's number learnt for later marker keys. */
function recorded(state: PersistState, step: StepProgress, result: StepResult): PersistState {
  const planned = planStep(state, step.index);
  const reports = [
    ...state.reports,
    report(planned, result.status === 'unknown' ? 'claimed' : result.status, result),
  ];
  let milestoneKeys = state.milestoneKeys;
  if (result.status === 'done' && planned.kind === 'milestone.upsert' && result.resources[0] !== undefined)
    milestoneKeys = new Map([...milestoneKeys, [planned.key, result.resources[0]]]);
  return { ...state, reports, milestoneKeys };
}

/** A step's result: recorded, and the window moves on (or stops). */
function stepDone(
  state: PersistState,
  window: WindowRun,
  step: StepProgress,
  result: StepResult,
  warning?: string,
): Decision {
  const outcome = { id: step.id, result };
  const decision = runWindow(recorded(state, step, result), {
    ...window,
    position: window.position + 1,
    outcomes: [...window.outcomes, outcome],
    stopAt: result.status === 'done' || window.stopAt !== null ? window.stopAt : outcome,
  });
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
    ...(entry.result.receipt?.outcome == null ? {} : { receipt: entry.result.receipt }),
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
    receipt: run.receipt,
  };
}

/** One create's receipt, as persist's `receipts` output lists it (the number from the step record). */
export interface Receipt extends StepReceipt {
  step: string;
  kind: RunStep['kind'];
  /** The issue or milestone number, or comment ID, created or found (null: none recorded yet). */
  resource: number | null;
}

/** What a finished run reports of its steps (the run file as last committed). */
export function summaryOf(state: PersistState): {
  stepsDone: number;
  stepsTotal: number;
  nextStep: string;
  created: Record<string, number>;
  receipts: Receipt[];
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
  // This invocation's receipt for a step it read, else the one the ledger holds (an earlier invocation's).
  const latest = new Map(state.reports.map((report) => [report.id, report.receipt]));
  const receipts: Receipt[] = [];
  for (const record of run.steps) {
    const receipt = latest.get(record.id) ?? record.receipt ?? null;
    if (receipt !== null)
      receipts.push({
        step: record.id,
        kind: record.kind,
        ...receipt,
        resource: record.resources[0] ?? null,
      });
  }
  return {
    stepsDone: run.steps.filter((step) => step.status === 'done').length,
    stepsTotal: run.steps.length,
    nextStep: firstOpen?.id ?? '',
    created,
    receipts,
    steps: [...state.reports],
    ledgerCommits: state.ledgerCommits,
  };
}
