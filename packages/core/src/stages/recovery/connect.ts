/**
 * What the recovery stage runs with: the client and ledger every writing stage gets, plus the step
 * observer that decides what a crashed holder's claimed step did on GitHub — persist's own
 * `observeStep`, which reads exactly as persist's pre-read does and never writes, as Writ's app
 * (`<slug>[bot]`) so that only a marker on a resource the app authored counts.
 */
import type { StepObserver } from '../../persist/observation.js';
import type { Logger } from '../../redact.js';
import { observeStep } from '../../persist/observe.js';
import type { GitHubClient } from '../../github/client.js';
import type { StageDeps } from '../connect.js';
import { connect } from '../connect.js';
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
  observer?: StepObserver,
): RecoveryStageDeps {
  const deps = connect(target, settings, logger, { actionsToken });
  const observe = observer ?? observeStep({ github: deps.github, ownLogin: deps.ownLogin });
  return { ...deps, observe };
}
