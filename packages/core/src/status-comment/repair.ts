/**
 * Status comment repair for recovery: the status sync (status-comment/sync.ts) sends nothing when the
 * ledger says the comment already carries the projection, so it cannot see a comment someone deleted
 * or edited by hand. This reads the recorded comment back first: a deleted one (404) has its identity
 * re-reserved in the ledger (replay re-checks that it is gone), a hand-edited one has the body it now
 * carries recorded; the sync then posts or patches it like any other change. Plus the durable evidence
 * link the projection shows: the run file at the run's last transition (never a status commit, so the
 * link stays put while only the projection is rewritten).
 */
import { digest } from '../canonical-json.js';
import { httpStatus } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import type { HeldHead, LedgerContext } from '../ledger/cas.js';
import { readRun, recordStatusComment } from '../ledger/ledger.js';
import { parseTrailers } from '../ledger/message.js';
import type { RepositoryName } from '../ledger/paths.js';
import { runFilePath } from '../ledger/paths.js';
import type { RunFile } from '../ledger/types.js';
import type { Logger } from '../redact.js';
import { evidencePermalink } from './evidence-link.js';
import { syncStatusComment } from './sync.js';

export interface RepairDeps {
  github: GitHubClient;
  ledger: LedgerContext;
  logger: Logger;
}

export type RepairOutcome = 'unchanged' | 'repaired' | 'updated' | 'no-status-comment' | 'plan-unavailable';

/** History pages (100 commits each) searched for a run's last transition. */
const HISTORY_PAGES = 3;

/** The newest ledger commit of `runId` that is not a status record, searched from the head. */
export async function lastRunCommit(
  ledger: LedgerContext,
  headOid: string,
  runId: string,
): Promise<string | null> {
  let cursor: string | null = null;
  for (let page = 0; page < HISTORY_PAGES; page += 1) {
    const history = await ledger.store.readHistory(headOid, cursor, 100);
    for (const commit of history.commits) {
      const trailers = parseTrailers(commit.message);
      if (trailers?.runId === runId && trailers.transition !== 'status') return commit.oid;
    }
    if (!history.hasNextPage || history.endCursor === null) return null;
    cursor = history.endCursor;
  }
  return null;
}

/** The evidence link for a run: its run file at its last transition, or null when none is found. */
export async function runEvidence(
  ledger: LedgerContext,
  serverUrl: string,
  run: RunFile,
  headOid: string,
): Promise<{ url: string; commit: string } | null> {
  const commit = await lastRunCommit(ledger, headOid, run.run_id);
  if (commit === null) return null;
  const { owner, repo } = ledger.store.location;
  return {
    url: evidencePermalink(serverUrl, `${owner}/${repo}`, commit, runFilePath(run.repository, run.run_id)),
    commit,
  };
}

/**
 * The preview part of a status body Writ wrote (marker line, projection lines, a blank line, the
 * preview): what a run's comment keeps showing when the plan recomputed now is another.
 */
export function previewOf(body: string): string | null {
  // The projection's own lines come first (each one line; an approved run's "next" paragraph after a
  // blank line), then the preview: persist's best-effort note when it shows one, else the preview's
  // heading. Untrusted text is escaped inline there, so neither can start a line before the preview.
  const starts = [PREVIEW_START, RESIDUAL_START]
    .map((start) => body.indexOf(`\n\n${start}`))
    .filter((at) => at >= 0);
  if (starts.length === 0) return null;
  return body.slice(Math.min(...starts) + 2);
}

/** How the preview (preview/render.ts renderPreview) starts. */
const PREVIEW_START = '## Writ plan preview: ';
/** How persist's best-effort note (persist.ts persistProjection) starts, when it precedes the preview. */
export const RESIDUAL_START = '> **Best-effort** ';

export async function repairStatusComment(
  deps: RepairDeps,
  request: {
    repository: RepositoryName;
    runId: string;
    ownLogin: string;
    /** The run's preview from its plan, or null when the plan recomputed now is another. */
    preview: string | null;
    render: (run: RunFile, preview: string) => string;
    /** The run as the caller's own ledger commit just left it (syncStatusComment's `after`). */
    after?: { run: RunFile; head: HeldHead };
  },
): Promise<RepairOutcome> {
  const { github, ledger } = deps;
  const { repository, runId } = request;
  let after = request.after?.run.run_id === runId ? request.after : undefined;
  const run = after?.run ?? (await readRun(ledger, runId)).run;
  const recorded = run?.status_comment ?? null;
  if (recorded === null) return 'no-status-comment';
  let preview = request.preview;
  let drifted = false;
  // An update whose outcome is unknown (pending) is the sync's to resolve; the comment is read here
  // then only to borrow the preview of a body Writ wrote (the one recorded, or the one pending).
  const pending = recorded.pending_digest !== null;
  if (recorded.comment_id !== null && (!pending || preview === null)) {
    let body: string | null = null;
    try {
      ({
        data: { body = '' },
      } = await github.rest.issues.getComment({ ...repository, comment_id: recorded.comment_id }));
    } catch (error: unknown) {
      if (httpStatus(error) !== 404) throw error;
    }
    const intact = body !== null && digest(body) === recorded.body_digest;
    // Only a body exactly as Writ wrote it (its digest is in the ledger) may lend its preview.
    const own = intact || (body !== null && digest(body) === recorded.pending_digest);
    if (preview === null && own && body !== null) preview = previewOf(body);
    if (preview === null) return 'plan-unavailable';
    // A pending update is left to the sync, which reads the comment back before overtaking it.
    if (!pending && body === null) {
      deps.logger.warning(
        `status comment ${recorded.comment_id} of run ${runId} was deleted: posting it again`,
      );
      await recordStatusComment(
        ledger,
        {
          runId,
          statusComment: {
            issue_number: recorded.issue_number,
            comment_id: null,
            body_digest: null,
            pending_digest: null,
          },
        },
        after === undefined ? {} : { from: after.head },
      );
      after = undefined; // the sync reads the run this record left
      drifted = true;
    } else if (!pending && !intact) {
      deps.logger.warning(`status comment ${recorded.comment_id} of run ${runId} was edited: restoring it`);
      await recordStatusComment(
        ledger,
        { runId, statusComment: { ...recorded, body_digest: digest(body) } },
        after === undefined ? {} : { from: after.head },
      );
      after = undefined;
      drifted = true;
    }
  }
  if (preview === null) return 'plan-unavailable';
  const shown = preview;
  const synced = await syncStatusComment(deps, {
    repository,
    runId,
    project: (current) => request.render(current, shown),
    ownLogin: request.ownLogin,
    ...(after === undefined ? {} : { after }),
  });
  if (synced === null) return 'no-status-comment';
  if (drifted) return 'repaired';
  return synced.action === 'unchanged' ? 'unchanged' : 'updated';
}
