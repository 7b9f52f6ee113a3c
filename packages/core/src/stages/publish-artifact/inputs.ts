import { parseAllowedRoles } from '../../approval/authorize.js';
import type { OnClosedPr } from '../../artifact/publish.js';
import { MAX_ARTIFACT_BYTES } from '../../artifact/publish.js';
import { WritError } from '../../errors.js';
import type { StageIo } from '../../io/action-io.js';
import { quoted } from '../../io/action-io.js';
import type { FileRoots } from '../../io/input-file.js';
import { readInputFile } from '../../io/input-file.js';
import type { RepositoryName } from '../../ledger/paths.js';
import { validateRunId } from '../../plan/run-id.js';
import { readRunnerContext } from '../context.js';
import type { LedgerSettings } from '../ledger-inputs.js';
import { readLedgerSettings } from '../ledger-inputs.js';

/** GitHub's limit on a pull request body, in characters; bytes bound it from above. */
const MAX_PR_BODY_BYTES = 4 * 65_536;

export interface PublishArtifactStageSettings {
  apiUrl: string;
  repository: RepositoryName & { full: string };
  path: string;
  onClosedPr: OnClosedPr;
  dryRun: boolean;
  allowWorkflowFiles: boolean;
  epoch: number;
  /** The bytes of `content-file`, read under the input-file rules. */
  content: Buffer;
  prBody: string;
  ledger: LedgerSettings;
  runId: string;
  planFile: string;
  planRoots: FileRoots;
  commandPrefix: string;
  allowedRoles: string[];
  branch: string;
  base: string;
  prTitle: string;
}

export function readPublishArtifactSettings(io: StageIo<'publish-artifact'>): PublishArtifactStageSettings {
  const context = readRunnerContext();
  const path = io.input('path');
  const onClosedPr = io.input('on-closed-pr');
  if (onClosedPr !== 'report' && onClosedPr !== 'open-new') {
    throw new WritError(
      'invalid-input',
      `input 'on-closed-pr' must be report or open-new (got ${quoted(onClosedPr)})`,
    );
  }
  const prBodyFile = io.input('pr-body-file');
  const dryRun = io.booleanInput('dry-run');
  const allowWorkflowFiles = io.booleanInput('allow-workflow-files');
  const epoch = io.integerInput('epoch');
  if (epoch === undefined) throw new WritError('invalid-input', "input 'epoch' is required");
  const planRoots = { workspace: context.workspace, runnerTemp: context.runnerTemp };
  const content = readInputFile(io.input('content-file'), 'content-file', planRoots, MAX_ARTIFACT_BYTES);
  const prBody =
    prBodyFile === ''
      ? ''
      : readInputFile(prBodyFile, 'pr-body-file', planRoots, MAX_PR_BODY_BYTES).toString('utf8');
  const ledger = readLedgerSettings(io);
  return {
    apiUrl: context.apiUrl,
    repository: context.repository,
    path,
    onClosedPr,
    dryRun,
    allowWorkflowFiles,
    epoch,
    content,
    prBody,
    ledger,
    runId: validateRunId(io.input('run-id')),
    planFile: io.input('plan-file'),
    planRoots,
    commandPrefix: io.input('command-prefix'),
    allowedRoles: parseAllowedRoles(io.input('allowed-roles')),
    branch: io.input('branch'),
    base: io.input('base'),
    prTitle: io.input('pr-title'),
  };
}
