/**
 * What each step kind reads, wants and writes. `assessStep` pre-reads a step's full read set and says
 * whether its desired state is already there, how what it read differs from the step's `expect`, and
 * which one write would bring the desired state; the write's `verify` is the post-read. Nothing here
 * touches the ledger, and nothing GitHub returns (titles, bodies, labels) leaves this module except
 * escaped, in a diff line for the job summary.
 *
 * A step's issue and milestone reads (pre-read and post-read) go through a `StepReader`: REST, one
 * request each (`restReader`), or a claim window's snapshot of one GraphQL query (window-read.ts). The
 * rules here are the only rules either way, so the assessment and its digest do not depend on the path.
 *
 * Managed markers: a `milestone.upsert` or `comment.upsert` is found again by `<!-- writ-key: KEY -->`
 * in its description or body; an `issue.create` by the idempotency marker of its request
 * (idempotency/key.ts), a visible provenance line and a non-load-bearing `idem-<16 hex>` label. A
 * marker counts only on what Writ's own app wrote (`ownMarked` / `findOwnMarked`,
 * idempotency/precheck.ts: a milestone's creator, an issue's or comment's user), and no write replaces
 * or drops another key's marker.
 * Digests a planner puts in `expect` (`description_digest`, `body_digest`) are `sha256:` of the UTF-8
 * text (an absent description is the empty text).
 */
import { digest } from '../canonical-json.js';
import { httpStatus } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import { commentPages, issuePages, sinceBefore } from '../idempotency/github-pages.js';
import { hasMarker, idempotencyMarker, withMarker } from '../idempotency/key.js';
import { createKey, keyScopeOf } from '../plan/create-key.js';
import type { KeyScope } from '../ledger/types.js';
import type { Author, ListedItem, PrecheckResult } from '../idempotency/precheck.js';
import { findOwnMarked, isOwnAuthor, ownMarked } from '../idempotency/precheck.js';
import type {
  CommentUpsertStep,
  IssueCreateStep,
  IssueLabelsStep,
  IssueSetMilestoneStep,
  MilestoneEditStep,
  MilestoneRef,
  MilestoneState,
  MilestoneUpsertStep,
  PlanStep,
} from '../plan/types.js';
import { escapeInline } from '../markdown.js';
import { sha256 } from '../setup/policy.js';

export type WritableStep = Exclude<PlanStep, { kind: 'external' }>;

export interface StepReadContext {
  owner: string;
  repo: string;
  /** Writ's own login (`<app slug>[bot]`): only what it authored carries a marker that counts. */
  ownLogin: string;
  /** Pages of 100 a marker search may read before it is inconclusive. */
  pageCap: number;
  /** A lower bound on when anything for this run was created (server clock, ISO 8601), or null. */
  createdAfter: string | null;
  /** Milestone numbers already known for marker keys (from earlier steps' checkpoints). */
  milestoneKeys: ReadonlyMap<string, number>;
  /** Search for an earlier create of this step (a claimed step whose outcome is not recorded). */
  precheck: boolean;
  /**
   * How far an issue create's idempotency key reaches (absent: `repository`). `repository`: the key is
   * the request's alone and every create first scans the whole repository's listing (within the page
   * cap) for Writ's own item carrying it; `run`: the key includes the run ID, so only this run's create
   * can match and only a claimed step is searched (since its claim).
   */
  keyScope?: KeyScope;
  /** The run and step, for a created issue's visible provenance line. */
  runId: string;
}

export interface WriteResult {
  status: number;
  /** The number (issue, milestone) or ID (comment) the write created or touched. */
  resource: number | null;
}

export interface PlannedWrite {
  /** `METHOD /path/template`, for summaries and the bench. */
  describe: string;
  create: boolean;
  send(): Promise<WriteResult>;
  /**
   * The post-read: is the desired state observed now? (`resource` from the write, when it answered.)
   * Its issue and milestone reads go through `reader`: REST, one request each, unless a window's verify
   * (window-read.ts) passes the snapshot of one query made after the writes.
   */
  verify(resource: number | null, reader?: StepReader): Promise<boolean>;
  /** The issues and milestones `verify(resource)` reads; null when a snapshot answers none (a comment). */
  postReads(resource: number | null): PostReads | null;
}

export interface PostReads {
  issues: number[];
  milestones: number[];
}

/**
 * Where a step's reads of issues and milestones come from: REST (`restReader`, one request each, as
 * before) or a window's snapshot (window-read.ts: one GraphQL query for the window). Every rule below
 * reads through it, so a step is judged by the same code either way. Comment listings, a comment by
 * ID and a create's marker pre-check are not here: they stay REST.
 */
export interface StepReader {
  /** An issue (or a pull request, as REST's issue endpoint answers it); null when 404 or 410. */
  issue(number: number): Promise<IssueRecord | null>;
  /** A milestone; null when 404 or 410. */
  milestone(number: number): Promise<MilestoneRecord | null>;
  /** Every milestone (open and closed) in number order; null when the page cap came first. */
  milestones(): Promise<MilestoneRecord[] | null>;
}

/** A step's read context with where its reads come from (`reader`) and REST for its write's verify. */
interface ReadScope extends StepReadContext {
  reader: StepReader;
  rest: StepReader;
}

export interface Assessment {
  desired: boolean;
  /** Resources the step's desired state lives on (the created or touched numbers/IDs). */
  resources: number[];
  /** How what was read differs from `expect` (escaped Markdown, one line each); empty: it matches. */
  diff: string[];
  write: PlannedWrite | null;
  /** A marker search could not decide (`page-cap` or `read-failed`): nothing may be created. */
  inconclusive: string | null;
  /** Facts worth reporting that change nothing (a marker planted by someone else, duplicates). */
  notes: string[];
  /** Writ's own later duplicates of a created resource (a genuine race): retired oldest-wins. */
  duplicates: number[];
  /**
   * A creating step's key (an issue create's derived key, an upsert's marker key) and scope, and
   * whether the marker lookup found Writ's own item carrying it; null for a step that creates nothing.
   */
  receipt: ReceiptKey | null;
  /**
   * The fields the pre-read observed that the write depends on (numbers, states, label names, text
   * digests — never a body), or null when the step reads no pre-state (a fresh create). Its digest is
   * the claim's `pre_state_digest` (preStateDigest).
   */
  preState: Record<string, unknown> | null;
}

export interface ReceiptKey {
  key: string;
  scope: KeyScope;
  found: boolean;
}

/** A step's `pre_state_digest`: sha256 of the canonical JSON of the fields its pre-read observed. */
export function preStateDigest(assessment: Assessment): string | null {
  return assessment.preState === null ? null : digest({ kind: 'pre-state', ...assessment.preState });
}

/** The observed fields of a milestone a step reads (its description only as a digest). */
function milestoneFields(milestone: MilestoneRecord | null): Record<string, unknown> | null {
  if (milestone === null) return null;
  return {
    number: milestone.number,
    title: milestone.title,
    state: milestone.state,
    description_digest: textDigest(milestone.description),
    due_on: milestone.due_on === null ? null : new Date(milestone.due_on).toISOString(),
  };
}

/** The observed fields of an issue a step reads (its body never). */
function issueFields(issue: IssueRecord): Record<string, unknown> {
  return {
    number: issue.number,
    state: issue.state,
    labels: labelNames(issue)
      .map((name) => name.toLowerCase())
      .sort(),
    milestone: issue.milestone?.number ?? null,
  };
}

const PER_PAGE = 100;

/** A milestone as a step reads it (REST's fields; window-read.ts maps GraphQL's onto them). */
export interface MilestoneRecord {
  /** REST's ID; from GraphQL (which gives a milestone no database ID) its number: both grow with time. */
  id: number;
  number: number;
  created_at: string;
  creator: Author | null;
  title: string;
  state: string;
  description: string | null;
  due_on: string | null;
  updated_at: string;
}

/** An issue as a step reads it (REST's fields; window-read.ts maps GraphQL's onto them). */
export interface IssueRecord {
  number: number;
  state: string;
  body?: string | null;
  title: string;
  labels: (string | { name?: string })[];
  milestone: MilestoneRecord | null;
  user: Author | null;
}

export function keyMarker(key: string): string {
  return `<!-- writ-key: ${key} -->`;
}

/** The keys whose `writ-key` marker a text carries (as keyMarker writes them). */
export function markedKeys(text: string | null | undefined): string[] {
  if (typeof text !== 'string') return [];
  return [...text.matchAll(/<!-- writ-key: (.*?) -->/g)].map((match) => match[1] ?? '');
}

function textDigest(text: string | null | undefined): string {
  return sha256(text ?? '');
}

function labelNames(issue: IssueRecord): string[] {
  return issue.labels
    .map((label) => (typeof label === 'string' ? label : (label.name ?? '')))
    .filter((name) => name !== '');
}

function sameLabels(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a.map((name) => name.toLowerCase()));
  const right = new Set(b.map((name) => name.toLowerCase()));
  return left.size === right.size && [...left].every((name) => right.has(name));
}

/** Label names for a diff line, in name order (REST and GraphQL list an issue's labels differently). */
function shownLabels(names: readonly string[]): string {
  const sorted = [...names].sort((a, b) =>
    a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0,
  );
  return sorted.length === 0 ? 'none' : sorted.map((name) => `“${escapeInline(name, 50)}”`).join(', ');
}

function sameInstant(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a == null || b == null) return a == null && b == null;
  return Date.parse(a) === Date.parse(b);
}

/** 404 and 410 (deleted, or transferred) mean the resource is not there; anything else is thrown. */
async function readOrNull<T>(read: () => Promise<{ data: T }>): Promise<T | null> {
  try {
    return (await read()).data;
  } catch (error: unknown) {
    const status = httpStatus(error);
    if (status === 404 || status === 410) return null;
    throw error;
  }
}

/** Every milestone (state=all) in number order, up to the page cap; `null` when the cap came first. */
async function listMilestones(
  github: GitHubClient,
  context: StepReadContext,
): Promise<MilestoneRecord[] | null> {
  const all: MilestoneRecord[] = [];
  for (let page = 1; page <= context.pageCap; page += 1) {
    const response = await github.rest.issues.listMilestones({
      owner: context.owner,
      repo: context.repo,
      state: 'all',
      per_page: PER_PAGE,
      page,
    });
    all.push(...(response.data as unknown as MilestoneRecord[]));
    if (!/rel="next"/.test(response.headers.link ?? '')) return all.sort((a, b) => a.number - b.number);
  }
  return null;
}

/**
 * Milestones carrying `key`'s marker (the one rule, idempotency/precheck.ts): `own`, those Writ's app
 * created, oldest first; `foreign`, anyone else's, which never count.
 */
function keyed(
  milestones: readonly MilestoneRecord[],
  key: string,
  context: StepReadContext,
): { own: MilestoneRecord[]; foreign: MilestoneRecord[] } {
  return ownMarked(milestones, keyMarker(key), context.ownLogin);
}

function foreignNotes(foreign: readonly MilestoneRecord[], key: string): string[] {
  return foreign.map(
    (milestone) =>
      `milestone #${milestone.number} carries the key \`${key}\` but was not created by Writ (${escapeInline(milestone.creator?.login ?? 'a deleted account', 40)}): ignored`,
  );
}

/** Differences between a milestone as the planner observed it and as read now. */
function milestoneDiff(
  what: string,
  expected: MilestoneState | undefined,
  actual: MilestoneRecord | null,
): string[] {
  if (expected === undefined) return [];
  if (actual === null) return [`${what}: expected a milestone, found none`];
  const diff: string[] = [];
  if (expected.number !== undefined && expected.number !== actual.number)
    diff.push(`${what}: expected #${expected.number}, found #${actual.number}`);
  if (expected.title !== undefined && expected.title !== actual.title)
    diff.push(
      `${what}: expected title “${escapeInline(expected.title, 80)}”, found “${escapeInline(actual.title, 80)}”`,
    );
  if (expected.state !== undefined && expected.state !== actual.state)
    diff.push(`${what}: expected ${expected.state}, found ${escapeInline(actual.state, 20)}`);
  if (
    expected.description_digest !== undefined &&
    expected.description_digest !== textDigest(actual.description)
  )
    diff.push(`${what}: its description changed (digest ${textDigest(actual.description).slice(0, 19)}…)`);
  if (expected.updated_at !== undefined && !sameInstant(expected.updated_at, actual.updated_at))
    diff.push(
      `${what}: updated at ${escapeInline(actual.updated_at, 32)}, not ${escapeInline(expected.updated_at, 32)}`,
    );
  return diff;
}

function result(partial: Partial<Assessment>): Assessment {
  return {
    desired: false,
    resources: [],
    diff: [],
    write: null,
    inconclusive: null,
    notes: [],
    duplicates: [],
    receipt: null,
    preState: null,
    ...partial,
  };
}

async function getMilestone(
  github: GitHubClient,
  context: StepReadContext,
  number: number,
): Promise<MilestoneRecord | null> {
  return readOrNull(async () => ({
    data: (
      await github.rest.issues.getMilestone({
        owner: context.owner,
        repo: context.repo,
        milestone_number: number,
      })
    ).data as unknown as MilestoneRecord,
  }));
}

async function getIssue(
  github: GitHubClient,
  context: StepReadContext,
  number: number,
): Promise<IssueRecord | null> {
  return readOrNull(async () => ({
    data: (await github.rest.issues.get({ owner: context.owner, repo: context.repo, issue_number: number }))
      .data as unknown as IssueRecord,
  }));
}

/** A milestone reference → its number now: by number, or by the marker key (known, else listed). */
async function resolveMilestone(
  context: ReadScope,
  ref: MilestoneRef,
): Promise<{ number: number | null; why: string | null }> {
  if ('number' in ref) return { number: ref.number, why: null };
  const known = context.milestoneKeys.get(ref.key);
  if (known !== undefined) return { number: known, why: null };
  const all = await context.reader.milestones();
  if (all === null)
    return { number: null, why: `the milestone listing passed the page cap looking for key ${ref.key}` };
  const found = keyed(all, ref.key, context).own[0];
  return found === undefined
    ? { number: null, why: `no milestone carries the key \`${ref.key}\`` }
    : { number: found.number, why: null };
}

function milestoneMatches(step: MilestoneUpsertStep, milestone: MilestoneRecord): boolean {
  const marker = keyMarker(step.key);
  return (
    milestone.title === step.title &&
    (step.state === undefined || milestone.state === step.state) &&
    (step.due_on === undefined || sameInstant(milestone.due_on, step.due_on)) &&
    (step.description === undefined
      ? hasMarker(milestone.description, marker)
      : milestone.description === withMarker(step.description, marker))
  );
}

/** The one write of a `milestone.upsert`: create the milestone, or rewrite `target` (its key kept). */
function milestoneUpsertWrite(
  github: GitHubClient,
  context: ReadScope,
  step: MilestoneUpsertStep,
  target: MilestoneRecord | null,
): PlannedWrite {
  const marker = keyMarker(step.key);
  const description =
    step.description === undefined
      ? withMarker(target?.description ?? '', marker)
      : withMarker(step.description, marker);
  const fields = {
    title: step.title,
    description:
      target !== null && step.description === undefined && hasMarker(target.description, marker)
        ? (target.description ?? '')
        : description,
    ...(step.state === undefined ? {} : { state: step.state }),
    ...(step.due_on === undefined ? {} : { due_on: step.due_on }),
  };
  const numberOf = (resource: number | null): number | null => resource ?? target?.number ?? null;
  const verify = async (resource: number | null, reader = context.rest): Promise<boolean> => {
    const number = numberOf(resource);
    if (number === null) return false;
    const now = await reader.milestone(number);
    return now !== null && milestoneMatches(step, now);
  };
  const postReads = (resource: number | null): PostReads => {
    const number = numberOf(resource);
    return { issues: [], milestones: number === null ? [] : [number] };
  };
  const base = { owner: context.owner, repo: context.repo };
  return target === null
    ? {
        describe: 'POST /repos/{owner}/{repo}/milestones',
        create: true,
        send: async () => {
          const response = await github.rest.issues.createMilestone({ ...base, ...fields });
          return { status: response.status, resource: response.data.number };
        },
        verify,
        postReads,
      }
    : {
        describe: 'PATCH /repos/{owner}/{repo}/milestones/{milestone_number}',
        create: false,
        send: async () => {
          const response = await github.rest.issues.updateMilestone({
            ...base,
            milestone_number: target.number,
            ...fields,
          });
          return { status: response.status, resource: target.number };
        },
        verify,
        postReads,
      };
}

async function assessMilestoneUpsert(
  github: GitHubClient,
  context: ReadScope,
  step: MilestoneUpsertStep,
): Promise<Assessment> {
  const all = await context.reader.milestones();
  const receipt = (found: boolean): ReceiptKey => ({ key: step.key, scope: 'repository', found });
  if (all === null) return result({ inconclusive: 'page-cap', receipt: receipt(false) });
  const marked = keyed(all, step.key, context);
  const [found, ...others] = marked.own;
  const notes = [
    ...foreignNotes(marked.foreign, step.key),
    ...others.map((other) => `milestone #${other.number} also carries the key \`${step.key}\``),
  ];
  if (found !== undefined && milestoneMatches(step, found)) {
    return result({ desired: true, resources: [found.number], notes, receipt: receipt(true) });
  }
  const diff: string[] = [];
  let target = found ?? null;
  if (step.expect?.exists === true) {
    const number = step.expect.milestone?.number;
    // A milestone the planner saw but that does not carry the key yet is adopted (the write adds it).
    if (target === null && number !== undefined) {
      target = all.find((m) => m.number === number) ?? null;
      // Adopted earlier: the key is on it, but it is not Writ's creation, so the key lookup skips it.
      if (
        target !== null &&
        markedKeys(target.description).includes(step.key) &&
        milestoneMatches(step, target)
      )
        return result({ desired: true, resources: [target.number], notes, receipt: receipt(true) });
    }
    if (target === null) diff.push(`expected the milestone keyed \`${step.key}\` to exist; none does`);
    else diff.push(...milestoneDiff('the milestone', step.expect.milestone, target));
  } else if (step.expect?.exists === false && target !== null) {
    diff.push(`expected no milestone keyed \`${step.key}\`; found #${target.number}`);
  }
  if (target !== null) {
    // Never overwrite another key's marker: a milestone that carries one is some other step's.
    const others = markedKeys(target.description).filter((other) => other !== step.key);
    if (others.length > 0)
      diff.push(
        `milestone #${target.number} carries the key \`${escapeInline(others[0] ?? '', 80)}\` of another step; it is not rewritten`,
      );
  }
  if (target === null) {
    const taken = all.find((m) => m.title === step.title);
    if (taken !== undefined)
      diff.push(
        `milestone #${taken.number} already has the title “${escapeInline(step.title, 80)}” but not the key`,
      );
  }
  const preState = {
    milestone: milestoneFields(target),
    title_taken: target === null ? (all.find((m) => m.title === step.title)?.number ?? null) : null,
  };
  const write = milestoneUpsertWrite(github, context, step, target);
  return result({
    diff,
    write,
    notes,
    resources: target === null ? [] : [target.number],
    preState,
    receipt: receipt(target !== null),
  });
}

async function assessMilestoneEdit(
  github: GitHubClient,
  context: ReadScope,
  step: MilestoneEditStep,
): Promise<Assessment> {
  const resolved = await resolveMilestone(context, step.milestone);
  if (resolved.number === null) return result({ diff: [resolved.why ?? 'the milestone is unknown'] });
  const number = resolved.number;
  const current = await context.reader.milestone(number);
  if (current === null) return result({ diff: [`milestone #${number} does not exist`] });
  // A managed milestone keeps its key marker through a description edit.
  const managed = 'key' in step.milestone ? keyMarker(step.milestone.key) : null;
  const description =
    step.set.description === undefined
      ? undefined
      : managed === null
        ? step.set.description
        : withMarker(step.set.description, managed);
  const matches = (milestone: MilestoneRecord): boolean =>
    (step.set.title === undefined || milestone.title === step.set.title) &&
    (step.set.state === undefined || milestone.state === step.set.state) &&
    (step.set.due_on === undefined || sameInstant(milestone.due_on, step.set.due_on)) &&
    (description === undefined || milestone.description === description);
  if (matches(current)) return result({ desired: true, resources: [number] });
  // Never overwrite another key's marker: a new description would drop the keys it carries now.
  const dropped =
    description === undefined
      ? []
      : markedKeys(current.description).filter((key) => !markedKeys(description).includes(key));
  if (dropped.length > 0)
    return result({
      diff: [
        `milestone #${number} carries the key \`${escapeInline(dropped[0] ?? '', 80)}\`, which this description would remove; name it by that key`,
      ],
      resources: [number],
    });
  const write: PlannedWrite = {
    describe: 'PATCH /repos/{owner}/{repo}/milestones/{milestone_number}',
    create: false,
    send: async () => {
      const response = await github.rest.issues.updateMilestone({
        owner: context.owner,
        repo: context.repo,
        milestone_number: number,
        ...(step.set.title === undefined ? {} : { title: step.set.title }),
        ...(step.set.state === undefined ? {} : { state: step.set.state }),
        ...(step.set.due_on === undefined ? {} : { due_on: step.set.due_on as string }),
        ...(description === undefined ? {} : { description }),
      });
      return { status: response.status, resource: number };
    },
    verify: async (_resource, reader = context.rest) => {
      const now = await reader.milestone(number);
      return now !== null && matches(now);
    },
    postReads: () => ({ issues: [], milestones: [number] }),
  };
  return result({
    diff: milestoneDiff(`milestone #${number}`, step.expect, current),
    write,
    resources: [number],
    preState: { milestone: milestoneFields(current) },
  });
}

async function assessSetMilestone(
  github: GitHubClient,
  context: ReadScope,
  step: IssueSetMilestoneStep,
): Promise<Assessment> {
  const issue = await context.reader.issue(step.issue);
  if (issue === null) return result({ diff: [`issue #${step.issue} does not exist`] });
  const resolved =
    step.milestone === null ? { number: null, why: null } : await resolveMilestone(context, step.milestone);
  if (step.milestone !== null && resolved.number === null)
    return result({ diff: [resolved.why ?? 'the target milestone is unknown'] });
  const target = resolved.number;
  const currentNumber = issue.milestone?.number ?? null;
  if (currentNumber === target) return result({ desired: true, resources: [step.issue] });
  const expect = step.expect ?? {};
  const diff: string[] = [];
  if (expect.milestone !== undefined && expect.milestone !== currentNumber)
    diff.push(
      `issue #${step.issue}: expected ${expect.milestone === null ? 'no milestone' : `milestone #${expect.milestone}`}, found ${currentNumber === null ? 'none' : `#${currentNumber}`}`,
    );
  if (expect.state !== undefined && expect.state !== issue.state)
    diff.push(`issue #${step.issue}: expected ${expect.state}, found ${escapeInline(issue.state, 20)}`);
  if (expect.labels !== undefined && !sameLabels(expect.labels, labelNames(issue)))
    diff.push(
      `issue #${step.issue}: expected labels ${shownLabels(expect.labels)}, found ${shownLabels(labelNames(issue))}`,
    );
  diff.push(...milestoneDiff('the source milestone', expect.source_milestone, issue.milestone));
  let targetFields: Record<string, unknown> | null = null;
  if (expect.target_milestone !== undefined && target !== null) {
    const targetMilestone = await context.reader.milestone(target);
    targetFields = milestoneFields(targetMilestone);
    diff.push(...milestoneDiff('the target milestone', expect.target_milestone, targetMilestone));
  }
  const preState = {
    issue: issueFields(issue),
    source_milestone: milestoneFields(issue.milestone),
    target,
    target_milestone: targetFields,
  };
  const write: PlannedWrite = {
    describe: 'PATCH /repos/{owner}/{repo}/issues/{issue_number} (milestone)',
    create: false,
    send: async () => {
      const response = await github.rest.issues.update({
        owner: context.owner,
        repo: context.repo,
        issue_number: step.issue,
        milestone: target,
      });
      return { status: response.status, resource: step.issue };
    },
    verify: async (_resource, reader = context.rest) =>
      (await reader.issue(step.issue))?.milestone?.number === target,
    postReads: () => ({ issues: [step.issue], milestones: [] }),
  };
  return result({ diff, write, resources: [step.issue], preState });
}

async function assessLabels(
  github: GitHubClient,
  context: ReadScope,
  step: IssueLabelsStep,
): Promise<Assessment> {
  const issue = await context.reader.issue(step.issue);
  if (issue === null) return result({ diff: [`issue #${step.issue} does not exist`] });
  const add = step.add ?? [];
  const remove = new Set((step.remove ?? []).map((name) => name.toLowerCase()));
  const isDesired = (names: readonly string[]): boolean => {
    const lower = new Set(names.map((name) => name.toLowerCase()));
    return add.every((name) => lower.has(name.toLowerCase())) && ![...remove].some((name) => lower.has(name));
  };
  const current = labelNames(issue);
  if (isDesired(current)) return result({ desired: true, resources: [step.issue] });
  const diff: string[] = [];
  if (step.expect?.labels !== undefined && !sameLabels(step.expect.labels, current))
    diff.push(
      `issue #${step.issue}: expected labels ${shownLabels(step.expect.labels)}, found ${shownLabels(current)}`,
    );
  const kept = current.filter((name) => !remove.has(name.toLowerCase()));
  const next = [...kept, ...add.filter((name) => !kept.some((k) => k.toLowerCase() === name.toLowerCase()))];
  const write: PlannedWrite = {
    describe: 'PATCH /repos/{owner}/{repo}/issues/{issue_number} (labels)',
    create: false,
    send: async () => {
      const response = await github.rest.issues.update({
        owner: context.owner,
        repo: context.repo,
        issue_number: step.issue,
        labels: next,
      });
      return { status: response.status, resource: step.issue };
    },
    verify: async (_resource, reader = context.rest) => {
      const now = await reader.issue(step.issue);
      return now !== null && isDesired(labelNames(now));
    },
    postReads: () => ({ issues: [step.issue], milestones: [] }),
  };
  return result({ diff, write, resources: [step.issue], preState: { issue: issueFields(issue) } });
}

/** The non-load-bearing label of a create: `idem-` and the key's first 16 hex digits. */
export function idemLabel(key: string): string {
  return `idem-${key.slice('sha256:'.length, 'sha256:'.length + 16)}`;
}

/** The created body: the planner's text, a visible provenance line, then the hidden marker. */
export function createdBody(step: IssueCreateStep, runId: string, key: string): string {
  const provenance = `<sub>Created by Writ: run \`${runId}\`, step \`${step.id}\`, key \`${key.slice(0, 23)}…\`.</sub>`;
  return withMarker(withMarker(step.body ?? '', provenance), idempotencyMarker(key));
}

function precheckOutcome(found: PrecheckResult): Pick<Assessment, 'notes' | 'inconclusive'> {
  const notes = (found.status === 'inconclusive' ? [] : (found.foreign ?? [])).map(
    (item) =>
      `#${item.number ?? item.id} carries this step's marker but was not written by Writ (${escapeInline(item.user?.login ?? 'a deleted account', 40)}): ignored`,
  );
  return { notes, inconclusive: found.status === 'inconclusive' ? found.reason : null };
}

/**
 * Items Writ created for a marker: the oldest, its later duplicates, and what to report. `acrossRuns`:
 * the whole listing from its first page (a repository-scoped key), else only what was created since
 * the run's claim (less a skew).
 */
async function findCreated(
  github: GitHubClient,
  context: ReadScope,
  marker: string,
  acrossRuns: boolean,
): Promise<{ found: PrecheckResult; oldest: ListedItem | null }> {
  const since = acrossRuns ? undefined : sinceBefore(context.createdAfter);
  const found = await findOwnMarked(issuePages(github, context.owner, context.repo, since), {
    marker,
    ownLogin: context.ownLogin,
    maxPages: context.pageCap,
  });
  return { found, oldest: found.status === 'exists' ? found.item : null };
}

async function assessCreate(
  github: GitHubClient,
  context: ReadScope,
  step: IssueCreateStep,
): Promise<Assessment> {
  const scope = context.keyScope ?? 'repository';
  const key = createKey(step, keyScopeOf(scope, context.runId));
  const receipt = (found: boolean): ReceiptKey => ({ key, scope, found });
  const marker = idempotencyMarker(key);
  const body = createdBody(step, context.runId, key);
  const labels = step.labels ?? [];
  let milestone: number | null = null;
  if (step.milestone !== undefined) {
    const resolved = await resolveMilestone(context, step.milestone);
    if (resolved.number === null) return result({ diff: [resolved.why ?? 'the milestone is unknown'] });
    milestone = resolved.number;
  }
  const wantedMilestone = milestone;
  // Labels and a milestone dropped on create (a caller without push access) leave the state undesired.
  const isDesired = (issue: IssueRecord | null): boolean =>
    issue !== null &&
    hasMarker(issue.body, marker) &&
    labels.every((name) => labelNames(issue).some((has) => has.toLowerCase() === name.toLowerCase())) &&
    (wantedMilestone === null || issue.milestone?.number === wantedMilestone);
  let notes: string[] = [];
  // A repository-scoped key is looked for before every create (an earlier run may have made it); a
  // run-scoped one only for a claimed step (nothing of this run exists before its claim).
  const acrossRuns = scope === 'repository';
  if (context.precheck || acrossRuns) {
    const { found, oldest } = await findCreated(github, context, marker, acrossRuns);
    const reported = precheckOutcome(found);
    if (reported.inconclusive !== null)
      return result({ inconclusive: reported.inconclusive, notes: reported.notes, receipt: receipt(false) });
    notes = reported.notes;
    if (oldest?.number !== undefined && !context.precheck) {
      // A fresh step: an earlier run created it. `exists`: nothing is created; its later copies (an
      // earlier race) are reported, not retired, since this run did not make them.
      const others = found.status === 'exists' ? found.duplicates : [];
      return result({
        desired: true,
        resources: [oldest.number],
        receipt: receipt(true),
        notes: [
          ...notes,
          ...others.map(
            (item) => `#${item.number ?? item.id} also carries this step's key (an earlier race)`,
          ),
        ],
      });
    }
    if (oldest?.number !== undefined) {
      const duplicates =
        found.status === 'exists'
          ? found.duplicates.map((item) => item.number).filter((n): n is number => n !== undefined)
          : [];
      const issue = await context.reader.issue(oldest.number);
      return result({
        desired: isDesired(issue),
        resources: [oldest.number, ...duplicates],
        duplicates,
        notes,
        receipt: receipt(true),
        diff: isDesired(issue)
          ? []
          : [`issue #${oldest.number} was created but lacks its labels or milestone`],
      });
    }
  }
  const write: PlannedWrite = {
    describe: 'POST /repos/{owner}/{repo}/issues',
    create: true,
    send: async () => {
      const response = await github.rest.issues.create({
        owner: context.owner,
        repo: context.repo,
        title: step.title,
        body,
        labels: [...labels, idemLabel(key)],
        ...(milestone === null ? {} : { milestone }),
      });
      return { status: response.status, resource: response.data.number };
    },
    verify: async (resource, reader = context.rest) =>
      resource !== null && isDesired(await reader.issue(resource)),
    postReads: (resource) => ({ issues: resource === null ? [] : [resource], milestones: [] }),
  };
  return result({ write, notes, receipt: receipt(false) });
}

interface CommentRecord {
  id: number;
  body?: string | null;
  user?: Author | null;
}

/** The one write of a `comment.upsert`: post the keyed comment, or rewrite `existing` (Writ's own). */
function commentUpsertWrite(
  github: GitHubClient,
  context: ReadScope,
  step: CommentUpsertStep,
  body: string,
  existing: CommentRecord | null,
): PlannedWrite {
  const verifyId = async (id: number | null): Promise<boolean> => {
    if (id === null) return false;
    const now = await readOrNull(async () => ({
      data: (
        await github.rest.issues.getComment({ owner: context.owner, repo: context.repo, comment_id: id })
      ).data as unknown as CommentRecord,
    }));
    return now?.body === body;
  };
  return existing === null
    ? {
        describe: 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
        create: true,
        send: async () => {
          const response = await github.rest.issues.createComment({
            owner: context.owner,
            repo: context.repo,
            issue_number: step.issue,
            body,
          });
          return { status: response.status, resource: response.data.id };
        },
        verify: verifyId,
        postReads: () => null,
      }
    : {
        describe: 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
        create: false,
        send: async () => {
          const response = await github.rest.issues.updateComment({
            owner: context.owner,
            repo: context.repo,
            comment_id: existing.id,
            body,
          });
          return { status: response.status, resource: existing.id };
        },
        verify: () => verifyId(existing.id),
        postReads: () => null,
      };
}

async function assessComment(
  github: GitHubClient,
  context: ReadScope,
  step: CommentUpsertStep,
): Promise<Assessment> {
  const marker = keyMarker(step.key);
  const body = withMarker(step.body, marker);
  const found = await findOwnMarked(commentPages(github, context.owner, context.repo, step.issue), {
    marker,
    ownLogin: context.ownLogin,
    maxPages: context.pageCap,
  });
  const reported = precheckOutcome(found);
  const receipt = (hit: boolean): ReceiptKey => ({ key: step.key, scope: 'repository', found: hit });
  if (reported.inconclusive !== null)
    return result({ inconclusive: reported.inconclusive, notes: reported.notes, receipt: receipt(false) });
  const notes = [...reported.notes];
  let target: CommentRecord | null = found.status === 'exists' ? found.item : null;
  if (found.status === 'exists')
    notes.push(...found.duplicates.map((d) => `comment ${d.id} also carries the key \`${step.key}\``));
  if (target !== null && target.body === body)
    return result({ desired: true, resources: [target.id], notes, receipt: receipt(true) });
  const diff: string[] = [];
  const expect = step.expect;
  if (expect?.exists === true) {
    if (target === null && expect.comment_id !== undefined) {
      // A comment Writ wrote before it carried the key is adopted; anyone else's is not.
      const candidate = await readOrNull(async () => ({
        data: (
          await github.rest.issues.getComment({
            owner: context.owner,
            repo: context.repo,
            comment_id: expect.comment_id as number,
          })
        ).data as unknown as CommentRecord,
      }));
      if (candidate !== null && isOwnAuthor(candidate.user, context.ownLogin)) target = candidate;
    }
    if (target === null)
      diff.push(`expected the comment keyed \`${step.key}\` on #${step.issue} to exist; none by Writ does`);
    else {
      if (expect.comment_id !== undefined && expect.comment_id !== target.id)
        diff.push(`expected comment ${expect.comment_id}, found ${target.id}`);
      if (expect.body_digest !== undefined && expect.body_digest !== textDigest(target.body))
        diff.push(`comment ${target.id}: its body changed (digest ${textDigest(target.body).slice(0, 19)}…)`);
    }
  } else if (expect?.exists === false && target !== null) {
    diff.push(`expected no comment keyed \`${step.key}\` on #${step.issue}; found ${target.id}`);
  }
  const existing = target;
  const preState = {
    issue: step.issue,
    comment: existing === null ? null : { id: existing.id, body_digest: textDigest(existing.body) },
  };
  const write = commentUpsertWrite(github, context, step, body, existing);
  return result({
    diff,
    write,
    notes,
    resources: existing === null ? [] : [existing.id],
    preState,
    receipt: receipt(existing !== null),
  });
}

/** The REST reader: each issue and milestone read is its own request (the listing, pages of 100). */
export function restReader(github: GitHubClient, context: StepReadContext): StepReader {
  return {
    issue: (number) => getIssue(github, context, number),
    milestone: (number) => getMilestone(github, context, number),
    milestones: () => listMilestones(github, context),
  };
}

/**
 * Pre-reads one step (see the module comment). Read failures are thrown (the caller decides). Its issue
 * and milestone reads go through `reader` (REST unless given: window-read.ts passes a window's
 * snapshot); its write's `verify` reads through REST unless given a reader of its own.
 */
export function assessStep(
  github: GitHubClient,
  readContext: StepReadContext,
  step: WritableStep,
  reader?: StepReader,
): Promise<Assessment> {
  const rest = restReader(github, readContext);
  const context: ReadScope = { ...readContext, reader: reader ?? rest, rest };
  switch (step.kind) {
    case 'milestone.upsert':
      return assessMilestoneUpsert(github, context, step);
    case 'milestone.edit':
      return assessMilestoneEdit(github, context, step);
    case 'issue.set-milestone':
      return assessSetMilestone(github, context, step);
    case 'issue.labels':
      return assessLabels(github, context, step);
    case 'issue.create':
      return assessCreate(github, context, step);
    case 'comment.upsert':
      return assessComment(github, context, step);
  }
}

/**
 * Retires Writ's own later duplicates of a created issue (a genuine concurrent create): each is closed
 * as a duplicate of the oldest, with a comment saying so. Returns the numbers it could not retire.
 */
export async function retireDuplicates(
  github: GitHubClient,
  context: StepReadContext,
  winner: number,
  duplicates: readonly number[],
): Promise<number[]> {
  const failed: number[] = [];
  for (const number of duplicates) {
    try {
      await github.rest.issues.createComment({
        owner: context.owner,
        repo: context.repo,
        issue_number: number,
        body: `Duplicate of #${winner}: two Writ runs created this issue concurrently; the oldest is kept.`,
      });
      await github.rest.issues.update({
        owner: context.owner,
        repo: context.repo,
        issue_number: number,
        state: 'closed',
        state_reason: 'not_planned',
      });
    } catch {
      failed.push(number);
    }
  }
  return failed;
}

/** What a step's pre-read observes or its write changes, as tokens (`milestones`: any milestone). */
function touched(step: WritableStep): string[] {
  switch (step.kind) {
    case 'milestone.upsert':
    case 'milestone.edit':
      return ['milestones'];
    case 'issue.set-milestone':
      return [`issue:${step.issue}`, 'milestones'];
    case 'issue.labels':
      return [`issue:${step.issue}`];
    case 'issue.create':
      return step.milestone === undefined ? [] : ['milestones'];
    case 'comment.upsert':
      return [`comments:${step.issue}`];
  }
}

/** Two milestone upserts of different keys and titles, neither adopting a milestone by number. */
function separateUpserts(a: WritableStep, b: WritableStep): boolean {
  return (
    a.kind === 'milestone.upsert' &&
    b.kind === 'milestone.upsert' &&
    a.key !== b.key &&
    a.title !== b.title &&
    a.expect?.milestone?.number === undefined &&
    b.expect?.milestone?.number === undefined
  );
}

/**
 * Whether `step`'s pre-read could observe what `earlier` writes: then the two are not claimed in one
 * window, because `step`'s pre-state (read before the claim) would not be the state its write meets.
 */
export function readsWriteOf(step: WritableStep, earlier: WritableStep): boolean {
  if (earlier.kind === 'issue.create' || separateUpserts(step, earlier)) return false;
  const reads = new Set(touched(step));
  return touched(earlier).some((token) => reads.has(token));
}
