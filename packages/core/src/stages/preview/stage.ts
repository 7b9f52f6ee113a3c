import { previewPlan } from '../../preview/preview-plan.js';
import type { Logger } from '../../redact.js';
import type { StageDeps } from '../connect.js';
import type { StageResult } from '../runner.js';
import type { PreviewStageSettings, PreviewWriteSettings } from './inputs.js';

/** A dry run needs only a logger; a writing preview connects (client, ledger) once its plan is valid. */
export interface PreviewDeps {
  logger: Logger;
  connect(write: PreviewWriteSettings): Promise<StageDeps>;
}

/** Validate, digest, render; when not a dry run, propose the run and keep its status comment. */
export async function preview(
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
      const { checkStatusIssue } = await import('./status-issue.js');
      await checkStatusIssue(github, write.repository, settings.statusIssue);
    }
    // Loaded only when writing: a dry run never pays for the GitHub client's start-up.
    const { proposeAndPublishStatus } = await import('../../preview/propose.js');
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
