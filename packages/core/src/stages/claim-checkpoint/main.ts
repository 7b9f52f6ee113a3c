import type { Operation } from '../../claim/claim-checkpoint.js';
import { OPERATIONS, STEP_OUTCOMES, runClaimCheckpoint } from '../../claim/claim-checkpoint.js';
import { WritError } from '../../errors.js';
import type { StepOutcome } from '../../ledger/types.js';
import { validateRunId } from '../../plan/run-id.js';
import { connect, readLedgerInputs } from '../connect.js';
import { readRunnerContext } from '../context.js';
import { failStep, runnerLogger, stageIo, writeSummary } from '../../io/action-io.js';
import { describeCommit } from '../runner.js';

const DONE: Record<Operation, string> = {
  claim: 'claimed',
  checkpoint: 'checkpointed',
  takeover: 'taken-over',
  release: 'released',
};

function oneOf<T extends string>(value: string, allowed: readonly T[], name: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new WritError('invalid-input', `input '${name}' must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

/** The claim-checkpoint action: fences a consumer's own side effect with the ledger lease. */
export async function run(): Promise<void> {
  const io = stageIo('claim-checkpoint');
  try {
    const context = readRunnerContext();
    const operation = oneOf(io.input('operation'), OPERATIONS, 'operation');
    const runId = validateRunId(io.input('run-id'));
    const stepId = io.input('step-id');
    const outcomeInput = io.input('step-outcome');
    const statusCode = io.integerInput('status-code');
    const errorCode = io.input('error-code');
    const dryRun = io.booleanInput('dry-run');
    const { ledger } = connect(
      context,
      readLedgerInputs(io, (name) => io.integerInput(name)),
      runnerLogger,
    );
    const epochInput = io.input('epoch');
    const epoch =
      epochInput === '' ? undefined : /^(0|[1-9][0-9]{0,15})$/.test(epochInput) ? Number(epochInput) : NaN;
    if (Number.isNaN(epoch))
      throw new WritError('invalid-input', "input 'epoch' must be a non-negative integer");
    const result = await runClaimCheckpoint(ledger, {
      repository: context.repository.full,
      operation,
      runId,
      ...(stepId === '' ? {} : { stepId }),
      ...(epoch === undefined ? {} : { epoch }),
      holder: { workflow_run_id: context.workflowRunId, attempt: context.attempt },
      ...(outcomeInput === ''
        ? {}
        : { outcome: oneOf<StepOutcome>(outcomeInput, STEP_OUTCOMES, 'step-outcome') }),
      statusCode: statusCode ?? null,
      errorCode: errorCode === '' ? null : errorCode,
      dryRun,
    });
    await writeSummary(
      `## Writ ${operation}${dryRun ? ' (dry run: nothing written)' : ''}\n\nRun \`${runId}\`${stepId ? `, step \`${stepId}\`` : ''}: epoch ${result.epoch}, step ${result.stepStatus || '—'}, run ${result.runState || '—'}, lease until \`${result.leaseExpiresAt || '—'}\`.\n` +
        (dryRun ? `\n${describeCommit(result.commit)}` : ''),
    );
    io.setOutputs({
      'run-id': runId,
      epoch: result.epoch,
      'step-status': result.stepStatus,
      'lease-expires-at': result.leaseExpiresAt,
      'idempotency-key': result.idempotencyKey,
      outcome: dryRun ? 'dry-run' : DONE[operation],
      reason: '',
    });
    if (result.needsReconciliation) {
      throw new WritError(
        'needs-reconciliation',
        `run ${runId} had a claimed step with an unknown outcome; it stopped for reconciliation by a repository writer`,
      );
    }
  } catch (error: unknown) {
    const reason = failStep(error);
    io.setOutputs({ outcome: error instanceof WritError ? 'refused' : 'failed', reason });
  }
}
