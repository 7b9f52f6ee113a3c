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
import { commentPages, sinceBefore } from '../idempotency/github-pages.js';
import { findOwnMarked } from '../idempotency/precheck.js';
import type { HeldHead, LedgerContext } from '../ledger/cas.js';
import type { StatusFold } from '../ledger/ledger.js';
import { readRun, recordStatusComment } from '../ledger/ledger.js';
import type { RepositoryName } from '../ledger/paths.js';
import type { RunFile, StatusComment } from '../ledger/types.js';
import type { Logger } from '../redact.js';
import { redactSecrets } from '../redact.js';

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
  /**
   * The run as the caller's own ledger commit just left it (that commit's `held` head): the sync starts
   * from it instead of reading the run, and its first record commits on that head unread.
   */
  after?: {
    run: RunFile;
    head: HeldHead;
    /**
     * True when that commit folded in the status reservation `statusFold` gave it: its first POST
     * reservation is this sync's own, with nothing sent for it yet, so there is nothing to read back.
     */
    folded?: boolean;
  };
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

/**
 * The exact body: the run's marker first (its identity), then the projection, redacted (defence in
 * depth: plan validation already refuses a secret in plan text, redact.ts).
 */
export function statusBody(runId: string, projection: string): string {
  const body = `${statusMarker(runId)}\n${redactSecrets(projection)}`;
  if (body.length <= MAX_COMMENT_CHARS) return body;
  const note = '\n\n_(truncated: the full preview is in the workflow run summary)_\n';
  return `${body.slice(0, MAX_COMMENT_CHARS - note.length)}${note}`;
}

/** A 4xx is a definite refusal; anything else (5xx, a dropped connection, a timeout) may have landed. */
function isDefiniteFailure(error: unknown): boolean {
  return writeOutcome(error) === 'refused';
}

/** One sync in progress: what it wants on which issue, how it records, and the comment requests so far. */
interface Sync {
  deps: StatusCommentDeps;
  request: StatusCommentRequest;
  issueNumber: number;
  body: string;
  /** The digest of `body`. */
  wanted: string;
  requests: number;
  record(next: StatusComment): Promise<void>;
}

export async function syncStatusComment(
  deps: StatusCommentDeps,
  request: StatusCommentRequest,
): Promise<StatusCommentResult | null> {
  const { runId } = request;
  const after = request.after?.run.run_id === runId ? request.after : undefined;
  const run = after?.run ?? (await readRun(deps.ledger, runId)).run;
  if (run === null) throw new WritError('run-not-found', `the ledger holds no run ${runId}`);
  const reserved: StatusComment | null = run.status_comment ?? null;
  const issueNumber = request.issueNumber ?? reserved?.issue_number;
  if (issueNumber === undefined) return null;
  const body = statusBody(runId, request.project(run));
  if (reserved !== null && reserved.issue_number !== issueNumber) {
    throw new WritError(
      'invalid-input',
      `run ${runId} keeps its status comment on #${reserved.issue_number}, not #${issueNumber}`,
    );
  }
  // Each record commits on the head the previous one left (this sync's own commits), unread.
  let head = after?.head;
  const sync: Sync = {
    deps,
    request,
    issueNumber,
    body,
    wanted: digest(body),
    requests: 0,
    record: async (next) => {
      const outcome = await recordStatusComment(
        deps.ledger,
        { runId, statusComment: next },
        head === undefined ? {} : { from: head },
      );
      head = outcome.held;
    },
  };

  if (reserved === null) return postComment(sync);
  // A reserved first POST with no recorded result: find out whether it landed before anything else,
  // unless the caller's own commit made the reservation for this very body a moment ago.
  if (reserved.comment_id === null) {
    if (after?.folded === true && reserved.pending_digest === sync.wanted) return postComment(sync, true);
    const adopted = await adoptLandedPost(sync, reserved.reserved_at ?? null);
    if (adopted === null) return postComment(sync); // it never landed: the identity is reserved again
    return updateComment(sync, adopted, 'adopted');
  }
  return updateComment(sync, { ...reserved, comment_id: reserved.comment_id }, 'unchanged');
}

/**
 * The reservation this sync would commit first for `run`, for the transition that produces `run` to
 * fold into its own commit (ledger.ts StatusFold): a first POST's when nothing is recorded yet, or a
 * PATCH's of the recorded comment when nothing is pending and the body changes. Null whenever the sync
 * has something to resolve first (an unanswered POST or PATCH), nothing to send, or no issue.
 */
export function statusFold(
  request: Pick<StatusCommentRequest, 'runId' | 'issueNumber' | 'project'>,
): StatusFold {
  return (run) => {
    const reserved = run.status_comment ?? null;
    const issueNumber = request.issueNumber ?? reserved?.issue_number;
    if (issueNumber === undefined || (reserved !== null && reserved.issue_number !== issueNumber))
      return null;
    const wanted = digest(statusBody(request.runId, request.project(run)));
    if (reserved === null) {
      return { issue_number: issueNumber, comment_id: null, body_digest: null, pending_digest: wanted };
    }
    if (reserved.comment_id === null || reserved.pending_digest !== null || reserved.body_digest === wanted) {
      return null;
    }
    return { ...reserved, pending_digest: wanted };
  };
}

/**
 * After a first POST with no definite answer: the run's marker is looked for among Writ's own comments
 * on the issue. Found: the oldest is adopted (and recorded), later duplicates removed. Not found: null.
 * A POST made after its reservation was created after the reservation's server time, so the listing
 * starts there (less SINCE_SKEW_MS): one page however long the thread. A reservation recorded
 * before that time was kept reads from the first page, within the page cap.
 */
async function adoptLandedPost(sync: Sync, reservedAt: string | null): Promise<KnownComment | null> {
  const { github, logger } = sync.deps;
  const { repository, runId } = sync.request;
  const pages = commentPages(
    github,
    repository.owner,
    repository.repo,
    sync.issueNumber,
    sinceBefore(reservedAt),
  );
  const found = await findOwnMarked(pages, {
    marker: statusMarker(runId),
    ownLogin: sync.request.ownLogin,
  });
  sync.requests += found.pagesRead;
  if (found.status === 'inconclusive') {
    throw new WritError(
      'precheck-inconclusive',
      `could not tell whether run ${runId}'s status comment exists (${found.reason})`,
    );
  }
  if (found.status !== 'exists') return null;
  for (const duplicate of found.duplicates) {
    // A concurrent duplicate of Writ's own comment: the oldest wins, the others are removed.
    sync.requests += 1;
    await github.rest.issues.deleteComment({ ...repository, comment_id: duplicate.id });
    logger.warning(`removed duplicate status comment ${duplicate.id} of run ${runId}`);
  }
  const adopted: KnownComment = {
    issue_number: sync.issueNumber,
    comment_id: found.item.id,
    body_digest: digest(found.item.body ?? ''),
    pending_digest: null,
  };
  await sync.record(adopted);
  return adopted;
}

/**
 * The first POST: its identity reserved in the ledger first, never retried by the client (a retried
 * POST is how duplicates are born). A definite refusal clears the reservation; no answer at all leaves
 * it for the next sync to reconcile by the marker.
 */
async function postComment(sync: Sync, reserved = false): Promise<StatusCommentResult> {
  const { repository, runId } = sync.request;
  const { issueNumber, wanted } = sync;
  if (!reserved) {
    await sync.record({
      issue_number: issueNumber,
      comment_id: null,
      body_digest: null,
      pending_digest: wanted,
    });
  }
  sync.requests += 1;
  let commentId: number;
  try {
    const { data } = await sync.deps.github.rest.issues.createComment({
      ...repository,
      issue_number: issueNumber,
      body: sync.body,
    });
    commentId = data.id;
  } catch (error: unknown) {
    if (isDefiniteFailure(error)) {
      await sync.record({
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
  await sync.record({
    issue_number: issueNumber,
    comment_id: commentId,
    body_digest: wanted,
    pending_digest: null,
  });
  return { action: 'created', commentId, commentRequests: sync.requests };
}

/** A status comment whose ID is known. */
type KnownComment = StatusComment & { comment_id: number };

/**
 * An existing comment: nothing sent when it already holds the body; otherwise the update is reserved,
 * then PATCHed. An earlier update whose outcome is unknown is read back first unless this is the same
 * body (sending the same body again is idempotent). `same` is the action when nothing is sent.
 */
async function updateComment(
  sync: Sync,
  known: KnownComment,
  same: 'unchanged' | 'adopted',
): Promise<StatusCommentResult> {
  const { github } = sync.deps;
  const { repository } = sync.request;
  const { wanted } = sync;
  const commentId = known.comment_id;
  let current = known;
  if (current.pending_digest !== null && current.pending_digest !== wanted) {
    // An earlier update's outcome is unknown: read the comment back before letting another overtake it.
    sync.requests += 1;
    const { data } = await github.rest.issues.getComment({ ...repository, comment_id: commentId });
    current = { ...current, body_digest: digest(data.body ?? ''), pending_digest: null };
    await sync.record(current);
  }
  if (current.pending_digest === null && current.body_digest === wanted) {
    return { action: same, commentId, commentRequests: sync.requests };
  }
  if (current.pending_digest !== wanted) {
    current = { ...current, pending_digest: wanted };
    await sync.record(current);
  }
  sync.requests += 1;
  await github.rest.issues.updateComment({ ...repository, comment_id: commentId, body: sync.body });
  await sync.record({ ...current, body_digest: wanted, pending_digest: null });
  return { action: 'updated', commentId, commentRequests: sync.requests };
}
