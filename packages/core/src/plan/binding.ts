/** What an approval binds: the plan digest, scope and bounds, exactly as the ledger records them. */
import { digest } from '../canonical-json.js';
import type { Plan, StepKind } from './types.js';

export interface PlanBinding {
  digest: string;
  scope: { repository: string; digest: string };
  bounds: Plan['bounds'];
  evidenceDigest: string | null;
  steps: { id: string; kind: StepKind }[];
}

export function bindPlan(plan: Plan): PlanBinding {
  return {
    digest: digest(plan),
    scope: { repository: plan.scope.repository, digest: digest(plan.scope) },
    bounds: { ...plan.bounds },
    evidenceDigest: plan.evidence_digest ?? null,
    steps: plan.steps.map((step) => ({ id: step.id, kind: step.kind })),
  };
}
