/**
 * The `project` setting through a stage: consume-approval (which syncs its status comment itself)
 * keeps the approved run's project item after it; with a token that has no project access the approval,
 * its ledger record and its summary stand, and one warning names the code.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { readRun } from '../../src/ledger/ledger.js';
import { recoverRuns } from '../../src/recovery/recover.js';
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

describe('recovery with a project', () => {
  /** A sweep of the stage world's ledger, as the recovery stage runs it, with or without a project. */
  async function sweep(
    current: StageWorld,
    planFile: string,
    project: { owner: string; number: number } | null,
  ) {
    const logger = recordingLogger();
    const deps = current.deps(logger);
    const report = await recoverRuns(
      {
        github: deps.github,
        ledger: deps.ledger,
        logger,
        observe: () => Promise.reject(new Error('a proposed run has no claimed step to observe')),
      },
      {
        repository: { owner: OWNER, repo: REPO },
        serverUrl: 'https://github.com',
        holder: { workflow_run_id: 4242, attempt: 1 },
        commandPrefix: 'writ',
        allowedRoles: ['admin', 'maintain', 'write'],
        requireDistinctApprover: false,
        appBotLogin: deps.ownLogin,
        planFile,
        dryRun: false,
        project,
      },
    );
    return { report, logger };
  }

  it('the sweep brings each run’s item up after repairing its comment; a second sweep sends nothing', async () => {
    const { world: current, number } = await withProject(true);
    const planFile = current.planFile('plan');
    // Proposed by a preview that had no project: the run has no item until a stage with one follows it.
    const { runId } = await proposed(current, planFile);
    expect(await items(current, number)).toEqual([]);
    const first = await sweep(current, planFile, { owner: ORG, number });
    expect(first.report.runs.map((run) => run.runId)).toEqual([runId]);
    expect(await items(current, number)).toEqual([
      expect.objectContaining({
        title: `Writ run ${runId}`,
        values: { 'Writ state': 'proposed', Decision: 'awaiting-approval' },
      }),
    ]);
    const projectMutations = (): string[] =>
      current.ledgerWorld.emulator.admin
        .requests()
        .flatMap((entry) => entry.mutations)
        .filter((name) => name.includes('ProjectV2'));
    const before = projectMutations().length;
    const second = await sweep(current, planFile, { owner: ORG, number });
    expect(second.report.runs.map((run) => run.status)).toEqual(['unchanged']);
    expect(projectMutations().length).toBe(before);
    expect(await items(current, number)).toHaveLength(1);
  });

  it('without project access the sweep’s report is the same as without a project', async () => {
    const { world: current, number } = await withProject(false);
    const planFile = current.planFile('plan');
    await proposed(current, planFile);
    // The first sweep re-renders the preview's comment; from then on a sweep changes nothing.
    await sweep(current, planFile, null);
    const without = await sweep(current, planFile, null);
    const denied = await sweep(current, planFile, { owner: ORG, number });
    expect({ ...denied.report, headOid: '' }).toEqual({ ...without.report, headOid: '' });
    expect(denied.report.headOid).toBe(without.report.headOid);
    expect(await items(current, number)).toEqual([]);
    expect(denied.logger.lines.filter((line) => line.startsWith('warning: '))).toEqual([
      expect.stringMatching(/^warning: project-access-denied: /),
    ]);
  });
});
