/**
 * The status comment follows the run: every stage that changes a run's state (claim-checkpoint, each
 * persist claim window and its end, publish-artifact's record, recovery) brings the run's one status
 * comment up to date through the one sync (sync.ts), never a writer of its own:
 *  - at most one update per call (a stage calls it once per invocation, persist once per claim window
 *    and once when it ends); the sync sends nothing when the projection is unchanged;
 *  - the preview comes from the plan when the stage has it; a stage without the plan (claim-checkpoint)
 *    reads the comment back and keeps the preview of the body Writ last wrote, and only a body whose
 *    digest the ledger holds (status-comment/repair.ts);
 *  - a failure is reported, never thrown: the ledger is the authority, and the next stage or recovery
 *    repairs the comment. Nothing is sent again here (the client never retries a write, and a PATCH
 *    whose outcome is unknown stays reserved in the ledger for the next sync to read back);
 *  - when a Projects (v2) project is configured (`project`), the run's project item follows too
 *    (projects/sync.ts), after the comment: presentation only, it never throws and never changes the
 *    result, the ledger or the comment (a failure is a warning with its code).
 */
import { errorCode, failureMessage } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import type { HeldHead, LedgerContext } from '../ledger/cas.js';
import type { RepositoryName } from '../ledger/paths.js';
import type { RunFile } from '../ledger/types.js';
import { readRun } from '../ledger/ledger.js';
import { escapeUntrusted } from '../untrusted-text.js';
import type { ProjectTarget } from '../projects/sync.js';
import { syncProjectItem } from '../projects/sync.js';
import { repairStatusComment } from './repair.js';
import type { Logger } from '../redact.js';
import type { StatusExtras } from './projection.js';
import { renderStatusProjection } from './projection.js';
import { syncStatusComment } from './sync.js';

export interface FollowDeps {
  github: GitHubClient;
  ledger: LedgerContext;
  logger: Logger;
}

export interface FollowRequest {
  repository: RepositoryName;
  runId: string;
  /** Writ's own login (`<app-slug>[bot]`). */
  ownLogin: string;
  /** The run's preview from its plan; null: the preview of the comment Writ last wrote is kept. */
  preview: string | null;
  extras?: StatusExtras;
  /** The run as the caller's own ledger commit just left it, and that commit's head. */
  after?: { run: RunFile; head: HeldHead | undefined };
  /** The Projects (v2) project the run's item is kept on; absent or null: no projection. */
  project?: ProjectTarget | null | undefined;
}

export interface FollowResult {
  /** What happened, for the stage summary (empty when the run has no status comment). */
  line: string;
  /** False when the update failed (the stage goes on; later updates wait for the next stage). */
  ok: boolean;
}

/** Brings the run's status comment (and, when configured, its project item) up to date once; never throws. */
export async function followStatus(deps: FollowDeps, request: FollowRequest): Promise<FollowResult> {
  const result = await followComment(deps, request);
  if (request.project != null) await followProject(deps, { ...request, project: request.project });
  return result;
}

/**
 * The run's project item, from the run as the caller left it (else as the ledger holds it); never
 * throws. followStatus calls it after the comment; a stage that syncs its comment itself (the approval)
 * calls it after that sync.
 */
export async function followProject(
  deps: FollowDeps,
  request: Pick<FollowRequest, 'runId' | 'ownLogin' | 'after'> & { project: ProjectTarget },
): Promise<void> {
  const target = request.project;
  try {
    const run = request.after?.run ?? (await readRun(deps.ledger, request.runId)).run;
    if (run === null) return;
    await syncProjectItem(deps, { target, run, ownLogin: request.ownLogin });
  } catch (error: unknown) {
    deps.logger.warning(
      `project-unavailable: run ${escapeUntrusted(request.runId, 64)}'s project item not updated (the run could not be read: ${failureMessage(error)}); the run is unchanged.`,
    );
  }
}

async function followComment(deps: FollowDeps, request: FollowRequest): Promise<FollowResult> {
  const { runId } = request;
  // A run without a status comment (a preview without `status-issue`): nothing to read or send.
  if (request.after !== undefined && (request.after.run.status_comment ?? null) === null) {
    return { line: '', ok: true };
  }
  const after =
    request.after?.head === undefined ? undefined : { run: request.after.run, head: request.after.head };
  const render = (run: RunFile, preview: string): string =>
    renderStatusProjection(run, preview, request.extras ?? {});
  try {
    if (request.preview === null) {
      const outcome = await repairStatusComment(deps, {
        repository: request.repository,
        runId,
        ownLogin: request.ownLogin,
        preview: null,
        render,
        ...(after === undefined ? {} : { after }),
      });
      if (outcome === 'no-status-comment') return { line: '', ok: true };
      if (outcome === 'plan-unavailable') {
        return {
          line: 'Status comment not updated (its last body is not the one Writ wrote); recovery repairs it from the plan.',
          ok: true,
        };
      }
      return { line: `Status comment: ${outcome}.`, ok: true };
    }
    const preview = request.preview;
    const synced = await syncStatusComment(deps, {
      repository: request.repository,
      runId,
      project: (run) => render(run, preview),
      ownLogin: request.ownLogin,
      ...(after === undefined ? {} : { after }),
    });
    return { line: synced === null ? '' : `Status comment ${synced.commentId}: ${synced.action}.`, ok: true };
  } catch (error: unknown) {
    deps.logger.warning(`status comment of run ${runId} not updated: ${failureMessage(error)}`);
    return {
      line: `Status comment not updated (${errorCode(error)}); the run's progress stands in the ledger. The next stage or recovery brings the comment up to date.`,
      ok: false,
    };
  }
}
