/**
 * Provenance: the ledger is authority only if its history proves app-only, append-only, legal writes.
 * Fails closed with `ledger-provenance-unproven` naming the first rule that does not hold:
 *  - the two rulesets of rulesets.ts protect the branch and are unchanged since the root commit;
 *  - the oldest commit is a parentless bootstrap holding only ledger-root.json, and no other commit is
 *    parentless (no merges either);
 *  - every commit is authored by the configured app (`<slug>[bot]`) and carries a valid GitHub signature;
 *  - every commit above the root is exactly the transition its trailers name, replayed from its
 *    parent's files (replay.ts), and carries the checkpoint of the proven state through its parent.
 *
 * Incremental by induction: every writer replays the commits above the head's checkpoint before it
 * commits and records in its own commit how far the history is proven, so a check replays only the
 * commits written since the last writer (usually one: the head), flat in history length. The full
 * check (`writ ledger verify`) replays from the root and trusts no checkpoint: it is the one that also
 * catches a forger who writes two commits, the second claiming the first was proven.
 */
import { WritError } from '../errors.js';
import { parseTrailers } from './message.js';
import type { ReplayState } from './replay.js';
import { checkpointOf, frozenError, replayCommit, replayPaths, replayRoot, stateAfter } from './replay.js';
import { checkRulesets } from './rulesets.js';
import { LEDGER_ROOT_PATH, PROVENANCE_PATH } from './paths.js';
import { LEDGER_ROOT_FILE, parseLedgerFile } from './schemas.js';
import type { BranchRule, CommitFiles, CommitInfo, HistoryPage, LedgerStore } from './store.js';
import type { LedgerApp, ProvenanceCheckpoint } from './types.js';

export type ProvenanceMode = 'full' | 'incremental';

export interface ProvenanceReport {
  headOid: string;
  rootOid: string;
  rootCommittedAt: number | null;
  /** Commits replayed by this check (the rest were covered by the checkpoint). */
  commitsChecked: number;
  /** Commits from the root to the head. */
  totalCommits: number;
  /** API requests the check made beyond the one read (history pages, replays and ruleset reads). */
  requests: number;
  usedCheckpoint: boolean;
  rulesetIds: number[];
  consumedRunIds: Set<string>;
  consumedCommentIds: Set<number>;
  /** The proven state through the head (what the next commit records as its checkpoint). */
  state: ReplayState;
}

function unproven(rule: string, details: Record<string, string | number | boolean> = {}): WritError {
  return new WritError('ledger-provenance-unproven', rule, { details });
}

const BOT_EMAIL = (slug: string): RegExp =>
  new RegExp(
    `^[0-9]+\\+${slug.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\[bot\\]@users\\.noreply\\.github\\.com$`,
  );

/** Why a commit fails the authorship/signature rules, or null if it passes. */
export function commitProblem(commit: CommitInfo, app: LedgerApp): string | null {
  const botLogin = `${app.slug}[bot]`;
  if (
    commit.authorName !== botLogin ||
    commit.authorEmail === null ||
    !BOT_EMAIL(app.slug).test(commit.authorEmail) ||
    (commit.authorLogin !== null && commit.authorLogin !== botLogin)
  ) {
    return `commit ${commit.oid} is not authored by the ledger app ${botLogin}`;
  }
  const signature = commit.signature;
  if (
    signature === null ||
    !signature.isValid ||
    signature.state !== 'VALID' ||
    !signature.wasSignedByGitHub
  ) {
    return `commit ${commit.oid} is not verified (signature ${signature === null ? 'missing' : signature.state})`;
  }
  if (commit.parentCount > 1) return `commit ${commit.oid} is a merge commit`;
  return null;
}

export interface ProvenanceOptions {
  mode: ProvenanceMode;
  /**
   * The checkpoint read from the head's `provenance.json` (incremental mode only): where the walk
   * stops. It is the head writer's claim, so the check anchors one commit lower, at the state the
   * named commit's own checkpoint and trailers give, and replays everything above (the head included).
   */
  checkpoint?: ProvenanceCheckpoint | null;
  /** A state this process proved itself earlier (a retry after a stale head): trusted, not re-checked. */
  trusted?: ReplayState;
  /** A page of history already returned by the one read (avoids a request). */
  firstPage?: HistoryPage;
  /** The head with its parent's files, already returned by the one read (avoids a request). */
  head?: CommitFiles;
  /** Check the branch rulesets too (default true; plain progress writes skip it, see cas.ts). */
  rulesets?: boolean;
  /** The branch's rules the one read returned (LedgerSnapshot.rules); null or absent lists them by REST. */
  rules?: readonly BranchRule[] | null;
}

/** Commits replayed per GraphQL request. */
const REPLAY_BATCH = 25;

/** One check in progress: what it proves, and what it has counted and read so far. */
interface Check {
  store: LedgerStore;
  app: LedgerApp;
  headOid: string;
  options: ProvenanceOptions;
  /** API requests beyond the one read (see ProvenanceReport.requests). */
  requests: number;
  /**
   * ledger-root.json as the replayed commits carry it (replay refuses any commit that changes it): its
   * ruleset pins are what the ruleset check holds the branch to. Undefined until a commit's files hold it.
   */
  rootText: string | null | undefined;
}

/** The history between the head and where the check stops, newest first. */
interface Walked {
  /** The commits above the stop (or above the root), newest first. */
  above: CommitInfo[];
  /** The commit the walk stopped at (a trusted state's, or the one the head's checkpoint names). */
  anchor: CommitInfo | null;
  /** The parentless root, when the walk went all the way down. */
  root: CommitInfo | null;
}

/**
 * Proves the ledger history of `headOid`. Throws `ledger-provenance-unproven` on the first rule that
 * fails; returns the proven state (tombstones included) on success.
 */
export async function verifyProvenance(
  store: LedgerStore,
  app: LedgerApp,
  headOid: string,
  options: ProvenanceOptions,
): Promise<ProvenanceReport> {
  const incremental = options.mode === 'incremental';
  // The O(1) freeze gate: a head whose checkpoint carries the sweep's freeze is refused before anything
  // else (ledger/freeze.ts explains why it cannot be removed unnoticed).
  const frozen = options.checkpoint?.frozen;
  if (frozen !== undefined) throw frozenError(frozen, null);
  const trusted = incremental ? (options.trusted ?? null) : null;
  // Where the walk down the history stops: a state this process proved itself, or the commit the
  // head's checkpoint names (its own claim, checked below, never taken as proof).
  const stopAt = trusted?.throughOid ?? (incremental ? (options.checkpoint?.verified_through ?? null) : null);
  const check: Check = { store, app, headOid, options, requests: 0, rootText: undefined };
  const walked = await walkHistory(check, stopAt);
  if (stopAt !== null && walked.anchor === null) {
    throw unproven("The head's provenance checkpoint names a commit that is not in the ledger history.");
  }
  const pending = walked.above.reverse();
  const start = trusted ?? (await startState(check, walked, pending));
  let state = await replayAbove(check, walked.anchor, pending, start);
  if (state === null) throw unproven('The ledger history could not be proven.');
  state = withRulesetPins(check, state);
  let rulesetIds: number[] = [];
  if (options.rulesets !== false) {
    const rulesets = await checkRulesets(store, app, state.rootCommittedAt, options.rules, state.rulesetPins);
    check.requests += rulesets.requests;
    rulesetIds = rulesets.rulesetIds;
  }
  return {
    headOid,
    rootOid: state.rootOid,
    rootCommittedAt: state.rootCommittedAt,
    commitsChecked: pending.length + (walked.anchor === null ? 1 : 0),
    totalCommits: state.commits,
    requests: check.requests,
    usedCheckpoint: walked.anchor !== null,
    rulesetIds,
    consumedRunIds: state.consumedRunIds,
    consumedCommentIds: state.consumedCommentIds,
    state,
  };
}

/**
 * Walks the history down from the head (starting from the page the one read returned, when it starts
 * at the head) to `stopAt` or, without one, to the root, checking each commit's author and signature.
 */
async function walkHistory(check: Check, stopAt: string | null): Promise<Walked> {
  const { store, app, headOid } = check;
  let page: HistoryPage | undefined = check.options.firstPage;
  if (page === undefined || page.commits.length === 0 || page.commits[0]?.oid !== headOid) {
    check.requests += 1;
    page = await store.readHistory(headOid, null, 100);
  }
  const above: CommitInfo[] = [];
  for (;;) {
    for (const commit of page.commits) {
      if (stopAt !== null && commit.oid === stopAt) return { above, anchor: commit, root: null };
      const problem = commitProblem(commit, app);
      if (problem !== null) throw unproven(`Ledger history rule failed: ${problem}.`, { commit: commit.oid });
      if (commit.parentCount === 0) return { above, anchor: null, root: commit };
      above.push(commit);
    }
    if (!page.hasNextPage || page.endCursor === null) return { above, anchor: null, root: null };
    check.requests += 1;
    page = await store.readHistory(headOid, page.endCursor, 100);
  }
}

/**
 * The proven state the replay starts from: the root's, when the walk reached it or stopped at it; null
 * when the anchor is a commit above the root (its state comes from its child's files, see replayAbove).
 */
async function startState(
  check: Check,
  walked: Walked,
  pending: readonly CommitInfo[],
): Promise<ReplayState | null> {
  const { anchor, root } = walked;
  if (anchor === null) {
    if (root === null) throw unproven('The ledger history has no parentless root commit.');
    return replayRootOf(check, root);
  }
  if (anchor.parentCount === 0) return replayRootOf(check, anchor);
  if (pending.length === 0) throw unproven("The head's provenance checkpoint names the head itself.");
  return null;
}

async function replayRootOf(check: Check, commit: CommitInfo): Promise<ReplayState> {
  const { head } = check.options;
  // A root at the head came with the one read (its files and changed-file count): no second request.
  if (head?.oid === commit.oid && replayPaths(null).every((path) => head.files.has(path))) {
    noteRootFile(check, head.files);
    return replayRoot(commit, head, check.store.location);
  }
  check.requests += 1;
  const [data] = await check.store.readCommits([{ oid: commit.oid, paths: replayPaths(null) }]);
  if (data === undefined) throw unproven(`Ledger root ${commit.oid} could not be read.`);
  noteRootFile(check, data.files);
  return replayRoot(commit, data, check.store.location);
}

function noteRootFile(check: Check, files: ReadonlyMap<string, string | null>): void {
  if (files.has(LEDGER_ROOT_PATH)) check.rootText = files.get(LEDGER_ROOT_PATH) ?? null;
}

/**
 * Replays `pending` (oldest first) on `state`, REPLAY_BATCH commits per request. A null `state` is the
 * anchor's: what its own checkpoint (as its child carries it) and trailers give.
 */
async function replayAbove(
  check: Check,
  anchor: CommitInfo | null,
  pending: readonly CommitInfo[],
  start: ReplayState | null,
): Promise<ReplayState | null> {
  const replayDeps = {
    comment: (repository: string, id: number) => ((check.requests += 1), check.store.comment(repository, id)),
  };
  let state = start;
  for (let index = 0; index < pending.length; index += REPLAY_BATCH) {
    const batch = pending.slice(index, index + REPLAY_BATCH);
    const data = await readBatch(check, batch);
    for (const [offset, commit] of batch.entries()) {
      const files = data[offset];
      if (files === undefined || files.oid !== commit.oid)
        throw unproven(`Ledger commit ${commit.oid} could not be read.`);
      state ??= stateAfter(anchor as CommitInfo, files.parentFiles.get(PROVENANCE_PATH) ?? null);
      state = await replayCommit(commit, files, state, replayDeps);
      noteRootFile(check, files.files);
    }
  }
  return state;
}

/** The files a batch's replay reads, in one request; the head's came with the one read when it holds them all. */
async function readBatch(check: Check, batch: readonly CommitInfo[]): Promise<CommitFiles[]> {
  const reads = batch.map((commit) => ({
    oid: commit.oid,
    paths: replayPaths(parseTrailers(commit.message)),
  }));
  const last = batch.length - 1;
  const { head: given } = check.options;
  const head =
    given !== undefined &&
    batch[last]?.oid === given.oid &&
    (reads[last]?.paths ?? []).every((path) => given.files.has(path))
      ? given
      : null;
  const fetched = reads.slice(0, head === null ? undefined : last);
  if (fetched.length > 0) check.requests += 1;
  const data = await check.store.readCommits(fetched);
  if (head !== null) data.push(head);
  return data;
}

/** `state` with the ruleset pins of the ledger-root.json the replay read (none read: unchanged). */
function withRulesetPins(check: Check, state: ReplayState): ReplayState {
  const { rootText } = check;
  if (rootText === undefined) return state;
  if (rootText === null) throw unproven(`The ledger history has no ${LEDGER_ROOT_PATH}.`);
  return {
    ...state,
    rulesetPins: parseLedgerFile(LEDGER_ROOT_FILE, LEDGER_ROOT_PATH, rootText).rulesets ?? null,
  };
}

/** The checkpoint a transition commit records after proving the history through `report.headOid`. */
export function checkpointFrom(report: ProvenanceReport): ProvenanceCheckpoint {
  return checkpointOf(report.state);
}
