import { tmpdir } from 'node:os';
import { WritError } from '../../errors.js';
import { stageIo } from '../../io/action-io.js';
import { previewPlan } from '../../preview/preview-plan.js';
import { failStep, runnerLogger, writeSummary } from '../runner.js';

/** The preview action: validate, digest, render; no GitHub writes. */
export function run(): void {
  const io = stageIo('preview');
  try {
    const result = previewPlan(
      {
        planFile: io.input('plan-file'),
        runId: io.input('run-id'),
        commandPrefix: io.input('command-prefix'),
        outputDir: process.env.RUNNER_TEMP || tmpdir(),
      },
      { logger: runnerLogger },
    );
    writeSummary(result.markdown);
    runnerLogger.info(`approve with: ${result.approveCommand}`);
    io.setOutputs({
      'run-id': result.runId,
      digest: result.digest,
      'approve-command': result.approveCommand,
      'preview-path': result.previewPath,
      outcome: 'previewed',
      reason: '',
    });
  } catch (error: unknown) {
    const reason = failStep(error);
    io.setOutputs({ outcome: error instanceof WritError ? 'refused' : 'failed', reason });
  }
}
