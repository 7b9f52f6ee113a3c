import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { World } from './support/helpers.js';
import { client, COMMIT_MUTATION, commitInput, expectConformance, setup } from './support/helpers.js';

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
