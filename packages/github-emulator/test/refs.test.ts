/**
 * Git refs and git data over REST: create, fast-forward and forced updates, errors, response headers, and
 * commit verification.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { World } from './support/helpers.js';
import { client, expectConformance, setup } from './support/helpers.js';

let world: World;
beforeAll(async () => {
  world = await setup();
});
afterAll(async () => {
  await world.emulator.close();
  expectConformance();
});

async function commitOn(parent: string, message: string): Promise<string> {
  const octokit = client(world.emulator, 'app-token');
  const { data: parentCommit } = await octokit.rest.git.getCommit({
    owner: 'alice',
    repo: 'repo',
    commit_sha: parent,
  });
  const { data: commit } = await octokit.rest.git.createCommit({
    owner: 'alice',
    repo: 'repo',
    message,
    tree: parentCommit.tree.sha,
    parents: [parent],
  });
  return commit.sha;
}

describe('git refs REST', () => {
  it('gets a ref and lists matching refs', async () => {
    const octokit = client(world.emulator, 'alice-pat');
    const { data: ref } = await octokit.rest.git.getRef({ owner: 'alice', repo: 'repo', ref: 'heads/main' });
    expect(ref).toMatchObject({ ref: 'refs/heads/main', object: { sha: world.head, type: 'commit' } });
    expect(ref.url).toBe(`${world.emulator.url}/repos/alice/repo/git/refs/heads/main`);
    const { data: matching } = await octokit.rest.git.listMatchingRefs({
      owner: 'alice',
      repo: 'repo',
      ref: 'heads/ma',
    });
    expect(matching.map((entry) => entry.ref)).toEqual(['refs/heads/main']);
  });

  it('answers 404 for a missing ref', async () => {
    const octokit = client(world.emulator, 'alice-pat');
    await expect(
      octokit.rest.git.getRef({ owner: 'alice', repo: 'repo', ref: 'heads/nope' }),
    ).rejects.toMatchObject({
      status: 404,
    });
  });

  it('creates a ref and refuses to create it twice with "Reference already exists"', async () => {
    const octokit = client(world.emulator, 'app-token');
    const { status } = await octokit.rest.git.createRef({
      owner: 'alice',
      repo: 'repo',
      ref: 'refs/heads/feature',
      sha: world.head,
    });
    expect(status).toBe(201);
    await expect(
      octokit.rest.git.createRef({
        owner: 'alice',
        repo: 'repo',
        ref: 'refs/heads/feature',
        sha: world.head,
      }),
    ).rejects.toMatchObject({ status: 422, response: { data: { message: 'Reference already exists' } } });
  });

  it('rejects a non-fast-forward update with force:false and accepts it with force:true', async () => {
    const octokit = client(world.emulator, 'app-token');
    await octokit.rest.git.createRef({ owner: 'alice', repo: 'repo', ref: 'refs/heads/ff', sha: world.head });
    const first = await commitOn(world.head, 'one');
    const second = await commitOn(world.head, 'two');
    const updated = await octokit.rest.git.updateRef({
      owner: 'alice',
      repo: 'repo',
      ref: 'heads/ff',
      sha: first,
      force: false,
    });
    expect(updated.data.object.sha).toBe(first);
    await expect(
      octokit.rest.git.updateRef({
        owner: 'alice',
        repo: 'repo',
        ref: 'heads/ff',
        sha: second,
        force: false,
      }),
    ).rejects.toMatchObject({ status: 422, response: { data: { message: 'Update is not a fast forward' } } });
    const forced = await octokit.rest.git.updateRef({
      owner: 'alice',
      repo: 'repo',
      ref: 'heads/ff',
      sha: second,
      force: true,
    });
    expect(forced.data.object.sha).toBe(second);
  });

  it('rejects updating a ref that does not exist and a sha that does not exist', async () => {
    const octokit = client(world.emulator, 'app-token');
    await expect(
      octokit.rest.git.updateRef({ owner: 'alice', repo: 'repo', ref: 'heads/ghost', sha: world.head }),
    ).rejects.toMatchObject({ status: 422, response: { data: { message: 'Reference does not exist' } } });
    await expect(
      octokit.rest.git.createRef({ owner: 'alice', repo: 'repo', ref: 'refs/heads/x2', sha: 'f'.repeat(40) }),
    ).rejects.toMatchObject({ status: 422, response: { data: { message: 'Object does not exist' } } });
  });

  it('answers with application/json, a Date from the emulator clock and rate-limit headers', async () => {
    world.emulator.admin.clock({ now: '2030-01-02T03:04:05Z', freeze: true });
    try {
      const response = await fetch(`${world.emulator.url}/repos/alice/repo/git/ref/heads/nope`, {
        headers: { authorization: 'token alice-pat' },
      });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('date')).toBe('Wed, 02 Jan 2030 03:04:05 GMT');
      expect(response.headers.get('x-ratelimit-limit')).toBe('5000');
      expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeLessThan(5000);
      expect(await response.json()).toMatchObject({
        message: 'Not Found',
        documentation_url: expect.any(String),
      });
    } finally {
      world.emulator.admin.clock({ freeze: false, now: Date.now() });
    }
  });

  it('answers 404 for a malformed path escape rather than failing', async () => {
    const response = await fetch(`${world.emulator.url}/repos/alice/repo/git/ref/heads/%E0%A4%A`, {
      headers: { authorization: 'token alice-pat' },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('answers 401 Bad credentials for an unknown token', async () => {
    const response = await fetch(`${world.emulator.url}/repos/alice/repo`, {
      headers: { authorization: 'token nope' },
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ message: 'Bad credentials' });
  });
});

describe('git data REST', () => {
  it('creates blobs, trees and a parentless root commit', async () => {
    const octokit = client(world.emulator, 'app-token');
    const { data: blob } = await octokit.rest.git.createBlob({
      owner: 'alice',
      repo: 'repo',
      content: 'e30=',
      encoding: 'base64',
    });
    const { data: fetched } = await octokit.rest.git.getBlob({
      owner: 'alice',
      repo: 'repo',
      file_sha: blob.sha,
    });
    expect(Buffer.from(fetched.content, 'base64').toString()).toBe('{}');
    const { data: tree } = await octokit.rest.git.createTree({
      owner: 'alice',
      repo: 'repo',
      tree: [
        { path: 'ledger-root.json', mode: '100644', type: 'blob', sha: blob.sha },
        { path: 'dir/inline.txt', mode: '100644', type: 'blob', content: 'inline' },
      ],
    });
    expect(tree.tree.map((entry) => entry.path)).toEqual(['dir', 'ledger-root.json']);
    const { data: root } = await octokit.rest.git.createCommit({
      owner: 'alice',
      repo: 'repo',
      message: 'root',
      tree: tree.sha,
      parents: [],
    });
    expect(root.parents).toEqual([]);
    expect(root.verification).toMatchObject({ verified: true, reason: 'valid' });
    expect(root.author).toMatchObject({
      name: 'writ-ledger[bot]',
      email: `${world.botId}+writ-ledger[bot]@users.noreply.github.com`,
    });
    const { data: recursive } = await octokit.rest.git.getTree({
      owner: 'alice',
      repo: 'repo',
      tree_sha: tree.sha,
      recursive: '1',
    });
    expect(recursive.tree.map((entry) => entry.path)).toEqual(['dir', 'dir/inline.txt', 'ledger-root.json']);
  });

  it('does not verify commits made with a PAT, a custom author or a custom signature', async () => {
    const app = client(world.emulator, 'app-token');
    const pat = client(world.emulator, 'alice-pat');
    const { data: base } = await app.rest.git.getCommit({
      owner: 'alice',
      repo: 'repo',
      commit_sha: world.head,
    });
    const byPat = await pat.rest.git.createCommit({
      owner: 'alice',
      repo: 'repo',
      message: 'pat',
      tree: base.tree.sha,
      parents: [world.head],
    });
    expect(byPat.data.verification).toMatchObject({ verified: false, reason: 'unsigned' });
    expect(byPat.data.author.name).toBe('alice');
    const custom = await app.rest.git.createCommit({
      owner: 'alice',
      repo: 'repo',
      message: 'custom',
      tree: base.tree.sha,
      parents: [world.head],
      author: { name: 'Someone', email: 'someone@example.com' },
    });
    expect(custom.data.verification).toMatchObject({ verified: false, reason: 'unsigned' });
    const signed = await app.rest.git.createCommit({
      owner: 'alice',
      repo: 'repo',
      message: 'signed',
      tree: base.tree.sha,
      parents: [world.head],
      signature: '-----BEGIN PGP SIGNATURE-----\n\nAAAA\n-----END PGP SIGNATURE-----\n',
    });
    expect(signed.data.verification.verified).toBe(false);
    const actions = client(world.emulator, 'gh-token');
    const byActions = await actions.rest.git.createCommit({
      owner: 'alice',
      repo: 'repo',
      message: 'gh',
      tree: base.tree.sha,
      parents: [world.head],
    });
    expect(byActions.data.verification.verified).toBe(true);
    expect(byActions.data.author.name).toBe('github-actions[bot]');
    expect(byActions.data.author.email).toBe('41898282+github-actions[bot]@users.noreply.github.com');
  });
});
