/** The end-to-end tests run stages through `writ run`'s engine, exactly as the CLI does. */
import { REPO_ROOT, runStage } from '../../packages/cli/src/run-stage.js';
import type { RunStageOptions, StageRun } from '../../packages/cli/src/run-stage.js';

export const repoRoot = REPO_ROOT;

export function runAction(stage: string, options: Omit<RunStageOptions, 'stage'> = {}): Promise<StageRun> {
  return runStage({ stage, ...options });
}
