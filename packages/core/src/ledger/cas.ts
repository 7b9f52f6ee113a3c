/**
 * The compare-and-set loop, the ledger's only concurrency primitive: read the head (one query), evaluate
 * the pure transition against it, commit with `createCommitOnBranch(expectedHeadOid)`.
 *
 * - STALE_DATA: re-read and re-evaluate from scratch (the approval may now be consumed, the epoch may
 *   have moved); never overwrite.
 * - A lost response or a 5xx (the client retries this one CAS write on a 5xx, so a STALE_DATA can be
 *   caused by our own earlier attempt landing): every attempt carries its own transition ID trailer; the next
 *   read looks for it in the history above that attempt's base and accepts it only when the files at
 *   that commit are byte-identical to what the attempt sent. Otherwise the transition is re-evaluated.
 * - Bounded attempts with seeded full jitter (the one loop, github/cas-loop.ts, the artifact branch's
 *   too); the outcome (attempts, recovery, requests) is reported.
 */
import { randomUUID } from 'node:crypto';
import { WritError } from '../errors.js';
import type { CasCommitOutcome, CasDecision } from '../github/cas-loop.js';
import { runCasLoop } from '../github/cas-loop.js';
import { casExhausted } from '../github/commit-on-branch.js';
import type { Logger } from '../redact.js';
import { formatMessage, parseTrailers } from './message.js';
import { LEASE_PATH, LEDGER_ROOT_PATH, PROVENANCE_PATH, runFilePath } from './paths.js';
import type { ProvenanceReport } from './provenance.js';
import { checkpointFrom, verifyProvenance } from './provenance.js';
import {
  LEASE_FILE,
  LEDGER_ROOT_FILE,
  PROVENANCE_FILE,
  RUN_FILE,
  parseLedgerFile,
  serializeLedgerFile,
} from './schemas.js';
import type { FileAddition, HistoryPage, LedgerReadRequest, LedgerSnapshot, LedgerStore } from './store.js';
import type { ReplayState } from './replay.js';
import { stateThroughOwnCommit } from './replay.js';
import type { LeasePolicy, LedgerView, TransitionResult } from './transitions.js';
import { FREE_LEASE } from './transitions.js';
import type { Lease, LedgerApp, LedgerRoot, ProvenanceCheckpoint, RunFile } from './types.js';
import type { HolderLiveness } from './liveness.js';

/** Runner-side time is used only to pace retries, never to judge a lease. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface LedgerContext {
  store: LedgerStore;
  /** The ledger app's identity; required by every transition that checks provenance. */
  app: LedgerApp | null;
  policy: LeasePolicy;
  clock: Clock;
  logger: Logger;
  random: () => number;
  maxAttempts: number;
  /** Jitter base and cap (ms) between attempts. */
  backoffBaseMs: number;
  backoffCapMs: number;
  /**
   * Whether a lease holder's workflow run attempt is gone (ledger/liveness.ts): every takeover reads
   * it before moving the lease. From the ledger's client by default; an in-memory store proves nothing.
   */
  liveness: HolderLiveness;
}

export interface TransitionSpec {
  /** The repository whose run directory holds the run (`runs/<owner>--<repo>/`). */
  runRepository: string;
  runId: string;
  /**
   * Also prove the branch rulesets before evaluating (consume, takeover, reconcile: the transitions
   * that grant authority). Every transition replays the commits above the head's checkpoint.
   */
  provenance: boolean;
  evaluate(view: LedgerView): TransitionResult;
}

export interface PlannedCommit {
  expectedHeadOid: string;
  headline: string;
  body: string;
  additions: FileAddition[];
}

export interface TransitionOutcome {
  result: TransitionResult;
  dryRun: boolean;
  committed: boolean;
  commitOid: string | null;
  /** The commit made (or, in a dry run, the one that would be made). */
  commit: PlannedCommit;
  attempts: number;
  /** True when an attempt's response was lost and its landed commit was recognised by transition ID. */
  recoveredLostResponse: boolean;
  /** Store calls (≈ API requests) this transition made, retries by the client plugin excluded. */
  requests: number;
  provenance: ProvenanceReport | null;
  serverTime: number;
  /**
   * The ledger as this commit left it, when the server answered it directly: what the same process's
   * next transition commits on without reading the branch again (see `HeldHead`).
   */
  held?: HeldHead;
}

/**
 * The head a process just wrote itself: the commit's OID (createCommitOnBranch returned it), the server's
 * clock of that answer, the files at that commit for the run's paths (the parent's, read and proven
 * before the commit, overlaid with what the commit added) and the proven state through it. Its proof
 * is the commit itself: the transition was evaluated on a proven parent and the files are the ones it
 * produced, so the next commit needs no read to replay it. A next commit on it with
 * `expectedHeadOid` = this OID lands only if nothing was written since; a stale head is read and
 * proven as always (the walk stops at this commit, proven by this process).
 */
export interface HeldHead {
  headOid: string;
  serverTime: number;
  files: ReadonlyMap<string, string | null>;
  state: ReplayState;
}

interface PendingAttempt {
  transitionId: string;
  base: string;
  additions: FileAddition[];
  commit: PlannedCommit;
  result: TransitionResult;
  report: ProvenanceReport;
}

/** One commit an attempt decided on: what it was evaluated on and what it sends. */
interface DecidedCommit {
  snapshot: LedgerSnapshot;
  commit: PlannedCommit;
  result: TransitionResult;
  report: ProvenanceReport;
  transitionId: string;
}

/** Wraps a store so every call is counted. */
export function countingStore(store: LedgerStore): { store: LedgerStore; count: () => number } {
  let calls = 0;
  const counted: LedgerStore = {
    location: store.location,
    read: (request) => ((calls += 1), store.read(request)),
    readFilesAt: (oid, paths) => ((calls += 1), store.readFilesAt(oid, paths)),
    readHistory: (head, cursor, first) => ((calls += 1), store.readHistory(head, cursor, first)),
    readCommits: (requests) => ((calls += requests.length > 0 ? 1 : 0), store.readCommits(requests)),
    comment: (repository, id) => ((calls += 1), store.comment(repository, id)),
    commit: (request) => ((calls += 1), store.commit(request)),
    branchRules: () => ((calls += 1), store.branchRules()),
    ruleset: (id) => ((calls += 1), store.ruleset(id)),
    createRoot: (files, message) => ((calls += 4), store.createRoot(files, message)),
  };
  return { store: counted, count: () => calls };
}

export interface ParsedLedger {
  root: LedgerRoot;
  lease: Lease;
  run: RunFile | null;
  checkpoint: ProvenanceCheckpoint | null;
}

/** Parses and validates the files of a snapshot; a missing or foreign root fails closed. */
export function parseSnapshot(
  store: LedgerStore,
  snapshot: LedgerSnapshot,
  runPath: string | null,
): ParsedLedger {
  const rootText = snapshot.files.get(LEDGER_ROOT_PATH) ?? null;
  if (rootText === null) {
    throw new WritError('ledger-provenance-unproven', `The ledger branch has no ${LEDGER_ROOT_PATH}.`);
  }
  const root = parseLedgerFile(LEDGER_ROOT_FILE, LEDGER_ROOT_PATH, rootText);
  const { owner, repo, branch } = store.location;
  if (root.repository.toLowerCase() !== `${owner}/${repo}`.toLowerCase() || root.branch !== branch) {
    throw new WritError(
      'ledger-provenance-unproven',
      `${LEDGER_ROOT_PATH} names ${root.repository}@${root.branch}, not ${owner}/${repo}@${branch}.`,
    );
  }
  const leaseText = snapshot.files.get(LEASE_PATH) ?? null;
  const runText = runPath === null ? null : (snapshot.files.get(runPath) ?? null);
  const checkpointText = snapshot.files.get(PROVENANCE_PATH) ?? null;
  return {
    root,
    lease: leaseText === null ? FREE_LEASE : parseLedgerFile(LEASE_FILE, LEASE_PATH, leaseText),
    run: runText === null || runPath === null ? null : parseLedgerFile(RUN_FILE, runPath, runText),
    checkpoint:
      checkpointText === null ? null : parseLedgerFile(PROVENANCE_FILE, PROVENANCE_PATH, checkpointText),
  };
}

/** The head's checkpoint, or null (a full walk) when it is absent or unreadable. */
export function readCheckpoint(snapshot: LedgerSnapshot): ProvenanceCheckpoint | null {
  const text = snapshot.files.get(PROVENANCE_PATH) ?? null;
  if (text === null) return null;
  try {
    return parseLedgerFile(PROVENANCE_FILE, PROVENANCE_PATH, text);
  } catch {
    return null;
  }
}

function additionsFor(result: TransitionResult, runPath: string, report: ProvenanceReport): FileAddition[] {
  const additions: FileAddition[] = [];
  if (result.lease !== null) {
    additions.push({ path: LEASE_PATH, contents: serializeLedgerFile(LEASE_FILE, LEASE_PATH, result.lease) });
  }
  if (result.run !== null) {
    additions.push({ path: runPath, contents: serializeLedgerFile(RUN_FILE, runPath, result.run) });
  }
  additions.push({
    path: PROVENANCE_PATH,
    contents: serializeLedgerFile(PROVENANCE_FILE, PROVENANCE_PATH, checkpointFrom(report)),
  });
  return additions;
}

/**
 * Looks for a pending attempt's commit above its base. Walks the history of the head until every
 * pending base has been seen (usually inside the page the read already returned).
 */
async function findLanded(
  store: LedgerStore,
  snapshot: LedgerSnapshot,
  pending: readonly PendingAttempt[],
): Promise<{ attempt: PendingAttempt; oid: string } | null> {
  if (pending.length === 0) return null;
  const byId = new Map(pending.map((attempt) => [attempt.transitionId, attempt]));
  const bases = new Set(pending.map((attempt) => attempt.base));
  let page: HistoryPage = snapshot.history;
  if (page.commits.length === 0) page = await store.readHistory(snapshot.headOid, null, 100);
  for (;;) {
    for (const commit of page.commits) {
      const trailers = parseTrailers(commit.message);
      const attempt = trailers === null ? undefined : byId.get(trailers.transitionId);
      if (attempt !== undefined) {
        const files = await store.readFilesAt(
          commit.oid,
          attempt.additions.map((file) => file.path),
        );
        const identical = attempt.additions.every((file) => files.get(file.path) === file.contents);
        if (identical) return { attempt, oid: commit.oid };
        return null;
      }
      bases.delete(commit.oid);
      if (bases.size === 0) return null;
    }
    if (!page.hasNextPage || page.endCursor === null) return null;
    page = await store.readHistory(snapshot.headOid, page.endCursor, 100);
  }
}

/** One runTransition call: what it writes, and what carries from one attempt to the next. */
interface TransitionRun {
  context: LedgerContext;
  spec: TransitionSpec;
  app: LedgerApp;
  /** The context's store, every call counted (TransitionOutcome.requests). */
  store: LedgerStore;
  count: () => number;
  runPath: string;
  paths: string[];
  dryRun: boolean;
  /** Each attempt's transition ID is this with the attempt number. */
  transitionBase: string;
  /** Attempts that met a stale head or an unknown outcome: one of them may have landed. */
  pending: PendingAttempt[];
  /** What the last attempt proved: a retry proves only the commits written since. */
  proven: ProvenanceReport | null;
  /** A head this process wrote itself, for the first attempt to commit on unread (see HeldHead). */
  held: HeldHead | null;
  /** A read the caller made already, for the first attempt. */
  first: LedgerSnapshot | null;
}

/** Runs one transition through the compare-and-set loop (or, with dryRun, evaluates it and stops). */
export async function runTransition(
  context: LedgerContext,
  spec: TransitionSpec,
  options: { dryRun?: boolean; from?: HeldHead; first?: LedgerSnapshot } = {},
): Promise<TransitionOutcome> {
  const { store, count } = countingStore(context.store);
  const paths = transitionPaths(spec.runRepository, spec.runId);
  const app = context.app;
  if (app === null) {
    throw new WritError(
      'invalid-input',
      'The ledger app identity (slug and app ID) is required to write the ledger: every commit replays the history above the last checkpoint.',
    );
  }
  const run: TransitionRun = {
    context,
    spec,
    app,
    store,
    count,
    runPath: runFilePath(spec.runRepository, spec.runId),
    paths,
    dryRun: options.dryRun === true,
    transitionBase: randomUUID(),
    pending: [],
    proven: null,
    // A head this process wrote itself needs no read: its first attempt commits on it (see HeldHead). A
    // transition that grants authority (spec.provenance) always reads, to prove the rulesets now.
    held: spec.provenance ? null : usableHead(options.from, paths),
    // A read the caller made already (transitionRead, for this run): the first attempt proves it as usual.
    first:
      options.first !== undefined && paths.every((path) => options.first?.files.has(path))
        ? options.first
        : null,
  };
  return runCasLoop<TransitionOutcome, DecidedCommit>(context, {
    decide: (attempt) => decideAttempt(run, attempt),
    commit: (decided, attempt) => commitAttempt(run, decided, attempt),
    // Before giving up, one last look for an attempt that landed.
    landed: async () => {
      const snapshot = await store.read({ paths, historyFirst: 100 });
      if (snapshot === null) return null;
      const landed = await findLanded(store, snapshot, run.pending);
      return landed === null ? null : recovered(landed, snapshot, context.maxAttempts, count());
    },
    exhausted: (attempts) => casExhausted('ledger', `The ledger commit for run ${spec.runId}`, attempts),
  });
}

/**
 * One attempt's read and decision: done when an earlier attempt is found to have landed (or in a dry
 * run), else the commit to make, evaluated on the proven head.
 */
async function decideAttempt(
  run: TransitionRun,
  attempt: number,
): Promise<CasDecision<TransitionOutcome, DecidedCommit>> {
  const snapshot = await attemptSnapshot(run);
  const landed = await findLanded(run.store, snapshot, run.pending);
  if (landed !== null) {
    run.context.logger.info(`ledger: attempt ${landed.attempt.transitionId} had landed as ${landed.oid}`);
    return { kind: 'done', value: recovered(landed, snapshot, attempt, run.count()) };
  }
  // Authority first: no file content is judged before the history that wrote it is proven.
  const report = await proveAttempt(run, snapshot);
  const decided = planCommit(run, snapshot, report, attempt);
  if (run.dryRun) {
    return {
      kind: 'done',
      value: outcomeOf(run, decided, attempt, { committed: false, serverTime: snapshot.serverTime }),
    };
  }
  return { kind: 'commit', commit: decided };
}

/**
 * What an attempt starts from: the held head (unread), the caller's read (first attempt only), or a
 * read of the branch (two commits of history: the head to replay and its parent, where its checkpoint
 * usually ends; a hundred when an earlier attempt may have landed).
 */
async function attemptSnapshot(run: TransitionRun): Promise<LedgerSnapshot> {
  const { held, store, spec } = run;
  if (held !== null) run.proven = heldReport(held);
  const snapshot: LedgerSnapshot | null =
    held !== null
      ? heldSnapshot(held)
      : (run.first ??
        (await store.read(transitionRead(run.paths, run.pending.length > 0 ? 100 : 2, spec.provenance))));
  run.first = null;
  if (snapshot === null) {
    throw new WritError(
      'ledger-branch-missing',
      `The ledger branch ${store.location.branch} does not exist in ${store.location.owner}/${store.location.repo}.`,
    );
  }
  return snapshot;
}

/** The provenance of the snapshot's head: a held head's own, else proven above the checkpoint (or what this run proved). */
async function proveAttempt(run: TransitionRun, snapshot: LedgerSnapshot): Promise<ProvenanceReport> {
  const { held, proven } = run;
  const report: ProvenanceReport =
    held !== null && proven !== null
      ? proven
      : await verifyProvenance(run.store, run.app, snapshot.headOid, {
          mode: 'incremental',
          ...(proven === null ? { checkpoint: readCheckpoint(snapshot) } : { trusted: proven.state }),
          firstPage: snapshot.history,
          ...(snapshot.head === undefined ? {} : { head: snapshot.head }),
          rulesets: run.spec.provenance,
          ...(snapshot.rules === undefined ? {} : { rules: snapshot.rules }),
        });
  run.held = null;
  run.proven = report;
  return report;
}

/** Evaluates the transition on the proven snapshot and plans its commit on that head. */
function planCommit(
  run: TransitionRun,
  snapshot: LedgerSnapshot,
  report: ProvenanceReport,
  attempt: number,
): DecidedCommit {
  const { spec } = run;
  const parsed = parseSnapshot(run.store, snapshot, run.runPath);
  const view: LedgerView = {
    serverTime: snapshot.serverTime,
    lease: parsed.lease,
    run: parsed.run,
    tombstones: { runIds: report.consumedRunIds, commentIds: report.consumedCommentIds },
  };
  const result = spec.evaluate(view);
  const transitionId = `${run.transitionBase}.${attempt}`;
  const message = formatMessage({
    transition: result.transition,
    runId: result.runId,
    repository: spec.runRepository,
    epoch: result.epoch,
    transitionId,
    commentId: result.commentId,
  });
  const commit: PlannedCommit = {
    expectedHeadOid: snapshot.headOid,
    headline: message.headline,
    body: message.body,
    additions: additionsFor(result, run.runPath, report),
  };
  return { snapshot, commit, result, report, transitionId };
}

/** Makes the attempt's commit: done when GitHub answered it, else remembered as pending for the next read. */
async function commitAttempt(
  run: TransitionRun,
  decided: DecidedCommit,
  attempt: number,
): Promise<CasCommitOutcome<TransitionOutcome>> {
  const { snapshot, commit, result, report, transitionId } = decided;
  const outcome = await run.store.commit(commit);
  if (outcome.kind === 'committed') {
    return {
      kind: 'done',
      value: {
        ...(outcome.serverTime === null
          ? {}
          : { held: headAfter(snapshot, commit, outcome.oid, outcome.serverTime, result, report) }),
        ...outcomeOf(run, decided, attempt, {
          committed: true,
          commitOid: outcome.oid,
          serverTime: outcome.serverTime ?? snapshot.serverTime,
        }),
      },
    };
  }
  // STALE_DATA may be our own earlier attempt landing (the client retries this CAS write); an
  // unknown outcome may have landed too. Either way the next read looks for this attempt's
  // transition ID before re-evaluating.
  run.pending.push({
    transitionId,
    base: snapshot.headOid,
    additions: commit.additions,
    commit,
    result,
    report,
  });
  run.context.logger.debug(
    `ledger: ${result.transition} ${run.spec.runId} attempt ${attempt} ${outcome.kind === 'stale' ? 'met a stale head' : `has an unknown outcome (${outcome.reason})`}`,
  );
  return { kind: 'again' };
}

/** The outcome of a decided commit: made (`commitOid`), or planned in a dry run. */
function outcomeOf(
  run: TransitionRun,
  decided: DecidedCommit,
  attempt: number,
  made: { committed: boolean; commitOid?: string; serverTime: number },
): TransitionOutcome {
  return {
    result: decided.result,
    dryRun: !made.committed,
    committed: made.committed,
    commitOid: made.commitOid ?? null,
    commit: decided.commit,
    attempts: attempt,
    recoveredLostResponse: false,
    requests: run.count(),
    provenance: decided.report,
    serverTime: made.serverTime,
  };
}

/** The read a transition attempt starts from: its files with the head and its parent, and history. */
export function transitionRead(
  paths: readonly string[],
  historyFirst = 2,
  withRules = false,
): LedgerReadRequest {
  return { paths, historyFirst, withParent: true, ...(withRules ? { withRules } : {}) };
}

/** The paths a transition of this run reads. */
export function transitionPaths(runRepository: string, runId: string): string[] {
  return [LEDGER_ROOT_PATH, LEASE_PATH, runFilePath(runRepository, runId), PROVENANCE_PATH];
}

/** `from` when it holds every path this transition reads (the same run), else null. */
function usableHead(from: HeldHead | undefined, paths: readonly string[]): HeldHead | null {
  if (from === undefined) return null;
  return paths.every((path) => from.files.has(path)) ? from : null;
}

function heldSnapshot(held: HeldHead): LedgerSnapshot {
  return {
    headOid: held.headOid,
    serverTime: held.serverTime,
    files: held.files,
    history: { commits: [], hasNextPage: true, endCursor: null },
  };
}

/** The provenance of a held head: the state this process proved through it (no ruleset read). */
function heldReport(held: HeldHead): ProvenanceReport {
  const { state } = held;
  return {
    headOid: held.headOid,
    rootOid: state.rootOid,
    rootCommittedAt: state.rootCommittedAt,
    commitsChecked: 0,
    totalCommits: state.commits,
    requests: 0,
    usedCheckpoint: true,
    rulesetIds: [],
    consumedRunIds: state.consumedRunIds,
    consumedCommentIds: state.consumedCommentIds,
    state,
  };
}

/** The ledger as `commit` (evaluated on `snapshot`, proven by `report`) left it, committed as `oid`. */
function headAfter(
  snapshot: LedgerSnapshot,
  commit: PlannedCommit,
  oid: string,
  serverTime: number,
  result: TransitionResult,
  report: ProvenanceReport,
): HeldHead {
  const files = new Map(snapshot.files);
  for (const addition of commit.additions) files.set(addition.path, addition.contents);
  return { headOid: oid, serverTime, files, state: stateThroughOwnCommit(report.state, result, oid) };
}

function recovered(
  landed: { attempt: PendingAttempt; oid: string },
  snapshot: LedgerSnapshot,
  attempts: number,
  requests: number,
): TransitionOutcome {
  return {
    result: landed.attempt.result,
    dryRun: false,
    committed: true,
    commitOid: landed.oid,
    commit: landed.attempt.commit,
    attempts,
    recoveredLostResponse: true,
    requests,
    provenance: landed.attempt.report,
    serverTime: snapshot.serverTime,
  };
}
