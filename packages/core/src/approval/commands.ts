/**
 * The human commands besides approve: `<prefix>: reconcile <run_id> <step_id> <done|failed|retry>` and
 * `<prefix>: cancel <run_id>`. Consumed by the same issue-comment workflow as approvals and verified by
 * the same function (approval/verify.ts: read by ID, unedited, the exact command, a human author, a live
 * role in the allowed roles); the ledger records the human's ID and tombstones the comment, so each
 * command acts once. Reconcile needs the run at `needs-reconciliation` and the step claimed; cancel any
 * run that is not terminal, after which the run makes no further write.
 */
import type { GitHubClient } from '../github/client.js';
import type { LedgerContext, PlannedCommit } from '../ledger/cas.js';
import { cancelRun, reconcileStep } from '../ledger/ledger.js';
import type { RepositoryName } from '../ledger/paths.js';
import type { Actor, RunFile, StepOutcome } from '../ledger/types.js';
import type { Logger } from '../redact.js';
import type { Command, ReconcileDecision } from '../command/grammar.js';
import type { VerifiedCommand } from './verify.js';

export const DECISION_OUTCOME: Record<ReconcileDecision, StepOutcome | 'pending'> = {
  done: 'done',
  failed: 'failed',
  retry: 'pending',
};

export interface HumanCommandSettings {
  allowedRoles: readonly string[];
  dryRun?: boolean;
}

export interface HumanCommandResult {
  kind: 'reconcile' | 'cancel';
  runId: string;
  stepId: string | null;
  actor: Actor;
  epoch: number;
  run: RunFile | null;
  committed: boolean;
  ledgerHead: string | null;
  commit: PlannedCommit;
}

/** Records a verified reconcile or cancel command in the ledger (one compare-and-set commit). */
export async function consumeHumanCommand(
  deps: { github: GitHubClient; ledger: LedgerContext; logger: Logger },
  verified: VerifiedCommand & { command: Exclude<Command, { kind: 'approve' }> },
  settings: HumanCommandSettings & { repository: RepositoryName },
): Promise<HumanCommandResult> {
  const { command, author, role, comment } = verified;
  const actor: Actor = { actor_login: author.login, actor_id: author.id, role_name: role };
  const options = { dryRun: settings.dryRun === true };
  deps.logger.info(
    `${command.kind} by ${author.login} (${author.id}, role ${role}) for run ${command.runId}`,
  );
  const outcome =
    command.kind === 'reconcile'
      ? await reconcileStep(
          deps.ledger,
          {
            runId: command.runId,
            stepId: command.stepId,
            actor,
            outcome: DECISION_OUTCOME[command.decision],
            evidence: { status_code: null, error_code: null },
            commentId: comment.id,
            allowedRoles: settings.allowedRoles,
          },
          options,
        )
      : await cancelRun(
          deps.ledger,
          { runId: command.runId, actor, commentId: comment.id, allowedRoles: settings.allowedRoles },
          options,
        );
  return {
    kind: command.kind,
    runId: command.runId,
    stepId: command.kind === 'reconcile' ? command.stepId : null,
    actor,
    epoch: outcome.result.epoch,
    run: outcome.result.run,
    committed: outcome.committed,
    ledgerHead: outcome.commitOid,
    commit: outcome.commit,
  };
}
