/**
 * publish-artifact's `ledger-state-file`: the run's ledger state (per step its lifecycle: proposed,
 * approved, persisted, conflict) written for the renderer, in-process against the emulator with the
 * real client; then the example renderer (examples/render-artifact, as the workflow template runs
 * `./scripts/render-artifact` with WRIT_LEDGER_STATE) shows the lifecycle column from it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { validateArtifactBranch } from '../../src/artifact/lane.js';
import { ledgerStateOf } from '../../src/artifact/ledger-state.js';
import { validateArtifactPath } from '../../src/artifact/safe-path.js';
import { errorCode } from '../../src/errors.js';
import { checkpointStep, claimStep, readRun } from '../../src/ledger/ledger.js';
import type { RunFile } from '../../src/ledger/types.js';
import { consumeApprovalStage } from '../../src/stages/consume-approval.js';
import type { PublishArtifactStageSettings } from '../../src/stages/publish-artifact.js';
import { ledgerStatePath } from '../../src/stages/publish-artifact.js';
import { publishArtifactStage } from '../../src/stages/publish-artifact.js';
import { previewStage } from '../../src/stages/preview.js';
import { OWNER, REPO, REPOSITORY } from '../ledger/support/emulator.js';
import type { StageWorld } from './support/stage-world.js';
import { recordingLogger, stageWorld } from './support/stage-world.js';

const ROOT = join(import.meta.dirname, '../../../..');
const RENDERER = join(ROOT, 'examples/render-artifact');
const repository = { owner: OWNER, repo: REPO, full: REPOSITORY };
const HOLDER = { workflow_run_id: 77, attempt: 1 };

let world: StageWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function proposedRun(current: StageWorld) {
  const planFile = current.planFile('plan');
  const planRoots = { workspace: current.workspace, runnerTemp: undefined };
  const proposed = await previewStage(
    {
      dryRun: false,
      statusIssue: undefined,
      planFile,
      planRoots,
      runId: '',
      commandPrefix: 'writ',
      outputDir: current.workspace,
      write: () => ({
        apiUrl: current.ledgerWorld.emulator.url,
        repository,
        actorId: undefined,
        ledger: current.ledger,
      }),
    },
    { logger: recordingLogger(), connect: () => Promise.resolve(current.deps()) },
  );
  return { planFile, planRoots, runId: String(proposed.outputs['run-id']), command: proposed.outputs };
}

function settings(
  current: StageWorld,
  run: { runId: string; planFile: string },
  ledgerStateFile: string,
): PublishArtifactStageSettings {
  return {
    apiUrl: current.ledgerWorld.emulator.url,
    repository,
    path: validateArtifactPath('docs/roadmap.md', { allowWorkflowFiles: false }),
    onClosedPr: 'report',
    dryRun: false,
    epoch: 1,
    holder: HOLDER,
    content: Buffer.alloc(0),
    ledgerStateFile,
    prBody: '',
    ledger: current.ledger,
    runId: run.runId,
    planFile: run.planFile,
    planRoots: { workspace: current.workspace, runnerTemp: undefined },
    commandPrefix: 'writ',
    allowedRoles: ['admin', 'maintain', 'write'],
    branch: validateArtifactBranch('bot/writ-artifact', 'branch'),
    base: null,
    prTitle: '',
  };
}

function render(planFile: string, stateFile: string | null): string {
  const result = spawnSync(process.execPath, [RENDERER, planFile], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...(stateFile === null ? {} : { WRIT_LEDGER_STATE: stateFile }) },
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout;
}

/** The lifecycle column of the rendered table, by step ID. */
function lifecycles(markdown: string): Record<string, string> {
  const rows = markdown.split('\n').filter((line) => /^\| [a-z0-9]/.test(line) && !line.startsWith('| Step'));
  return Object.fromEntries(
    rows.map((row) => {
      const cells = row.split(' | ');
      return [cells[0]?.slice(2) ?? '', (cells[3] ?? '').replace(/ \|$/, '')];
    }),
  );
}

describe('publish-artifact ledger-state-file, against the emulator', () => {
  it('writes each step lifecycle as the run moves: proposed, approved, persisted, conflict; the example renderer shows it', async () => {
    world = await stageWorld();
    const run = await proposedRun(world);
    const stateAt = async (name: string): Promise<string> => {
      const file = join(world?.workspace ?? '', `${name}.json`);
      const seq = world?.lastSeq() ?? 0;
      const result = await publishArtifactStage(
        settings(world as StageWorld, run, file),
        (world as StageWorld).deps(),
      );
      expect(result.outputs).toMatchObject({
        outcome: 'ledger-state',
        reason: '',
        'ledger-state-file': file,
      });
      // It publishes nothing.
      expect(world?.writesSince(seq)).toEqual([]);
      return file;
    };

    const proposedFile = await stateAt('proposed');
    const proposedState = JSON.parse(readFileSync(proposedFile, 'utf8')) as ReturnType<typeof ledgerStateOf>;
    expect(proposedState).toMatchObject({ schema: 1, run_id: run.runId, state: 'proposed', epoch: null });
    expect(lifecycles(render(run.planFile, proposedFile))).toEqual({
      'build-artifacts': 'proposed',
      'notify-packagers': 'proposed',
    });

    const commentId = await world.comment(String(run.command['approve-command']));
    await consumeApprovalStage(
      {
        apiUrl: world.ledgerWorld.emulator.url,
        repository,
        commentId,
        dryRun: false,
        commandPrefix: 'writ',
        ledger: world.ledger,
        planFile: run.planFile,
        planRoots: run.planRoots,
        allowedRoles: ['maintain'],
        requireDistinctApprover: false,
        holder: HOLDER,
      },
      world.deps(),
    );
    expect(lifecycles(render(run.planFile, await stateAt('approved')))).toEqual({
      'build-artifacts': 'approved',
      'notify-packagers': 'approved',
    });

    const holder = { run_id: run.runId, ...HOLDER };
    const ledger = world.ledgerWorld.context();
    await claimStep(ledger, { runId: run.runId, stepId: 'build-artifacts', epoch: 1, holder });
    await checkpointStep(ledger, {
      runId: run.runId,
      stepId: 'build-artifacts',
      epoch: 1,
      holder,
      outcome: 'done',
      evidence: { status_code: null, error_code: null },
    });
    await claimStep(ledger, { runId: run.runId, stepId: 'notify-packagers', epoch: 1, holder });
    await checkpointStep(ledger, {
      runId: run.runId,
      stepId: 'notify-packagers',
      epoch: 1,
      holder,
      outcome: 'conflict',
      evidence: { status_code: 409, error_code: 'conflict' },
    });
    const finalFile = await stateAt('final');
    const markdown = render(run.planFile, finalFile);
    expect(lifecycles(markdown)).toEqual({ 'build-artifacts': 'persisted', 'notify-packagers': 'conflict' });
    expect(markdown).toContain('| Step | Kind | Change | Lifecycle |');

    // Only IDs, enums, numbers and digests: identical to the state derived from the ledger, nothing else.
    const text = readFileSync(finalFile, 'utf8');
    const ledgerRun = (await readRun(world.ledgerWorld.context(), run.runId)).run as RunFile;
    expect(JSON.parse(text)).toEqual(ledgerStateOf(ledgerRun));
    expect(Object.keys(JSON.parse(text) as object).sort()).toEqual([
      'epoch',
      'plan_digest',
      'run_id',
      'schema',
      'state',
      'steps',
    ]);
    // Identical state, identical bytes.
    expect(readFileSync(await stateAt('again'), 'utf8')).toBe(text);
  });

  it('refuses a run the ledger does not have, and never overwrites a file', async () => {
    world = await stageWorld();
    const run = await proposedRun(world);
    const file = join(world.workspace, 'state.json');
    const missing = await publishArtifactStage(
      settings(world, { ...run, runId: 'no-such-run' }, file),
      world.deps(),
    ).then(
      () => 'passed',
      (error: unknown) => errorCode(error),
    );
    expect(missing).toBe('run-not-found');
    expect(existsSync(file)).toBe(false);
    writeFileSync(file, 'keep');
    await expect(publishArtifactStage(settings(world, run, file), world.deps())).rejects.toThrow();
    expect(readFileSync(file, 'utf8')).toBe('keep');
  });
});

describe('ledgerStatePath', () => {
  it('takes a new file inside the workspace or the runner temp directory, nothing else', () => {
    const roots = { workspace: '/work/ws', runnerTemp: undefined };
    expect(() => ledgerStatePath('/etc/state.json', roots)).toThrow(/inside the workspace/);
    expect(() => ledgerStatePath('../state.json', roots)).toThrow(/inside the workspace/);
    expect(() => ledgerStatePath('missing-folder/state.json', roots)).toThrow(/existing folder/);
  });

  it('refuses a path where a file or link already is', async () => {
    world = await stageWorld();
    const roots = { workspace: world.workspace, runnerTemp: undefined };
    expect(ledgerStatePath('state.json', roots)).toBe(join(world.workspace, 'state.json'));
    symlinkSync('/etc/hostname', join(world.workspace, 'link.json'));
    expect(() => ledgerStatePath('link.json', roots)).toThrow(/new file/);
  });
});

describe('the example renderer', () => {
  it('without a ledger state shows every step proposed; a state file gives the lifecycle column, escaped cells', () => {
    // Its own temporary folder: a fresh clone has no .tmp/ yet.
    const dir = mkdtempSync(join(tmpdir(), 'writ-render-'));
    const planFile = join(dir, `render-plan-${process.pid}.json`);
    const stateFile = join(dir, `render-state-${process.pid}.json`);
    writeFileSync(
      planFile,
      JSON.stringify({
        steps: [
          { id: 'a', kind: 'issue.labels', issue: 3, add: ['x'] },
          { id: 'b', kind: 'issue.create', title: 'Epic | *x*' },
        ],
      }),
    );
    writeFileSync(
      stateFile,
      JSON.stringify({
        schema: 1,
        run_id: 'r-1',
        state: 'running',
        plan_digest: 'sha256:0',
        epoch: 1,
        steps: [
          { id: 'a', kind: 'issue.labels', status: 'done', lifecycle: 'persisted' },
          { id: 'b', kind: 'issue.create', status: 'claimed', lifecycle: 'approved' },
        ],
      }),
    );
    expect(lifecycles(render(planFile, null))).toEqual({ a: 'proposed', b: 'proposed' });
    const markdown = render(planFile, stateFile);
    expect(lifecycles(markdown)).toEqual({ a: 'persisted', b: 'approved' });
    expect(markdown).toContain('new issue “Epic \\| \\*x\\*”');
    expect(render(planFile, stateFile)).toBe(markdown);
  });
});
