/**
 * Replay: a ledger commit is authority only if its files are exactly what the transition its trailers
 * name produces from its parent's files. The app token is in every Writ job, so "authored by the app"
 * proves only who held the token; replay proves the commit is a legal step of the protocol.
 *
 * The inputs a transition takes that the trailers do not carry (which step, the outcome, the approver)
 * are read from the commit's own files, the server time from its dates, and the transition function
 * itself (transitions.ts, the same code every writer runs) is evaluated on the parent's state. The
 * commit is legal only if that output is byte-identical to what it holds, its checkpoint is exactly the
 * verified state through its parent, and it changed no other file. A consume is legal only if its
 * approval comment, where it can still be read unedited, is by the recorded approver at the recorded
 * URL and holds the approve command for this run and digest.
 */
import { parseCommandOrNull } from '../command/grammar.js';
import { WritError } from '../errors.js';
import type { TransitionTrailers } from './message.js';
import { parseTrailers } from './message.js';
import { LEASE_PATH, LEDGER_ROOT_PATH, PROVENANCE_PATH, runFilePath } from './paths.js';
import {
  LEASE_FILE,
  LEDGER_ROOT_FILE,
  PROVENANCE_FILE,
  RUN_FILE,
  parseLedgerFile,
  serializeLedgerFile,
} from './schemas.js';
import type { CommentInfo, CommitFiles, CommitInfo } from './store.js';
import type { LeasePolicy, LedgerView, TransitionResult } from './transitions.js';
import * as transitions from './transitions.js';
import { FREE_LEASE } from './transitions.js';
import type {
  Lease,
  LedgerFreeze,
  LedgerLocation,
  ProvenanceCheckpoint,
  RulesetPin,
  RunFile,
  RunStep,
  StepOutcome,
} from './types.js';

/** What has been proven of a history, through the commit `throughOid`. */
export interface ReplayState {
  rootOid: string;
  rootCommittedAt: number;
  throughOid: string;
  /** Commits from the root through `throughOid`. */
  commits: number;
  consumedRunIds: Set<string>;
  consumedCommentIds: Set<number>;
  /** Consumes replayed by this check whose comment was deleted or edited since (see below). */
  unverifiableApprovals: number;
  /**
   * The ruleset pins of ledger-root.json (null: a root without pins), once a check has read the root
   * file; carried to the states that follow (a process's own next commit), never into a checkpoint.
   */
  rulesetPins?: RulesetPin[] | null;
}

/** Run dates may lead or trail the commit dates by this much (two server clocks, whole seconds). */
const CLOCK_TOLERANCE_MS = 60_000;

export function stateFromCheckpoint(checkpoint: ProvenanceCheckpoint): ReplayState {
  return {
    rootOid: checkpoint.root_oid,
    rootCommittedAt: Date.parse(checkpoint.root_committed_at),
    throughOid: checkpoint.verified_through,
    commits: checkpoint.verified_commits,
    consumedRunIds: new Set(checkpoint.consumed_run_ids),
    consumedCommentIds: new Set(checkpoint.consumed_comment_ids),
    unverifiableApprovals: 0,
  };
}

export function checkpointOf(state: ReplayState): ProvenanceCheckpoint {
  return {
    schema: 1,
    root_oid: state.rootOid,
    root_committed_at: new Date(state.rootCommittedAt).toISOString(),
    verified_through: state.throughOid,
    verified_commits: state.commits,
    consumed_run_ids: [...state.consumedRunIds].sort(),
    consumed_comment_ids: [...state.consumedCommentIds].sort((a, b) => a - b),
  };
}

/**
 * The refusal of a frozen ledger, naming the commit the recovery sweep's full replay refused (and the
 * freeze commit). Every walk that meets a freeze ends here: the O(1) gate on the head's checkpoint
 * (provenance.ts), a replay that reaches the freeze commit, an anchor on it.
 */
export function frozenError(freeze: LedgerFreeze | null, freezeCommit: string | null): WritError {
  const offending = freeze?.commit ?? null;
  const details: Record<string, string> = { code: freeze?.code ?? 'ledger-provenance-unproven' };
  if (offending !== null) details.commit = offending;
  if (freezeCommit !== null) details.freeze_commit = freezeCommit;
  return new WritError(
    'ledger-frozen',
    `The ledger is frozen${freezeCommit === null ? '' : ` by commit ${freezeCommit}`}: the recovery sweep's full replay refused ${offending === null ? 'its rulesets' : `commit ${offending}`} (${details.code}${freeze === null ? '' : `, ${freeze.frozen_at}`}). Every gate refuses until the owner re-provisions the ledger.`,
    { details },
  );
}

/** The freeze record a freeze commit's checkpoint carries, or null when it does not parse. */
function freezeOf(checkpointText: string | null): LedgerFreeze | null {
  if (checkpointText === null) return null;
  try {
    return parseLedgerFile(PROVENANCE_FILE, PROVENANCE_PATH, checkpointText).frozen ?? null;
  } catch {
    return null;
  }
}

function illegal(commit: string, why: string): WritError {
  return new WritError(
    'ledger-provenance-unproven',
    `Ledger commit ${commit} is not a legal transition: ${why}.`,
    { details: { commit } },
  );
}

/**
 * The state through `commit` from the checkpoint its own commit carries (the state through its parent)
 * and its trailers, without replaying its files. An incremental check anchors here, one commit below
 * the commits it replays: the head's own checkpoint is then checked, not trusted.
 */
export function stateAfter(commit: CommitInfo, checkpointText: string | null): ReplayState {
  // Nothing is anchored on a freeze: whatever follows it cannot be proven from it.
  if (parseTrailers(commit.message)?.transition === 'freeze') {
    throw frozenError(freezeOf(checkpointText), commit.oid);
  }
  if (checkpointText === null) throw illegal(commit.oid, 'it carries no provenance checkpoint');
  let checkpoint: ProvenanceCheckpoint;
  try {
    checkpoint = parseLedgerFile(PROVENANCE_FILE, PROVENANCE_PATH, checkpointText);
  } catch (error: unknown) {
    throw illegal(commit.oid, error instanceof WritError ? error.message : 'its checkpoint does not parse');
  }
  if (checkpoint.verified_through !== commit.parentOid) {
    throw illegal(commit.oid, 'its checkpoint does not end at its parent');
  }
  const trailers = parseTrailers(commit.message);
  if (trailers === null) throw illegal(commit.oid, 'its message carries no well-formed Writ trailers');
  const state = stateFromCheckpoint(checkpoint);
  state.throughOid = commit.oid;
  state.commits += 1;
  if (trailers.transition === 'consume') {
    state.consumedRunIds.add(need(trailers.runId, commit.oid, 'the Writ-Run trailer'));
    state.consumedCommentIds.add(need(trailers.commentId, commit.oid, 'the Writ-Comment trailer'));
  }
  if (isCommandTransition(trailers.transition) && trailers.commentId !== null) {
    state.consumedCommentIds.add(trailers.commentId);
  }
  return state;
}

/** Transitions a human's one-time comment command may make; its comment ID is tombstoned like an approval's. */
function isCommandTransition(transition: TransitionTrailers['transition']): boolean {
  return transition === 'reconcile' || transition === 'cancel';
}

/** The paths a commit with these trailers may change (and replay must read). */
export function replayPaths(trailers: TransitionTrailers | null): string[] {
  const paths = [LEDGER_ROOT_PATH, LEASE_PATH, PROVENANCE_PATH];
  if (trailers?.runId != null && trailers.repository !== null) {
    paths.push(runFilePath(trailers.repository, trailers.runId));
  }
  return paths;
}

/** The root commit: exactly `ledger-root.json`, naming this repository and branch. */
export function replayRoot(commit: CommitInfo, data: CommitFiles, location: LedgerLocation): ReplayState {
  const trailers = parseTrailers(commit.message);
  if (trailers?.transition !== 'bootstrap') throw illegal(commit.oid, 'the root is not a bootstrap commit');
  const text = data.files.get(LEDGER_ROOT_PATH) ?? null;
  if (text === null || data.changedFiles !== 1) {
    throw illegal(commit.oid, 'the root commit must hold exactly ledger-root.json');
  }
  const root = parseLedgerFile(LEDGER_ROOT_FILE, LEDGER_ROOT_PATH, text);
  const repository = `${location.owner}/${location.repo}`;
  if (root.repository.toLowerCase() !== repository.toLowerCase() || root.branch !== location.branch) {
    throw illegal(commit.oid, 'the root names another ledger');
  }
  if (commit.committedAt === null) throw illegal(commit.oid, 'the root has no commit date');
  return {
    rootOid: commit.oid,
    rootCommittedAt: commit.committedAt,
    throughOid: commit.oid,
    commits: 1,
    consumedRunIds: new Set(),
    consumedCommentIds: new Set(),
    unverifiableApprovals: 0,
  };
}

export interface ReplayDeps {
  /** Reads an approval comment (consume commits only). */
  comment(repository: string, commentId: number): Promise<CommentInfo | null>;
}

interface Sides {
  lease: Lease;
  run: RunFile | null;
}

function parsed(files: ReadonlyMap<string, string | null>, runPath: string | null, oid: string): Sides {
  try {
    const leaseText = files.get(LEASE_PATH) ?? null;
    const runText = runPath === null ? null : (files.get(runPath) ?? null);
    return {
      lease: leaseText === null ? FREE_LEASE : parseLedgerFile(LEASE_FILE, LEASE_PATH, leaseText),
      run: runText === null || runPath === null ? null : parseLedgerFile(RUN_FILE, runPath, runText),
    };
  } catch (error: unknown) {
    throw illegal(oid, error instanceof WritError ? error.message : 'a file does not parse');
  }
}

/** The one step whose record differs between the two run files (transitions change at most one). */
function changedStep(before: RunFile, after: RunFile, oid: string): { before: RunStep; after: RunStep } {
  if (before.steps.length !== after.steps.length) throw illegal(oid, 'the steps changed in number');
  const changed = before.steps
    .map((step, index) => ({ before: step, after: after.steps[index] as RunStep }))
    .filter((pair) => JSON.stringify(pair.before) !== JSON.stringify(pair.after));
  const [only, ...rest] = changed;
  if (only === undefined || rest.length > 0) throw illegal(oid, `${changed.length} steps changed, not one`);
  if (only.before.id !== only.after.id) throw illegal(oid, 'a step changed its ID');
  return only;
}

/** Every step whose record differs between the two run files, in order (at least one unless `allowNone`). */
function changedSteps(
  before: RunFile,
  after: RunFile,
  oid: string,
  allowNone = false,
): { before: RunStep; after: RunStep }[] {
  if (before.steps.length !== after.steps.length) throw illegal(oid, 'the steps changed in number');
  const changed = before.steps
    .map((step, index) => ({ before: step, after: after.steps[index] as RunStep }))
    .filter((pair) => JSON.stringify(pair.before) !== JSON.stringify(pair.after));
  if (changed.length === 0 && !allowNone) throw illegal(oid, 'no step changed');
  if (changed.some((pair) => pair.before.id !== pair.after.id)) throw illegal(oid, 'a step changed its ID');
  return changed;
}

function outcomeOf(step: RunStep, oid: string): StepOutcome {
  if (step.status === 'done' || step.status === 'conflict' || step.status === 'failed') return step.status;
  throw illegal(oid, `step ${step.id} is ${step.status}, not an outcome`);
}

function reconcileOutcomeOf(step: RunStep, oid: string): StepOutcome | 'pending' {
  return step.status === 'pending' ? 'pending' : outcomeOf(step, oid);
}

function need<T>(value: T | null | undefined, oid: string, what: string): T {
  if (value === null || value === undefined) throw illegal(oid, `${what} is missing`);
  return value;
}

function expiryMs(lease: Lease, oid: string): number {
  return Date.parse(need(lease.lease_expires_at, oid, 'the lease expiry'));
}

function within(time: number, low: number | null, high: number | null, oid: string, what: string): void {
  if (
    !Number.isFinite(time) ||
    (low !== null && time < low - CLOCK_TOLERANCE_MS) ||
    (high !== null && time > high + CLOCK_TOLERANCE_MS)
  ) {
    throw illegal(oid, `${what} is outside the commit's time`);
  }
}

/** The resolutions a takeover applied, read back from what it did to each claimed step. */
function resolutionsOf(parent: RunFile, child: RunFile): Record<string, transitions.StepResolution> {
  const resolutions: Record<string, transitions.StepResolution> = {};
  parent.steps.forEach((before, index) => {
    const after = child.steps[index];
    if (before.status !== 'claimed' || after === undefined || after.id !== before.id) return;
    if (after.status === 'done') resolutions[before.id] = { state: 'desired', resources: after.resources };
    else if (after.status === 'pending') resolutions[before.id] = { state: 'pre-state' };
    else if (after.status === 'claimed' && JSON.stringify(after) !== JSON.stringify(before)) {
      resolutions[before.id] = { state: 'unknown', reason: after.evidence?.error_code ?? '' };
    }
  });
  return resolutions;
}

/** One commit as its replay evaluates it: the transition its trailers name, on its parent's state. */
interface Replayed {
  trailers: TransitionTrailers;
  runId: string;
  parent: Sides;
  child: Sides;
  /** The run file the commit leaves (every transition above the root leaves one). */
  childRun: RunFile;
  /** The commit's date, and its parent's (null when GitHub gave none). */
  at: number;
  parentCommittedAt: number | null;
  state: ReplayState;
  oid: string;
}

/** The parent's ledger as the transition saw it at `serverTime`, with the proven tombstones if asked. */
function viewAt(replayed: Replayed, serverTime: number, tombstones = false): LedgerView {
  const { parent, state } = replayed;
  return {
    serverTime,
    lease: parent.lease,
    run: parent.run,
    ...(tombstones
      ? { tombstones: { runIds: state.consumedRunIds, commentIds: state.consumedCommentIds } }
      : {}),
  };
}

/** The policy that reproduces the child's lease expiry from `serverTime` (any lease length is legal). */
function renewing(replayed: Replayed, serverTime: number): LeasePolicy {
  const lease = replayed.child.lease;
  return {
    leaseMs: lease.lease_expires_at === null ? 1 : expiryMs(lease, replayed.oid) - serverTime,
    graceMs: 0,
  };
}

function holderOf(replayed: Replayed): NonNullable<Lease['holder']> {
  return need(replayed.parent.lease.holder, replayed.oid, "the parent lease's holder");
}

function parentRunOf(replayed: Replayed): RunFile {
  return need(replayed.parent.run, replayed.oid, "the parent's run file");
}

/** A run's end a commit records (complete, or a checkpoint that finishes the run), or null. */
function finalState(run: RunFile): 'completed' | 'failed' | 'cancelled' | null {
  const final = run.state;
  return final === 'completed' || final === 'failed' || final === 'cancelled' ? final : null;
}

function replayPropose(replayed: Replayed): TransitionResult {
  const { childRun, oid } = replayed;
  const proposedAt = Date.parse(childRun.proposed_at);
  within(proposedAt, replayed.parentCommittedAt, replayed.at, oid, 'proposed_at');
  return transitions.propose(viewAt(replayed, proposedAt), {
    repository: need(replayed.trailers.repository, oid, 'the run repository'),
    runId: replayed.runId,
    planDigest: childRun.plan_digest,
    evidenceDigest: childRun.evidence_digest,
    scope: childRun.scope,
    bounds: childRun.bounds,
    steps: childRun.steps.map((step) => ({ id: step.id, kind: step.kind })),
    proposer: childRun.proposer ?? null,
    ...(childRun.preview === undefined ? {} : { preview: childRun.preview }),
    // A first status reservation folded into the propose commit (legal only as one).
    statusComment: childRun.status_comment ?? null,
  });
}

function replayConsume(replayed: Replayed): TransitionResult {
  const { childRun, oid } = replayed;
  const approval = need(childRun.approval, oid, 'the approval');
  const parentRun = parentRunOf(replayed);
  const consumedAt = Date.parse(approval.consumed_at);
  within(consumedAt, replayed.parentCommittedAt, replayed.at, oid, 'consumed_at');
  const lease = need(replayed.child.lease.holder, oid, 'the new holder');
  return transitions.consume(
    viewAt(replayed, consumedAt, true),
    {
      runId: replayed.runId,
      approval: {
        actor_login: approval.actor_login,
        actor_id: approval.actor_id,
        role_name: approval.role_name,
        comment_id: approval.comment_id,
        comment_url: approval.comment_url,
        digest: approval.digest,
      },
      plan: { digest: parentRun.plan_digest, scope: parentRun.scope, bounds: parentRun.bounds },
      holder: { workflow_run_id: lease.workflow_run_id, attempt: lease.attempt },
      // A status update reservation folded into the consume commit (legal only as one).
      ...(JSON.stringify(childRun.status_comment ?? null) === JSON.stringify(parentRun.status_comment ?? null)
        ? {}
        : { statusComment: childRun.status_comment ?? null }),
    },
    renewing(replayed, consumedAt),
  );
}

function replayClaim(replayed: Replayed): TransitionResult {
  const { oid, at } = replayed;
  const step = changedStep(parentRunOf(replayed), replayed.childRun, oid);
  return transitions.claim(
    viewAt(replayed, at),
    {
      runId: replayed.runId,
      stepId: step.after.id,
      epoch: replayed.trailers.epoch,
      holder: holderOf(replayed),
      preStateDigest: step.after.pre_state_digest,
      receipt: step.after.receipt ?? null,
    },
    renewing(replayed, at),
  );
}

function replayCheckpoint(replayed: Replayed): TransitionResult {
  const { oid, at, childRun } = replayed;
  const step = changedStep(parentRunOf(replayed), childRun, oid);
  return transitions.checkpoint(
    viewAt(replayed, at),
    {
      runId: replayed.runId,
      stepId: step.after.id,
      epoch: replayed.trailers.epoch,
      holder: holderOf(replayed),
      outcome: outcomeOf(step.after, oid),
      evidence: need(step.after.evidence, oid, 'the step evidence'),
      resources: step.after.resources,
      receipt: step.after.receipt ?? null,
      // A last checkpoint completes the run in the same commit; one written before that rule did
      // not (a separate complete followed). Both are legal; which one is read from the commit.
      completeRun: childRun.state === 'completed',
    },
    renewing(replayed, at),
  );
}

function replayClaimSteps(replayed: Replayed): TransitionResult {
  const { oid, at } = replayed;
  const steps = changedSteps(parentRunOf(replayed), replayed.childRun, oid);
  return transitions.claimSteps(
    viewAt(replayed, at),
    {
      runId: replayed.runId,
      stepIds: steps.map((step) => step.after.id),
      epoch: replayed.trailers.epoch,
      holder: holderOf(replayed),
      preStateDigests: Object.fromEntries(
        steps.map((step) => [step.after.id, step.after.pre_state_digest ?? null]),
      ),
      receipts: Object.fromEntries(steps.map((step) => [step.after.id, step.after.receipt ?? null])),
    },
    renewing(replayed, at),
  );
}

function replayCheckpointSteps(replayed: Replayed): TransitionResult {
  const { oid, at, childRun } = replayed;
  const final = finalState(childRun);
  const steps = changedSteps(parentRunOf(replayed), childRun, oid, final !== null);
  return transitions.checkpointSteps(
    viewAt(replayed, at),
    {
      runId: replayed.runId,
      epoch: replayed.trailers.epoch,
      holder: holderOf(replayed),
      steps: steps.map((step) => ({
        stepId: step.after.id,
        outcome: outcomeOf(step.after, oid),
        evidence: need(step.after.evidence, oid, 'the step evidence'),
        resources: step.after.resources,
        receipt: step.after.receipt ?? null,
      })),
      finish: final === null ? null : { state: final, stopReason: childRun.stop_reason },
    },
    renewing(replayed, at),
  );
}

function replayTakeover(replayed: Replayed): TransitionResult {
  const { oid, at, childRun } = replayed;
  const owner = need(childRun.owner, oid, 'the new owner');
  return transitions.takeover(
    viewAt(replayed, at),
    {
      runId: replayed.runId,
      holder: { workflow_run_id: owner.holder.workflow_run_id, attempt: owner.holder.attempt },
      resolutions: resolutionsOf(parentRunOf(replayed), childRun),
    },
    renewing(replayed, at),
  );
}

function replayCancel(replayed: Replayed): TransitionResult {
  const actor = need(replayed.childRun.cancelled_by, replayed.oid, 'the canceller');
  // The role was checked live against the configured roles when the command was consumed; replay
  // cannot know that configuration, so it checks the transition, not the role list.
  return transitions.cancel(viewAt(replayed, replayed.at, true), {
    runId: replayed.runId,
    actor,
    commentId: replayed.trailers.commentId,
    allowedRoles: [actor.role_name],
  });
}

function replayRelease(replayed: Replayed): TransitionResult {
  return transitions.release(viewAt(replayed, replayed.at), {
    runId: replayed.runId,
    epoch: replayed.trailers.epoch,
    holder: holderOf(replayed),
  });
}

function replayComplete(replayed: Replayed): TransitionResult {
  const { childRun } = replayed;
  const final = finalState(childRun);
  if (final === null) throw illegal(replayed.oid, `a complete commit left the run ${childRun.state}`);
  return transitions.complete(viewAt(replayed, replayed.at), {
    runId: replayed.runId,
    epoch: replayed.trailers.epoch,
    holder: holderOf(replayed),
    state: final,
    stopReason: childRun.stop_reason,
  });
}

function replayReconcile(replayed: Replayed): TransitionResult {
  const { oid, childRun, trailers } = replayed;
  const step = changedStep(parentRunOf(replayed), childRun, oid);
  const actor = need(step.after.reconciled_by, oid, 'the reconciler');
  return transitions.reconcile(viewAt(replayed, replayed.at, true), {
    runId: replayed.runId,
    stepId: step.after.id,
    actor,
    outcome: reconcileOutcomeOf(step.after, oid),
    evidence: need(step.after.evidence, oid, 'the step evidence'),
    resources: step.after.resources,
    resume: childRun.state !== 'failed',
    commentId: trailers.commentId,
    ...(trailers.commentId === null ? {} : { allowedRoles: [actor.role_name] }),
  });
}

function replayStatus(replayed: Replayed): TransitionResult {
  const { oid, at } = replayed;
  const statusComment = need(replayed.childRun.status_comment, oid, 'the status comment record');
  // A reservation's time is the server's at the read before the commit: within the commit's window.
  const reservedAt = statusComment.reserved_at == null ? at : Date.parse(statusComment.reserved_at);
  within(reservedAt, replayed.parentCommittedAt, at, oid, 'reserved_at');
  return transitions.recordStatus(viewAt(replayed, reservedAt), {
    runId: replayed.runId,
    statusComment,
    stampReservation: statusComment.reserved_at != null,
  });
}

function replayArtifact(replayed: Replayed): TransitionResult {
  const { oid } = replayed;
  return transitions.recordArtifact(viewAt(replayed, replayed.at), {
    runId: replayed.runId,
    artifact: need(replayed.childRun.artifact, oid, 'the artifact record'),
    // The record names no holder: the run's owner then is the only one that may have made it.
    holder: need(replayed.parent.run?.owner, oid, "the parent run's owner").holder,
  });
}

/**
 * How each transition is re-evaluated from a commit: the free inputs read from the child's files, the
 * transition function (transitions.ts) run on the parent's.
 */
const REPLAYERS: Record<TransitionTrailers['transition'], (replayed: Replayed) => TransitionResult> = {
  propose: replayPropose,
  consume: replayConsume,
  claim: replayClaim,
  checkpoint: replayCheckpoint,
  'claim-steps': replayClaimSteps,
  'checkpoint-steps': replayCheckpointSteps,
  takeover: replayTakeover,
  cancel: replayCancel,
  release: replayRelease,
  complete: replayComplete,
  reconcile: replayReconcile,
  status: replayStatus,
  artifact: replayArtifact,
  bootstrap: (replayed) => {
    throw illegal(replayed.oid, 'a bootstrap commit above the root');
  },
  // replayCommit stops at a freeze before evaluating anything; reaching here is a bug, so refuse.
  freeze: (replayed) => {
    throw illegal(replayed.oid, 'a freeze is not a transition');
  },
};

/**
 * Re-evaluates the named transition on the parent's state with the free inputs read from the commit.
 * Returns what the transition produces; a coded refusal of the transition becomes the commit's
 * `ledger-provenance-unproven` (the step was illegal from its parent's state).
 */
function evaluate(
  trailers: TransitionTrailers,
  runId: string,
  parent: Sides,
  child: Sides,
  times: { committedAt: number; parentCommittedAt: number | null },
  state: ReplayState,
  oid: string,
): TransitionResult {
  const replayed: Replayed = {
    trailers,
    runId,
    parent,
    child,
    childRun: need(child.run, oid, 'the run file'),
    at: times.committedAt,
    parentCommittedAt: times.parentCommittedAt,
    state,
    oid,
  };
  try {
    return REPLAYERS[trailers.transition](replayed);
  } catch (error: unknown) {
    if (error instanceof WritError && error.code !== 'ledger-provenance-unproven') {
      throw illegal(
        oid,
        `${trailers.transition} is refused from its parent's state (${error.code}: ${error.message})`,
      );
    }
    throw error;
  }
}

/**
 * Why an approval comment contradicts its consume, or null when it backs it. A comment deleted or
 * edited since cannot be re-verified now: that is not a contradiction (an approver may tidy up after
 * the fact, and the ledger must not become unprovable for it), so it is reported as `unverifiable`;
 * every gate re-reads the comment live and refuses such an approval, so it can authorize nothing.
 */
export type CommentVerdict = { backs: true } | { backs: false; unverifiable: boolean; why: string };

export function checkApprovalComment(
  comment: CommentInfo | null,
  approval: NonNullable<RunFile['approval']>,
  runId: string,
): CommentVerdict {
  const problem = approvalCommentProblem(comment, approval, runId);
  if (problem === null) return { backs: true };
  return {
    backs: false,
    unverifiable: comment === null || comment.edited,
    why: problem,
  };
}

function approvalCommentProblem(
  comment: CommentInfo | null,
  approval: NonNullable<RunFile['approval']>,
  runId: string,
): string | null {
  if (comment === null) return `approval comment ${approval.comment_id} no longer exists`;
  if (comment.edited) return `approval comment ${approval.comment_id} was edited`;
  if (comment.userId !== approval.actor_id)
    return `approval comment ${approval.comment_id} is not by the approver`;
  if (comment.htmlUrl !== approval.comment_url)
    return `approval comment ${approval.comment_id} is not at the recorded URL`;
  const command = parseCommandOrNull(comment.body, null);
  if (
    command?.kind !== 'approve' ||
    command.runId !== runId ||
    `sha256:${command.digestHex}` !== approval.digest
  ) {
    return `approval comment ${approval.comment_id} does not hold the approve command for this run and digest`;
  }
  return null;
}

/** `state` one commit further, through `oid`, with copies of its tombstone sets to add to. */
function successorState(state: ReplayState, oid: string): ReplayState {
  return {
    ...state,
    throughOid: oid,
    commits: state.commits + 1,
    consumedRunIds: new Set(state.consumedRunIds),
    consumedCommentIds: new Set(state.consumedCommentIds),
  };
}

/**
 * The state through a commit this process made itself: `result` evaluated on `state` (the proven state
 * through its parent) and committed as `oid`. The same bookkeeping replayCommit does after proving a
 * commit (one more commit; a consume or a human command tombstones its comment, a consume its run).
 */
export function stateThroughOwnCommit(
  state: ReplayState,
  result: TransitionResult,
  oid: string,
): ReplayState {
  const next = successorState(state, oid);
  if (result.transition === 'consume') {
    next.consumedRunIds.add(result.runId);
    if (result.commentId !== null) next.consumedCommentIds.add(result.commentId);
  }
  if (isCommandTransition(result.transition) && result.commentId !== null) {
    next.consumedCommentIds.add(result.commentId);
  }
  return next;
}

/**
 * Replays one non-root commit on top of `state` (the proven history through its parent). Returns the
 * state through this commit, or throws `ledger-provenance-unproven` naming what is illegal.
 */
export async function replayCommit(
  commit: CommitInfo,
  data: CommitFiles,
  state: ReplayState,
  deps: ReplayDeps,
): Promise<ReplayState> {
  const oid = commit.oid;
  const trailers = parseTrailers(commit.message);
  if (trailers === null) throw illegal(oid, 'its message carries no well-formed Writ trailers');
  // A freeze is terminal: a replay that reaches one refuses the ledger (and so does any history above).
  if (trailers.transition === 'freeze') {
    throw frozenError(freezeOf(data.files.get(PROVENANCE_PATH) ?? null), oid);
  }
  if (data.parentOid !== state.throughOid) throw illegal(oid, 'its parent is not the proven head');
  const runId = need(trailers.runId, oid, 'the Writ-Run trailer');
  const runPath = runFilePath(need(trailers.repository, oid, 'the Writ-Repository trailer'), runId);
  const committedAt = need(commit.committedAt, oid, 'the commit date');
  checkUnchangedFrame(data, state, oid);
  const parent = parsed(data.parentFiles, runPath, oid);
  const child = parsed(data.files, runPath, oid);
  const times = { committedAt, parentCommittedAt: data.parentCommittedAt };
  const result = evaluate(trailers, runId, parent, child, times, state, oid);
  checkWrites(result, trailers, runId, runPath, data, oid);
  const next = successorState(state, oid);
  if (trailers.transition === 'consume') await checkConsumedApproval(next, result, runId, oid, deps);
  const run = need(result.run ?? parent.run, oid, 'the run');
  if (isCommandTransition(trailers.transition) && trailers.commentId !== null) {
    await checkConsumedCommand(next, trailers.transition, trailers.commentId, parent.run, run, oid, deps);
  }
  if (trailers.transition === 'status') await checkStatusReReservation(parent.run, run, oid, deps);
  return next;
}

/** What no transition changes: ledger-root.json, and the checkpoint, which is the parent's proven state. */
function checkUnchangedFrame(data: CommitFiles, state: ReplayState, oid: string): void {
  if (data.files.get(LEDGER_ROOT_PATH) !== data.parentFiles.get(LEDGER_ROOT_PATH)) {
    throw illegal(oid, 'it changed ledger-root.json');
  }
  const checkpoint = data.files.get(PROVENANCE_PATH) ?? null;
  if (checkpoint !== serializeLedgerFile(PROVENANCE_FILE, PROVENANCE_PATH, checkpointOf(state))) {
    throw illegal(oid, 'its provenance checkpoint is not the proven state of its parent');
  }
}

/** The commit's trailers name `result`, and its files are exactly what `result` writes (nothing else). */
function checkWrites(
  result: TransitionResult,
  trailers: TransitionTrailers,
  runId: string,
  runPath: string,
  data: CommitFiles,
  oid: string,
): void {
  if (
    result.transition !== trailers.transition ||
    result.runId !== runId ||
    result.epoch !== trailers.epoch ||
    result.commentId !== trailers.commentId
  ) {
    throw illegal(oid, 'its trailers do not match the transition');
  }
  const expectedLease =
    result.lease === null
      ? (data.parentFiles.get(LEASE_PATH) ?? null)
      : serializeLedgerFile(LEASE_FILE, LEASE_PATH, result.lease);
  const expectedRun =
    result.run === null
      ? (data.parentFiles.get(runPath) ?? null)
      : serializeLedgerFile(RUN_FILE, runPath, result.run);
  if ((data.files.get(LEASE_PATH) ?? null) !== expectedLease)
    throw illegal(oid, `lease.json is not what ${trailers.transition} writes`);
  if ((data.files.get(runPath) ?? null) !== expectedRun)
    throw illegal(oid, `the run file is not what ${trailers.transition} writes`);
  const changed = replayPaths(trailers).filter(
    (path) => (data.files.get(path) ?? null) !== (data.parentFiles.get(path) ?? null),
  ).length;
  if (data.changedFiles === null) throw illegal(oid, 'GitHub could not count the files it changed');
  if (data.changedFiles !== changed) throw illegal(oid, 'it changed files outside its transition');
}

/** A consume: its approval comment backs it (or can no longer be read), and its run and comment are tombstoned. */
async function checkConsumedApproval(
  next: ReplayState,
  result: TransitionResult,
  runId: string,
  oid: string,
  deps: ReplayDeps,
): Promise<void> {
  const approval = need(result.run?.approval, oid, 'the approval');
  const verdict = checkApprovalComment(
    await deps.comment(need(result.run, oid, 'the run').repository, approval.comment_id),
    approval,
    runId,
  );
  if (!verdict.backs) {
    if (!verdict.unverifiable) throw illegal(oid, verdict.why);
    next.unverifiableApprovals += 1;
  }
  next.consumedRunIds.add(runId);
  next.consumedCommentIds.add(approval.comment_id);
}

/** A reconcile or cancel by comment: the comment holds that command (or can no longer be read), and is tombstoned. */
async function checkConsumedCommand(
  next: ReplayState,
  transition: TransitionTrailers['transition'],
  commentId: number,
  parentRun: RunFile | null,
  run: RunFile,
  oid: string,
  deps: ReplayDeps,
): Promise<void> {
  const verdict = checkCommandComment(
    await deps.comment(run.repository, commentId),
    commentId,
    commandOf(transition, parentRun, run, oid),
  );
  if (!verdict.backs) {
    if (!verdict.unverifiable) throw illegal(oid, verdict.why);
    next.unverifiableApprovals += 1;
  }
  next.consumedCommentIds.add(commentId);
}

/** A re-reservation (a recorded comment ID back to null) is legal only for a status comment that no longer exists on GitHub. */
async function checkStatusReReservation(
  parentRun: RunFile | null,
  run: RunFile,
  oid: string,
  deps: ReplayDeps,
): Promise<void> {
  const before = parentRun?.status_comment?.comment_id ?? null;
  const after = run.status_comment?.comment_id ?? null;
  if (before !== null && after === null && (await deps.comment(run.repository, before)) !== null) {
    throw illegal(oid, `it re-reserves the status comment while comment ${before} still exists`);
  }
}

/** What a human's command comment must say for the transition it backs (see command/grammar.ts). */
interface ExpectedCommand {
  actorId: number;
  verb: 'reconcile' | 'cancel';
  args: string[];
}

function commandOf(
  transition: TransitionTrailers['transition'],
  parent: RunFile | null,
  child: RunFile,
  oid: string,
): ExpectedCommand {
  if (transition === 'cancel') {
    const actor = need(child.cancelled_by, oid, 'the canceller');
    return { actorId: actor.actor_id, verb: 'cancel', args: [child.run_id] };
  }
  const step = changedStep(need(parent, oid, "the parent's run file"), child, oid).after;
  const actor = need(step.reconciled_by, oid, 'the reconciler');
  const word = step.status === 'pending' ? 'retry' : step.status;
  return { actorId: actor.actor_id, verb: 'reconcile', args: [child.run_id, step.id, word] };
}

/** Like checkApprovalComment, for a reconcile or cancel command comment. */
export function checkCommandComment(
  comment: CommentInfo | null,
  commentId: number,
  expected: ExpectedCommand,
): CommentVerdict {
  let why: string | null = null;
  if (comment === null) why = `command comment ${commentId} no longer exists`;
  else if (comment.edited) why = `command comment ${commentId} was edited`;
  else if (comment.userId !== expected.actorId)
    why = `command comment ${commentId} is not by the recorded writer`;
  else {
    const parsed = parseCommandOrNull(comment.body, null);
    const args =
      parsed?.kind === 'reconcile'
        ? [parsed.runId, parsed.stepId, parsed.decision]
        : parsed?.kind === 'cancel'
          ? [parsed.runId]
          : null;
    if (parsed?.kind !== expected.verb || JSON.stringify(args) !== JSON.stringify(expected.args)) {
      why = `command comment ${commentId} does not hold the ${expected.verb} command this commit records`;
    }
  }
  if (why === null) return { backs: true };
  return { backs: false, unverifiable: comment === null || comment.edited, why };
}
