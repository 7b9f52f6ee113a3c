import { approvalCommentId, parseAllowedRoles } from '../../approval/authorize.js';
import { consumeApprovalComment } from '../../approval/consume-approval.js';
import { WritError, errorCode, failureMessage } from '../../errors.js';
import { renderPreview } from '../../preview/render.js';
import { renderStatusProjection } from '../../status-comment/projection.js';
import { syncStatusComment } from '../../status-comment/sync.js';
import { connect, readLedgerInputs } from '../connect.js';
import { readRunnerContext } from '../context.js';
import { failStep, runnerLogger, stageIo, writeSummary } from '../../io/action-io.js';
import { describeCommit } from '../runner.js';

/** The consume-approval action: one human comment, re-verified live, consumed once. */
export async function run(): Promise<void> {
  const io = stageIo('consume-approval');
  try {
    const context = readRunnerContext();
    // Before anything else: only a newly created issue comment can approve.
    const commentId = approvalCommentId({ eventName: context.eventName, payload: context.payload });
    const dryRun = io.booleanInput('dry-run');
    const commandPrefix = io.input('command-prefix');
    const { github, ledger, ownLogin } = connect(
      context,
      readLedgerInputs(io, (name) => io.integerInput(name)),
      runnerLogger,
    );
    const planFile = io.input('plan-file');
    const result = await consumeApprovalComment(
      { github, ledger, logger: runnerLogger },
      {
        repository: context.repository,
        commentId,
        commandPrefix,
        allowedRoles: parseAllowedRoles(io.input('allowed-roles')),
        requireDistinctApprover: io.booleanInput('require-distinct-approver'),
        appBotLogin: ownLogin,
        planFile,
        planRoots: { workspace: context.workspace, runnerTemp: context.runnerTemp },
        holder: { workflow_run_id: context.workflowRunId, attempt: context.attempt },
        dryRun,
      },
    );
    const summary = [
      `## Writ approval ${dryRun ? '(dry run: nothing written)' : 'consumed'}`,
      '',
      `Run \`${result.runId}\`, digest \`${result.digest}\`, approved by @${result.approver.login} (${result.approver.role}); lease epoch ${result.epoch} until \`${result.leaseExpiresAt ?? ''}\`.`,
      '',
    ];
    if (dryRun) summary.push(describeCommit(result.commit));
    if (!dryRun) {
      const preview = renderPreview({
        plan: result.plan,
        planDigest: result.digest,
        runId: result.runId,
        commandPrefix,
      });
      // The approval is already committed; the status projection is repairable (by a re-run or
      // recovery), so a failure here is reported, never allowed to undo or block the approved run.
      try {
        const synced = await syncStatusComment(
          { github, ledger, logger: runnerLogger },
          {
            repository: context.repository,
            runId: result.runId,
            project: (run) => renderStatusProjection(run, preview),
            ownLogin,
          },
        );
        if (synced !== null) summary.push(`Status comment ${synced.commentId}: ${synced.action}.`, '');
      } catch (error: unknown) {
        runnerLogger.warning(`status comment not updated: ${failureMessage(error)}`);
        summary.push(`Status comment not updated (${errorCode(error)}); the approval stands.`, '');
      }
    }
    await writeSummary(summary.join('\n'));
    io.setOutputs({
      'run-id': result.runId,
      digest: result.digest,
      epoch: result.epoch,
      'lease-expires-at': result.leaseExpiresAt ?? '',
      outcome: dryRun ? 'dry-run' : 'approved',
      reason: '',
    });
  } catch (error: unknown) {
    const reason = failStep(error);
    io.setOutputs({ outcome: error instanceof WritError ? 'refused' : 'failed', reason });
  }
}
