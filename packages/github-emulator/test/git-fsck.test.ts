/**
 * Git fidelity under concurrent writers: the exported bare repository passes `git fsck --strict` with the
 * same object IDs.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { GitHubClient } from '@writ/core/github/client.js';
import type { World } from './support/helpers.js';
import { client, COMMIT_MUTATION, commitInput, expectConformance, setup } from './support/helpers.js';

// Hundreds of contended commits: bound the test explicitly.
jest.setTimeout(180_000);

let world: World;
const dirs: string[] = [];
beforeAll(async () => {
  world = await setup(20261130);
});
afterAll(async () => {
  await world.emulator.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  expectConformance();
});

function errorType(error: unknown): string {
  const errors = (error as { errors?: { type?: string }[] }).errors;
  return errors?.[0]?.type ?? `unexpected: ${String(error)}`;
}

describe('git fidelity under concurrent writers', () => {
  it('exports a bare repository that passes git fsck --strict after hundreds of commits, with the same OIDs', async () => {
    const app = client(world.emulator, 'app-token');
    const pat = client(world.emulator, 'alice-pat');
    await app.rest.git.createRef({ owner: 'alice', repo: 'repo', ref: 'refs/heads/busy', sha: world.head });
    const headOf = async (octokit: GitHubClient): Promise<string> =>
      (await octokit.rest.git.getRef({ owner: 'alice', repo: 'repo', ref: 'heads/busy' })).data.object.sha;
    const writer = async (index: number, commits: number): Promise<number> => {
      const octokit =
        index % 2 === 0
          ? client(world.emulator, 'app-token', { retries: 0 })
          : client(world.emulator, index % 4 === 1 ? 'alice-pat' : 'gh-token', { retries: 0 });
      let attempts = 0;
      for (let done = 0; done < commits;) {
        attempts++;
        const head = await headOf(octokit);
        const path = `writers/${index}/${done % 5}.json`;
        const contents = JSON.stringify({ index, done });
        try {
          if (index % 3 === 0) {
            // Through the Git data API: blob, tree on the parent's tree, commit, fast-forward-only ref update.
            const { data: parent } = await octokit.rest.git.getCommit({
              owner: 'alice',
              repo: 'repo',
              commit_sha: head,
            });
            const { data: tree } = await octokit.rest.git.createTree({
              owner: 'alice',
              repo: 'repo',
              base_tree: parent.tree.sha,
              tree: [{ path, mode: '100644', type: 'blob', content: contents }],
            });
            const { data: commit } = await octokit.rest.git.createCommit({
              owner: 'alice',
              repo: 'repo',
              message: `w${index} ${done}\n\nbody`,
              tree: tree.sha,
              parents: [head],
            });
            await octokit.rest.git.updateRef({
              owner: 'alice',
              repo: 'repo',
              ref: 'heads/busy',
              sha: commit.sha,
              force: false,
            });
          } else {
            await octokit.graphql(COMMIT_MUTATION, commitInput(head, path, contents, 'busy'));
          }
          done++;
        } catch (error) {
          const status = (error as { status?: number }).status;
          if (errorType(error) !== 'STALE_DATA' && status !== 422) throw error;
        }
      }
      return attempts;
    };
    const attempts = await Promise.all(Array.from({ length: 6 }, (_, index) => writer(index, 50)));
    expect(attempts.reduce((sum, value) => sum + value, 0)).toBeGreaterThanOrEqual(300);

    const dir = join(mkdtempSync(join(tmpdir(), 'writ-emu-export-')), 'repo.git');
    dirs.push(join(dir, '..'));
    await world.emulator.admin.exportRepo('alice', 'repo', dir);
    execFileSync('git', ['-C', dir, 'fsck', '--strict', '--no-dangling'], { stdio: 'pipe' });
    const gitLog = execFileSync('git', ['-C', dir, 'log', '--format=%H', 'busy'], { encoding: 'utf8' })
      .trim()
      .split('\n');
    expect(gitLog).toHaveLength(301);
    const apiOids: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: {
        repository: {
          ref: {
            target: {
              history: { nodes: { oid: string }[]; pageInfo: { hasNextPage: boolean; endCursor: string } };
            };
          };
        };
      } = await pat.graphql(
        'query($after: String) { repository(owner: "alice", name: "repo") { ref(qualifiedName: "busy") { target { ... on Commit { history(first: 100, after: $after) { nodes { oid } pageInfo { hasNextPage endCursor } } } } } } }',
        { after },
      );
      const history = page.repository.ref.target.history;
      apiOids.push(...history.nodes.map((node) => node.oid));
      if (!history.pageInfo.hasNextPage) break;
      after = history.pageInfo.endCursor;
    }
    expect(apiOids).toEqual(gitLog);
    const tree = execFileSync('git', ['-C', dir, 'ls-tree', '-r', '--name-only', 'busy'], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n');
    expect(tree).toContain('writers/0/4.json');
  });
});
