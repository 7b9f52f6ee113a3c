/**
 * The run's one Projects (v2) item, kept up to date with the run (operations spec §13): an optional,
 * write-only projection. Writ never reads a field value as input (it reads the current values only to
 * send nothing when they already match), a project edit authorizes nothing and counts as no evidence,
 * and a missing project, a token without project access or any failure here changes nothing else: it is
 * logged as a warning with a stable code and the caller goes on.
 *
 * - Identity: one draft issue per run, found by listing the project's items (bounded pages, through
 *   `findOwnMarked`): only an item Writ's own app created whose body carries the run's marker
 *   (`projectItemMarker`) is adopted; the same marker on anyone else's item is ignored and never
 *   overwritten. A listing that cannot be finished creates nothing.
 * - Writes (GraphQL, through the one client, each sent once): `addProjectV2DraftIssue` when no item
 *   exists, then one `updateProjectV2ItemFieldValue` per field whose value differs; an exact replay
 *   sends no mutation. A create whose outcome is unknown (no answer, a 5xx) is never sent again here:
 *   the next follow lists first and adopts the item if it landed.
 * - Fields are matched by name (values.ts `DEFAULT_FIELD_NAMES`), TEXT or SINGLE_SELECT
 *   only (GitHub's built-in Status and Milestone fields cannot be written as text); a missing field or
 *   option is skipped with a warning.
 *
 * GitHub's GraphQL reference for what is sent: ProjectV2, ProjectV2Item, DraftIssue,
 * addProjectV2DraftIssue, updateProjectV2ItemFieldValue (https://docs.github.com/en/graphql/reference,
 * held to @octokit/graphql-schema by the emulator). An app's token reaches only organization projects,
 * with "Organization permissions → Projects" (`organization_projects`):
 * https://docs.github.com/en/issues/planning-and-tracking-with-projects/automating-your-project/using-the-api-to-manage-projects
 */
import type { ErrorCode } from '../errors.js';
import { errorMessage, httpStatus } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import { writeOutcome } from '../github/commit-on-branch.js';
import { projectItemMarker, withMarker } from '../idempotency/key.js';
import type { ListedItem, ListedPage } from '../idempotency/precheck.js';
import { findOwnMarked, graphqlAuthor } from '../idempotency/precheck.js';
import type { RunFile } from '../ledger/types.js';
import type { Logger } from '../redact.js';
import { escapeUntrusted } from '../untrusted-text.js';
import { DEFAULT_FIELD_NAMES, PROJECT_VALUE_KEYS, projectValues } from './values.js';

/** The project to keep the run's item on (`.writ/config.json` `project`, the stages' `project` input). */
export interface ProjectTarget {
  /** The login of the organization (or user) that owns the project. */
  owner: string;
  number: number;
}

export interface ProjectDeps {
  github: GitHubClient;
  logger: Logger;
}

export interface ProjectRequest {
  target: ProjectTarget;
  run: RunFile;
  /** Writ's own login (`<app-slug>[bot]`). */
  ownLogin: string;
}

export type ProjectOutcome =
  | { kind: 'created' | 'updated' | 'unchanged'; itemId: string; mutations: number }
  | { kind: 'skipped'; code: ErrorCode; mutations: number };

/** Items read per page, and pages read at most (500 items) before the listing is inconclusive. */
const PAGE_SIZE = 50;
const MAX_PAGES = 10;

const ITEM_TEXT =
  "Writ keeps this item up to date from the run's ledger record. It is a view only: editing it changes nothing in the run, approves nothing and is not evidence.";

function readDocument(kind: 'organization' | 'user'): string {
  return `query WritProjectItems($owner: String!, $number: Int!, $after: String) {
  ${kind}(login: $owner) {
    projectV2(number: $number) {
      id
      closed
      fields(first: 50) {
        nodes {
          __typename
          ... on ProjectV2Field { id name dataType }
          ... on ProjectV2SingleSelectField { id name dataType options { id name } }
        }
      }
      items(first: ${PAGE_SIZE}, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id
          databaseId
          createdAt
          creator { __typename login ... on Bot { databaseId } }
          content { __typename ... on DraftIssue { body } }
          fieldValues(first: 50) {
            nodes {
              __typename
              ... on ProjectV2ItemFieldTextValue { text field { ... on ProjectV2Field { id } } }
              ... on ProjectV2ItemFieldSingleSelectValue {
                optionId
                field { ... on ProjectV2SingleSelectField { id } }
              }
            }
          }
        }
      }
    }
  }
}`;
}

const ADD_ITEM = `mutation WritProjectAddItem($input: AddProjectV2DraftIssueInput!) {
  addProjectV2DraftIssue(input: $input) { projectItem { id } }
}`;

const SET_FIELD = `mutation WritProjectSetField($input: UpdateProjectV2ItemFieldValueInput!) {
  updateProjectV2ItemFieldValue(input: $input) { projectV2Item { id } }
}`;

type Json = Record<string, unknown>;

function json(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Whose login the project's owner is: an organization's, a user's, or nobody's GitHub shows. */
export type ProjectOwnerKind = 'organization' | 'user' | 'none';

/**
 * A failure of this projection: its code and a line for the log (no GitHub text unescaped). `owner`
 * says under which account kind the read failed, when it was the project read (doctor tells a missing
 * project of an organization from a login that is a user's or nobody's).
 */
export class ProjectFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly owner?: ProjectOwnerKind,
  ) {
    super(message);
  }
}

export interface ProjectField {
  id: string;
  name: string;
  dataType: string;
  options: { id: string; name: string }[];
}
type Field = ProjectField;

interface Item extends ListedItem {
  nodeId: string;
  /** Field id → the current text or option id. */
  values: Map<string, string>;
}

/** The project as its first page reads it: whose it is, whether it is closed, and its fields. */
export interface Project {
  id: string;
  owner: 'organization' | 'user';
  closed: boolean;
  fields: Field[];
}

/** One GraphQL request through the one client; GraphQL errors come back in `errors`, unthrown. */
async function graphql(
  github: GitHubClient,
  query: string,
  variables: Record<string, unknown>,
): Promise<{ data: Json | null; errors: Json[] }> {
  const response = await github.request('POST /graphql', { query, variables });
  const body = json(response.data) ?? {};
  return { data: json(body.data), errors: list(body.errors).map((error) => json(error) ?? {}) };
}

/** GitHub's error types as this projection's codes. */
function failureOf(errors: Json[], what: string): ProjectFailure {
  const types = errors.map((error) => text(error.type) ?? 'error');
  const shown = types.map((type) => (/^[A-Z_]{1,40}$/.test(type) ? type : 'error')).join(', ');
  const code: ErrorCode = types.includes('FORBIDDEN')
    ? 'project-access-denied'
    : types.includes('NOT_FOUND')
      ? 'project-not-found'
      : 'project-unavailable';
  return new ProjectFailure(code, `${what} answered ${shown}`);
}

function fieldsOf(project: Json): Field[] {
  return list(json(project.fields)?.nodes).flatMap((value) => {
    const node = json(value);
    const id = text(node?.id);
    const name = text(node?.name);
    if (node === null || id === null || name === null) return [];
    const options = list(node.options).flatMap((option) => {
      const entry = json(option);
      const optionId = text(entry?.id);
      const optionName = text(entry?.name);
      return optionId === null || optionName === null ? [] : [{ id: optionId, name: optionName }];
    });
    return [{ id, name, dataType: text(node.dataType) ?? '', options }];
  });
}

function itemOf(value: unknown): Item | null {
  const node = json(value);
  const nodeId = text(node?.id);
  const databaseId = node?.databaseId;
  if (node === null || nodeId === null || typeof databaseId !== 'number') return null;
  const values = new Map<string, string>();
  for (const entry of list(json(node.fieldValues)?.nodes)) {
    const fieldValue = json(entry);
    const fieldId = text(json(fieldValue?.field)?.id);
    const current = text(fieldValue?.text) ?? text(fieldValue?.optionId);
    if (fieldId !== null && current !== null) values.set(fieldId, current);
  }
  return {
    id: databaseId,
    nodeId,
    created_at: text(node.createdAt) ?? '',
    body: text(json(node.content)?.body),
    user: graphqlAuthor(node.creator),
    values,
  };
}

interface ProjectPage {
  project: Project;
  items: Item[];
  hasNext: boolean;
  after: string | null;
}

/**
 * One page of the project (the one query this projection reads with): as an organization's, else, when
 * GitHub has no organization of that login, as a user's. A failure carries the owner kind it failed under.
 */
async function readProjectPage(
  github: GitHubClient,
  target: ProjectTarget,
  kind: 'organization' | 'user',
  after: string | null,
): Promise<ProjectPage> {
  for (;;) {
    const answer = await graphql(github, readDocument(kind), {
      owner: target.owner,
      number: target.number,
      after,
    });
    const owner = json(answer.data?.[kind]);
    // No account of that kind with that login (the error is on the root field).
    const ownerMissing = answer.errors.some(
      (error) => error.type === 'NOT_FOUND' && list(error.path).length === 1,
    );
    // No organization of that login: the owner may be a user (whose project no app token reaches).
    if (owner === null && ownerMissing && kind === 'organization') {
      kind = 'user';
      continue;
    }
    const node = json(owner?.projectV2);
    const id = text(node?.id);
    if (node === null || id === null) {
      const failure = failureOf(answer.errors, `project ${describe(target)}`);
      throw new ProjectFailure(failure.code, failure.message, owner === null && ownerMissing ? 'none' : kind);
    }
    const items = json(node.items);
    const pageInfo = json(items?.pageInfo);
    const next = text(pageInfo?.endCursor);
    return {
      project: { id, owner: kind, closed: node.closed === true, fields: fieldsOf(node) },
      items: list(items?.nodes).flatMap((entry) => {
        const item = itemOf(entry);
        return item === null ? [] : [item];
      }),
      hasNext: pageInfo?.hasNextPage === true && next !== null,
      after: next,
    };
  }
}

/**
 * The project named by `target`, as this token sees it (doctor's `project-board` check reads it with the
 * same query the projection uses). Throws a `ProjectFailure` (its code, and the owner kind it failed
 * under) when GitHub answers an error, and the client's error when the request itself fails.
 */
export async function readProject(github: GitHubClient, target: ProjectTarget): Promise<Project> {
  return (await readProjectPage(github, target, 'organization', null)).project;
}

/**
 * Reads the project (an organization's, else a user's) and looks for the run's item among Writ's own.
 * The listing is paged through `findOwnMarked`, which reads the pages in order.
 */
async function findItem(
  github: GitHubClient,
  target: ProjectTarget,
  marker: string,
  ownLogin: string,
): Promise<{ project: Project; item: Item | null; foreign: number }> {
  let kind: 'organization' | 'user' = 'organization';
  /** What the pages read so far found (a holder: the page reader is a closure). */
  const seen: { project: Project | null; failure: ProjectFailure | null } = { project: null, failure: null };
  let after: string | null = null;
  const readPage = async (): Promise<ListedPage> => {
    const page = await readProjectPage(github, target, kind, after);
    kind = page.project.owner;
    after = page.after;
    seen.project ??= page.project;
    return { items: page.items, hasNext: page.hasNext };
  };
  const remembered = async (): Promise<ListedPage> => {
    try {
      return await readPage();
    } catch (error: unknown) {
      seen.failure =
        error instanceof ProjectFailure
          ? error
          : new ProjectFailure(
              'project-unavailable',
              `reading the project failed: ${escapeUntrusted(errorMessage(error), 200)}`,
            );
      throw seen.failure;
    }
  };
  const found = await findOwnMarked(remembered, { marker, ownLogin, maxPages: MAX_PAGES });
  if (seen.failure !== null) throw seen.failure;
  const project = seen.project;
  if (found.status === 'inconclusive' || project === null) {
    throw new ProjectFailure('project-item-inconclusive', `the project's items were not all read`);
  }
  const foreign = found.foreign?.length ?? 0;
  return { project, item: found.status === 'exists' ? (found.item as Item) : null, foreign };
}

function describe(target: ProjectTarget): string {
  return `${escapeUntrusted(target.owner, 39)}/${target.number}`;
}

/** Sends one mutation once; an unknown outcome and a refusal are failures with their codes. */
async function mutate(github: GitHubClient, query: string, input: Json, what: string): Promise<Json> {
  let answer;
  try {
    answer = await graphql(github, query, { input });
  } catch (error: unknown) {
    const outcome = writeOutcome(error) === 'unknown' ? 'its outcome is unknown' : 'it was refused';
    const status = httpStatus(error);
    throw new ProjectFailure(
      status === 403 ? 'project-access-denied' : 'project-unavailable',
      `${what}: ${outcome} (${status === undefined ? 'no response' : `HTTP ${status}`}); nothing is sent again now, the next follow reads the project first`,
    );
  }
  if (answer.errors.length > 0 || answer.data === null) throw failureOf(answer.errors, what);
  return answer.data;
}

/**
 * Brings the run's project item up to date: finds it (or creates it), then sets each field whose value
 * differs. Never throws: a failure is logged as a warning with its code and returned as `skipped`.
 */
export async function syncProjectItem(deps: ProjectDeps, request: ProjectRequest): Promise<ProjectOutcome> {
  const { github, logger } = deps;
  const { target, run } = request;
  let mutations = 0;
  try {
    const marker = projectItemMarker(run.run_id);
    const { project, item: existing, foreign } = await findItem(github, target, marker, request.ownLogin);
    if (foreign > 0) {
      logger.warning(
        `project ${describe(target)}: ${foreign} item(s) not created by Writ carry run ${run.run_id}'s marker; ignored, never adopted`,
      );
    }
    let item = existing;
    let created = false;
    if (item === null) {
      mutations += 1;
      const data = await mutate(
        github,
        ADD_ITEM,
        { projectId: project.id, title: `Writ run ${run.run_id}`, body: withMarker(ITEM_TEXT, marker) },
        `creating run ${run.run_id}'s project item`,
      );
      const id = text(json(json(data.addProjectV2DraftIssue)?.projectItem)?.id);
      if (id === null) throw new ProjectFailure('project-unavailable', 'the item create answered no item');
      item = { id: 0, nodeId: id, created_at: '', values: new Map() };
      created = true;
    }
    const values = projectValues(run);
    const names = DEFAULT_FIELD_NAMES;
    const missing: string[] = [];
    for (const key of PROJECT_VALUE_KEYS) {
      const field = project.fields.find(
        (candidate) =>
          candidate.name === names[key] &&
          (candidate.dataType === 'TEXT' || candidate.dataType === 'SINGLE_SELECT'),
      );
      if (field === undefined) {
        missing.push(names[key]);
        continue;
      }
      let value: Json;
      let wanted: string;
      if (field.dataType === 'TEXT') {
        wanted = values[key];
        value = { text: wanted };
      } else {
        const option = field.options.find((candidate) => candidate.name === values[key]);
        if (option === undefined) {
          logger.warning(
            `project-option-missing: project ${describe(target)} field ${escapeUntrusted(field.name, 60)} has no option ${values[key]}; not shown`,
          );
          continue;
        }
        wanted = option.id;
        value = { singleSelectOptionId: wanted };
      }
      if (item.values.get(field.id) === wanted) continue;
      mutations += 1;
      await mutate(
        github,
        SET_FIELD,
        { projectId: project.id, itemId: item.nodeId, fieldId: field.id, value },
        `setting ${key} on run ${run.run_id}'s project item`,
      );
    }
    if (missing.length > 0) {
      logger.warning(
        `project-field-missing: project ${describe(target)} has no text or single-select field ${missing.map((name) => escapeUntrusted(name, 60)).join(', ')}; those values are not shown`,
      );
    }
    const kind = created ? 'created' : mutations > 0 ? 'updated' : 'unchanged';
    return { kind, itemId: item.nodeId, mutations };
  } catch (error: unknown) {
    const failure =
      error instanceof ProjectFailure
        ? error
        : new ProjectFailure(
            'project-unavailable',
            `unexpected failure: ${escapeUntrusted(errorMessage(error), 200)}`,
          );
    logger.warning(
      `${failure.code}: run ${run.run_id}'s project item (project ${describe(target)}) not updated: ${failure.message}. The run is unchanged; the projection is presentation only.`,
    );
    return { kind: 'skipped', code: failure.code, mutations };
  }
}
