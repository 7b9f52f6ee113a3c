/**
 * Projects (v2) as Writ's optional projection uses them: a project owned by an organization or a user
 * account (`organization(login:){projectV2(number:)}`, `user(login:){projectV2(number:)}`), its fields
 * (GitHub's built-in Title, Status and Milestone, and custom TEXT and SINGLE_SELECT ones), its items
 * (draft issues: title, body, creator) and their field values, and the mutations
 * `addProjectV2DraftIssue`, `updateProjectV2DraftIssue`, `updateProjectV2ItemFieldValue` and
 * `deleteProjectV2Item`. graphql.ts executes every document against GitHub's schema and calls these
 * resolvers; the admin routes create and delete projects, edit a value as a human and plant an item.
 *
 * Access, as GitHub grants it:
 *  - an organization's project: an installation token needs the `organization_projects` permission
 *    (read to query, write to mutate), else FORBIDDEN "Resource not accessible by integration"; a
 *    personal access token acts as its user, who must be a member of the organization (projects here
 *    are private: a non-member is answered NOT_FOUND), and a fine-grained one also needs the permission;
 *  - a user's project: only that user's own personal access token. A GitHub App has no permission that
 *    reaches a user-owned project ("Organization permissions → Projects" is the only Projects v2
 *    permission of an app; user-owned projects need a classic PAT with the `project` scope:
 *    https://github.github.io/gh-aw/reference/auth-projects and the app permission list,
 *    https://docs.github.com/en/rest/authentication/permissions-required-for-github-apps), so an
 *    installation token or the workflow's GITHUB_TOKEN is answered NOT_FOUND for it [UNCONFIRMED:
 *    the exact message].
 */
import { AdminError } from './admin.js';
import type { Account, ProjectField, ProjectItem, ProjectV2, Token, World } from './state.js';
import { nodeId } from './state.js';

export interface ProjectsContext {
  world: World;
  token: Token | null;
  base: string;
}

/**
 * What graphql.ts lends these resolvers: its typed error, its `Actor` node (a Bot's GraphQL login is
 * the app's slug, without REST's `[bot]`) and its connection paging.
 */
export interface ProjectsHelpers {
  typedError: (type: string, message: string) => Error;
  actorNode: (ctx: ProjectsContext, account: Account) => Record<string, unknown>;
  connection: (
    items: unknown[],
    args: { first?: number | null; after?: string | null; last?: number | null },
    cursorFor: (index: number) => string,
    decode: (cursor: string) => number,
  ) => Record<string, unknown>;
}

type Level = 'read' | 'write';

/** Whether the caller may `level` the project: 'ok', or the error GitHub answers instead. */
function access(ctx: ProjectsContext, project: ProjectV2, level: Level): 'ok' | 'not-found' | 'forbidden' {
  const token = ctx.token;
  if (token === null) return 'not-found';
  if (project.owner.type === 'Organization') {
    if (token.kind === 'pat') {
      if (ctx.world.orgRole(project.owner, token.account) === null) return 'not-found';
      if (token.permissions === null) return 'ok';
      const granted = token.permissions.organization_projects;
      return granted === 'write' || granted === 'admin' || (granted === 'read' && level === 'read')
        ? 'ok'
        : 'forbidden';
    }
    const granted = (token.permissions ?? {}).organization_projects;
    if (granted === 'write' || granted === 'admin') return 'ok';
    return granted === 'read' && level === 'read' ? 'ok' : 'forbidden';
  }
  return token.kind === 'pat' && token.account.id === project.owner.id ? 'ok' : 'not-found';
}

function forbiddenMessage(ctx: ProjectsContext): string {
  return ctx.token?.kind === 'pat'
    ? 'Resource not accessible by personal access token'
    : 'Resource not accessible by integration';
}

function optionId(id: number): string {
  return id.toString(16).padStart(8, '0');
}

function fieldNode(ctx: ProjectsContext, h: ProjectsHelpers, project: ProjectV2, field: ProjectField) {
  const common = {
    id: field.id,
    databaseId: field.databaseId,
    name: field.name,
    dataType: field.dataType,
    createdAt: field.created_at,
    updatedAt: field.created_at,
    project: () => projectNode(ctx, h, project),
  };
  if (field.dataType !== 'SINGLE_SELECT') return { __typename: 'ProjectV2Field', ...common };
  return {
    __typename: 'ProjectV2SingleSelectField',
    ...common,
    options: (args: { names?: string[] | null }) =>
      field.options
        .filter((option) => args.names == null || args.names.includes(option.name))
        .map((option) => ({
          id: option.id,
          name: option.name,
          nameHTML: option.name,
          color: 'GRAY',
          description: '',
          descriptionHTML: '',
        })),
  };
}

function valueNodes(
  ctx: ProjectsContext,
  h: ProjectsHelpers,
  project: ProjectV2,
  item: ProjectItem,
): unknown[] {
  const nodes: unknown[] = [];
  for (const field of project.fields) {
    const common = {
      id: nodeId('PVTFV', `${item.databaseId}:${field.databaseId}`),
      databaseId: null,
      field: fieldNode(ctx, h, project, field),
      item: () => itemNode(ctx, h, project, item),
    };
    if (field.dataType === 'TITLE') {
      nodes.push({
        __typename: 'ProjectV2ItemFieldTextValue',
        ...common,
        text: item.draft.title,
        creator: h.actorNode(ctx, item.draft.creator),
        createdAt: item.draft.created_at,
        updatedAt: item.draft.updated_at,
      });
      continue;
    }
    const value = item.values.get(field.id);
    if (value === undefined) continue;
    const stamp = {
      creator: h.actorNode(ctx, value.creator),
      createdAt: value.updated_at,
      updatedAt: value.updated_at,
    };
    if (field.dataType === 'TEXT') {
      nodes.push({ __typename: 'ProjectV2ItemFieldTextValue', ...common, ...stamp, text: value.text ?? '' });
    } else if (field.dataType === 'SINGLE_SELECT') {
      const option = field.options.find((candidate) => candidate.id === value.optionId);
      if (option === undefined) continue;
      nodes.push({
        __typename: 'ProjectV2ItemFieldSingleSelectValue',
        ...common,
        ...stamp,
        optionId: option.id,
        name: option.name,
        nameHTML: option.name,
        color: 'GRAY',
        description: '',
        descriptionHTML: '',
      });
    }
  }
  return nodes;
}

function draftNode(ctx: ProjectsContext, h: ProjectsHelpers, item: ProjectItem): Record<string, unknown> {
  return {
    __typename: 'DraftIssue',
    id: item.draft.id,
    title: item.draft.title,
    body: item.draft.body,
    bodyText: item.draft.body,
    creator: h.actorNode(ctx, item.draft.creator),
    createdAt: item.draft.created_at,
    updatedAt: item.draft.updated_at,
  };
}

function itemNode(
  ctx: ProjectsContext,
  h: ProjectsHelpers,
  project: ProjectV2,
  item: ProjectItem,
): Record<string, unknown> {
  return {
    __typename: 'ProjectV2Item',
    id: item.id,
    databaseId: item.databaseId,
    fullDatabaseId: String(item.databaseId),
    type: 'DRAFT_ISSUE',
    isArchived: false,
    createdAt: item.created_at,
    updatedAt: item.updated_at,
    creator: h.actorNode(ctx, item.creator),
    content: draftNode(ctx, h, item),
    project: () => projectNode(ctx, h, project),
    fieldValues: (args: { first?: number; after?: string; last?: number }) =>
      h.connection(valueNodes(ctx, h, project, item), args, cursor, decodeCursor(h)),
    fieldValueByName: ({ name }: { name: string }) =>
      (valueNodes(ctx, h, project, item) as { field: { name: string } }[]).find(
        (value) => value.field.name === name,
      ) ?? null,
  };
}

function cursor(index: number): string {
  return Buffer.from(`cursor:v2:${index}`).toString('base64');
}

function decodeCursor(h: ProjectsHelpers): (text: string) => number {
  return (text) => {
    const match = /^cursor:v2:(\d+)$/.exec(Buffer.from(text, 'base64').toString('utf8'));
    if (match === null) {
      throw h.typedError('INVALID_CURSOR_ARGUMENTS', `\`${text}\` does not appear to be a valid cursor.`);
    }
    return Number(match[1]);
  };
}

function projectNode(ctx: ProjectsContext, h: ProjectsHelpers, project: ProjectV2): Record<string, unknown> {
  const path = `/${project.owner.type === 'Organization' ? 'orgs' : 'users'}/${project.owner.login}/projects/${project.number}`;
  return {
    __typename: 'ProjectV2',
    id: project.id,
    databaseId: project.databaseId,
    fullDatabaseId: String(project.databaseId),
    number: project.number,
    title: project.title,
    closed: project.closed,
    closedAt: null,
    public: false,
    template: false,
    shortDescription: null,
    readme: null,
    createdAt: project.created_at,
    updatedAt: project.updated_at,
    resourcePath: path,
    url: `${ctx.base}${path}`,
    creator: null,
    owner: () => ({ ...h.actorNode(ctx, project.owner) }),
    viewerCanUpdate: access(ctx, project, 'write') === 'ok',
    fields: (args: { first?: number; after?: string; last?: number }) =>
      h.connection(
        project.fields.map((field) => fieldNode(ctx, h, project, field)),
        args,
        cursor,
        decodeCursor(h),
      ),
    field: ({ name }: { name: string }) => {
      const field = project.fields.find((candidate) => candidate.name === name);
      return field === undefined ? null : fieldNode(ctx, h, project, field);
    },
    items: (args: { first?: number; after?: string; last?: number }) =>
      h.connection(
        project.items.map((item) => itemNode(ctx, h, project, item)),
        args,
        cursor,
        decodeCursor(h),
      ),
  };
}

/** The project `number` of `owner`, as the caller may see it; GitHub's NOT_FOUND or FORBIDDEN otherwise. */
function projectOf(ctx: ProjectsContext, h: ProjectsHelpers, owner: Account, number: number) {
  const project = ctx.world.projects.find(
    (candidate) => candidate.owner.id === owner.id && candidate.number === number,
  );
  const verdict = project === undefined ? 'not-found' : access(ctx, project, 'read');
  if (verdict === 'forbidden') throw h.typedError('FORBIDDEN', forbiddenMessage(ctx));
  if (verdict === 'not-found' || project === undefined) {
    throw h.typedError('NOT_FOUND', `Could not resolve to a ProjectV2 with the number ${number}.`);
  }
  return projectNode(ctx, h, project);
}

function ownerNode(ctx: ProjectsContext, h: ProjectsHelpers, account: Account): Record<string, unknown> {
  return {
    ...h.actorNode(ctx, account),
    projectV2: ({ number }: { number: number }) => projectOf(ctx, h, account, number),
  };
}

/** A project the caller may write, by its node ID; GitHub's errors otherwise. */
function writableProject(ctx: ProjectsContext, h: ProjectsHelpers, id: string): ProjectV2 {
  const project = ctx.world.projects.find((candidate) => candidate.id === id);
  const verdict = project === undefined ? 'not-found' : access(ctx, project, 'write');
  if (verdict === 'forbidden') throw h.typedError('FORBIDDEN', forbiddenMessage(ctx));
  if (verdict === 'not-found' || project === undefined) {
    throw h.typedError('NOT_FOUND', `Could not resolve to a node with the global id of '${id}'`);
  }
  return project;
}

function itemOf(h: ProjectsHelpers, project: ProjectV2, id: string): ProjectItem {
  const item = project.items.find((candidate) => candidate.id === id);
  if (item === undefined) {
    throw h.typedError('NOT_FOUND', `Could not resolve to a node with the global id of '${id}'`);
  }
  return item;
}

function newItem(world: World, creator: Account, title: string, body: string): ProjectItem {
  const id = world.id();
  const now = world.now();
  return {
    id: nodeId('PVTI', id),
    databaseId: id,
    creator,
    created_at: now,
    updated_at: now,
    draft: { id: nodeId('DI', id), title, body, creator, created_at: now, updated_at: now },
    values: new Map(),
  };
}

interface MutationInput {
  clientMutationId?: string | null;
}

/** The root fields graphql.ts adds: the two owners and the four mutations. */
export function projectRootFields(ctx: ProjectsContext, h: ProjectsHelpers): Record<string, unknown> {
  const caller = (): Account => {
    if (ctx.token === null)
      throw h.typedError('FORBIDDEN', 'This endpoint requires you to be authenticated.');
    return ctx.token.account;
  };
  return {
    organization: ({ login }: { login: string }) => {
      const account = ctx.world.account(login);
      if (account === undefined || account.type !== 'Organization') {
        throw h.typedError('NOT_FOUND', `Could not resolve to an Organization with the login of '${login}'.`);
      }
      return ownerNode(ctx, h, account);
    },
    user: ({ login }: { login: string }) => {
      const account = ctx.world.account(login);
      if (account === undefined || account.type !== 'User') {
        throw h.typedError('NOT_FOUND', `Could not resolve to a User with the login of '${login}'.`);
      }
      return ownerNode(ctx, h, account);
    },
    addProjectV2DraftIssue: ({
      input,
    }: {
      input: MutationInput & { projectId: string; title: string; body?: string | null };
    }) => {
      const project = writableProject(ctx, h, input.projectId);
      if (input.title.trim() === '') throw h.typedError('UNPROCESSABLE', "Title can't be blank");
      const item = newItem(ctx.world, caller(), input.title, input.body ?? '');
      project.items.push(item);
      project.updated_at = item.created_at;
      return {
        clientMutationId: input.clientMutationId ?? null,
        projectItem: itemNode(ctx, h, project, item),
      };
    },
    updateProjectV2DraftIssue: ({
      input,
    }: {
      input: MutationInput & { draftIssueId: string; title?: string | null; body?: string | null };
    }) => {
      const project = ctx.world.projects.find((candidate) =>
        candidate.items.some((item) => item.draft.id === input.draftIssueId),
      );
      const writable = project === undefined ? undefined : writableProject(ctx, h, project.id);
      const item = writable?.items.find((candidate) => candidate.draft.id === input.draftIssueId);
      if (writable === undefined || item === undefined) {
        throw h.typedError(
          'NOT_FOUND',
          `Could not resolve to a node with the global id of '${input.draftIssueId}'`,
        );
      }
      if (input.title != null) {
        if (input.title.trim() === '') throw h.typedError('UNPROCESSABLE', "Title can't be blank");
        item.draft.title = input.title;
      }
      if (input.body != null) item.draft.body = input.body;
      item.draft.updated_at = ctx.world.now();
      item.updated_at = item.draft.updated_at;
      return { clientMutationId: input.clientMutationId ?? null, draftIssue: draftNode(ctx, h, item) };
    },
    updateProjectV2ItemFieldValue: ({
      input,
    }: {
      input: MutationInput & {
        projectId: string;
        itemId: string;
        fieldId: string;
        value: { text?: string | null; singleSelectOptionId?: string | null };
      };
    }) => {
      const project = writableProject(ctx, h, input.projectId);
      const item = itemOf(h, project, input.itemId);
      const field = project.fields.find((candidate) => candidate.id === input.fieldId);
      if (field === undefined) {
        throw h.typedError(
          'NOT_FOUND',
          `Could not resolve to a node with the global id of '${input.fieldId}'`,
        );
      }
      const now = ctx.world.now();
      if (field.dataType === 'TEXT') {
        if (input.value.text == null) throw h.typedError('UNPROCESSABLE', 'A text value must be provided');
        item.values.set(field.id, { text: input.value.text, creator: caller(), updated_at: now });
      } else if (field.dataType === 'SINGLE_SELECT') {
        const option = field.options.find((candidate) => candidate.id === input.value.singleSelectOptionId);
        if (option === undefined) {
          throw h.typedError('UNPROCESSABLE', 'The single select option Id does not belong to the field');
        }
        item.values.set(field.id, { optionId: option.id, creator: caller(), updated_at: now });
      } else {
        throw h.typedError('UNPROCESSABLE', `The field of type ${field.dataType} is currently not supported`);
      }
      item.updated_at = now;
      return {
        clientMutationId: input.clientMutationId ?? null,
        projectV2Item: itemNode(ctx, h, project, item),
      };
    },
    deleteProjectV2Item: ({ input }: { input: MutationInput & { projectId: string; itemId: string } }) => {
      const project = writableProject(ctx, h, input.projectId);
      const item = itemOf(h, project, input.itemId);
      project.items = project.items.filter((candidate) => candidate !== item);
      return { clientMutationId: input.clientMutationId ?? null, deletedItemId: item.id };
    },
  };
}

// ---- admin operations (admin-routes.ts) ----

export interface ProjectFieldSpec {
  name: string;
  type: 'TEXT' | 'SINGLE_SELECT';
  options?: string[];
}

function adminProject(world: World, owner: string, number: number): ProjectV2 {
  const project = world.projects.find(
    (candidate) => candidate.owner.login.toLowerCase() === owner.toLowerCase() && candidate.number === number,
  );
  if (project === undefined) throw new AdminError(404, `no project ${owner}/${number}`);
  return project;
}

function addField(world: World, spec: { name: string; type: ProjectField['dataType']; options?: string[] }) {
  const id = world.id();
  return {
    id: nodeId(spec.type === 'SINGLE_SELECT' ? 'PVTSSF' : 'PVTF', id),
    databaseId: id,
    name: spec.name,
    dataType: spec.type,
    options: (spec.options ?? []).map((name) => ({ id: optionId(world.id()), name })),
    created_at: world.now(),
  };
}

/** A project as a test sees it: fields with option IDs, items with their values by field name. */
export function describeProject(project: ProjectV2): Record<string, unknown> {
  return {
    id: project.id,
    number: project.number,
    owner: project.owner.login,
    title: project.title,
    fields: project.fields.map((field) => ({
      id: field.id,
      name: field.name,
      type: field.dataType,
      options: field.options,
    })),
    items: project.items.map((item) => ({
      id: item.id,
      creator: item.creator.login,
      title: item.draft.title,
      body: item.draft.body,
      values: Object.fromEntries(
        project.fields.flatMap((field) => {
          const value = item.values.get(field.id);
          if (value === undefined) return [];
          if (field.dataType === 'SINGLE_SELECT') {
            return [[field.name, field.options.find((option) => option.id === value.optionId)?.name ?? null]];
          }
          return [[field.name, value.text ?? null]];
        }),
      ),
    })),
  };
}

/** Creates a project with GitHub's built-in Title, Status and Milestone fields and the given custom ones. */
export function createProject(
  world: World,
  spec: { owner?: unknown; title?: unknown; fields?: unknown },
): Record<string, unknown> {
  const owner = typeof spec.owner === 'string' ? world.account(spec.owner) : undefined;
  if (owner === undefined || owner.type === 'Bot')
    throw new AdminError(400, 'owner must be a user or organization');
  const fields = Array.isArray(spec.fields) ? (spec.fields as ProjectFieldSpec[]) : [];
  for (const field of fields) {
    const type: unknown = field.type;
    if (typeof field.name !== 'string' || (type !== 'TEXT' && type !== 'SINGLE_SELECT')) {
      throw new AdminError(400, 'each field needs a name and a type TEXT or SINGLE_SELECT');
    }
  }
  const id = world.id();
  const now = world.now();
  const number =
    Math.max(0, ...world.projects.filter((p) => p.owner.id === owner.id).map((p) => p.number)) + 1;
  const project: ProjectV2 = {
    id: nodeId('PVT', id),
    databaseId: id,
    number,
    owner,
    title: typeof spec.title === 'string' ? spec.title : `Project ${number}`,
    closed: false,
    fields: [
      addField(world, { name: 'Title', type: 'TITLE' }),
      addField(world, { name: 'Status', type: 'SINGLE_SELECT', options: ['Todo', 'In Progress', 'Done'] }),
      addField(world, { name: 'Milestone', type: 'MILESTONE' }),
      ...fields.map((field) => addField(world, field)),
    ],
    items: [],
    created_at: now,
    updated_at: now,
  };
  world.projects.push(project);
  return describeProject(project);
}

export function getProject(world: World, owner: string, number: number): Record<string, unknown> {
  return describeProject(adminProject(world, owner, number));
}

export function deleteProject(world: World, owner: string, number: number): Record<string, unknown> {
  const project = adminProject(world, owner, number);
  world.projects = world.projects.filter((candidate) => candidate !== project);
  return { ok: true };
}

/** An item planted by anyone (`creator` login): a draft issue with the given title and body. */
export function plantItem(
  world: World,
  owner: string,
  number: number,
  spec: { creator?: unknown; title?: unknown; body?: unknown },
): Record<string, unknown> {
  const project = adminProject(world, owner, number);
  const creator = typeof spec.creator === 'string' ? world.account(spec.creator) : undefined;
  if (creator === undefined) throw new AdminError(400, 'creator must be a known account');
  const item = newItem(
    world,
    creator,
    typeof spec.title === 'string' && spec.title !== '' ? spec.title : 'Planted',
    typeof spec.body === 'string' ? spec.body : '',
  );
  project.items.push(item);
  return { id: item.id };
}

/** A human sets an item's field (by name) to a text, or to the option of that name. */
export function editItemField(
  world: World,
  owner: string,
  number: number,
  itemId: string,
  spec: { field?: unknown; value?: unknown; editor?: unknown },
): Record<string, unknown> {
  const project = adminProject(world, owner, number);
  const item = project.items.find((candidate) => candidate.id === itemId);
  const field = project.fields.find((candidate) => candidate.name === spec.field);
  const editor = typeof spec.editor === 'string' ? world.account(spec.editor) : undefined;
  if (item === undefined || field === undefined || editor === undefined || typeof spec.value !== 'string') {
    throw new AdminError(400, 'item, field (by name), editor and a string value are required');
  }
  if (field.dataType === 'SINGLE_SELECT') {
    const option = field.options.find((candidate) => candidate.name === spec.value);
    if (option === undefined) throw new AdminError(400, `no option ${spec.value}`);
    item.values.set(field.id, { optionId: option.id, creator: editor, updated_at: world.now() });
  } else if (field.dataType === 'TEXT') {
    item.values.set(field.id, { text: spec.value, creator: editor, updated_at: world.now() });
  } else {
    throw new AdminError(400, `field ${field.name} is not TEXT or SINGLE_SELECT`);
  }
  return describeProject(project);
}
