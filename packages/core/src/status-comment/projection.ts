/**
 * What the status comment shows: the run's state and, once approved, who approved and what happens
 * next (first, so a size limit never cuts them), then the deterministic preview (every step's content). Before approval the preview ends with
 * the approve command; after it, that section is replaced: an approved run is not "to approve".
 */
import type { RunFile } from '../ledger/types.js';
import { code } from '../preview/markdown.js';
import { APPROVE_HEADING } from '../preview/render.js';

const STATE_LINES: Record<RunFile['state'], string> = {
  proposed: 'Proposed: waiting for approval.',
  approved: 'Approved.',
  running: 'Running.',
  completed: 'Completed.',
  failed: 'Failed.',
  cancelled: 'Cancelled.',
  'needs-reconciliation': 'Stopped: a step needs reconciliation by a repository writer.',
};

/** What happens next, in plain words, for a run that has its approval. */
function nextSteps(run: RunFile): string {
  const total = run.steps.length;
  const finished = run.steps.filter((step) => step.status !== 'pending' && step.status !== 'claimed').length;
  const claimed = run.steps.find((step) => step.status === 'claimed');
  switch (run.state) {
    case 'approved':
      return `Next: the approved workflow claims, writes and checkpoints the ${total} step${total === 1 ? '' : 's'} in order under epoch ${run.owner?.epoch ?? run.approval?.epoch ?? '?'}, holding the repository lease; this comment is updated as they finish. The approval is used up: it cannot approve anything again.`;
    case 'running':
      return `Next: ${finished} of ${total} steps are finished${claimed === undefined ? '' : `; step ${code(claimed.id)} is being written`}. The remaining steps run in order; if this job stops, the recovery stage takes the run over after its lease expires.`;
    case 'completed':
      return `Every step is done and the repository lease was released in the same ledger commit. Nothing more will be written for this run.`;
    case 'failed':
    case 'cancelled':
      return `Nothing more will be written for this run (${finished} of ${total} steps finished). To try again, preview a new plan and approve it.`;
    case 'needs-reconciliation':
      return `Step ${claimed === undefined ? '' : `${code(claimed.id)} `}was claimed but its outcome is unknown. A repository writer checks its target and reconciles it (README: Recover a run); nothing is retried blindly.`;
    case 'proposed':
      return '';
  }
}

/**
 * A GitHub comment URL fit for a Markdown link (from the API, never comment text; checked anyway): https,
 * a host and, for a GitHub Enterprise Server on its own port, that port.
 */
function commentLink(url: string): string | null {
  return /^https:\/\/[A-Za-z0-9.-]+(?::[0-9]{1,5})?\/[A-Za-z0-9._~/#-]+$/.test(url) ? url : null;
}

/**
 * Deterministic: it depends only on the ledger's run record and the preview, so re-running a stage
 * with the same state renders the same bytes (and sends nothing).
 */
export function renderStatusProjection(run: RunFile, previewMarkdown: string): string {
  const lines = [`**Writ run ${code(run.run_id)}**: ${STATE_LINES[run.state]}`];
  if (run.stop_reason !== null) lines.push(`Stop reason: ${code(run.stop_reason)}.`);
  if (run.approval === null) {
    const done = run.steps.filter((step) => step.status !== 'pending').length;
    if (done > 0) lines.push(`Steps: ${done} of ${run.steps.length} claimed or finished.`);
    return `${lines.join('\n')}\n\n${previewMarkdown}`;
  }
  const { approval } = run;
  const link = commentLink(approval.comment_url);
  // The approve section (the command) no longer applies: it is replaced by who approved and what next.
  const at = previewMarkdown.lastIndexOf(`\n${APPROVE_HEADING}\n`);
  const preview = at < 0 ? previewMarkdown : previewMarkdown.slice(0, at + 1);
  // Who approved and what happens next come first: a long preview is what a size limit cuts.
  return [
    ...lines,
    // Logins come from GitHub's API (never from comment text); mentioning the approver is intended.
    `Approved by @${approval.actor_login} (${approval.role_name}) at ${code(approval.consumed_at)}${link === null ? '' : ` in [comment ${approval.comment_id}](${link})`}, for digest ${code(approval.digest)}, epoch ${approval.epoch}.`,
    '',
    nextSteps(run),
    '',
    preview.trimEnd(),
    '',
  ].join('\n');
}
