/**
 * The one approval verification, used where an approval is consumed and by every gate that relies on
 * one: the comment read by ID (never from a payload), unedited by GitHub's own edit record (GraphQL, see
 * command/comment.ts; not a timestamp comparison), by a human account, holding the exact
 * approve command, and its author's live role read now, from the same account (a renamed login can be
 * reused). GitHub's definite answers become the caller's refusal codes; a transient failure (a 5xx,
 * a rate limit, a dropped connection) is `github-request-failed`, never a verdict on the approval.
 */
import type { ErrorCode } from '../errors.js';
import { WritError, httpStatus } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import type { RepositoryName } from '../ledger/paths.js';
import type { CommentAuthor, FetchedComment } from '../command/comment.js';
import { readCommentWithEdits } from '../command/comment.js';
import { requireAllowedRole, requireHumanAuthor, requireUnedited } from './authorize.js';
import type { ApproveCommand, Command } from '../command/grammar.js';
import { parseApproveCommand, parseCommand } from '../command/grammar.js';

/** A failed request whose outcome is not a fact about the approval: retry the job, judge nothing. */
function transient(what: string, error: unknown): WritError {
  const status = httpStatus(error);
  return new WritError(
    'github-request-failed',
    `${what} failed${status === undefined ? '' : ` with HTTP ${status}`}; the approval was not judged, retry the job`,
    { cause: error, ...(status === undefined ? {} : { details: { status } }) },
  );
}

export interface VerifiedApproval {
  comment: FetchedComment;
  command: ApproveCommand;
  author: CommentAuthor;
  role: string;
}

/** A verified reconcile or cancel command (or approve): the same rules, any verb of the grammar. */
export interface VerifiedCommand {
  comment: FetchedComment;
  command: Command;
  author: CommentAuthor;
  role: string;
}

export interface ApprovalCheck {
  repository: RepositoryName;
  commentId: number;
  commandPrefix: string;
  allowedRoles: readonly string[];
  /** Writ's own bot login: its comments never approve. */
  appBotLogin?: string;
  /** The code a definite refusal carries: `unauthorized-approval` etc. at consumption; a gate refuses
   * every such failure as `stale-or-mismatched-approval` (the approval it relied on no longer holds). */
  refuseAs?: ErrorCode;
  /**
   * Runs after the comment's own checks (unedited, the exact command, a human author) and before the
   * author's live role is read: where consumption refuses a replayed approval from the ledger alone.
   */
  beforeRole?: (command: Command, comment: FetchedComment) => Promise<void>;
}

function refusal(check: ApprovalCheck, error: WritError): WritError {
  if (check.refuseAs === undefined || error.code === 'github-request-failed') return error;
  return new WritError(check.refuseAs, error.message, { cause: error });
}

/** Reads and verifies the approval comment and its author's live role; see the module comment. */
export async function verifyApprovalComment(
  github: GitHubClient,
  check: ApprovalCheck,
): Promise<VerifiedApproval> {
  const verified = await verifyCommentWith(github, check, (body) => ({
    kind: 'approve',
    ...parseApproveCommand(body, check.commandPrefix),
  }));
  const { prefix, runId, digestHex } = verified.command as Extract<Command, { kind: 'approve' }>;
  return { ...verified, command: { prefix, runId, digestHex } };
}

/**
 * Reads and verifies a comment holding any command of the grammar (approve, reconcile, cancel) under
 * exactly the approval's rules: read by ID, unedited, the exact command, a human author, a live role in
 * the allowed roles. The caller then acts on the verb.
 */
export function verifyCommandComment(github: GitHubClient, check: ApprovalCheck): Promise<VerifiedCommand> {
  return verifyCommentWith(github, check, (body) => parseCommand(body, check.commandPrefix));
}

async function verifyCommentWith(
  github: GitHubClient,
  check: ApprovalCheck,
  parse: (body: string | null | undefined) => Command,
): Promise<VerifiedCommand> {
  try {
    const read = await readCommentWithEdits(github, check.repository, check.commentId);
    if (read === null) {
      throw new WritError(
        'unauthorized-approval',
        `comment ${check.commentId} does not exist (deleted, or not in this repository)`,
      );
    }
    const { comment } = read;
    requireUnedited(read);
    const command = parse(comment.body);
    const author = requireHumanAuthor(comment.user, check.appBotLogin);
    await check.beforeRole?.(command, comment);
    const role = requireAllowedRole(
      await liveRole(github, check.repository, author),
      check.allowedRoles,
      author.id,
    );
    return { comment, command, author, role };
  } catch (error: unknown) {
    if (error instanceof WritError) throw refusal(check, error);
    throw error;
  }
}

/** The author's live `role_name`, or undefined when the account no longer resolves (404). */
async function liveRole(
  github: GitHubClient,
  repository: RepositoryName,
  author: CommentAuthor,
): Promise<string | undefined> {
  let data;
  try {
    ({ data } = await github.rest.repos.getCollaboratorPermissionLevel({
      ...repository,
      username: author.login,
    }));
  } catch (error: unknown) {
    if (httpStatus(error) === 404) return undefined;
    throw transient(`Reading the permission of approver ${author.id}`, error);
  }
  if (data.user && data.user.id !== author.id) {
    throw new WritError(
      'unauthorized-approval',
      `the login of comment author ${author.id} now belongs to another account`,
    );
  }
  return data.role_name;
}
