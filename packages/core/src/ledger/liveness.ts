/**
 * Whether a lease holder's job may still be running, from the Actions API (the holder's workflow run
 * and attempt, `GET …/actions/runs/{id}/attempts/{n}`, which needs `actions: read`). Only GitHub's
 * definite answers count: a completed attempt is `finished`, a 404 is `missing`, anything GitHub says is
 * not completed (queued, in_progress, waiting, requested, pending, or a status Writ does not know) is
 * `in-progress`. A 403 (no `actions: read`), a 5xx or a dropped connection is `unknown`, and an unknown
 * holder is left alone exactly like a running one.
 *
 * `requireHoldersGone` is the one rule every path that moves the lease passes through (the ledger's
 * `takeoverRun`, which recovery, claim-checkpoint's `takeover` and the CLI all call): a holder is taken
 * over only when it is gone (`finished` or `missing`), whatever the lease's expiry and whichever run the
 * takeover is for.
 *
 * - The holder is the attempt it recorded (`workflow_run_id` + `attempt`). A re-run of the same
 *   workflow run is a newer attempt: GitHub starts one only after every job of the previous attempt has
 *   completed, so the recorded attempt is `finished` and the re-run is exactly the replacement that
 *   takes over (SPEC: "a replacement run or attempt becomes holder at epoch + 1"). A live newer attempt
 *   therefore does not keep the old holder alive.
 * - A 404 is `missing` and counts as gone: GitHub refuses to delete a workflow run that is not
 *   completed, and a run removed by retention ended long before. A token that cannot read Actions gets
 *   a 403 (`liveness-forbidden`), never taken for gone.
 */
import { WritError, httpStatus } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import type { RepositoryName } from './paths.js';
import type { Holder } from './types.js';

export type Liveness =
  | { state: 'in-progress'; status: string }
  | { state: 'finished'; conclusion: string | null }
  | { state: 'missing' }
  | { state: 'unknown'; reason: 'liveness-forbidden' | 'liveness-unreadable' };

/** The attempt a holder recorded. */
export type HolderAttempt = Pick<Holder, 'workflow_run_id' | 'attempt'>;

/** Reads one holder's liveness (the Actions API in production; a stub only in unit tests). */
export type HolderLiveness = (holder: HolderAttempt) => Promise<Liveness>;

export async function holderLiveness(
  github: GitHubClient,
  repository: RepositoryName,
  holder: HolderAttempt,
): Promise<Liveness> {
  if (holder.workflow_run_id <= 0) return { state: 'missing' };
  try {
    const { data } = await github.rest.actions.getWorkflowRunAttempt({
      ...repository,
      run_id: holder.workflow_run_id,
      attempt_number: holder.attempt,
      exclude_pull_requests: true,
    });
    const status = data.status ?? '';
    if (status === 'completed') return { state: 'finished', conclusion: data.conclusion ?? null };
    return { state: 'in-progress', status: status === '' ? 'unknown' : status };
  } catch (error: unknown) {
    const status = httpStatus(error);
    if (status === 404) return { state: 'missing' };
    if (status === 403) return { state: 'unknown', reason: 'liveness-forbidden' };
    return { state: 'unknown', reason: 'liveness-unreadable' };
  }
}

/** The Actions API of `repository`, read with `github` (a token with `actions: read`). */
export function actionsLiveness(github: GitHubClient, repository: RepositoryName): HolderLiveness {
  return (holder) => holderLiveness(github, repository, holder);
}

/** A ledger without an Actions reader (an in-memory store): no holder is ever proven gone. */
export const unprovenLiveness: HolderLiveness = () =>
  Promise.resolve({ state: 'unknown', reason: 'liveness-unreadable' });

/** Gone: GitHub says the attempt completed, or that it does not exist. Nothing else. */
export function isGone(liveness: Liveness): boolean {
  return liveness.state === 'finished' || liveness.state === 'missing';
}

export function sameAttempt(a: HolderAttempt, b: HolderAttempt): boolean {
  return a.workflow_run_id === b.workflow_run_id && a.attempt === b.attempt;
}

function describe(holder: HolderAttempt): string {
  return `workflow run ${holder.workflow_run_id} attempt ${holder.attempt}`;
}

/** The refusal for a holder that is not proven gone: `repository-lease-held` or `holder-liveness-unproven`. */
export function holderNotGone(holder: HolderAttempt, liveness: Liveness, consequence: string): WritError {
  const details = {
    holder_workflow_run_id: holder.workflow_run_id,
    holder_attempt: holder.attempt,
  };
  if (liveness.state === 'unknown') {
    return new WritError(
      'holder-liveness-unproven',
      `Writ could not read whether ${describe(holder)} has finished (${liveness.reason}); ${consequence}.`,
      { details: { ...details, reason: liveness.reason } },
    );
  }
  const status = liveness.state === 'in-progress' ? liveness.status : 'not gone';
  return new WritError(
    'repository-lease-held',
    `${describe(holder)} holds the lease and is ${status} on GitHub, whatever the lease's expiry; ${consequence}. Wait for that run to complete.`,
    { details: { ...details, holder_status: status } },
  );
}

/**
 * Reads every holder in `holders` (null and the taker itself skipped; each attempt read once) and
 * throws unless each is gone. Returns the attempts proven gone, for the commit to re-check against the
 * state it is evaluated on.
 */
export async function requireHoldersGone(
  liveness: HolderLiveness,
  holders: readonly (HolderAttempt | null | undefined)[],
  taker: HolderAttempt,
  consequence: string,
): Promise<HolderAttempt[]> {
  const gone: HolderAttempt[] = [];
  for (const holder of holders) {
    if (holder === null || holder === undefined || sameAttempt(holder, taker)) continue;
    if (gone.some((known) => sameAttempt(known, holder))) continue;
    const state = await liveness(holder);
    if (!isGone(state)) throw holderNotGone(holder, state, consequence);
    gone.push({ workflow_run_id: holder.workflow_run_id, attempt: holder.attempt });
  }
  return gone;
}

/** True when `holder` is null, the taker, or among the attempts `requireHoldersGone` proved gone. */
export function provenGone(
  holder: HolderAttempt | null | undefined,
  taker: HolderAttempt,
  gone: readonly HolderAttempt[],
): boolean {
  return (
    holder === null ||
    holder === undefined ||
    sameAttempt(holder, taker) ||
    gone.some((known) => sameAttempt(known, holder))
  );
}
