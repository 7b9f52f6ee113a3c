/** Shared inputs for ledger tests: a plan's digest/scope/bounds, approvals and holders. */
import { digest } from '../../../src/canonical-json.js';
import type { LedgerContext } from '../../../src/ledger/cas.js';
import { consumeApproval, proposeRun } from '../../../src/ledger/ledger.js';
import type { ApprovalInput, RecomputedPlan } from '../../../src/ledger/transitions.js';
import type { Bounds, Holder, StepKind } from '../../../src/ledger/types.js';

export const REPOSITORY = 'acme/widgets';

export function planFor(
  seed: string,
  stepCount = 3,
): {
  digest: string;
  scope: { repository: string; digest: string };
  bounds: Bounds;
  steps: { id: string; kind: StepKind }[];
} {
  return {
    digest: digest({ plan: seed }),
    scope: { repository: REPOSITORY, digest: digest({ repository: REPOSITORY, selection: seed }) },
    bounds: { max_steps: 10, max_creates: 2 },
    steps: Array.from({ length: stepCount }, (_, index) => ({
      id: `step-${index + 1}`,
      kind: 'external' as const,
    })),
  };
}

export function recomputed(plan: ReturnType<typeof planFor>): RecomputedPlan {
  return { digest: plan.digest, scope: plan.scope, bounds: plan.bounds };
}

export function approvalFor(plan: { digest: string }, commentId = 1001, login = 'alice'): ApprovalInput {
  return {
    actor_login: login,
    actor_id: 501,
    role_name: 'maintain',
    comment_id: commentId,
    comment_url: `https://github.com/acme/widgets/issues/7#issuecomment-${commentId}`,
    digest: plan.digest,
  };
}

export const HOLDER = { workflow_run_id: 9001, attempt: 1 };

/** The proposal of `plan` as run `runId` (no evidence), as proposeRun and `propose` take it. */
export function proposalOf(plan: ReturnType<typeof planFor>, runId: string) {
  return {
    runId,
    planDigest: plan.digest,
    evidenceDigest: null,
    scope: plan.scope,
    bounds: plan.bounds,
    steps: plan.steps,
  };
}

/** Proposes the run of `planFor(seed)` and returns that plan. */
export async function proposePlanFor(
  ledger: LedgerContext,
  runId: string,
  seed = runId,
): Promise<ReturnType<typeof planFor>> {
  const plan = planFor(seed);
  await proposeRun(ledger, proposalOf(plan, runId));
  return plan;
}

/**
 * Proposes the run of `planFor(runId)` and consumes a real approval of it (`world.approve`) under
 * `holder`: the repository's first approval takes the lease at epoch 1. Returns the plan.
 */
export async function approvedRunFor(
  // LedgerWorld's `approve`, by shape: the unit suites that import these fixtures never load the emulator.
  world: { approve(runId: string, plan: { digest: string }): Promise<ApprovalInput> },
  ledger: LedgerContext,
  runId: string,
  holder: Omit<Holder, 'run_id'>,
): Promise<ReturnType<typeof planFor>> {
  const plan = await proposePlanFor(ledger, runId);
  await consumeApproval(ledger, {
    runId,
    approval: await world.approve(runId, plan),
    plan: recomputed(plan),
    holder,
  });
  return plan;
}
