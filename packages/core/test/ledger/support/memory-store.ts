/**
 * An in-memory LedgerStore for unit and model tests: a commit chain with a real compare-and-set on the
 * head, app-authored verified commits, configurable rules, and injectable faults. The emulator tests
 * prove the GitHub-backed store; this one makes thousands of runs cheap.
 */
import { createHash } from 'node:crypto';
import { WritError } from '../../../src/errors.js';
import type {
  BranchRule,
  CommentInfo,
  CommitFiles,
  CommitInfo,
  CommitOutcome,
  CommitRequest,
  FileAddition,
  HistoryPage,
  LedgerReadRequest,
  LedgerSnapshot,
  LedgerStore,
  RulesetInfo,
} from '../../../src/ledger/store.js';
import type { Approval, LedgerLocation } from '../../../src/ledger/types.js';
import type { HolderLiveness } from '../../../src/ledger/liveness.js';

interface MemoryCommit {
  info: CommitInfo;
  parent: string | null;
  files: Map<string, string>;
}

export type CommitFault = 'apply-then-drop' | 'apply-then-stale' | 'drop-before-apply';

export const APP = { slug: 'writ-ledger', id: 901 };
export const APP_BOT_ID = 7001;

export class MemoryLedgerStore implements LedgerStore {
  readonly location: LedgerLocation;
  readonly commits = new Map<string, MemoryCommit>();
  head: string | null = null;
  /** Server clock (ms). */
  now = Date.parse('2026-11-30T09:00:00Z');
  /** The two ledger rulesets: 1 blocks deletion and non-fast-forward for all, 2 restricts updates to the app. */
  rules: BranchRule[] = [
    { type: 'deletion', rulesetId: 1, rulesetSourceType: 'Repository' },
    { type: 'non_fast_forward', rulesetId: 1, rulesetSourceType: 'Repository' },
    { type: 'update', rulesetId: 2, rulesetSourceType: 'Repository' },
  ];
  rulesets = new Map<number, RulesetInfo>([
    [1, { id: 1, enforcement: 'active', updatedAt: Date.parse('2026-11-30T08:00:00Z'), bypassActors: [] }],
    [
      2,
      {
        id: 2,
        enforcement: 'active',
        updatedAt: Date.parse('2026-11-30T08:00:00Z'),
        bypassActors: [{ actorId: APP.id, actorType: 'Integration', bypassMode: 'always' }],
      },
    ],
  ]);
  /** Faults consumed one per commit call, in order. */
  faults: (CommitFault | null)[] = [];
  /** Awaited before each commit is applied (tests use it to interleave other writers). */
  beforeCommit: (() => Promise<void> | void) | null = null;
  /**
   * Issue comments by ID (what the replay of a consume re-verifies). With `approvalsCommented` (the
   * default) every consume committed through `commit()` also records the approver's matching comment,
   * as if the approver had posted it on GitHub; the emulator tests post real comments instead, and
   * forgeries appended with `append()` get none.
   */
  comments = new Map<number, CommentInfo>();
  approvalsCommented = true;
  calls = {
    read: 0,
    readFilesAt: 0,
    readCommits: 0,
    comment: 0,
    readHistory: 0,
    commit: 0,
    branchRules: 0,
    ruleset: 0,
    createRoot: 0,
  };
  private counter = 0;

  constructor(location: LedgerLocation = { owner: 'acme', repo: 'widgets', branch: 'bot/writ-ledger' }) {
    this.location = location;
  }

  /** Writes a commit directly (as the app unless `as` says otherwise). */
  append(
    files: Record<string, string>,
    message: string,
    options: {
      as?: 'app' | 'human';
      verified?: boolean;
      parentless?: boolean;
      reportedParents?: number;
    } = {},
  ): string {
    this.counter += 1;
    const parent = options.parentless === true ? null : this.head;
    const base = parent === null ? new Map<string, string>() : new Map(this.commits.get(parent)?.files);
    for (const [path, contents] of Object.entries(files)) base.set(path, contents);
    const oid = createHash('sha1').update(`${this.counter}:${message}`).digest('hex');
    const human = options.as === 'human';
    const verified = options.verified ?? true;
    this.commits.set(oid, {
      parent,
      files: base,
      info: {
        oid,
        parentCount: options.reportedParents ?? (parent === null ? 0 : 1),
        parentOid: parent,
        authorName: human ? 'mallory' : `${APP.slug}[bot]`,
        authorEmail: human
          ? '5+mallory@users.noreply.github.com'
          : `${APP_BOT_ID}+${APP.slug}[bot]@users.noreply.github.com`,
        authorLogin: human ? 'mallory' : null,
        committerName: 'GitHub',
        committerEmail: 'noreply@github.com',
        committedAt: Math.floor(this.now / 1000) * 1000,
        signature: verified
          ? { isValid: true, state: 'VALID', wasSignedByGitHub: true, signerLogin: 'web-flow' }
          : { isValid: false, state: 'UNSIGNED', wasSignedByGitHub: false, signerLogin: null },
        message,
      },
    });
    this.head = oid;
    return oid;
  }

  private history(from: string, cursor: string | null, first: number): HistoryPage {
    const all: CommitInfo[] = [];
    let oid: string | null = from;
    while (oid !== null) {
      const commit = this.commits.get(oid);
      if (commit === undefined) break;
      all.push(commit.info);
      oid = commit.parent;
    }
    const start = cursor === null ? 0 : Number(cursor);
    const commits = all.slice(start, start + first);
    const end = start + commits.length;
    return { commits, hasNextPage: end < all.length, endCursor: String(end) };
  }

  read(request: LedgerReadRequest): Promise<LedgerSnapshot | null> {
    this.calls.read += 1;
    if (this.head === null) return Promise.resolve(null);
    const commit = this.commits.get(this.head);
    if (commit === undefined) return Promise.resolve(null);
    const files = new Map<string, string | null>();
    for (const path of request.paths) files.set(path, commit.files.get(path) ?? null);
    const snapshot: LedgerSnapshot = {
      headOid: this.head,
      serverTime: this.now,
      files,
      history:
        request.historyFirst > 0
          ? this.history(this.head, null, request.historyFirst)
          : { commits: [], hasNextPage: true, endCursor: null },
    };
    if (request.withParent === true) snapshot.head = this.commitFiles(this.head, request.paths);
    if (request.listRuns === true) {
      snapshot.runFiles = new Map([...commit.files].filter(([path]) => path.startsWith('runs/')));
    }
    return Promise.resolve(snapshot);
  }

  readFilesAt(oid: string, paths: readonly string[]): Promise<ReadonlyMap<string, string | null>> {
    this.calls.readFilesAt += 1;
    const commit = this.commits.get(oid);
    return Promise.resolve(new Map(paths.map((path) => [path, commit?.files.get(path) ?? null])));
  }

  private commitFiles(oid: string, paths: readonly string[]): CommitFiles {
    const commit = this.commits.get(oid);
    const parent = commit?.parent === null || commit === undefined ? null : this.commits.get(commit.parent);
    const mine = commit?.files ?? new Map<string, string>();
    const theirs = parent?.files ?? new Map<string, string>();
    let changed = 0;
    for (const path of new Set([...mine.keys(), ...theirs.keys()]))
      if (mine.get(path) !== theirs.get(path)) changed += 1;
    return {
      oid,
      parentOid: commit?.parent ?? null,
      parentCommittedAt: parent?.info.committedAt ?? null,
      changedFiles: changed,
      files: new Map(paths.map((path) => [path, mine.get(path) ?? null])),
      parentFiles: new Map(paths.map((path) => [path, theirs.get(path) ?? null])),
    };
  }

  readCommits(requests: readonly { oid: string; paths: readonly string[] }[]): Promise<CommitFiles[]> {
    this.calls.readCommits += 1;
    return Promise.resolve(requests.map((request) => this.commitFiles(request.oid, request.paths)));
  }

  comment(_repository: string, commentId: number): Promise<CommentInfo | null> {
    this.calls.comment += 1;
    return Promise.resolve(this.comments.get(commentId) ?? null);
  }

  readHistory(headOid: string, cursor: string | null, first: number): Promise<HistoryPage> {
    this.calls.readHistory += 1;
    return Promise.resolve(this.history(headOid, cursor, first));
  }

  async commit(request: CommitRequest): Promise<CommitOutcome> {
    this.calls.commit += 1;
    await this.beforeCommit?.();
    const fault = this.faults.shift() ?? null;
    if (fault === 'drop-before-apply') return { kind: 'unknown', reason: 'dropped' };
    if (this.head !== request.expectedHeadOid) return { kind: 'stale' };
    const files: Record<string, string> = {};
    for (const file of request.additions) files[file.path] = file.contents;
    const oid = this.append(files, `${request.headline}\n\n${request.body}`);
    if (this.approvalsCommented && request.headline.startsWith('writ ledger: consume '))
      this.recordApprovalComment(files);
    if (fault === 'apply-then-drop') return { kind: 'unknown', reason: 'dropped' };
    if (fault === 'apply-then-stale') return { kind: 'stale' };
    return { kind: 'committed', oid, serverTime: this.now };
  }

  private recordApprovalComment(files: Record<string, string>): void {
    for (const [path, text] of Object.entries(files)) {
      if (!path.startsWith('runs/')) continue;
      const run = JSON.parse(text) as { run_id: string; approval: Approval | null };
      const approval = run.approval;
      if (approval === null || this.comments.has(approval.comment_id)) continue;
      this.comments.set(approval.comment_id, {
        userId: approval.actor_id,
        body: `writ: approve ${run.run_id} ${approval.digest.slice('sha256:'.length)}`,
        htmlUrl: approval.comment_url,
        edited: false,
      });
    }
  }

  branchRules(): Promise<BranchRule[]> {
    this.calls.branchRules += 1;
    return Promise.resolve([...this.rules]);
  }

  ruleset(id: number): Promise<RulesetInfo> {
    this.calls.ruleset += 1;
    const ruleset = this.rulesets.get(id);
    if (ruleset === undefined)
      return Promise.reject(new WritError('github-request-failed', `no ruleset ${id}`));
    return Promise.resolve(ruleset);
  }

  createRoot(files: readonly FileAddition[], message: string): Promise<{ oid: string; verified: boolean }> {
    this.calls.createRoot += 1;
    if (this.head !== null) return Promise.reject(new WritError('ledger-branch-exists', 'exists'));
    const record: Record<string, string> = {};
    for (const file of files) record[file.path] = file.contents;
    const oid = this.append(record, message, { parentless: true });
    return Promise.resolve({ oid, verified: true });
  }

  /** Total store calls so far. */
  totalCalls(): number {
    return Object.values(this.calls).reduce((sum, value) => sum + value, 0);
  }
}

/** The server clock never moves on its own; tests advance it. */
export const instantClock = { now: () => 0, sleep: () => Promise.resolve() };

/**
 * The Actions API as these store-backed tests assume it: every holder's workflow run attempt has
 * completed (the liveness rule itself is tested against the emulator, recovery/takeover-liveness.test.ts).
 */
export const holdersFinished: HolderLiveness = () =>
  Promise.resolve({ state: 'finished', conclusion: 'failure' });
