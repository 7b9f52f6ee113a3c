/**
 * What the recovery stage runs with: the client and ledger every writing stage gets, plus the step
 * observer that decides what a crashed holder's claimed step did on GitHub.
 *
 * MERGE POINT (persist): when `packages/core/src/persist/observe.ts` lands, replace
 * `unavailableObserver` below with its `observeStep` (a `StepObserver`). Until then every claimed step
 * recovery meets is `unknown` (`observer-unavailable`) and goes to `needs-reconciliation`: safe, never a
 * guessed outcome.
 */
import type { StepObserver } from '../../persist/observation.js';
import type { Logger } from '../../redact.js';
import { unavailableObserver } from '../../recovery/observer.js';
import type { GitHubClient } from '../../github/client.js';
import { createGitHubClient } from '../../github/client.js';
import type { StageDeps } from '../connect.js';
import { clientTimingFor, connect } from '../connect.js';
import type { LedgerSettings } from '../ledger-inputs.js';

export interface RecoveryStageDeps extends StageDeps {
  observe: StepObserver;
  /** The client for Actions reads (holder liveness): `actions-token`'s, else the ledger's. */
  actions: GitHubClient;
}

export function connectRecovery(
  target: { apiUrl: string; repository: string },
  settings: LedgerSettings,
  actionsToken: string | null,
  logger: Logger,
  observer: StepObserver = unavailableObserver,
): RecoveryStageDeps {
  const deps = connect(target, settings, logger);
  const actions =
    actionsToken === null
      ? deps.github
      : createGitHubClient(actionsToken, {
          baseUrl: target.apiUrl,
          logger,
          ...clientTimingFor(target.apiUrl),
        });
  return { ...deps, observe: observer, actions };
}
