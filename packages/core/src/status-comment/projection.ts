/**
 * What the status comment shows: the run's state, its step progress, who reconciled or cancelled what,
 * the human action needed, a durable evidence link when the caller has one and, once approved, who
 * approved and what happens next (all first, so a size limit never cuts them), then the deterministic
 * preview (every step's content). Before approval the preview ends with the approve command; after it,
 * that section is replaced: an approved run is not "to approve".
 */
import { COMMAND_REACTIONS } from '../command/reactions.js';
import type { ErrorCode } from '../errors.js';
import { errorLink } from '../errors.js';
import type { RunFile, RunStep } from '../ledger/types.js';
import { APPROVE_HEADING, code } from '../markdown.js';

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
      return `Step ${claimed === undefined ? '' : `${code(claimed.id)} `}was claimed but its outcome is unknown: nothing is retried blindly until a repository writer reconciles it (README: Recover a run).`;
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

/** What a caller may add beyond the run record (each deterministic for a given ledger state). */
export interface StatusExtras {
  /** The comment command prefix (`writ`): the action-needed line then shows the exact commands. */
  commandPrefix?: string;
  /** A durable evidence link (status-comment/evidence-link.ts): the run file at its last transition. */
  evidence?: { url: string; commit: string } | null;
  /** Short trusted notes (codes and numbers only), e.g. a recovery finding. */
  notes?: readonly string[];
  /** The last command Writ refused for this run (commandRefusalLine): never the commenter's text. */
  lastRefusal?: CommandRefusal | null;
}

/** A refused command, as the status comment shows it: the verb, the comment's ID and the code. */
export interface CommandRefusal {
  kind: 'approve' | 'reconcile' | 'cancel';
  commentId: number;
  code: ErrorCode;
}

/**
 * The line naming the last refused command: its verb and comment ID (from the grammar and the API) and
 * the catalogue code with its documentation link. Nothing of the comment's body is shown.
 */
export function commandRefusalLine(refusal: CommandRefusal): string {
  const id = Number.isSafeInteger(refusal.commentId) ? refusal.commentId : 0;
  return `Last command refused: ${code(refusal.kind)} in comment ${id}, [${code(refusal.code)}](${errorLink(refusal.code)}). The comment carries Writ's ${code(COMMAND_REACTIONS.refused)} reaction; the run is unchanged by it.`;
}

function progress(steps: readonly RunStep[]): string {
  const counts = new Map<string, number>();
  for (const step of steps) counts.set(step.status, (counts.get(step.status) ?? 0) + 1);
  const parts = (['done', 'claimed', 'pending', 'conflict', 'failed'] as const)
    .filter((status) => (counts.get(status) ?? 0) > 0)
    .map((status) => `${counts.get(status) ?? 0} ${status}`);
  return `Steps: ${parts.join(', ')} (of ${steps.length}).`;
}

/**
 * Who holds the run now: the epoch it is fenced at and the workflow run (and attempt) that holds it,
 * while the run can still write. Numbers only (from the ledger), so nothing here needs escaping.
 */
function holderLine(run: RunFile): string | null {
  if (
    run.owner == null ||
    (run.state !== 'approved' && run.state !== 'running' && run.state !== 'needs-reconciliation')
  )
    return null;
  const { epoch, holder } = run.owner;
  return `Epoch ${epoch}, held by workflow run ${holder.workflow_run_id} (attempt ${holder.attempt}).`;
}

/** The artifact the run published (publish-artifact): its pull request and commit, from the ledger. */
function artifactLine(run: RunFile): string | null {
  const artifact = run.artifact ?? null;
  if (artifact === null) return null;
  const commit = /^[0-9a-f]{40,64}$/.test(artifact.commit_oid)
    ? ` (commit ${code(artifact.commit_oid.slice(0, 12))})`
    : '';
  const where =
    artifact.pr_number === null ? 'committed, no pull request yet' : `pull request #${artifact.pr_number}`;
  return `Artifact: ${where}${commit}, published at epoch ${artifact.epoch}.`;
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
  if (run.stop_reason !== null) lines.push(`Stop reason: ${code(run.stop_reason)}.`);
  lines.push(progress(run.steps));
  const held = holderLine(run);
  if (held !== null) lines.push(held);
  const artifact = artifactLine(run);
  if (artifact !== null) lines.push(artifact);
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
  if (extras.lastRefusal != null) lines.push(commandRefusalLine(extras.lastRefusal));
  for (const note of extras.notes ?? []) lines.push(note);
  if (extras.evidence != null) {
    lines.push(
      `Evidence: [the run's ledger record at ${code(extras.evidence.commit.slice(0, 12))}](${extras.evidence.url}).`,
    );
  }
  if (run.approval === null) return `${lines.join('\n')}\n\n${previewMarkdown}`;
  const { approval } = run;
  const link = commentLink(approval.comment_url);
  // The approve section (the command) no longer applies: it is replaced by who approved and what next.
  const at = previewMarkdown.lastIndexOf(`\n${APPROVE_HEADING}\n`);
  const preview = at < 0 ? previewMarkdown : previewMarkdown.slice(0, at + 1);
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
