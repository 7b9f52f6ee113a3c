import { tmpdir } from 'node:os';
import { validateCommandPrefix } from '../../command/grammar.js';
import type { StageIo } from '../../io/action-io.js';
import type { FileRoots } from '../../io/input-file.js';
import type { RepositoryName } from '../../ledger/paths.js';
import { validateRunId } from '../../plan/run-id.js';
import { readRunnerContext } from '../context.js';
import type { LedgerSettings } from '../ledger-inputs.js';
import { readLedgerSettings } from '../ledger-inputs.js';

export interface PreviewStageSettings {
  dryRun: boolean;
  statusIssue: number | undefined;
  planFile: string;
  planRoots: FileRoots;
  /** A valid run ID, or empty: derived from the plan digest. */
  runId: string;
  commandPrefix: string;
  /** Where the rendered preview is written. */
  outputDir: string;
  /**
   * Only when not a dry run: where and as whom the run is proposed. Read and checked when called, after
   * the plan, as ever (a bad plan is reported as such even when the ledger inputs are missing too).
   */
  write?: () => PreviewWriteSettings;
}

export interface PreviewWriteSettings {
  apiUrl: string;
  repository: RepositoryName & { full: string };
  actorId: number | undefined;
  ledger: LedgerSettings;
}

/** The preview's inputs; a dry run reads nothing of the runner but its directories. */
export function readPreviewSettings(io: StageIo<'preview'>): PreviewStageSettings {
  const dryRun = io.booleanInput('dry-run');
  const statusIssue = io.integerInput('status-issue');
  const planFile = io.input('plan-file');
  const runId = io.input('run-id');
  const commandPrefix = validateCommandPrefix(io.input('command-prefix'));
  const settings: PreviewStageSettings = {
    dryRun,
    statusIssue,
    planFile,
    planRoots: {
      workspace: process.env.GITHUB_WORKSPACE || process.cwd(),
      runnerTemp: process.env.RUNNER_TEMP,
    },
    runId: runId === '' ? '' : validateRunId(runId),
    commandPrefix,
    outputDir: process.env.RUNNER_TEMP || tmpdir(),
  };
  if (dryRun) return settings;
  return {
    ...settings,
    write: () => {
      const context = readRunnerContext();
      return {
        apiUrl: context.apiUrl,
        repository: context.repository,
        actorId: context.actorId,
        ledger: readLedgerSettings(io),
      };
    },
  };
}
