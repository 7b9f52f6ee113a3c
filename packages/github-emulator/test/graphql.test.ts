/**
 * GraphQL as Writ uses it: `createCommitOnBranch` (verified app commits, STALE_DATA on a stale head),
 * refs (`createRef`, `updateRefs`, `updateRef`, `deleteRef`), history, schema validation and a comment's
 * edit record.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { World } from './support/helpers.js';
import {
  client,
  expectConformance,
  COMMIT_MUTATION,
  commitInput,
  graphqlRaw,
  setup,
} from './support/helpers.js';

interface HistoryNode {
  oid: string;
  parents: { totalCount: number };
  author: { name: string; user: { login: string } | null };
  signature: { isValid: boolean; state: string; wasSignedByGitHub: boolean } | null;
}
interface HistoryResult {
  repository: {
    ref: {
      target: {
        history: { pageInfo: { hasNextPage: boolean; endCursor: string }; nodes: HistoryNode[] };
        file: { object: { text: string } };
      };
    };
    object: { text: string };
  };
}

let world: World;
beforeAll(async () => {
  world = await setup();
});
afterAll(async () => {
  await world.emulator.close();
  expectConformance();
});

const HISTORY = `query History($owner: String!, $name: String!, $qualifiedName: String!, $after: String) {
  repository(owner: $owner, name: $name) {
    ref(qualifiedName: $qualifiedName) {
      target {
        ... on Commit {
          oid
          history(first: 2, after: $after) {
            pageInfo { hasNextPage endCursor }
            nodes {
              oid
              message
              parents(first: 2) { totalCount nodes { oid } }
              author { name email date user { login } }
              committer { name email date user { login } }
              signature { isValid state wasSignedByGitHub }
            }
          }
          file(path: "ledger/state.json") { object { ... on Blob { text } } }
        }
      }
    }
    object(expression: "ledger:ledger/state.json") { ... on Blob { text } }
  }
}`;

async function head(branch: string): Promise<string> {
  const { data } = await client(world.emulator, 'app-token').rest.git.getRef({
    owner: 'alice',
    repo: 'repo',
    ref: `heads/${branch}`,
  });
  return data.object.sha;
}

describe('GraphQL createCommitOnBranch', () => {
  it('commits as the app bot, verified, and moves the branch', async () => {
    const octokit = client(world.emulator, 'app-token');
    await octokit.rest.git.createRef({
      owner: 'alice',
      repo: 'repo',
      ref: 'refs/heads/ledger',
      sha: world.head,
    });
    const result = await octokit.graphql<{ createCommitOnBranch: { commit: { oid: string } } }>(
      COMMIT_MUTATION,
      commitInput(world.head, 'ledger/state.json', '{"epoch":1}', 'ledger'),
    );
    const oid = result.createCommitOnBranch.commit.oid;
    expect(await head('ledger')).toBe(oid);
    const { data: commit } = await octokit.rest.git.getCommit({
      owner: 'alice',
      repo: 'repo',
      commit_sha: oid,
    });
    expect(commit.verification.verified).toBe(true);
    expect(commit.author.name).toBe('writ-ledger[bot]');
    expect(commit.committer).toMatchObject({ name: 'GitHub', email: 'noreply@github.com' });
    expect(commit.parents.map((parent) => parent.sha)).toEqual([world.head]);
  });

  it('answers a stale expectedHeadOid with HTTP 200, null data and a STALE_DATA error quoting the sent oid', async () => {
    const before = await head('ledger');
    const response = await graphqlRaw(
      world.emulator,
      'app-token',
      COMMIT_MUTATION,
      commitInput(world.head, 'x.json', '{}', 'ledger'),
    );
    expect(response.status).toBe(200);
    expect(response.contentType).toBe('application/json; charset=utf-8');
    expect(response.body.data).toEqual({ createCommitOnBranch: null });
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        type: 'STALE_DATA',
        path: ['createCommitOnBranch'],
        message: `Expected branch to point to "${world.head}" but it did not. Pull and try again.`,
      }),
    ]);
    expect(await head('ledger')).toBe(before);
  });

  it('surfaces STALE_DATA through the real client as a GraphqlResponseError', async () => {
    const octokit = client(world.emulator, 'app-token');
    await expect(
      octokit.graphql(COMMIT_MUTATION, commitInput(world.head, 'y.json', '{}', 'ledger')),
    ).rejects.toMatchObject({
      name: 'GraphqlResponseError',
      errors: [expect.objectContaining({ type: 'STALE_DATA' })],
    });
  });

  it('authors a PAT commit as the user and reads history, files and blobs back', async () => {
    const pat = client(world.emulator, 'alice-pat');
    const current = await head('ledger');
    await pat.graphql(COMMIT_MUTATION, commitInput(current, 'ledger/state.json', '{"epoch":2}', 'ledger'));
    const first = await pat.graphql<HistoryResult>(HISTORY, {
      owner: 'alice',
      name: 'repo',
      qualifiedName: 'refs/heads/ledger',
    });
    const target = first.repository.ref.target;
    expect(target.file.object.text).toBe('{"epoch":2}');
    expect(first.repository.object.text).toBe('{"epoch":2}');
    expect(target.history.nodes).toHaveLength(2);
    expect(target.history.nodes[0]!.author).toMatchObject({ name: 'alice', user: { login: 'alice' } });
    expect(target.history.nodes[1]!.author).toMatchObject({ name: 'writ-ledger[bot]', user: null });
    expect(target.history.nodes[1]!.signature).toEqual({
      isValid: true,
      state: 'VALID',
      wasSignedByGitHub: true,
    });
    expect(target.history.pageInfo.hasNextPage).toBe(true);
    const second = await pat.graphql<HistoryResult>(HISTORY, {
      owner: 'alice',
      name: 'repo',
      qualifiedName: 'refs/heads/ledger',
      after: target.history.pageInfo.endCursor,
    });
    const rootNode = second.repository.ref.target.history.nodes[0]!;
    expect(rootNode.oid).toBe(world.head);
    expect(rootNode.parents.totalCount).toBe(0);
    expect(rootNode.signature).toBeNull();
    expect(second.repository.ref.target.history.pageInfo.hasNextPage).toBe(false);
  });

  it('rejects deleting a path that does not exist', async () => {
    const current = await head('ledger');
    const response = await graphqlRaw(world.emulator, 'app-token', COMMIT_MUTATION, {
      input: {
        branch: { repositoryNameWithOwner: 'alice/repo', branchName: 'ledger' },
        expectedHeadOid: current,
        message: { headline: 'delete' },
        fileChanges: { deletions: [{ path: 'nope.json' }] },
      },
    });
    expect(response.body.data).toEqual({ createCommitOnBranch: null });
    expect(String((response.body.errors as { message: string }[])[0]?.message)).toContain(
      'does not exist as of commit oid',
    );
  });

  it('validates documents against GitHub schema', async () => {
    const response = await graphqlRaw(
      world.emulator,
      'app-token',
      '{ repository(owner: "alice", name: "repo") { noSuchField } }',
    );
    expect(response.status).toBe(200);
    expect(String((response.body.errors as { message: string }[])[0]?.message)).toContain('noSuchField');
    expect(response.body.data).toBeUndefined();
  });

  it('reports a missing repository as NOT_FOUND', async () => {
    const response = await graphqlRaw(
      world.emulator,
      'app-token',
      '{ repository(owner: "alice", name: "nope") { id } }',
    );
    expect(response.body.errors).toEqual([
      expect.objectContaining({ type: 'NOT_FOUND', path: ['repository'] }),
    ]);
  });
});

describe('GraphQL refs', () => {
  it('createRef refuses an existing ref; updateRefs honours beforeOid atomically', async () => {
    const octokit = client(world.emulator, 'app-token');
    const { repository } = await octokit.graphql<{ repository: { id: string } }>(
      '{ repository(owner: "alice", name: "repo") { id } }',
    );
    const created = await octokit.graphql<{ createRef: { ref: { name: string; target: { oid: string } } } }>(
      'mutation($id: ID!, $oid: GitObjectID!) { createRef(input: {repositoryId: $id, name: "refs/heads/gq", oid: $oid}) { ref { name target { oid } } } }',
      { id: repository.id, oid: world.head },
    );
    expect(created.createRef.ref).toEqual({ name: 'gq', target: { oid: world.head } });
    const again = await graphqlRaw(
      world.emulator,
      'app-token',
      'mutation($id: ID!, $oid: GitObjectID!) { createRef(input: {repositoryId: $id, name: "refs/heads/gq", oid: $oid}) { ref { name } } }',
      { id: repository.id, oid: world.head },
    );
    expect(again.body.data).toEqual({ createRef: null });
    expect(String((again.body.errors as { message: string }[])[0]?.message)).toContain('already exists');

    const ledgerHead = await head('ledger');
    const updateRefs =
      'mutation($id: ID!, $updates: [RefUpdate!]!) { updateRefs(input: {repositoryId: $id, refUpdates: $updates}) { clientMutationId } }';
    const stale = await graphqlRaw(world.emulator, 'app-token', updateRefs, {
      id: repository.id,
      updates: [
        {
          name: 'refs/heads/new-one',
          beforeOid: '0000000000000000000000000000000000000000',
          afterOid: world.head,
        },
        { name: 'refs/heads/gq', beforeOid: ledgerHead, afterOid: ledgerHead },
      ],
    });
    expect(stale.body.errors).toHaveLength(1);
    const { data: refs } = await octokit.rest.git.listMatchingRefs({
      owner: 'alice',
      repo: 'repo',
      ref: 'heads/new-one',
    });
    expect(refs).toEqual([]);
    await octokit.graphql(updateRefs, {
      id: repository.id,
      updates: [
        {
          name: 'refs/heads/new-one',
          beforeOid: '0000000000000000000000000000000000000000',
          afterOid: world.head,
        },
        { name: 'refs/heads/gq', beforeOid: world.head, afterOid: ledgerHead },
      ],
    });
    expect(await head('new-one')).toBe(world.head);
    expect(await head('gq')).toBe(ledgerHead);
  });
});

describe('GraphQL by node id, updateRef, deleteRef and filtered history', () => {
  it('commits through branch.id, moves a ref with updateRef (fast-forward only unless forced) and deletes it', async () => {
    const octokit = client(world.emulator, 'app-token');
    await octokit.rest.git.createRef({
      owner: 'alice',
      repo: 'repo',
      ref: 'refs/heads/by-id',
      sha: world.head,
    });
    const { repository } = await octokit.graphql<{
      repository: { ref: { id: string; target: { oid: string } } };
    }>('{ repository(owner: "alice", name: "repo") { ref(qualifiedName: "by-id") { id target { oid } } } }');
    const committed = await octokit.graphql<{
      createCommitOnBranch: { commit: { oid: string }; ref: { name: string } };
    }>(
      'mutation($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } ref { name } } }',
      {
        input: {
          branch: { id: repository.ref.id },
          expectedHeadOid: world.head,
          message: { headline: 'by id', body: 'with a body' },
          fileChanges: { additions: [{ path: 'id.txt', contents: Buffer.from('id').toString('base64') }] },
        },
      },
    );
    expect(committed.createCommitOnBranch.ref.name).toBe('by-id');
    const { data: commit } = await octokit.rest.git.getCommit({
      owner: 'alice',
      repo: 'repo',
      commit_sha: committed.createCommitOnBranch.commit.oid,
    });
    expect(commit.message).toBe('by id\n\nwith a body');
    const backwards = await graphqlRaw(
      world.emulator,
      'app-token',
      'mutation($id: ID!, $oid: GitObjectID!) { updateRef(input: {refId: $id, oid: $oid}) { ref { name } } }',
      {
        id: repository.ref.id,
        oid: world.head,
      },
    );
    expect(String((backwards.body.errors as { message: string }[])[0]?.message)).toBe(
      'Update is not a fast forward',
    );
    await octokit.graphql(
      'mutation($id: ID!, $oid: GitObjectID!) { updateRef(input: {refId: $id, oid: $oid, force: true}) { ref { name } } }',
      {
        id: repository.ref.id,
        oid: world.head,
      },
    );
    expect(await head('by-id')).toBe(world.head);
    await octokit.graphql('mutation($id: ID!) { deleteRef(input: {refId: $id}) { clientMutationId } }', {
      id: repository.ref.id,
    });
    await expect(
      octokit.rest.git.getRef({ owner: 'alice', repo: 'repo', ref: 'heads/by-id' }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('filters history by path', async () => {
    const octokit = client(world.emulator, 'app-token');
    const result = await octokit.graphql<{
      repository: { ref: { target: { history: { totalCount: number; nodes: { message: string }[] } } } };
    }>(
      '{ repository(owner: "alice", name: "repo") { ref(qualifiedName: "ledger") { target { ... on Commit { history(first: 10, path: "ledger/state.json") { totalCount nodes { message } } } } } } }',
    );
    expect(result.repository.ref.target.history.totalCount).toBe(2);
    expect(result.repository.ref.target.history.nodes.map((node) => node.message)).toEqual([
      'write ledger/state.json',
      'write ledger/state.json',
    ]);
  });
});

describe('GraphQL issue comment edit record', () => {
  const EDITS = `query Edits($id: ID!) {
    node(id: $id) {
      __typename
      ... on IssueComment {
        databaseId
        body
        createdAt
        updatedAt
        lastEditedAt
        includesCreatedEdit
        editor { login }
        author { login }
        userContentEdits(first: 10) { totalCount nodes { editedAt diff editor { login } } }
      }
    }
  }`;
  interface Edits {
    node: {
      __typename: string;
      databaseId: number;
      body: string;
      createdAt: string;
      updatedAt: string;
      lastEditedAt: string | null;
      includesCreatedEdit: boolean;
      editor: { login: string } | null;
      author: { login: string };
      userContentEdits: {
        totalCount: number;
        nodes: { editedAt: string; diff: string; editor: { login: string } }[];
      };
    } | null;
  }
  const repo = { owner: 'alice', repo: 'repo' };

  it('records every edit, within the second of creation too, with its editor; REST updated_at keeps one-second resolution', async () => {
    const admin = world.emulator.admin;
    const bob = client(world.emulator, 'bob-pat');
    const alice = client(world.emulator, 'alice-pat');
    const { data: issue } = await alice.rest.issues.create({ ...repo, title: 'edits' });
    admin.clock({ now: '2026-12-02T10:00:00Z', freeze: true });
    try {
      const { data: created } = await bob.rest.issues.createComment({
        ...repo,
        issue_number: issue.number,
        body: 'writ: cancel run-1',
      });
      const never = await bob.graphql<Edits>(EDITS, { id: created.node_id });
      expect(never.node).toMatchObject({
        __typename: 'IssueComment',
        databaseId: created.id,
        lastEditedAt: null,
        includesCreatedEdit: false,
        editor: null,
        userContentEdits: { totalCount: 0, nodes: [] },
      });

      // Edited by its author and then, back to the original text, by the repository owner: same second.
      await bob.rest.issues.updateComment({ ...repo, comment_id: created.id, body: 'writ: cancel run-2' });
      const { data: back } = await alice.rest.issues.updateComment({
        ...repo,
        comment_id: created.id,
        body: 'writ: cancel run-1',
      });
      expect(back.updated_at).toBe(back.created_at);
      expect(back.body).toBe('writ: cancel run-1');
      const edited = await alice.graphql<Edits>(EDITS, { id: created.node_id });
      expect(edited.node).toMatchObject({
        body: 'writ: cancel run-1',
        createdAt: '2026-12-02T10:00:00Z',
        updatedAt: '2026-12-02T10:00:00Z',
        lastEditedAt: '2026-12-02T10:00:00Z',
        includesCreatedEdit: true,
        editor: { login: 'alice' },
        author: { login: 'bob' },
        userContentEdits: {
          totalCount: 3,
          nodes: [
            { diff: 'writ: cancel run-1', editor: { login: 'alice' } },
            { diff: 'writ: cancel run-2', editor: { login: 'bob' } },
            { diff: 'writ: cancel run-1', editor: { login: 'bob' } },
          ],
        },
      });
    } finally {
      admin.clock({ freeze: false });
    }
  });

  it('answers null for an unknown comment ID and FORBIDDEN to a token without issues read', async () => {
    const alice = client(world.emulator, 'alice-pat');
    const unknown = await alice.graphql<Edits>(EDITS, { id: 'IC_kwDOnope' });
    expect(unknown.node).toBeNull();
    const { data: issue } = await alice.rest.issues.create({ ...repo, title: 'private' });
    const { data: created } = await alice.rest.issues.createComment({
      ...repo,
      issue_number: issue.number,
      body: 'x',
    });
    world.emulator.admin.createToken({
      token: 'no-issues-token',
      kind: 'installation',
      app: 'writ-ledger',
      permissions: { contents: 'read' },
    });
    const refused = await graphqlRaw(world.emulator, 'no-issues-token', EDITS, { id: created.node_id });
    expect(refused.body).toMatchObject({ data: { node: null }, errors: [{ type: 'FORBIDDEN' }] });
  });
});

describe('GraphQL issues and milestones agree with REST', () => {
  const repo = { owner: 'alice', repo: 'repo' };
  const MILESTONE = `number title description state dueOn createdAt updatedAt closed
    creator { __typename login ... on Bot { databaseId } ... on User { databaseId } }`;
  const READ = `query Read($owner: String!, $name: String!, $issue: Int!, $milestone: Int!) {
    repository(owner: $owner, name: $name) {
      issue(number: $issue) {
        number databaseId title body state stateReason createdAt updatedAt closed
        author { __typename login ... on Bot { databaseId } ... on User { databaseId } }
        labels(first: 100) { totalCount nodes { name } pageInfo { hasNextPage endCursor } }
        milestone { ${MILESTONE} }
      }
      milestone(number: $milestone) { ${MILESTONE} }
    }
  }`;
  interface Actor {
    __typename: string;
    login: string;
    databaseId: number;
  }
  interface GqlMilestone {
    number: number;
    title: string;
    description: string | null;
    state: string;
    dueOn: string | null;
    createdAt: string;
    updatedAt: string;
    closed: boolean;
    creator: Actor | null;
  }
  interface GqlIssue {
    number: number;
    databaseId: number;
    title: string;
    body: string;
    state: string;
    stateReason: string | null;
    createdAt: string;
    updatedAt: string;
    closed: boolean;
    author: Actor | null;
    labels: { totalCount: number; nodes: { name: string }[]; pageInfo: { hasNextPage: boolean } };
    milestone: GqlMilestone | null;
  }
  interface Read {
    repository: { issue: GqlIssue | null; milestone: GqlMilestone | null };
  }

  /** A GraphQL actor as REST names it: a Bot's login gains `[bot]` back. */
  const restLogin = (actor: Actor | null): string | null =>
    actor === null ? null : actor.__typename === 'Bot' ? `${actor.login}[bot]` : actor.login;

  function sameMilestone(
    gql: GqlMilestone | null,
    rest: {
      number: number;
      title: string;
      description: string | null;
      state: string;
      due_on: string | null;
      created_at: string;
      updated_at: string;
      creator: { login: string; id: number; type: string } | null;
    } | null,
  ): void {
    if (rest === null) {
      expect(gql).toBeNull();
      return;
    }
    expect(gql).not.toBeNull();
    expect({
      number: gql?.number,
      title: gql?.title,
      description: gql?.description,
      state: gql?.state.toLowerCase(),
      due_on: gql?.dueOn,
      created_at: gql?.createdAt,
      updated_at: gql?.updatedAt,
      creator: {
        login: restLogin(gql?.creator ?? null),
        id: gql?.creator?.databaseId,
        type: gql?.creator?.__typename,
      },
    }).toEqual({
      number: rest.number,
      title: rest.title,
      description: rest.description,
      state: rest.state,
      due_on: rest.due_on,
      created_at: rest.created_at,
      updated_at: rest.updated_at,
      creator: { login: rest.creator?.login, id: rest.creator?.id, type: rest.creator?.type },
    });
  }

  it('an app-created milestone and issue with labels: every field the same, the Bot login without [bot]', async () => {
    const app = client(world.emulator, 'app-token');
    const alice = client(world.emulator, 'alice-pat');
    const { data: milestone } = await app.rest.issues.createMilestone({
      ...repo,
      title: 'agree v1',
      description: 'notes <!-- writ-key: k -->',
      due_on: '2026-12-24T08:00:00Z',
    });
    const { data: created } = await app.rest.issues.create({
      ...repo,
      title: 'Agree',
      body: 'body text',
      labels: ['zeta', 'Alpha', 'mid'],
      milestone: milestone.number,
    });
    await alice.rest.issues.update({
      ...repo,
      issue_number: created.number,
      state: 'closed',
      state_reason: 'not_planned',
    });
    const { data: rest } = await app.rest.issues.get({ ...repo, issue_number: created.number });
    const { data: restMilestone } = await app.rest.issues.getMilestone({
      ...repo,
      milestone_number: milestone.number,
    });
    const read = await app.graphql<Read>(READ, {
      owner: 'alice',
      name: 'repo',
      issue: created.number,
      milestone: milestone.number,
    });
    const issue = read.repository.issue;
    expect(issue?.author).toEqual({ __typename: 'Bot', login: 'writ-ledger', databaseId: world.botId });
    expect(rest.user?.login).toBe('writ-ledger[bot]');
    expect({
      number: issue?.number,
      id: issue?.databaseId,
      title: issue?.title,
      body: issue?.body,
      state: issue?.state.toLowerCase(),
      state_reason: issue?.stateReason?.toLowerCase(),
      closed: issue?.closed,
      created_at: issue?.createdAt,
      updated_at: issue?.updatedAt,
      login: restLogin(issue?.author ?? null),
      labels: issue?.labels.nodes.map((label) => label.name).sort(),
    }).toEqual({
      number: rest.number,
      id: rest.id,
      title: rest.title,
      body: rest.body,
      state: rest.state,
      state_reason: rest.state_reason,
      closed: true,
      created_at: rest.created_at,
      updated_at: rest.updated_at,
      login: rest.user?.login,
      labels: rest.labels.map((label) => (typeof label === 'string' ? label : label.name)).sort(),
    });
    expect(issue?.labels).toMatchObject({ totalCount: 3, pageInfo: { hasNextPage: false } });
    sameMilestone(issue?.milestone ?? null, rest.milestone);
    sameMilestone(read.repository.milestone, restMilestone);
  });

  it('a user-created issue without a body or milestone; a closed milestone without a description or due date', async () => {
    const alice = client(world.emulator, 'alice-pat');
    const { data: milestone } = await alice.rest.issues.createMilestone({ ...repo, title: 'agree bare' });
    await alice.rest.issues.updateMilestone({ ...repo, milestone_number: milestone.number, state: 'closed' });
    const { data: created } = await alice.rest.issues.create({ ...repo, title: 'Bare' });
    const { data: rest } = await alice.rest.issues.get({ ...repo, issue_number: created.number });
    const { data: restMilestone } = await alice.rest.issues.getMilestone({
      ...repo,
      milestone_number: milestone.number,
    });
    const read = await alice.graphql<Read>(READ, {
      owner: 'alice',
      name: 'repo',
      issue: created.number,
      milestone: milestone.number,
    });
    // REST's null body is GraphQL's '' (Issue.body is non-null).
    expect(rest.body).toBeNull();
    expect(read.repository.issue).toMatchObject({
      body: '',
      state: 'OPEN',
      stateReason: null,
      milestone: null,
      author: { __typename: 'User', login: 'alice' },
      labels: { totalCount: 0, nodes: [] },
    });
    sameMilestone(read.repository.milestone, restMilestone);
    expect(read.repository.milestone).toMatchObject({
      state: 'CLOSED',
      closed: true,
      description: null,
      dueOn: null,
    });
  });

  it('a missing issue: NOT_FOUND and null; a missing milestone: null without an error', async () => {
    const missing = await graphqlRaw(world.emulator, 'alice-pat', READ, {
      owner: 'alice',
      name: 'repo',
      issue: 9999,
      milestone: 9999,
    });
    expect(missing.status).toBe(200);
    expect(missing.body).toMatchObject({
      data: { repository: { issue: null, milestone: null } },
      errors: [
        {
          type: 'NOT_FOUND',
          path: ['repository', 'issue'],
          message: 'Could not resolve to an Issue with the number of 9999.',
        },
      ],
    });
    expect((missing.body.errors as unknown[]).length).toBe(1);
  });

  it('labels page by 100 with totalCount; orderBy NAME; FORBIDDEN without issues read', async () => {
    const alice = client(world.emulator, 'alice-pat');
    const names = Array.from({ length: 102 }, (_, i) => `bulk-${String(i).padStart(3, '0')}`);
    const { data: created } = await alice.rest.issues.create({
      ...repo,
      title: 'Many labels',
      labels: names,
    });
    const PAGE = `query Page($n: Int!, $after: String) { repository(owner: "alice", name: "repo") {
      issue(number: $n) { labels(first: 100, after: $after, orderBy: {field: NAME, direction: DESC}) {
        totalCount nodes { name } pageInfo { hasNextPage endCursor } } } } }`;
    interface Page {
      repository: {
        issue: {
          labels: {
            totalCount: number;
            nodes: { name: string }[];
            pageInfo: { hasNextPage: boolean; endCursor: string };
          };
        };
      };
    }
    const first = await alice.graphql<Page>(PAGE, { n: created.number });
    expect(first.repository.issue.labels.totalCount).toBe(102);
    expect(first.repository.issue.labels.pageInfo.hasNextPage).toBe(true);
    expect(first.repository.issue.labels.nodes[0]?.name).toBe('bulk-101');
    const second = await alice.graphql<Page>(PAGE, {
      n: created.number,
      after: first.repository.issue.labels.pageInfo.endCursor,
    });
    expect(second.repository.issue.labels.nodes.map((node) => node.name)).toEqual(['bulk-001', 'bulk-000']);
    expect(second.repository.issue.labels.pageInfo.hasNextPage).toBe(false);
    world.emulator.admin.createToken({
      token: 'contents-only-token',
      kind: 'installation',
      app: 'writ-ledger',
      permissions: { contents: 'read' },
    });
    const refused = await graphqlRaw(world.emulator, 'contents-only-token', PAGE, { n: created.number });
    expect(refused.body).toMatchObject({
      data: { repository: { issue: null } },
      errors: [{ type: 'FORBIDDEN' }],
    });
  });

  it('milestones by states and orderBy, paged; each node as REST lists it', async () => {
    const app = client(world.emulator, 'app-token');
    const LIST = `query List($after: String) { repository(owner: "alice", name: "repo") {
      milestones(first: 2, after: $after, states: [OPEN, CLOSED], orderBy: {field: NUMBER, direction: ASC}) {
        totalCount pageInfo { hasNextPage endCursor } nodes { ${MILESTONE} } } } }`;
    interface List {
      repository: {
        milestones: {
          totalCount: number;
          pageInfo: { hasNextPage: boolean; endCursor: string | null };
          nodes: GqlMilestone[];
        };
      };
    }
    const listed: GqlMilestone[] = [];
    let after: string | null = null;
    for (;;) {
      const page: List = await app.graphql<List>(LIST, { after });
      listed.push(...page.repository.milestones.nodes);
      if (!page.repository.milestones.pageInfo.hasNextPage) break;
      after = page.repository.milestones.pageInfo.endCursor;
    }
    const rest = await app.paginate(app.rest.issues.listMilestones, { ...repo, state: 'all', per_page: 100 });
    expect(listed.map((m) => m.number)).toEqual(rest.map((m) => m.number).sort((a, b) => a - b));
    for (const node of listed) sameMilestone(node, rest.find((m) => m.number === node.number) ?? null);
    const open = await app.graphql<List>(
      `{ repository(owner: "alice", name: "repo") { milestones(first: 100, states: [OPEN]) {
        totalCount pageInfo { hasNextPage endCursor } nodes { ${MILESTONE} } } } }`,
    );
    expect(open.repository.milestones.nodes.every((m) => m.state === 'OPEN')).toBe(true);
    expect(open.repository.milestones.totalCount).toBe(rest.filter((m) => m.state === 'open').length);
  });
});
