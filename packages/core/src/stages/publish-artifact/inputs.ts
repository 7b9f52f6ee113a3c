import type { Stats } from 'node:fs';
import { existsSync, lstatSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { parseAllowedRoles } from '../../approval/authorize.js';
import type { ArtifactBranch } from '../../artifact/lane.js';
import { refuseLedgerBranches, validateArtifactBranch } from '../../artifact/lane.js';
import type { OnClosedPr } from '../../artifact/publish.js';
import { MAX_ARTIFACT_BYTES } from '../../artifact/publish.js';
import type { ArtifactPath } from '../../artifact/safe-path.js';
import { validateArtifactPath } from '../../artifact/safe-path.js';
import { WritError } from '../../errors.js';
import type { StageIo } from '../../io/action-io.js';
import { quoted } from '../../io/action-io.js';
import type { FileRoots } from '../../io/input-file.js';
import { readInputFile } from '../../io/input-file.js';
import type { RepositoryName } from '../../ledger/paths.js';
import { DEFAULT_LEDGER_BRANCH } from '../../ledger/types.js';
import { validateRunId } from '../../plan/run-id.js';
import { readRunnerContext } from '../context.js';
import type { LedgerSettings } from '../ledger-inputs.js';
import { readLedgerSettings } from '../ledger-inputs.js';

/** GitHub's limit on a pull request body, in characters; bytes bound it from above. */
const MAX_PR_BODY_BYTES = 4 * 65_536;

export interface PublishArtifactStageSettings {
  apiUrl: string;
  repository: RepositoryName & { full: string };
  /** A safe repository path (git's rules; `.github/workflows/` only with allow-workflow-files). */
  path: ArtifactPath;
  onClosedPr: OnClosedPr;
  dryRun: boolean;
  epoch: number;
  /** This workflow run (GITHUB_RUN_ID, GITHUB_RUN_ATTEMPT): it must own the run at `epoch` to publish. */
  holder: { workflow_run_id: number; attempt: number };
  /** The bytes of `content-file`, read under the input-file rules (empty with `ledgerStateFile`). */
  content: Buffer;
  /**
   * Write the run's ledger state here (artifact/ledger-state.ts) and publish nothing: an absolute path
   * inside the workspace or the runner's temp directory, where no file is yet. Absent: publish.
   */
  ledgerStateFile?: string;
  prBody: string;
  ledger: LedgerSettings;
  runId: string;
  planFile: string;
  planRoots: FileRoots;
  commandPrefix: string;
  allowedRoles: string[];
  /** The bot branch and the base (null: the default branch); neither is a ledger branch. */
  branch: ArtifactBranch;
  base: ArtifactBranch | null;
  prTitle: string;
}

export function readPublishArtifactSettings(io: StageIo<'publish-artifact'>): PublishArtifactStageSettings {
  const context = readRunnerContext();
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
  const stateInput = io.input('ledger-state-file');
  const ledgerStateFile = stateInput === '' ? undefined : ledgerStatePath(stateInput, planRoots);
  if (ledgerStateFile === undefined && io.input('content-file') === '')
    throw new WritError(
      'invalid-input',
      "input 'content-file' is required (unless 'ledger-state-file' is set)",
    );
  const content =
    ledgerStateFile === undefined
      ? readInputFile(io.input('content-file'), 'content-file', planRoots, MAX_ARTIFACT_BYTES)
      : Buffer.alloc(0);
  const prBody =
    prBodyFile === ''
      ? ''
      : readInputFile(prBodyFile, 'pr-body-file', planRoots, MAX_PR_BODY_BYTES).toString('utf8');
  const ledger = readLedgerSettings(io);
  const runId = validateRunId(io.input('run-id'));
  const allowedRoles = parseAllowedRoles(io.input('allowed-roles'));
  const path = validateArtifactPath(io.input('path'), { allowWorkflowFiles });
  const branch = validateArtifactBranch(io.input('branch'), 'branch');
  const baseInput = io.input('base');
  const base = baseInput === '' ? null : validateArtifactBranch(baseInput, 'base');
  // Before anything is read: neither may name a ledger branch (the default base is checked once known).
  refuseLedgerBranches(base === null ? [branch] : [branch, base], [ledger.branch, DEFAULT_LEDGER_BRANCH]);
  return {
    apiUrl: context.apiUrl,
    repository: context.repository,
    path,
    onClosedPr,
    dryRun,
    epoch,
    holder: { workflow_run_id: context.workflowRunId, attempt: context.attempt },
    content,
    ...(ledgerStateFile === undefined ? {} : { ledgerStateFile }),
    prBody,
    ledger,
    runId,
    planFile: io.input('plan-file'),
    planRoots,
    commandPrefix: io.input('command-prefix'),
    allowedRoles,
    branch,
    base,
    prTitle: io.input('pr-title'),
  };
}

/**
 * The ledger state file's path: resolved against the workspace, inside the workspace or the runner's
 * temp directory, its folder existing and no file (or link) at the path yet.
 */
export function ledgerStatePath(input: string, roots: FileRoots): string {
  const bases = [roots.workspace, roots.runnerTemp].filter(
    (root): root is string => typeof root === 'string' && root !== '',
  );
  const full = resolve(roots.workspace, input);
  const inside = bases.some((root) => {
    const base = resolve(root);
    return full.startsWith(`${base}${sep}`);
  });
  if (!inside)
    throw new WritError(
      'invalid-input',
      `input 'ledger-state-file' must be inside the workspace or the runner's temp directory (got ${quoted(input)})`,
    );
  if (!existsSync(dirname(full)) || lstatOrNull(full) !== null)
    throw new WritError(
      'invalid-input',
      `input 'ledger-state-file' must name a new file in an existing folder (got ${quoted(input)})`,
    );
  return full;
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}
