/**
 * Acknowledging a command comment (approve, reconcile, cancel) with reactions, as IssueOps tools do:
 * `eyes` at once (received), then `rocket` when Writ has acted or `-1` when it refused. The reaction is
 * never the authority: nothing in Writ reads a reaction to decide anything (the ledger and the live
 * verification do), so a reaction planted by someone else, or Writ's own going missing, means nothing.
 *
 * Best-effort and idempotent by GitHub's own rule: a reaction a user already added is answered 200
 * with the existing one (201 when created), so a re-run adds no duplicate. A reaction is sent once
 * (the client never resends a write) and never read back: a lost answer is settled by the next
 * attempt's 200. A failure is a warning with a stable code and GitHub's status, never untrusted text,
 * and never fails or delays the stage beyond the one request.
 */
import type { ErrorCode } from '../errors.js';
import { WritError, errorLink, httpStatus } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import type { Logger } from '../redact.js';
import type { CommentRepository } from './comment.js';

/**
 * The `approval-already-consumed` detail (set by the ledger's consume transition) saying the comment
 * refused is the very one consumed: a re-run of a command that acted.
 */
export const CONSUMED_HERE = 'consumed_by_this_comment';

/** What Writ says with each reaction (GitHub's reaction contents). */
export const COMMAND_REACTIONS = { received: 'eyes', acted: 'rocket', refused: '-1' } as const;
export type CommandSignal = keyof typeof COMMAND_REACTIONS;

/**
 * The codes that are a verdict on the command itself: its comment, its author, its run. Every other
 * failure judged nothing about it (GitHub or the runner did not answer, the workflow's plan or inputs
 * are wrong, the ledger cannot be trusted, Writ failed inside): the command stays at "received", and
 * re-running the job once that is fixed judges it. The status comment's refusal line (written through
 * the ledger's status record, like every status comment update) is kept to these too: a failure that
 * judged nothing writes nothing but the `eyes`.
 */
export const COMMAND_REFUSALS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'malformed-command',
  'approval-comment-edited',
  'unauthorized-approval',
  'insufficient-permission',
  'approval-already-consumed',
  'stale-or-mismatched-approval',
  'invalid-run-id',
  'run-not-found',
  'invalid-transition',
  'needs-reconciliation',
  'repository-lease-held',
  'holder-liveness-unproven',
]);

/** How a command ended, for its second reaction: acted, refused with a code, or not judged (null). */
export type CommandVerdict = { signal: 'acted' } | { signal: 'refused'; code: ErrorCode } | { signal: null };

/** How a command's stage ended: it returned, or it threw `thrown` (whatever was thrown, even undefined). */
export type CommandEnd = { failed: false } | { failed: true; thrown: unknown };

/**
 * The verdict of a command's stage that ended as `end`. A re-run of a command that already acted is
 * refused `approval-already-consumed` for that very comment: it acted.
 */
export function commandVerdict(end: CommandEnd): CommandVerdict {
  if (!end.failed) return { signal: 'acted' };
  const { thrown } = end;
  if (!(thrown instanceof WritError) || !COMMAND_REFUSALS.has(thrown.code)) return { signal: null };
  if (thrown.code === 'approval-already-consumed' && thrown.details[CONSUMED_HERE] === true) {
    return { signal: 'acted' };
  }
  return { signal: 'refused', code: thrown.code };
}

export type ReactionOutcome = 'created' | 'exists' | 'failed';

export interface ReactionTarget {
  repository: CommentRepository;
  commentId: number;
}

/** Adds Writ's reaction for `signal` to the command comment; never throws (see the module comment). */
export async function reactToCommand(
  deps: { github: GitHubClient; logger: Logger },
  target: ReactionTarget,
  signal: CommandSignal,
): Promise<ReactionOutcome> {
  const content = COMMAND_REACTIONS[signal];
  try {
    const { status } = await deps.github.rest.reactions.createForIssueComment({
      owner: target.repository.owner,
      repo: target.repository.repo,
      comment_id: target.commentId,
      content,
    });
    return status === 201 ? 'created' : 'exists';
  } catch (error: unknown) {
    const status = httpStatus(error);
    deps.logger.warning(
      `command-reaction-failed: the ${signal} reaction (${content}) on comment ${target.commentId} was not added (${status === undefined ? 'no answer' : `HTTP ${status}`}); the command's outcome stands — ${errorLink('command-reaction-failed')}`,
    );
    return 'failed';
  }
}
