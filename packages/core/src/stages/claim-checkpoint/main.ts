import { runnerLogger } from '../../io/action-io.js';
import { connect } from '../connect.js';
import { runStage } from '../runner.js';
import { readClaimCheckpointSettings } from './inputs.js';
import { claimCheckpoint } from './stage.js';

/** The claim-checkpoint action: fences a consumer's own side effect with the ledger lease. */
export async function run(): Promise<void> {
  await runStage('claim-checkpoint', {
    inputs: readClaimCheckpointSettings,
    connect: (settings) =>
      connect({ apiUrl: settings.apiUrl, repository: settings.repository }, settings.ledger, runnerLogger, {
        actionsToken: settings.actionsToken ?? null,
      }),
    stage: claimCheckpoint,
  });
}
