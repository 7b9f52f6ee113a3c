/**
 * GraphQL at `/graphql`, executed by graphql-js against GitHub's published schema
 * (`@octokit/graphql-schema`), so a document that would not validate on GitHub does not validate here.
 * Resolvers exist for the fields Writ uses (see the README); any other field resolves to null, which the
 * schema turns into an error where the field is non-null.
 */
import { readFileSync } from 'node:fs';
import type { DocumentNode, GraphQLFieldResolver, GraphQLSchema } from 'graphql';
import { buildSchema, execute, GraphQLError, Kind, OperationTypeNode, parse, validate } from 'graphql';
import { canSee, effectiveRole, hasPush, isAdmin, requireAccess } from './access.js';
import { accountForEmail, identityOf, webFlowIdentity, writeCommit } from './commits.js';
import type { GitIdentity, TreeEntry } from './git.js';
import { OID_PATTERN, ZERO_OID } from './git.js';
import type { Ctx } from './http.js';
import { HttpError } from './http.js';
import { compareCommits, mergeBase } from './merge.js';
import { projectRootFields } from './projects.js';
import { rateState } from './ratelimit.js';
import { activeRulesets } from './rules.js';
import { changeRefs, isValidRefName, RefError } from './refs.js';
import { dependencyFile } from './resources.js';
import { verify } from './signing.js';
import type { Account, Comment, Issue, Label, Milestone, Repo, Token, World } from './state.js';

let cachedSchema: GraphQLSchema | undefined;

/** GitHub's schema, built once per process (the published SDL needs `assumeValidSDL`). */
export function githubSchema(): GraphQLSchema {
  if (!cachedSchema) {
    const sdl = readFileSync(dependencyFile('@octokit/graphql-schema/schema.graphql'), 'utf8');
    cachedSchema = buildSchema(sdl, { assumeValidSDL: true });
  }
  return cachedSchema;
}

/** An error GitHub reports with a top-level `type` (STALE_DATA, NOT_FOUND, FORBIDDEN, UNPROCESSABLE…). */
class TypedError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

interface GqlContext {
  world: World;
  token: Token | null;
  base: string;
}

export interface GraphQLRequestInfo {
  document: DocumentNode | null;
  operationName: string | null;
  /** Root mutation field names, in order. */
  mutations: string[];
  parseError: GraphQLError | null;
}

const parsed = new Map<string, DocumentNode>();
const validated = new WeakMap<DocumentNode, readonly GraphQLError[]>();

/** Clients send the same few documents over and over: parse (and validate) each text once. */
function parseCached(query: string): DocumentNode {
  const hit = parsed.get(query);
  if (hit) return hit;
  const document = parse(query);
  if (parsed.size >= 500) parsed.clear();
  parsed.set(query, document);
  return document;
}

function validateCached(schema: GraphQLSchema, document: DocumentNode): readonly GraphQLError[] {
  let errors = validated.get(document);
  if (!errors) {
    errors = validate(schema, document);
    validated.set(document, errors);
  }
  return errors;
}

/** Parses enough of a request to log it and match faults, without executing it. */
export function analyzeGraphQL(body: unknown): GraphQLRequestInfo {
  const record = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const query = typeof record.query === 'string' ? record.query : '';
  const requested = typeof record.operationName === 'string' ? record.operationName : null;
  let document: DocumentNode;
  try {
    document = parseCached(query);
  } catch (error) {
    return {
      document: null,
      operationName: requested,
      mutations: [],
      parseError: error instanceof GraphQLError ? error : new GraphQLError(String(error)),
    };
  }
  const operations = document.definitions.filter(
    (definition) => definition.kind === Kind.OPERATION_DEFINITION,
  );
  const operation =
    operations.find((definition) => requested === null || definition.name?.value === requested) ??
    operations[0];
  const mutations: string[] = [];
  if (operation?.operation === OperationTypeNode.MUTATION) {
    for (const selection of operation.selectionSet.selections) {
      if (selection.kind === Kind.FIELD) mutations.push(selection.name.value);
    }
  }
  return {
    document,
    operationName: requested ?? operation?.name?.value ?? null,
    mutations,
    parseError: null,
  };
}

function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function refNodeId(repo: Repo, ref: string): string {
  return `REF_${Buffer.from(`${repo.id}:${ref}`).toString('base64url')}`;
}

function decodeRefNodeId(world: World, id: string): { repo: Repo; ref: string } | null {
  if (!id.startsWith('REF_')) return null;
  const decoded = Buffer.from(id.slice(4), 'base64url').toString('utf8');
  const colon = decoded.indexOf(':');
  const repo = world.repoById(Number(decoded.slice(0, colon)));
  return repo ? { repo, ref: decoded.slice(colon + 1) } : null;
}

function userNode(ctx: GqlContext, account: Account): Record<string, unknown> {
  return {
    __typename: account.type === 'Bot' ? 'Bot' : account.type === 'Organization' ? 'Organization' : 'User',
    id: account.node_id,
    databaseId: account.id,
    login: account.login,
    name: account.name,
    email: account.email ?? '',
    url: `${ctx.base}/${account.login}`,
    resourcePath: `/${account.login}`,
    avatarUrl: `${ctx.base}/avatars/u/${account.id}`,
  };
}

function connection(
  items: unknown[],
  args: { first?: number | null; after?: string | null; last?: number | null },
  cursorFor: (index: number) => string,
  decode: (cursor: string) => number,
): Record<string, unknown> {
  if (args.first != null && (args.first < 0 || args.first > 100)) {
    throw new TypedError(
      'EXCESSIVE_PAGINATION',
      `Requesting ${args.first} records on the connection exceeds the \`first\` limit of 100 records.`,
    );
  }
  let start = 0;
  if (args.after) start = decode(args.after) + 1;
  let end = items.length;
  if (args.first != null) end = Math.min(end, start + args.first);
  if (args.last != null) start = Math.max(start, end - args.last);
  const slice = items.slice(start, end);
  return {
    totalCount: items.length,
    nodes: slice,
    edges: slice.map((node, index) => ({ node, cursor: cursorFor(start + index) })),
    pageInfo: {
      hasNextPage: end < items.length,
      hasPreviousPage: start > 0,
      startCursor: slice.length > 0 ? cursorFor(start) : null,
      endCursor: slice.length > 0 ? cursorFor(end - 1) : null,
    },
  };
}

function gitActorNode(ctx: GqlContext, identity: GitIdentity): Record<string, unknown> {
  const account = accountForEmail(ctx.world, identity.email);
  return {
    name: identity.name,
    email: identity.email,
    date: isoSeconds(identity.time),
    avatarUrl: `${ctx.base}/avatars/e/${encodeURIComponent(identity.email)}`,
    // GitActor.user is "Null if no such user exists": bots are not users.
    user: account && account.type === 'User' ? userNode(ctx, account) : null,
  };
}

function blobNode(ctx: GqlContext, repo: Repo, oid: string): Record<string, unknown> {
  const body = repo.git.get(oid)?.body ?? Buffer.alloc(0);
  const isBinary = body.includes(0);
  return {
    __typename: 'Blob',
    id: `B_${Buffer.from(`${repo.id}:${oid}`).toString('base64url')}`,
    oid,
    abbreviatedOid: oid.slice(0, 7),
    byteSize: body.length,
    isBinary,
    isTruncated: false,
    text: isBinary ? null : body.toString('utf8'),
    repository: () => repositoryNode(ctx, repo),
  };
}

function treeEntryNode(ctx: GqlContext, repo: Repo, entry: TreeEntry, path: string): Record<string, unknown> {
  const type = entry.mode === '40000' ? 'tree' : entry.mode === '160000' ? 'commit' : 'blob';
  return {
    name: entry.name,
    path,
    mode: parseInt(entry.mode, 8),
    type,
    oid: entry.sha,
    size: type === 'blob' ? (repo.git.get(entry.sha)?.body.length ?? 0) : 0,
    extension: entry.name.includes('.') ? `.${entry.name.split('.').pop() ?? ''}` : null,
    isGenerated: false,
    object: () => objectNode(ctx, repo, entry.sha),
  };
}

function treeNode(ctx: GqlContext, repo: Repo, oid: string, prefix = ''): Record<string, unknown> {
  return {
    __typename: 'Tree',
    id: `T_${Buffer.from(`${repo.id}:${oid}`).toString('base64url')}`,
    oid,
    abbreviatedOid: oid.slice(0, 7),
    entries: () =>
      repo.git
        .tree(oid)
        .map((entry) =>
          treeEntryNode(ctx, repo, entry, prefix === '' ? entry.name : `${prefix}/${entry.name}`),
        ),
    repository: () => repositoryNode(ctx, repo),
  };
}

function commitNode(ctx: GqlContext, repo: Repo, oid: string): Record<string, unknown> {
  const commit = repo.git.commit(oid);
  const verification = verify(ctx.world.seed, commit);
  const lines = commit.message.split('\n');
  const url = `${ctx.base}/${repo.owner.login}/${repo.name}/commit/${oid}`;
  return {
    __typename: 'Commit',
    id: `C_${Buffer.from(`${repo.id}:${oid}`).toString('base64url')}`,
    oid,
    abbreviatedOid: oid.slice(0, 7),
    message: commit.message,
    messageHeadline: lines[0] ?? '',
    messageBody: lines.slice(1).join('\n').replace(/^\n+/, ''),
    author: gitActorNode(ctx, commit.author),
    committer: gitActorNode(ctx, commit.committer),
    authoredDate: isoSeconds(commit.author.time),
    committedDate: isoSeconds(commit.committer.time),
    committedViaWeb: verification.verified,
    url,
    commitUrl: url,
    resourcePath: `/${repo.owner.login}/${repo.name}/commit/${oid}`,
    signature: commit.gpgsig
      ? {
          __typename: 'GpgSignature',
          isValid: verification.verified,
          state: verification.verified ? 'VALID' : 'UNKNOWN_KEY',
          wasSignedByGitHub: verification.verified,
          email: verification.verified ? 'noreply@github.com' : commit.committer.email,
          payload: commit.payload,
          signature: commit.gpgsig,
          signer: verification.verified
            ? ((): Record<string, unknown> | null => {
                const webFlow = ctx.world.account('web-flow');
                return webFlow ? userNode(ctx, webFlow) : null;
              })()
            : null,
          verifiedAt: verification.verified_at,
          keyId: verification.verified ? '4AEE18F83AFDEB23' : null,
        }
      : null,
    tree: () => treeNode(ctx, repo, commit.tree),
    treeUrl: `${ctx.base}/${repo.owner.login}/${repo.name}/tree/${oid}`,
    parents: (args: { first?: number; after?: string; last?: number }) =>
      connection(
        commit.parents.map((parent) => commitNode(ctx, repo, parent)),
        args,
        (index) => Buffer.from(`parent:${index}`).toString('base64'),
        (cursor) => Number(Buffer.from(cursor, 'base64').toString('utf8').split(':')[1] ?? -1),
      ),
    history: (args: {
      first?: number;
      after?: string;
      last?: number;
      path?: string;
      since?: string;
      until?: string;
    }) => {
      let oids = repo.git.history(oid);
      if (args.since) {
        const since = Date.parse(args.since) / 1000;
        oids = oids.filter((sha) => repo.git.commit(sha).committer.time >= since);
      }
      if (args.until) {
        const until = Date.parse(args.until) / 1000;
        oids = oids.filter((sha) => repo.git.commit(sha).committer.time <= until);
      }
      if (args.path) {
        const path = args.path;
        const blobAt = (sha: string): string | undefined =>
          repo.git.lookup(repo.git.commit(sha).tree, path)?.sha;
        oids = oids.filter((sha) => {
          const parents = repo.git.commit(sha).parents;
          const mine = blobAt(sha);
          if (parents.length === 0) return mine !== undefined;
          return parents.every((parent) => blobAt(parent) !== mine);
        });
      }
      return connection(
        oids.map((sha) => commitNode(ctx, repo, sha)),
        args,
        (index) => `${oid} ${index}`,
        (cursor) => {
          const [head, index] = cursor.split(' ');
          if (head !== oid || index === undefined || !/^\d+$/.test(index)) {
            throw new TypedError(
              'INVALID_CURSOR_ARGUMENTS',
              `\`${cursor}\` does not appear to be a valid cursor.`,
            );
          }
          return Number(index);
        },
      );
    },
    file: ({ path }: { path: string }) => {
      const entry = repo.git.lookup(commit.tree, path);
      if (!entry || path === '') return null;
      return treeEntryNode(ctx, repo, entry, path.replace(/^\/+|\/+$/g, ''));
    },
    repository: () => repositoryNode(ctx, repo),
    additions: 0,
    deletions: 0,
    changedFilesIfAvailable: () => changedFiles(repo, commit.tree, commit.parents[0] ?? null),
  };
}

/** Files added, removed or changed against the first parent (all of a root commit's), as GitHub counts. */
function changedFiles(repo: Repo, tree: string, parent: string | null): number {
  const count = (a: string | null, b: string | null): number => {
    if (a === b) return 0;
    const mine = new Map((a === null ? [] : repo.git.tree(a)).map((entry) => [entry.name, entry]));
    const theirs = new Map((b === null ? [] : repo.git.tree(b)).map((entry) => [entry.name, entry]));
    let total = 0;
    for (const name of new Set([...mine.keys(), ...theirs.keys()])) {
      const x = mine.get(name);
      const y = theirs.get(name);
      if (x?.sha === y?.sha && x?.mode === y?.mode) continue;
      const xTree = x?.mode === '40000' ? x.sha : null;
      const yTree = y?.mode === '40000' ? y.sha : null;
      total += count(xTree, yTree);
      // A blob on either side (changed, added, removed, or swapped with a directory) is one file.
      if ((x !== undefined && xTree === null) || (y !== undefined && yTree === null)) total += 1;
    }
    return total;
  };
  return count(tree, parent === null ? null : repo.git.commit(parent).tree);
}

function objectNode(ctx: GqlContext, repo: Repo, oid: string): Record<string, unknown> | null {
  const object = repo.git.get(oid);
  if (!object) return null;
  if (object.type === 'commit') return commitNode(ctx, repo, oid);
  if (object.type === 'tree') return treeNode(ctx, repo, oid);
  return blobNode(ctx, repo, oid);
}

function qualify(name: string): string {
  return name.startsWith('refs/') ? name : `refs/heads/${name}`;
}

function refNode(ctx: GqlContext, repo: Repo, ref: string): Record<string, unknown> | null {
  const oid = repo.refs.get(ref);
  if (!oid) return null;
  const slash = ref.startsWith('refs/heads/')
    ? 'refs/heads/'.length
    : ref.startsWith('refs/tags/')
      ? 'refs/tags/'.length
      : ref.lastIndexOf('/') + 1;
  return {
    __typename: 'Ref',
    id: refNodeId(repo, ref),
    name: ref.slice(slash),
    prefix: ref.slice(0, slash),
    target: () => objectNode(ctx, repo, oid),
    repository: () => repositoryNode(ctx, repo),
    rules: (args: { first?: number; after?: string; last?: number }) =>
      connection(
        refRules(repo, ref),
        args,
        (index) => Buffer.from(`rule:${index}`).toString('base64'),
        (cursor) => Number(Buffer.from(cursor, 'base64').toString('utf8').split(':')[1] ?? -1),
      ),
    compare: ({ headRef }: { headRef: string }) => comparisonNode(ctx, repo, oid, headRef),
  };
}

/**
 * `Ref.rules`: the rules of the active rulesets that apply to the ref (what REST's
 * `GET /repos/{o}/{r}/rules/branches/{branch}` lists), newest ruleset first (the field's default
 * order, UPDATED_AT DESC), each with its type as the RepositoryRuleType enum and its ruleset.
 */
function refRules(repo: Repo, ref: string): Record<string, unknown>[] {
  return [...activeRulesets(repo, ref)]
    .sort((a, b) => b.updated_at.localeCompare(a.updated_at) || b.id - a.id)
    .flatMap((ruleset) =>
      ruleset.rules.map((rule, index) => ({
        __typename: 'RepositoryRule',
        id: Buffer.from(`RepositoryRule:${ruleset.id}:${index}`).toString('base64'),
        type: rule.type.toUpperCase(),
        parameters: null,
        repositoryRuleset: {
          __typename: 'RepositoryRuleset',
          id: ruleset.node_id,
          databaseId: ruleset.id,
          name: ruleset.name,
          enforcement: ruleset.enforcement.toUpperCase(),
          target: ruleset.target.toUpperCase(),
          createdAt: ruleset.created_at,
          updatedAt: ruleset.updated_at,
        },
      })),
    );
}

/**
 * `Ref.compare(headRef:)`: this ref as the base, `headRef` resolved like a revision; null when the
 * comparison cannot be made (no such revision, or no common ancestor, where REST answers 404).
 */
function comparisonNode(
  ctx: GqlContext,
  repo: Repo,
  baseOid: string,
  headRef: string,
): Record<string, unknown> | null {
  const headOid = resolveRevision(repo, headRef);
  if (!headOid || !repo.git.has(headOid, 'commit') || !repo.git.has(baseOid, 'commit')) return null;
  if (mergeBase(repo.git, baseOid, headOid) === null) return null;
  const comparison = compareCommits(repo.git, baseOid, headOid);
  const { ahead, behindBy } = comparison;
  const status = comparison.status.toUpperCase();
  return {
    __typename: 'Comparison',
    id: `CMP_${Buffer.from(`${repo.id}:${baseOid}...${headOid}`).toString('base64url')}`,
    aheadBy: ahead.length,
    behindBy,
    status,
    baseTarget: () => objectNode(ctx, repo, baseOid),
    headTarget: () => objectNode(ctx, repo, headOid),
    // Oldest first, as GitHub lists a comparison's commits.
    commits: (args: { first?: number; after?: string; last?: number }) =>
      connection(
        [...ahead].reverse().map((sha) => commitNode(ctx, repo, sha)),
        args,
        (index) => Buffer.from(`cmp:${index}`).toString('base64'),
        (cursor) => Number(Buffer.from(cursor, 'base64').toString('utf8').split(':')[1] ?? -1),
      ),
  };
}

/** GitHub's pull request states: a merged pull request is MERGED, not CLOSED. */
function pullState(entry: Issue): 'OPEN' | 'CLOSED' | 'MERGED' {
  if (entry.pull?.merged_at != null) return 'MERGED';
  return entry.state === 'open' ? 'OPEN' : 'CLOSED';
}

function pullNode(ctx: GqlContext, repo: Repo, entry: Issue): Record<string, unknown> {
  const pr = entry.pull;
  if (!pr) throw new Error('not a pull request');
  const state = pullState(entry);
  return {
    __typename: 'PullRequest',
    id: pr.node_id,
    databaseId: pr.id,
    number: entry.number,
    title: entry.title,
    // PullRequest.body is non-null: an empty description is ''.
    body: entry.body ?? '',
    url: `${ctx.base}/${repo.owner.login}/${repo.name}/pull/${entry.number}`,
    resourcePath: `/${repo.owner.login}/${repo.name}/pull/${entry.number}`,
    state,
    merged: state === 'MERGED',
    mergedAt: pr.merged_at,
    closed: state !== 'OPEN',
    closedAt: entry.closed_at,
    isDraft: pr.draft,
    createdAt: entry.created_at,
    updatedAt: entry.updated_at,
    headRefName: pr.head_ref,
    headRefOid: repo.refs.get(`refs/heads/${pr.head_ref}`) ?? pr.head_sha,
    baseRefName: pr.base_ref,
    baseRefOid: repo.refs.get(`refs/heads/${pr.base_ref}`) ?? pr.base_sha,
    // Forks are not modelled: every pull request's head is in its own repository.
    isCrossRepository: false,
    headRepository: () => repositoryNode(ctx, repo),
    baseRepository: () => repositoryNode(ctx, repo),
    repository: () => repositoryNode(ctx, repo),
  };
}

/**
 * An issue comment with GitHub's record of its edits: `lastEditedAt` and `editor` (the last edit),
 * `includesCreatedEdit` and `userContentEdits` (every revision, newest first, the created one included
 * once the comment was edited; empty and null while it never was). See rest/comments.ts.
 */
function issueCommentNode(ctx: GqlContext, repo: Repo, value: Comment): Record<string, unknown> {
  const last = value.edits.at(-1);
  const edits = [...value.edits].reverse().map((edit) => ({
    __typename: 'UserContentEdit',
    id: edit.node_id,
    createdAt: edit.edited_at,
    updatedAt: edit.edited_at,
    editedAt: edit.edited_at,
    editor: actorNode(ctx, edit.editor),
    diff: edit.body,
    deletedAt: null,
    deletedBy: null,
  }));
  return {
    __typename: 'IssueComment',
    id: value.node_id,
    databaseId: value.id,
    fullDatabaseId: String(value.id),
    body: value.body,
    author: actorNode(ctx, value.user),
    createdAt: value.created_at,
    updatedAt: value.updated_at,
    lastEditedAt: last?.edited_at ?? null,
    editor: last ? actorNode(ctx, last.editor) : null,
    includesCreatedEdit: last !== undefined,
    url: `${ctx.base}/${repo.owner.login}/${repo.name}/issues/${value.issue_number}#issuecomment-${value.id}`,
    repository: () => repositoryNode(ctx, repo),
    userContentEdits: (args: { first?: number; after?: string; last?: number }) =>
      connection(
        edits,
        args,
        (index) => Buffer.from(`edit:${index}`).toString('base64'),
        (cursor) => Number(Buffer.from(cursor, 'base64').toString('utf8').split(':')[1] ?? -1),
      ),
  };
}

/** `node(id:)` for an issue comment: null when no comment has the ID, FORBIDDEN without issues read. */
function issueCommentById(ctx: GqlContext, id: string): Record<string, unknown> | null {
  for (const repo of ctx.world.repos.values()) {
    if (!canSee(ctx.world, ctx.token, repo)) continue;
    for (const value of repo.comments.values()) {
      if (value.node_id !== id) continue;
      try {
        requireAccess({ world: ctx.world, token: ctx.token } as Ctx, repo, 'issues', 'read');
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        throw new TypedError('FORBIDDEN', 'Resource not accessible by integration');
      }
      return issueCommentNode(ctx, repo, value);
    }
  }
  return null;
}

/** A token without pull request read access is refused as GitHub refuses it: FORBIDDEN, data null. */
function requirePullRead(ctx: GqlContext, repo: Repo): void {
  try {
    requireAccess({ world: ctx.world, token: ctx.token } as Ctx, repo, 'pull_requests', 'read');
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    throw new TypedError('FORBIDDEN', 'Resource not accessible by integration');
  }
}

interface PullRequestsArgs {
  first?: number;
  after?: string;
  last?: number;
  headRefName?: string | null;
  baseRefName?: string | null;
  states?: string[] | null;
  labels?: string[] | null;
  orderBy?: { field: string; direction: string } | null;
}

/** `Repository.pullRequests`: filtered by head and base name and state; ordered by creation or update. */
function pullRequests(ctx: GqlContext, repo: Repo, args: PullRequestsArgs): Record<string, unknown> {
  requirePullRead(ctx, repo);
  if (args.labels != null || (args.orderBy != null && args.orderBy.field === 'COMMENTS')) {
    throw new TypedError(
      'EMULATOR_UNSUPPORTED',
      'The Writ GitHub emulator does not model pullRequests by labels or ordered by comments.',
    );
  }
  let items = [...repo.issues.values()].filter((entry) => entry.pull !== null);
  const { headRefName, baseRefName, states } = args;
  if (headRefName != null) items = items.filter((entry) => entry.pull?.head_ref === headRefName);
  if (baseRefName != null) items = items.filter((entry) => entry.pull?.base_ref === baseRefName);
  if (states != null) items = items.filter((entry) => states.includes(pullState(entry)));
  // Without orderBy GitHub lists the oldest first.
  const field = args.orderBy?.field ?? 'CREATED_AT';
  const key = (entry: Issue): number =>
    Date.parse(field === 'UPDATED_AT' ? entry.updated_at : entry.created_at);
  items.sort((a, b) => key(a) - key(b) || a.number - b.number);
  if (args.orderBy?.direction === 'DESC') items.reverse();
  return connection(
    items.map((entry) => pullNode(ctx, repo, entry)),
    args,
    (index) => Buffer.from(`pull:${index}`).toString('base64'),
    (cursor) => Number(Buffer.from(cursor, 'base64').toString('utf8').split(':')[1] ?? -1),
  );
}

/**
 * An account as a GraphQL `Actor` (an issue's `author`, a milestone's `creator`, a comment's `author`
 * and `editor`). GitHub's `Bot.login` is the app's slug WITHOUT the `[bot]` suffix REST's `login` shows
 * (`writ-ledger`, not `writ-ledger[bot]`; fullsend-ai/fullsend#6205 observed it): a reader maps it back
 * by `__typename` (`Bot`), never by the name alone. `viewer` keeps the token's own login.
 */
function actorNode(ctx: GqlContext, account: Account): Record<string, unknown> {
  if (account.type !== 'Bot') return userNode(ctx, account);
  const slug = account.login.replace(/\[bot\]$/, '');
  return {
    ...userNode(ctx, account),
    __typename: 'Bot',
    login: slug,
    url: `${ctx.base}/apps/${slug}`,
    resourcePath: `/apps/${slug}`,
    createdAt: account.created_at,
    updatedAt: account.created_at,
  };
}

/** Issue and milestone reads need issues read, as REST's do; GraphQL refuses with FORBIDDEN. */
function requireIssuesRead(ctx: GqlContext, repo: Repo): void {
  try {
    requireAccess({ world: ctx.world, token: ctx.token } as Ctx, repo, 'issues', 'read');
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    throw new TypedError('FORBIDDEN', 'Resource not accessible by integration');
  }
}

function isoOrNull(value: string | null): string | null {
  return value === null ? null : new Date(Date.parse(value)).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function milestoneNode(ctx: GqlContext, repo: Repo, value: Milestone): Record<string, unknown> {
  const issues = [...repo.issues.values()].filter((entry) => entry.milestone === value.number);
  const closedIssues = issues.filter((entry) => entry.state === 'closed').length;
  return {
    __typename: 'Milestone',
    id: value.node_id,
    number: value.number,
    title: value.title,
    description: value.description,
    state: value.state === 'open' ? 'OPEN' : 'CLOSED',
    closed: value.state === 'closed',
    closedAt: value.closed_at,
    dueOn: isoOrNull(value.due_on),
    createdAt: value.created_at,
    updatedAt: value.updated_at,
    creator: actorNode(ctx, value.creator),
    progressPercentage: issues.length === 0 ? 0 : (closedIssues / issues.length) * 100,
    url: `${ctx.base}/${repo.owner.login}/${repo.name}/milestone/${value.number}`,
    resourcePath: `/${repo.owner.login}/${repo.name}/milestone/${value.number}`,
    repository: () => repositoryNode(ctx, repo),
  };
}

function labelNode(value: Label): Record<string, unknown> {
  return {
    __typename: 'Label',
    id: value.node_id,
    name: value.name,
    color: value.color,
    description: value.description,
    isDefault: value.default === true,
  };
}

interface ConnectionArgs {
  first?: number;
  after?: string;
  last?: number;
}

/** `Issue.labels`: `orderBy` defaults to CREATED_AT ASC (the schema's default; label IDs grow with time). */
function issueLabels(
  repo: Repo,
  entry: Issue,
  args: ConnectionArgs & { orderBy?: { field: string; direction: string } | null },
): Record<string, unknown> {
  const labels = entry.labels
    .map((id) => repo.labels.get(id))
    .filter((label): label is Label => label !== undefined);
  const field = args.orderBy?.field ?? 'CREATED_AT';
  labels.sort((a, b) =>
    field === 'NAME' ? a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id : a.id - b.id,
  );
  if (args.orderBy?.direction === 'DESC') labels.reverse();
  return connection(
    labels.map(labelNode),
    args,
    (index) => Buffer.from(`label:${index}`).toString('base64'),
    (cursor) => Number(Buffer.from(cursor, 'base64').toString('utf8').split(':')[1] ?? -1),
  );
}

const STATE_REASONS: Record<string, string> = {
  completed: 'COMPLETED',
  not_planned: 'NOT_PLANNED',
  reopened: 'REOPENED',
  duplicate: 'DUPLICATE',
};

function issueNode(ctx: GqlContext, repo: Repo, entry: Issue): Record<string, unknown> {
  const milestone = entry.milestone === null ? undefined : repo.milestones.get(entry.milestone);
  return {
    __typename: 'Issue',
    id: entry.node_id,
    databaseId: entry.id,
    fullDatabaseId: String(entry.id),
    number: entry.number,
    title: entry.title,
    // Issue.body is non-null: an issue without a body is ''.
    body: entry.body ?? '',
    state: entry.state === 'open' ? 'OPEN' : 'CLOSED',
    // DUPLICATE only when asked for (`enableDuplicate`); otherwise GitHub reports it as NOT_PLANNED.
    stateReason: ({ enableDuplicate }: { enableDuplicate?: boolean }) => {
      const reason = entry.state_reason === null ? null : (STATE_REASONS[entry.state_reason] ?? null);
      return reason === 'DUPLICATE' && enableDuplicate !== true ? 'NOT_PLANNED' : reason;
    },
    closed: entry.state === 'closed',
    closedAt: entry.closed_at,
    locked: entry.locked,
    createdAt: entry.created_at,
    updatedAt: entry.updated_at,
    author: actorNode(ctx, entry.user),
    labels: (args: ConnectionArgs & { orderBy?: { field: string; direction: string } | null }) =>
      issueLabels(repo, entry, args),
    milestone: milestone === undefined ? null : milestoneNode(ctx, repo, milestone),
    url: `${ctx.base}/${repo.owner.login}/${repo.name}/issues/${entry.number}`,
    resourcePath: `/${repo.owner.login}/${repo.name}/issues/${entry.number}`,
    repository: () => repositoryNode(ctx, repo),
  };
}

/**
 * `Repository.issue(number:)`: an issue, never a pull request (GitHub resolves a pull request's number
 * to nothing here, as to a missing one: NOT_FOUND, the field null; `issueOrPullRequest` is the union).
 */
function issueByNumber(ctx: GqlContext, repo: Repo, number: number): Record<string, unknown> {
  requireIssuesRead(ctx, repo);
  const entry = repo.issues.get(number);
  if (entry === undefined || entry.pull !== null)
    throw new TypedError('NOT_FOUND', `Could not resolve to an Issue with the number of ${number}.`);
  return issueNode(ctx, repo, entry);
}

/** `Repository.milestone(number:)`: null when there is none (no error [UNCONFIRMED]). */
function milestoneByNumber(ctx: GqlContext, repo: Repo, number: number): Record<string, unknown> | null {
  requireIssuesRead(ctx, repo);
  const value = repo.milestones.get(number);
  return value === undefined ? null : milestoneNode(ctx, repo, value);
}

interface MilestonesArgs extends ConnectionArgs {
  states?: string[] | null;
  query?: string | null;
  orderBy?: { field: string; direction: string } | null;
}

/**
 * `Repository.milestones`: filtered by `states` and a title `query`, ordered by `orderBy` (without one,
 * by number [UNCONFIRMED: GitHub's default order is undocumented]).
 */
function milestones(ctx: GqlContext, repo: Repo, args: MilestonesArgs): Record<string, unknown> {
  requireIssuesRead(ctx, repo);
  let items = [...repo.milestones.values()];
  const { states, query } = args;
  if (states != null) items = items.filter((entry) => states.includes(entry.state.toUpperCase()));
  if (query != null && query !== '')
    items = items.filter((entry) => entry.title.toLowerCase().includes(query.toLowerCase()));
  const field = args.orderBy?.field ?? 'NUMBER';
  const key = (entry: Milestone): number =>
    field === 'CREATED_AT'
      ? Date.parse(entry.created_at)
      : field === 'UPDATED_AT'
        ? Date.parse(entry.updated_at)
        : field === 'DUE_DATE'
          ? entry.due_on === null
            ? Number.MAX_SAFE_INTEGER
            : Date.parse(entry.due_on)
          : entry.number;
  items.sort((a, b) => key(a) - key(b) || a.number - b.number);
  if (args.orderBy?.direction === 'DESC') items.reverse();
  return connection(
    items.map((entry) => milestoneNode(ctx, repo, entry)),
    args,
    (index) => Buffer.from(`milestone:${index}`).toString('base64'),
    (cursor) => Number(Buffer.from(cursor, 'base64').toString('utf8').split(':')[1] ?? -1),
  );
}

function resolveRevision(repo: Repo, revision: string): string | undefined {
  if (OID_PATTERN.test(revision) && repo.git.has(revision)) return revision;
  if (revision === 'HEAD') return repo.refs.get(`refs/heads/${repo.default_branch}`);
  return (
    repo.refs.get(revision) ??
    repo.refs.get(`refs/heads/${revision}`) ??
    repo.refs.get(`refs/tags/${revision}`)
  );
}

function repositoryNode(ctx: GqlContext, repo: Repo): Record<string, unknown> {
  const role = effectiveRole(ctx.world, ctx.token, repo);
  return {
    __typename: 'Repository',
    id: repo.node_id,
    databaseId: repo.id,
    name: repo.name,
    nameWithOwner: `${repo.owner.login}/${repo.name}`,
    owner: userNode(ctx, repo.owner),
    description: repo.description,
    isPrivate: repo.private,
    visibility: repo.private ? 'PRIVATE' : 'PUBLIC',
    isArchived: false,
    isEmpty: repo.refs.size === 0,
    url: `${ctx.base}/${repo.owner.login}/${repo.name}`,
    resourcePath: `/${repo.owner.login}/${repo.name}`,
    createdAt: repo.created_at,
    updatedAt: repo.updated_at,
    pushedAt: repo.pushed_at,
    viewerPermission: role ? role.toUpperCase() : null,
    viewerCanAdminister: role === 'admin',
    defaultBranchRef: () => refNode(ctx, repo, `refs/heads/${repo.default_branch}`),
    ref: ({ qualifiedName }: { qualifiedName: string }) => refNode(ctx, repo, qualify(qualifiedName)),
    pullRequests: (args: PullRequestsArgs) => pullRequests(ctx, repo, args),
    issue: ({ number }: { number: number }) => issueByNumber(ctx, repo, number),
    milestone: ({ number }: { number: number }) => milestoneByNumber(ctx, repo, number),
    milestones: (args: MilestonesArgs) => milestones(ctx, repo, args),
    refs: (args: { refPrefix: string; first?: number; after?: string; last?: number; query?: string }) => {
      const names = [...repo.refs.keys()]
        .filter((name) => name.startsWith(args.refPrefix))
        .filter((name) => !args.query || name.slice(args.refPrefix.length).includes(args.query))
        .sort();
      return connection(
        names.map((name) => refNode(ctx, repo, name)),
        args,
        (index) => Buffer.from(`ref:${index}`).toString('base64'),
        (cursor) => Number(Buffer.from(cursor, 'base64').toString('utf8').split(':')[1] ?? -1),
      );
    },
    object: ({ oid, expression }: { oid?: string; expression?: string }) => {
      if (oid) return objectNode(ctx, repo, oid);
      if (!expression) return null;
      const colon = expression.indexOf(':');
      const revision = colon === -1 ? expression : expression.slice(0, colon);
      const commitOid = resolveRevision(repo, revision);
      if (!commitOid) return null;
      if (colon === -1) return objectNode(ctx, repo, commitOid);
      if (!repo.git.has(commitOid, 'commit')) return null;
      const path = expression.slice(colon + 1);
      const entry = repo.git.lookup(repo.git.commit(commitOid).tree, path);
      return entry ? objectNode(ctx, repo, entry.sha) : null;
    },
  };
}

function findRepo(ctx: GqlContext, owner: string, name: string): Repo {
  const repo = ctx.world.repo(owner, name);
  if (!repo || !canSee(ctx.world, ctx.token, repo)) {
    throw new TypedError('NOT_FOUND', `Could not resolve to a Repository with the name '${owner}/${name}'.`);
  }
  return repo;
}

function repoByNodeId(ctx: GqlContext, id: string): Repo {
  for (const repo of ctx.world.repos.values()) {
    if (repo.node_id === id && canSee(ctx.world, ctx.token, repo)) return repo;
  }
  throw new TypedError('NOT_FOUND', `Could not resolve to a node with the global id of '${id}'`);
}

function requireWrite(ctx: GqlContext, repo: Repo): Token {
  const token = ctx.token;
  if (!token) throw new TypedError('FORBIDDEN', 'This endpoint requires you to be authenticated.');
  if (!hasPush(ctx.world, token, repo)) {
    throw new TypedError(
      'FORBIDDEN',
      token.kind === 'pat'
        ? `${token.account.login} does not have the correct permissions to execute this mutation`
        : 'Resource not accessible by integration',
    );
  }
  return token;
}

function refErrorToTyped(error: unknown): unknown {
  if (!(error instanceof RefError)) return error;
  return new TypedError(error.kind === 'stale' ? 'STALE_DATA' : 'UNPROCESSABLE', error.message);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

interface CreateCommitInput {
  branch: { id?: string; repositoryNameWithOwner?: string; branchName?: string };
  expectedHeadOid: string;
  fileChanges?: { additions?: { path: string; contents: string }[]; deletions?: { path: string }[] } | null;
  message: { headline: string; body?: string | null };
  clientMutationId?: string | null;
}

function createCommitOnBranch(ctx: GqlContext, input: CreateCommitInput): Record<string, unknown> {
  let repo: Repo;
  let ref: string;
  if (input.branch.id) {
    const decoded = decodeRefNodeId(ctx.world, input.branch.id);
    if (!decoded || !canSee(ctx.world, ctx.token, decoded.repo)) {
      throw new TypedError(
        'NOT_FOUND',
        `Could not resolve to a node with the global id of '${input.branch.id}'`,
      );
    }
    repo = decoded.repo;
    ref = decoded.ref;
  } else {
    const [owner = '', name = ''] = (input.branch.repositoryNameWithOwner ?? '').split('/');
    repo = findRepo(ctx, owner, name);
    ref = qualify(input.branch.branchName ?? '');
  }
  const token = requireWrite(ctx, repo);
  if (!ref.startsWith('refs/heads/')) throw new TypedError('UNPROCESSABLE', `${ref} is not a branch`);
  const head = repo.refs.get(ref);
  if (!head) throw new TypedError('NOT_FOUND', `Could not resolve to a Ref with the name '${ref}'.`);
  if (head !== input.expectedHeadOid) {
    throw new TypedError(
      'STALE_DATA',
      `Expected branch to point to "${input.expectedHeadOid}" but it did not. Pull and try again.`,
    );
  }
  const changes = new Map<string, { mode: string; sha: string } | null>();
  const seen = new Set<string>();
  const baseTree = repo.git.commit(head).tree;
  const checkPath = (path: string): void => {
    if (
      path === '' ||
      path.startsWith('/') ||
      path.split('/').some((part) => part === '' || part === '.' || part === '..')
    ) {
      throw new TypedError('UNPROCESSABLE', `Invalid path: ${path}`);
    }
    if (seen.has(path)) throw new TypedError('UNPROCESSABLE', `A path was specified multiple times: ${path}`);
    seen.add(path);
  };
  for (const deletion of input.fileChanges?.deletions ?? []) {
    checkPath(deletion.path);
    const entry = repo.git.lookup(baseTree, deletion.path);
    if (!entry || entry.mode === '40000') {
      throw new TypedError(
        'UNPROCESSABLE',
        `A path was requested for deletion which does not exist as of commit oid \`${head}\``,
      );
    }
    changes.set(deletion.path, null);
  }
  for (const addition of input.fileChanges?.additions ?? []) {
    checkPath(addition.path);
    if (!BASE64.test(addition.contents))
      throw new TypedError('UNPROCESSABLE', `Invalid base64 contents for ${addition.path}`);
    const existing = repo.git.lookup(baseTree, addition.path);
    changes.set(addition.path, {
      mode: existing && existing.mode !== '40000' ? existing.mode : '100644',
      sha: repo.git.putBlob(Buffer.from(addition.contents, 'base64')),
    });
  }
  const tree = repo.git.applyChanges(baseTree, changes);
  const message = input.message.body
    ? `${input.message.headline}\n\n${input.message.body}`
    : input.message.headline;
  const oid = writeCommit(ctx.world, repo, {
    tree,
    parents: [head],
    message,
    author: identityOf(ctx.world, token.account),
    committer: webFlowIdentity(ctx.world),
    sign: true,
  });
  try {
    changeRefs(ctx.world, token, repo, [{ ref, after: oid, expectBefore: head }]);
  } catch (error) {
    throw refErrorToTyped(error);
  }
  return {
    clientMutationId: input.clientMutationId ?? null,
    commit: commitNode(ctx, repo, oid),
    ref: refNode(ctx, repo, ref),
  };
}

function refFromId(ctx: GqlContext, id: string): { repo: Repo; ref: string } {
  const decoded = decodeRefNodeId(ctx.world, id);
  if (!decoded || !canSee(ctx.world, ctx.token, decoded.repo)) {
    throw new TypedError('NOT_FOUND', `Could not resolve to a node with the global id of '${id}'`);
  }
  return decoded;
}

function rootValue(ctx: GqlContext): Record<string, unknown> {
  return {
    ...projectRootFields(ctx, {
      typedError: (type, message) => new TypedError(type, message),
      actorNode,
      connection,
    }),
    repository: ({ owner, name }: { owner: string; name: string }) =>
      repositoryNode(ctx, findRepo(ctx, owner, name)),
    viewer: () => {
      if (!ctx.token) throw new TypedError('FORBIDDEN', 'This endpoint requires you to be authenticated.');
      return { ...userNode(ctx, ctx.token.account), __typename: 'User' };
    },
    rateLimit: () => {
      const state = rateState(ctx.world, ctx.token, 'graphql', false);
      return {
        cost: 1,
        limit: state.limit,
        remaining: state.remaining,
        used: state.used,
        resetAt: isoSeconds(state.reset),
        nodeCount: 0,
      };
    },
    node: ({ id }: { id: string }) => {
      const ref = decodeRefNodeId(ctx.world, id);
      if (ref && canSee(ctx.world, ctx.token, ref.repo)) return refNode(ctx, ref.repo, ref.ref);
      for (const repo of ctx.world.repos.values()) {
        if (repo.node_id === id && canSee(ctx.world, ctx.token, repo)) return repositoryNode(ctx, repo);
      }
      return id.startsWith('IC_') ? issueCommentById(ctx, id) : null;
    },
    createCommitOnBranch: ({ input }: { input: CreateCommitInput }) => createCommitOnBranch(ctx, input),
    createRef: ({
      input,
    }: {
      input: { repositoryId: string; name: string; oid: string; clientMutationId?: string };
    }) => {
      const repo = repoByNodeId(ctx, input.repositoryId);
      const token = requireWrite(ctx, repo);
      if (!isValidRefName(input.name))
        throw new TypedError('UNPROCESSABLE', `Reference name is not valid: ${input.name}`);
      if (repo.refs.has(input.name)) {
        throw new TypedError(
          'UNPROCESSABLE',
          `A ref named "${input.name}" already exists in the repository.`,
        );
      }
      if (!repo.git.has(input.oid, 'commit'))
        throw new TypedError('UNPROCESSABLE', `Object ${input.oid} does not exist or is not a commit`);
      try {
        changeRefs(ctx.world, token, repo, [{ ref: input.name, after: input.oid, createOnly: true }]);
      } catch (error) {
        throw refErrorToTyped(error);
      }
      return { clientMutationId: input.clientMutationId ?? null, ref: refNode(ctx, repo, input.name) };
    },
    updateRef: ({
      input,
    }: {
      input: { refId: string; oid: string; force?: boolean; clientMutationId?: string };
    }) => {
      const { repo, ref } = refFromId(ctx, input.refId);
      const token = requireWrite(ctx, repo);
      try {
        changeRefs(ctx.world, token, repo, [
          { ref, after: input.oid, mustExist: true, fastForwardOnly: input.force !== true },
        ]);
      } catch (error) {
        throw refErrorToTyped(error);
      }
      return { clientMutationId: input.clientMutationId ?? null, ref: refNode(ctx, repo, ref) };
    },
    // GitHub lets only repository admins delete an issue (an app: administration write [UNCONFIRMED]).
    deleteIssue: ({ input }: { input: { issueId: string; clientMutationId?: string } }) => {
      for (const repo of ctx.world.repos.values()) {
        if (!canSee(ctx.world, ctx.token, repo)) continue;
        for (const [number, entry] of repo.issues) {
          if (entry.node_id !== input.issueId) continue;
          if (!isAdmin(ctx.world, ctx.token, repo)) {
            throw new TypedError(
              'FORBIDDEN',
              `${ctx.token?.account.login ?? 'viewer'} does not have the correct permissions to execute \`DeleteIssue\``,
            );
          }
          repo.issues.delete(number);
          for (const [id, comment] of repo.comments)
            if (comment.issue_number === number) repo.comments.delete(id);
          return { clientMutationId: input.clientMutationId ?? null, repository: repositoryNode(ctx, repo) };
        }
      }
      throw new TypedError(
        'NOT_FOUND',
        `Could not resolve to a node with the global id of '${input.issueId}'`,
      );
    },
    deleteRef: ({ input }: { input: { refId: string; clientMutationId?: string } }) => {
      const { repo, ref } = refFromId(ctx, input.refId);
      const token = requireWrite(ctx, repo);
      try {
        changeRefs(ctx.world, token, repo, [{ ref, after: null, mustExist: true }]);
      } catch (error) {
        throw refErrorToTyped(error);
      }
      return { clientMutationId: input.clientMutationId ?? null };
    },
    updateRefs: ({
      input,
    }: {
      input: {
        repositoryId: string;
        refUpdates: { name: string; beforeOid?: string | null; afterOid: string; force?: boolean }[];
        clientMutationId?: string;
      };
    }) => {
      const repo = repoByNodeId(ctx, input.repositoryId);
      const token = requireWrite(ctx, repo);
      for (const update of input.refUpdates) {
        if (!isValidRefName(update.name))
          throw new TypedError('UNPROCESSABLE', `Reference name is not valid: ${update.name}`);
      }
      try {
        changeRefs(
          ctx.world,
          token,
          repo,
          input.refUpdates.map((update) => ({
            ref: update.name,
            after: update.afterOid === ZERO_OID ? null : update.afterOid,
            ...(update.beforeOid != null ? { expectBefore: update.beforeOid } : {}),
            fastForwardOnly: update.force !== true,
          })),
        );
      } catch (error) {
        throw refErrorToTyped(error);
      }
      return { clientMutationId: input.clientMutationId ?? null };
    },
  };
}

/**
 * Resolves a field from the emulator's node objects. A field the emulator does not model is an error
 * (type EMULATOR_UNSUPPORTED), never a silent null, so a query that depends on it fails loudly.
 */
const fieldResolver: GraphQLFieldResolver<unknown, GqlContext> = (source, args, context, info) => {
  if (source !== null && typeof source === 'object' && info.fieldName in source) {
    const value = (source as Record<string, unknown>)[info.fieldName];
    return typeof value === 'function'
      ? (value as (...rest: unknown[]) => unknown)(args, context, info)
      : value;
  }
  throw new TypedError(
    'EMULATOR_UNSUPPORTED',
    `The Writ GitHub emulator does not model the field ${info.parentType.name}.${info.fieldName}.`,
  );
};

interface GraphQLResponse {
  status: number;
  body: Record<string, unknown>;
}

function formatError(error: GraphQLError): Record<string, unknown> {
  const original = error.originalError;
  if (original instanceof TypedError) {
    return {
      type: original.type,
      path: error.path,
      locations: error.locations,
      message: original.message,
    };
  }
  return error.toJSON() as unknown as Record<string, unknown>;
}

/** Validates and executes one GraphQL request (HTTP 200 for GraphQL-level errors, as GitHub answers). */
export async function executeGraphQL(
  world: World,
  token: Token | null,
  base: string,
  body: unknown,
  info: GraphQLRequestInfo,
): Promise<GraphQLResponse> {
  if (!token) {
    return {
      status: 401,
      body: {
        message: 'This endpoint requires you to be authenticated.',
        documentation_url:
          'https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql',
        status: '401',
      },
    };
  }
  if (info.parseError || !info.document) {
    return {
      status: 200,
      body: {
        errors: [
          formatError(
            info.parseError ?? new GraphQLError('A query attribute must be specified and must be a string.'),
          ),
        ],
      },
    };
  }
  const schema = githubSchema();
  const validationErrors = validateCached(schema, info.document);
  if (validationErrors.length > 0)
    return { status: 200, body: { errors: validationErrors.map(formatError) } };
  const record = body as Record<string, unknown>;
  const variables = (
    typeof record.variables === 'object' && record.variables !== null ? record.variables : {}
  ) as Record<string, unknown>;
  const ctx: GqlContext = { world, token, base };
  const result = await execute({
    schema,
    document: info.document,
    rootValue: rootValue(ctx),
    contextValue: ctx,
    variableValues: variables,
    operationName: info.operationName,
    fieldResolver,
  });
  const out: Record<string, unknown> = {};
  if (result.data !== undefined) out.data = result.data;
  if (result.errors && result.errors.length > 0) out.errors = result.errors.map(formatError);
  return { status: 200, body: out };
}
