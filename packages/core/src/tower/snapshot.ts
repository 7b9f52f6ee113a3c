/**
 * What the Pages control tower reads: the ledger alone. One ledger read (the same read `writ ledger show`
 * makes: the root, the lease, the provenance checkpoint and every run file, each validated against its
 * schema by `parseSnapshot` / `parseLedgerFile`), then the newest commits of the ledger branch for the
 * provenance timeline, paged through the store's `readHistory` up to a fixed bound. It writes nothing and
 * proves nothing: the tower is a projection with no authority (`writ ledger verify` proves the ledger).
 */
import { WritError } from '../errors.js';
import type { LedgerContext } from '../ledger/cas.js';
import { parseSnapshot } from '../ledger/cas.js';
import { LEASE_PATH, LEDGER_ROOT_PATH, PROVENANCE_PATH } from '../ledger/paths.js';
import { RUN_FILE, parseLedgerFile } from '../ledger/schemas.js';
import type { CommitInfo } from '../ledger/store.js';
import type { Lease, ProvenanceCheckpoint, RunFile } from '../ledger/types.js';

/** The timeline's default length, and the most any caller may ask for. */
export const DEFAULT_TIMELINE_COMMITS = 50;
export const MAX_TIMELINE_COMMITS = 500;

export interface TowerSnapshot {
  repository: string;
  branch: string;
  headOid: string;
  /** The server's clock at the read (ms since the epoch). */
  serverTime: number;
  lease: Lease;
  checkpoint: ProvenanceCheckpoint | null;
  /** Every run file at `headOid` (validated), sorted by path. */
  runs: RunFile[];
  /** The newest commits of the branch, newest first, at most the bound asked for. */
  commits: CommitInfo[];
  /** True when the branch has older commits than `commits` holds. */
  historyTruncated: boolean;
}

function timelineBound(maxCommits: number | undefined): number {
  const bound = maxCommits ?? DEFAULT_TIMELINE_COMMITS;
  if (!Number.isSafeInteger(bound) || bound < 1 || bound > MAX_TIMELINE_COMMITS) {
    throw new WritError(
      'invalid-input',
      `Invalid timeline length ${String(bound)}. Expected an integer from 1 to ${MAX_TIMELINE_COMMITS}.`,
    );
  }
  return bound;
}

/** Reads the ledger as the tower shows it; `ledger-branch-missing` when there is no ledger yet. */
export async function readTowerSnapshot(
  context: LedgerContext,
  options: { maxCommits?: number } = {},
): Promise<TowerSnapshot> {
  const bound = timelineBound(options.maxCommits);
  const { store } = context;
  const snapshot = await store.read({
    paths: [LEDGER_ROOT_PATH, LEASE_PATH, PROVENANCE_PATH],
    historyFirst: Math.min(100, bound),
    listRuns: true,
  });
  if (snapshot === null) {
    throw new WritError(
      'ledger-branch-missing',
      `The ledger branch ${store.location.branch} does not exist.`,
    );
  }
  const parsed = parseSnapshot(store, snapshot, null);
  const runs = [...(snapshot.runFiles ?? new Map<string, string>())]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, text]) => parseLedgerFile(RUN_FILE, path, text));
  const commits = [...snapshot.history.commits];
  let page = snapshot.history;
  while (commits.length < bound && page.hasNextPage && page.endCursor !== null) {
    page = await store.readHistory(snapshot.headOid, page.endCursor, Math.min(100, bound - commits.length));
    commits.push(...page.commits);
  }
  return {
    repository: parsed.root.repository,
    branch: parsed.root.branch,
    headOid: snapshot.headOid,
    serverTime: snapshot.serverTime,
    lease: parsed.lease,
    checkpoint: parsed.checkpoint,
    runs,
    commits: commits.slice(0, bound),
    historyTruncated: commits.length > bound || page.hasNextPage,
  };
}
