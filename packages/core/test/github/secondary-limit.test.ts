/**
 * Writ's real client against the emulator's model of GitHub's secondary limit on content creation
 * (80 a minute, 500 an hour): with pacing off a burst meets the 403 and the refused write is not sent
 * again; with the pacer on the emulator's frozen clock (its `now` reads the clock, its `sleep` advances
 * it) 200 content-creating requests go through with no refusal; after a refusal every request of the
 * client is held for the `retry-after` GitHub asked for, and a CAS write is resent after the hold.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { WritError } from '../../src/errors.js';
import { createGitHubClient, loopbackTimings, pacerOf } from '../../src/github/client.js';
import type { GitHubClient } from '../../src/github/client.js';
import { CAS_WRITE } from '../../src/github/write-retry.js';
import { startEmulator } from '@writ/github-emulator/index.js';
import type { Emulator } from '@writ/github-emulator/index.js';

const START = Date.parse('2026-11-30T09:00:00Z');
const repo = { owner: 'acme', repo: 'widgets' };
const COMMIT = `mutation Commit($input: CreateCommitOnBranchInput!) {
  createCommitOnBranch(input: $input) { commit { oid } }
}`;

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function limitedWorld(): Promise<Emulator> {
  emulator = await startEmulator({ seed: 1, startTime: START, secondaryLimits: true });
  const { admin } = emulator;
  admin.createUser({ login: 'acme' });
  admin.createApp({ slug: 'writ' });
  admin.createToken({ token: 'app-token', kind: 'installation', app: 'writ' });
  admin.createToken({ token: 'app-token-2', kind: 'installation', app: 'writ' });
  admin.createRepo({ owner: 'acme', name: 'widgets', files: { 'README.md': 'hello\n' } });
  admin.clock({ freeze: true });
  return emulator;
}

let clients = 0;
function client(target: Emulator, paced: boolean): GitHubClient {
  clients += 1;
  const clock = target.world.clock;
  return createGitHubClient('app-token', {
    baseUrl: target.url,
    ...loopbackTimings(5),
    throttleId: `secondary-limit-test-${process.pid}-${clients}`,
    ...(paced
      ? {
          pacing: {
            now: () => clock.now(),
            sleep: (ms: number) => {
              clock.advance(ms);
              return Promise.resolve();
            },
          },
        }
      : {}),
  });
}

/** What another caller sharing the installation (another token of the app) creates, over raw HTTP. */
async function burst(target: Emulator, count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    const response = await fetch(`${target.url}/repos/acme/widgets/issues`, {
      method: 'POST',
      headers: { authorization: 'token app-token-2', 'content-type': 'application/json' },
      body: JSON.stringify({ title: `elsewhere ${index}` }),
    });
    expect(response.status).toBe(201);
  }
}

async function commit(github: GitHubClient, target: Emulator, path: string): Promise<void> {
  const head = target.world.repo('acme', 'widgets')?.refs.get('refs/heads/main') ?? '';
  await github.request('POST /graphql', {
    query: COMMIT,
    variables: {
      input: {
        branch: { repositoryNameWithOwner: 'acme/widgets', branchName: 'main' },
        expectedHeadOid: head,
        message: { headline: `write ${path}` },
        fileChanges: { additions: [{ path, contents: Buffer.from(path).toString('base64') }] },
      },
    },
    request: CAS_WRITE,
  });
}

function refusals(target: Emulator): number {
  return target.admin.requests().filter((entry) => entry.secondaryLimited).length;
}

describe("the client against GitHub's secondary limit (emulated)", () => {
  it('pacing off: the 81st write of a burst is refused with 403 and not sent again', async () => {
    const target = await limitedWorld();
    const github = client(target, false);
    for (let index = 0; index < 80; index += 1) {
      await github.rest.issues.create({ ...repo, title: `burst ${index}` });
    }
    const error = await github.rest.issues.create({ ...repo, title: 'the 81st' }).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(WritError);
    expect(error).toMatchObject({
      code: 'secondary-rate-limit',
      details: { retryAfterSeconds: 60, status: 403 },
    });
    const posts = target.admin.requests().filter((entry) => entry.method === 'POST');
    expect(posts).toHaveLength(81);
    expect(posts[80]).toMatchObject({ status: 403, secondaryLimited: true });
    expect(target.world.repo('acme', 'widgets')?.issues.size).toBe(80);
    expect(pacerOf(github)?.figures()).toMatchObject({ contentCreating: 81, paced: 0, refusals: 1 });
  });

  it("pacing on the emulator's clock: 200 content-creating requests, REST and GraphQL, with no refusal", async () => {
    const target = await limitedWorld();
    const github = client(target, true);
    const pacer = pacerOf(github);
    pacer?.expect(200);
    const started = target.world.clock.now();
    for (let index = 0; index < 100; index += 1) {
      const { data } = await github.rest.issues.create({ ...repo, title: `paced ${index}` });
      if (index % 2 === 0)
        await github.rest.issues.update({ ...repo, issue_number: data.number, title: 'edited' });
      else await commit(github, target, `file-${index}.txt`);
    }
    expect(refusals(target)).toBe(0);
    const created = target.admin.requests().filter((entry) => entry.contentCreating);
    expect(created).toHaveLength(200);
    expect(created.every((entry) => entry.status === 200 || entry.status === 201)).toBe(true);
    // A second apart on the emulator's clock (200 fit the hour's 480: no even spacing).
    expect(target.world.clock.now() - started).toBe(199_000);
    expect(pacer?.figures()).toEqual({
      contentCreating: 200,
      paced: 199,
      waitedMs: 199_000,
      largestWaitMs: 1000,
      refusals: 0,
    });
  });

  it('after a refusal every request waits out retry-after on the shared clock; the write is not resent', async () => {
    const target = await limitedWorld();
    await burst(target, 80);
    const github = client(target, true);
    const refusedAt = target.world.clock.now();
    await expect(github.rest.issues.create({ ...repo, title: 'over the minute' })).rejects.toMatchObject({
      code: 'secondary-rate-limit',
      details: { retryAfterSeconds: 60 },
    });
    expect(refusals(target)).toBe(1);
    // A read is held too, until the minute has passed on the emulator's clock.
    await github.rest.repos.get(repo);
    expect(target.world.clock.now()).toBe(refusedAt + 60_000);
    await github.rest.issues.create({ ...repo, title: 'after the hold' });
    expect(refusals(target)).toBe(1);
    const titles = [...(target.world.repo('acme', 'widgets')?.issues.values() ?? [])].map(
      (issue) => issue.title,
    );
    expect(titles).not.toContain('over the minute');
    expect(titles).toContain('after the hold');
    expect(pacerOf(github)?.figures()).toMatchObject({ refusals: 1, largestWaitMs: 60_000 });
  });

  it('a CAS write refused by the limit is sent again after the hold, and lands', async () => {
    const target = await limitedWorld();
    await burst(target, 80);
    const github = client(target, true);
    const before = target.world.repo('acme', 'widgets')?.refs.get('refs/heads/main');
    await commit(github, target, 'after-the-hold.txt');
    const commits = target.admin.requests().filter((entry) => entry.path === '/graphql');
    expect(commits.map((entry) => entry.status)).toEqual([403, 200]);
    expect(Date.parse(commits[1]?.timestamp ?? '') - Date.parse(commits[0]?.timestamp ?? '')).toBe(60_000);
    expect(target.world.repo('acme', 'widgets')?.refs.get('refs/heads/main')).not.toBe(before);
  });
});
