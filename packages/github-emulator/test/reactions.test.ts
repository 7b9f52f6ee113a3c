/**
 * Reactions to issue comments as GitHub describes them: 201 when created, 200 with the existing
 * reaction when the caller already added that content (never a duplicate), 422 for a content outside
 * GitHub's eight; listed (filtered by content) and deleted only by the account that made them; the
 * comment's reactions summary counts them, and a reaction is not an edit (`updated_at` and the edit
 * record stay). Every response is held to `@octokit/openapi` (expectConformance).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { World } from './support/helpers.js';
import { client, expectConformance, graphqlRaw, setup } from './support/helpers.js';

let world: World;
let commentId = 0;
const repo = { owner: 'alice', repo: 'repo' };

beforeAll(async () => {
  world = await setup(7);
  const { admin } = world.emulator;
  admin.createToken({
    token: 'no-issues',
    kind: 'installation',
    app: 'writ-ledger',
    permissions: { contents: 'write' },
  });
  admin.createToken({
    token: 'pulls-only',
    kind: 'installation',
    app: 'writ-ledger',
    permissions: { contents: 'write', pull_requests: 'write' },
  });
  const bob = client(world.emulator, 'bob-pat');
  const { data: issue } = await bob.rest.issues.create({ ...repo, title: 'Releases' });
  const { data: comment } = await bob.rest.issues.createComment({
    ...repo,
    issue_number: issue.number,
    body: 'writ: cancel run-1',
  });
  commentId = comment.id;
});
afterAll(async () => {
  await world.emulator.close();
  expectConformance();
});

describe('reactions to an issue comment', () => {
  it('answers 201 for a new reaction and 200 with the same reaction when it exists: never a duplicate', async () => {
    const app = client(world.emulator, 'app-token');
    const first = await app.rest.reactions.createForIssueComment({
      ...repo,
      comment_id: commentId,
      content: 'eyes',
    });
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({ content: 'eyes', user: { login: 'writ-ledger[bot]', type: 'Bot' } });
    const again = await app.rest.reactions.createForIssueComment({
      ...repo,
      comment_id: commentId,
      content: 'eyes',
    });
    expect(again.status).toBe(200);
    expect(again.data.id).toBe(first.data.id);
    // Another account's same content is its own reaction.
    const bob = await client(world.emulator, 'bob-pat').rest.reactions.createForIssueComment({
      ...repo,
      comment_id: commentId,
      content: 'eyes',
    });
    expect(bob.status).toBe(201);
    const { data: listed } = await app.rest.reactions.listForIssueComment({ ...repo, comment_id: commentId });
    expect(listed.map((entry) => [entry.user?.login, entry.content])).toEqual([
      ['writ-ledger[bot]', 'eyes'],
      ['bob', 'eyes'],
    ]);
  });

  it('counts reactions in the comment’s summary, and a reaction is not an edit', async () => {
    const app = client(world.emulator, 'app-token');
    await app.rest.reactions.createForIssueComment({ ...repo, comment_id: commentId, content: 'rocket' });
    const { data } = await app.rest.issues.getComment({ ...repo, comment_id: commentId });
    expect(data.reactions).toMatchObject({ total_count: 3, eyes: 2, rocket: 1, '-1': 0 });
    expect(data.reactions?.url).toMatch(new RegExp(`/issues/comments/${commentId}/reactions$`));
    expect(data.updated_at).toBe(data.created_at);
    const edits = await graphqlRaw(
      world.emulator,
      'app-token',
      'query($id: ID!) { node(id: $id) { ... on IssueComment { lastEditedAt includesCreatedEdit userContentEdits(first: 1) { totalCount } } } }',
      { id: data.node_id },
    );
    expect(edits.body).toEqual({
      data: { node: { lastEditedAt: null, includesCreatedEdit: false, userContentEdits: { totalCount: 0 } } },
    });
  });

  it('lists by content, a page at a time', async () => {
    const app = client(world.emulator, 'app-token');
    const { data: eyes } = await app.rest.reactions.listForIssueComment({
      ...repo,
      comment_id: commentId,
      content: 'eyes',
      per_page: 1,
    });
    expect(eyes.map((entry) => entry.content)).toEqual(['eyes']);
    const { data: rockets } = await app.rest.reactions.listForIssueComment({
      ...repo,
      comment_id: commentId,
      content: 'rocket',
    });
    expect(rockets.map((entry) => entry.user?.login)).toEqual(['writ-ledger[bot]']);
  });

  it('refuses a content outside GitHub’s eight (422), a token without issues write (403), a missing comment (404)', async () => {
    const app = client(world.emulator, 'app-token', { retries: 0 });
    await expect(
      app.request('POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', {
        ...repo,
        comment_id: commentId,
        // Not a content GitHub knows (the request's types say so; the server must too).
        content: 'thumbsup' as unknown as 'eyes',
      }),
    ).rejects.toMatchObject({ status: 422 });
    await expect(
      client(world.emulator, 'no-issues', { retries: 0 }).rest.reactions.createForIssueComment({
        ...repo,
        comment_id: commentId,
        content: 'eyes',
      }),
    ).rejects.toMatchObject({ status: 403 });
    await expect(
      app.rest.reactions.createForIssueComment({ ...repo, comment_id: 999_999, content: 'eyes' }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('lets an installation with pull_requests write react to a pull request’s comment only', async () => {
    const { admin } = world.emulator;
    admin.commitFiles('alice', 'repo', { branch: 'feature', files: { 'f.txt': 'f\n' }, author: 'alice' });
    const bob = client(world.emulator, 'bob-pat');
    const { data: pull } = await bob.rest.pulls.create({
      ...repo,
      title: 'F',
      head: 'feature',
      base: 'main',
    });
    const { data: onPull } = await bob.rest.issues.createComment({
      ...repo,
      issue_number: pull.number,
      body: 'looks good',
    });
    const pulls = client(world.emulator, 'pulls-only', { retries: 0 });
    const created = await pulls.rest.reactions.createForIssueComment({
      ...repo,
      comment_id: onPull.id,
      content: 'hooray',
    });
    expect(created.status).toBe(201);
    await expect(
      pulls.rest.reactions.createForIssueComment({ ...repo, comment_id: commentId, content: 'hooray' }),
    ).rejects.toMatchObject({ status: 403 });
  });

  it('deletes a reaction for the account that made it only (someone else’s answers 404)', async () => {
    const app = client(world.emulator, 'app-token', { retries: 0 });
    const bob = client(world.emulator, 'bob-pat', { retries: 0 });
    const { data: mine } = await app.rest.reactions.createForIssueComment({
      ...repo,
      comment_id: commentId,
      content: '-1',
    });
    await expect(
      bob.rest.reactions.deleteForIssueComment({ ...repo, comment_id: commentId, reaction_id: mine.id }),
    ).rejects.toMatchObject({ status: 404 });
    const deleted = await app.rest.reactions.deleteForIssueComment({
      ...repo,
      comment_id: commentId,
      reaction_id: mine.id,
    });
    expect(deleted.status).toBe(204);
    const { data } = await app.rest.reactions.listForIssueComment({
      ...repo,
      comment_id: commentId,
      content: '-1',
    });
    expect(data).toEqual([]);
  });
});
