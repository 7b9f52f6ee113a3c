import { approvalCommentId, parseAllowedRoles } from '../../approval/authorize.js';
import type { StageIo } from '../../io/action-io.js';
import type { FileRoots } from '../../io/input-file.js';
import type { RepositoryName } from '../../ledger/paths.js';
import { readRunnerContext } from '../context.js';
import type { LedgerSettings } from '../ledger-inputs.js';
import { readLedgerSettings } from '../ledger-inputs.js';

export interface ConsumeApprovalStageSettings {
  apiUrl: string;
  repository: RepositoryName & { full: string };
  /** The approving comment, from an `issue_comment` `created` event (re-read from the API). */
  commentId: number;
  dryRun: boolean;
  commandPrefix: string;
  ledger: LedgerSettings;
  planFile: string;
  planRoots: FileRoots;
  allowedRoles: string[];
  requireDistinctApprover: boolean;
  holder: { workflow_run_id: number; attempt: number };
  /** The token that reads an expired lease holder's liveness (`actions-token`); null: the ledger token. */
  actionsToken?: string | null;
}

export function readConsumeApprovalSettings(io: StageIo<'consume-approval'>): ConsumeApprovalStageSettings {
  const context = readRunnerContext();
  // Before anything else: only a newly created issue comment can approve.
  const commentId = approvalCommentId({ eventName: context.eventName, payload: context.payload });
  const dryRun = io.booleanInput('dry-run');
  const commandPrefix = io.input('command-prefix');
  const ledger = readLedgerSettings(io, (name) => io.integerInput(name));
  const planFile = io.input('plan-file');
  const allowedRoles = parseAllowedRoles(io.input('allowed-roles'));
  const actionsToken = io.input('actions-token');
  return {
    apiUrl: context.apiUrl,
    repository: context.repository,
    commentId,
    dryRun,
    commandPrefix,
    ledger,
    planFile,
    planRoots: { workspace: context.workspace, runnerTemp: context.runnerTemp },
    allowedRoles,
    requireDistinctApprover: io.booleanInput('require-distinct-approver'),
    holder: { workflow_run_id: context.workflowRunId, attempt: context.attempt },
    actionsToken: actionsToken === '' ? null : actionsToken,
  };
}
