/** What the status comment shows: the run's state line, then the deterministic preview. */
import type { RunFile } from '../ledger/types.js';
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

/**
 * Deterministic: it depends only on the ledger's run record and the preview, so re-running a stage
 * with the same state renders the same bytes (and sends nothing).
 */
export function renderStatusProjection(run: RunFile, previewMarkdown: string): string {
  const lines = [`**Writ run ${code(run.run_id)}**: ${STATE_LINES[run.state]}`];
  if (run.approval !== null) {
    // Logins come from GitHub's API (never from comment text); mentioning the approver is intended.
    lines.push(
      `Approved by @${run.approval.actor_login} (${run.approval.role_name}) at ${code(run.approval.consumed_at)}, epoch ${run.approval.epoch}.`,
    );
  }
  if (run.stop_reason !== null) lines.push(`Stop reason: ${code(run.stop_reason)}.`);
  const done = run.steps.filter((step) => step.status !== 'pending').length;
  if (done > 0) lines.push(`Steps: ${done} of ${run.steps.length} claimed or finished.`);
  return `${lines.join('\n')}\n\n${previewMarkdown}`;
}
