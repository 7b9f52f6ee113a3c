import { tmpdir } from 'node:os';
import { WritError } from '../../errors.js';
import { previewPlan } from '../../preview/preview-plan.js';
import { failStep, runnerLogger, stageIo, writeSummary } from '../../io/action-io.js';

/** The preview action: validate, digest, render; when not a dry run, propose and keep the status comment. */
export async function run(): Promise<void> {
  const io = stageIo('preview');
  try {
    const dryRun = io.booleanInput('dry-run');
    const statusIssue = io.integerInput('status-issue');
    const result = previewPlan(
      {
        planFile: io.input('plan-file'),
        planRoots: {
          workspace: process.env.GITHUB_WORKSPACE || process.cwd(),
          runnerTemp: process.env.RUNNER_TEMP,
        },
        runId: io.input('run-id'),
        commandPrefix: io.input('command-prefix'),
        outputDir: process.env.RUNNER_TEMP || tmpdir(),
      },
      { logger: runnerLogger },
    );
    let outcome = 'previewed';
    let statusCommentId: number | undefined;
    if (!dryRun) {
      // Loaded only when writing: a dry run never pays for the GitHub client's start-up.
      const { readRunnerContext } = await import('../context.js');
      const { connect } = await import('../connect.js');
      const { proposeAndPublishStatus } = await import('../../preview/propose.js');
      const context = readRunnerContext();
      const connection = connect(
        context,
        {
          token: io.input('token'),
          branch: io.input('ledger-branch'),
          appSlug: io.input('ledger-app-slug'),
          appId: io.integerInput('ledger-app-id'),
        },
        runnerLogger,
      );
      const proposal = await proposeAndPublishStatus(
        { ...connection, logger: runnerLogger },
        { repository: context.repository, actorId: context.actorId },
        {
          statusIssue,
          plan: result.plan,
          runId: result.runId,
          markdown: result.markdown,
        },
      );
      outcome = 'proposed';
      statusCommentId = proposal.statusCommentId;
      runnerLogger.info(
        `${proposal.proposed ? 'proposed' : 'already proposed'} run ${result.runId} at ledger head ${proposal.ledgerHead}` +
          (proposal.statusAction === undefined
            ? ''
            : `; status comment ${String(statusCommentId)} ${proposal.statusAction}`),
      );
    }
    await writeSummary(result.markdown);
    runnerLogger.info(`approve with: ${result.approveCommand}`);
    io.setOutputs({
      'run-id': result.runId,
      digest: result.digest,
      'approve-command': result.approveCommand,
      'preview-path': result.previewPath,
      'status-comment-id': statusCommentId ?? '',
      outcome,
      reason: '',
    });
  } catch (error: unknown) {
    const reason = failStep(error);
    io.setOutputs({ outcome: error instanceof WritError ? 'refused' : 'failed', reason });
  }
}
