/** Builds what a writing stage runs with, from validated settings: the GitHub client and the ledger. */
import { validateApiUrl } from '../github/api-url.js';
import type { GitHubClient, GitHubClientOptions } from '../github/client.js';
import { createGitHubClient, loopbackTimings } from '../github/client.js';
import type { Clock, LedgerContext } from '../ledger/cas.js';
import { systemClock } from '../ledger/cas.js';
import { createLedgerContext } from '../ledger/ledger.js';
import { parseRepository } from '../ledger/paths.js';
import { actionsLiveness } from '../ledger/liveness.js';
import type { Logger } from '../redact.js';
import type { LedgerSettings } from './ledger-inputs.js';

/** What a stage that writes GitHub receives: `(settings, deps) → { outputs, summary }`. */
export interface StageDeps {
  github: GitHubClient;
  ledger: LedgerContext;
  clock: Clock;
  logger: Logger;
  /** Writ's own identity on GitHub, `<app slug>[bot]`. */
  ownLogin: string;
}

/**
 * GitHub asks for a second between mutative requests; a local emulator on loopback needs no spacing,
 * so stages run against it (tests, the demo) at full speed. Real GitHub is never a loopback address.
 */
export function clientTimingFor(apiUrl: string): GitHubClientOptions {
  const host = new URL(validateApiUrl(apiUrl, 'GITHUB_API_URL')).hostname;
  const loopback = host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
  return loopback ? loopbackTimings() : {};
}

/**
 * `actionsToken`: the token that reads holder liveness (`actions: read`) before a takeover; null or
 * absent: the ledger token's client reads it.
 */
export function connect(
  target: { apiUrl: string; repository: string },
  settings: LedgerSettings,
  logger: Logger,
  options: { clock?: Clock; actionsToken?: string | null } = {},
): StageDeps & { actions: GitHubClient } {
  const clock = options.clock ?? systemClock;
  const github = createGitHubClient(settings.token, {
    baseUrl: target.apiUrl,
    logger,
    ...clientTimingFor(target.apiUrl),
  });
  const actionsToken = options.actionsToken ?? null;
  const actions =
    actionsToken === null
      ? github
      : createGitHubClient(actionsToken, {
          baseUrl: target.apiUrl,
          logger,
          ...clientTimingFor(target.apiUrl),
        });
  const ledger = createLedgerContext(
    { github, logger, clock, liveness: actionsLiveness(actions, parseRepository(target.repository)) },
    {
      repository: target.repository,
      branch: settings.branch,
      app: settings.app,
      policy: { leaseMs: settings.leaseMs },
    },
  );
  return { github, ledger, clock, logger, ownLogin: `${settings.app.slug}[bot]`, actions };
}
