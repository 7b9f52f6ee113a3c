/**
 * The three-dot comparison from the real git trees (status, ahead/behind, commits, merge base, files with
 * added/modified/removed/renamed and line counts; 404s), and a pull request whose head branch moves: its
 * `head.sha` follows, with `pull_request synchronize`; a merge records merged, merged_at and
 * merge_commit_sha.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Emulator } from '@writ/github-emulator/index.js';
import { client, expectConformance, start } from './support/helpers.js';

let emulator: Emulator;
const where = { owner: 'octo', repo: 'repo' };

beforeAll(async () => {
  emulator = await start(33);
  const { admin } = emulator;
  admin.createUser({ login: 'octo' });
  admin.createUser({ login: 'agent' });
  admin.createToken({ token: 'octo-pat', kind: 'pat', login: 'octo' });
  admin.createRepo({
    owner: 'octo',
    name: 'repo',
    files: { 'README.md': 'one\ntwo\nthree\n', 'old/name.txt': 'moved\n', 'gone.txt': 'bye\n' },
  });
});
afterAll(async () => {
  await emulator.close();
  expectConformance();
});

describe('compare', () => {
  it('compares base...head from the git trees', async () => {
    const { admin } = emulator;
    const first = admin.commitFiles('octo', 'repo', {
      branch: 'feature',
      files: { 'README.md': 'one\n2\nthree\nfour\n', 'new.txt': 'a\nb\n' },
      author: 'agent',
    });
    const second = admin.commitFiles('octo', 'repo', {
      branch: 'feature',
      files: { 'old/name.txt': null, 'new/name.txt': 'moved\n', 'gone.txt': null },
    });
    const github = client(emulator, 'octo-pat');
    const answer = await github.rest.repos.compareCommitsWithBasehead({
      ...where,
      basehead: 'main...feature',
    });
    const main = emulator.world.repo('octo', 'repo')?.refs.get('refs/heads/main');
    expect(answer.data).toMatchObject({
      status: 'ahead',
      ahead_by: 2,
      behind_by: 0,
      total_commits: 2,
      merge_base_commit: { sha: main },
      base_commit: { sha: main },
    });
    expect(answer.data.commits.map((commit) => commit.sha)).toEqual([first.sha, second.sha]);
    expect(
      answer.data.files?.map((file) => [
        file.filename,
        file.status,
        file.additions,
        file.deletions,
        file.previous_filename,
      ]),
    ).toEqual([
      ['README.md', 'modified', 2, 1, undefined],
      ['gone.txt', 'removed', 0, 1, undefined],
      ['new.txt', 'added', 2, 0, undefined],
      ['new/name.txt', 'renamed', 0, 0, 'old/name.txt'],
    ]);

    const reverse = await github.rest.repos.compareCommitsWithBasehead({
      ...where,
      basehead: 'feature...main',
    });
    expect(reverse.data).toMatchObject({ status: 'behind', ahead_by: 0, behind_by: 2, files: [] });
    admin.commitFiles('octo', 'repo', { branch: 'main', files: { 'main.txt': 'm\n' } });
    const diverged = await github.rest.repos.compareCommitsWithBasehead({
      ...where,
      basehead: `main...${second.sha}`,
    });
    expect(diverged.data).toMatchObject({ status: 'diverged', ahead_by: 2, behind_by: 1 });
    expect(diverged.data.files?.map((file) => file.filename)).not.toContain('main.txt');
    const same = await github.rest.repos.compareCommitsWithBasehead({ ...where, basehead: 'main...main' });
    expect(same.data).toMatchObject({ status: 'identical', ahead_by: 0, behind_by: 0, commits: [] });
    await expect(
      github.rest.repos.compareCommitsWithBasehead({ ...where, basehead: 'main...nope' }),
    ).rejects.toMatchObject({ status: 404 });
    expect(() =>
      admin.commitFiles('octo', 'repo', { branch: 'x', base: 'f'.repeat(40), files: { 'x.txt': 'x' } }),
    ).toThrow('unknown base');
    // A root commit shares no history with main: 404 No common ancestor.
    const tree = await github.rest.git.createTree({
      ...where,
      tree: [{ path: 'o.txt', mode: '100644', type: 'blob', content: 'o\n' }],
    });
    const root = await github.rest.git.createCommit({
      ...where,
      message: 'root',
      tree: tree.data.sha,
      parents: [],
    });
    await github.rest.git.createRef({ ...where, ref: 'refs/heads/orphan', sha: root.data.sha });
    await expect(
      github.rest.repos.compareCommitsWithBasehead({ ...where, basehead: 'main...orphan' }),
    ).rejects.toMatchObject({
      status: 404,
      response: { data: { message: 'No common ancestor between main and orphan.' } },
    });
  });
});

describe('pull request head moves', () => {
  it('follows the head branch (synchronize with before/after) and records the merge', async () => {
    const { admin } = emulator;
    const start = admin.commitFiles('octo', 'repo', {
      branch: 'writ/candidate/k1',
      files: { 'c.txt': '1\n' },
      author: 'agent',
    });
    const github = client(emulator, 'octo-pat');
    const pr = await github.rest.pulls.create({
      ...where,
      head: 'writ/candidate/k1',
      base: 'main',
      title: 'c',
    });
    expect(pr.data.head.sha).toBe(start.sha);

    // A move by the admin (a push) and one through the REST API both carry the pull request.
    const moved = admin.commitFiles('octo', 'repo', {
      branch: 'writ/candidate/k1',
      files: { 'c.txt': '2\n' },
    });
    expect((await github.rest.pulls.get({ ...where, pull_number: pr.data.number })).data.head.sha).toBe(
      moved.sha,
    );
    const commit = await github.rest.git.createCommit({
      ...where,
      message: 'three',
      tree: (await github.rest.git.getCommit({ ...where, commit_sha: start.sha })).data.tree.sha,
      parents: [moved.sha],
    });
    await github.rest.git.updateRef({ ...where, ref: 'heads/writ/candidate/k1', sha: commit.data.sha });
    expect((await github.rest.pulls.get({ ...where, pull_number: pr.data.number })).data.head.sha).toBe(
      commit.data.sha,
    );
    const syncs = emulator.world.events.filter(
      (event) => event.event === 'pull_request' && event.action === 'synchronize',
    );
    expect(syncs.map((event) => [event.payload.before, event.payload.after])).toEqual([
      [start.sha, moved.sha],
      [moved.sha, commit.data.sha],
    ]);

    const merged = await github.rest.pulls.merge({
      ...where,
      pull_number: pr.data.number,
      sha: commit.data.sha,
    });
    const after = await github.rest.pulls.get({ ...where, pull_number: pr.data.number });
    expect(after.data).toMatchObject({
      merged: true,
      state: 'closed',
      merge_commit_sha: merged.data.sha,
      head: { sha: commit.data.sha },
    });
    expect(after.data.merged_at).toEqual(expect.any(String));
  });
});
