/**
 * What the artifact publisher reads of its lane, in one GraphQL selection of the repository: the
 * default branch (name and head), the base and the bot branch (head, the published file, whether the
 * tree holds a ledger root), whether the bot branch already holds the base (`Ref.compare`), and the
 * pull requests from the bot branch. The selection rides along the gate's one ledger read
 * (`LedgerReadRequest.alongside`); a read-back after an ambiguous write sends it on its own.
 *
 * Field names follow GitHub's published schema (@octokit/graphql-schema). Whatever the answer does not
 * prove reads as the cautious case: an unknown comparison is "the base is not in the branch" (a merge
 * that is a no-op if it was), a pull request whose head is not this repository's own branch is never
 * adopted, and more pull requests than one page are read again by REST, never guessed.
 */
import { WritError } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import type { RepositoryName } from '../ledger/paths.js';
import { LEDGER_ROOT_PATH } from '../ledger/paths.js';

export interface LaneRequest {
  repository: RepositoryName;
  branch: string;
  /** Null: the repository's default branch. */
  base: string | null;
  path: string;
}

/** A branch head as the publisher sees it. */
export interface LaneCommit {
  oid: string;
  /** Whether the tree holds `ledger-root.json`: then it is a ledger, whatever its branch is called. */
  holdsLedgerRoot: boolean;
  /** The published path's blob ID, null when absent. */
  fileOid: string | null;
  /** Its text for the diff ('' when absent, binary, or more than GitHub returns whole). */
  fileText: string;
  /** Something other than a regular file is at the path (a directory, a symlink, a submodule). */
  notAFile: boolean;
}

export interface LanePull {
  number: number;
  html_url: string;
  title: string;
  body: string | null;
}

export interface LanePulls {
  /** The newest open pull request from the bot branch into the base. */
  open: LanePull | null;
  /** The newest pull request from the bot branch into the base closed without merging. */
  closedUnmerged: { number: number; html_url: string } | null;
}

export interface LaneState {
  defaultBranch: string;
  base: string;
  /** Null: the base branch does not exist. */
  baseHead: LaneCommit | null;
  /** Null: the bot branch does not exist yet. */
  head: LaneCommit | null;
  /** Whether the base's head is in the bot branch's history; false when GitHub could not tell. */
  headHoldsBase: boolean;
  /** Null: more than one page of pull requests; read them by REST. */
  pulls: LanePulls | null;
}

const PULL_PAGE = 100;

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

const literal = (text: string): string => JSON.stringify(text);

/** The commit fields the publisher needs of a branch head. */
function commitFields(path: string): string {
  return `target { ... on Commit { oid
        writRoot: file(path: ${literal(LEDGER_ROOT_PATH)}) { oid }
        writFile: file(path: ${literal(path)}) { mode object { ... on Blob { oid text isTruncated } } } } }`;
}

/** The base ref's fields: its head, and how the bot branch compares with it (base = this ref). */
function baseFields(lane: LaneRequest): string {
  return `name ${commitFields(lane.path)}
      writCompare: compare(headRef: ${literal(lane.branch)}) { status behindBy baseTarget { oid } headTarget { oid } }`;
}

/** The selection of the repository the lane needs (aliases prefixed `writLane`). */
export function laneSelection(lane: LaneRequest): string {
  const baseRef =
    lane.base === null
      ? `writLaneDefault: defaultBranchRef { ${baseFields(lane)} }`
      : `writLaneDefault: defaultBranchRef { name }
    writLaneBase: ref(qualifiedName: ${literal(`refs/heads/${lane.base}`)}) { ${baseFields(lane)} }`;
  const baseFilter = lane.base === null ? '' : `, baseRefName: ${literal(lane.base)}`;
  return `${baseRef}
    writLaneHead: ref(qualifiedName: ${literal(`refs/heads/${lane.branch}`)}) { name ${commitFields(lane.path)} }
    writLanePulls: pullRequests(headRefName: ${literal(lane.branch)}${baseFilter}, first: ${PULL_PAGE}, orderBy: { field: CREATED_AT, direction: DESC }) {
      pageInfo { hasNextPage }
      nodes { number url title body state isCrossRepository headRefName baseRefName headRepository { nameWithOwner } }
    }`;
}

// TreeEntry.mode of a regular file (100644) and an executable one (100755); a symlink, a directory or a
// submodule at the published path is not a file the publisher may overwrite.
const REGULAR_FILE_MODES = new Set([0o100644, 0o100755]);

function laneCommit(ref: unknown, branch: string): LaneCommit | null {
  if (ref === null || ref === undefined) return null;
  const target = record(record(ref).target);
  if (typeof target.oid !== 'string') {
    throw new WritError('invalid-input', `the branch '${branch}' does not point at a commit`);
  }
  const file = target.writFile;
  const commit = {
    oid: target.oid,
    holdsLedgerRoot: target.writRoot !== null && target.writRoot !== undefined,
  };
  if (file === null || file === undefined) return { ...commit, fileOid: null, fileText: '', notAFile: false };
  const blob = record(record(file).object);
  if (!REGULAR_FILE_MODES.has(Number(record(file).mode)) || typeof blob.oid !== 'string') {
    return { ...commit, fileOid: null, fileText: '', notAFile: true };
  }
  const whole = typeof blob.text === 'string' && blob.isTruncated !== true;
  return { ...commit, fileOid: blob.oid, fileText: whole ? String(blob.text) : '', notAFile: false };
}

/** The pull requests GitHub listed, reduced to the ones from this repository's own bot branch. */
function lanePulls(
  connection: unknown,
  lane: { repository: RepositoryName; branch: string; base: string },
): LanePulls | null {
  const pulls = record(connection);
  if (record(pulls.pageInfo).hasNextPage !== false || !Array.isArray(pulls.nodes)) return null;
  const own = `${lane.repository.owner}/${lane.repository.repo}`.toLowerCase();
  const state: LanePulls = { open: null, closedUnmerged: null };
  for (const node of pulls.nodes) {
    const pull = record(node);
    const headRepository = record(pull.headRepository).nameWithOwner;
    // A fork's branch of the same name (or a head repository GitHub does not show) is never adopted.
    const ours =
      pull.isCrossRepository === false &&
      typeof headRepository === 'string' &&
      headRepository.toLowerCase() === own &&
      pull.headRefName === lane.branch &&
      pull.baseRefName === lane.base;
    if (!ours || typeof pull.number !== 'number' || typeof pull.url !== 'string') continue;
    if (pull.state === 'OPEN' && state.open === null) {
      state.open = {
        number: pull.number,
        html_url: pull.url,
        title: String(pull.title),
        body: typeof pull.body === 'string' ? pull.body : null,
      };
    } else if (pull.state === 'CLOSED' && state.closedUnmerged === null) {
      state.closedUnmerged = { number: pull.number, html_url: pull.url };
    }
  }
  return state;
}

/** The lane as GitHub answered the selection (the repository object holding the `writLane*` aliases). */
export function parseLane(repository: Readonly<Record<string, unknown>>, lane: LaneRequest): LaneState {
  const defaultRef = record(repository.writLaneDefault);
  if (typeof defaultRef.name !== 'string') {
    // An empty repository has no default branch, so no base to propose into.
    throw new WritError(
      'invalid-input',
      `${lane.repository.owner}/${lane.repository.repo} has no default branch (it is empty); there is no base to publish into`,
    );
  }
  const defaultBranch = defaultRef.name;
  const base = lane.base ?? defaultBranch;
  const baseRef = lane.base === null ? repository.writLaneDefault : repository.writLaneBase;
  const baseHead = laneCommit(baseRef, base);
  const head = laneCommit(repository.writLaneHead, lane.branch);
  // Base = the base ref, head = the bot branch: the bot branch holds the base when it is not behind it.
  // Trusted only when GitHub compared exactly the two heads this answer reports.
  const compare = record(record(baseRef).writCompare);
  const headHoldsBase =
    head !== null &&
    baseHead !== null &&
    (head.oid === baseHead.oid ||
      (record(compare.baseTarget).oid === baseHead.oid &&
        record(compare.headTarget).oid === head.oid &&
        compare.behindBy === 0 &&
        (compare.status === 'AHEAD' || compare.status === 'IDENTICAL')));
  return {
    defaultBranch,
    base,
    baseHead,
    head,
    headHoldsBase,
    pulls: lanePulls(repository.writLanePulls, { repository: lane.repository, branch: lane.branch, base }),
  };
}

function requestFailed(error: unknown): WritError {
  return new WritError(
    'github-request-failed',
    'Reading the artifact branch, its base and pull requests failed.',
    {
      cause: error,
    },
  );
}

/** The lane read on its own (a read-back after a write, or a ledger store that cannot fold it). */
export async function readLane(github: GitHubClient, lane: LaneRequest): Promise<LaneState> {
  const query = `query WritLaneRead($owner: String!, $name: String!) {
  repository(owner: $owner, name: $name) {
    ${laneSelection(lane)}
  }
}`;
  let body: Record<string, unknown>;
  try {
    const response = await github.request('POST /graphql', {
      query,
      variables: { owner: lane.repository.owner, name: lane.repository.repo },
    });
    body = record(response.data);
  } catch (error: unknown) {
    throw requestFailed(error);
  }
  const repository = record(body.data).repository;
  if (
    (Array.isArray(body.errors) && body.errors.length > 0) ||
    repository === null ||
    repository === undefined
  ) {
    throw requestFailed(body.errors);
  }
  return parseLane(record(repository), lane);
}
