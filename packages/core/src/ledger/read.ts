/**
 * The GitHub side of the ledger: the ONE GraphQL read (head OID + the files a transition needs + the
 * newest page of history, with the server's `Date`), history paging, createCommitOnBranch with
 * expectedHeadOid, the ruleset reads and the bootstrap's Git data calls. Field names follow GitHub's
 * published GraphQL schema.
 */
import { readCommentWithEdits } from '../command/comment.js';
import { WritError, httpStatus } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import { commitOnBranch } from '../github/commit-on-branch.js';
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
} from './store.js';
import type { LedgerLocation } from './types.js';

interface GraphqlError {
  type?: string;
  message?: string;
  path?: (string | number)[];
}

interface GraphqlAnswer {
  data: unknown;
  errors: GraphqlError[];
  serverTime: number;
  /** Set when an error on a tolerated field was let through (that field is then not to be trusted). */
  tolerated?: boolean;
}

const COMMIT_FIELDS = `oid
            parents(first: 2) { totalCount nodes { oid } }
            author { name email user { login } }
            committer { name email date user { login } }
            signature { isValid state wasSignedByGitHub signer { login } }
            message`;

const BLOB_TEXT = '{ object { ... on Blob { text } } }';

function serverTimeOf(headers: Record<string, unknown>): number {
  const header = headers.date;
  const time = typeof header === 'string' ? Date.parse(header) : Number.NaN;
  if (!Number.isFinite(time)) {
    throw new WritError('github-request-failed', 'GitHub answered without a usable Date header.');
  }
  return time;
}

function requestFailed(what: string, error: unknown): WritError {
  const status = httpStatus(error);
  return new WritError(
    'github-request-failed',
    `${what} failed${status === undefined ? '' : ` with HTTP ${status}`}.`,
    status === undefined ? { cause: error } : { cause: error, details: { status } },
  );
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function timeOrNull(value: unknown): number | null {
  const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(time) ? time : null;
}

function blobText(entry: unknown): string | null {
  const object = record(record(entry).object);
  return typeof object.text === 'string' ? object.text : null;
}

function parseCommit(node: unknown): CommitInfo {
  const n = record(node);
  const author = record(n.author);
  const committer = record(n.committer);
  const signature = n.signature === null || n.signature === undefined ? null : record(n.signature);
  return {
    oid: String(n.oid),
    parentCount: Number(record(n.parents).totalCount),
    parentOid: ((): string | null => {
      const nodes = record(n.parents).nodes;
      const first = Array.isArray(nodes) && nodes.length > 0 ? record(nodes[0]).oid : null;
      return typeof first === 'string' ? first : null;
    })(),
    authorName: stringOrNull(author.name),
    authorEmail: stringOrNull(author.email),
    authorLogin: stringOrNull(record(author.user).login),
    committerName: stringOrNull(committer.name),
    committerEmail: stringOrNull(committer.email),
    committedAt: timeOrNull(committer.date),
    signature:
      signature === null
        ? null
        : {
            isValid: signature.isValid === true,
            state: String(signature.state),
            wasSignedByGitHub: signature.wasSignedByGitHub === true,
            signerLogin: stringOrNull(record(signature.signer).login),
          },
    message: typeof n.message === 'string' ? n.message : '',
  };
}

function parseHistory(history: unknown): HistoryPage {
  const h = record(history);
  const pageInfo = record(h.pageInfo);
  const nodes = Array.isArray(h.nodes) ? h.nodes : [];
  return {
    commits: nodes.map(parseCommit),
    hasNextPage: pageInfo.hasNextPage === true,
    endCursor: stringOrNull(pageInfo.endCursor),
  };
}

function fileAliases(paths: readonly string[]): string {
  return paths.map((path, index) => `f${index}: file(path: ${JSON.stringify(path)}) ${BLOB_TEXT}`).join('\n');
}

function collectFiles(target: Record<string, unknown>, paths: readonly string[]): Map<string, string | null> {
  const files = new Map<string, string | null>();
  paths.forEach((path, index) => files.set(path, blobText(target[`f${index}`])));
  return files;
}

/** A commit's changed-file count and its first parent's copies of `paths` (for replay). */
function parentFields(paths: readonly string[]): string {
  return `changedFilesIfAvailable
          parents(first: 1) { nodes { oid committedDate ${fileAliases(paths)} } }`;
}

function commitFiles(target: Record<string, unknown>, paths: readonly string[]): CommitFiles {
  const nodes = record(target.parents).nodes;
  const parent = Array.isArray(nodes) && nodes.length > 0 ? record(nodes[0]) : null;
  const changed = target.changedFilesIfAvailable;
  return {
    oid: String(target.oid),
    parentOid: parent === null ? null : String(parent.oid),
    parentCommittedAt: parent === null ? null : timeOrNull(parent.committedDate),
    changedFiles: typeof changed === 'number' ? changed : null,
    files: collectFiles(target, paths),
    parentFiles: parent === null ? new Map(paths.map((path) => [path, null])) : collectFiles(parent, paths),
  };
}

const OID = /^[0-9a-f]{40}$/;

/** The GraphQL document of the one read (exported for the request-count report and tests). */
export function readQuery(request: LedgerReadRequest): string {
  const history =
    request.historyFirst > 0
      ? `history(first: ${Math.min(100, Math.floor(request.historyFirst))}) {
            pageInfo { hasNextPage endCursor }
            nodes { ${COMMIT_FIELDS} }
          }`
      : '';
  const parent = request.withParent === true ? parentFields(request.paths) : '';
  const runs = request.listRuns
    ? `runs: file(path: "runs") { object { ... on Tree { entries { name object { ... on Tree { entries { name object { ... on Blob { text } } } } } } } } }`
    : '';
  const rules =
    request.withRules === true
      ? 'rules(first: 100) { pageInfo { hasNextPage } nodes { type repositoryRuleset { databaseId } } }'
      : '';
  return `query WritLedgerRead($owner: String!, $name: String!, $qualifiedName: String!) {
  repository(owner: $owner, name: $name) {
    ref(qualifiedName: $qualifiedName) {
      ${rules}
      target {
        ... on Commit {
          oid
          ${fileAliases(request.paths)}
          ${parent}
          ${history}
          ${runs}
        }
      }
    }
    ${request.alongside ?? ''}
  }
}`;
}

const HISTORY_QUERY = `query WritLedgerHistory($owner: String!, $name: String!, $oid: GitObjectID!, $first: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    object(oid: $oid) {
      ... on Commit {
        history(first: $first, after: $after) {
          pageInfo { hasNextPage endCursor }
          nodes { ${COMMIT_FIELDS} }
        }
      }
    }
  }
}`;

/**
 * The branch's rules from `Ref.rules`, or null unless the answer is complete and exact: one page, and
 * every rule with its type and its ruleset's numeric ID. Types come as GraphQL's RepositoryRuleType
 * (`NON_FAST_FORWARD`), the REST names lower-cased; the source type is not in the GraphQL answer and
 * is not part of the check.
 */
function parseRules(connection: unknown): BranchRule[] | null {
  const c = record(connection);
  if (connection === null || connection === undefined || record(c.pageInfo).hasNextPage !== false)
    return null;
  if (!Array.isArray(c.nodes)) return null;
  const rules: BranchRule[] = [];
  for (const node of c.nodes) {
    const n = record(node);
    const id = record(n.repositoryRuleset).databaseId;
    if (typeof n.type !== 'string' || typeof id !== 'number' || !Number.isSafeInteger(id)) return null;
    rules.push({ type: n.type.toLowerCase(), rulesetId: id, rulesetSourceType: 'unknown' });
  }
  return rules;
}

function listRunFiles(target: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  const directories = record(record(target.runs).object).entries;
  if (!Array.isArray(directories)) return out;
  for (const directory of directories) {
    const d = record(directory);
    const entries = record(d.object).entries;
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      const e = record(entry);
      const text = blobText(e);
      if (text !== null) out.set(`runs/${String(d.name)}/${String(e.name)}`, text);
    }
  }
  return out;
}

/** The ledger store over the real client. Counts its own requests (`requests`) for reports. */
export class GitHubLedgerStore implements LedgerStore {
  /** API requests this store has sent (each client-side retry by plugin-retry is not counted here). */
  requests = 0;

  constructor(
    private readonly github: GitHubClient,
    readonly location: LedgerLocation,
  ) {}

  private get qualifiedName(): string {
    return `refs/heads/${this.location.branch}`;
  }

  private async graphql(query: string, variables: Record<string, unknown>): Promise<GraphqlAnswer> {
    this.requests += 1;
    const response = await this.github.request('POST /graphql', { query, variables });
    const body = record(response.data);
    return {
      data: body.data ?? null,
      errors: Array.isArray(body.errors) ? (body.errors as GraphqlError[]) : [],
      serverTime: serverTimeOf(response.headers),
    };
  }

  private async query(
    what: string,
    query: string,
    variables: Record<string, unknown>,
    /** Errors under these field paths leave them null (their caller falls back), not failing the read. */
    tolerated: readonly (readonly string[])[] = [],
  ): Promise<GraphqlAnswer> {
    let answer: GraphqlAnswer;
    try {
      answer = await this.graphql(query, variables);
    } catch (error: unknown) {
      throw requestFailed(what, error);
    }
    const fatal = answer.errors.filter(
      (error) =>
        !tolerated.some((prefix) => prefix.every((field, index) => String(error.path?.[index]) === field)),
    );
    if (fatal.length < answer.errors.length) answer.tolerated = true;
    if (fatal.length > 0) {
      const types = answer.errors.map((error) => error.type ?? 'error').join(', ');
      const repository = `${this.location.owner}/${this.location.repo}`;
      throw new WritError(
        'github-request-failed',
        answer.errors.some((error) => error.type === 'NOT_FOUND')
          ? `${what} returned GraphQL errors (${types}): GitHub found no repository ${repository}, or the token cannot see it (a private repository it cannot read is not found). Check the repository name and the token's repository access.`
          : `${what} returned GraphQL errors (${types}).`,
        { details: { repository } },
      );
    }
    return answer;
  }

  async read(request: LedgerReadRequest): Promise<LedgerSnapshot | null> {
    const answer = await this.query(
      'Reading the ledger branch',
      readQuery(request),
      { owner: this.location.owner, name: this.location.repo, qualifiedName: this.qualifiedName },
      // The rules are an optimisation of the ruleset check: an error there leaves it to the REST list.
      request.withRules === true ? [['repository', 'ref', 'rules']] : [],
    );
    const repository = record(record(answer.data).repository);
    if (record(answer.data).repository === null || record(answer.data).repository === undefined) {
      throw new WritError(
        'github-request-failed',
        `Repository ${this.location.owner}/${this.location.repo} was not found or is not accessible.`,
      );
    }
    if (repository.ref === null || repository.ref === undefined) return null;
    const target = record(record(repository.ref).target);
    const snapshot: LedgerSnapshot = {
      headOid: String(target.oid),
      serverTime: answer.serverTime,
      files: collectFiles(target, request.paths),
      history:
        request.historyFirst > 0
          ? parseHistory(target.history)
          : { commits: [], hasNextPage: true, endCursor: null },
    };
    if (request.listRuns) snapshot.runFiles = listRunFiles(target);
    if (request.withRules === true) {
      snapshot.rules = answer.tolerated === true ? null : parseRules(record(repository.ref).rules);
    }
    if (request.withParent === true) snapshot.head = commitFiles(target, request.paths);
    if (request.alongside !== undefined) snapshot.alongside = repository;
    return snapshot;
  }

  async readFilesAt(oid: string, paths: readonly string[]): Promise<ReadonlyMap<string, string | null>> {
    const query = `query WritLedgerFilesAt($owner: String!, $name: String!, $oid: GitObjectID!) {
  repository(owner: $owner, name: $name) {
    object(oid: $oid) { ... on Commit { oid ${fileAliases(paths)} } }
  }
}`;
    const answer = await this.query('Reading ledger files at a commit', query, {
      owner: this.location.owner,
      name: this.location.repo,
      oid,
    });
    return collectFiles(record(record(record(answer.data).repository).object), paths);
  }

  async readCommits(requests: readonly { oid: string; paths: readonly string[] }[]): Promise<CommitFiles[]> {
    if (requests.length === 0) return [];
    const objects = requests.map((request, index) => {
      if (!OID.test(request.oid))
        throw new WritError('github-request-failed', 'A ledger commit ID is malformed.');
      return `c${index}: object(oid: "${request.oid}") { ... on Commit { oid ${fileAliases(request.paths)} ${parentFields(request.paths)} } }`;
    });
    const query = `query WritLedgerCommits($owner: String!, $name: String!) {
  repository(owner: $owner, name: $name) {
    ${objects.join('\n    ')}
  }
}`;
    const answer = await this.query('Reading ledger commits to replay', query, {
      owner: this.location.owner,
      name: this.location.repo,
    });
    const repository = record(record(answer.data).repository);
    return requests.map((request, index) => {
      const target = record(repository[`c${index}`]);
      if (typeof target.oid !== 'string') {
        throw new WritError('ledger-provenance-unproven', `Ledger commit ${request.oid} could not be read.`);
      }
      return commitFiles(target, request.paths);
    });
  }

  async comment(repository: string, commentId: number): Promise<CommentInfo | null> {
    const [owner = '', repo = ''] = repository.split('/');
    this.requests += 2;
    const read = await readCommentWithEdits(this.github, { owner, repo }, commentId);
    if (read === null) return null;
    return {
      userId: typeof read.comment.user?.id === 'number' ? read.comment.user.id : null,
      body: read.comment.body ?? '',
      htmlUrl: read.comment.html_url,
      edited: read.edits.edited,
    };
  }

  async readHistory(headOid: string, cursor: string | null, first: number): Promise<HistoryPage> {
    const answer = await this.query('Reading the ledger history', HISTORY_QUERY, {
      owner: this.location.owner,
      name: this.location.repo,
      oid: headOid,
      first: Math.min(100, Math.max(1, Math.floor(first))),
      after: cursor,
    });
    return parseHistory(record(record(record(answer.data).repository).object).history);
  }

  async commit(request: CommitRequest): Promise<CommitOutcome> {
    this.requests += 1;
    return commitOnBranch(
      this.github,
      {
        repository: `${this.location.owner}/${this.location.repo}`,
        branch: this.location.branch,
        expectedHeadOid: request.expectedHeadOid,
        headline: request.headline,
        body: request.body,
        additions: request.additions,
      },
      'ledger',
    );
  }

  async branchRules(): Promise<BranchRule[]> {
    const rules: BranchRule[] = [];
    try {
      for (let page = 1; page <= 10; page += 1) {
        this.requests += 1;
        const response = await this.github.request('GET /repos/{owner}/{repo}/rules/branches/{branch}', {
          owner: this.location.owner,
          repo: this.location.repo,
          branch: this.location.branch,
          per_page: 100,
          page,
        });
        for (const rule of response.data) {
          rules.push({
            type: rule.type,
            rulesetId: rule.ruleset_id ?? 0,
            rulesetSourceType: rule.ruleset_source_type ?? 'unknown',
          });
        }
        if (response.data.length < 100) break;
      }
    } catch (error: unknown) {
      throw requestFailed('Reading the rules on the ledger branch', error);
    }
    return rules;
  }

  async ruleset(id: number): Promise<RulesetInfo> {
    try {
      this.requests += 1;
      const response = await this.github.request('GET /repos/{owner}/{repo}/rulesets/{ruleset_id}', {
        owner: this.location.owner,
        repo: this.location.repo,
        ruleset_id: id,
      });
      const data = response.data;
      return {
        id: data.id,
        enforcement: data.enforcement,
        updatedAt: timeOrNull(data.updated_at),
        bypassActors:
          data.bypass_actors === undefined
            ? null
            : data.bypass_actors.map((actor) => ({
                actorId: actor.actor_id ?? null,
                actorType: actor.actor_type,
                bypassMode: actor.bypass_mode ?? 'always',
              })),
        content: {
          target: data.target ?? null,
          source_type: data.source_type ?? null,
          source: data.source,
          enforcement: data.enforcement,
          conditions: data.conditions ?? null,
          rules: data.rules ?? null,
          bypass_actors: data.bypass_actors ?? null,
        },
      };
    } catch (error: unknown) {
      throw requestFailed(`Reading ruleset ${id}`, error);
    }
  }

  async createRoot(
    files: readonly FileAddition[],
    message: string,
  ): Promise<{ oid: string; verified: boolean }> {
    const { owner, repo, branch } = this.location;
    try {
      this.requests += 1;
      await this.github.request('GET /repos/{owner}/{repo}/git/ref/{ref}', {
        owner,
        repo,
        ref: `heads/${branch}`,
      });
      throw new WritError('ledger-branch-exists', `Branch ${branch} already exists in ${owner}/${repo}.`);
    } catch (error: unknown) {
      if (error instanceof WritError) throw error;
      if (httpStatus(error) !== 404) throw requestFailed(`Reading ref heads/${branch}`, error);
    }
    try {
      this.requests += 3;
      const tree = await this.github.request('POST /repos/{owner}/{repo}/git/trees', {
        owner,
        repo,
        tree: files.map((file) => ({
          path: file.path,
          mode: '100644' as const,
          type: 'blob' as const,
          content: file.contents,
        })),
      });
      // No parents (a root commit) and no author/committer/signature, so GitHub signs it as the app.
      const commit = await this.github.request('POST /repos/{owner}/{repo}/git/commits', {
        owner,
        repo,
        message,
        tree: tree.data.sha,
        parents: [],
      });
      try {
        await this.github.request('POST /repos/{owner}/{repo}/git/refs', {
          owner,
          repo,
          ref: `refs/heads/${branch}`,
          sha: commit.data.sha,
        });
      } catch (error: unknown) {
        if (httpStatus(error) === 422) {
          throw new WritError(
            'ledger-branch-exists',
            `Branch ${branch} was created concurrently in ${owner}/${repo}.`,
          );
        }
        throw error;
      }
      return { oid: commit.data.sha, verified: commit.data.verification.verified };
    } catch (error: unknown) {
      if (error instanceof WritError) throw error;
      throw requestFailed('Creating the ledger root commit', error);
    }
  }
}

export function githubLedgerStore(github: GitHubClient, location: LedgerLocation): GitHubLedgerStore {
  return new GitHubLedgerStore(github, location);
}
