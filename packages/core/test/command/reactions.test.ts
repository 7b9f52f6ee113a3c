/**
 * Command comments acknowledged with reactions, through the consume-approval stage in-process against
 * the emulator (real Octokit): `eyes` at once, then `rocket` when Writ acted or `-1` when it refused,
 * the refusal's code on the run's status comment. A reaction is never the authority: a failed one
 * changes no outcome, a re-run adds no duplicate, and a reaction someone else planted means nothing.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { errorCode } from '../../src/errors.js';
import { readRun } from '../../src/ledger/ledger.js';
import type { ConsumeApprovalStageSettings } from '../../src/stages/consume-approval.js';
import { consumeApprovalStage } from '../../src/stages/consume-approval.js';
import { OWNER, REPO } from '../ledger/support/emulator.js';
import type { StageWorld } from '../stages/support/stage-world.js';
import { recordingLogger, stageWorld } from '../stages/support/stage-world.js';
import { proposed, settings } from '../stages/support/consume-world.js';

const WRIT = 'writ-ledger[bot]';
const repository = { owner: OWNER, repo: REPO };

let world: StageWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The comment's reactions as `login content`, oldest first. */
async function reactionsOn(current: StageWorld, commentId: number): Promise<string[]> {
  const { data } = await current.owner.rest.reactions.listForIssueComment({
    ...repository,
    comment_id: commentId,
  });
  return data.map((entry) => `${entry.user?.login ?? ''} ${entry.content}`);
}

async function statusBody(current: StageWorld, statusCommentId: number): Promise<string> {
  const { data } = await current.owner.rest.issues.getComment({ ...repository, comment_id: statusCommentId });
  return data.body ?? '';
}

/** Runs the stage; returns its outputs, or the code it failed with. */
async function run(current: StageWorld, stage: ConsumeApprovalStageSettings, logger = recordingLogger()) {
  return consumeApprovalStage(stage, current.deps(logger)).then(
    (result) => ({ outputs: result.outputs, code: null }),
    (error: unknown) => ({ outputs: null, code: errorCode(error) }),
  );
}

describe('command reactions', () => {
  it('an approve gets eyes at once and rocket once the approval is consumed', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { runId, command } = await proposed(world, planFile);
    const commentId = await world.comment(command);
    const seq = world.lastSeq();
    const result = await run(world, settings(world, planFile, commentId));
    expect(result.outputs).toMatchObject({ outcome: 'approved' });
    expect(await reactionsOn(world, commentId)).toEqual([`${WRIT} eyes`, `${WRIT} rocket`]);
    // Received before anything else is read; acted after the consume commit.
    const writes = world.writesSince(seq);
    expect(writes[0]).toMatch(/^POST \/repos\/acme\/widgets\/issues\/comments\/\d+\/reactions$/);
    expect(writes.at(-1)).toMatch(/^POST \/repos\/acme\/widgets\/issues\/comments\/\d+\/reactions$/);
    expect(writes.findIndex((write) => write.includes('createCommitOnBranch'))).toBeGreaterThan(0);
    expect((await readRun(world.ledgerWorld.context(), runId)).run?.state).toBe('approved');
  });

  it('a cancel gets eyes and rocket, and a re-run of it adds no reaction and no refusal', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { runId, statusCommentId } = await proposed(world, planFile);
    const commentId = await world.comment(`writ: cancel ${runId}`);
    expect((await run(world, settings(world, planFile, commentId))).outputs).toMatchObject({
      outcome: 'cancelled',
    });
    const shown = await statusBody(world, statusCommentId);
    expect(shown).toContain('Cancelled by @');
    // The job re-run: the comment is tombstoned (refused as consumed), yet it did act: rocket again (200).
    const rerun = await run(world, settings(world, planFile, commentId));
    expect(rerun.code).toBe('approval-already-consumed');
    expect(await reactionsOn(world, commentId)).toEqual([`${WRIT} eyes`, `${WRIT} rocket`]);
    expect(await statusBody(world, statusCommentId)).toBe(shown);
  });

  it('a command whose author holds no allowed role gets eyes and -1 only: no ledger record, no status edit', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { runId, command, statusCommentId } = await proposed(world, planFile);
    const before = await statusBody(world, statusCommentId);
    const commentId = await world.comment(command);
    const seq = world.lastSeq();
    const refused = await run(world, settings(world, planFile, commentId, { allowedRoles: ['admin'] }));
    expect(refused.code).toBe('insufficient-permission');
    expect(await reactionsOn(world, commentId)).toEqual([`${WRIT} eyes`, `${WRIT} -1`]);
    // Anyone may comment: an unauthorized command costs no ledger record and no status comment edit.
    expect(await statusBody(world, statusCommentId)).toBe(before);
    const reactionsOnly = [
      'POST /repos/acme/widgets/issues/comments/N/reactions',
      'POST /repos/acme/widgets/issues/comments/N/reactions',
    ];
    expect(world.writesSince(seq).map((write) => write.replace(/\d+/g, 'N'))).toEqual(reactionsOnly);
    // The refusal is no authority either way: the run is still proposed, waiting for its approval.
    expect((await readRun(world.ledgerWorld.context(), runId)).run?.state).toBe('proposed');
    const again = world.lastSeq();
    expect((await run(world, settings(world, planFile, commentId, { allowedRoles: ['admin'] }))).code).toBe(
      'insufficient-permission',
    );
    expect(await reactionsOn(world, commentId)).toEqual([`${WRIT} eyes`, `${WRIT} -1`]);
    expect(world.writesSince(again).map((write) => write.replace(/\d+/g, 'N'))).toEqual(reactionsOnly);
  });

  it("an allowed author's refused command: its code on the status comment once; a re-run adds nothing", async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { runId, command, statusCommentId } = await proposed(world, planFile);
    const commentId = await world.comment(`writ: approve ${runId} ${'0'.repeat(64)}`);
    const refused = await run(world, settings(world, planFile, commentId));
    expect(refused.code).toBe('stale-or-mismatched-approval');
    expect(await reactionsOn(world, commentId)).toEqual([`${WRIT} eyes`, `${WRIT} -1`]);
    const shown = await statusBody(world, statusCommentId);
    expect(shown).toContain(
      `Last command refused: \`approve\` in comment ${commentId}, [\`stale-or-mismatched-approval\`](https://github.com/writ-actions/writ/blob/main/docs/errors.md#stale-or-mismatched-approval).`,
    );
    expect((await readRun(world.ledgerWorld.context(), runId)).run?.state).toBe('proposed');
    const seq = world.lastSeq();
    expect((await run(world, settings(world, planFile, commentId))).code).toBe(
      'stale-or-mismatched-approval',
    );
    expect(await reactionsOn(world, commentId)).toEqual([`${WRIT} eyes`, `${WRIT} -1`]);
    expect(await statusBody(world, statusCommentId)).toBe(shown);
    // Only the two reactions were sent again (each answered 200), nothing else was written.
    expect(world.writesSince(seq).map((write) => write.replace(/\d+/g, 'N'))).toEqual([
      'POST /repos/acme/widgets/issues/comments/N/reactions',
      'POST /repos/acme/widgets/issues/comments/N/reactions',
    ]);
    // A later command that acts replaces the refusal line.
    const approved = await run(world, settings(world, planFile, await world.comment(command)));
    expect(approved.outputs).toMatchObject({ outcome: 'approved' });
    expect(await statusBody(world, statusCommentId)).not.toContain('Last command refused');
  });

  it('a stale approval is refused with its code, and the status comment shows no text of the comment', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { runId, statusCommentId } = await proposed(world, planFile);
    const commentId = await world.comment(`writ: approve ${runId} ${'0'.repeat(64)}`);
    const refused = await run(world, settings(world, planFile, commentId));
    expect(refused.code).toBe('stale-or-mismatched-approval');
    expect(await reactionsOn(world, commentId)).toEqual([`${WRIT} eyes`, `${WRIT} -1`]);
    const shown = await statusBody(world, statusCommentId);
    expect(shown).toContain(`in comment ${commentId}, [\`stale-or-mismatched-approval\`]`);
    expect(shown).not.toContain('0'.repeat(64));
  });

  it('a reconcile of a run that needs none is refused with its code on the status comment', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { runId, statusCommentId } = await proposed(world, planFile);
    const commentId = await world.comment(`writ: reconcile ${runId} build-artifacts done`);
    const refused = await run(world, settings(world, planFile, commentId));
    expect(refused.code).toBe('invalid-transition');
    expect(await reactionsOn(world, commentId)).toEqual([`${WRIT} eyes`, `${WRIT} -1`]);
    expect(await statusBody(world, statusCommentId)).toContain(
      `Last command refused: \`reconcile\` in comment ${commentId}, [\`invalid-transition\`]`,
    );
  });

  it('a comment that is no command gets eyes and -1, and no status comment changes', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { runId, statusCommentId } = await proposed(world, planFile);
    const before = await statusBody(world, statusCommentId);
    const commentId = await world.comment(`writ: cancel ${runId}\n@everyone <img src=x onerror=alert(1)>`);
    const logger = recordingLogger();
    const refused = await run(world, settings(world, planFile, commentId), logger);
    expect(refused.code).toBe('malformed-command');
    expect(await reactionsOn(world, commentId)).toEqual([`${WRIT} eyes`, `${WRIT} -1`]);
    expect(await statusBody(world, statusCommentId)).toBe(before);
    expect(logger.lines.join('\n')).not.toMatch(/everyone|onerror/);
  });

  it('a reaction that fails changes nothing: the approval is consumed, a coded warning is logged', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { runId, command, statusCommentId } = await proposed(world, planFile);
    const commentId = await world.comment(command);
    world.ledgerWorld.emulator.admin.addFault({
      match: { method: 'POST', path: '/repos/acme/widgets/issues/comments/*/reactions' },
      fault: { type: 'status', status: 502 },
    });
    const logger = recordingLogger();
    const result = await run(world, settings(world, planFile, commentId), logger);
    expect(result.outputs).toMatchObject({ 'run-id': runId, epoch: 1, outcome: 'approved', reason: '' });
    expect((await readRun(world.ledgerWorld.context(), runId)).run).toMatchObject({
      state: 'approved',
      approval: { comment_id: commentId },
    });
    expect(await statusBody(world, statusCommentId)).toContain('Approved by @');
    expect(await reactionsOn(world, commentId)).toEqual([]);
    const warnings = logger.lines.filter((line) => line.startsWith('warning: command-reaction-failed'));
    expect(warnings).toEqual([
      expect.stringContaining(
        `the received reaction (eyes) on comment ${commentId} was not added (HTTP 502)`,
      ),
      expect.stringContaining(`the acted reaction (rocket) on comment ${commentId} was not added (HTTP 502)`),
    ]);
  });

  it('a refusal stands when its reaction fails, and its code still reaches the status comment', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { runId, statusCommentId } = await proposed(world, planFile);
    const staleId = await world.comment(`writ: approve ${runId} ${'0'.repeat(64)}`);
    world.ledgerWorld.emulator.admin.addFault({
      match: { method: 'POST', path: '/repos/acme/widgets/issues/comments/*/reactions' },
      fault: { type: 'status', status: 403 },
    });
    const refused = await run(world, settings(world, planFile, staleId));
    expect(refused.code).toBe('stale-or-mismatched-approval');
    expect(await statusBody(world, statusCommentId)).toContain('[`stale-or-mismatched-approval`]');
  });

  it('a reaction planted by someone else means nothing: the refusal stands and Writ adds its own', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { runId, command } = await proposed(world, planFile);
    const commentId = await world.comment(command);
    // The approver plants the "acted" reaction on their own comment before Writ looks at it.
    await world.approver.rest.reactions.createForIssueComment({
      ...repository,
      comment_id: commentId,
      content: 'rocket',
    });
    const refused = await run(world, settings(world, planFile, commentId, { allowedRoles: ['admin'] }));
    expect(refused.code).toBe('insufficient-permission');
    expect(await reactionsOn(world, commentId)).toEqual(['alice rocket', `${WRIT} eyes`, `${WRIT} -1`]);
    expect((await readRun(world.ledgerWorld.context(), runId)).run?.state).toBe('proposed');
  });

  it('a dry run adds no reaction', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { command } = await proposed(world, planFile);
    const commentId = await world.comment(command);
    const result = await run(world, settings(world, planFile, commentId, { dryRun: true }));
    expect(result.outputs).toMatchObject({ outcome: 'dry-run' });
    expect(await reactionsOn(world, commentId)).toEqual([]);
  });
});
