/**
 * A claim window's reads, batched: the issues and milestones a window's steps pre-read (`readWindow`),
 * or its answered writes post-read (`verifyWindow`), in ONE GraphQL query — an alias per issue number
 * and per milestone number, and the milestone listing only when a step needs it (one listing, not one
 * read per item). Each step is then judged by the same rules as a lone step (steps.ts: `assessStep`, a
 * write's `verify`), reading through a snapshot reader instead of REST, so an assessment and its
 * `pre_state_digest` are the same whichever path read them.
 *
 * What the snapshot cannot answer is read over REST, per step, as before: a number GraphQL does not
 * resolve as an issue (a pull request, a missing, deleted or transferred issue: REST tells 404 from 410
 * and answers a pull request), an issue with more labels than one page holds (never truncated), a read
 * whose alias came back with an error, a milestone listing past its first page is paged over GraphQL up
 * to the page cap; comment listings, a comment by ID and a create's marker pre-check stay REST.
 *
 * GitHub's GraphQL gives a Bot's login without REST's `[bot]` suffix (`writ-ledger`, not
 * `writ-ledger[bot]`): an actor whose `__typename` is `Bot` gets it back (`graphqlAuthor`), so `ownMarked` (by creator
 * login) answers as it does over REST. A milestone has no database ID in GraphQL: its `id` here is its
 * number (both grow with creation within a repository, so oldest-first ordering is unchanged).
 */
import { WritError, failureMessage, httpStatus } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import { graphqlAuthor } from '../idempotency/precheck.js';
import type { MilestoneRef } from '../plan/types.js';
import type {
  Assessment,
  IssueRecord,
  MilestoneRecord,
  PlannedWrite,
  StepReadContext,
  StepReader,
  WritableStep,
} from './steps.js';
import { assessStep, restReader } from './steps.js';

/** A read that could not be made (the caller reports it as a lone step's failed read). */
export interface WindowReadFailure {
  failed: { status: number | undefined; message: string };
}

/** Aliases in one query, at most (a larger window is read in several). */
const ALIASES_PER_QUERY = 100;
const LABELS_PER_ISSUE = 100;
const MILESTONES_PER_PAGE = 100;

const ACTOR = `fragment WritActor on Actor {
  __typename
  login
  ... on Bot { databaseId }
  ... on User { databaseId }
  ... on Organization { databaseId }
}`;
const MILESTONE = `fragment WritMilestone on Milestone {
  number title description state dueOn createdAt updatedAt
  creator { ...WritActor }
}`;
const ISSUE = `fragment WritIssue on Issue {
  number title body state
  author { ...WritActor }
  labels(first: ${LABELS_PER_ISSUE}) { totalCount pageInfo { hasNextPage } nodes { name } }
  milestone { ...WritMilestone }
}`;
const LISTING = `milestones(first: ${MILESTONES_PER_PAGE}, after: $after, states: [OPEN, CLOSED], orderBy: {field: NUMBER, direction: ASC}) {
      pageInfo { hasNextPage endCursor }
      nodes { ...WritMilestone }
    }`;

/** What one query asks for. */
interface Wanted {
  issues: Set<number>;
  milestones: Set<number>;
  listing: boolean;
}

/** A GraphQL answer: `data`, and the errors under each alias (anything else fails the read). */
interface Answer {
  repository: Record<string, unknown>;
  erred: Set<string>;
}

type Json = Record<string, unknown>;

function json(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

/** A window's GraphQL read answered with errors it cannot be judged without (`status`: the HTTP one). */
class QueryFailed extends WritError {
  constructor(
    types: readonly string[],
    readonly status: number,
  ) {
    super(
      'github-request-failed',
      `Reading the claim window's issues and milestones returned GraphQL errors (${types.join(', ')}).`,
      { details: { status } },
    );
  }
}

function queryText(wanted: Wanted): string {
  const fields: string[] = [];
  for (const number of wanted.issues) fields.push(`i${number}: issue(number: ${number}) { ...WritIssue }`);
  for (const number of wanted.milestones)
    fields.push(`m${number}: milestone(number: ${number}) { ...WritMilestone }`);
  if (wanted.listing) fields.push(LISTING);
  const fragments = [ACTOR, MILESTONE, ...(wanted.issues.size > 0 ? [ISSUE] : [])];
  const after = wanted.listing ? ', $after: String' : '';
  return `query WritWindowRead($owner: String!, $name: String!${after}) {
  repository(owner: $owner, name: $name) {
    ${fields.join('\n    ')}
  }
}
${fragments.join('\n')}`;
}

async function query(
  github: GitHubClient,
  context: StepReadContext,
  wanted: Wanted,
  after: string | null = null,
): Promise<Answer> {
  const variables: Json = { owner: context.owner, name: context.repo };
  if (wanted.listing) variables.after = after;
  const response = await github.request('POST /graphql', { query: queryText(wanted), variables });
  const body = json(response.data) ?? {};
  const errors = Array.isArray(body.errors) ? body.errors.map(json) : [];
  const erred = new Set<string>();
  const fatal: string[] = [];
  for (const error of errors) {
    const path = Array.isArray(error?.path) ? error.path.map(String) : [];
    // An error under one alias (or the listing) leaves that read to REST; any other fails the read.
    if (path[0] === 'repository' && path[1] !== undefined) erred.add(path[1]);
    else {
      // GitHub's error types only (never its free text): NOT_FOUND, FORBIDDEN, RATE_LIMITED…
      const type = text(error?.type);
      fatal.push(type !== null && /^[A-Z_]{1,40}$/.test(type) ? type : 'error');
    }
  }
  const repository = json(json(body.data)?.repository);
  if (fatal.length > 0 || repository === null)
    throw new QueryFailed(fatal.length > 0 ? fatal : ['no repository'], response.status);
  return { repository, erred };
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function milestoneRecord(value: unknown): MilestoneRecord | null {
  const node = json(value);
  if (node === null || typeof node.number !== 'number') return null;
  return {
    id: node.number,
    number: node.number,
    created_at: String(node.createdAt),
    creator: graphqlAuthor(node.creator),
    title: String(node.title),
    state: String(node.state).toLowerCase(),
    description: text(node.description),
    due_on: text(node.dueOn),
    updated_at: String(node.updatedAt),
  };
}

/** An issue as REST reads it, or `undefined` when GraphQL's answer is not the whole of it (labels). */
function issueRecord(value: unknown): IssueRecord | undefined {
  const node = json(value);
  const labels = json(node?.labels);
  if (node === null || typeof node.number !== 'number' || labels === null) return undefined;
  if (json(labels.pageInfo)?.hasNextPage !== false) return undefined;
  const names = Array.isArray(labels.nodes) ? labels.nodes.map((label) => String(json(label)?.name)) : [];
  if (names.length !== labels.totalCount) return undefined;
  return {
    number: node.number,
    state: String(node.state).toLowerCase(),
    body: text(node.body),
    title: String(node.title),
    labels: names,
    milestone: milestoneRecord(node.milestone),
    user: graphqlAuthor(node.author),
  };
}

/** How many reads the snapshot answered and how many it left to REST (for reports and tests). */
export interface WindowReadStats {
  queries: number;
  /** Reads of the snapshot's kinds it could not answer, made over REST instead. */
  restFallbacks: number;
}

/**
 * The snapshot of one query (several when the window is large or the listing pages), as a reader:
 * what it holds it answers; anything else goes to REST.
 */
class SnapshotReader implements StepReader {
  readonly issues = new Map<number, IssueRecord>();
  readonly milestoneReads = new Map<number, MilestoneRecord | null>();
  listing: MilestoneRecord[] | null | undefined = undefined;

  constructor(
    private readonly rest: StepReader,
    private readonly stats: WindowReadStats,
  ) {}

  issue(number: number): Promise<IssueRecord | null> {
    const held = this.issues.get(number);
    if (held !== undefined) return Promise.resolve(held);
    this.stats.restFallbacks += 1;
    return this.rest.issue(number);
  }

  milestone(number: number): Promise<MilestoneRecord | null> {
    if (this.milestoneReads.has(number)) return Promise.resolve(this.milestoneReads.get(number) ?? null);
    // A complete listing answers for every milestone: one it does not hold is not there.
    if (this.listing != null)
      return Promise.resolve(this.listing.find((milestone) => milestone.number === number) ?? null);
    this.stats.restFallbacks += 1;
    return this.rest.milestone(number);
  }

  milestones(): Promise<MilestoneRecord[] | null> {
    if (this.listing !== undefined) return Promise.resolve(this.listing);
    this.stats.restFallbacks += 1;
    return this.rest.milestones();
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/** Reads `wanted` into a snapshot: one query per ALIASES_PER_QUERY aliases, the listing paged. */
async function snapshot(
  github: GitHubClient,
  context: StepReadContext,
  wanted: Wanted,
  stats: WindowReadStats,
): Promise<SnapshotReader> {
  const reader = new SnapshotReader(restReader(github, context), stats);
  const aliases = [
    ...[...wanted.issues].map((number) => ({ issue: number })),
    ...[...wanted.milestones].map((number) => ({ milestone: number })),
  ];
  const batches = chunks(aliases, ALIASES_PER_QUERY);
  if (batches.length === 0 && wanted.listing) batches.push([]);
  /** The listing so far; undefined when its read erred (REST lists then). */
  let listing: MilestoneRecord[] | null | undefined = undefined;
  let after: string | null = null;
  for (const [index, batch] of batches.entries()) {
    const part: Wanted = {
      issues: new Set(batch.flatMap((alias) => ('issue' in alias ? [alias.issue] : []))),
      milestones: new Set(batch.flatMap((alias) => ('milestone' in alias ? [alias.milestone] : []))),
      listing: wanted.listing && index === 0,
    };
    stats.queries += 1;
    const answer = await query(github, context, part);
    for (const number of part.issues) {
      const alias = `i${number}`;
      // No answer (not an issue here, an error, labels past a page) leaves the read to REST.
      const record = answer.erred.has(alias) ? undefined : issueRecord(answer.repository[alias]);
      if (record !== undefined) reader.issues.set(number, record);
    }
    for (const number of part.milestones) {
      const alias = `m${number}`;
      if (!answer.erred.has(alias))
        reader.milestoneReads.set(number, milestoneRecord(answer.repository[alias]));
    }
    if (part.listing && !answer.erred.has('milestones')) {
      const page = json(answer.repository.milestones);
      listing = Array.isArray(page?.nodes)
        ? page.nodes.map(milestoneRecord).filter((m): m is MilestoneRecord => m !== null)
        : [];
      after = json(page?.pageInfo)?.hasNextPage === true ? text(json(page?.pageInfo)?.endCursor) : null;
    }
  }
  if (wanted.listing) {
    // Further pages of the listing, up to the page cap (as the REST listing): past it, no listing.
    const only: Wanted = { issues: new Set(), milestones: new Set(), listing: true };
    for (let page = 2; after !== null && listing != null; page += 1) {
      if (page > context.pageCap) {
        listing = null;
        break;
      }
      stats.queries += 1;
      const answer = await query(github, context, only, after);
      if (answer.erred.has('milestones')) {
        listing = undefined;
        break;
      }
      const next = json(answer.repository.milestones);
      const nodes = Array.isArray(next?.nodes) ? next.nodes : [];
      listing.push(...nodes.map(milestoneRecord).filter((m): m is MilestoneRecord => m !== null));
      after = json(next?.pageInfo)?.hasNextPage === true ? text(json(next?.pageInfo)?.endCursor) : null;
    }
    reader.listing = listing;
  }
  return reader;
}

/** The milestone a reference names, when it is known without the listing. */
function knownMilestone(context: StepReadContext, ref: MilestoneRef): number | null {
  if ('number' in ref) return ref.number;
  return context.milestoneKeys.get(ref.key) ?? null;
}

/** What a step's pre-read reads that a snapshot answers (steps.ts's rules, read for their read set). */
function preReads(context: StepReadContext, step: WritableStep, wanted: Wanted): void {
  const milestoneRef = (ref: MilestoneRef): void => {
    const known = knownMilestone(context, ref);
    if (known === null) wanted.listing = true;
    else wanted.milestones.add(known);
  };
  switch (step.kind) {
    case 'milestone.upsert':
      wanted.listing = true;
      return;
    case 'milestone.edit':
      milestoneRef(step.milestone);
      return;
    case 'issue.set-milestone':
      wanted.issues.add(step.issue);
      if (step.milestone !== null) {
        const known = knownMilestone(context, step.milestone);
        if (known === null) wanted.listing = true;
        else if (step.expect?.target_milestone !== undefined) wanted.milestones.add(known);
      }
      return;
    case 'issue.labels':
      wanted.issues.add(step.issue);
      return;
    case 'issue.create':
      if (step.milestone !== undefined && knownMilestone(context, step.milestone) === null)
        wanted.listing = true;
      return;
    case 'comment.upsert':
      return;
  }
}

function failure(error: unknown): WindowReadFailure {
  const status = error instanceof QueryFailed ? error.status : httpStatus(error);
  return { failed: { status, message: failureMessage(error) } };
}

function empty(wanted: Wanted): boolean {
  return wanted.issues.size === 0 && wanted.milestones.size === 0 && !wanted.listing;
}

/**
 * Pre-reads a claim window: one GraphQL query for its steps' issues and milestones (and the milestone
 * listing when one needs it), then each step assessed against that snapshot by `assessStep`'s rules.
 * A failed query fails every step's read; a REST read a step still makes fails that step alone.
 */
export async function readWindow(
  github: GitHubClient,
  context: StepReadContext,
  steps: readonly WritableStep[],
  stats: WindowReadStats = { queries: 0, restFallbacks: 0 },
): Promise<Map<string, Assessment | WindowReadFailure>> {
  const out = new Map<string, Assessment | WindowReadFailure>();
  const wanted: Wanted = { issues: new Set(), milestones: new Set(), listing: false };
  for (const step of steps) preReads(context, step, wanted);
  let reader: StepReader;
  try {
    reader = empty(wanted) ? restReader(github, context) : await snapshot(github, context, wanted, stats);
  } catch (error: unknown) {
    for (const step of steps) out.set(step.id, failure(error));
    return out;
  }
  for (const step of steps) {
    try {
      out.set(step.id, await assessStep(github, context, step, reader));
    } catch (error: unknown) {
      out.set(step.id, failure(error));
    }
  }
  return out;
}

export interface WindowWrite {
  step: WritableStep;
  write: PlannedWrite;
  /** What the write's answer named (`WriteResult.resource`). */
  resource: number | null;
}

/**
 * Post-reads a window's answered writes: one GraphQL query for every issue and milestone their
 * verifies read, then each `verify` judged against it (a comment's verify reads it over REST).
 */
export async function verifyWindow(
  github: GitHubClient,
  context: StepReadContext,
  entries: readonly WindowWrite[],
  stats: WindowReadStats = { queries: 0, restFallbacks: 0 },
): Promise<Map<string, boolean | WindowReadFailure>> {
  const out = new Map<string, boolean | WindowReadFailure>();
  const wanted: Wanted = { issues: new Set(), milestones: new Set(), listing: false };
  for (const { write, resource } of entries) {
    const reads = write.postReads(resource);
    for (const number of reads?.issues ?? []) wanted.issues.add(number);
    for (const number of reads?.milestones ?? []) wanted.milestones.add(number);
  }
  let reader: StepReader | undefined;
  try {
    if (!empty(wanted)) reader = await snapshot(github, context, wanted, stats);
  } catch (error: unknown) {
    for (const { step } of entries) out.set(step.id, failure(error));
    return out;
  }
  for (const { step, write, resource } of entries) {
    try {
      out.set(step.id, await write.verify(resource, write.postReads(resource) === null ? undefined : reader));
    } catch (error: unknown) {
      out.set(step.id, failure(error));
    }
  }
  return out;
}
