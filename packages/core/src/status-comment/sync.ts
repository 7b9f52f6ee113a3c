/**
 * One status comment per run, kept idempotent through the ledger:
 *  1. the comment's identity is reserved in the ledger before the first POST;
 *  2. an identical projection sends no request to GitHub;
 *  3. a changed projection reserves the update, then PATCHes the retained comment ID;
 *  4. an interrupted PATCH may be retried with the same body (writing the same body is idempotent);
 *  5. a different projection waits until an earlier reservation is resolved, by reading the comment back;
 *  6. an ambiguous first POST is never retried blindly: the issue's comments are scanned for the run's
 *     marker (on a comment Writ itself wrote) before anything is posted again.
 */
import { writeOutcome } from '../github/commit-on-branch.js';
import { digest } from '../canonical-json.js';
import { WritError, errorMessage } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import { statusMarker } from '../idempotency/key.js';
import { commentPages } from '../idempotency/github-pages.js';
import { findMarked } from '../idempotency/precheck.js';
import type { LedgerContext } from '../ledger/cas.js';
import { readRun, recordStatusComment } from '../ledger/ledger.js';
import type { RepositoryName } from '../ledger/paths.js';
import type { RunFile, StatusComment } from '../ledger/types.js';
import type { Logger } from '../redact.js';

export interface StatusCommentDeps {
  github: GitHubClient;
  ledger: LedgerContext;
  logger: Logger;
}

export interface StatusCommentRequest {
  repository: RepositoryName;
  runId: string;
  /** The issue for the comment; undefined keeps the issue already reserved (and does nothing if none is). */
  issueNumber?: number;
  /** Renders the projection (trusted Markdown, untrusted parts escaped) from the run as the ledger holds it. */
  project: (run: RunFile) => string;
  /** Writ's own login (`<app-slug>[bot]`): only its comments can carry the run's marker. */
  ownLogin: string;
}

export type StatusCommentAction = 'unchanged' | 'created' | 'updated' | 'adopted';

export interface StatusCommentResult {
  action: StatusCommentAction;
  commentId: number;
  /** Requests sent to GitHub's comment API (ledger reads and commits not included). */
  commentRequests: number;
}

/** GitHub comment bodies are limited to 65,536 characters. */
export const MAX_COMMENT_CHARS = 65_536;

/** The exact body: the run's marker first (its identity), then the projection. */
export function statusBody(runId: string, projection: string): string {
  const body = `${statusMarker(runId)}\n${projection}`;
  if (body.length <= MAX_COMMENT_CHARS) return body;
  const note = '\n\n_(truncated: the full preview is in the workflow run summary)_\n';
  return `${body.slice(0, MAX_COMMENT_CHARS - note.length)}${note}`;
}

/** A 4xx is a definite refusal; anything else (5xx, a dropped connection, a timeout) may have landed. */
function isDefiniteFailure(error: unknown): boolean {
  return writeOutcome(error) === 'refused';
}

export async function syncStatusComment(
  deps: StatusCommentDeps,
  request: StatusCommentRequest,
): Promise<StatusCommentResult | null> {
  const { github, ledger } = deps;
  const { repository, runId } = request;
  let requests = 0;

  const record = async (next: StatusComment): Promise<void> => {
    await recordStatusComment(ledger, { runId, statusComment: next });
  };

  const view = await readRun(ledger, runId);
  if (view.run === null) throw new WritError('run-not-found', `the ledger holds no run ${runId}`);
  let current: StatusComment | null = view.run.status_comment ?? null;
  const issueNumber = request.issueNumber ?? current?.issue_number;
  if (issueNumber === undefined) return null;
  const body = statusBody(runId, request.project(view.run));
  const wanted = digest(body);
  if (current !== null && current.issue_number !== issueNumber) {
    throw new WritError(
      'invalid-input',
      `run ${runId} keeps its status comment on #${current.issue_number}, not #${issueNumber}`,
    );
  }

  // A reserved first POST with no recorded result: find out whether it landed before anything else.
  let adopted = false;
  if (current !== null && current.comment_id === null) {
    const found = await findMarked(commentPages(github, repository.owner, repository.repo, issueNumber), {
      marker: statusMarker(runId),
      ownLogin: request.ownLogin,
    });
    requests += found.pagesRead;
    if (found.status === 'inconclusive') {
      throw new WritError(
        'precheck-inconclusive',
        `could not tell whether run ${runId}'s status comment exists (${found.reason})`,
      );
    }
    if (found.status === 'exists') {
      for (const duplicate of found.duplicates) {
        // A concurrent duplicate of Writ's own comment: the oldest wins, the others are removed.
        requests += 1;
        await github.rest.issues.deleteComment({ ...repository, comment_id: duplicate.id });
        deps.logger.warning(`removed duplicate status comment ${duplicate.id} of run ${runId}`);
      }
      current = {
        issue_number: issueNumber,
        comment_id: found.item.id,
        body_digest: digest(found.item.body ?? ''),
        pending_digest: null,
      };
      await record(current);
      adopted = true;
    } else {
      current = null; // it never landed: the identity is reserved again below
    }
  }

  if (current === null || current.comment_id === null) {
    await record({ issue_number: issueNumber, comment_id: null, body_digest: null, pending_digest: wanted });
    requests += 1;
    let commentId: number;
    try {
      // Never retried by the client: a retried POST is exactly how duplicates are born.
      const { data } = await github.rest.issues.createComment({
        ...repository,
        issue_number: issueNumber,
        body,
        request: { retries: 0 },
      });
      commentId = data.id;
    } catch (error: unknown) {
      if (isDefiniteFailure(error)) {
        await record({
          issue_number: issueNumber,
          comment_id: null,
          body_digest: null,
          pending_digest: null,
        });
        throw error;
      }
      throw new WritError(
        'precheck-inconclusive',
        `the status comment POST for run ${runId} had no definite answer (${errorMessage(error)}); the next run reconciles it by its marker before posting again`,
      );
    }
    await record({
      issue_number: issueNumber,
      comment_id: commentId,
      body_digest: wanted,
      pending_digest: null,
    });
    return { action: 'created', commentId, commentRequests: requests };
  }

  const commentId = current.comment_id;
  if (current.pending_digest !== null) {
    if (current.pending_digest !== wanted) {
      // An earlier update's outcome is unknown: read the comment back before letting another overtake it.
      requests += 1;
      const { data } = await github.rest.issues.getComment({ ...repository, comment_id: commentId });
      const landed = digest(data.body ?? '');
      current = { ...current, body_digest: landed, pending_digest: null };
      await record(current);
    }
    // else: the same body as the interrupted PATCH, which may simply be sent again.
  }
  if (current.pending_digest === null && current.body_digest === wanted) {
    return { action: adopted ? 'adopted' : 'unchanged', commentId, commentRequests: requests };
  }
  if (current.pending_digest !== wanted) {
    current = { ...current, pending_digest: wanted };
    await record(current);
  }
  requests += 1;
  await github.rest.issues.updateComment({ ...repository, comment_id: commentId, body });
  await record({ ...current, body_digest: wanted, pending_digest: null });
  return { action: 'updated', commentId, commentRequests: requests };
}
