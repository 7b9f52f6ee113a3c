/**
 * Re-verifies a consumed approval before any write it authorizes: the ledger must prove its authority
 * (provenance, read at the same head as the run), its proven history must hold this run's consume
 * transition for exactly this digest, and that approval's source comment, author and current
 * permission must all still check out on GitHub. A ledger entry alone, a flag or a label never
 * authorizes a write. A transient failure (5xx, rate limit, transport) is reported as such
 * (`github-request-failed`), never as a stale approval.
 */
import { WritError } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import type { LedgerContext } from '../ledger/cas.js';
import type { VerifiedRunView } from '../ledger/ledger.js';
import { readVerifiedRun } from '../ledger/ledger.js';
import type { RepositoryName } from '../ledger/paths.js';
import type { RunFile } from '../ledger/types.js';
import type { Logger } from '../redact.js';
import { verifyApprovalComment } from './verify.js';

export interface GateSettings {
  repository: RepositoryName;
  runId: string;
  /** The digest of the plan recomputed now from a fresh input. */
  planDigest: string;
  commandPrefix: string;
  allowedRoles: readonly string[];
}

function refuse(why: string): never {
  throw new WritError('stale-or-mismatched-approval', why);
}

const USABLE_STATES: readonly RunFile['state'][] = ['approved', 'running', 'completed'];

export async function verifyApprovalGate(
  deps: { github: GitHubClient; ledger: LedgerContext; logger: Logger },
  settings: GateSettings,
): Promise<RunFile> {
  return (await verifyApprovalGateView(deps, settings)).run;
}

/**
 * The same gate, answering with the verified ledger view it read (lease and run at one proven head)
 * and whatever repository fields the caller folded into that read with `alongside`.
 */
export async function verifyApprovalGateView(
  deps: { github: GitHubClient; ledger: LedgerContext; logger: Logger },
  settings: GateSettings,
  options: { alongside?: string } = {},
): Promise<{ run: RunFile; view: VerifiedRunView }> {
  const view = await readVerifiedRun(deps.ledger, settings.runId, undefined, options);
  const { run, provenance } = view;
  if (run === null) refuse(`the ledger holds no run ${settings.runId}`);
  const approval = run.approval;
  if (approval === null) refuse(`run ${settings.runId} has no consumed approval`);
  if (!provenance.consumedRunIds.has(run.run_id) || !provenance.consumedCommentIds.has(approval.comment_id)) {
    refuse(`run ${settings.runId} has no consume transition in the proven ledger history`);
  }
  if (!USABLE_STATES.includes(run.state)) refuse(`run ${settings.runId} is ${run.state}`);
  if (run.plan_digest !== settings.planDigest || approval.digest !== settings.planDigest) {
    refuse(
      `run ${settings.runId} was approved for another plan digest than the plan recomputed now (${settings.planDigest})`,
    );
  }
  const { author, command, role } = await verifyApprovalComment(deps.github, {
    repository: settings.repository,
    commentId: approval.comment_id,
    commandPrefix: settings.commandPrefix,
    allowedRoles: settings.allowedRoles,
    refuseAs: 'stale-or-mismatched-approval',
  });
  if (author.id !== approval.actor_id) {
    refuse(`the approval comment ${approval.comment_id} is not by approver ${approval.actor_id}`);
  }
  if (command.runId !== run.run_id || `sha256:${command.digestHex}` !== approval.digest) {
    refuse(`the approval comment ${approval.comment_id} approves another run or digest`);
  }
  deps.logger.info(
    `approval of run ${run.run_id} re-verified: comment ${approval.comment_id}, approver ${author.login} (${role})`,
  );
  return { run, view };
}
