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
  let requests = 0;
  const incremental = options.mode === 'incremental';
  // The O(1) freeze gate: a head whose checkpoint carries the sweep's freeze is refused before anything
  // else (ledger/freeze.ts explains why it cannot be removed unnoticed).
  const frozen = options.checkpoint?.frozen;
  if (frozen !== undefined) throw frozenError(frozen, null);
  const trusted = incremental ? (options.trusted ?? null) : null;
  // Where the walk down the history stops: a state this process proved itself, or the commit the
  // head's checkpoint names (its own claim, checked below, never taken as proof).
  const stopAt = trusted?.throughOid ?? (incremental ? (options.checkpoint?.verified_through ?? null) : null);
  let page: HistoryPage | undefined = options.firstPage;
  if (page === undefined || page.commits.length === 0 || page.commits[0]?.oid !== headOid) {
    requests += 1;
    page = await store.readHistory(headOid, null, 100);
  }
  // Newest first: the commits above the stop, or the whole history down to the root.
  const above: CommitInfo[] = [];
  let anchor: CommitInfo | null = null;
  let root: CommitInfo | null = null;
  walk: for (;;) {
    for (const commit of page.commits) {
      if (stopAt !== null && commit.oid === stopAt) {
        anchor = commit;
        break walk;
      }
      const problem = commitProblem(commit, app);
      if (problem !== null) throw unproven(`Ledger history rule failed: ${problem}.`, { commit: commit.oid });
      if (commit.parentCount === 0) {
        root = commit;
        break walk;
      }
      above.push(commit);
    }
    if (!page.hasNextPage || page.endCursor === null) break;
    requests += 1;
    page = await store.readHistory(headOid, page.endCursor, 100);
  }
  if (stopAt !== null && anchor === null) {
    throw unproven("The head's provenance checkpoint names a commit that is not in the ledger history.");
  }
  const pending = above.reverse();
  const toRead = (commit: CommitInfo): { oid: string; paths: string[] } => ({
    oid: commit.oid,
    paths: replayPaths(parseTrailers(commit.message)),
  });
  const readRoot = async (commit: CommitInfo): Promise<ReplayState> => {
    // A root at the head came with the one read (its files and changed-file count): no second request.
    if (
      options.head?.oid === commit.oid &&
      replayPaths(null).every((path) => options.head?.files.has(path))
    ) {
      readRootFile(options.head.files);
      return replayRoot(commit, options.head, store.location);
    }
    requests += 1;
    const [data] = await store.readCommits([{ oid: commit.oid, paths: replayPaths(null) }]);
    if (data === undefined) throw unproven(`Ledger root ${commit.oid} could not be read.`);
    readRootFile(data.files);
    return replayRoot(commit, data, store.location);
  };
  // ledger-root.json as the replayed commits carry it (replay refuses any commit that changes it): its
  // ruleset pins are what the ruleset check holds the branch to.
  let rootText: string | null | undefined;
  const readRootFile = (files: ReadonlyMap<string, string | null>): void => {
    if (files.has(LEDGER_ROOT_PATH)) rootText = files.get(LEDGER_ROOT_PATH) ?? null;
  };
  let state: ReplayState | null = null;
  if (trusted !== null) state = trusted;
  else if (anchor === null) {
    if (root === null) throw unproven('The ledger history has no parentless root commit.');
    state = await readRoot(root);
  } else if (anchor.parentCount === 0) state = await readRoot(anchor);
  else if (pending.length === 0) {
    throw unproven("The head's provenance checkpoint names the head itself.");
  }
  const replayDeps = {
    comment: (repository: string, id: number) => ((requests += 1), store.comment(repository, id)),
  };
  for (let index = 0; index < pending.length; index += REPLAY_BATCH) {
    const batch = pending.slice(index, index + REPLAY_BATCH);
    const reads = batch.map(toRead);
    const last = batch.length - 1;
    // The head's replay data came with the one read when it holds every path the head's replay needs.
    const head =
      options.head !== undefined &&
      batch[last]?.oid === options.head.oid &&
      (reads[last]?.paths ?? []).every((path) => options.head?.files.has(path) === true)
        ? options.head
        : null;
    const fetched = reads.slice(0, head === null ? undefined : last);
    if (fetched.length > 0) requests += 1;
    const data = await store.readCommits(fetched);
    if (head !== null) data.push(head);
    for (const [offset, commit] of batch.entries()) {
      const files = data[offset];
      if (files === undefined || files.oid !== commit.oid)
        throw unproven(`Ledger commit ${commit.oid} could not be read.`);
      // The anchor's state is what its own checkpoint (as its child sees it) and trailers give.
      state ??= stateAfter(anchor as CommitInfo, files.parentFiles.get(PROVENANCE_PATH) ?? null);
      state = await replayCommit(commit, files, state, replayDeps);
      readRootFile(files.files);
    }
  }
  if (state === null) throw unproven('The ledger history could not be proven.');
  if (rootText !== undefined) {
    if (rootText === null) throw unproven(`The ledger history has no ${LEDGER_ROOT_PATH}.`);
    state = {
      ...state,
      rulesetPins: parseLedgerFile(LEDGER_ROOT_FILE, LEDGER_ROOT_PATH, rootText).rulesets ?? null,
    };
  }
  let rulesetIds: number[] = [];
  if (options.rulesets !== false) {
    const rulesets = await checkRulesets(store, app, state.rootCommittedAt, options.rules, state.rulesetPins);
    requests += rulesets.requests;
    rulesetIds = rulesets.rulesetIds;
  }
  return {
    headOid,
    rootOid: state.rootOid,
    rootCommittedAt: state.rootCommittedAt,
    commitsChecked: pending.length + (anchor === null ? 1 : 0),
    totalCommits: state.commits,
    requests,
    usedCheckpoint: anchor !== null,
    rulesetIds,
    consumedRunIds: state.consumedRunIds,
    consumedCommentIds: state.consumedCommentIds,
    state,
  };
}

/** The checkpoint a transition commit records after proving the history through `report.headOid`. */
export function checkpointFrom(report: ProvenanceReport): ProvenanceCheckpoint {
  return checkpointOf(report.state);
}
