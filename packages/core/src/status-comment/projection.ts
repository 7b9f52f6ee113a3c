/**
 * What the status comment shows: the run's state, its step progress, the human action needed, who
 * reconciled or cancelled what, a durable evidence link when the caller has one, then the
 * deterministic preview.
 */
import type { RunFile, RunStep } from '../ledger/types.js';
import { code } from '../preview/markdown.js';

const STATE_LINES: Record<RunFile['state'], string> = {
  proposed: 'Proposed: waiting for approval.',
  approved: 'Approved.',
  running: 'Running.',
  completed: 'Completed.',
  failed: 'Failed.',
  cancelled: 'Cancelled.',
  'needs-reconciliation': 'Stopped: a step needs reconciliation by a repository writer.',
};

/** What a caller may add beyond the run record (each deterministic for a given ledger state). */
export interface StatusExtras {
  /** The comment command prefix (`writ`): the action-needed line then shows the exact commands. */
  commandPrefix?: string;
  /** A durable evidence link (status-comment/evidence-link.ts): the run file at its last transition. */
  evidence?: { url: string; commit: string } | null;
  /** Short trusted notes (codes and numbers only), e.g. a recovery finding. */
  notes?: readonly string[];
}

function progress(steps: readonly RunStep[]): string {
  const counts = new Map<string, number>();
  for (const step of steps) counts.set(step.status, (counts.get(step.status) ?? 0) + 1);
  const parts = (['done', 'claimed', 'pending', 'conflict', 'failed'] as const)
    .filter((status) => (counts.get(status) ?? 0) > 0)
    .map((status) => `${counts.get(status) ?? 0} ${status}`);
  return `Steps: ${parts.join(', ')} (of ${steps.length}).`;
}

function actionNeeded(run: RunFile, prefix: string | undefined): string[] {
  const command = (text: string): string => (prefix === undefined ? '' : ` ${code(`${prefix}: ${text}`)}`);
  switch (run.state) {
    case 'proposed':
      return ['Action needed: a repository writer posts the approve command shown below, or cancels.'];
    case 'needs-reconciliation':
      return run.steps
        .filter((step) => step.status === 'claimed')
        .map(
          (step) =>
            `Action needed: a repository writer checks step ${code(step.id)} on GitHub (reason ${code(step.evidence?.error_code ?? 'needs-reconciliation')}) and posts` +
            (prefix === undefined
              ? ' the reconcile command `writ reconcile` prints (done, failed or retry).'
              : `${command(`reconcile ${run.run_id} ${step.id} done`)}, ${code('failed')} or ${code('retry')}.`),
        );
    default:
      return [];
  }
}

/**
 * Deterministic: it depends only on the ledger's run record, the preview and the extras, so re-running
 * a stage with the same state renders the same bytes (and sends nothing).
 */
export function renderStatusProjection(
  run: RunFile,
  previewMarkdown: string,
  extras: StatusExtras = {},
): string {
  const lines = [`**Writ run ${code(run.run_id)}**: ${STATE_LINES[run.state]}`];
  if (run.approval !== null) {
    // Logins come from GitHub's API (never from comment text); mentioning the approver is intended.
    lines.push(
      `Approved by @${run.approval.actor_login} (${run.approval.role_name}) at ${code(run.approval.consumed_at)}, epoch ${run.approval.epoch}.`,
    );
  }
  if (run.stop_reason !== null) lines.push(`Stop reason: ${code(run.stop_reason)}.`);
  lines.push(progress(run.steps));
  for (const step of run.steps) {
    if (step.reconciled_by !== null) {
      lines.push(
        `Step ${code(step.id)} reconciled as ${code(step.status)} by @${step.reconciled_by.actor_login} (${step.reconciled_by.role_name}).`,
      );
    }
  }
  if (run.cancelled_by != null) {
    lines.push(`Cancelled by @${run.cancelled_by.actor_login} (${run.cancelled_by.role_name}).`);
  }
  lines.push(...actionNeeded(run, extras.commandPrefix));
  for (const note of extras.notes ?? []) lines.push(note);
  if (extras.evidence != null) {
    lines.push(
      `Evidence: [the run's ledger record at ${code(extras.evidence.commit.slice(0, 12))}](${extras.evidence.url}).`,
    );
  }
  return `${lines.join('\n')}\n\n${previewMarkdown}`;
}
