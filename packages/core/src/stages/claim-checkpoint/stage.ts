import type { Operation } from '../../claim/claim-checkpoint.js';
import { runClaimCheckpoint } from '../../claim/claim-checkpoint.js';
import { WritError } from '../../errors.js';
import { parseRepository } from '../../ledger/paths.js';
import { followStatus } from '../../status-comment/follow.js';
import type { StageDeps } from '../connect.js';
import type { StageResult } from '../runner.js';
import { describeCommit } from '../runner.js';
import type { ClaimCheckpointStageSettings } from './inputs.js';

const DONE: Record<Operation, string> = {
  claim: 'claimed',
  checkpoint: 'checkpointed',
  takeover: 'taken-over',
  release: 'released',
};

/** Fences a consumer's own side effect with the ledger lease: claim, checkpoint, takeover, release. */
export async function claimCheckpoint(
  settings: ClaimCheckpointStageSettings,
  deps: Pick<StageDeps, 'ledger'> & Partial<Pick<StageDeps, 'github' | 'logger' | 'ownLogin'>>,
): Promise<StageResult<'claim-checkpoint'>> {
  const { operation, runId, stepId, epoch, outcome, dryRun } = settings;
  const result = await runClaimCheckpoint(deps.ledger, {
    repository: settings.repository,
    operation,
    runId,
    ...(stepId === undefined ? {} : { stepId }),
    ...(epoch === undefined ? {} : { epoch }),
    holder: settings.holder,
    ...(outcome === undefined ? {} : { outcome }),
    statusCode: settings.statusCode,
    errorCode: settings.errorCode,
    dryRun,
  });
  // The run changed: its status comment follows (once; a failure never fails the operation).
  // (Without a GitHub client, as in ledger-only callers, there is no comment to follow.)
  const { github, logger, ownLogin } = deps;
  const status =
    result.after === null || dryRun || github === undefined || logger === undefined || ownLogin === undefined
      ? ''
      : (
          await followStatus(
            { github, ledger: deps.ledger, logger },
            {
              repository: parseRepository(settings.repository),
              runId,
              ownLogin,
              preview: null,
              after: result.after,
            },
          )
        ).line;
  const ended =
    result.runState === 'completed' && !result.alreadyReleased && operation === 'checkpoint'
      ? ' Every step is done: the run is completed and the repository lease is released in this same commit.'
      : '';
  const released = result.alreadyReleased
    ? ` The run ended as ${result.runState} and released the repository lease then: nothing to release.`
    : '';
  return {
    summary:
      `## Writ ${operation}${dryRun ? ' (dry run: nothing written)' : ''}\n\nRun \`${runId}\`${stepId ? `, step \`${stepId}\`` : ''}: epoch ${result.epoch}, step ${result.stepStatus || '—'}, run ${result.runState || '—'}, lease until \`${result.leaseExpiresAt || '—'}\`.${ended}${released}\n` +
      (dryRun && result.commit !== null ? `\n${describeCommit(result.commit)}` : '') +
      (status === '' ? '' : `\n${status}\n`),
    outputs: {
      'run-id': runId,
      epoch: result.epoch,
      'step-status': result.stepStatus,
      'lease-expires-at': result.leaseExpiresAt,
      'idempotency-key': result.idempotencyKey,
      outcome: dryRun ? 'dry-run' : DONE[operation],
      reason: '',
    },
    ...(result.needsReconciliation
      ? {
          refusal: new WritError(
            'needs-reconciliation',
            `run ${runId} had a claimed step with an unknown outcome; it stopped for reconciliation by a repository writer`,
          ),
        }
      : {}),
  };
}
