import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SliceWorld } from '../support/world.js';
import { PEOPLE, client, patOf, planVariant, sliceWorld } from '../support/world.js';

let world: SliceWorld;
/** consume-approval and claim-checkpoint run as steps of one job: one workflow run ID and attempt. */
const APPROVAL_JOB = { GITHUB_RUN_ID: '7001', GITHUB_RUN_ATTEMPT: '1' };
const dir = mkdtempSync(join(tmpdir(), 'writ-slice-'));

beforeAll(async () => {
  world = await sliceWorld();
});

afterAll(async () => {
  await world.close();
});

describe('preview → human comment → consume-approval → claim-checkpoint, as the runner runs them', () => {
  let planFile: string;
  let runId: string;
  let approveCommand: string;
  let statusCommentId: string;

  it('preview proposes the run and posts one status comment', async () => {
    planFile = planVariant(dir, 'slice');
    const preview = await world.run('preview', {
      'plan-file': planFile,
      'dry-run': 'false',
      'status-issue': String(world.statusIssue),
      token: world.ledgerInputs().token!,
      'ledger-app-slug': world.ledgerInputs()['ledger-app-slug']!,
      'ledger-app-id': world.ledgerInputs()['ledger-app-id']!,
    });
    expect(preview.stderr).toBe('');
    expect(preview.outputs).toMatchObject({ outcome: 'proposed', reason: '' });
    runId = preview.outputs['run-id']!;
    approveCommand = preview.outputs['approve-command']!;
    statusCommentId = preview.outputs['status-comment-id']!;
    const run = await world.runFile(runId);
    expect(run).toMatchObject({
      state: 'proposed',
      approval: null,
      proposer: { actor_id: world.ids[PEOPLE.admin] },
    });
    expect(run?.status_comment).toMatchObject({
      issue_number: world.statusIssue,
      comment_id: Number(statusCommentId),
      pending_digest: null,
    });
  });

  it("consume-approval approves a writer's exact command and updates the status comment", async () => {
    const event = await world.comment({ login: PEOPLE.write }, approveCommand);
    const consume = await world.run(
      'consume-approval',
      { 'plan-file': planFile, 'dry-run': 'false', ...world.ledgerInputs() },
      { event, env: APPROVAL_JOB },
    );
    expect(consume.commands.errors).toEqual([]);
    expect(consume.outputs).toMatchObject({ outcome: 'approved', reason: '', 'run-id': runId, epoch: '1' });
    const run = await world.runFile(runId);
    expect(run).toMatchObject({
      state: 'approved',
      approval: {
        actor_login: PEOPLE.write,
        actor_id: world.ids[PEOPLE.write],
        role_name: 'write',
        epoch: 1,
      },
    });
    const { data } = await client(world.emulator, patOf(PEOPLE.admin)).rest.issues.getComment({
      owner: 'acme',
      repo: 'widgets',
      comment_id: Number(statusCommentId),
    });
    expect(data.body).toContain(`Approved by @${PEOPLE.write} (write)`);
  });

  it('refuses the same approval replayed', async () => {
    const events = world.emulator.admin
      .events()
      .filter((e) => e.event === 'issue_comment' && e.action === 'created');
    const replay = await world.run(
      'consume-approval',
      { 'plan-file': planFile, 'dry-run': 'false', ...world.ledgerInputs() },
      { event: events[events.length - 1]!.payload },
    );
    expect(replay.outputs).toMatchObject({ outcome: 'refused', reason: 'approval-already-consumed' });
  });

  it('claims and checkpoints both external steps under the lease epoch', async () => {
    const common = { 'run-id': runId, epoch: '1', 'dry-run': 'false', ...world.ledgerInputs() };
    for (const step of ['build-artifacts', 'notify-packagers']) {
      const claim = await world.run(
        'claim-checkpoint',
        { ...common, operation: 'claim', 'step-id': step },
        { env: APPROVAL_JOB },
      );
      expect(claim.outputs).toMatchObject({ outcome: 'claimed', 'step-status': 'claimed', epoch: '1' });
      expect(claim.outputs['idempotency-key']).toMatch(/^sha256:[0-9a-f]{64}$/);
      const checkpoint = await world.run(
        'claim-checkpoint',
        {
          ...common,
          operation: 'checkpoint',
          'step-id': step,
          'step-outcome': 'done',
          'status-code': '202',
        },
        { env: APPROVAL_JOB },
      );
      expect(checkpoint.outputs).toMatchObject({ outcome: 'checkpointed', 'step-status': 'done' });
    }
    const run = await world.runFile(runId);
    expect(run?.steps.map((s) => [s.id, s.status, s.epoch, s.evidence?.status_code])).toEqual([
      ['build-artifacts', 'done', 1, 202],
      ['notify-packagers', 'done', 1, 202],
    ]);
  });

  it('fences a holder whose epoch has moved', async () => {
    const stale = await world.run(
      'claim-checkpoint',
      { 'run-id': runId, epoch: '0', operation: 'release', 'dry-run': 'false', ...world.ledgerInputs() },
      { env: APPROVAL_JOB },
    );
    expect(stale.outputs).toMatchObject({ outcome: 'refused', reason: 'fenced' });
  });
});
