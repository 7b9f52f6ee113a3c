/**
 * syncStatusComment in-process: the real ledger and the real Octokit (retry and throttling installed)
 * against the emulator, with its faults for the answers that never came (a POST applied and its
 * response dropped, one dropped before it applied) and the definite refusals.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { Octokit } from '@octokit/core';
import { errorCode } from '../../src/errors.js';
import type { GitHubClient } from '../../src/github/client.js';
import { statusMarker } from '../../src/idempotency/key.js';
import type { LedgerContext } from '../../src/ledger/cas.js';
import { readRun } from '../../src/ledger/ledger.js';
import { MAX_COMMENT_CHARS, statusBody, syncStatusComment } from '../../src/status-comment/sync.js';
import type { StatusCommentRequest } from '../../src/status-comment/sync.js';
import type { LedgerWorld } from '../ledger/support/emulator.js';
import {
  LEDGER_TOKEN,
  OWNER,
  OWNER_TOKEN,
  REPO,
  emulatorClient,
  ledgerWorld,
} from '../ledger/support/emulator.js';
import { proposePlanFor } from '../ledger/support/fixtures.js';
import { recordingLogger } from '../stages/support/stage-world.js';

let world: LedgerWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const repository = { owner: OWNER, repo: REPO };
const OWN_LOGIN = 'writ-ledger[bot]';

interface Setup {
  world: LedgerWorld;
  github: GitHubClient;
  ledger: LedgerContext;
  logger: ReturnType<typeof recordingLogger>;
  issue: number;
  sync(overrides?: Partial<StatusCommentRequest>): ReturnType<typeof syncStatusComment>;
  comments(): Promise<{ id: number; body?: string }[]>;
  reservation(): Promise<unknown>;
}

async function setup(): Promise<Setup> {
  world = await ledgerWorld({
    appPermissions: { contents: 'write', administration: 'write', issues: 'write' },
  });
  const current = world;
  const github = emulatorClient(current.emulator, LEDGER_TOKEN);
  const owner = emulatorClient(current.emulator, OWNER_TOKEN);
  const ledger = current.context();
  const logger = recordingLogger();
  await proposePlanFor(ledger, 'run-1');
  const { data: issue } = await owner.rest.issues.create({ ...repository, title: 'Status' });
  return {
    world: current,
    github,
    ledger,
    logger,
    issue: issue.number,
    sync: (overrides = {}) =>
      syncStatusComment(
        { github, ledger, logger },
        {
          repository,
          runId: 'run-1',
          issueNumber: issue.number,
          project: (run) => `run ${run.run_id} is ${run.state}`,
          ownLogin: OWN_LOGIN,
          ...overrides,
        },
      ),
    comments: async () =>
      (await owner.rest.issues.listComments({ ...repository, issue_number: issue.number })).data,
    reservation: async () => (await readRun(ledger, 'run-1')).run?.status_comment ?? null,
  };
}

describe('syncStatusComment, in-process', () => {
  it('does nothing when no issue is named and none is reserved', async () => {
    const s = await setup();
    expect(await s.sync({ issueNumber: undefined })).toBeNull();
    expect(await s.comments()).toEqual([]);
  });

  it('refuses a run the ledger does not hold as run-not-found', async () => {
    const s = await setup();
    expect(errorCode(await s.sync({ runId: 'run-2' }).catch((error: unknown) => error))).toBe(
      'run-not-found',
    );
  });

  it('creates the comment, sends nothing for the same projection, updates a changed one in place', async () => {
    const s = await setup();
    const created = await s.sync();
    expect(created).toMatchObject({ action: 'created', commentRequests: 1 });
    const [comment] = await s.comments();
    expect(comment?.body).toBe(statusBody('run-1', 'run run-1 is proposed'));
    expect(await s.reservation()).toMatchObject({
      issue_number: s.issue,
      comment_id: created?.commentId,
      pending_digest: null,
    });

    const unchanged = await s.sync({ issueNumber: undefined });
    expect(unchanged).toEqual({ action: 'unchanged', commentId: created?.commentId, commentRequests: 0 });

    const updated = await s.sync({ project: () => 'something new' });
    expect(updated).toEqual({ action: 'updated', commentId: created?.commentId, commentRequests: 1 });
    const after = await s.comments();
    expect(after).toHaveLength(1);
    expect(after[0]?.body).toBe(statusBody('run-1', 'something new'));
  });

  it('refuses to move a run’s status comment to another issue', async () => {
    const s = await setup();
    await s.sync();
    expect(errorCode(await s.sync({ issueNumber: s.issue + 100 }).catch((error: unknown) => error))).toBe(
      'invalid-input',
    );
  });

  it('a POST whose response was lost is inconclusive, then adopted by its marker, never posted twice', async () => {
    const s = await setup();
    s.world.emulator.admin.addFault({
      match: { method: 'POST', path: `/repos/acme/widgets/issues/${s.issue}/comments` },
      fault: { type: 'apply-then-drop' },
      times: 1,
    });
    expect(errorCode(await s.sync().catch((error: unknown) => error))).toBe('precheck-inconclusive');
    expect(await s.reservation()).toMatchObject({ comment_id: null, pending_digest: expect.any(String) });
    expect(await s.comments()).toHaveLength(1);
    const adopted = await s.sync();
    expect(adopted?.action).toBe('adopted');
    const comments = await s.comments();
    expect(comments).toHaveLength(1);
    expect(adopted?.commentId).toBe(comments[0]?.id);
    expect(await s.reservation()).toMatchObject({ comment_id: comments[0]?.id, pending_digest: null });
  });

  it('on a thread past the page cap, reads back an unanswered POST from its reservation time: one page', async () => {
    const s = await setup();
    // 2,050 earlier comments: 21 pages of 100, past the 20-page cap a scan from page one would hit.
    const plain = new Octokit({ baseUrl: s.world.emulator.url, auth: OWNER_TOKEN });
    for (let i = 0; i < 2050; i += 1) {
      await plain.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        ...repository,
        issue_number: s.issue,
        body: `comment ${i}`,
      });
    }
    s.world.emulator.admin.clock({ advance_ms: 10 * 60_000 });
    s.world.emulator.admin.addFault({
      match: { method: 'POST', path: `/repos/acme/widgets/issues/${s.issue}/comments` },
      fault: { type: 'apply-then-drop' },
      times: 1,
    });
    expect(errorCode(await s.sync().catch((error: unknown) => error))).toBe('precheck-inconclusive');
    const reservation = (await s.reservation()) as { reserved_at?: string };
    // The server's time, from the ledger read before the reservation commit.
    expect(Date.parse(reservation.reserved_at ?? '')).toBeGreaterThanOrEqual(
      Date.parse(s.world.emulator.admin.clock().now) - 60_000,
    );
    const before = s.world.emulator.admin.requests().at(-1)?.seq ?? 0;
    const adopted = await s.sync();
    expect(adopted?.action).toBe('adopted');
    const listings = s.world.emulator.admin
      .requests()
      .filter((entry) => entry.seq > before && entry.method === 'GET' && entry.path.includes('/comments'));
    expect(listings).toHaveLength(1);
    expect(listings[0]?.path).toContain('since=');
    expect((await readRun(s.ledger, 'run-1')).run?.status_comment).toMatchObject({
      comment_id: adopted?.commentId,
      pending_digest: null,
    });
  }, 120_000);

  it('adopts the oldest of two marked comments of its own and removes the other', async () => {
    const s = await setup();
    s.world.emulator.admin.addFault({
      match: { method: 'POST', path: `/repos/acme/widgets/issues/${s.issue}/comments` },
      fault: { type: 'apply-then-drop' },
      times: 1,
    });
    await s.sync().catch(() => undefined);
    const [first] = await s.comments();
    await s.github.rest.issues.createComment({
      ...repository,
      issue_number: s.issue,
      body: statusBody('run-1', 'a concurrent copy'),
    });
    const result = await s.sync();
    expect(result).toMatchObject({ action: 'adopted', commentId: first?.id });
    expect((await s.comments()).map((c) => c.id)).toEqual([first?.id]);
    expect(s.logger.lines.some((line) => line.startsWith('warning: removed duplicate status comment'))).toBe(
      true,
    );
  });

  it('a marker on someone else’s comment is not adopted: the comment is posted', async () => {
    const s = await setup();
    s.world.emulator.admin.addFault({
      match: { method: 'POST', path: `/repos/acme/widgets/issues/${s.issue}/comments` },
      fault: { type: 'drop-before-apply' },
      times: 1,
    });
    expect(errorCode(await s.sync().catch((error: unknown) => error))).toBe('precheck-inconclusive');
    const owner = emulatorClient(s.world.emulator, OWNER_TOKEN);
    await owner.rest.issues.createComment({
      ...repository,
      issue_number: s.issue,
      body: `${statusMarker('run-1')}\nforged`,
    });
    const result = await s.sync();
    expect(result?.action).toBe('created');
    expect(await s.comments()).toHaveLength(2);
  });

  it('a read that fails while reconciling is inconclusive and posts nothing', async () => {
    const s = await setup();
    s.world.emulator.admin.addFault({
      match: { method: 'POST', path: `/repos/acme/widgets/issues/${s.issue}/comments` },
      fault: { type: 'drop-before-apply' },
      times: 1,
    });
    await s.sync().catch(() => undefined);
    s.world.emulator.admin.addFault({
      match: { method: 'GET', path: `/repos/acme/widgets/issues/${s.issue}/comments` },
      fault: { type: 'status', status: 404 },
      times: 1,
    });
    const refused = await s.sync().catch((error: unknown) => error);
    expect(errorCode(refused)).toBe('precheck-inconclusive');
    expect(await s.comments()).toEqual([]);
  });

  it('a definite refusal of the POST clears the reservation and is reported as it came', async () => {
    const s = await setup();
    s.world.emulator.admin.addFault({
      match: { method: 'POST', path: `/repos/acme/widgets/issues/${s.issue}/comments` },
      fault: { type: 'status', status: 422 },
      times: 1,
    });
    const refused = await s.sync().catch((error: unknown) => error);
    expect((refused as { status?: number }).status).toBe(422);
    expect(await s.reservation()).toMatchObject({ comment_id: null, pending_digest: null });
    expect((await s.sync())?.action).toBe('created');
  });

  it('an update that failed is sent again as it was, or read back before a different one', async () => {
    const s = await setup();
    const created = await s.sync();
    const failPatch = () =>
      s.world.emulator.admin.addFault({
        match: { method: 'PATCH', path: '/repos/acme/widgets/issues/comments/*' },
        fault: { type: 'status', status: 422 },
        times: 1,
      });
    failPatch();
    await expect(s.sync({ project: () => 'second' })).rejects.toMatchObject({ status: 422 });
    expect(await s.reservation()).toMatchObject({ pending_digest: expect.any(String) });
    // The same body again: simply re-sent.
    expect(await s.sync({ project: () => 'second' })).toEqual({
      action: 'updated',
      commentId: created?.commentId,
      commentRequests: 1,
    });
    failPatch();
    await expect(s.sync({ project: () => 'third' })).rejects.toMatchObject({ status: 422 });
    // Another body while one is pending: the comment is read back first (one GET, then the PATCH).
    expect(await s.sync({ project: () => 'fourth' })).toEqual({
      action: 'updated',
      commentId: created?.commentId,
      commentRequests: 2,
    });
    // Pending resolved by the read-back to what is there now: the same body sends nothing.
    failPatch();
    await expect(s.sync({ project: () => 'fifth' })).rejects.toMatchObject({ status: 422 });
    expect(await s.sync({ project: () => 'fourth' })).toEqual({
      action: 'unchanged',
      commentId: created?.commentId,
      commentRequests: 1,
    });
    expect((await s.comments())[0]?.body).toBe(statusBody('run-1', 'fourth'));
  });

  it('truncates a body over GitHub’s limit and says where the rest is', () => {
    const body = statusBody('run-1', 'x'.repeat(MAX_COMMENT_CHARS));
    expect(body.length).toBe(MAX_COMMENT_CHARS);
    expect(body.startsWith(statusMarker('run-1'))).toBe(true);
    expect(body).toMatch(/truncated: the full preview is in the workflow run summary/);
  });
});
