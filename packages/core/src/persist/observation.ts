/**
 * What a read of GitHub says about one plan step whose outcome is not recorded: the contract between
 * `persist` (which reconciles its own claimed steps) and `recovery` (which reconciles a crashed
 * holder's). `persist/observe.ts` implements it for every step kind; recovery takes it as a
 * dependency. Only what is observable counts: anything else is `unknown`, which a caller turns into
 * `needs-reconciliation`, never into a write.
 */
import type { KeyScope } from '../ledger/types.js';
import type { PlanStep } from '../plan/types.js';

export type Observation =
  /** The step's desired state is observed (a create: its marker on a resource Writ's app authored). */
  | { state: 'desired'; resources: number[] }
  /** The step's expected pre-state is observed unchanged: writing it is safe. */
  | { state: 'pre-state' }
  /** Neither, or the read failed or was capped: a human must decide. `reason` is a stable code. */
  | { state: 'unknown'; reason: string };

export interface ObserveContext {
  /** The repository the plan writes to. */
  owner: string;
  repo: string;
  /** The server time of the step's first claim (bounds a create's marker pre-check with `since=`). */
  firstClaimAt: string | null;
  /** The run being observed (a create's provenance line names it). */
  runId?: string;
  /** Milestone numbers the run's done `milestone.upsert` steps recorded, by marker key. */
  milestoneKeys?: ReadonlyMap<string, number>;
  /**
   * The `pre_state_digest` the step's claim recorded (null or absent: none, a ledger written before it
   * was recorded). A pre-state that differs from it is `unknown` with reason `pre-state-drift`.
   */
  preStateDigest?: string | null;
  /**
   * The key scope the step's claim recorded in its receipt (absent: `repository`, how every key was
   * derived before scopes existed), so the create is looked for by the key it was claimed with.
   */
  keyScope?: KeyScope;
}

export type StepObserver = (
  step: Exclude<PlanStep, { kind: 'external' }>,
  context: ObserveContext,
) => Promise<Observation>;
