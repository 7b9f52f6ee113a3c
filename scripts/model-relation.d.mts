/** Types of scripts/model-relation.mjs for the tests that import it. */
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
  epoch: 'same' | 'next';
  holder: 'same' | 'this-run' | 'this-run-or-free' | 'free' | 'same-or-free-if-terminal';
  holderCheck: boolean;
  leaseMustBeFree?: boolean;
  needsReconciliationIffClaimed?: boolean;
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
