import { runnerLogger } from '../../io/action-io.js';
import { connect } from '../connect.js';
import { runStage } from '../runner.js';
import { readConsumeApprovalSettings } from './inputs.js';
import { consumeApproval } from './stage.js';

/** The consume-approval action: one human comment, re-verified live, consumed once. */
export async function run(): Promise<void> {
  await runStage('consume-approval', {
    inputs: readConsumeApprovalSettings,
    connect: (settings) =>
      connect(
        { apiUrl: settings.apiUrl, repository: settings.repository.full },
        settings.ledger,
        runnerLogger,
        { actionsToken: settings.actionsToken ?? null },
      ),
    stage: consumeApproval,
  });
}
