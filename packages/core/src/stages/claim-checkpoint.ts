/**
 * The claim-checkpoint action (actions/claim-checkpoint/action.yml): fences a consumer's own side
 * effect with the ledger lease (claim, checkpoint, takeover, release). Its inputs, `claimCheckpointStage`
 * (claim/claim-checkpoint.ts `runClaimCheckpoint`, then the run's status comment follows) and `run`,
 * what the action's bundle runs.
 */
import type { Operation } from '../claim/claim-checkpoint.js';
import { runClaimCheckpoint } from '../claim/claim-checkpoint.js';
import { WritError } from '../errors.js';
import type { StageIo } from '../io/action-io.js';
import { quoted, runnerLogger } from '../io/action-io.js';
import { parseRepository } from '../ledger/paths.js';
import type { StepOutcome } from '../ledger/types.js';
import { validateRunId } from '../plan/run-id.js';
import { followStatus } from '../status-comment/follow.js';
import type { StageDeps } from './connect.js';
import { connect } from './connect.js';
import { readRunnerContext } from './context.js';
import type { LedgerSettings } from './ledger-inputs.js';
import type { ProjectTarget } from '../projects/sync.js';
import { readLedgerSettings } from './ledger-inputs.js';
import { parseProjectInput } from '../projects/target.js';
import type { StageResult } from './runner.js';
import { describeCommit, runAction } from './runner.js';

export interface ClaimCheckpointStageSettings {
  apiUrl: string;
  repository: string;
  operation: Operation;
  runId: string;
  stepId: string | undefined;
  epoch: number | undefined;
  outcome: StepOutcome | undefined;
  statusCode: number | null;
  errorCode: string | null;
  dryRun: boolean;
  ledger: LedgerSettings;
  /** The token for Actions reads (holder liveness before a takeover) only; null: the ledger token. */
  actionsToken?: string | null;
  holder: { workflow_run_id: number; attempt: number };
  /** The Projects (v2) project the run's item is kept on (`project` input); null or absent: none. */
  project?: ProjectTarget | null;
}

export function readClaimCheckpointSettings(io: StageIo<'claim-checkpoint'>): ClaimCheckpointStageSettings {
  const context = readRunnerContext();
  const operation = io.choiceInput('operation');
  const runId = validateRunId(io.input('run-id'));
  const stepId = io.input('step-id');
  const outcomeInput = io.input('step-outcome');
  const statusCode = io.integerInput('status-code');
  const errorCode = io.input('error-code');
  const dryRun = io.booleanInput('dry-run');
  const ledger = readLedgerSettings(io, 'lease-seconds');
  const actionsToken = io.input('actions-token');
  const epochInput = io.input('epoch');
  if (epochInput !== '' && !/^(0|[1-9][0-9]{0,15})$/.test(epochInput)) {
    throw new WritError(
      'invalid-input',
      `input 'epoch' must be a non-negative integer (got ${quoted(epochInput)})`,
    );
  }
  return {
    apiUrl: context.apiUrl,
    repository: context.repository.full,
    operation,
    runId,
    stepId: stepId === '' ? undefined : stepId,
    epoch: epochInput === '' ? undefined : Number(epochInput),
    outcome: outcomeInput === '' ? undefined : io.choiceInput('step-outcome'),
    statusCode: statusCode ?? null,
    errorCode: errorCode === '' ? null : errorCode,
    dryRun,
    ledger,
    project: parseProjectInput(io.input('project')),
    actionsToken: actionsToken === '' ? null : actionsToken,
    holder: { workflow_run_id: context.workflowRunId, attempt: context.attempt },
  };
}

const DONE: Record<Operation, string> = {
  claim: 'claimed',
  checkpoint: 'checkpointed',
  takeover: 'taken-over',
  release: 'released',
};

/** Fences a consumer's own side effect with the ledger lease: claim, checkpoint, takeover, release. */
export async function claimCheckpointStage(
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
              project: settings.project,
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

/** The claim-checkpoint action: fences a consumer's own side effect with the ledger lease. */
export async function run(): Promise<void> {
  await runAction('claim-checkpoint', {
    inputs: readClaimCheckpointSettings,
    connect: (settings) =>
      connect({ apiUrl: settings.apiUrl, repository: settings.repository }, settings.ledger, runnerLogger, {
        actionsToken: settings.actionsToken ?? null,
      }),
    stage: claimCheckpointStage,
  });
}
