/**
 * The ledger's transitions as pure functions: the state read at one head (plus the server's clock) and
 * the request → the files of the next state, or a coded refusal (a thrown WritError). Nothing here
 * reads a clock, the network or the environment; the compare-and-set loop (cas.ts) calls these afresh
 * on every attempt, so a rejected head is always re-validated from scratch.
 */
import { canonicalize } from '../canonical-json.js';
import { WritError } from '../errors.js';
import type { TransitionName } from './message.js';
import type {
  Actor,
  ArtifactRecord,
  StatusComment,
  Bounds,
  Holder,
  Lease,
  RunFile,
  RunPreview,
  RunState,
  RunStep,
  StepEvidence,
  StepKind,
  StepOutcome,
  StepReceipt,
} from './types.js';
import { TERMINAL_RUN_STATES } from './types.js';
import { CONSUMED_HERE } from '../command/reactions.js';

/** How long a claim holds the lease, and how long after expiry a takeover must still wait. */
export interface LeasePolicy {
  leaseMs: number;
  graceMs: number;
}

export const DEFAULT_LEASE_POLICY: LeasePolicy = { leaseMs: 10 * 60_000, graceMs: 60_000 };

/** What a transition sees: the files at one head and the server's time of that read. */
export interface LedgerView {
  serverTime: number;
  lease: Lease;
  run: RunFile | null;
  /** Consumed run and comment IDs from the full history (consume only). */
  tombstones?: { runIds: ReadonlySet<string>; commentIds: ReadonlySet<number> };
}

export interface TransitionResult {
  transition: TransitionName;
  runId: string;
  /** The epoch this commit is made under (the lease epoch after the transition). */
  epoch: number;
  commentId: number | null;
  /** The run file after the transition (null only when unchanged). */
  run: RunFile | null;
  /** The lease after the transition (null when unchanged). */
  lease: Lease | null;
  /** Set by a takeover that found a claimed step: the run stopped for manual reconciliation. */
  needsReconciliation: boolean;
}

export const FREE_LEASE: Lease = { schema: 1, epoch: 0, holder: null, lease_expires_at: null };

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

function expiryOf(lease: Lease): number | null {
  return lease.lease_expires_at === null ? null : Date.parse(lease.lease_expires_at);
}

/** True when the lease has a holder whose expiry plus the grace period has not passed on the server. */
export function leaseIsLive(lease: Lease, serverTime: number, policy: LeasePolicy): boolean {
  if (lease.holder === null) return false;
  const expiry = expiryOf(lease);
  return expiry === null || serverTime < expiry + policy.graceMs;
}

/**
 * True when the run's owner freed the lease at its own epoch and the run goes on (persist's `handover`,
 * or any release by its holder): the owner gave the repository up and is fenced from every further
 * claim, so a takeover displaces no one and needs neither the lease's expiry nor the owner's workflow
 * run to have finished.
 */
export function releasedByOwner(lease: Lease, run: RunFile | null | undefined): boolean {
  return (
    lease.holder === null &&
    run !== null &&
    run !== undefined &&
    run.owner !== null &&
    lease.epoch === run.owner.epoch &&
    !isTerminal(run.state)
  );
}

function sameHolder(a: Holder | null, b: Holder): boolean {
  return (
    a !== null && a.run_id === b.run_id && a.workflow_run_id === b.workflow_run_id && a.attempt === b.attempt
  );
}

function renewed(lease: Lease, serverTime: number, policy: LeasePolicy): Lease {
  return { ...lease, lease_expires_at: isoTime(serverTime + policy.leaseMs) };
}

function requireRun(view: LedgerView, runId: string): RunFile {
  if (view.run === null) throw new WritError('run-not-found', `The ledger holds no run ${runId}.`);
  return view.run;
}

function cloneRun(run: RunFile): RunFile {
  return structuredClone(run);
}

function refuseState(run: RunFile, transition: TransitionName, allowed: readonly RunState[]): void {
  if (allowed.includes(run.state)) return;
  if (run.state === 'needs-reconciliation') {
    throw new WritError(
      'needs-reconciliation',
      `Run ${run.run_id} needs reconciliation by a repository writer; ${transition} is refused.`,
    );
  }
  throw new WritError(
    'invalid-transition',
    `Run ${run.run_id} is ${run.state}; ${transition} needs one of: ${allowed.join(', ')}.`,
    { details: { state: run.state } },
  );
}

/**
 * `repository-lease-held`, naming what a maintainer needs to decide whether to wait: the holder (its
 * run, workflow run and attempt), its epoch and when the lease expires on the server's clock.
 */
export function leaseHeld(lease: Lease, consequence: string, graceMs?: number): WritError {
  const holder = lease.holder;
  const expiry = expiryOf(lease);
  const who =
    holder === null
      ? 'An unknown holder'
      : `Run ${holder.run_id} (workflow run ${holder.workflow_run_id}, attempt ${holder.attempt})`;
  const until =
    expiry === null
      ? ' with no expiry'
      : ` until ${isoTime(expiry)}${graceMs === undefined ? '' : ` (+${graceMs / 1000}s grace)`} on the server's clock`;
  return new WritError(
    'repository-lease-held',
    `${who} holds the repository lease at epoch ${lease.epoch}${until}; ${consequence}. Wait for that run to complete or its lease to expire, or release it from that run (claim-checkpoint operation: release).`,
    {
      details: {
        epoch: lease.epoch,
        ...(holder === null
          ? {}
          : {
              holder_run_id: holder.run_id,
              holder_workflow_run_id: holder.workflow_run_id,
              holder_attempt: holder.attempt,
            }),
        ...(lease.lease_expires_at === null ? {} : { lease_expires_at: lease.lease_expires_at }),
      },
    },
  );
}

/**
 * The one fencing check, by holder and not by a number anyone can read: every claim, checkpoint,
 * release, completion and publish (persist's writes through their claims, claim-checkpoint, and
 * publish-artifact before each of its writes and in its ledger record) passes it. `holder` is the
 * workflow run asking (its run ID and attempt, from the runner context): it must be the run's owner at
 * exactly `epoch`, and the lease must still be at that epoch.
 *
 * - `lease` (claims, checkpoints, release, completion): the lease must be held by exactly this holder.
 *   Another run's lease → `repository-lease-held`.
 * - `publish`: the lease may also be free at that epoch (the run completed, or its holder released
 *   it: the publish job runs after persist), but never held by anyone else.
 *
 * Any other mismatch (another workflow run at the same epoch, the epoch moved, the lease was taken
 * over) → `fenced`.
 */
export function checkHolder(
  view: Pick<LedgerView, 'lease'>,
  run: RunFile,
  epoch: number,
  holder: Holder,
  mode: 'lease' | 'publish' = 'lease',
): void {
  const { lease } = view;
  if (mode === 'lease' && lease.holder !== null && lease.holder.run_id !== run.run_id) {
    throw leaseHeld(lease, `run ${run.run_id} may not write`);
  }
  const holds = sameHolder(lease.holder, holder) || (mode === 'publish' && lease.holder === null);
  if (
    lease.epoch !== epoch ||
    !holds ||
    run.owner === null ||
    run.owner.epoch !== epoch ||
    !sameHolder(run.owner.holder, holder)
  ) {
    throw new WritError(
      'fenced',
      `Epoch ${epoch} of run ${run.run_id} is not held by workflow run ${holder.workflow_run_id} attempt ${holder.attempt} (the lease is at epoch ${lease.epoch}); no further ${mode === 'publish' ? 'publish' : 'claim'}.`,
      { details: { epoch: lease.epoch } },
    );
  }
}

function findStep(run: RunFile, stepId: string): { step: RunStep; index: number } {
  const index = run.steps.findIndex((step) => step.id === stepId);
  const step = run.steps[index];
  if (step === undefined) {
    throw new WritError('invalid-transition', `Run ${run.run_id} has no step ${stepId}.`);
  }
  return { step, index };
}

export interface ProposeInput {
  repository: string;
  runId: string;
  planDigest: string;
  evidenceDigest: string | null;
  scope: { repository: string; digest: string };
  bounds: Bounds;
  steps: readonly { id: string; kind: StepKind }[];
  /** The account that proposed the run, when known (for the distinct-approver rule). */
  proposer?: { actor_id: number } | null;
  /** What the preview stated (base SHA, risk, warnings), recorded as given; absent when not assessed. */
  preview?: RunPreview;
  /**
   * The status comment's first-POST reservation, folded into the propose commit: no comment ID, no
   * body yet, the digest of the body about to be posted. Stamped with the server time like a `status`
   * reservation (see foldStatusReservation).
   */
  statusComment?: StatusComment | null;
}

/**
 * A status comment reservation folded into the commit of another transition (propose, consume): the
 * same record a `status` commit would make next, so the status comment needs no commit of its own
 * before its POST or PATCH. Only the two reservations the sync protocol makes with nothing unresolved:
 * a first POST (nothing recorded before) and a PATCH of a recorded comment with no update pending.
 */
function foldStatusReservation(
  view: LedgerView,
  run: RunFile,
  before: StatusComment | null,
  next: StatusComment,
): RunFile {
  const illegal = (why: string): WritError =>
    new WritError('invalid-transition', `Run ${run.run_id}: ${why}.`, { details: { state: run.state } });
  if (next.pending_digest === null) throw illegal('a folded status record must reserve a body');
  if (before === null) {
    if (run.state !== 'proposed') throw illegal('only a propose folds a first status reservation');
    if (next.comment_id !== null || next.body_digest !== null) {
      throw illegal('a first status reservation carries no comment or body yet');
    }
  } else if (
    before.comment_id === null ||
    before.pending_digest !== null ||
    next.issue_number !== before.issue_number ||
    next.comment_id !== before.comment_id ||
    next.body_digest !== before.body_digest
  ) {
    throw illegal('a folded status reservation only reserves an update of the recorded comment');
  }
  const status = recordStatus({ ...view, run }, { runId: run.run_id, statusComment: next }).run;
  return status ?? run;
}

export function propose(view: LedgerView, input: ProposeInput): TransitionResult {
  if (view.run !== null) {
    throw new WritError('run-exists', `Run ${input.runId} was already proposed; run files are never reset.`);
  }
  const ids = new Set<string>();
  for (const step of input.steps) {
    if (ids.has(step.id)) throw new WritError('malformed-plan', `Step ID ${step.id} appears twice.`);
    ids.add(step.id);
  }
  if (input.steps.length > input.bounds.max_steps) {
    throw new WritError('malformed-plan', `The plan has ${input.steps.length} steps, above max_steps.`);
  }
  const run: RunFile = {
    schema: 1,
    repository: input.repository,
    run_id: input.runId,
    plan_digest: input.planDigest,
    evidence_digest: input.evidenceDigest,
    scope: { ...input.scope },
    bounds: { ...input.bounds },
    state: 'proposed',
    approval: null,
    owner: null,
    steps: input.steps.map((step) => ({
      id: step.id,
      kind: step.kind,
      status: 'pending',
      epoch: null,
      pre_state_digest: null,
      evidence: null,
      resources: [],
      reconciled_by: null,
    })),
    stop_reason: null,
    blockers: [],
    proposed_at: isoTime(view.serverTime),
    proposer: input.proposer ?? null,
    ...(input.preview === undefined ? {} : { preview: input.preview }),
    status_comment: null,
    artifact: null,
  };
  const folded =
    input.statusComment == null ? run : foldStatusReservation(view, run, null, input.statusComment);
  return {
    transition: 'propose',
    runId: input.runId,
    epoch: view.lease.epoch,
    commentId: null,
    run: folded,
    lease: null,
    needsReconciliation: false,
  };
}

export interface ApprovalInput {
  actor_login: string;
  actor_id: number;
  role_name: string;
  comment_id: number;
  comment_url: string;
  /** The digest the approval command named (`sha256:<hex>`). */
  digest: string;
}

/** The plan as recomputed from a fresh input at consumption time. */
export interface RecomputedPlan {
  digest: string;
  scope: { repository: string; digest: string };
  bounds: Bounds;
}

export interface ConsumeInput {
  runId: string;
  approval: ApprovalInput;
  plan: RecomputedPlan;
  holder: Omit<Holder, 'run_id'>;
  /** Refuse an approver who proposed the run (fails closed when the proposer is unknown). */
  requireDistinctApprover?: boolean;
  /** The status comment's update reservation, folded into the consume commit (see foldStatusReservation). */
  statusComment?: StatusComment | null;
}

/**
 * `approval-already-consumed` when the run already has its approval or its run ID or the comment is
 * tombstoned in `view` (consume's first checks; also the early refusal of a replayed approval).
 */
export function refuseConsumed(view: LedgerView, run: RunFile, commentId: number): void {
  const tombstones = view.tombstones;
  // Whether this very comment is the one consumed (a re-run of a command that acted): a fact for the
  // command's acknowledgement (command/reactions.ts), never for authority.
  const details = {
    [CONSUMED_HERE]: run.approval?.comment_id === commentId || tombstones?.commentIds.has(commentId) === true,
  };
  if (run.approval !== null || run.state !== 'proposed') {
    throw new WritError(
      'approval-already-consumed',
      `Run ${run.run_id} already has a consumed approval (state ${run.state}).`,
      { details },
    );
  }
  if (tombstones?.runIds.has(run.run_id) === true) {
    throw new WritError(
      'approval-already-consumed',
      `Run ID ${run.run_id} is in a consumed-approval tombstone.`,
      { details },
    );
  }
  if (tombstones?.commentIds.has(commentId) === true) {
    throw new WritError(
      'approval-already-consumed',
      `Comment ${commentId} is in a consumed-approval tombstone.`,
      { details },
    );
  }
}

export function consume(view: LedgerView, input: ConsumeInput, policy: LeasePolicy): TransitionResult {
  const run = requireRun(view, input.runId);
  const { approval } = input;
  refuseConsumed(view, run, approval.comment_id);
  if (input.requireDistinctApprover === true) {
    const proposer = run.proposer?.actor_id;
    if (proposer === undefined || proposer === approval.actor_id) {
      throw new WritError(
        'unauthorized-approval',
        proposer === undefined
          ? `Run ${run.run_id} does not record its proposer, so a distinct approver cannot be proven.`
          : `Approver ${approval.actor_id} proposed run ${run.run_id}; a distinct approver is required.`,
      );
    }
  }
  const mismatches: string[] = [];
  if (approval.digest !== run.plan_digest) mismatches.push('approved digest');
  if (input.plan.digest !== run.plan_digest) mismatches.push('plan digest');
  if (canonicalize(input.plan.scope) !== canonicalize(run.scope)) mismatches.push('scope');
  if (canonicalize(input.plan.bounds) !== canonicalize(run.bounds)) mismatches.push('bounds');
  if (mismatches.length > 0) {
    throw new WritError(
      'stale-or-mismatched-approval',
      `Run ${run.run_id}: the ${mismatches.join(', ')} differ from the proposed run; a new dry-run plan is required.`,
    );
  }
  if (leaseIsLive(view.lease, view.serverTime, policy)) {
    throw leaseHeld(view.lease, `run ${run.run_id} cannot take it to consume its approval`, policy.graceMs);
  }
  const epoch = view.lease.epoch + 1;
  const holder: Holder = { run_id: run.run_id, ...input.holder };
  const next = cloneRun(run);
  next.state = 'approved';
  next.approval = { ...approval, consumed_at: isoTime(view.serverTime), epoch };
  next.owner = { epoch, holder };
  return {
    transition: 'consume',
    runId: run.run_id,
    epoch,
    commentId: approval.comment_id,
    run:
      input.statusComment == null
        ? next
        : foldStatusReservation(view, next, run.status_comment ?? null, input.statusComment),
    lease: { schema: 1, epoch, holder, lease_expires_at: isoTime(view.serverTime + policy.leaseMs) },
    needsReconciliation: false,
  };
}

export interface ClaimInput {
  runId: string;
  stepId: string;
  epoch: number;
  holder: Holder;
  preStateDigest?: string | null;
  /** A creating step's receipt as its pre-read found it (absent: none; a pending step's old one is dropped). */
  receipt?: StepReceipt | null;
}

export function claim(view: LedgerView, input: ClaimInput, policy: LeasePolicy): TransitionResult {
  const run = requireRun(view, input.runId);
  refuseState(run, 'claim', ['approved', 'running']);
  checkHolder(view, run, input.epoch, input.holder);
  const { step, index } = findStep(run, input.stepId);
  if (step.status !== 'pending') {
    throw new WritError(
      'invalid-transition',
      `Step ${step.id} of run ${run.run_id} is ${step.status}, not pending.`,
    );
  }
  const open = run.steps
    .slice(0, index)
    .find((earlier) => earlier.status === 'pending' || earlier.status === 'claimed');
  if (open !== undefined) {
    throw new WritError(
      'invalid-transition',
      `Step ${open.id} of run ${run.run_id} is ${open.status}; steps are claimed in order.`,
    );
  }
  const next = cloneRun(run);
  next.state = 'running';
  next.steps[index] = withReceipt(
    { ...step, status: 'claimed', epoch: input.epoch, pre_state_digest: input.preStateDigest ?? null },
    input.receipt,
  );
  return {
    transition: 'claim',
    runId: run.run_id,
    epoch: input.epoch,
    commentId: null,
    run: next,
    lease: renewed(view.lease, view.serverTime, policy),
    needsReconciliation: false,
  };
}

/** The step with `receipt` recorded (null or undefined: without one). */
function withReceipt(step: RunStep, receipt: StepReceipt | null | undefined): RunStep {
  const next: RunStep = { ...step };
  delete next.receipt;
  return receipt == null ? next : { ...next, receipt: { ...receipt } };
}

export interface CheckpointInput {
  runId: string;
  stepId: string;
  epoch: number;
  holder: Holder;
  outcome: StepOutcome;
  evidence: StepEvidence;
  resources?: readonly number[];
  /** A creating step's settled receipt (absent: the claim's is kept). */
  receipt?: StepReceipt | null;
  /**
   * When this checkpoint leaves every step `done`, end the run `completed` and release the lease in
   * this same commit (default true), so a finished run never holds the repository until its lease
   * expires. False only to replay a ledger written before completion was folded in (its last
   * checkpoint was followed by a separate `complete`).
   */
  completeRun?: boolean;
}

export function checkpoint(view: LedgerView, input: CheckpointInput, policy: LeasePolicy): TransitionResult {
  const run = requireRun(view, input.runId);
  refuseState(run, 'checkpoint', ['running']);
  checkHolder(view, run, input.epoch, input.holder);
  const { step, index } = findStep(run, input.stepId);
  if (step.status !== 'claimed' || step.epoch !== input.epoch) {
    throw new WritError(
      'invalid-transition',
      `Step ${step.id} of run ${run.run_id} is ${step.status}${step.epoch === null ? '' : ` (epoch ${step.epoch})`}, not claimed by epoch ${input.epoch}.`,
    );
  }
  const next = cloneRun(run);
  const checked: RunStep = {
    ...step,
    status: input.outcome,
    evidence: { ...input.evidence },
    resources: [...(input.resources ?? [])],
  };
  next.steps[index] = input.receipt == null ? checked : withReceipt(checked, input.receipt);
  const finished =
    (input.completeRun ?? true) && next.steps.every((candidate) => candidate.status === 'done');
  if (finished) {
    next.state = 'completed';
    next.stop_reason = null;
  }
  return {
    transition: 'checkpoint',
    runId: run.run_id,
    epoch: input.epoch,
    commentId: null,
    run: next,
    lease: finished ? releasedAt(input.epoch) : renewed(view.lease, view.serverTime, policy),
    needsReconciliation: false,
  };
}

/** The lease freed by its holder at `epoch` (the epoch stays: it only grows). */
function releasedAt(epoch: number): Lease {
  return { schema: 1, epoch, holder: null, lease_expires_at: null };
}

/**
 * What a recovery sweep observed of one claimed step before taking the run over (see
 * persist/observation.ts): its desired state (→ done, with the resources found), its pre-state
 * unchanged (→ back to pending, for persist to write), or neither (→ it stays claimed and the run needs
 * reconciliation; `reason` is a stable code recorded as the step's `error_code`).
 */
export type StepResolution =
  | { state: 'desired'; resources: readonly number[] }
  | { state: 'pre-state' }
  | { state: 'unknown'; reason: string };

export interface TakeoverInput {
  runId: string;
  holder: Omit<Holder, 'run_id'>;
  /** Claimed steps' observed outcomes, by step ID (recovery); without one a claimed step stays claimed. */
  resolutions?: Readonly<Record<string, StepResolution>>;
}

function resolvedStep(step: RunStep, resolution: StepResolution | undefined): RunStep {
  if (step.status !== 'claimed' || resolution === undefined) return step;
  switch (resolution.state) {
    case 'desired':
      return {
        ...step,
        status: 'done',
        evidence: { status_code: null, error_code: null },
        resources: [...resolution.resources],
      };
    case 'pre-state':
      return {
        ...step,
        status: 'pending',
        epoch: null,
        pre_state_digest: null,
        evidence: null,
        resources: [],
      };
    case 'unknown':
      return { ...step, evidence: { status_code: null, error_code: resolution.reason } };
  }
}

/**
 * A replacement run or attempt becomes holder at epoch + 1, only once the lease is free or its expiry
 * plus the grace period has passed on the server's clock. Claimed steps take the resolutions observed
 * for them; one still claimed (outcome unknown) stops the run at `needs-reconciliation` and frees the
 * lease; the old holder is fenced either way. A run already at `needs-reconciliation` is taken over only
 * when a resolution settles at least one of its claimed steps (recovery with a working observer).
 */
export function takeover(view: LedgerView, input: TakeoverInput, policy: LeasePolicy): TransitionResult {
  const run = requireRun(view, input.runId);
  const resolutions = input.resolutions ?? {};
  const settles = run.steps.some(
    (step) => step.status === 'claimed' && (resolutions[step.id]?.state ?? 'unknown') !== 'unknown',
  );
  refuseState(
    run,
    'takeover',
    settles ? ['approved', 'running', 'needs-reconciliation'] : ['approved', 'running'],
  );
  if (leaseIsLive(view.lease, view.serverTime, policy)) {
    throw leaseHeld(view.lease, `run ${run.run_id} cannot be taken over yet`, policy.graceMs);
  }
  const epoch = view.lease.epoch + 1;
  const holder: Holder = { run_id: run.run_id, ...input.holder };
  const next = cloneRun(run);
  next.owner = { epoch, holder };
  next.steps = run.steps.map((step) => resolvedStep(step, resolutions[step.id]));
  const claimed = next.steps.some((step) => step.status === 'claimed');
  if (claimed) {
    next.state = 'needs-reconciliation';
    next.stop_reason = 'needs-reconciliation';
    if (!next.blockers.includes('needs-reconciliation')) next.blockers.push('needs-reconciliation');
  } else if (run.state === 'needs-reconciliation') {
    next.state = 'running';
    next.stop_reason = null;
    next.blockers = next.blockers.filter((blocker) => blocker !== 'needs-reconciliation');
  }
  return {
    transition: 'takeover',
    runId: run.run_id,
    epoch,
    commentId: null,
    run: next,
    lease: claimed
      ? releasedAt(epoch)
      : { schema: 1, epoch, holder, lease_expires_at: isoTime(view.serverTime + policy.leaseMs) },
    needsReconciliation: claimed,
  };
}

export interface ReleaseInput {
  runId: string;
  epoch: number;
  holder: Holder;
}

export function release(view: LedgerView, input: ReleaseInput): TransitionResult {
  const run = requireRun(view, input.runId);
  checkHolder(view, run, input.epoch, input.holder);
  return {
    transition: 'release',
    runId: run.run_id,
    epoch: input.epoch,
    commentId: null,
    run: null,
    lease: releasedAt(input.epoch),
    needsReconciliation: false,
  };
}

export interface CompleteInput {
  runId: string;
  epoch: number;
  holder: Holder;
  state: 'completed' | 'failed' | 'cancelled';
  stopReason?: string | null;
}

export function complete(view: LedgerView, input: CompleteInput): TransitionResult {
  const run = requireRun(view, input.runId);
  refuseState(run, 'complete', ['approved', 'running']);
  checkHolder(view, run, input.epoch, input.holder);
  const claimed = run.steps.find((step) => step.status === 'claimed');
  if (claimed !== undefined) {
    throw new WritError('invalid-transition', `Step ${claimed.id} of run ${run.run_id} is still claimed.`);
  }
  const pending = run.steps.find((step) => step.status === 'pending');
  if (input.state === 'completed' && pending !== undefined) {
    throw new WritError('invalid-transition', `Step ${pending.id} of run ${run.run_id} is still pending.`);
  }
  const next = cloneRun(run);
  next.state = input.state;
  next.stop_reason = input.stopReason ?? (input.state === 'completed' ? null : input.state);
  return {
    transition: 'complete',
    runId: run.run_id,
    epoch: input.epoch,
    commentId: null,
    run: next,
    lease: releasedAt(input.epoch),
    needsReconciliation: false,
  };
}

export const DEFAULT_RECONCILER_ROLES: readonly string[] = ['admin', 'maintain', 'write'];

/** A human's one-time command comment (reconcile, cancel): refused once its ID is in a tombstone. */
function refuseConsumedComment(view: LedgerView, commentId: number | null | undefined): void {
  if (commentId != null && view.tombstones?.commentIds.has(commentId) === true) {
    throw new WritError(
      'approval-already-consumed',
      `Comment ${commentId} is in a consumed-command tombstone.`,
      { details: { [CONSUMED_HERE]: true } },
    );
  }
}

function requireWriterRole(actor: Actor, allowedRoles: readonly string[] | undefined, what: string): void {
  if (!(allowedRoles ?? DEFAULT_RECONCILER_ROLES).includes(actor.role_name)) {
    throw new WritError(
      'insufficient-permission',
      `${actor.actor_login} has role ${actor.role_name}; ${what} needs a repository writer.`,
    );
  }
}

export interface ReconcileInput {
  runId: string;
  stepId: string;
  /** The repository writer who observed the outcome (role read live by the caller). */
  actor: Actor;
  /** The step's outcome, or `pending` to retry it (the write is known not to have happened). */
  outcome: StepOutcome | 'pending';
  evidence: StepEvidence;
  resources?: readonly number[];
  /** Once no claimed step remains: resume (`running`, a later takeover continues) or stop (`failed`). */
  resume?: boolean;
  allowedRoles?: readonly string[];
  /** The human's command comment (one-time: tombstoned like an approval). */
  commentId?: number | null;
}

export function reconcile(view: LedgerView, input: ReconcileInput): TransitionResult {
  const run = requireRun(view, input.runId);
  refuseConsumedComment(view, input.commentId);
  if (run.state !== 'needs-reconciliation') {
    throw new WritError('invalid-transition', `Run ${run.run_id} is ${run.state}, not needs-reconciliation.`);
  }
  requireWriterRole(input.actor, input.allowedRoles, 'reconciling');
  const { step, index } = findStep(run, input.stepId);
  if (step.status !== 'claimed') {
    throw new WritError(
      'invalid-transition',
      `Step ${step.id} of run ${run.run_id} is ${step.status}, not claimed.`,
    );
  }
  const next = cloneRun(run);
  next.steps[index] =
    input.outcome === 'pending'
      ? {
          ...step,
          status: 'pending',
          epoch: null,
          pre_state_digest: null,
          evidence: { ...input.evidence },
          resources: [],
          reconciled_by: { ...input.actor },
        }
      : {
          ...step,
          status: input.outcome,
          evidence: { ...input.evidence },
          resources: [...(input.resources ?? [])],
          reconciled_by: { ...input.actor },
        };
  if (!next.steps.some((candidate) => candidate.status === 'claimed')) {
    next.blockers = next.blockers.filter((blocker) => blocker !== 'needs-reconciliation');
    if (input.resume ?? true) {
      next.state = 'running';
      next.stop_reason = null;
    } else {
      next.state = 'failed';
      next.stop_reason = 'needs-reconciliation';
    }
  }
  return {
    transition: 'reconcile',
    runId: run.run_id,
    epoch: view.lease.epoch,
    commentId: input.commentId ?? null,
    run: next,
    lease: null,
    needsReconciliation: next.state === 'needs-reconciliation',
  };
}

export interface CancelInput {
  runId: string;
  /** The repository writer who posted the cancel command (role read live by the caller). */
  actor: Actor;
  commentId: number | null;
  allowedRoles?: readonly string[];
}

/**
 * Cancels a run that is not terminal, for a repository writer's one-time command. A cancelled run makes
 * no further write: if it holds the repository lease, the lease is freed at epoch + 1, so its holder's
 * next claim, checkpoint or publish is fenced; claim and checkpoint refuse a cancelled run in any case.
 */
export function cancel(view: LedgerView, input: CancelInput): TransitionResult {
  const run = requireRun(view, input.runId);
  refuseConsumedComment(view, input.commentId);
  if (isTerminal(run.state)) {
    throw new WritError(
      'invalid-transition',
      `Run ${run.run_id} is already ${run.state}; it cannot be cancelled.`,
      {
        details: { state: run.state },
      },
    );
  }
  requireWriterRole(input.actor, input.allowedRoles, 'cancelling');
  const holds = view.lease.holder?.run_id === run.run_id;
  const epoch = holds ? view.lease.epoch + 1 : view.lease.epoch;
  const next = cloneRun(run);
  next.state = 'cancelled';
  next.stop_reason = 'cancelled';
  next.cancelled_by = { ...input.actor };
  return {
    transition: 'cancel',
    runId: run.run_id,
    epoch,
    commentId: input.commentId,
    run: next,
    lease: holds ? releasedAt(epoch) : null,
    needsReconciliation: false,
  };
}

export function isTerminal(state: RunState): boolean {
  return TERMINAL_RUN_STATES.includes(state);
}

/** A record on the run file that changes neither its state nor the lease (status comment, artifact). */
function recordOnRun(
  view: LedgerView,
  run: RunFile,
  transition: 'status' | 'artifact',
  fields: Pick<RunFile, 'status_comment'> | Pick<RunFile, 'artifact'>,
): TransitionResult {
  return {
    transition,
    runId: run.run_id,
    epoch: view.lease.epoch,
    commentId: null,
    run: { ...cloneRun(run), ...fields },
    lease: null,
    needsReconciliation: false,
  };
}

export interface StatusUpdateInput {
  runId: string;
  /** The new status comment record, computed by the status-comment protocol. */
  statusComment: StatusComment;
  /** False only when replay re-evaluates a reservation recorded before `reserved_at` existed. */
  stampReservation?: boolean;
}

/**
 * Records the run's status comment (a reservation before a POST or PATCH, or its result after).
 * Allowed in every state, terminal ones included: the status projection must stay repairable.
 * The issue a status comment lives on never changes once reserved.
 */
export function recordStatus(view: LedgerView, input: StatusUpdateInput): TransitionResult {
  const run = requireRun(view, input.runId);
  const current = run.status_comment ?? null;
  if (current !== null && current.issue_number !== input.statusComment.issue_number) {
    throw new WritError(
      'invalid-transition',
      `Run ${run.run_id} keeps its status comment on #${current.issue_number}, not #${input.statusComment.issue_number}.`,
    );
  }
  // A recorded comment ID changes only to null: a re-reservation after the comment was deleted on
  // GitHub (replay re-reads the old comment and refuses the commit if it still exists).
  const next = input.statusComment.comment_id;
  if (current?.comment_id != null && next !== null && next !== current.comment_id) {
    throw new WritError(
      'invalid-transition',
      `Run ${run.run_id} already has status comment ${current.comment_id}.`,
    );
  }
  // A first POST's reservation carries the server's time (never the runner's): the read-back after an
  // unanswered POST lists only what was updated since then. Replay of a run file older than the field
  // re-evaluates without it.
  const record: StatusComment = { ...input.statusComment };
  delete record.reserved_at;
  if (record.comment_id === null && record.pending_digest !== null && input.stampReservation !== false) {
    record.reserved_at = new Date(view.serverTime).toISOString();
  }
  return recordOnRun(view, run, 'status', { status_comment: record });
}

export interface ArtifactInput {
  runId: string;
  artifact: ArtifactRecord;
  /** The workflow run publishing: the run's owner at the artifact's epoch (see checkHolder). */
  holder: Holder;
}

/**
 * Records a published artifact (bot-branch commit and PR) for an approved run, fenced by its epoch:
 * the epoch must be the run's own, no later run may have taken the lease since, and no publish by a
 * later epoch of this run may already be recorded.
 */
export function recordArtifact(view: LedgerView, input: ArtifactInput): TransitionResult {
  const run = requireRun(view, input.runId);
  if (run.approval === null) {
    throw new WritError('stale-or-mismatched-approval', `Run ${run.run_id} has no consumed approval.`);
  }
  if (run.state === 'cancelled') {
    throw new WritError('invalid-transition', `Run ${run.run_id} was cancelled; it publishes nothing.`, {
      details: { state: run.state },
    });
  }
  checkArtifactFence(view, run, input.artifact.epoch, input.holder);
  return recordOnRun(view, run, 'artifact', { artifact: { ...input.artifact } });
}

/**
 * `fenced` unless `holder` may still publish for `run` at `epoch`: the one holder check (checkHolder,
 * `publish`), and no publish by a later epoch of this run recorded (see recordArtifact).
 */
export function checkArtifactFence(
  view: Pick<LedgerView, 'lease'>,
  run: RunFile,
  epoch: number,
  holder: Holder,
): void {
  const recorded = run.artifact?.epoch ?? 0;
  if (recorded > epoch) {
    throw new WritError(
      'fenced',
      `Epoch ${epoch} of run ${run.run_id} may no longer publish (the last publish is at epoch ${recorded}).`,
      { details: { epoch: view.lease.epoch } },
    );
  }
  checkHolder(view, run, epoch, holder, 'publish');
}

export interface ClaimStepsInput {
  runId: string;
  /** Consecutive steps, claimed in this order in one commit (persist's `claim-window`). */
  stepIds: readonly string[];
  epoch: number;
  holder: Holder;
  /**
   * Each step's `pre_state_digest` (persist/steps.ts `preStateDigest`: the digest of the fields its
   * pre-read observed, never a body), by step ID; a step without one records null.
   */
  preStateDigests?: Readonly<Record<string, string | null>>;
  /** Each creating step's receipt as its pre-read found it, by step ID (absent: none). */
  receipts?: Readonly<Record<string, StepReceipt | null>>;
}

/** `claim` for several steps in one commit: each exactly as `claim` would, in order, one lease renewal. */
export function claimSteps(view: LedgerView, input: ClaimStepsInput, policy: LeasePolicy): TransitionResult {
  if (input.stepIds.length === 0) {
    throw new WritError('invalid-transition', `A claim of run ${input.runId} names no step.`);
  }
  const [first, ...rest] = input.stepIds as [string, ...string[]];
  // The first step exactly as `claim` (state, holder, order); each next one must be the very next step.
  const digests = input.preStateDigests ?? {};
  const receipts = input.receipts ?? {};
  const run = claim(
    view,
    { ...input, stepId: first, preStateDigest: digests[first] ?? null, receipt: receipts[first] ?? null },
    policy,
  ).run as RunFile;
  let previous = findStep(run, first).index;
  for (const stepId of rest) {
    const { step, index } = findStep(run, stepId);
    if (index !== previous + 1 || step.status !== 'pending') {
      throw new WritError(
        'invalid-transition',
        `Step ${stepId} of run ${run.run_id} is not the pending step after ${run.steps[previous]?.id ?? '?'}.`,
      );
    }
    run.steps[index] = withReceipt(
      { ...step, status: 'claimed', epoch: input.epoch, pre_state_digest: digests[stepId] ?? null },
      receipts[stepId],
    );
    previous = index;
  }
  return {
    transition: 'claim-steps',
    runId: run.run_id,
    epoch: input.epoch,
    commentId: null,
    run,
    lease: renewed(view.lease, view.serverTime, policy),
    needsReconciliation: false,
  };
}

export interface StepCheckpoint {
  stepId: string;
  outcome: StepOutcome;
  evidence: StepEvidence;
  resources?: readonly number[];
  /** A creating step's settled receipt (absent: the claim's is kept). */
  receipt?: StepReceipt | null;
}

export interface CheckpointStepsInput {
  runId: string;
  steps: readonly StepCheckpoint[];
  epoch: number;
  holder: Holder;
  /** Finish the run in the same commit (`complete`: the lease is released). */
  finish?: { state: CompleteInput['state']; stopReason?: string | null } | null;
}

/**
 * `checkpoint` for several claimed steps in one commit, each exactly as `checkpoint` would, and, with
 * `finish`, the run's `complete` in the same commit (so the last checkpoint also releases the lease).
 */
export function checkpointSteps(
  view: LedgerView,
  input: CheckpointStepsInput,
  policy: LeasePolicy,
): TransitionResult {
  if (input.steps.length === 0 && input.finish == null) {
    throw new WritError('invalid-transition', `A checkpoint of run ${input.runId} names no step.`);
  }
  let run = requireRun(view, input.runId);
  for (const step of input.steps) {
    const next = checkpoint(
      { ...view, run },
      // `finish` decides whether this commit completes the run, not each step's own checkpoint.
      { runId: input.runId, epoch: input.epoch, holder: input.holder, ...step, completeRun: false },
      policy,
    ).run;
    if (next === null)
      throw new WritError('invalid-transition', `Checkpointing ${step.stepId} left no run file.`);
    run = next;
  }
  let lease = renewed(view.lease, view.serverTime, policy);
  if (input.finish != null) {
    const finished = complete(
      { ...view, run },
      {
        runId: input.runId,
        epoch: input.epoch,
        holder: input.holder,
        state: input.finish.state,
        stopReason: input.finish.stopReason ?? null,
      },
    );
    run = finished.run ?? run;
    lease = finished.lease ?? lease;
  }
  return {
    transition: 'checkpoint-steps',
    runId: run.run_id,
    epoch: input.epoch,
    commentId: null,
    run,
    lease,
    needsReconciliation: false,
  };
}
