/**
 * Consumes a one-time approval: everything is re-read from GitHub at this moment (the comment by ID,
 * its author, the author's live role) and the plan is recomputed from a fresh input; only then are the
 * approval and the repository lease committed, together, in one compare-and-set ledger commit.
 */
import type { FileRoots } from '../io/input-file.js';
import { WritError } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import type { HeldHead, LedgerContext, PlannedCommit } from '../ledger/cas.js';
import type { LedgerSnapshot } from '../ledger/store.js';
import type { RunFile } from '../ledger/types.js';
import type { StatusFold } from '../ledger/ledger.js';
import { consumeApproval } from '../ledger/ledger.js';
import type { RepositoryName } from '../ledger/paths.js';
import { bindPlan } from '../plan/binding.js';
import { loadPlanFile } from '../plan/load.js';
import type { Plan } from '../plan/types.js';
import type { Logger } from '../redact.js';
import type { VerifiedApproval } from './verify.js';
import { verifyApprovalComment } from './verify.js';

export interface ConsumeApprovalSettings {
  repository: RepositoryName;
  commentId: number;
  commandPrefix: string;
  allowedRoles: readonly string[];
  /** The ledger app's bot login (`<slug>[bot]`): its comments never approve. */
  appBotLogin: string;
  planFile: string;
  /** Where a stage may read the plan from (the workspace and the runner's temp directory). */
  planRoots?: FileRoots;
  holder: { workflow_run_id: number; attempt: number };
  requireDistinctApprover: boolean;
  dryRun?: boolean;
  /** The comment already verified by the caller (the comment-command stage reads it once). */
  verified?: VerifiedApproval;
  /** The ledger as the caller read it before the role check (readBeforeConsume), for the first attempt. */
  first?: LedgerSnapshot;
  /** The status comment update to reserve in the consume commit, given the plan recomputed now. */
  statusFold?: (plan: Plan) => StatusFold;
}

export interface ConsumedApproval {
  runId: string;
  digest: string;
  epoch: number;
  approver: { login: string; id: number; role: string };
  commentUrl: string;
  leaseExpiresAt: string | null;
  ledgerHead: string | null;
  committed: boolean;
  /** The ledger commit made, or (dry run) the one that would be made. */
  commit: PlannedCommit;
  /** The plan as recomputed for this approval. */
  plan: Plan;
  /** The run and head the consume commit left, when GitHub answered it (see HeldHead). */
  after?: { run: RunFile; head: HeldHead };
}

export async function consumeApprovalComment(
  deps: { github: GitHubClient; ledger: LedgerContext; logger: Logger },
  settings: ConsumeApprovalSettings,
): Promise<ConsumedApproval> {
  const { comment, command, author, role } =
    settings.verified ??
    (await verifyApprovalComment(deps.github, {
      repository: settings.repository,
      commentId: settings.commentId,
      commandPrefix: settings.commandPrefix,
      allowedRoles: settings.allowedRoles,
      appBotLogin: settings.appBotLogin,
    }));
  const plan = loadPlanFile(settings.planFile, settings.planRoots);
  const binding = bindPlan(plan);
  const approvedDigest = `sha256:${command.digestHex}`;
  if (binding.digest !== approvedDigest) {
    throw new WritError(
      'stale-or-mismatched-approval',
      `the approved digest does not match the plan recomputed now (${binding.digest}); a new preview is required`,
    );
  }
  deps.logger.info(`approval by ${author.login} (${author.id}, role ${role}) for run ${command.runId}`);
  const outcome = await consumeApproval(
    deps.ledger,
    {
      runId: command.runId,
      approval: {
        actor_login: author.login,
        actor_id: author.id,
        role_name: role,
        comment_id: comment.id,
        comment_url: comment.html_url,
        digest: approvedDigest,
      },
      plan: { digest: binding.digest, scope: binding.scope, bounds: binding.bounds },
      holder: settings.holder,
      requireDistinctApprover: settings.requireDistinctApprover,
      ...(settings.statusFold === undefined ? {} : { statusFold: settings.statusFold(plan) }),
    },
    { dryRun: settings.dryRun === true, ...(settings.first === undefined ? {} : { first: settings.first }) },
  );
  return {
    runId: command.runId,
    digest: approvedDigest,
    epoch: outcome.result.epoch,
    approver: { login: author.login, id: author.id, role },
    commentUrl: comment.html_url,
    leaseExpiresAt: outcome.result.lease?.lease_expires_at ?? null,
    ledgerHead: outcome.commitOid,
    committed: outcome.committed,
    commit: outcome.commit,
    plan,
    ...(outcome.result.run !== null && outcome.held !== undefined
      ? { after: { run: outcome.result.run, head: outcome.held } }
      : {}),
  };
}
