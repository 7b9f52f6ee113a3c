/**
 * The non-dry-run half of preview: propose the run in the ledger (idempotent for the same plan) and
 * keep its one status comment. Loaded by the preview stage only when it writes, so a dry run never
 * loads the GitHub client.
 */
import { WritError, errorCode } from '../errors.js';
import { proposeRun, readRun } from '../ledger/ledger.js';
import { bindPlan } from '../plan/binding.js';
import type { Plan } from '../plan/types.js';
import type { Logger } from '../redact.js';
import type { GitHubClient } from '../github/client.js';
import type { HeldHead, LedgerContext } from '../ledger/cas.js';
import type { RunFile, RunPreview } from '../ledger/types.js';
import type { RepositoryName } from '../ledger/paths.js';
import { renderStatusProjection } from '../status-comment/projection.js';
import { statusFold, syncStatusComment } from '../status-comment/sync.js';

export interface ProposeSettings {
  statusIssue: number | undefined;
  plan: Plan;
  runId: string;
  markdown: string;
  /** What the preview stated (base SHA, risk, warnings), recorded in the run file at proposal. */
  preview?: RunPreview;
}

export interface ProposeResult {
  /** False when the same plan was already proposed under this run ID (a re-run). */
  proposed: boolean;
  ledgerHead: string;
  statusCommentId: number | undefined;
  statusAction: string | undefined;
}

export interface ProposeDeps {
  github: GitHubClient;
  ledger: LedgerContext;
  /** Writ's own bot login (`<slug>[bot]`): the status comment is found among its comments only. */
  ownLogin: string;
  logger: Logger;
}

/** Where the proposal comes from: the repository the workflow runs in and who triggered it. */
export interface ProposeOrigin {
  repository: RepositoryName & { full: string };
  actorId: number | undefined;
}

/**
 * A plan is proposed only in the repository it names: checked before any request is sent (the preview
 * stage calls it before its first read) and again where the proposal is made.
 */
export function requirePlanRepository(plan: Plan, repository: { full: string }): void {
  if (plan.scope.repository.toLowerCase() !== repository.full.toLowerCase()) {
    throw new WritError(
      'invalid-input',
      `the plan's scope.repository is ${plan.scope.repository}, but this workflow runs in ${repository.full}`,
    );
  }
}

export async function proposeAndPublishStatus(
  deps: ProposeDeps,
  origin: ProposeOrigin,
  settings: ProposeSettings,
): Promise<ProposeResult> {
  const { github, ledger, ownLogin, logger } = deps;
  const binding = bindPlan(settings.plan);
  requirePlanRepository(settings.plan, origin.repository);
  let proposed = true;
  let ledgerHead: string;
  let after: { run: RunFile; head: HeldHead; folded: boolean } | undefined;
  const project = (run: RunFile): string => renderStatusProjection(run, settings.markdown);
  try {
    const outcome = await proposeRun(ledger, {
      runId: settings.runId,
      planDigest: binding.digest,
      evidenceDigest: binding.evidenceDigest,
      scope: binding.scope,
      bounds: binding.bounds,
      steps: binding.steps,
      proposer: origin.actorId === undefined ? null : { actor_id: origin.actorId },
      ...(settings.preview === undefined ? {} : { preview: settings.preview }),
      // The status comment's first reservation rides on the propose commit (one commit, not two).
      ...(settings.statusIssue === undefined
        ? {}
        : { statusFold: statusFold({ runId: settings.runId, issueNumber: settings.statusIssue, project }) }),
    });
    ledgerHead = outcome.commitOid ?? '';
    if (outcome.result.run !== null && outcome.held !== undefined) {
      after = { run: outcome.result.run, head: outcome.held, folded: settings.statusIssue !== undefined };
    }
  } catch (error: unknown) {
    if (errorCode(error) !== 'run-exists') throw error;
    // A re-run of the same preview is fine; another plan under the same run ID never is.
    const existing = await readRun(ledger, settings.runId);
    if (existing.run?.plan_digest !== binding.digest) throw error;
    proposed = false;
    ledgerHead = existing.headOid;
  }
  const synced =
    settings.statusIssue === undefined
      ? null
      : await syncStatusComment(
          { github, ledger, logger },
          {
            repository: origin.repository,
            runId: settings.runId,
            issueNumber: settings.statusIssue,
            project,
            ownLogin,
            ...(after === undefined ? {} : { after }),
          },
        );
  return { proposed, ledgerHead, statusCommentId: synced?.commentId, statusAction: synced?.action };
}
