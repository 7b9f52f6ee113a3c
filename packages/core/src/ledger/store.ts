/**
 * What the ledger needs from GitHub, as one narrow interface. `githubLedgerStore` implements it with the
 * real client (GraphQL for the one read, history pages and createCommitOnBranch; REST for rulesets and
 * the Git data API used only by bootstrap). Unit and model tests implement it in memory.
 */
import type { LedgerLocation } from './types.js';

export interface CommitSignatureInfo {
  isValid: boolean;
  state: string;
  wasSignedByGitHub: boolean;
  signerLogin: string | null;
}

/** One commit of the ledger branch history, as the provenance check sees it. */
export interface CommitInfo {
  oid: string;
  parentCount: number;
  /** The first parent's OID (null for a root commit). */
  parentOid: string | null;
  authorName: string | null;
  authorEmail: string | null;
  authorLogin: string | null;
  committerName: string | null;
  committerEmail: string | null;
  /** Committer date (ms since the epoch), null if absent. */
  committedAt: number | null;
  signature: CommitSignatureInfo | null;
  message: string;
}

export interface HistoryPage {
  /** Newest first. */
  commits: CommitInfo[];
  hasNextPage: boolean;
  endCursor: string | null;
}

export interface LedgerReadRequest {
  /** Files to return from the head commit (validated ledger paths). */
  paths: readonly string[];
  /** How many history entries (newest first) to return with the read; 0 for none. At most 100. */
  historyFirst: number;
  /** Also list every run file under `runs/` (for `writ ledger show`). */
  listRuns?: boolean;
  /** Also return the head commit's first parent's copies of `paths` and its changed-file count. */
  withParent?: boolean;
  /** Also list the active rules on the ledger branch (GraphQL `Ref.rules`), for the ruleset check. */
  withRules?: boolean;
  /**
   * Also select these fields of the repository in the same request (another stage's reads folded into
   * the one ledger read, e.g. the artifact lane's refs and pull requests); their answer, as GitHub gave
   * it, is `LedgerSnapshot.alongside`. The caller builds and parses the selection.
   */
  alongside?: string;
}

/**
 * What replaying one commit needs: its files and its first parent's at the same paths, and how many
 * files it changed in all (so a change outside those paths cannot hide).
 */
export interface CommitFiles {
  oid: string;
  parentOid: string | null;
  /** The parent's committer date (ms), null for a root commit. */
  parentCommittedAt: number | null;
  /** GitHub's `changedFilesIfAvailable`: null when GitHub could not count them. */
  changedFiles: number | null;
  files: ReadonlyMap<string, string | null>;
  parentFiles: ReadonlyMap<string, string | null>;
}

/** An issue comment as the replay of a consume commit re-verifies it. */
export interface CommentInfo {
  userId: number | null;
  body: string;
  htmlUrl: string;
  /** GitHub's edit record shows an edit, or could not vouch for none (command/comment.ts). */
  edited: boolean;
}

export interface LedgerSnapshot {
  headOid: string;
  /** The server's clock at this read (its `Date` header), in ms since the epoch. */
  serverTime: number;
  /** Requested path → text, or null when the path does not exist at the head. */
  files: ReadonlyMap<string, string | null>;
  /** The first page of history from the head (empty when historyFirst was 0). */
  history: HistoryPage;
  /** The head commit with its parent's copies of the requested paths (only when withParent). */
  head?: CommitFiles;
  /** Every run file path → text (only when listRuns). */
  runFiles?: ReadonlyMap<string, string>;
  /**
   * The active rules on the ledger branch as the read returned them (only when withRules): null when
   * the answer was not complete and exact (an error, another page, a rule without its ruleset's ID),
   * and then the ruleset check lists them through `branchRules()` instead.
   */
  rules?: BranchRule[] | null;
  /** The repository object GitHub answered, holding the `alongside` selection (only when asked). */
  alongside?: Readonly<Record<string, unknown>>;
}

export interface FileAddition {
  path: string;
  contents: string;
}

export interface CommitRequest {
  expectedHeadOid: string;
  headline: string;
  body: string;
  additions: readonly FileAddition[];
}

export type CommitOutcome =
  /** The server answered with the new commit. */
  | { kind: 'committed'; oid: string; serverTime: number | null }
  /** `STALE_DATA`: the head was not `expectedHeadOid` when the server looked (maybe our own retry). */
  | { kind: 'stale' }
  /** No usable answer (a dropped connection or a 5xx after the client's retries): it may have landed. */
  | { kind: 'unknown'; reason: string };

export interface BranchRule {
  type: string;
  rulesetId: number;
  rulesetSourceType: string;
}

export interface RulesetInfo {
  id: number;
  enforcement: string;
  /** Last change of the ruleset (ms since the epoch), null if absent. */
  updatedAt: number | null;
  /** null when the API did not return `bypass_actors` (the caller may not see them). */
  bypassActors: { actorId: number | null; actorType: string; bypassMode: string }[] | null;
  /**
   * What the ruleset says, as GitHub answered it: `target`, `source_type`, `source`, `enforcement`,
   * `conditions`, `rules` and `bypass_actors` (the fields that decide whom it binds and where). The
   * ledger root pins a digest of it (rulesets.ts `rulesetDigest`); absent, the digest covers only
   * `enforcement` and `bypassActors`.
   */
  content?: Readonly<Record<string, unknown>>;
}

export interface LedgerStore {
  readonly location: LedgerLocation;
  /** The ONE read: head OID, requested files and a page of history. null when the branch does not exist. */
  read(request: LedgerReadRequest): Promise<LedgerSnapshot | null>;
  /** Files as of a given commit (used only to confirm a lost-response commit's content). */
  readFilesAt(oid: string, paths: readonly string[]): Promise<ReadonlyMap<string, string | null>>;
  /** Several commits with their parents' files (one request for a batch; see CommitFiles). */
  readCommits(requests: readonly { oid: string; paths: readonly string[] }[]): Promise<CommitFiles[]>;
  /** An issue comment of `repository` by ID; null when it does not exist (404). */
  comment(repository: string, commentId: number): Promise<CommentInfo | null>;
  /** The next page of history of `headOid` after `cursor`. */
  readHistory(headOid: string, cursor: string | null, first: number): Promise<HistoryPage>;
  /** One createCommitOnBranch with expectedHeadOid. */
  commit(request: CommitRequest): Promise<CommitOutcome>;
  /** Active rules on the ledger branch (`GET /repos/{o}/{r}/rules/branches/{branch}`). */
  branchRules(): Promise<BranchRule[]>;
  /** One ruleset (`GET /repos/{o}/{r}/rulesets/{id}`). */
  ruleset(id: number): Promise<RulesetInfo>;
  /**
   * Bootstrap only: a parentless commit holding `files` (tree, commit with no parents and no custom
   * author, then ref). Refuses an existing branch with `ledger-branch-exists`.
   */
  createRoot(files: readonly FileAddition[], message: string): Promise<{ oid: string; verified: boolean }>;
}
