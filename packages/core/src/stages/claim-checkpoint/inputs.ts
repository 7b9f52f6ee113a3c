import type { Operation } from '../../claim/claim-checkpoint.js';
import { OPERATIONS, STEP_OUTCOMES } from '../../claim/claim-checkpoint.js';
import { WritError } from '../../errors.js';
import type { StageIo } from '../../io/action-io.js';
import { quoted } from '../../io/action-io.js';
import type { StepOutcome } from '../../ledger/types.js';
import { validateRunId } from '../../plan/run-id.js';
import { readRunnerContext } from '../context.js';
import type { LedgerSettings } from '../ledger-inputs.js';
import { readLedgerSettings } from '../ledger-inputs.js';

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
}

function oneOf<T extends string>(value: string, allowed: readonly T[], name: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new WritError(
      'invalid-input',
      `input '${name}' must be one of ${allowed.join(', ')} (got ${quoted(value)})`,
    );
  }
  return value as T;
}

export function readClaimCheckpointSettings(io: StageIo<'claim-checkpoint'>): ClaimCheckpointStageSettings {
  const context = readRunnerContext();
  const operation = oneOf(io.input('operation'), OPERATIONS, 'operation');
  const runId = validateRunId(io.input('run-id'));
  const stepId = io.input('step-id');
  const outcomeInput = io.input('step-outcome');
  const statusCode = io.integerInput('status-code');
  const errorCode = io.input('error-code');
  const dryRun = io.booleanInput('dry-run');
  const ledger = readLedgerSettings(io, (name) => io.integerInput(name));
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
    outcome:
      outcomeInput === '' ? undefined : oneOf<StepOutcome>(outcomeInput, STEP_OUTCOMES, 'step-outcome'),
    statusCode: statusCode ?? null,
    errorCode: errorCode === '' ? null : errorCode,
    dryRun,
    ledger,
    actionsToken: actionsToken === '' ? null : actionsToken,
    holder: { workflow_run_id: context.workflowRunId, attempt: context.attempt },
  };
}
