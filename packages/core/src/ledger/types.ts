/**
 * TypeScript view of the ledger files (schemas/ledger/*.schema.json are the source of truth; every file
 * is validated against its schema on read and on write, see schemas.ts).
 */

import type { KeyScope } from '../plan/create-key.js';

export const DEFAULT_LEDGER_BRANCH = 'bot/writ-ledger';

export interface LedgerRoot {
  schema: 1;
  repository: string;
  branch: string;
  /** The protecting rulesets as they were at the root (absent in roots made before pins existed). */
  rulesets?: RulesetPin[];
}

/** One protecting ruleset as the root pinned it (rulesets.ts). */
export interface RulesetPin {
  id: number;
  /** GitHub's `updated_at` as it answered it (ISO), null when it gave none. */
  updated_at: string | null;
  /** `sha256:` of the canonical JSON of the ruleset's content (rulesets.ts `rulesetDigest`). */
  digest: string;
}

export interface Holder {
  run_id: string;
  workflow_run_id: number;
  attempt: number;
}

export interface Lease {
  schema: 1;
  /** Only grows. 0 before any run ever held the lease. */
  epoch: number;
  holder: Holder | null;
  /** ISO timestamp on the server's clock, or null when free. */
  lease_expires_at: string | null;
}

export type RunState =
  'proposed' | 'approved' | 'running' | 'completed' | 'failed' | 'cancelled' | 'needs-reconciliation';

export const TERMINAL_RUN_STATES: readonly RunState[] = ['completed', 'failed', 'cancelled'];

export type StepStatus = 'pending' | 'claimed' | 'done' | 'conflict' | 'failed';
export type StepOutcome = 'done' | 'conflict' | 'failed';

export type StepKind =
  | 'milestone.upsert'
  | 'milestone.edit'
  | 'issue.set-milestone'
  | 'issue.labels'
  | 'issue.create'
  | 'comment.upsert'
  | 'external';

export interface StepEvidence {
  status_code: number | null;
  error_code: string | null;
}

export interface Actor {
  actor_login: string;
  actor_id: number;
  role_name: string;
}

/** How far a create's idempotency key reaches (plan/create-key.ts). */
export type { KeyScope };

/** What came of a create: made now, Writ's own earlier item found, or the marker scan could not decide. */
export type ReceiptOutcome = 'created' | 'exists' | 'inconclusive';

/**
 * A create's receipt (ADR 0026, docs/idempotency.md): its idempotency key and scope, recorded by the
 * claim (so a resumed or recovered step looks for the same key), and its outcome (null while claimed
 * and not yet settled).
 */
export interface StepReceipt {
  idempotency_key: string;
  key_scope: KeyScope;
  outcome: ReceiptOutcome | null;
}

export interface RunStep {
  id: string;
  kind: StepKind;
  status: StepStatus;
  /** The epoch that claimed the step (null while pending). */
  epoch: number | null;
  pre_state_digest: string | null;
  evidence: StepEvidence | null;
  /** Numbers of resources the step created or touched (issue, milestone, comment IDs). */
  resources: number[];
  reconciled_by: Actor | null;
  /** A creating step's receipt (absent in older run files and on steps that create nothing). */
  receipt?: StepReceipt;
}

export interface Approval {
  actor_login: string;
  actor_id: number;
  role_name: string;
  comment_id: number;
  comment_url: string;
  digest: string;
  consumed_at: string;
  epoch: number;
}

export interface Bounds {
  max_steps: number;
  max_creates?: number;
  max_issues_touched?: number;
}

export interface RunFile {
  schema: 1;
  repository: string;
  run_id: string;
  plan_digest: string;
  evidence_digest: string | null;
  scope: { repository: string; digest: string };
  bounds: Bounds;
  state: RunState;
  approval: Approval | null;
  owner: { epoch: number; holder: Holder } | null;
  steps: RunStep[];
  stop_reason: string | null;
  blockers: string[];
  proposed_at: string;
  /** Absent in run files written before it existed; null when the proposer was not known. */
  proposer?: { actor_id: number } | null;
  /** What the preview stated when it proposed the run (absent in older run files). Authorizes nothing. */
  preview?: RunPreview;
  status_comment?: StatusComment | null;
  artifact?: ArtifactRecord | null;
  /** The repository writer whose cancel command cancelled the run (absent in older run files). */
  cancelled_by?: Actor | null;
}

/** The preview's statement at proposal (preview/assess.ts): base commit, risk class, warning codes. */
export interface RunPreview {
  base_sha: string;
  risk: 'low' | 'medium' | 'high';
  warnings: { code: string; step: string | null }[];
}

/** The run's one status comment: identity reserved before the first POST, each PATCH before it is sent. */
export interface StatusComment {
  issue_number: number;
  /** Null until the first POST is known to have landed. */
  comment_id: number | null;
  /** Digest of the body the comment is known to carry. */
  body_digest: string | null;
  /** Digest of a body being written (POST or PATCH) whose outcome is not yet recorded. */
  pending_digest: string | null;
  /**
   * The server time the first POST was reserved (absent in older run files; null once the comment is
   * known): the read-back after an unanswered POST lists comments updated since then, less a skew.
   */
  reserved_at?: string | null;
}

export interface ArtifactRecord {
  commit_oid: string;
  pr_number: number | null;
  content_digest: string;
  /** The epoch the publish was made under (publishes are fenced like every other write). */
  epoch: number;
}

export interface ProvenanceCheckpoint {
  schema: 1;
  root_oid: string;
  root_committed_at: string;
  /** Every commit from the root up to and including this one was proven when it was written. */
  verified_through: string;
  verified_commits: number;
  consumed_run_ids: string[];
  consumed_comment_ids: number[];
  /** Set only by the recovery sweep's freeze commit (ledger/freeze.ts); never by a transition. */
  frozen?: LedgerFreeze;
}

/** Why the ledger is frozen: the first commit the full replay refused (null: a ruleset), and the code. */
export interface LedgerFreeze {
  commit: string | null;
  code: string;
  frozen_at: string;
}

/** The ledger app's identity: configuration, never guessed. */
export interface LedgerApp {
  slug: string;
  /** The App ID (the ruleset's Integration bypass actor). */
  id: number;
}

export interface LedgerLocation {
  owner: string;
  repo: string;
  branch: string;
}
