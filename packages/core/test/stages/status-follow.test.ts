/**
 * The status comment follows the run (issue 27): claim-checkpoint and each persist claim window bring
 * the run's one status comment up to date through the one sync, in-process against the emulator with
 * the real client. Counted in the emulator's request log: an unchanged projection sends no PATCH, and a
 * PATCH that fails (a 502) is sent once, never fails the stage, and is repaired by the next stage.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commitOnBranch } from '../../src/github/commit-on-branch.js';
import { readRun } from '../../src/ledger/ledger.js';
import { loadPlanFile } from '../../src/plan/load.js';
import type { PlanStep } from '../../src/plan/types.js';
import { previewOf } from '../../src/status-comment/repair.js';
import type { ClaimCheckpointStageSettings } from '../../src/stages/claim-checkpoint.js';
import { claimCheckpointStage } from '../../src/stages/claim-checkpoint.js';
import { consumeApprovalStage } from '../../src/stages/consume-approval.js';
import type { PersistStageSettings } from '../../src/stages/persist.js';
import { persistStage } from '../../src/stages/persist.js';
import { previewStage } from '../../src/stages/preview.js';
import { OWNER, REPO, REPOSITORY } from '../ledger/support/emulator.js';
import type { StageWorld } from './support/stage-world.js';
import { recordingLogger, stageWorld } from './support/stage-world.js';

let world: StageWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const base = { owner: OWNER, repo: REPO };
const HOLDER = { workflow_run_id: 77, attempt: 1 };

/** Proposes `planFile` (status comment on the world's issue) and approves it as a maintainer. */
async function approved(current: StageWorld, planFile: string) {
  const proposed = await previewStage(
    {
      dryRun: false,
      statusIssue: current.statusIssue,
      planFile,
      planRoots: { workspace: current.workspace, runnerTemp: undefined },
      runId: '',
      commandPrefix: 'writ',
      outputDir: current.workspace,
      write: () => ({
        apiUrl: current.ledgerWorld.emulator.url,
        repository: { owner: OWNER, repo: REPO, full: REPOSITORY },
        actorId: undefined,
        ledger: current.ledger,
      }),
    },
    { logger: recordingLogger(), connect: () => Promise.resolve(current.deps()) },
  );
  const commentId = await current.comment(String(proposed.outputs['approve-command']));
  const consumed = await consumeApprovalStage(
    {
      apiUrl: current.ledgerWorld.emulator.url,
      repository: { owner: OWNER, repo: REPO, full: REPOSITORY },
      commentId,
      dryRun: false,
      commandPrefix: 'writ',
      ledger: current.ledger,
      planFile,
      planRoots: { workspace: current.workspace, runnerTemp: undefined },
      allowedRoles: ['admin', 'maintain', 'write'],
      requireDistinctApprover: false,
      holder: HOLDER,
    },
    current.deps(),
  );
  return {
    runId: String(proposed.outputs['run-id']),
    epoch: Number(consumed.outputs.epoch),
    statusCommentId: Number(proposed.outputs['status-comment-id']),
  };
}

function claimSettings(
  current: StageWorld,
  overrides: Partial<ClaimCheckpointStageSettings>,
): ClaimCheckpointStageSettings {
  return {
    apiUrl: current.ledgerWorld.emulator.url,
    repository: REPOSITORY,
    operation: 'claim',
    runId: 'run-1',
    stepId: 'build-artifacts',
    epoch: 1,
    outcome: undefined,
    statusCode: null,
    errorCode: null,
    dryRun: false,
    ledger: current.ledger,
    holder: HOLDER,
    ...overrides,
  };
}

async function statusBody(current: StageWorld, commentId: number): Promise<string> {
  const { data } = await current.owner.rest.issues.getComment({ ...base, comment_id: commentId });
  return data.body ?? '';
}

/** The status comment's API requests (method and status) the emulator logged after `seq`. */
function commentRequests(current: StageWorld, seq: number, commentId: number): string[] {
  return current.ledgerWorld.emulator.admin
    .requests()
    .filter((r) => r.seq > seq && r.path === `/repos/acme/widgets/issues/comments/${commentId}`)
    .map((r) => `${r.method} ${r.status}`);
}

describe('claim-checkpoint: the status comment follows', () => {
  it('shows each claim and checkpoint, the epoch and holder, then completion; the preview is kept', async () => {
    world = await stageWorld();
    const { runId, epoch, statusCommentId } = await approved(world, world.planFile('follow'));
    const approvedBody = await statusBody(world, statusCommentId);
    expect(approvedBody).toContain('Steps: 2 pending (of 2).');
    const deps = world.deps();
    const common = { runId, epoch };

    let seq = world.lastSeq();
    const claim = await claimCheckpointStage(claimSettings(world, common), deps);
    expect(claim.outputs.outcome).toBe('claimed');
    let sent = commentRequests(world, seq, statusCommentId);
    let body = await statusBody(world, statusCommentId);
    expect(body).toContain('**Writ run `' + runId + '`**: Running.');
    expect(body).toContain('Steps: 1 claimed, 1 pending (of 2).');
    expect(body).toContain(`Epoch ${epoch}, held by workflow run 77 (attempt 1).`);
    expect(body).toContain('step `build-artifacts` is being written');
    // The preview is the one Writ wrote (read back, its digest checked against the ledger), once.
    expect(previewOf(body)).toBe(previewOf(approvedBody));
    expect(body.match(/## Writ plan preview: /g)).toHaveLength(1);
    // One read (the preview) and one PATCH: the only comment requests of the stage.
    expect(sent).toEqual(['GET 200', 'PATCH 200']);
    expect(claim.summary).toContain('Status comment: updated.');

    seq = world.lastSeq();
    const done = await claimCheckpointStage(
      claimSettings(world, { ...common, operation: 'checkpoint', outcome: 'done', statusCode: 202 }),
      deps,
    );
    expect(done.outputs.outcome).toBe('checkpointed');
    sent = commentRequests(world, seq, statusCommentId);
    body = await statusBody(world, statusCommentId);
    expect(body).toContain('Steps: 1 done, 1 pending (of 2).');
    expect(sent).toEqual(['GET 200', 'PATCH 200']);

    for (const operation of ['claim', 'checkpoint'] as const) {
      await claimCheckpointStage(
        claimSettings(world, {
          ...common,
          stepId: 'notify-packagers',
          operation,
          ...(operation === 'checkpoint' ? { outcome: 'done' as const } : {}),
        }),
        deps,
      );
    }
    body = await statusBody(world, statusCommentId);
    expect(body).toContain('**Writ run `' + runId + '`**: Completed.');
    expect(body).toContain('Steps: 2 done (of 2).');
    expect(body).not.toContain('held by workflow run');
    expect(body).toContain('Every step is done and the repository lease was released');
    const run = (await readRun(world.ledgerWorld.context(), runId)).run;
    expect(run?.status_comment?.pending_digest).toBeNull();
  });

  it('a release of a run that already ended changes nothing: no comment request', async () => {
    world = await stageWorld();
    const { runId, epoch, statusCommentId } = await approved(world, world.planFile('ended'));
    const deps = world.deps();
    for (const stepId of ['build-artifacts', 'notify-packagers']) {
      await claimCheckpointStage(claimSettings(world, { runId, epoch, stepId }), deps);
      await claimCheckpointStage(
        claimSettings(world, { runId, epoch, stepId, operation: 'checkpoint', outcome: 'done' }),
        deps,
      );
    }
    const seq = world.lastSeq();
    const released = await claimCheckpointStage(
      claimSettings(world, { runId, epoch, operation: 'release', stepId: undefined }),
      deps,
    );
    expect(released.outputs.outcome).toBe('released');
    expect(commentRequests(world, seq, statusCommentId)).toEqual([]);
  });

  it('a 502 on the comment PATCH leaves the checkpoint successful, sent once; the next stage repairs it', async () => {
    world = await stageWorld();
    const { runId, epoch, statusCommentId } = await approved(world, world.planFile('fault'));
    const deps = world.deps();
    await claimCheckpointStage(claimSettings(world, { runId, epoch }), deps);
    world.ledgerWorld.emulator.admin.addFault({
      match: { method: 'PATCH', path: '/repos/acme/widgets/issues/comments/*' },
      fault: { type: 'status', status: 502 },
    });
    let seq = world.lastSeq();
    const done = await claimCheckpointStage(
      claimSettings(world, { runId, epoch, operation: 'checkpoint', outcome: 'done' }),
      deps,
    );
    expect(done.outputs).toMatchObject({ outcome: 'checkpointed', 'step-status': 'done' });
    expect(done.refusal).toBeUndefined();
    expect(done.summary).toMatch(
      /Status comment not updated \([a-z-]+\); the run's progress stands in the ledger/,
    );
    // The PATCH was sent once: the client never retries a write.
    expect(commentRequests(world, seq, statusCommentId)).toEqual(['GET 200', 'PATCH 502']);
    const ledger = world.ledgerWorld.context();
    expect((await readRun(ledger, runId)).run?.steps[0]?.status).toBe('done');
    expect((await statusBody(world, statusCommentId)).includes('1 done')).toBe(false);

    // The next stage reads the comment back (its PATCH's outcome is unknown) and brings it up to date.
    world.ledgerWorld.emulator.admin.clearFaults();
    seq = world.lastSeq();
    await claimCheckpointStage(claimSettings(world, { runId, epoch, stepId: 'notify-packagers' }), deps);
    const sent = commentRequests(world, seq, statusCommentId);
    const body = await statusBody(world, statusCommentId);
    expect(body).toContain('Steps: 1 done, 1 claimed (of 2).');
    // The preview's read, the sync's read-back of the unknown PATCH, then the one PATCH.
    expect(sent).toEqual(['GET 200', 'GET 200', 'PATCH 200']);
    expect((await readRun(ledger, runId)).run?.status_comment?.pending_digest).toBeNull();
  });
});

const BEST_EFFORT = {
  schema: 1,
  kinds: Object.fromEntries(
    [
      'milestone.upsert',
      'milestone.edit',
      'issue.set-milestone',
      'issue.labels',
      'issue.create',
      'comment.upsert',
    ].map((kind) => [kind, 'best-effort']),
  ),
};

async function commitPolicy(current: StageWorld): Promise<void> {
  const head = (await current.owner.rest.git.getRef({ ...base, ref: 'heads/main' })).data.object.sha;
  await commitOnBranch(
    current.owner,
    {
      repository: REPOSITORY,
      branch: 'main',
      expectedHeadOid: head,
      headline: 'Writ policy',
      body: '',
      additions: [{ path: '.writ/policy.json', contents: JSON.stringify(BEST_EFFORT) }],
    },
    'artifact',
  );
}

function writePlan(current: StageWorld, name: string, steps: PlanStep[]): string {
  const path = join(current.workspace, `${name}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      schema: 1,
      title: name,
      scope: { repository: REPOSITORY },
      bounds: { max_steps: 10 },
      steps,
    }),
  );
  return path;
}

function persistSettings(current: StageWorld, planFile: string, runId: string): PersistStageSettings {
  return {
    apiUrl: current.ledgerWorld.emulator.url,
    repository: { owner: OWNER, repo: REPO },
    runId,
    plan: loadPlanFile(planFile),
    epoch: 1,
    persistenceEnabled: true,
    policyPath: '.writ/policy.json',
    evidencePath: '.writ/probe-evidence.json',
    maxSteps: 100,
    timeBudgetMs: 300 * 60_000,
    claimWindow: 1,
    pageCap: 20,
    commandPrefix: 'writ',
    allowedRoles: ['admin', 'maintain', 'write'],
    dryRun: false,
    ledger: current.ledger,
    holder: HOLDER,
  };
}

describe('persist: the status comment follows each claim window', () => {
  it('a killed persist leaves the comment showing the claimed step; the re-run completes it; unchanged sends nothing', async () => {
    world = await stageWorld();
    await commitPolicy(world);
    const planFile = writePlan(world, 'killed', [
      { id: 'labels', kind: 'issue.labels', issue: world.statusIssue, add: ['deferred'] },
      { id: 'more', kind: 'issue.labels', issue: world.statusIssue, add: ['later'] },
    ]);
    const { runId, statusCommentId } = await approved(world, planFile);
    const settings = persistSettings(world, planFile, runId);
    // Killed after the first step's write, before its checkpoint (in-process: a throw).
    await expect(
      persistStage(settings, {
        ...world.deps(),
        afterWrite: () => {
          throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    let body = await statusBody(world, statusCommentId);
    expect(body).toContain('**Writ run `' + runId + '`**: Running.');
    expect(body).toContain('Steps: 1 claimed, 1 pending (of 2).');
    expect(body).toContain('step `labels` is being written');
    expect(body).toContain('Epoch 1, held by workflow run 77 (attempt 1).');

    let seq = world.lastSeq();
    const resumed = await persistStage(settings, world.deps());
    expect(resumed.outputs.outcome).toBe('completed');
    const sent = commentRequests(world, seq, statusCommentId);
    body = await statusBody(world, statusCommentId);
    expect(body).toContain('**Writ run `' + runId + '`**: Completed.');
    expect(body).toContain('Steps: 2 done (of 2).');
    // The resumed step needs no claim; the next window's claim and the completion: two PATCHes.
    expect(sent).toEqual(['PATCH 200', 'PATCH 200']);

    // Again on the completed run: the projection is unchanged, so no comment request at all.
    seq = world.lastSeq();
    const again = await persistStage(settings, world.deps());
    expect(again.outputs.outcome).toBe('completed');
    expect(again.summary).toContain(`Status comment ${statusCommentId}: unchanged.`);
    expect(commentRequests(world, seq, statusCommentId)).toEqual([]);
  });
});

describe('previewOf', () => {
  it("finds the preview after an approved run's next paragraph and persist's best-effort note", () => {
    const preview = '## Writ plan preview: t\n\n| | |\n';
    const approvedBody = `<!-- m -->\n**Writ run \`r\`**: Approved.\nSteps: 1 pending (of 1).\n\nNext: more.\n\n${preview}`;
    expect(previewOf(approvedBody)).toBe(preview);
    const residual = `> **Best-effort** (the owner's policy): x.\n\n${preview}`;
    expect(previewOf(`<!-- m -->\n**Writ run \`r\`**: Running.\n\nNext: more.\n\n${residual}`)).toBe(
      residual,
    );
    expect(previewOf('<!-- m -->\nno preview here\n\nat all')).toBeNull();
  });
});
