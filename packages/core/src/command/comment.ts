/**
 * A command comment as GitHub holds it now: read server-side by ID (REST, never from a payload) with
 * GitHub's own record of its edits (GraphQL `IssueComment.lastEditedAt`, `includesCreatedEdit` and
 * `userContentEdits`). "Unedited" is that record, not a timestamp comparison: REST `updated_at` has
 * one-second resolution, so a comment edited within the second it was posted has `updated_at ===
 * created_at`. Every reader of a command comment asks here: the live verification every command passes
 * (approval/verify.ts: approve, cancel, reconcile, recovery's lost-approval scan) and the ledger's
 * replay (ledger/read.ts).
 *
 * Fail safe: the comment counts as unedited only when GitHub's answer says so positively — the node is
 * this comment, `lastEditedAt` is null, `includesCreatedEdit` is false, and `userContentEdits` is
 * present with a total of 0 — and REST's two timestamps agree. A missing or unknown record (a null node,
 * another type or ID, a null connection, an unexpected shape) counts as edited. A request that fails
 * (a transport failure, an HTTP error, GraphQL errors) is `github-request-failed`: nothing is judged,
 * the comment is never accepted on it.
 *
 * Imports nothing from approval/ or ledger/, so both can use it.
 */
import { WritError, httpStatus } from '../errors.js';
import type { GitHubClient } from '../github/client.js';

export interface CommentRepository {
  owner: string;
  repo: string;
}

export interface CommentAuthor {
  id: number;
  login: string;
  type: string;
}

/** The REST fields of an issue comment that command verification reads. */
export interface FetchedComment {
  id: number;
  node_id: string;
  created_at: string;
  updated_at: string;
  user: CommentAuthor | null;
  body?: string | null;
  html_url: string;
}

/** GitHub's edit record, judged: unedited only on a positive answer (see the module comment). */
export type EditRecord = { edited: false } | { edited: true; why: string };

export interface CommentWithEdits {
  comment: FetchedComment;
  edits: EditRecord;
}

/** The GraphQL document: the comment by its node ID, with the fields of GitHub's edit record. */
export const COMMENT_EDITS_QUERY = `query WritCommentEdits($id: ID!) {
  node(id: $id) {
    __typename
    ... on IssueComment {
      databaseId
      lastEditedAt
      includesCreatedEdit
      userContentEdits(first: 1) {
        totalCount
      }
    }
  }
}`;

function failed(what: string, error: unknown): WritError {
  const status = httpStatus(error);
  return new WritError(
    'github-request-failed',
    `${what} failed${status === undefined ? '' : ` with HTTP ${status}`}; the comment was not judged, retry the job`,
    { cause: error, ...(status === undefined ? {} : { details: { status } }) },
  );
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** Judges a GraphQL `data` answer for comment `commentId` (exported for its tests). */
export function judgeEditRecord(data: unknown, commentId: number): EditRecord {
  const node = record(record(data)?.node);
  const edited = (why: string): EditRecord => ({ edited: true, why: `comment ${commentId} ${why}` });
  if (node === null) return edited('has no edit record on GitHub (no comment node): treated as edited');
  if (node.__typename !== 'IssueComment' || node.databaseId !== commentId) {
    return edited('has no edit record on GitHub (the node is not this comment): treated as edited');
  }
  if (node.lastEditedAt !== null) {
    return edited(
      typeof node.lastEditedAt === 'string'
        ? 'was edited after it was created (GitHub records an edit)'
        : 'has an unreadable edit record on GitHub: treated as edited',
    );
  }
  if (node.includesCreatedEdit !== false) {
    return edited(
      node.includesCreatedEdit === true
        ? 'was edited after it was created (GitHub records its created revision)'
        : 'has an unreadable edit record on GitHub: treated as edited',
    );
  }
  const total = record(node.userContentEdits)?.totalCount;
  if (total !== 0) {
    return edited(
      typeof total === 'number' && Number.isSafeInteger(total) && total > 0
        ? `was edited after it was created (GitHub records ${total} revisions)`
        : 'has no readable list of edits on GitHub: treated as edited',
    );
  }
  return { edited: false };
}

/** GitHub's edit record of `comment`, judged. Throws `github-request-failed` when it cannot be read. */
export async function readEditRecord(github: GitHubClient, comment: FetchedComment): Promise<EditRecord> {
  const what = `Reading the edit record of comment ${comment.id}`;
  if (typeof comment.node_id !== 'string' || comment.node_id.length === 0) {
    return {
      edited: true,
      why: `comment ${comment.id} has no node ID to read its edit record: treated as edited`,
    };
  }
  let answer: unknown;
  try {
    const response = await github.request('POST /graphql', {
      query: COMMENT_EDITS_QUERY,
      variables: { id: comment.node_id },
    });
    answer = response.data as unknown;
  } catch (error: unknown) {
    throw failed(what, error);
  }
  const errors = record(answer)?.errors;
  if (Array.isArray(errors) && errors.length > 0) {
    const types = errors.map((error) => {
      const type = record(error)?.type;
      return typeof type === 'string' && /^[A-Z_]{1,40}$/.test(type) ? type : 'error';
    });
    throw failed(`${what} (GraphQL errors: ${types.join(', ')})`, undefined);
  }
  const verdict = judgeEditRecord(record(answer)?.data, comment.id);
  if (!verdict.edited && comment.updated_at !== comment.created_at) {
    return { edited: true, why: `comment ${comment.id} was edited after it was created (updated_at)` };
  }
  return verdict;
}

/**
 * Reads comment `commentId` by ID with GitHub's edit record; null when GitHub answers 404 (deleted, or
 * not in this repository). Any other failure is `github-request-failed`.
 */
export async function readCommentWithEdits(
  github: GitHubClient,
  repository: CommentRepository,
  commentId: number,
): Promise<CommentWithEdits | null> {
  let comment: FetchedComment;
  try {
    ({ data: comment } = await github.rest.issues.getComment({
      owner: repository.owner,
      repo: repository.repo,
      comment_id: commentId,
    }));
  } catch (error: unknown) {
    if (httpStatus(error) === 404) return null;
    throw failed(`Reading comment ${commentId}`, error);
  }
  return { comment, edits: await readEditRecord(github, comment) };
}
