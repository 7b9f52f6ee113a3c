/**
 * Projects (v2) as Writ's projection uses them, every document validated against GitHub's schema:
 * a project of an organization or a user read by number (fields, items, values), draft issues created
 * and edited, field values set, items deleted; GitHub's access rules (an installation token needs
 * `organization_projects`, and reaches no user-owned project); the admin routes tests drive.
 */
/* eslint-disable @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- GraphQL answers (Json) */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { World } from './support/helpers.js';
import { expectConformance, graphqlRaw, setup } from './support/helpers.js';

let world: World;
let adminUrl: string;

async function admin(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${adminUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (response.status >= 300)
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

beforeAll(async () => {
  world = await setup();
  adminUrl = `${world.emulator.serverUrl}/_emulator`;
  world.emulator.admin.createUser({ login: 'acme', type: 'Organization' });
  world.emulator.admin.setOrgMember('acme', 'alice', 'member');
  world.emulator.admin.createToken({
    token: 'projects-token',
    kind: 'installation',
    app: 'writ-ledger',
    permissions: { issues: 'write', organization_projects: 'write' },
  });
  world.emulator.admin.createToken({
    token: 'projects-read-token',
    kind: 'installation',
    app: 'writ-ledger',
    permissions: { organization_projects: 'read' },
  });
});
afterAll(async () => {
  await world.emulator.close();
  expectConformance();
});

const READ = `query Read($login: String!, $number: Int!, $after: String) {
  organization(login: $login) {
    projectV2(number: $number) {
      id title closed
      fields(first: 50) {
        nodes {
          __typename
          ... on ProjectV2Field { id name dataType }
          ... on ProjectV2SingleSelectField { id name dataType options { id name } }
        }
      }
      items(first: 2, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id
          creator { __typename login ... on Bot { databaseId } }
          content { __typename ... on DraftIssue { id title body creator { login } } }
          fieldValues(first: 50) {
            nodes {
              __typename
              ... on ProjectV2ItemFieldTextValue { text field { ... on ProjectV2Field { id name } } }
              ... on ProjectV2ItemFieldSingleSelectValue {
                optionId name field { ... on ProjectV2SingleSelectField { id name } }
              }
            }
          }
        }
      }
    }
  }
}`;

const ADD = `mutation Add($input: AddProjectV2DraftIssueInput!) {
  addProjectV2DraftIssue(input: $input) { projectItem { id content { ... on DraftIssue { id } } } }
}`;
const SET = `mutation Set($input: UpdateProjectV2ItemFieldValueInput!) {
  updateProjectV2ItemFieldValue(input: $input) { projectV2Item { id } }
}`;
const EDIT = `mutation Edit($input: UpdateProjectV2DraftIssueInput!) {
  updateProjectV2DraftIssue(input: $input) { draftIssue { id title body } }
}`;
const DELETE = `mutation Delete($input: DeleteProjectV2ItemInput!) {
  deleteProjectV2Item(input: $input) { deletedItemId }
}`;

// GraphQL answers, read field by field and each asserted.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

describe('Projects (v2)', () => {
  let project: Json;

  it('an organization project is created with built-in and custom fields and read back by number', async () => {
    project = await admin('POST', '/projects', {
      owner: 'acme',
      title: 'Board',
      fields: [
        { name: 'Writ state', type: 'SINGLE_SELECT', options: ['proposed', 'approved', 'completed'] },
        { name: 'Blockers', type: 'TEXT' },
      ],
    });
    expect(project.number).toBe(1);
    const read = await graphqlRaw(world.emulator, 'projects-token', READ, { login: 'acme', number: 1 });
    expect(read.body.errors).toBeUndefined();
    const node = (read.body.data as Json).organization.projectV2;
    expect(node.title).toBe('Board');
    expect(node.fields.nodes.map((field: Json) => `${field.name}:${field.dataType}`)).toEqual([
      'Title:TITLE',
      'Status:SINGLE_SELECT',
      'Milestone:MILESTONE',
      'Writ state:SINGLE_SELECT',
      'Blockers:TEXT',
    ]);
    expect(node.items.nodes).toEqual([]);
  });

  it('a draft issue is created by the app, its values set, read back, edited and deleted', async () => {
    const added = await graphqlRaw(world.emulator, 'projects-token', ADD, {
      input: { projectId: project.id, title: 'Writ run r1', body: 'marker' },
    });
    expect(added.body.errors).toBeUndefined();
    const item = (added.body.data as Json).addProjectV2DraftIssue.projectItem;
    const state = (project.fields as Json[]).find((field) => field.name === 'Writ state')!;
    const blockers = (project.fields as Json[]).find((field) => field.name === 'Blockers')!;
    for (const value of [
      { fieldId: state.id, value: { singleSelectOptionId: state.options[1].id } },
      { fieldId: blockers.id, value: { text: 'none' } },
    ]) {
      const set = await graphqlRaw(world.emulator, 'projects-token', SET, {
        input: { projectId: project.id, itemId: item.id, ...value },
      });
      expect(set.body.errors).toBeUndefined();
    }
    const edited = await graphqlRaw(world.emulator, 'projects-token', EDIT, {
      input: { draftIssueId: item.content.id, body: 'marker 2' },
    });
    expect((edited.body.data as Json).updateProjectV2DraftIssue.draftIssue.body).toBe('marker 2');
    const read = await graphqlRaw(world.emulator, 'projects-token', READ, { login: 'acme', number: 1 });
    const [listed] = (read.body.data as Json).organization.projectV2.items.nodes;
    expect(listed.creator).toEqual({ __typename: 'Bot', login: 'writ-ledger', databaseId: world.botId });
    expect(listed.content).toMatchObject({
      __typename: 'DraftIssue',
      title: 'Writ run r1',
      body: 'marker 2',
    });
    expect(listed.fieldValues.nodes).toEqual([
      {
        __typename: 'ProjectV2ItemFieldTextValue',
        text: 'Writ run r1',
        field: { id: expect.any(String), name: 'Title' },
      },
      {
        __typename: 'ProjectV2ItemFieldSingleSelectValue',
        optionId: state.options[1].id,
        name: 'approved',
        field: { id: state.id, name: 'Writ state' },
      },
      {
        __typename: 'ProjectV2ItemFieldTextValue',
        text: 'none',
        field: { id: blockers.id, name: 'Blockers' },
      },
    ]);
    const wrongOption = await graphqlRaw(world.emulator, 'projects-token', SET, {
      input: {
        projectId: project.id,
        itemId: item.id,
        fieldId: state.id,
        value: { singleSelectOptionId: 'nope' },
      },
    });
    expect((wrongOption.body.errors as Json[])[0]!.type).toBe('UNPROCESSABLE');
    const deleted = await graphqlRaw(world.emulator, 'projects-token', DELETE, {
      input: { projectId: project.id, itemId: item.id },
    });
    expect((deleted.body.data as Json).deleteProjectV2Item.deletedItemId).toBe(item.id);
  });

  it('items page by cursor; a human edit and a planted item are admin routes', async () => {
    await admin('POST', '/projects/acme/1/items', { creator: 'bob', title: 'planted', body: 'x' });
    for (const title of ['a', 'b']) {
      await graphqlRaw(world.emulator, 'projects-token', ADD, { input: { projectId: project.id, title } });
    }
    const first = await graphqlRaw(world.emulator, 'projects-token', READ, { login: 'acme', number: 1 });
    const page = (first.body.data as Json).organization.projectV2.items;
    expect(page.nodes.map((node: Json) => node.content.title)).toEqual(['planted', 'a']);
    expect(page.nodes[0].creator.login).toBe('bob');
    expect(page.pageInfo.hasNextPage).toBe(true);
    const second = await graphqlRaw(world.emulator, 'projects-token', READ, {
      login: 'acme',
      number: 1,
      after: page.pageInfo.endCursor,
    });
    const rest = (second.body.data as Json).organization.projectV2.items;
    expect(rest.nodes.map((node: Json) => node.content.title)).toEqual(['b']);
    expect(rest.pageInfo.hasNextPage).toBe(false);
    const edited = await admin('PATCH', `/projects/acme/1/items/${page.nodes[1].id}`, {
      field: 'Writ state',
      value: 'completed',
      editor: 'alice',
    });
    expect((edited.items as Json[])[1]!.values).toEqual({ 'Writ state': 'completed' });
  });

  it('access: organization_projects read reads but cannot write; no permission is FORBIDDEN', async () => {
    const read = await graphqlRaw(world.emulator, 'projects-read-token', READ, { login: 'acme', number: 1 });
    expect(read.body.errors).toBeUndefined();
    const write = await graphqlRaw(world.emulator, 'projects-read-token', ADD, {
      input: { projectId: project.id, title: 'x' },
    });
    expect((write.body.errors as Json[])[0]).toMatchObject({
      type: 'FORBIDDEN',
      message: 'Resource not accessible by integration',
    });
    const none = await graphqlRaw(world.emulator, 'app-token', READ, { login: 'acme', number: 1 });
    expect((none.body.data as Json).organization.projectV2).toBeNull();
    expect((none.body.errors as Json[])[0]).toMatchObject({
      type: 'FORBIDDEN',
      path: ['organization', 'projectV2'],
    });
    const github = await graphqlRaw(world.emulator, 'gh-token', READ, { login: 'acme', number: 1 });
    expect((github.body.errors as Json[])[0]!.type).toBe('FORBIDDEN');
    // A member's PAT reads; a non-member's sees nothing.
    const member = await graphqlRaw(world.emulator, 'alice-pat', READ, { login: 'acme', number: 1 });
    expect(member.body.errors).toBeUndefined();
    const outsider = await graphqlRaw(world.emulator, 'carol-pat', READ, { login: 'acme', number: 1 });
    expect((outsider.body.errors as Json[])[0]!.type).toBe('NOT_FOUND');
  });

  it('an absent project, an absent organization and a deleted project are NOT_FOUND', async () => {
    const absent = await graphqlRaw(world.emulator, 'projects-token', READ, { login: 'acme', number: 9 });
    expect((absent.body.errors as Json[])[0]).toMatchObject({
      type: 'NOT_FOUND',
      message: 'Could not resolve to a ProjectV2 with the number 9.',
    });
    const noOrg = await graphqlRaw(world.emulator, 'projects-token', READ, { login: 'nobody', number: 1 });
    expect((noOrg.body.errors as Json[])[0]!.type).toBe('NOT_FOUND');
    const other = await admin('POST', '/projects', { owner: 'acme' });
    await admin('DELETE', `/projects/acme/${String(other.number)}`);
    const gone = await graphqlRaw(world.emulator, 'projects-token', ADD, {
      input: { projectId: other.id, title: 'x' },
    });
    expect((gone.body.errors as Json[])[0]!.type).toBe('NOT_FOUND');
  });

  it("a user's project: its owner's PAT reaches it, an installation token never does", async () => {
    const mine = await admin('POST', '/projects', {
      owner: 'alice',
      fields: [{ name: 'Risk', type: 'TEXT' }],
    });
    const USER_READ = `query($login: String!, $number: Int!) {
      user(login: $login) { projectV2(number: $number) { id title } }
    }`;
    const owner = await graphqlRaw(world.emulator, 'alice-pat', USER_READ, {
      login: 'alice',
      number: mine.number,
    });
    expect((owner.body.data as Json).user.projectV2.id).toBe(mine.id);
    const app = await graphqlRaw(world.emulator, 'projects-token', USER_READ, {
      login: 'alice',
      number: mine.number,
    });
    expect((app.body.errors as Json[])[0]!.type).toBe('NOT_FOUND');
    const write = await graphqlRaw(world.emulator, 'projects-token', ADD, {
      input: { projectId: mine.id, title: 'x' },
    });
    expect((write.body.errors as Json[])[0]!.type).toBe('NOT_FOUND');
  });
});
