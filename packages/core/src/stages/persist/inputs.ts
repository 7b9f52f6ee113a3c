import { parseAllowedRoles } from '../../approval/authorize.js';
import { WritError } from '../../errors.js';
import type { StageIo } from '../../io/action-io.js';
import { quoted } from '../../io/action-io.js';
import type { RepositoryName } from '../../ledger/paths.js';
import { loadPlanFile } from '../../plan/load.js';
import type { Plan } from '../../plan/types.js';
import { validateRunId } from '../../plan/run-id.js';
import { readRunnerContext } from '../context.js';
import type { LedgerSettings } from '../ledger-inputs.js';
import { readLedgerSettings } from '../ledger-inputs.js';

export interface PersistStageSettings {
  apiUrl: string;
  repository: RepositoryName & { full: string };
  runId: string;
  plan: Plan;
  epoch: number;
  persistenceEnabled: boolean;
  policyPath: string;
  evidencePath: string;
  maxSteps: number;
  claimWindow: number;
  pageCap: number;
  commandPrefix: string;
  allowedRoles: string[];
  dryRun: boolean;
  ledger: LedgerSettings;
  holder: { workflow_run_id: number; attempt: number };
}

function bounded(value: number | undefined, name: string, low: number, high: number): number {
  if (value === undefined || value < low || value > high) {
    throw new WritError(
      'invalid-input',
      `input '${name}' must be an integer from ${low} to ${high} (got ${value === undefined ? 'nothing' : value})`,
    );
  }
  return value;
}

/** A repository-relative file path on the default branch: no traversal, no absolute path. */
function repositoryPath(value: string, name: string): string {
  if (
    !/^[A-Za-z0-9._-][A-Za-z0-9._/-]{0,255}$/.test(value) ||
    value.split('/').some((part) => part === '..' || part === '')
  ) {
    throw new WritError(
      'invalid-input',
      `input '${name}' must be a repository-relative file path (got ${quoted(value)})`,
    );
  }
  return value;
}

export function readPersistSettings(io: StageIo<'persist'>): PersistStageSettings {
  const context = readRunnerContext();
  const runId = validateRunId(io.input('run-id'));
  const epochInput = io.input('epoch');
  if (!/^[1-9][0-9]{0,15}$/.test(epochInput)) {
    throw new WritError(
      'invalid-input',
      `input 'epoch' must be a positive integer (got ${quoted(epochInput)})`,
    );
  }
  const persistenceEnabled = io.booleanInput('persistence-enabled');
  const policyPath = repositoryPath(io.input('policy-file'), 'policy-file');
  const evidencePath = repositoryPath(io.input('evidence-file'), 'evidence-file');
  const maxSteps = bounded(io.integerInput('max-steps'), 'max-steps', 1, 1000);
  const claimWindow = bounded(io.integerInput('claim-window'), 'claim-window', 1, 50);
  const pageCap = bounded(io.integerInput('precheck-page-cap'), 'precheck-page-cap', 1, 100);
  const dryRun = io.booleanInput('dry-run');
  const commandPrefix = io.input('command-prefix');
  const allowedRoles = parseAllowedRoles(io.input('allowed-roles'));
  const ledger = readLedgerSettings(io, (name) => io.integerInput(name));
  const plan = loadPlanFile(io.input('plan-file'), {
    workspace: context.workspace,
    runnerTemp: context.runnerTemp,
  });
  return {
    apiUrl: context.apiUrl,
    repository: context.repository,
    runId,
    plan,
    epoch: Number(epochInput),
    persistenceEnabled,
    policyPath,
    evidencePath,
    maxSteps,
    claimWindow,
    pageCap,
    commandPrefix,
    allowedRoles,
    dryRun,
    ledger,
    holder: { workflow_run_id: context.workflowRunId, attempt: context.attempt },
  };
}
