/**
 * The pre-check's page readers over the primary list endpoints (idempotency/github-pages.ts), against
 * the emulator with the real Octokit: every page in order, `hasNext` from GitHub's Link header, `since`
 * passed on; and the `since` moment less the clock skew.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { startEmulator } from '@writ/github-emulator/index.js';
import type { Emulator } from '@writ/github-emulator/index.js';
import { createGitHubClient, loopbackTimings } from '../../src/github/client.js';
import { SINCE_SKEW_MS, commentPages, issuePages, sinceBefore } from '../../src/idempotency/github-pages.js';
import { idempotencyMarker, withMarker } from '../../src/idempotency/key.js';
import { findOwnMarked } from '../../src/idempotency/precheck.js';

const TOKEN = 'ghp_pagesOwnerAccessToken000000000000000';
let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function world() {
  emulator = await startEmulator({ seed: 3, startTime: Date.parse('2026-11-30T09:00:00Z') });
  emulator.admin.createUser({ login: 'acme' });
  emulator.admin.createToken({ token: TOKEN, kind: 'pat', login: 'acme' });
  emulator.admin.createRepo({ owner: 'acme', name: 'widgets', files: { 'README.md': 'x\n' } });
  const github = createGitHubClient(TOKEN, {
    baseUrl: emulator.url,
    retries: 0,
    ...loopbackTimings(5),
    throttleId: `pages-${process.pid}-${Math.random()}`,
  });
  return { emulator, github };
}

describe('sinceBefore', () => {
  it('is the moment less five minutes, as ISO 8601; no moment, no since', () => {
    expect(SINCE_SKEW_MS).toBe(300_000);
    expect(sinceBefore('2026-11-30T09:00:00Z')).toBe('2026-11-30T08:55:00.000Z');
    expect(sinceBefore('2026-11-30T09:00:00.250+01:00')).toBe('2026-11-30T07:55:00.250Z');
    expect(sinceBefore(null)).toBeUndefined();
  });
});

describe('issuePages and commentPages', () => {
  it('read every issue page in order, the next page from the Link header; the pre-check finds the marked one on the last', async () => {
    const { github } = await world();
    const marker = idempotencyMarker('sha256:' + '1'.repeat(64));
    for (let n = 1; n <= 100; n++) {
      await github.rest.issues.create({ owner: 'acme', repo: 'widgets', title: `issue ${n}` });
    }
    const marked = await github.rest.issues.create({
      owner: 'acme',
      repo: 'widgets',
      title: 'marked',
      body: withMarker('text', marker),
    });
    const read = issuePages(github, 'acme', 'widgets');
    const first = await read(1);
    expect(first.items).toHaveLength(100);
    expect(first.hasNext).toBe(true);
    // Oldest first (sort=created, direction=asc).
    expect((first.items[0] as { title?: string }).title).toBe('issue 1');
    const second = await read(2);
    expect(second.items.map((item) => item.id)).toEqual([marked.data.id]);
    expect(second.hasNext).toBe(false);
    const found = await findOwnMarked(issuePages(github, 'acme', 'widgets'), { marker, ownLogin: 'acme' });
    // An acme PAT is a User, not a Bot: found by its marker, reported as foreign, never adopted.
    expect(found).toMatchObject({ status: 'absent', pagesRead: 2 });
    expect(found.status === 'absent' && found.foreign?.map((item) => item.id)).toEqual([marked.data.id]);
  });

  it('read the comments of one issue, marked ones with their marker', async () => {
    const { github } = await world();
    const marker = idempotencyMarker('sha256:' + '1'.repeat(64));
    await github.rest.issues.create({ owner: 'acme', repo: 'widgets', title: 'one' });
    const plain = await github.rest.issues.createComment({
      owner: 'acme',
      repo: 'widgets',
      issue_number: 1,
      body: 'plain',
    });
    const comment = await github.rest.issues.createComment({
      owner: 'acme',
      repo: 'widgets',
      issue_number: 1,
      body: withMarker('', marker),
    });
    const comments = await commentPages(github, 'acme', 'widgets', 1)(1);
    expect(comments.hasNext).toBe(false);
    expect(comments.items.map((item) => item.id)).toEqual([plain.data.id, comment.data.id]);
    expect(comments.items[1]?.body).toBe(marker);
  });

  it('pass `since` on: only what was updated since is listed', async () => {
    const { github, emulator: current } = await world();
    await github.rest.issues.create({ owner: 'acme', repo: 'widgets', title: 'old' });
    await github.rest.issues.createComment({ owner: 'acme', repo: 'widgets', issue_number: 1, body: 'old' });
    current.admin.clock({ advance_ms: 3_600_000 });
    const since = new Date(Date.parse('2026-11-30T09:30:00Z')).toISOString();
    await github.rest.issues.create({ owner: 'acme', repo: 'widgets', title: 'new' });
    await github.rest.issues.createComment({ owner: 'acme', repo: 'widgets', issue_number: 1, body: 'new' });
    const issues = await issuePages(github, 'acme', 'widgets', since)(1);
    // Issue 1 was updated by its new comment; only issue 2 was created since.
    expect(issues.items.map((item) => (item as { title?: string }).title).sort()).toEqual(['new', 'old']);
    const comments = await commentPages(github, 'acme', 'widgets', 1, since)(1);
    expect(comments.items.map((item) => item.body)).toEqual(['new']);
    const all = await commentPages(github, 'acme', 'widgets', 1)(1);
    expect(all.items.map((item) => item.body)).toEqual(['old', 'new']);
  });
});
