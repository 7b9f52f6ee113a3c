/**
 * Who may approve, decided from what GitHub says now: the event must be a newly created issue comment,
 * the comment (fetched by ID, never taken from the payload) must be unedited (GitHub's edit record), its author a human
 * account, and the author's live repository role must be one of the allowed roles.
 */
import type { CommentAuthor, CommentWithEdits } from '../command/comment.js';
import { WritError } from '../errors.js';

export const DEFAULT_ALLOWED_ROLES: readonly string[] = ['admin', 'maintain', 'write'];

export interface ApprovalTrigger {
  eventName: string;
  payload: unknown;
}

/** Returns the comment ID of an `issue_comment` `created` event; anything else is `unauthorized-approval`. */
export function approvalCommentId(trigger: ApprovalTrigger): number {
  const payload = trigger.payload as { action?: unknown; comment?: { id?: unknown } } | null;
  if (trigger.eventName !== 'issue_comment') {
    throw new WritError(
      'unauthorized-approval',
      `approvals come only from issue comments, not '${trigger.eventName}' events`,
    );
  }
  if (payload?.action !== 'created') {
    throw new WritError(
      'unauthorized-approval',
      'only a newly created comment can approve (not an edited or deleted one)',
    );
  }
  const id = payload.comment?.id;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) {
    throw new WritError('unauthorized-approval', 'the event carries no comment ID');
  }
  return id;
}

export type { CommentAuthor } from '../command/comment.js';

/**
 * Refuses a comment GitHub's edit record shows edited, or whose record is missing or unknown (fail
 * safe; see command/comment.ts).
 */
export function requireUnedited(read: CommentWithEdits): void {
  if (read.edits.edited) throw new WritError('approval-comment-edited', read.edits.why);
}

/** Refuses any author that is not a human account (and never Writ's own app). */
export function requireHumanAuthor(
  author: CommentAuthor | null,
  appBotLogin: string | undefined,
): CommentAuthor {
  if (!author) throw new WritError('unauthorized-approval', 'the comment has no author (a deleted account)');
  const login = author.login.toLowerCase();
  if (
    author.type !== 'User' ||
    login.endsWith('[bot]') ||
    (appBotLogin !== undefined && login === appBotLogin.toLowerCase())
  ) {
    throw new WritError(
      'unauthorized-approval',
      `comment author ${author.id} is a ${author.type} account, not a human`,
    );
  }
  return author;
}

/** Parses `allowed-roles`: comma-separated role names (custom roles allowed). */
export function parseAllowedRoles(value: string): string[] {
  const roles = value
    .split(',')
    .map((role) => role.trim())
    .filter((role) => role.length > 0);
  for (const role of roles) {
    if (!/^[A-Za-z0-9][A-Za-z0-9 _-]{0,99}$/.test(role)) {
      throw new WritError(
        'invalid-input',
        `input 'allowed-roles' has an invalid role name (${role.length} characters)`,
      );
    }
  }
  if (roles.length === 0) throw new WritError('invalid-input', "input 'allowed-roles' names no role");
  return roles;
}

/** Requires the live `role_name` to be allowed; the legacy `permission` field is never consulted. */
export function requireAllowedRole(
  roleName: string | undefined,
  allowedRoles: readonly string[],
  authorId: number,
): string {
  if (!roleName || !allowedRoles.includes(roleName)) {
    throw new WritError(
      'insufficient-permission',
      `approver ${authorId} has role '${roleName ?? 'none'}', not one of ${allowedRoles.join(', ')}`,
    );
  }
  return roleName;
}
