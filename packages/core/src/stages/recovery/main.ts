import { runnerLogger } from '../../io/action-io.js';
import { runStage } from '../runner.js';
import { connectRecovery } from './connect.js';
import { readRecoverySettings } from './inputs.js';
import { recovery } from './stage.js';

/** The recovery action: one sweep of every run that is not terminal. */
export async function run(): Promise<void> {
  await runStage('recovery', {
    inputs: readRecoverySettings,
    connect: (settings) =>
      connectRecovery(
        { apiUrl: settings.apiUrl, repository: settings.repository.full },
        settings.ledger,
        settings.actionsToken,
        runnerLogger,
      ),
    stage: recovery,
  });
}
