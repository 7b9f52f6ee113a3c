/**
 * Whether a lease holder's job may still be running, from the Actions API (the holder's workflow run
 * and attempt, `GET …/actions/runs/{id}/attempts/{n}`, which needs `actions: read`). Only GitHub's
 * definite answers count: a completed attempt is `finished`, a 404 is `missing`, anything GitHub says is
 * not completed is `in-progress`. A 403 (no `actions: read`), a 5xx or a dropped connection is
 * `unknown`, and an unknown holder is left alone exactly like a running one.
 */
import { httpStatus } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import type { RepositoryName } from '../ledger/paths.js';
import type { Holder } from '../ledger/types.js';

export type Liveness =
  | { state: 'in-progress'; status: string }
  | { state: 'finished'; conclusion: string | null }
  | { state: 'missing' }
  | { state: 'unknown'; reason: 'liveness-forbidden' | 'liveness-unreadable' };

export async function holderLiveness(
  github: GitHubClient,
  repository: RepositoryName,
  holder: Pick<Holder, 'workflow_run_id' | 'attempt'>,
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
