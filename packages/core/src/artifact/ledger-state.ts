/**
 * The run's ledger state as an artifact renderer reads it (publish-artifact's `ledger-state-file`,
 * passed to `./scripts/render-artifact` as `WRIT_LEDGER_STATE`): per plan step its ledger status and
 * the roadmap reference's lifecycle column — `proposed` (no approval consumed), `approved` (approved,
 * not yet written), `persisted` (done), `conflict` (the pre-write read differed, or the step failed).
 * Only IDs, enums, numbers and digests: no title, body, login or token. Canonical JSON, so identical
 * state gives identical bytes.
 *
 * The publish job reads the ledger twice on purpose: once here, for the renderer, and again in the
 * publish that follows, whose gate re-verifies the approval and the fence just before it writes. The
 * renderer is the user's own step between the two, and its output is the publish's input, so one run
 * cannot do both without running the user's renderer itself; the state the renderer saw may also be
 * stale by the time the publish writes (the run cancelled, its lease taken over).
 */
import { canonicalize } from '../canonical-json.js';
import type { RunFile, RunState, StepStatus } from '../ledger/types.js';

export type Lifecycle = 'proposed' | 'approved' | 'persisted' | 'conflict';

export interface LedgerStateStep {
  id: string;
  kind: string;
  status: StepStatus;
  lifecycle: Lifecycle;
}

export interface LedgerState {
  schema: 1;
  run_id: string;
  state: RunState;
  plan_digest: string;
  epoch: number | null;
  steps: LedgerStateStep[];
}

export function lifecycleOf(run: RunFile, status: StepStatus): Lifecycle {
  if (status === 'done') return 'persisted';
  if (status === 'conflict' || status === 'failed') return 'conflict';
  return run.approval === null ? 'proposed' : 'approved';
}

export function ledgerStateOf(run: RunFile): LedgerState {
  return {
    schema: 1,
    run_id: run.run_id,
    state: run.state,
    plan_digest: run.plan_digest,
    epoch: run.owner?.epoch ?? null,
    steps: run.steps.map((step) => ({
      id: step.id,
      kind: step.kind,
      status: step.status,
      lifecycle: lifecycleOf(run, step.status),
    })),
  };
}

/** The file's bytes: canonical JSON and a newline. */
export function ledgerStateText(run: RunFile): string {
  return `${canonicalize(ledgerStateOf(run))}\n`;
}
