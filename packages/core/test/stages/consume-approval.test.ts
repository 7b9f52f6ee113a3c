/**
 * The consume-approval stage in-process: a run proposed by the preview stage, a maintainer's comment,
 * the stage's settings straight in and its dependencies from its own `connect` (real Octokit and
 * plugins against the emulator on loopback).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { errorCode } from '../../src/errors.js';
import { claimStep, readRun, takeoverRun } from '../../src/ledger/ledger.js';
import { consumeApprovalStage } from '../../src/stages/consume-approval.js';
import { APPROVER, OWNER, REPO, REPOSITORY } from '../ledger/support/emulator.js';
import type { StageWorld } from './support/stage-world.js';
import { recordingLogger, stageWorld } from './support/stage-world.js';
import { proposed, settings } from './support/consume-world.js';

let world: StageWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('consume-approval stage, in-process', () => {
  it('consumes the approval, takes the lease and moves the status comment on', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { runId, command, statusCommentId } = await proposed(world, planFile);
    const commentId = await world.comment(command);
    const result = await consumeApprovalStage(settings(world, planFile, commentId), world.deps());
    expect(result.outputs).toMatchObject({ 'run-id': runId, epoch: 1, outcome: 'approved', reason: '' });
    expect(String(result.outputs['lease-expires-at'])).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(result.summary).toContain(`approved by @${APPROVER} (maintain)`);
    expect(result.summary).toContain(`Status comment ${statusCommentId}: updated.`);
    const run = (await readRun(world.ledgerWorld.context(), runId)).run;
    expect(run).toMatchObject({ state: 'approved', approval: { comment_id: commentId, epoch: 1 } });
    const { data } = await world.owner.rest.issues.getComment({
      owner: OWNER,
      repo: REPO,
      comment_id: statusCommentId,
    });
    expect(data.body).toContain(`Approved by @${APPROVER} (maintain)`);
  });

  it('a dry run verifies everything, shows the ledger commit it would make and writes nothing', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { runId, command } = await proposed(world, planFile);
    const commentId = await world.comment(command);
    const seq = world.lastSeq();
    const result = await consumeApprovalStage(
      settings(world, planFile, commentId, { dryRun: true }),
      world.deps(),
    );
    expect(result.outputs).toMatchObject({ 'run-id': runId, outcome: 'dry-run' });
    expect(result.summary).toContain('(dry run: nothing written)');
    expect(result.summary).toContain('Ledger commit (dry run: not written)');
    expect(result.summary).not.toContain('Status comment');
    expect(world.writesSince(seq)).toEqual([]);
    expect((await readRun(world.ledgerWorld.context(), runId)).run?.state).toBe('proposed');
  });

  it('reports a status comment it could not update, and the approval stands', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { runId, command } = await proposed(world, planFile);
    const commentId = await world.comment(command);
    world.ledgerWorld.emulator.admin.addFault({
      match: { method: 'PATCH', path: '/repos/acme/widgets/issues/comments/*' },
      fault: { type: 'status', status: 422 },
    });
    const logger = recordingLogger();
    const result = await consumeApprovalStage(settings(world, planFile, commentId), world.deps(logger));
    expect(result.outputs).toMatchObject({ outcome: 'approved' });
    expect(result.summary).toMatch(/Status comment not updated \([a-z-]+\); the approval stands\./);
    expect(logger.lines.some((line) => line.startsWith('warning: status comment not updated'))).toBe(true);
    expect((await readRun(world.ledgerWorld.context(), runId)).run?.state).toBe('approved');
  });

  it('refuses an approval of another digest and leaves the run proposed', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { runId } = await proposed(world, planFile);
    const commentId = await world.comment(`writ: approve ${runId} ${'0'.repeat(64)}`);
    const refused = await consumeApprovalStage(settings(world, planFile, commentId), world.deps()).catch(
      (error: unknown) => error,
    );
    expect(errorCode(refused)).toBe('stale-or-mismatched-approval');
    expect((await readRun(world.ledgerWorld.context(), runId)).run?.state).toBe('proposed');
  });

  it('refuses a comment by a role that is not allowed as insufficient-permission', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { command } = await proposed(world, planFile);
    const commentId = await world.comment(command);
    const refused = await consumeApprovalStage(
      settings(world, planFile, commentId, { allowedRoles: ['admin'] }),
      world.deps(),
    ).catch((error: unknown) => error);
    expect(errorCode(refused)).toBe('insufficient-permission');
  });

  it('refuses a replayed approval from the comment, its edit record and one ledger read, before the role or rulesets', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { runId, command } = await proposed(world, planFile);
    const commentId = await world.comment(command);
    await consumeApprovalStage(settings(world, planFile, commentId), world.deps());
    const seq = world.lastSeq();
    const refused = await consumeApprovalStage(settings(world, planFile, commentId), world.deps()).catch(
      (error: unknown) => error,
    );
    expect(errorCode(refused)).toBe('approval-already-consumed');
    const sent = world.ledgerWorld.emulator.admin
      .requests()
      .filter((r) => r.seq > seq)
      .map((r) => (r.path === '/graphql' ? r.operation : `${r.method} ${r.path.replace(/\?.*$/, '')}`));
    // Around the judgement only the comment's acknowledgement (command/reactions.ts): the reactions
    // the first run added, each answered 200, never a second one; the comment acted, so no -1.
    const reactions = `POST /repos/${REPOSITORY}/issues/comments/${commentId}/reactions`;
    expect(sent).toEqual([
      reactions,
      `GET /repos/${REPOSITORY}/issues/comments/${commentId}`,
      'WritCommentEdits',
      'WritLedgerRead',
      reactions,
    ]);
    expect(world.writesSince(seq)).toEqual([reactions, reactions]);
    const { data: listed } = await world.owner.rest.reactions.listForIssueComment({
      owner: OWNER,
      repo: REPO,
      comment_id: commentId,
    });
    expect(listed.map((entry) => entry.content)).toEqual(['eyes', 'rocket']);
    expect((await readRun(world.ledgerWorld.context(), runId)).run?.approval?.comment_id).toBe(commentId);
  });

  it('refuses a second comment approving a consumed run the same way, whoever wrote it', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { command } = await proposed(world, planFile);
    await consumeApprovalStage(settings(world, planFile, await world.comment(command)), world.deps());
    // Even with no allowed role: a refusal writes nothing and grants nothing, so no role is read for it.
    const refused = await consumeApprovalStage(
      settings(world, planFile, await world.comment(command), { allowedRoles: ['admin'] }),
      world.deps(),
    ).catch((error: unknown) => error);
    expect(errorCode(refused)).toBe('approval-already-consumed');
  });

  it('reads the approver’s role and proves the rulesets before consuming on that same first read', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { command } = await proposed(world, planFile);
    const commentId = await world.comment(command);
    const seq = world.lastSeq();
    await consumeApprovalStage(settings(world, planFile, commentId), world.deps());
    const sent = world.ledgerWorld.emulator.admin
      .requests()
      .filter((r) => r.seq > seq)
      .map((r) => (r.path === '/graphql' ? r.operation : `${r.method} ${r.path.replace(/\?.*$/, '')}`));
    const consumeAt = sent.indexOf('WritCommitOnBranch');
    const before = sent.slice(0, consumeAt);
    expect(before.filter((op) => op === 'WritLedgerRead')).toHaveLength(1);
    expect(before.some((op) => op?.includes('/collaborators/'))).toBe(true);
    // The branch's rules come with that read (Ref.rules); each ruleset's bypass actors by REST.
    expect(before.filter((op) => op?.includes('/rulesets/'))).toHaveLength(2);
  });

  /** A run approved by holder 77 whose first step was claimed, then taken over with its outcome unknown. */
  async function needsReconciliation(current: StageWorld, planFile: string): Promise<string> {
    const { runId, command } = await proposed(current, planFile);
    await consumeApprovalStage(settings(current, planFile, await current.comment(command)), current.deps());
    const ledger = current.ledgerWorld.context();
    const holder = { workflow_run_id: 77, attempt: 1 };
    await claimStep(ledger, {
      runId,
      stepId: 'build-artifacts',
      epoch: 1,
      holder: { run_id: runId, ...holder },
    });
    current.ledgerWorld.emulator.admin.clock({ advance_ms: 12 * 60_000 });
    await takeoverRun(ledger, {
      runId,
      holder: { workflow_run_id: 99, attempt: 1 },
      resolutions: { 'build-artifacts': { state: 'unknown', reason: 'external-step' } },
    });
    return runId;
  }

  it('records a cancel command with the human’s ID and shows it on the status comment', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { runId, statusCommentId } = await proposed(world, planFile);
    const commentId = await world.comment(`writ: cancel ${runId}`);
    const result = await consumeApprovalStage(settings(world, planFile, commentId), world.deps());
    expect(result.outputs).toMatchObject({ 'run-id': runId, outcome: 'cancelled', reason: '' });
    expect(String(result.outputs.digest)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(result.summary).toContain(`## Writ cancel recorded`);
    expect(result.summary).toContain(
      `Run \`${runId}\` cancelled by @${APPROVER} (maintain); run now cancelled.`,
    );
    expect(result.summary).toMatch(/Status comment: [a-z-]+\./);
    const run = (await readRun(world.ledgerWorld.context(), runId)).run;
    expect(run).toMatchObject({ state: 'cancelled', cancelled_by: { actor_login: APPROVER } });
    const { data } = await world.owner.rest.issues.getComment({
      owner: OWNER,
      repo: REPO,
      comment_id: statusCommentId,
    });
    expect(data.body).toContain(`Cancelled by @${APPROVER} (maintain).`);
  });

  it('a cancel in a dry run shows the ledger commit it would make and writes nothing', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { runId } = await proposed(world, planFile);
    const commentId = await world.comment(`writ: cancel ${runId}`);
    const seq = world.lastSeq();
    const result = await consumeApprovalStage(
      settings(world, planFile, commentId, { dryRun: true }),
      world.deps(),
    );
    expect(result.outputs).toMatchObject({ outcome: 'dry-run' });
    expect(result.summary).toContain('## Writ cancel (dry run: nothing written)');
    expect(result.summary).toContain('Ledger commit (dry run: not written)');
    expect(world.writesSince(seq)).toEqual([]);
    expect((await readRun(world.ledgerWorld.context(), runId)).run?.state).toBe('proposed');
  });

  it('records a reconcile command for a step that needs a human, and the run moves on', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const runId = await needsReconciliation(world, planFile);
    const commentId = await world.comment(`writ: reconcile ${runId} build-artifacts done`);
    const result = await consumeApprovalStage(settings(world, planFile, commentId), world.deps());
    expect(result.outputs).toMatchObject({ 'run-id': runId, outcome: 'reconciled', epoch: 2 });
    expect(result.summary).toContain(
      `Run \`${runId}\` step \`build-artifacts\` reconciled as done by @${APPROVER} (maintain)`,
    );
    const run = (await readRun(world.ledgerWorld.context(), runId)).run;
    expect(run?.steps[0]).toMatchObject({ status: 'done', reconciled_by: { actor_login: APPROVER } });
  });

  it('shows the status comment from what Writ last wrote when the plan recomputed now is another', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const runId = await needsReconciliation(world, planFile);
    const commentId = await world.comment(`writ: reconcile ${runId} build-artifacts failed`);
    const other = world.planFile('other', 'Another plan entirely');
    const result = await consumeApprovalStage(settings(world, other, commentId), world.deps());
    expect(result.outputs).toMatchObject({ outcome: 'reconciled' });
    expect(result.summary).toMatch(/Status comment: [a-z-]+\./);
    expect((await readRun(world.ledgerWorld.context(), runId)).run?.steps[0]?.status).toBe('failed');
  });

  it('reports a status comment it could not update after a command, and the command stands', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const { runId } = await proposed(world, planFile);
    const commentId = await world.comment(`writ: cancel ${runId}`);
    world.ledgerWorld.emulator.admin.addFault({
      match: { method: 'PATCH', path: '/repos/acme/widgets/issues/comments/*' },
      fault: { type: 'status', status: 422 },
    });
    const logger = recordingLogger();
    const result = await consumeApprovalStage(settings(world, planFile, commentId), world.deps(logger));
    expect(result.outputs).toMatchObject({ outcome: 'cancelled' });
    expect(result.summary).toMatch(/Status comment not updated \([a-z-]+\); the cancel stands\./);
    expect(logger.lines.some((line) => line.startsWith('warning: status comment not updated'))).toBe(true);
  });
});
