/**
 * `observeStep`: the `StepObserver` contract (observation.ts) for every step kind, for a step whose
 * outcome is not recorded. It reads GitHub exactly as persist's pre-read does (steps.ts) and says only
 * what it saw: the desired state (a create: its marker on a resource Writ's own app authored), the
 * expected pre-state unchanged (writing is safe; when the claim recorded a `pre_state_digest`, that exact
 * pre-state), or `unknown` with a stable reason — a conflict, a pre-state drift, a
 * marker search that was capped or failed, a read that failed. It never writes.
 *
 * A StepObserver needs a client and Writ's identity, so `observeStep` builds one from them:
 *
 *   const observe: StepObserver = observeStep({ github, ownLogin: 'writ[bot]' });
 */
import { errorCode, httpStatus } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import { DEFAULT_MAX_PAGES } from '../idempotency/precheck.js';
import type { RunFile } from '../ledger/types.js';
import type { Plan } from '../plan/types.js';
import type { Observation, ObserveContext, StepObserver } from './observation.js';
import type { Assessment, WritableStep } from './steps.js';
import { assessStep, preStateDigest } from './steps.js';

export interface ObserverDeps {
  github: GitHubClient;
  /** Writ's own login (`<app slug>[bot]`). */
  ownLogin: string;
  /** Pages of 100 a marker search may read (default 20). */
  pageCap?: number;
  /** Milestone numbers already known for marker keys (from the run's checkpoints). */
  milestoneKeys?: ReadonlyMap<string, number>;
  /** The run ID (only a create's provenance line uses it; it does not change what is observed). */
  runId?: string;
}

/** The milestone numbers a run's done `milestone.upsert` steps recorded, by marker key. */
export function milestoneKeysOf(plan: Plan, run: RunFile): Map<string, number> {
  const keys = new Map<string, number>();
  plan.steps.forEach((step, index) => {
    const record = run.steps[index];
    const number = record?.resources[0];
    if (step.kind === 'milestone.upsert' && record?.status === 'done' && number !== undefined)
      keys.set(step.key, number);
  });
  return keys;
}

/**
 * What an assessment says about a step whose outcome is unknown; `recorded` is the `pre_state_digest`
 * its claim recorded (null: none, so only the plan's `expect` is compared).
 */
export function observationOf(assessment: Assessment, recorded: string | null = null): Observation {
  if (assessment.inconclusive !== null) return { state: 'unknown', reason: 'precheck-inconclusive' };
  if (assessment.desired) return { state: 'desired', resources: assessment.resources };
  if (recorded !== null && preStateDigest(assessment) !== recorded)
    return { state: 'unknown', reason: 'pre-state-drift' };
  if (assessment.diff.length > 0) return { state: 'unknown', reason: 'conflict' };
  return { state: 'pre-state' };
}

export function observeStep(deps: ObserverDeps): StepObserver {
  return async (step: WritableStep, context: ObserveContext): Promise<Observation> => {
    try {
      const assessment = await assessStep(
        deps.github,
        {
          owner: context.owner,
          repo: context.repo,
          ownLogin: deps.ownLogin,
          pageCap: deps.pageCap ?? DEFAULT_MAX_PAGES,
          createdAfter: context.firstClaimAt,
          milestoneKeys: context.milestoneKeys ?? deps.milestoneKeys ?? new Map(),
          precheck: true,
          keyScope: context.keyScope ?? 'repository',
          runId: context.runId ?? deps.runId ?? 'unknown',
        },
        step,
      );
      return observationOf(assessment, context.preStateDigest ?? null);
    } catch (error: unknown) {
      const status = httpStatus(error);
      return { state: 'unknown', reason: status === undefined ? errorCode(error) : 'github-request-failed' };
    }
  };
}
