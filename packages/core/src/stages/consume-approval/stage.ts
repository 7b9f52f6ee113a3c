import { consumeApprovalComment } from '../../approval/consume-approval.js';
import { errorCode, failureMessage } from '../../errors.js';
import { renderPreview } from '../../preview/render.js';
import { renderStatusProjection } from '../../status-comment/projection.js';
import { syncStatusComment } from '../../status-comment/sync.js';
import type { StageDeps } from '../connect.js';
import type { StageResult } from '../runner.js';
import { describeCommit } from '../runner.js';
import type { ConsumeApprovalStageSettings } from './inputs.js';

/** One human comment, re-verified live, consumed once; then the run's status comment follows. */
export async function consumeApproval(
  settings: ConsumeApprovalStageSettings,
  deps: StageDeps,
): Promise<StageResult<'consume-approval'>> {
  const { github, ledger, logger, ownLogin } = deps;
  const { dryRun, commandPrefix } = settings;
  const result = await consumeApprovalComment(
    { github, ledger, logger },
    {
      repository: settings.repository,
      commentId: settings.commentId,
      commandPrefix,
      allowedRoles: settings.allowedRoles,
      requireDistinctApprover: settings.requireDistinctApprover,
      appBotLogin: ownLogin,
      planFile: settings.planFile,
      planRoots: settings.planRoots,
      holder: settings.holder,
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
        { github, ledger, logger },
        {
          repository: settings.repository,
          runId: result.runId,
          project: (run) => renderStatusProjection(run, preview),
          ownLogin,
        },
      );
      if (synced !== null) summary.push(`Status comment ${synced.commentId}: ${synced.action}.`, '');
    } catch (error: unknown) {
      logger.warning(`status comment not updated: ${failureMessage(error)}`);
      summary.push(`Status comment not updated (${errorCode(error)}); the approval stands.`, '');
    }
  }
  return {
    summary: summary.join('\n'),
    outputs: {
      'run-id': result.runId,
      digest: result.digest,
      epoch: result.epoch,
      'lease-expires-at': result.leaseExpiresAt ?? '',
      outcome: dryRun ? 'dry-run' : 'approved',
      reason: '',
    },
  };
}
