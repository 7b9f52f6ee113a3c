/**
 * The `project` setting through a stage: consume-approval (which syncs its status comment itself)
 * keeps the approved run's project item after it; with a token that has no project access the approval,
 * its ledger record and its summary stand, and one warning names the code.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { readRun } from '../../src/ledger/ledger.js';
import { consumeApprovalStage } from '../../src/stages/consume-approval.js';
import { previewStage } from '../../src/stages/preview.js';
import { LEDGER_TOKEN, OWNER, REPO, REPOSITORY } from '../ledger/support/emulator.js';
import { proposed, settings } from '../stages/support/consume-world.js';
import type { StageWorld } from '../stages/support/stage-world.js';
import { recordingLogger, stageWorld } from '../stages/support/stage-world.js';

let world: StageWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const ORG = 'writ-board';

async function withProject(projectAccess: boolean): Promise<{ world: StageWorld; number: number }> {
  const current = await stageWorld();
  world = current;
  const { admin } = current.ledgerWorld.emulator;
  // The stage world's app token, minted again with (or without) the organization's Projects permission.
  admin.createToken({
    token: LEDGER_TOKEN,
    kind: 'installation',
    app: 'writ-ledger',
    permissions: {
      contents: 'write',
      administration: 'write',
      issues: 'write',
      pull_requests: 'write',
      ...(projectAccess ? { organization_projects: 'write' as const } : {}),
    },
  });
  admin.createUser({ login: ORG, type: 'Organization' });
  const response = await fetch(`${current.ledgerWorld.emulator.adminUrl}/projects`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      owner: ORG,
      fields: [
        { name: 'Writ state', type: 'SINGLE_SELECT', options: ['proposed', 'approved'] },
        { name: 'Decision', type: 'TEXT' },
      ],
    }),
  });
  return { world: current, number: ((await response.json()) as { number: number }).number };
}

async function items(current: StageWorld, number: number): Promise<{ title: string; values: object }[]> {
  const response = await fetch(`${current.ledgerWorld.emulator.adminUrl}/projects/${ORG}/${number}`);
  return ((await response.json()) as { items: { title: string; values: object }[] }).items;
}

describe('preview with a project', () => {
  it('the proposed run gets its item, awaiting approval', async () => {
    const { world: current, number } = await withProject(true);
    const logger = recordingLogger();
    const result = await previewStage(
      {
        dryRun: false,
        statusIssue: current.statusIssue,
        planFile: current.planFile('plan'),
        planRoots: { workspace: current.workspace, runnerTemp: undefined },
        runId: '',
        commandPrefix: 'writ',
        outputDir: current.workspace,
        write: () => ({
          apiUrl: current.ledgerWorld.emulator.url,
          repository: { owner: OWNER, repo: REPO, full: REPOSITORY },
          actorId: undefined,
          ledger: current.ledger,
          project: { owner: ORG, number },
        }),
      },
      { logger, connect: () => Promise.resolve(current.deps(logger)) },
    );
    expect(result.outputs.outcome).toBe('proposed');
    expect(await items(current, number)).toEqual([
      expect.objectContaining({
        title: `Writ run ${String(result.outputs['run-id'])}`,
        values: { 'Writ state': 'proposed', Decision: 'awaiting-approval' },
      }),
    ]);
  });
});

describe('consume-approval with a project', () => {
  it('keeps the approved run’s item after the status comment', async () => {
    const { world: current, number } = await withProject(true);
    const planFile = current.planFile('plan');
    const { runId, command } = await proposed(current, planFile);
    const commentId = await current.comment(command);
    const logger = recordingLogger();
    const result = await consumeApprovalStage(
      settings(current, planFile, commentId, { project: { owner: ORG, number } }),
      current.deps(logger),
    );
    expect(result.outputs).toMatchObject({ outcome: 'approved' });
    expect(await items(current, number)).toEqual([
      expect.objectContaining({
        title: `Writ run ${runId}`,
        values: { 'Writ state': 'approved', Decision: 'approved' },
      }),
    ]);
    expect(logger.lines.filter((line) => line.startsWith('warning: '))).toEqual([
      expect.stringMatching(/^warning: project-field-missing: /),
    ]);
  });

  it('without project access: the approval and its summary stand, one warning with the code', async () => {
    const { world: current, number } = await withProject(false);
    const planFile = current.planFile('plan');
    const { runId, command, statusCommentId } = await proposed(current, planFile);
    const commentId = await current.comment(command);
    const logger = recordingLogger();
    const result = await consumeApprovalStage(
      settings(current, planFile, commentId, { project: { owner: ORG, number } }),
      current.deps(logger),
    );
    expect(result.outputs).toMatchObject({ 'run-id': runId, outcome: 'approved', reason: '' });
    expect(result.summary).toContain(`Status comment ${statusCommentId}: updated.`);
    expect(result.summary).not.toContain('project');
    expect((await readRun(current.ledgerWorld.context(), runId)).run?.state).toBe('approved');
    expect(await items(current, number)).toEqual([]);
    expect(logger.lines.filter((line) => line.startsWith('warning: '))).toEqual([
      expect.stringMatching(/^warning: project-access-denied: /),
    ]);
  });
});
