import { runnerLogger } from '../../io/action-io.js';
import { runStage } from '../runner.js';
import { readPreviewSettings } from './inputs.js';
import { preview } from './stage.js';

/** The preview action: validate, digest, render; when not a dry run, propose and keep the status comment. */
export async function run(): Promise<void> {
  await runStage('preview', {
    inputs: readPreviewSettings,
    connect: () => ({
      logger: runnerLogger,
      async connect(write) {
        // Loaded only when writing: a dry run never pays for the GitHub client's start-up.
        const { connect } = await import('../connect.js');
        return connect(
          { apiUrl: write.apiUrl, repository: write.repository.full },
          write.ledger,
          runnerLogger,
        );
      },
    }),
    stage: preview,
  });
}
