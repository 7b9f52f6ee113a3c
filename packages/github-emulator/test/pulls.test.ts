/**
 * Pull requests (one per head and base, merge, close, REST and GraphQL listings), contents, commits, merges
 * and comparisons.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { World } from './support/helpers.js';
import {
  client,
  COMMIT_MUTATION,
  commitInput,
  expectConformance,
  graphqlRaw,
  setup,
} from './support/helpers.js';

let world: World;
beforeAll(async () => {
  world = await setup(1, { 'README.md': 'hello\n', 'docs/guide.md': 'guide\n' });
});
afterAll(async () => {
  await world.emulator.close();
  expectConformance();
});

const repo = { owner: 'alice', repo: 'repo' };

async function branchWithCommit(branch: string, path: string, contents: string): Promise<string> {
  const app = client(world.emulator, 'app-token');
  const { data: main } = await app.rest.git.getRef({ ...repo, ref: 'heads/main' });
  await app.rest.git.createRef({ ...repo, ref: `refs/heads/${branch}`, sha: main.object.sha });
  const result = await app.graphql<{ createCommitOnBranch: { commit: { oid: string } } }>(
    COMMIT_MUTATION,
    commitInput(main.object.sha, path, contents, branch),
  );
  return result.createCommitOnBranch.commit.oid;
}

describe('pull requests', () => {
  it('opens one PR per head/base, refuses a second, and lists by head and state', async () => {
    const app = client(world.emulator, 'app-token');
    await branchWithCommit('bot/artifact', 'generated/roadmap.md', '# Roadmap\n');
    const { data: created } = await app.rest.pulls.create({
      ...repo,
      title: 'Update roadmap',
      head: 'bot/artifact',
      base: 'main',
    });
    expect(created).toMatchObject({
      state: 'open',
      merged: false,
      head: { ref: 'bot/artifact' },
      base: { ref: 'main' },
    });
    await expect(
      app.rest.pulls.create({ ...repo, title: 'again', head: 'alice:bot/artifact', base: 'main' }),
    ).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining('A pull request already exists'),
    });
    const { data: byHead } = await app.rest.pulls.list({ ...repo, head: 'alice:bot/artifact', state: 'all' });
    expect(byHead.map((entry) => entry.number)).toEqual([created.number]);
    const { data: issues } = await app.rest.issues.listForRepo({ ...repo });
    expect(issues.find((entry) => entry.number === created.number)?.pull_request).toBeDefined();
    const opened = world.emulator.admin.events().filter((event) => event.event === 'pull_request');
    expect(opened.map((event) => event.action)).toEqual(['opened']);
  });

  it('merges a PR with a verified merge commit and records closed', async () => {
    const app = client(world.emulator, 'app-token');
    const { data: list } = await app.rest.pulls.list({ ...repo });
    const number = list[0]!.number;
    const { data: merged } = await app.rest.pulls.merge({ ...repo, pull_number: number });
    expect(merged.merged).toBe(true);
    const { data: pr } = await app.rest.pulls.get({ ...repo, pull_number: number });
    expect(pr).toMatchObject({ state: 'closed', merged: true, merge_commit_sha: merged.sha });
    const { data: commit } = await app.rest.repos.getCommit({ ...repo, ref: merged.sha });
    expect(commit.parents).toHaveLength(2);
    expect(commit.commit.verification?.verified).toBe(true);
    const { data: file } = await app.rest.repos.getContent({ ...repo, path: 'generated/roadmap.md' });
    expect(Buffer.from((file as { content: string }).content, 'base64').toString()).toBe('# Roadmap\n');
    const last = world.emulator.admin.events().at(-1);
    expect(last).toMatchObject({
      event: 'pull_request',
      action: 'closed',
      payload: { pull_request: { merged: true } },
    });
    const reopened = await app.rest.pulls
      .create({ ...repo, title: 'Again', head: 'bot/artifact', base: 'main' })
      .catch((error: unknown) => error);
    expect(reopened).toMatchObject({
      status: 422,
      message: expect.stringContaining('No commits between main and bot/artifact'),
    });
  });

  it('closes a PR through update', async () => {
    const app = client(world.emulator, 'app-token');
    await branchWithCommit('topic', 'topic.txt', 'x');
    const { data: created } = await app.rest.pulls.create({
      ...repo,
      title: 'Topic',
      head: 'topic',
      base: 'main',
    });
    const { data: closed } = await app.rest.pulls.update({
      ...repo,
      pull_number: created.number,
      state: 'closed',
    });
    expect(closed).toMatchObject({ state: 'closed', merged: false });
    const { data: open } = await app.rest.pulls.list({ ...repo, state: 'open' });
    expect(open).toEqual([]);
  });
});

describe('contents, commits and merges', () => {
  it('reads files and directories, lists and gets commits', async () => {
    const app = client(world.emulator, 'alice-pat');
    const { data: dir } = await app.rest.repos.getContent({ ...repo, path: 'docs' });
    expect(Array.isArray(dir) && dir.map((entry) => entry.path)).toEqual(['docs/guide.md']);
    await expect(app.rest.repos.getContent({ ...repo, path: 'missing.md' })).rejects.toMatchObject({
      status: 404,
    });
    const { data: commits } = await app.rest.repos.listCommits({ ...repo, per_page: 2 });
    expect(commits).toHaveLength(2);
    const { data: root } = await app.rest.repos.getCommit({ ...repo, ref: world.head });
    expect(root.files?.map((file) => file.filename).sort()).toEqual(['README.md', 'docs/guide.md']);
    expect(root.author?.login).toBe('alice');
  });

  it('merges a branch, answers 204 when already merged and 409 on a conflict', async () => {
    const app = client(world.emulator, 'app-token');
    await branchWithCommit('feature-a', 'a.txt', 'a');
    const { status, data } = await app.rest.repos.merge({ ...repo, base: 'main', head: 'feature-a' });
    expect(status).toBe(201);
    expect(data.parents).toHaveLength(2);
    const again = await app.rest.repos.merge({ ...repo, base: 'main', head: 'feature-a' });
    expect(again.status).toBe(204);
    await branchWithCommit('conflict', 'a.txt', 'different');
    const { data: main } = await app.rest.git.getRef({ ...repo, ref: 'heads/main' });
    await app.graphql(COMMIT_MUTATION, commitInput(main.object.sha, 'a.txt', 'main side'));
    await expect(app.rest.repos.merge({ ...repo, base: 'main', head: 'conflict' })).rejects.toMatchObject({
      status: 409,
    });
  });
});

interface PullNode {
  number: number;
  state: string;
  merged: boolean;
  headRefName: string;
  baseRefName: string;
  isCrossRepository: boolean;
  headRepository: { nameWithOwner: string };
}

const PULLS_QUERY = `query Pulls($owner: String!, $name: String!, $head: String) {
  repository(owner: $owner, name: $name) {
    pullRequests(headRefName: $head, first: 100, orderBy: { field: CREATED_AT, direction: DESC }) {
      pageInfo { hasNextPage }
      nodes { number url title body state merged headRefName baseRefName isCrossRepository headRepository { nameWithOwner } }
    }
  }
}`;

interface Comparison {
  status: string;
  aheadBy: number;
  behindBy: number;
  baseTarget: { oid: string };
  headTarget: { oid: string };
  commits: { totalCount: number };
}

const COMPARE_QUERY = `query Compare($owner: String!, $name: String!, $base: String!, $head: String!) {
  repository(owner: $owner, name: $name) {
    ref(qualifiedName: $base) {
      compare(headRef: $head) { status aheadBy behindBy baseTarget { oid } headTarget { oid } commits(first: 10) { totalCount } }
    }
  }
}`;

describe('pull requests and comparisons by GraphQL', () => {
  it('lists pull requests by head as REST does: newest first, MERGED apart from CLOSED, own head only', async () => {
    const app = client(world.emulator, 'app-token');
    const answer = async (head: string): Promise<PullNode[]> =>
      (
        await app.graphql<{ repository: { pullRequests: { nodes: PullNode[] } } }>(PULLS_QUERY, {
          owner: 'alice',
          name: 'repo',
          head,
        })
      ).repository.pullRequests.nodes;
    const merged = await answer('bot/artifact');
    expect(merged.map((node) => [node.state, node.merged])).toEqual([['MERGED', true]]);
    const closed = await answer('topic');
    expect(closed).toMatchObject([
      {
        state: 'CLOSED',
        merged: false,
        headRefName: 'topic',
        baseRefName: 'main',
        isCrossRepository: false,
        headRepository: { nameWithOwner: 'alice/repo' },
      },
    ]);
    const { data: opened } = await app.rest.pulls.create({
      ...repo,
      title: 'Topic again',
      head: 'topic',
      base: 'main',
    });
    const { data: listed } = await app.rest.pulls.list({ ...repo, head: 'alice:topic', state: 'all' });
    const nodes = await answer('topic');
    expect(nodes.map((node) => node.number)).toEqual(listed.map((pull) => pull.number));
    expect(nodes[0]).toMatchObject({ number: opened.number, state: 'OPEN', url: opened.html_url, body: '' });
  });

  it('refuses the pull request list to a token without pull request read access', async () => {
    world.emulator.admin.createToken({
      token: 'contents-only',
      kind: 'installation',
      app: 'writ-ledger',
      permissions: { contents: 'write' },
    });
    const { body } = await graphqlRaw(world.emulator, 'contents-only', PULLS_QUERY, {
      owner: 'alice',
      name: 'repo',
      head: 'topic',
    });
    expect(body).toMatchObject({ errors: [{ type: 'FORBIDDEN' }] });
  });

  it('compares a head ref with a base ref: identical, ahead, diverged, behind, and null when it cannot', async () => {
    const app = client(world.emulator, 'app-token');
    const compare = async (base: string, head: string): Promise<Comparison | null> =>
      (
        await app.graphql<{ repository: { ref: { compare: Comparison | null } } }>(COMPARE_QUERY, {
          owner: 'alice',
          name: 'repo',
          base,
          head,
        })
      ).repository.ref.compare;
    const { data: main } = await app.rest.git.getRef({ ...repo, ref: 'heads/main' });
    await app.rest.git.createRef({ ...repo, ref: 'refs/heads/cmp', sha: main.object.sha });
    expect(await compare('refs/heads/main', 'cmp')).toMatchObject({
      status: 'IDENTICAL',
      aheadBy: 0,
      behindBy: 0,
    });
    const ahead = await app.graphql<{ createCommitOnBranch: { commit: { oid: string } } }>(
      COMMIT_MUTATION,
      commitInput(main.object.sha, 'cmp.txt', 'cmp', 'cmp'),
    );
    expect(await compare('refs/heads/main', 'cmp')).toEqual({
      status: 'AHEAD',
      aheadBy: 1,
      behindBy: 0,
      baseTarget: { oid: main.object.sha },
      headTarget: { oid: ahead.createCommitOnBranch.commit.oid },
      commits: { totalCount: 1 },
    });
    expect(await compare('refs/heads/cmp', 'main')).toMatchObject({
      status: 'BEHIND',
      aheadBy: 0,
      behindBy: 1,
    });
    await app.graphql(COMMIT_MUTATION, commitInput(main.object.sha, 'main-side.txt', 'main'));
    expect(await compare('refs/heads/main', 'cmp')).toMatchObject({
      status: 'DIVERGED',
      aheadBy: 1,
      behindBy: 1,
    });
    expect(await compare('refs/heads/main', 'no-such-branch')).toBeNull();
  });
});
