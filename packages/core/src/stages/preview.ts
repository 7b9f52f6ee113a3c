/**
 * The preview action (actions/preview/action.yml): validate, digest, render (preview/preview-plan.ts
 * `previewPlan`); when not a dry run, propose the run and keep its status comment
 * (preview/propose.ts). Its inputs, `previewStage` and `run`, what the action's bundle runs. A dry run
 * never loads the GitHub client: what writing needs is imported when it is needed.
 */
import { tmpdir } from 'node:os';
import { validateCommandPrefix } from '../command/grammar.js';
import type { StageIo } from '../io/action-io.js';
import { runnerLogger } from '../io/action-io.js';
import type { FileRoots } from '../io/input-file.js';
import type { RepositoryName } from '../ledger/paths.js';
import { validateRunId } from '../plan/run-id.js';
import { previewPlan } from '../preview/preview-plan.js';
import type { Logger } from '../redact.js';
import type { StageDeps } from './connect.js';
import { readRunnerContext } from './context.js';
import type { LedgerSettings } from './ledger-inputs.js';
import { readLedgerSettings } from './ledger-inputs.js';
import type { StageResult } from './runner.js';
import { runAction } from './runner.js';

export interface PreviewStageSettings {
  dryRun: boolean;
  statusIssue: number | undefined;
  planFile: string;
  planRoots: FileRoots;
  /** A valid run ID, or empty: derived from the plan digest. */
  runId: string;
  commandPrefix: string;
  /** Where the rendered preview is written. */
  outputDir: string;
  /**
   * Only when not a dry run: where and as whom the run is proposed. Read and checked when called, after
   * the plan, as ever (a bad plan is reported as such even when the ledger inputs are missing too).
   */
  write?: () => PreviewWriteSettings;
}

export interface PreviewWriteSettings {
  apiUrl: string;
  repository: RepositoryName & { full: string };
  actorId: number | undefined;
  ledger: LedgerSettings;
}

/** The preview's inputs; a dry run reads nothing of the runner but its directories. */
export function readPreviewSettings(io: StageIo<'preview'>): PreviewStageSettings {
  const dryRun = io.booleanInput('dry-run');
  const statusIssue = io.integerInput('status-issue');
  const planFile = io.input('plan-file');
  const runId = io.input('run-id');
  const commandPrefix = validateCommandPrefix(io.input('command-prefix'));
  const settings: PreviewStageSettings = {
    dryRun,
    statusIssue,
    planFile,
    planRoots: {
      workspace: process.env.GITHUB_WORKSPACE || process.cwd(),
      runnerTemp: process.env.RUNNER_TEMP,
    },
    runId: runId === '' ? '' : validateRunId(runId),
    commandPrefix,
    outputDir: process.env.RUNNER_TEMP || tmpdir(),
  };
  if (dryRun) return settings;
  return {
    ...settings,
    write: () => {
      const context = readRunnerContext();
      return {
        apiUrl: context.apiUrl,
        repository: context.repository,
        actorId: context.actorId,
        ledger: readLedgerSettings(io),
      };
    },
  };
}

/** A dry run needs only a logger; a writing preview connects (client, ledger) once its plan is valid. */
export interface PreviewDeps {
  logger: Logger;
  connect(write: PreviewWriteSettings): Promise<StageDeps>;
}

/** Validate, digest, render; when not a dry run, propose the run and keep its status comment. */
export async function previewStage(
  settings: PreviewStageSettings,
  deps: PreviewDeps,
): Promise<StageResult<'preview'>> {
  const { logger } = deps;
  const result = previewPlan(
    {
      planFile: settings.planFile,
      planRoots: settings.planRoots,
      runId: settings.runId,
      commandPrefix: settings.commandPrefix,
      outputDir: settings.outputDir,
    },
    { logger },
  );
  let outcome = 'previewed';
  let statusCommentId: number | undefined;
  if (settings.write) {
    const write = settings.write();
    const { github, ledger, ownLogin } = await deps.connect(write);
    if (settings.statusIssue !== undefined) {
      const { checkStatusIssue } = await import('../preview/status-issue.js');
      await checkStatusIssue(github, write.repository, settings.statusIssue);
    }
    // Loaded only when writing: a dry run never pays for the GitHub client's start-up.
    const { proposeAndPublishStatus } = await import('../preview/propose.js');
    const proposal = await proposeAndPublishStatus(
      { github, ledger, ownLogin, logger },
      { repository: write.repository, actorId: write.actorId },
      {
        statusIssue: settings.statusIssue,
        plan: result.plan,
        runId: result.runId,
        markdown: result.markdown,
      },
    );
    outcome = 'proposed';
    statusCommentId = proposal.statusCommentId;
    logger.info(
      `${proposal.proposed ? 'proposed' : 'already proposed'} run ${result.runId} at ledger head ${proposal.ledgerHead}` +
        (proposal.statusAction === undefined
          ? ''
          : `; status comment ${String(statusCommentId)} ${proposal.statusAction}`),
    );
  }
  logger.info(`approve with: ${result.approveCommand}`);
  return {
    summary: result.markdown,
    outputs: {
      'run-id': result.runId,
      digest: result.digest,
      'approve-command': result.approveCommand,
      'preview-path': result.previewPath,
      'status-comment-id': statusCommentId ?? '',
      outcome,
      reason: '',
    },
  };
}

/** The preview action: validate, digest, render; when not a dry run, propose and keep the status comment. */
export async function run(): Promise<void> {
  await runAction('preview', {
    inputs: readPreviewSettings,
    connect: () => ({
      logger: runnerLogger,
      async connect(write) {
        // Loaded only when writing: a dry run never pays for the GitHub client's start-up.
        const { connect } = await import('./connect.js');
        return connect(
          { apiUrl: write.apiUrl, repository: write.repository.full },
          write.ledger,
          runnerLogger,
        );
      },
    }),
    stage: previewStage,
  });
}
