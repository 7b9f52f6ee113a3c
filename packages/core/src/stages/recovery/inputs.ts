import { parseAllowedRoles } from '../../approval/authorize.js';
import { validateCommandPrefix } from '../../command/grammar.js';
import { WritError } from '../../errors.js';
import type { StageIo } from '../../io/action-io.js';
import type { FileRoots } from '../../io/input-file.js';
import type { RepositoryName } from '../../ledger/paths.js';
import { readRunnerContext } from '../context.js';
import type { LedgerSettings } from '../ledger-inputs.js';
import { readLedgerSettings } from '../ledger-inputs.js';

export interface RecoveryStageSettings {
  apiUrl: string;
  /** GITHUB_SERVER_URL (evidence links on GitHub Enterprise Server follow it). */
  serverUrl: string;
  repository: RepositoryName & { full: string };
  dryRun: boolean;
  commandPrefix: string;
  ledger: LedgerSettings;
  /** The token for Actions reads (holder liveness) only; null: the ledger token. */
  actionsToken: string | null;
  planFile: string | null;
  planRoots: FileRoots;
  allowedRoles: string[];
  requireDistinctApprover: boolean;
  holder: { workflow_run_id: number; attempt: number };
}

/** GITHUB_SERVER_URL: https://<host>, nothing else (github.com when the runner does not set it). */
export function readServerUrl(value: string | undefined): string {
  const url = value === undefined || value === '' ? 'https://github.com' : value.replace(/\/$/, '');
  if (!/^https:\/\/[A-Za-z0-9.-]+$/.test(url)) {
    throw new WritError('invalid-input', 'environment variable GITHUB_SERVER_URL must be https://<host>');
  }
  return url;
}

export function readRecoverySettings(io: StageIo<'recovery'>): RecoveryStageSettings {
  const context = readRunnerContext();
  const dryRun = io.booleanInput('dry-run');
  const commandPrefix = validateCommandPrefix(io.input('command-prefix'));
  const ledger = readLedgerSettings(io, (name) => io.integerInput(name));
  const actionsToken = io.input('actions-token');
  const planFile = io.input('plan-file');
  const allowedRoles = parseAllowedRoles(io.input('allowed-roles'));
  return {
    apiUrl: context.apiUrl,
    serverUrl: readServerUrl(process.env.GITHUB_SERVER_URL),
    repository: context.repository,
    dryRun,
    commandPrefix,
    ledger,
    actionsToken: actionsToken === '' ? null : actionsToken,
    planFile: planFile === '' ? null : planFile,
    planRoots: { workspace: context.workspace, runnerTemp: context.runnerTemp },
    allowedRoles,
    requireDistinctApprover: io.booleanInput('require-distinct-approver'),
    holder: { workflow_run_id: context.workflowRunId, attempt: context.attempt },
  };
}
