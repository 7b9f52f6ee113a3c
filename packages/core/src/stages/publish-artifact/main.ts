import { runnerLogger } from '../../io/action-io.js';
import { connect } from '../connect.js';
import { runStage } from '../runner.js';
import { readPublishArtifactSettings } from './inputs.js';
import { publishArtifact } from './stage.js';

/** The publish-artifact action: one file, one bot branch, exactly one pull request. */
export async function run(): Promise<void> {
  await runStage('publish-artifact', {
    inputs: readPublishArtifactSettings,
    connect: (settings) =>
      connect(
        { apiUrl: settings.apiUrl, repository: settings.repository.full },
        settings.ledger,
        runnerLogger,
      ),
    stage: publishArtifact,
    // A refusal over a closed pull request names it.
    refusalOutputs(error) {
      const prUrl = error.details['pr-url'];
      return typeof prUrl === 'string' ? { 'pr-url': prUrl } : {};
    },
  });
}
