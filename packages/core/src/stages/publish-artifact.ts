/**
 * The publish-artifact action (actions/publish-artifact/action.yml): one file, one bot branch, exactly
 * one pull request, for an approved run (artifact/publish.ts `publishArtifact`); or, with
 * `ledger-state-file`, the run's ledger state for a renderer and nothing published. Its inputs,
 * `publishArtifactStage` and `run`, what the action's bundle runs.
 */
import type { Stats } from 'node:fs';
import { existsSync, lstatSync, writeFileSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { parseAllowedRoles } from '../approval/authorize.js';
import type { ArtifactBranch } from '../artifact/lane.js';
import { refuseLedgerBranches, validateArtifactBranch } from '../artifact/lane.js';
import { ledgerStateOf, ledgerStateText } from '../artifact/ledger-state.js';
import type { OnClosedPr } from '../artifact/publish.js';
import { MAX_ARTIFACT_BYTES, publishArtifact } from '../artifact/publish.js';
import type { ArtifactPath } from '../artifact/safe-path.js';
import { validateArtifactPath } from '../artifact/safe-path.js';
import { digest } from '../canonical-json.js';
import { WritError } from '../errors.js';
import type { StageIo } from '../io/action-io.js';
import { quoted, runnerLogger } from '../io/action-io.js';
import type { FileRoots } from '../io/input-file.js';
import { readInputFile } from '../io/input-file.js';
import { readVerifiedRun } from '../ledger/ledger.js';
import type { RepositoryName } from '../ledger/paths.js';
import { DEFAULT_LEDGER_BRANCH } from '../ledger/types.js';
import { loadPlanFile } from '../plan/load.js';
import { validateRunId } from '../plan/run-id.js';
import { code, escapeInline, fencedBlock } from '../markdown.js';
import { renderPreview } from '../preview/render.js';
import { followStatus } from '../status-comment/follow.js';
import type { StageDeps } from './connect.js';
import { connect } from './connect.js';
import { readRunnerContext } from './context.js';
import type { LedgerSettings } from './ledger-inputs.js';
import { readLedgerSettings } from './ledger-inputs.js';
import { parseProjectInput } from '../projects/target.js';
import type { StageResult } from './runner.js';
import { runAction } from './runner.js';
import type { ProjectTarget } from '../projects/sync.js';

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
  /** The Projects (v2) project the run's item is kept on (`project` input); null or absent: none. */
  project?: ProjectTarget | null;
  /** The bot branch and the base (null: the default branch); neither is a ledger branch. */
  branch: ArtifactBranch;
  base: ArtifactBranch | null;
  prTitle: string;
}

export function readPublishArtifactSettings(io: StageIo<'publish-artifact'>): PublishArtifactStageSettings {
  const context = readRunnerContext();
  const onClosedPr = io.choiceInput('on-closed-pr');
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
    project: parseProjectInput(io.input('project')),
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

/** One file, one bot branch, exactly one pull request. */
export async function publishArtifactStage(
  settings: PublishArtifactStageSettings,
  deps: Pick<StageDeps, 'github' | 'ledger' | 'logger'> & Partial<Pick<StageDeps, 'ownLogin'>>,
): Promise<StageResult<'publish-artifact'>> {
  const { path, content, dryRun } = settings;
  if (settings.ledgerStateFile !== undefined)
    return writeLedgerState(settings, settings.ledgerStateFile, deps);
  const result = await publishArtifact(
    { github: deps.github, ledger: deps.ledger, logger: deps.logger },
    {
      repository: settings.repository,
      runId: settings.runId,
      epoch: settings.epoch,
      holder: settings.holder,
      planFile: settings.planFile,
      planRoots: settings.planRoots,
      commandPrefix: settings.commandPrefix,
      allowedRoles: settings.allowedRoles,
      path,
      content,
      branch: settings.branch,
      base: settings.base,
      prTitle: settings.prTitle,
      prBody: settings.prBody,
      onClosedPr: settings.onClosedPr,
      dryRun,
    },
  );
  const lines = [
    `## Writ artifact: ${escapeInline(path, 200)} (${result.outcome})`,
    '',
    `Branch ${code(result.branch)} → ${code(result.base)}, commit ${code(result.commitOid || '—')}, ` +
      (result.prNumber === null ? 'no pull request yet' : `pull request #${result.prNumber} ${result.prUrl}`),
    '',
    `Diff stat: +${result.diff.added} −${result.diff.removed} lines.`,
  ];
  if (dryRun) {
    lines.push(
      '',
      'Requests it would make:',
      '',
      ...result.writes.map((w) => `- ${escapeInline(w, 200)}`),
      '',
    );
    lines.push(
      '<details><summary>Diff against the branch</summary>',
      '',
      fencedBlock(result.diff.lines.slice(0, 400), 'diff'),
      '</details>',
      '',
    );
  }
  // The artifact is recorded on the run: its status comment follows (once; a failure never fails the
  // publish). The plan was verified against the run's digest by the publish itself.
  if (result.recorded !== null && deps.ownLogin !== undefined) {
    const plan = loadPlanFile(settings.planFile, settings.planRoots);
    const followed = await followStatus(deps, {
      repository: settings.repository,
      runId: settings.runId,
      ownLogin: deps.ownLogin,
      preview: renderPreview({
        plan,
        planDigest: digest(plan),
        runId: settings.runId,
        commandPrefix: settings.commandPrefix,
      }),
      after: result.recorded,
      project: settings.project,
    });
    if (followed.line !== '') lines.push('', followed.line);
  }
  return {
    summary: `${lines.join('\n')}\n`,
    ...(dryRun
      ? { untrusted: { heading: `rendered ${path}:`, text: content.toString('utf8').slice(0, 20_000) } }
      : {}),
    outputs: {
      outcome: result.outcome,
      reason: '',
      'commit-oid': result.commitOid,
      'pr-number': result.prNumber ?? '',
      'pr-url': result.prUrl,
      branch: result.branch,
      'ledger-state-file': '',
    },
  };
}

/**
 * The renderer's input: the run's ledger state (read and replayed like every gate check), written to a
 * new file. Publishes nothing, so it needs no holder; the publish that follows re-verifies everything.
 */
async function writeLedgerState(
  settings: PublishArtifactStageSettings,
  file: string,
  deps: Pick<StageDeps, 'ledger'>,
): Promise<StageResult<'publish-artifact'>> {
  const { run } = await readVerifiedRun(deps.ledger, settings.runId, settings.repository.full);
  if (run === null)
    throw new WritError('run-not-found', `run ${settings.runId} is not in the ledger; nothing to render`);
  const text = ledgerStateText(run);
  writeFileSync(file, text, { flag: 'wx', mode: 0o600 });
  const state = ledgerStateOf(run);
  const counts = (['proposed', 'approved', 'persisted', 'conflict'] as const)
    .map((lifecycle) => `${state.steps.filter((step) => step.lifecycle === lifecycle).length} ${lifecycle}`)
    .join(', ');
  return {
    summary: `## Writ ledger state for the renderer

Run ${code(run.run_id)} is ${run.state}: ${counts} (of ${state.steps.length}).
`,
    outputs: {
      outcome: 'ledger-state',
      reason: '',
      'commit-oid': '',
      'pr-number': '',
      'pr-url': '',
      branch: '',
      'ledger-state-file': file,
    },
  };
}

/** The publish-artifact action: one file, one bot branch, exactly one pull request. */
export async function run(): Promise<void> {
  await runAction('publish-artifact', {
    inputs: readPublishArtifactSettings,
    connect: (settings) =>
      connect(
        { apiUrl: settings.apiUrl, repository: settings.repository.full },
        settings.ledger,
        runnerLogger,
      ),
    stage: publishArtifactStage,
    // A refusal over a closed pull request names it.
    refusalOutputs(error) {
      const prUrl = error.details['pr-url'];
      return typeof prUrl === 'string' ? { 'pr-url': prUrl } : {};
    },
  });
}
