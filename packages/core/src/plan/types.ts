/** TypeScript view of schemas/plan.schema.json (the schema is the source of truth). */

export type MilestoneRef = { number: number } | { key: string };

export interface MilestoneState {
  number?: number;
  title?: string;
  state?: 'open' | 'closed';
  description_digest?: string;
  updated_at?: string;
}

interface StepBase {
  id: string;
  summary?: string;
}

export interface MilestoneUpsertStep extends StepBase {
  kind: 'milestone.upsert';
  key: string;
  title: string;
  description?: string;
  state?: 'open' | 'closed';
  due_on?: string;
  expect?: { exists: boolean; milestone?: MilestoneState };
}

export interface MilestoneEditStep extends StepBase {
  kind: 'milestone.edit';
  milestone: MilestoneRef;
  set: { title?: string; description?: string; state?: 'open' | 'closed'; due_on?: string | null };
  expect?: MilestoneState;
}

export interface IssueSetMilestoneStep extends StepBase {
  kind: 'issue.set-milestone';
  issue: number;
  milestone: MilestoneRef | null;
  expect?: {
    milestone?: number | null;
    labels?: string[];
    state?: 'open' | 'closed';
    source_milestone?: MilestoneState;
    target_milestone?: MilestoneState;
  };
}

export interface IssueLabelsStep extends StepBase {
  kind: 'issue.labels';
  issue: number;
  add?: string[];
  remove?: string[];
  expect?: { labels?: string[] };
}

export interface IssueCreateStep extends StepBase {
  kind: 'issue.create';
  title: string;
  body?: string;
  labels?: string[];
  milestone?: MilestoneRef;
  expect?: { exists: false };
}

export interface CommentUpsertStep extends StepBase {
  kind: 'comment.upsert';
  issue: number;
  key: string;
  body: string;
  expect?: { exists: boolean; comment_id?: number; body_digest?: string };
}

export interface ExternalStep extends StepBase {
  kind: 'external';
  target: string;
  parameters?: Record<string, unknown>;
}

export type PlanStep =
  | MilestoneUpsertStep
  | MilestoneEditStep
  | IssueSetMilestoneStep
  | IssueLabelsStep
  | IssueCreateStep
  | CommentUpsertStep
  | ExternalStep;

export type StepKind = PlanStep['kind'];

export const STEP_KINDS: readonly StepKind[] = [
  'milestone.upsert',
  'milestone.edit',
  'issue.set-milestone',
  'issue.labels',
  'issue.create',
  'comment.upsert',
  'external',
];

/**
 * The kinds persist writes, which `.writ/policy.json` sets one by one (require-proof or best-effort)
 * and the probe's evidence covers: every kind but `external`.
 */
export const POLICY_KINDS = [
  'milestone.upsert',
  'milestone.edit',
  'issue.set-milestone',
  'issue.labels',
  'issue.create',
  'comment.upsert',
] as const;

/**
 * What a plan says it writes (`scope.writes`): each list present bounds that dimension, and the preview
 * warns on every step outside it (preview/assess.ts). It restricts nothing by itself.
 */
export interface PlanWrites {
  kinds?: StepKind[];
  issues?: number[];
  labels?: string[];
  /** A milestone number, or the marker key of a `milestone.upsert` step. */
  milestones?: (number | string)[];
}

export interface PlanScope {
  repository: string;
  selection?: string;
  base_sha?: string;
  writes?: PlanWrites;
}

export interface PlanBounds {
  max_steps: number;
  max_creates?: number;
  max_issues_touched?: number;
}

export interface Plan {
  $schema?: string;
  schema: 1;
  title: string;
  planner?: { name: string; version?: string };
  evidence_digest?: string;
  scope: PlanScope;
  bounds: PlanBounds;
  steps: PlanStep[];
}

/** One problem with a plan: the JSON pointer it is at and what is wrong there. */
export interface PlanProblem {
  path: string;
  message: string;
}
