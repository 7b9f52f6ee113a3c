/**
 * The preview action (actions/preview/action.yml): validate and digest (preview/preview-plan.ts
 * `loadPreview`); when not a dry run, read the base SHA, the policy and the evidence
 * (preview/readings.ts); assess the warnings, risk class and gate (preview/assess.ts); render; when not
 * a dry run, propose the run and keep its status comment (preview/propose.ts). Its inputs,
 * `previewStage` and `run`, what the action's bundle runs. A dry run never loads the GitHub client:
 * what writing needs is imported when it is needed.
 */
import { tmpdir } from 'node:os';
import { parseAllowedRoles } from '../approval/authorize.js';
import { validateCommandPrefix } from '../command/grammar.js';
import type { StageIo } from '../io/action-io.js';
import { repositoryPath, runnerLogger } from '../io/action-io.js';
import type { FileRoots } from '../io/input-file.js';
import type { RepositoryName } from '../ledger/paths.js';
import { validateRunId } from '../plan/run-id.js';
import type { Assessment, PreviewReadings } from '../preview/assess.js';
import { assessPlan, dryRunReadings } from '../preview/assess.js';
import { loadPreview, writePreview } from '../preview/preview-plan.js';
import type { ProjectTarget } from '../projects/sync.js';
import { parseProjectInput } from '../projects/target.js';
import { validateEnvironmentName } from '../setup/environment-name.js';
import { EVIDENCE_PATH } from '../probe/evidence.js';
import { POLICY_PATH } from '../setup/policy.js';
import type { Logger } from '../redact.js';
import type { StageDeps } from './connect.js';
import { readRunnerContext } from './context.js';
import type { LedgerSettings } from './ledger-inputs.js';
import { readLedgerSettings } from './ledger-inputs.js';
import type { StageResult } from './runner.js';
import { runAction } from './runner.js';

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
   * The gate the preview states: who may approve, and the GitHub Environment of the writing jobs.
   * Default: the inputs' defaults (`admin`, `maintain`, `write`; no Environment).
   */
  gate?: PreviewReadings['gate'];
  /** Repository-relative paths, read from the default branch when not a dry run (default: `.writ/…`). */
  policyPath?: string;
  evidencePath?: string;
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
  /** The Projects (v2) project the run's item is kept on (`project` input); null or absent: none. */
  project?: ProjectTarget | null | undefined;
}

/** The `environment` input: empty for none, else a name by the one rule (setup/environment-name.ts). */
export function environmentName(value: string): string | null {
  const name = value.trim();
  return name === '' ? null : validateEnvironmentName(name, "input 'environment'");
}

/** The preview's inputs; a dry run reads nothing of the runner but its directories. */
export function readPreviewSettings(io: StageIo<'preview'>): PreviewStageSettings {
  const dryRun = io.booleanInput('dry-run');
  const statusIssue = io.integerInput('status-issue');
  const planFile = io.input('plan-file');
  const runId = io.input('run-id');
  const commandPrefix = validateCommandPrefix(io.input('command-prefix'));
  const gate = {
    roles: parseAllowedRoles(io.input('allowed-roles')),
    environment: environmentName(io.input('environment')),
  };
  const policyPath = repositoryPath(io.input('policy-file'), 'policy-file');
  const evidencePath = repositoryPath(io.input('evidence-file'), 'evidence-file');
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
    gate,
    policyPath,
    evidencePath,
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
        project: parseProjectInput(io.input('project')),
      };
    },
  };
}

/** A dry run needs only a logger; a writing preview connects (client, ledger) once its plan is valid. */
export interface PreviewDeps {
  logger: Logger;
  connect(write: PreviewWriteSettings): Promise<StageDeps>;
}

/** The warnings as the `warnings` output: codes and step IDs only, never plan text. */
function warningsOutput(assessment: Assessment): string {
  return JSON.stringify(assessment.warnings.map(({ code, step }) => ({ code, step })));
}

/**
 * Validate and digest; when not a dry run, read the base SHA, policy and evidence; assess and render;
 * when not a dry run, propose the run and keep its status comment.
 */
export async function previewStage(
  settings: PreviewStageSettings,
  deps: PreviewDeps,
): Promise<StageResult<'preview'>> {
  const { logger } = deps;
  const gate = settings.gate ?? { roles: ['admin', 'maintain', 'write'], environment: null };
  const policyPath = settings.policyPath ?? POLICY_PATH;
  const preview = {
    planFile: settings.planFile,
    planRoots: settings.planRoots,
    runId: settings.runId,
    commandPrefix: settings.commandPrefix,
    outputDir: settings.outputDir,
  };
  const loaded = loadPreview(preview);
  let outcome = 'previewed';
  let statusCommentId: number | undefined;
  let assessment: Assessment;
  let result: ReturnType<typeof writePreview>;
  if (settings.write) {
    const write = settings.write();
    const { requirePlanRepository, proposeAndPublishStatus } = await import('../preview/propose.js');
    // A plan for another repository is refused before the first request (the base and policy reads).
    requirePlanRepository(loaded.plan, write.repository);
    const stageDeps = await deps.connect(write);
    const { github, ledger, ownLogin } = stageDeps;
    if (settings.statusIssue !== undefined) {
      const { checkStatusIssue } = await import('../preview/status-issue.js');
      await checkStatusIssue(github, write.repository, settings.statusIssue);
    }
    // Loaded only when writing: a dry run never pays for the GitHub client's start-up.
    const { readPreviewReadings } = await import('../preview/readings.js');
    const readings = await readPreviewReadings(stageDeps, loaded.plan, {
      repository: { owner: write.repository.owner, repo: write.repository.repo },
      apiUrl: write.apiUrl,
      policyPath,
      evidencePath: settings.evidencePath ?? EVIDENCE_PATH,
      gate,
    });
    assessment = assessPlan(loaded.plan, readings);
    result = writePreview(preview, loaded, { logger }, assessment);
    const proposal = await proposeAndPublishStatus(
      { github, ledger, ownLogin, logger },
      { repository: write.repository, actorId: write.actorId },
      {
        statusIssue: settings.statusIssue,
        plan: result.plan,
        runId: result.runId,
        markdown: result.markdown,
        preview: {
          base_sha: readings.base.sha,
          risk: assessment.risk.class,
          warnings: assessment.warnings.map(({ code, step }) => ({ code, step })),
        },
      },
    );
    outcome = 'proposed';
    statusCommentId = proposal.statusCommentId;
    // The run's project item, when one is configured: presentation only, it never throws.
    if (write.project != null) {
      const { followProject } = await import('../status-comment/follow.js');
      await followProject(
        { github, ledger, logger },
        { runId: result.runId, ownLogin, project: write.project },
      );
    }
    logger.info(
      `${proposal.proposed ? 'proposed' : 'already proposed'} run ${result.runId} at ledger head ${proposal.ledgerHead}` +
        (proposal.statusAction === undefined
          ? ''
          : `; status comment ${String(statusCommentId)} ${proposal.statusAction}`),
    );
  } else {
    assessment = assessPlan(loaded.plan, dryRunReadings(policyPath, gate));
    result = writePreview(preview, loaded, { logger }, assessment);
  }
  const base = assessment.readings.base;
  logger.info(
    `base ${base === null ? 'not read (dry run)' : `${base.branch} at ${base.sha}`}; risk ${assessment.risk.class}; ` +
      `${assessment.warnings.length} warning${assessment.warnings.length === 1 ? '' : 's'}` +
      assessment.warnings.map((w) => ` ${w.code}${w.step === null ? '' : `@${w.step}`}`).join(','),
  );
  logger.info(`approve with: ${result.approveCommand}`);
  return {
    summary: result.markdown,
    outputs: {
      'run-id': result.runId,
      digest: result.digest,
      'approve-command': result.approveCommand,
      'preview-path': result.previewPath,
      'status-comment-id': statusCommentId ?? '',
      'base-sha': base?.sha ?? '',
      risk: assessment.risk.class,
      warnings: warningsOutput(assessment),
      outcome,
      reason: '',
    },
  };
}

/** The preview action: validate, digest, render; when not a dry run, propose and keep the status comment. */
export async function run(): Promise<void> {
  await runAction('preview', {
    inputs: readPreviewSettings,
    connect: () => ({
      logger: runnerLogger,
      async connect(write) {
        // Loaded only when writing: a dry run never pays for the GitHub client's start-up.
        const { connect } = await import('./connect.js');
        return connect(
          { apiUrl: write.apiUrl, repository: write.repository.full },
          write.ledger,
          runnerLogger,
        );
      },
    }),
    stage: previewStage,
  });
}
