/** Types of scripts/checks/model-relation.mjs for the tests that import it. */
export type StepRule = {
  /** How many steps change: exactly n, `some` (one or more: claim-steps) or `any` (checkpoint-steps). */
  count: number | 'some' | 'any';
  from: string[];
  to: string[];
  inOrder?: boolean;
  claimedBySameEpoch?: boolean;
};
export interface TransitionRule {
  awaiting?: string;
  from: (string | null)[];
  to: string[];
  /** `next-if-held`: epoch + 1 only when this run held the lease (cancel). */
  epoch: 'same' | 'next' | 'next-if-held';
  holder:
    | 'same'
    | 'this-run'
    | 'this-run-or-free'
    | 'this-run-unless-needs-reconciliation'
    | 'free'
    | 'free-if-held'
    | 'same-or-free-if-terminal';
  holderCheck: boolean;
  leaseMustBeFree?: boolean;
  /** The run ends at needs-reconciliation exactly when a step is still claimed after the commit. */
  needsReconciliationIffClaimed?: boolean;
  /** From needs-reconciliation only when the commit settles at least one claimed step. */
  settlesFromNeedsReconciliation?: boolean;
  /**
   * `reserve-record-or-reset`: the status record keeps its issue; a recorded comment ID changes only
   * to null. `reserve-first-or-none`: no record, or a first POST's reservation (no comment ID, no
   * body, a pending body). `reserve-update-or-same`: the record unchanged, or a recorded comment with
   * nothing pending given a pending body (an update reservation). Absent: the record is unchanged.
   */
  statusComment?: 'reserve-record-or-reset' | 'reserve-first-or-none' | 'reserve-update-or-same';
  /** The artifact record is new and made under the run's own, newest epoch. */
  artifactFenced?: boolean;
  noClaimedStep?: boolean;
  completedNeedsNoPendingStep?: boolean;
  needsApproval?: boolean;
  steps: 'same' | 'created-pending' | StepRule;
}
export interface Relation {
  runStates: string[];
  terminal: string[];
  stepStatuses: string[];
  transitions: Record<string, TransitionRule>;
}
export const MODEL_DIR: string;
export const RELATION_PATH: string;
export const RELATION_PML_PATH: string;
export function loadRelation(): Relation;
export function relationPromela(relation: Relation): string;
