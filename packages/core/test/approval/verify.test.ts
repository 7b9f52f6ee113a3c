/**
 * The one approval verification (approval/verify.ts) against the emulator with the real Octokit: the
 * comment read by ID, unedited, the exact command, a human author, the author's live role; GitHub's
 * definite answers become the caller's refusal code, a failed request never does.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { ApprovalCheck } from '../../src/approval/verify.js';
import { verifyApprovalComment, verifyCommandComment } from '../../src/approval/verify.js';
import { WritError } from '../../src/errors.js';
import type { GitHubClient } from '../../src/github/client.js';
import type { LedgerWorld } from '../ledger/support/emulator.js';
import {
  APPROVER,
  APPROVER_TOKEN,
  OWNER,
  OWNER_TOKEN,
  REPO,
  emulatorClient,
  ledgerWorld,
} from '../ledger/support/emulator.js';

const DIGEST = 'ab'.repeat(32);
const MALLORY_TOKEN = 'ghp_malloryWriterAccessToken0000000000';

let world: LedgerWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function setUp(): Promise<{ current: LedgerWorld; reader: GitHubClient; issue: number }> {
  const current = await ledgerWorld({ ruleset: false, bootstrap: false });
  world = current;
  current.emulator.admin.createToken({ token: MALLORY_TOKEN, kind: 'pat', login: 'mallory' });
  // The verifier reads with retries off, so a failed request shows at once.
  const reader = emulatorClient(current.emulator, OWNER_TOKEN, 0);
  const { data } = await reader.rest.issues.create({ owner: OWNER, repo: REPO, title: 'Approvals' });
  return { current, reader, issue: data.number };
}

async function comment(current: LedgerWorld, token: string, issue: number, body: string): Promise<number> {
  const client = emulatorClient(current.emulator, token);
  const { data } = await client.rest.issues.createComment({
    owner: OWNER,
    repo: REPO,
    issue_number: issue,
    body,
  });
  return data.id;
}

function check(commentId: number, overrides: Partial<ApprovalCheck> = {}): ApprovalCheck {
  return {
    repository: { owner: OWNER, repo: REPO },
    commentId,
    commandPrefix: 'writ',
    allowedRoles: ['admin', 'maintain'],
    ...overrides,
  };
}

async function refusalOf(promise: Promise<unknown>): Promise<WritError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WritError);
  return error as WritError;
}

describe('verifyApprovalComment', () => {
  it("verifies a maintainer's unedited approve command, returning its command, author and live role", async () => {
    const { current, reader, issue } = await setUp();
    const id = await comment(current, APPROVER_TOKEN, issue, `writ: approve run-1 ${DIGEST}`);
    const verified = await verifyApprovalComment(reader, check(id));
    expect(verified.command).toEqual({ prefix: 'writ', runId: 'run-1', digestHex: DIGEST });
    expect(verified.author).toMatchObject({ login: APPROVER, type: 'User' });
    expect(verified.comment.id).toBe(id);
    expect(verified.role).toBe('maintain');
  });

  it('refuses a comment that does not exist, under the caller’s code when it gives one', async () => {
    const { reader } = await setUp();
    const plain = await refusalOf(verifyApprovalComment(reader, check(987_654)));
    expect(plain.code).toBe('unauthorized-approval');
    expect(plain.message).toContain('comment 987654 does not exist');
    const gated = await refusalOf(
      verifyApprovalComment(reader, check(987_654, { refuseAs: 'stale-or-mismatched-approval' })),
    );
    expect(gated.code).toBe('stale-or-mismatched-approval');
    expect(gated.message).toContain('comment 987654 does not exist');
    expect((gated.cause as WritError).code).toBe('unauthorized-approval');
  });

  it('refuses an edited comment, even one edited back to the exact command', async () => {
    const { current, reader, issue } = await setUp();
    const id = await comment(current, APPROVER_TOKEN, issue, `writ: approve run-1 ${DIGEST}`);
    const approver = emulatorClient(current.emulator, APPROVER_TOKEN);
    await approver.rest.issues.updateComment({ owner: OWNER, repo: REPO, comment_id: id, body: 'x' });
    await approver.rest.issues.updateComment({
      owner: OWNER,
      repo: REPO,
      comment_id: id,
      body: `writ: approve run-1 ${DIGEST}`,
    });
    expect((await refusalOf(verifyApprovalComment(reader, check(id)))).code).toBe('approval-comment-edited');
  });

  it('refuses a comment that is not exactly the approve command', async () => {
    const { current, reader, issue } = await setUp();
    const cancel = await comment(current, APPROVER_TOKEN, issue, 'writ: cancel run-1');
    expect((await refusalOf(verifyApprovalComment(reader, check(cancel)))).code).toBe('malformed-command');
    const other = await comment(current, APPROVER_TOKEN, issue, `please approve run-1 ${DIGEST}`);
    await expect(verifyApprovalComment(reader, check(other))).rejects.toBeInstanceOf(WritError);
  });

  it("refuses Writ's own bot as the author (by login, in any case)", async () => {
    const { current, reader, issue } = await setUp();
    const id = await comment(current, APPROVER_TOKEN, issue, `writ: approve run-1 ${DIGEST}`);
    const refused = await refusalOf(verifyApprovalComment(reader, check(id, { appBotLogin: 'ALICE' })));
    expect(refused.code).toBe('unauthorized-approval');
    expect(refused.message).toMatch(/not a human/);
  });

  it('holds the author to the allowed roles, read live: a writer is refused until write is allowed', async () => {
    const { current, reader, issue } = await setUp();
    const id = await comment(current, MALLORY_TOKEN, issue, `writ: approve run-1 ${DIGEST}`);
    const refused = await refusalOf(verifyApprovalComment(reader, check(id)));
    expect(refused.code).toBe('insufficient-permission');
    expect(refused.message).toContain("role 'write'");
    expect((await verifyApprovalComment(reader, check(id, { allowedRoles: ['write'] }))).role).toBe('write');
    // The role is read now: the same comment, the writer's access removed, is refused again.
    current.emulator.admin.setCollaborator(OWNER, REPO, 'mallory', 'maintain');
    expect((await verifyApprovalComment(reader, check(id))).role).toBe('maintain');
  });

  it('refuses an author GitHub no longer resolves (404 on the permission read) as holding no role', async () => {
    const { current, reader, issue } = await setUp();
    const id = await comment(current, APPROVER_TOKEN, issue, `writ: approve run-1 ${DIGEST}`);
    current.emulator.admin.addFault({
      match: { method: 'GET', path: '/repos/*/*/collaborators/*/permission' },
      fault: { type: 'status', status: 404 },
      times: 1,
    });
    const refused = await refusalOf(verifyApprovalComment(reader, check(id)));
    expect(refused.code).toBe('insufficient-permission');
    expect(refused.message).toContain("role 'none'");
  });

  it('turns a failed permission read into github-request-failed, never into the caller’s refusal', async () => {
    const { current, reader, issue } = await setUp();
    const id = await comment(current, APPROVER_TOKEN, issue, `writ: approve run-1 ${DIGEST}`);
    current.emulator.admin.addFault({
      match: { method: 'GET', path: '/repos/*/*/collaborators/*/permission' },
      fault: { type: 'status', status: 503 },
      times: 1,
    });
    const failed = await refusalOf(
      verifyApprovalComment(reader, check(id, { refuseAs: 'stale-or-mismatched-approval' })),
    );
    expect(failed.code).toBe('github-request-failed');
    expect(failed.message).toContain('with HTTP 503');
    expect(failed.message).toContain('the approval was not judged');
    expect(failed.details).toEqual({ status: 503 });
  });

  it('refuses an approval whose login now belongs to another account', async () => {
    const { current, reader, issue } = await setUp();
    const id = await comment(current, APPROVER_TOKEN, issue, `writ: approve run-1 ${DIGEST}`);
    // The emulator cannot rename an account: the permission answer is GitHub's for a reused login, the
    // same role for a user with another ID, and every other request goes to the emulator.
    const getPermission = reader.rest.repos.getCollaboratorPermissionLevel;
    const reusedLogin = (async (parameters: Parameters<typeof getPermission>[0]) => {
      const answer = await getPermission(parameters);
      return { ...answer, data: { ...answer.data, user: { ...answer.data.user, id: 424242 } } };
    }) as typeof getPermission;
    const only = <T extends object>(target: T, name: string, value: unknown): T =>
      new Proxy(target, {
        get: (object, key, receiver) => (key === name ? value : Reflect.get(object, key, receiver)),
      });
    const reused = only(
      reader,
      'rest',
      only(reader.rest, 'repos', only(reader.rest.repos, 'getCollaboratorPermissionLevel', reusedLogin)),
    );
    const refused = await refusalOf(verifyApprovalComment(reused, check(id)));
    expect(refused.code).toBe('unauthorized-approval');
    expect(refused.message).toContain('now belongs to another account');
  });

  it('runs beforeRole after the comment checks and before the role is read; its refusal is mapped, other errors pass', async () => {
    const { current, reader, issue } = await setUp();
    const id = await comment(current, MALLORY_TOKEN, issue, `writ: approve run-1 ${DIGEST}`);
    const seen: string[] = [];
    const replayed = await refusalOf(
      verifyApprovalComment(
        reader,
        check(id, {
          refuseAs: 'stale-or-mismatched-approval',
          beforeRole: (command, read) => {
            seen.push(`${command.kind} ${read.id}`);
            return Promise.reject(new WritError('approval-already-consumed', 'already consumed'));
          },
        }),
      ),
    );
    // Refused by beforeRole, not by mallory's role (write is not allowed): the role was not read yet.
    expect(replayed.code).toBe('stale-or-mismatched-approval');
    expect(replayed.message).toBe('already consumed');
    expect(seen).toEqual([`approve ${id}`]);
    const bug = new TypeError('not a refusal');
    await expect(
      verifyApprovalComment(reader, check(id, { beforeRole: () => Promise.reject(bug) })),
    ).rejects.toBe(bug);
  });
});

describe('verifyCommandComment', () => {
  it('verifies any verb of the grammar under the same rules', async () => {
    const { current, reader, issue } = await setUp();
    const id = await comment(current, APPROVER_TOKEN, issue, 'writ: cancel run-1');
    const verified = await verifyCommandComment(reader, check(id));
    expect(verified.command).toMatchObject({ kind: 'cancel', runId: 'run-1' });
    expect(verified.role).toBe('maintain');
    const writer = await comment(current, MALLORY_TOKEN, issue, 'writ: cancel run-1');
    expect((await refusalOf(verifyCommandComment(reader, check(writer)))).code).toBe(
      'insufficient-permission',
    );
  });
});
