/**
 * The ledger's public functions. Each builds one transition spec and runs it through the
 * compare-and-set loop; every one can be dry-run (`{ dryRun: true }`), returning the commit it would make.
 *
 *   const ledger = createLedgerContext({ github, clock, logger }, { repository, branch, app });
 *   await consumeApproval(ledger, { runId, approval, plan, holder });
 */
import { WritError } from '../errors.js';
import { CAS_MAX_ATTEMPTS } from '../github/cas-loop.js';
import type { GitHubClient } from '../github/client.js';
import { validateRunId } from '../plan/run-id.js';
import type { Logger } from '../redact.js';
import { silentLogger } from '../redact.js';
import type { Clock, HeldHead, LedgerContext, TransitionOutcome, TransitionSpec } from './cas.js';
import { seededRandom } from '../seeded-random.js';
import {
  parseSnapshot,
  readCheckpoint,
  runTransition,
  systemClock,
  transitionPaths,
  transitionRead,
} from './cas.js';
import {
  LEASE_PATH,
  LEDGER_ROOT_PATH,
  PROVENANCE_PATH,
  ledgerLocation,
  parseRepository,
  runFilePath,
} from './paths.js';
import type { ProvenanceReport } from './provenance.js';
import { RUN_FILE, parseLedgerFile } from './schemas.js';
import { verifyProvenance } from './provenance.js';
import { githubLedgerStore } from './read.js';
import type { LedgerSnapshot, LedgerStore } from './store.js';
import type {
  ApprovalInput,
  CancelInput,
  CheckpointInput,
  CheckpointStepsInput,
  ClaimInput,
  ClaimStepsInput,
  CompleteInput,
  ConsumeInput,
  LeasePolicy,
  ProposeInput,
  ReconcileInput,
  ReleaseInput,
  StatusUpdateInput,
  ArtifactInput,
  LedgerView,
  TakeoverInput,
  TransitionResult,
} from './transitions.js';
import * as transitions from './transitions.js';
import { DEFAULT_LEASE_POLICY, leaseIsLive } from './transitions.js';
import type { Lease, LedgerApp, RunFile, StatusComment } from './types.js';
import type { HolderAttempt, HolderLiveness } from './liveness.js';
import { actionsLiveness, provenGone, requireHoldersGone, unprovenLiveness } from './liveness.js';
import { DEFAULT_LEDGER_BRANCH } from './types.js';

export interface LedgerDeps {
  /** The real client, or (tests) a store implementing the ledger's narrow GitHub interface. */
  github: GitHubClient | LedgerStore;
  clock?: Clock;
  logger?: Logger;
  /** Source of jitter; seed it for reproducible runs. */
  random?: () => number;
  /**
   * Whether a lease holder's workflow run attempt is gone, read before every takeover. Default: the
   * Actions API of the ledger's repository through `github` (a store proves no holder gone).
   */
  liveness?: HolderLiveness;
}

export interface LedgerConfig {
  /** `owner/repo` holding the ledger branch. */
  repository: string;
  branch?: string;
  app?: LedgerApp | null;
  policy?: Partial<LeasePolicy>;
  maxAttempts?: number;
  backoffBaseMs?: number;
  backoffCapMs?: number;
  seed?: number;
}

function isStore(github: GitHubClient | LedgerStore): github is LedgerStore {
  return !('request' in github);
}

export function createLedgerContext(deps: LedgerDeps, config: LedgerConfig): LedgerContext {
  const location = ledgerLocation(config.repository, config.branch ?? DEFAULT_LEDGER_BRANCH);
  const policy = { ...DEFAULT_LEASE_POLICY, ...config.policy };
  if (!(policy.leaseMs > 0) || !(policy.graceMs >= 0)) {
    throw new WritError(
      'invalid-input',
      'The lease length must be positive and the grace period non-negative.',
    );
  }
  const maxAttempts = config.maxAttempts ?? CAS_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 100) {
    throw new WritError('invalid-input', `Invalid maxAttempts ${maxAttempts}. Expected an integer 1-100.`);
  }
  return {
    store: isStore(deps.github) ? deps.github : githubLedgerStore(deps.github, location),
    app: config.app ?? null,
    policy,
    clock: deps.clock ?? systemClock,
    logger: deps.logger ?? silentLogger,
    random: deps.random ?? seededRandom(config.seed ?? Math.floor(Math.random() * 2 ** 32)),
    maxAttempts,
    backoffBaseMs: config.backoffBaseMs ?? 25,
    backoffCapMs: config.backoffCapMs ?? 1000,
    liveness:
      deps.liveness ??
      (isStore(deps.github)
        ? unprovenLiveness
        : actionsLiveness(deps.github, { owner: location.owner, repo: location.repo })),
  };
}

export interface TransitionOptions {
  dryRun?: boolean;
  /** The head this process's own last commit left (its `held`): the first attempt commits on it unread. */
  from?: HeldHead;
  /** The branch as `readBeforeConsume` read it: the first attempt proves that read instead of reading again. */
  first?: LedgerSnapshot;
}

function runRepositoryOf(context: LedgerContext, repository?: string): string {
  if (repository !== undefined) {
    parseRepository(repository, 'run repository');
    return repository;
  }
  return `${context.store.location.owner}/${context.store.location.repo}`;
}

/** One transition of one run: validates the run ID, then runs `evaluate` through the compare-and-set loop. */
function transitionOf(
  context: LedgerContext,
  input: { runId: string; repository?: string },
  provenance: boolean,
  evaluate: TransitionSpec['evaluate'],
  options: TransitionOptions,
): Promise<TransitionOutcome> {
  validateRunId(input.runId);
  return runTransition(
    context,
    { runRepository: runRepositoryOf(context, input.repository), runId: input.runId, provenance, evaluate },
    options,
  );
}

/**
 * The status comment reservation to fold into a transition's commit, from the run as that transition
 * leaves it (status-comment/sync.ts `foldedReservation`); null folds nothing.
 */
export type StatusFold = (run: RunFile) => StatusComment | null;

/** `evaluate` without a status record, then (when `fold` gives one for its run) with it. */
function withFold(
  evaluate: (statusComment: StatusComment | null) => TransitionResult,
  fold: StatusFold | undefined,
): TransitionResult {
  const plain = evaluate(null);
  const statusComment = fold === undefined || plain.run === null ? null : fold(plain.run);
  return statusComment === null ? plain : evaluate(statusComment);
}

/**
 * `propose`: a new run file with approval null; `run-exists` if the run ID was ever proposed. With
 * `statusFold`, the status comment's first reservation is made in the same commit.
 */
export function proposeRun(
  context: LedgerContext,
  input: Omit<ProposeInput, 'repository' | 'statusComment'> & {
    repository?: string;
    statusFold?: StatusFold;
  },
  options: TransitionOptions = {},
): Promise<TransitionOutcome> {
  validateRunId(input.runId);
  const repository = runRepositoryOf(context, input.repository);
  const { statusFold, ...propose } = input;
  return runTransition(
    context,
    {
      runRepository: repository,
      runId: input.runId,
      provenance: false,
      evaluate: (view) =>
        withFold(
          (statusComment) => transitions.propose(view, { ...propose, repository, statusComment }),
          statusFold,
        ),
    },
    options,
  );
}

export interface ConsumeApprovalInput {
  runId: string;
  repository?: string;
  /** Resolved server-side from the comment by the caller (issue 5): numbers, login, role, IDs, digest. */
  approval: ApprovalInput;
  /** The plan recomputed from a fresh input now: its digest, scope and bounds must equal the run's. */
  plan: ConsumeInput['plan'];
  /** The workflow run taking the repository lease. */
  holder: ConsumeInput['holder'];
  requireDistinctApprover?: boolean;
  /** The status comment's update reservation to make in the same commit (see StatusFold). */
  statusFold?: StatusFold;
}

/**
 * `consume`: after proving provenance (tombstones from the full history), records the approval and takes
 * the repository lease at epoch + 1 in one compare-and-set commit. Refuses `approval-already-consumed`,
 * `stale-or-mismatched-approval`, `repository-lease-held`, `ledger-provenance-unproven`.
 */
export function consumeApproval(
  context: LedgerContext,
  input: ConsumeApprovalInput,
  options: TransitionOptions = {},
): Promise<TransitionOutcome> {
  // A lease whose holder's time ran out is taken only from a holder proven gone (an expired lease is not
  // a finished job): the same rule and read as a takeover's.
  const displaced = (view: LedgerView): (HolderAttempt | null)[] =>
    leaseIsLive(view.lease, view.serverTime, context.policy) ? [] : [view.lease.holder];
  return displacingTransition(
    context,
    input,
    `run ${input.runId}'s approval is not consumed`,
    displaced,
    (view) =>
      withFold(
        (statusComment) => transitions.consume(view, { ...input, statusComment }, context.policy),
        input.statusFold,
      ),
    options,
  );
}

/**
 * The first read of a consume, made before the approver's live role is read. A run whose approval is
 * already consumed (its run file, or the tombstones of the head's own checkpoint) is refused
 * `approval-already-consumed` from this read alone: a refusal writes nothing and grants nothing, so it
 * needs no proof of the ledger. Anything else (no branch, a file that does not parse, no such run) is
 * left to the consume itself; the read is returned for its first attempt, which proves it (history and
 * rulesets) before judging anything it allows.
 */
export async function readBeforeConsume(
  context: LedgerContext,
  input: { runId: string; commentId: number; repository?: string },
): Promise<LedgerSnapshot | undefined> {
  validateRunId(input.runId);
  const runRepository = runRepositoryOf(context, input.repository);
  const snapshot = await context.store.read(
    transitionRead(transitionPaths(runRepository, input.runId), 2, true),
  );
  if (snapshot === null) return undefined;
  let parsed;
  try {
    parsed = parseSnapshot(context.store, snapshot, runFilePath(runRepository, input.runId));
  } catch {
    return snapshot;
  }
  if (parsed.run !== null) {
    const checkpoint = parsed.checkpoint;
    transitions.refuseConsumed(
      {
        serverTime: snapshot.serverTime,
        lease: parsed.lease,
        run: parsed.run,
        tombstones: {
          runIds: new Set(checkpoint?.consumed_run_ids ?? []),
          commentIds: new Set(checkpoint?.consumed_comment_ids ?? []),
        },
      },
      parsed.run,
      input.commentId,
    );
  }
  return snapshot;
}

export function claimStep(
  context: LedgerContext,
  input: ClaimInput & { repository?: string },
  options: TransitionOptions = {},
): Promise<TransitionOutcome> {
  return transitionOf(
    context,
    input,
    false,
    (view) => transitions.claim(view, input, context.policy),
    options,
  );
}

export function checkpointStep(
  context: LedgerContext,
  input: CheckpointInput & { repository?: string },
  options: TransitionOptions = {},
): Promise<TransitionOutcome> {
  return transitionOf(
    context,
    input,
    false,
    (view) => transitions.checkpoint(view, input, context.policy),
    options,
  );
}

/** `claim-steps`: several consecutive steps claimed at the holder's epoch in one commit (persist). */
export function claimSteps(
  context: LedgerContext,
  input: ClaimStepsInput & { repository?: string },
  options: TransitionOptions = {},
): Promise<TransitionOutcome> {
  return transitionOf(
    context,
    input,
    false,
    (view) => transitions.claimSteps(view, input, context.policy),
    options,
  );
}

/** `checkpoint-steps`: several claimed steps checkpointed, and optionally the run finished, in one commit. */
export function checkpointSteps(
  context: LedgerContext,
  input: CheckpointStepsInput & { repository?: string },
  options: TransitionOptions = {},
): Promise<TransitionOutcome> {
  return transitionOf(
    context,
    input,
    false,
    (view) => transitions.checkpointSteps(view, input, context.policy),
    options,
  );
}

/**
 * `takeover`: epoch + 1 after the lease's expiry plus grace on the server clock; claimed →
 * needs-reconciliation. It moves the lease (and the run) only away from holders that are gone: the
 * lease's holder and the run's owner are proven gone first (displacingTransition).
 */
export function takeoverRun(
  context: LedgerContext,
  input: TakeoverInput & { repository?: string },
  options: TransitionOptions = {},
): Promise<TransitionOutcome> {
  // The transition's own refusals (state, unexpired lease) come first, as they always did: holders are
  // read only for a takeover that would be made.
  // An owner that released the lease at its own epoch (a handover) is fenced already: it displaces no one.
  const displaced = (view: LedgerView): (HolderAttempt | null | undefined)[] =>
    wouldTakeOver(view, input, context.policy)
      ? [
          view.lease.holder,
          transitions.releasedByOwner(view.lease, view.run) ? null : view.run?.owner?.holder,
        ]
      : [];
  return displacingTransition(
    context,
    input,
    `run ${input.runId} is not taken over`,
    displaced,
    (view) => transitions.takeover(view, input, context.policy),
    options,
  );
}

/**
 * A transition that moves the lease (or a run) away from other holders: `displaced` names them on a
 * view. They are read on the Actions API (`context.liveness`, ledger/liveness.ts) before the commit,
 * and the commit is evaluated only if the head it lands on displaces no holder other than those proven
 * gone (or the taker itself). A live attempt is `repository-lease-held` whatever the lease's expiry; one
 * Writ cannot read is `holder-liveness-unproven`. The one path for `takeover` and for a `consume` that
 * finds an expired lease.
 */
async function displacingTransition(
  context: LedgerContext,
  input: { runId: string; repository?: string; holder: HolderAttempt },
  consequence: string,
  displaced: (view: LedgerView) => readonly (HolderAttempt | null | undefined)[],
  evaluate: TransitionSpec['evaluate'],
  options: TransitionOptions,
): Promise<TransitionOutcome> {
  validateRunId(input.runId);
  const repository = runRepositoryOf(context, input.repository);
  const paths = transitionPaths(repository, input.runId);
  const first = options.first ?? (await context.store.read(transitionRead(paths, 2, true))) ?? undefined;
  let gone: HolderAttempt[] = [];
  const view = first === undefined ? null : unprovenView(context, first, repository, input.runId);
  // An unproven read names only whom to read: a head that does not parse reads no one, and the
  // transition below refuses it with the proven read's own code (a holder left unread keeps the lease).
  if (view !== null) {
    gone = await requireHoldersGone(context.liveness, displaced(view), input.holder, consequence);
  }
  return transitionOf(
    context,
    input,
    true,
    (view) => {
      const result = evaluate(view);
      const unread = displaced(view).find((holder) => !provenGone(holder, input.holder, gone));
      if (unread !== undefined && unread !== null) {
        // The lease or the run moved to another holder since its liveness was read: read again later.
        throw transitions.leaseHeld(view.lease, `${consequence}: its holder changed since it was read`);
      }
      return result;
    },
    first === undefined ? options : { ...options, first },
  );
}

function unprovenView(
  context: LedgerContext,
  snapshot: LedgerSnapshot,
  repository: string,
  runId: string,
): LedgerView | null {
  try {
    const parsed = parseSnapshot(context.store, snapshot, runFilePath(repository, runId));
    return { serverTime: snapshot.serverTime, lease: parsed.lease, run: parsed.run };
  } catch {
    return null;
  }
}

function wouldTakeOver(view: LedgerView, input: TakeoverInput, policy: LeasePolicy): boolean {
  try {
    transitions.takeover(view, input, policy);
    return true;
  } catch {
    return false;
  }
}

export function releaseLease(
  context: LedgerContext,
  input: ReleaseInput & { repository?: string },
  options: TransitionOptions = {},
): Promise<TransitionOutcome> {
  return transitionOf(context, input, false, (view) => transitions.release(view, input), options);
}

export function completeRun(
  context: LedgerContext,
  input: CompleteInput & { repository?: string },
  options: TransitionOptions = {},
): Promise<TransitionOutcome> {
  return transitionOf(context, input, false, (view) => transitions.complete(view, input), options);
}

export function reconcileStep(
  context: LedgerContext,
  input: ReconcileInput & { repository?: string },
  options: TransitionOptions = {},
): Promise<TransitionOutcome> {
  return transitionOf(context, input, true, (view) => transitions.reconcile(view, input), options);
}

/** `cancel`: a repository writer's one-time cancel command; a cancelled run makes no further write. */
export function cancelRun(
  context: LedgerContext,
  input: CancelInput & { repository?: string },
  options: TransitionOptions = {},
): Promise<TransitionOutcome> {
  return transitionOf(context, input, true, (view) => transitions.cancel(view, input), options);
}

/** `status`: records the run's status comment reservation or result (see status-comment/). */
export function recordStatusComment(
  context: LedgerContext,
  input: StatusUpdateInput & { repository?: string },
  options: TransitionOptions = {},
): Promise<TransitionOutcome> {
  return transitionOf(context, input, false, (view) => transitions.recordStatus(view, input), options);
}

/** `artifact`: records a published artifact (commit and PR) on an approved run. */
export function recordArtifactPublish(
  context: LedgerContext,
  input: ArtifactInput & { repository?: string },
  options: TransitionOptions = {},
): Promise<TransitionOutcome> {
  return transitionOf(context, input, false, (view) => transitions.recordArtifact(view, input), options);
}

export interface RunView {
  headOid: string;
  /** The server's clock at the read (ms since the epoch). */
  serverTime: number;
  lease: Lease;
  run: RunFile | null;
}

export interface VerifiedRunView extends RunView {
  /** The provenance proven at `headOid` (rulesets included): the run file is read at that same head. */
  provenance: ProvenanceReport;
  /** The repository fields asked for with `alongside`, from the same request (absent if not asked). */
  alongside?: Readonly<Record<string, unknown>>;
}

/**
 * One read of a run file and the lease at the ledger head, with the history up to that head proven
 * (replay above the checkpoint, and the two rulesets): what a gate reads before any write it allows.
 */
export async function readVerifiedRun(
  context: LedgerContext,
  runId: string,
  repository?: string,
  options: { alongside?: string } = {},
): Promise<VerifiedRunView> {
  validateRunId(runId);
  if (context.app === null) {
    throw new WritError(
      'invalid-input',
      'The ledger app identity (slug and app ID) is required to prove the ledger.',
    );
  }
  const runPath = runFilePath(runRepositoryOf(context, repository), runId);
  const snapshot = await context.store.read({
    paths: [LEDGER_ROOT_PATH, LEASE_PATH, runPath, PROVENANCE_PATH],
    historyFirst: 2,
    withParent: true,
    withRules: true,
    ...(options.alongside === undefined ? {} : { alongside: options.alongside }),
  });
  if (snapshot === null) {
    throw new WritError(
      'ledger-branch-missing',
      `The ledger branch ${context.store.location.branch} does not exist.`,
    );
  }
  const provenance = await verifyProvenance(context.store, context.app, snapshot.headOid, {
    mode: 'incremental',
    checkpoint: readCheckpoint(snapshot),
    firstPage: snapshot.history,
    ...(snapshot.head === undefined ? {} : { head: snapshot.head }),
    ...(snapshot.rules === undefined ? {} : { rules: snapshot.rules }),
  });
  const parsed = parseSnapshot(context.store, snapshot, runPath);
  return {
    headOid: snapshot.headOid,
    serverTime: snapshot.serverTime,
    lease: parsed.lease,
    run: parsed.run,
    provenance,
    ...(snapshot.alongside === undefined ? {} : { alongside: snapshot.alongside }),
  };
}

/** One read of a run file and the lease at the ledger head (validated, like every ledger read). */
export async function readRun(context: LedgerContext, runId: string, repository?: string): Promise<RunView> {
  validateRunId(runId);
  const runPath = runFilePath(runRepositoryOf(context, repository), runId);
  const snapshot = await context.store.read({
    paths: [LEDGER_ROOT_PATH, LEASE_PATH, runPath],
    historyFirst: 0,
  });
  if (snapshot === null) {
    throw new WritError(
      'ledger-branch-missing',
      `The ledger branch ${context.store.location.branch} does not exist.`,
    );
  }
  const parsed = parseSnapshot(context.store, snapshot, runPath);
  return { headOid: snapshot.headOid, serverTime: snapshot.serverTime, lease: parsed.lease, run: parsed.run };
}

export interface VerifiedLedgerView {
  headOid: string;
  /** The server's clock at the read (ms since the epoch). */
  serverTime: number;
  lease: Lease;
  /** Every run file at `headOid` (validated), sorted by path. */
  runs: RunFile[];
  provenance: ProvenanceReport;
}

/**
 * One read of the lease and every run file at the ledger head, with the history up to that head proven
 * (rulesets included): what a recovery sweep scans.
 */
export async function readVerifiedRuns(context: LedgerContext): Promise<VerifiedLedgerView> {
  if (context.app === null) {
    throw new WritError(
      'invalid-input',
      'The ledger app identity (slug and app ID) is required to prove the ledger.',
    );
  }
  const snapshot = await context.store.read({
    paths: [LEDGER_ROOT_PATH, LEASE_PATH, PROVENANCE_PATH],
    historyFirst: 2,
    withParent: true,
    withRules: true,
    listRuns: true,
  });
  if (snapshot === null) {
    throw new WritError(
      'ledger-branch-missing',
      `The ledger branch ${context.store.location.branch} does not exist.`,
    );
  }
  const provenance = await verifyProvenance(context.store, context.app, snapshot.headOid, {
    mode: 'incremental',
    checkpoint: readCheckpoint(snapshot),
    firstPage: snapshot.history,
    ...(snapshot.head === undefined ? {} : { head: snapshot.head }),
    ...(snapshot.rules === undefined ? {} : { rules: snapshot.rules }),
  });
  const parsed = parseSnapshot(context.store, snapshot, null);
  const runs = [...(snapshot.runFiles ?? new Map<string, string>())]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, text]) => parseLedgerFile(RUN_FILE, path, text));
  return {
    headOid: snapshot.headOid,
    serverTime: snapshot.serverTime,
    lease: parsed.lease,
    runs,
    provenance,
  };
}
