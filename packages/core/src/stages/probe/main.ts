import { createGitHubClient } from '../../github/client.js';
import { runnerLogger } from '../../io/action-io.js';
import { clientTimingFor } from '../connect.js';
import { runStage } from '../runner.js';
import { readProbeSettings } from './inputs.js';
import { probe } from './stage.js';

/** The probe action: the stale-write contract probe on an allow-listed sandbox, and its evidence. */
export async function run(): Promise<void> {
  await runStage('probe', {
    inputs: readProbeSettings,
    connect: (settings) => {
      // Every request once: a rate limit or a failure makes a case inconclusive, never a retried write.
      const options = {
        baseUrl: settings.apiUrl,
        logger: runnerLogger,
        rateLimitRetries: 0,
        ...clientTimingFor(settings.apiUrl),
      };
      return {
        sandboxGithub: createGitHubClient(settings.token, { ...options, throttleId: 'writ-probe-sandbox' }),
        repositoryGithub: createGitHubClient(settings.repositoryToken, {
          ...options,
          throttleId: 'writ-probe-repository',
        }),
        logger: runnerLogger,
      };
    },
    stage: probe,
  });
}
