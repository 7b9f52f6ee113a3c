/** The end-to-end tests run stages through `writ run`'s engine, exactly as the CLI does. */
import { tmpdir } from 'node:os';
import { REPO_ROOT, runStage } from '../../packages/cli/src/run-stage.js';
import type { RunStageOptions, StageRun } from '../../packages/cli/src/run-stage.js';

export const repoRoot = REPO_ROOT;

/**
 * The tests keep their plan and content files in directories under the OS temp directory, so that is
 * the runner's temp directory here (stages read input files only from the workspace or RUNNER_TEMP);
 * a test of that rule passes a narrower RUNNER_TEMP.
 */
export const TEST_RUNNER_TEMP = tmpdir();

export function runAction(stage: string, options: Omit<RunStageOptions, 'stage'> = {}): Promise<StageRun> {
  // The tests' default repository (writ run itself never assumes one).
  return runStage({
    stage,
    ...options,
    env: { GITHUB_REPOSITORY: 'acme/widgets', RUNNER_TEMP: TEST_RUNNER_TEMP, ...options.env },
  });
}
