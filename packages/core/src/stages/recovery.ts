/**
 * The recovery action (actions/recovery/action.yml): one sweep of every run that is not terminal
 * (recovery/recover.ts `recoverRuns`). Its inputs, its dependencies (the writing stages' client and
 * ledger, plus persist's step observer), `recoveryStage` and its summary, and `run`, what the action's
 * bundle runs.
 */
import { parseAllowedRoles } from '../approval/authorize.js';
import { validateCommandPrefix } from '../command/grammar.js';
import type { GitHubClient } from '../github/client.js';
import type { StageIo } from '../io/action-io.js';
import { runnerLogger } from '../io/action-io.js';
import type { FileRoots } from '../io/input-file.js';
import type { RepositoryName } from '../ledger/paths.js';
import type { StepObserver } from '../persist/observation.js';
import { observeStep } from '../persist/observe.js';
import { code } from '../markdown.js';
import type { RecoveryReport } from '../recovery/recover.js';
import { recoverRuns } from '../recovery/recover.js';
import type { Logger } from '../redact.js';
import { publishTower } from '../tower/site.js';
import type { ProjectTarget } from '../projects/sync.js';
import { parseProjectInput } from '../projects/target.js';
import type { StageDeps } from './connect.js';
import { connect } from './connect.js';
import { readRunnerContext, readServerUrl } from './context.js';
import type { LedgerSettings } from './ledger-inputs.js';
import { readLedgerSettings } from './ledger-inputs.js';
import type { StageResult } from './runner.js';
import { runAction } from './runner.js';

export interface RecoveryStageSettings {
  apiUrl: string;
  /** GITHUB_SERVER_URL (evidence links on GitHub Enterprise Server follow it). */
  serverUrl: string;
  repository: RepositoryName & { full: string };
  dryRun: boolean;
  commandPrefix: string;
  ledger: LedgerSettings;
  /** The token for Actions reads (holder liveness) only; null: the ledger token. */
  actionsToken: string | null;
  planFile: string | null;
  planRoots: FileRoots;
  allowedRoles: string[];
  requireDistinctApprover: boolean;
  holder: { workflow_run_id: number; attempt: number };
  /** Where to write the Pages control tower after the sweep (input `tower-dir`); null: nowhere. */
  towerDir?: string | null | undefined;
  /** The Projects (v2) project each swept run's item is kept on (input `project`); null: none. */
  project?: ProjectTarget | null | undefined;
}

export function readRecoverySettings(io: StageIo<'recovery'>): RecoveryStageSettings {
  const context = readRunnerContext();
  const dryRun = io.booleanInput('dry-run');
  const commandPrefix = validateCommandPrefix(io.input('command-prefix'));
  const ledger = readLedgerSettings(io, 'lease-seconds');
  const actionsToken = io.input('actions-token');
  const planFile = io.input('plan-file');
  const allowedRoles = parseAllowedRoles(io.input('allowed-roles'));
  return {
    apiUrl: context.apiUrl,
    serverUrl: readServerUrl(process.env.GITHUB_SERVER_URL),
    repository: context.repository,
    dryRun,
    commandPrefix,
    ledger,
    actionsToken: actionsToken === '' ? null : actionsToken,
    planFile: planFile === '' ? null : planFile,
    planRoots: { workspace: context.workspace, runnerTemp: context.runnerTemp },
    allowedRoles,
    requireDistinctApprover: io.booleanInput('require-distinct-approver'),
    holder: { workflow_run_id: context.workflowRunId, attempt: context.attempt },
    towerDir: io.input('tower-dir') === '' ? null : io.input('tower-dir'),
    project: parseProjectInput(io.input('project')),
  };
}

export interface RecoveryStageDeps extends StageDeps {
  observe: StepObserver;
  /** The client for Actions reads (holder liveness): `actions-token`'s, else the ledger's. */
  actions: GitHubClient;
}

/**
 * What the recovery stage runs with: the client and ledger every writing stage gets, plus the step
 * observer that decides what a crashed holder's claimed step did on GitHub — persist's own
 * `observeStep`, which reads exactly as persist's pre-read does and never writes, as Writ's app
 * (`<slug>[bot]`) so that only a marker on a resource the app authored counts.
 */
export function connectRecovery(
  target: { apiUrl: string; repository: string },
  settings: LedgerSettings,
  actionsToken: string | null,
  logger: Logger,
  observer?: StepObserver,
): RecoveryStageDeps {
  const deps = connect(target, settings, logger, { actionsToken });
  const observe = observer ?? observeStep({ github: deps.github, ownLogin: deps.ownLogin });
  return { ...deps, observe };
}

/** The job summary: the counts, then one row per scanned run. */
export function renderRecoverySummary(report: RecoveryReport): string {
  if (!report.ledger.proven) {
    const { freeze } = report.ledger;
    const what = freeze.freeze.commit === null ? 'its rulesets' : `commit ${code(freeze.freeze.commit)}`;
    const done =
      freeze.action === 'frozen'
        ? `Writ froze the ledger with commit ${code(freeze.commitOid ?? '')}`
        : freeze.action === 'already-frozen'
          ? 'The ledger was already frozen'
          : 'A sweep that writes would freeze the ledger (dry run: nothing written)';
    return [
      '## Writ recovery: LEDGER FROZEN',
      '',
      `The full replay of the ledger from its root refused ${what} (${code(freeze.freeze.code)}). ${done}: ` +
        'every gate (consume-approval, claim-checkpoint, persist, publish-artifact) now refuses with `ledger-frozen`. ' +
        `No run was swept; ${report.ledger.announced} open run(s) carry the notice on their status comment. ` +
        'Treat it as an incident (SECURITY.md): rotate the Writ app key and re-provision the ledger on a new branch.',
      '',
    ].join('\n');
  }
  const lines = [
    `## Writ recovery ${report.dryRun ? '(dry run: nothing written)' : 'sweep'}`,
    '',
    `Ledger head ${code(report.headOid)}: ${report.scanned} run(s) scanned, ${report.takenOver} taken over, ` +
      `${report.reconciled} step(s) reconciled, ${report.needsReconciliation} needing reconciliation, ` +
      `${report.approvalsRecovered} approval(s) recovered, ${report.repaired} status comment(s) repaired.`,
    '',
  ];
  if (report.planProblem !== null) {
    lines.push(
      `The plan file could not be used (${code(report.planProblem)}): nothing was consumed from it.`,
      '',
    );
  }
  if (report.runs.length > 0) {
    lines.push('| run | before | after | action | reason | steps for a human | status comment |');
    lines.push('| --- | --- | --- | --- | --- | --- | --- |');
    for (const run of report.runs) {
      const human = run.needsReconciliation
        .map((entry) => `${code(entry.stepId)} ${code(entry.reason)}`)
        .join(', ');
      lines.push(
        `| ${code(run.runId)} | ${run.before} | ${run.after} | ${run.action} | ${run.reason === null ? '' : code(run.reason)} | ${human} | ${run.status} |`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** One recovery sweep: see recovery/recover.ts. */
export async function recoveryStage(
  settings: RecoveryStageSettings,
  deps: RecoveryStageDeps,
): Promise<StageResult<'recovery'>> {
  const report = await recoverRuns(
    {
      github: deps.github,
      actions: deps.actions,
      ledger: deps.ledger,
      logger: deps.logger,
      observe: deps.observe,
    },
    {
      repository: settings.repository,
      serverUrl: settings.serverUrl,
      holder: settings.holder,
      commandPrefix: settings.commandPrefix,
      allowedRoles: settings.allowedRoles,
      requireDistinctApprover: settings.requireDistinctApprover,
      appBotLogin: deps.ownLogin,
      planFile: settings.planFile,
      planRoots: settings.planRoots,
      dryRun: settings.dryRun,
      project: settings.project ?? null,
    },
  );
  const towerDir = settings.towerDir ?? null;
  const tower =
    towerDir === null
      ? null
      : await publishTower(deps, {
          directory: towerDir,
          roots: settings.planRoots,
          serverUrl: settings.serverUrl,
          sweep: {
            head: report.headOid,
            proven: report.ledger.proven,
            scanned: report.scanned,
            taken_over: report.takenOver,
            needs_reconciliation: report.needsReconciliation,
            dry_run: report.dryRun,
          },
        });
  const towerLine =
    tower === null
      ? ''
      : tower.written
        ? 'Control tower: index.html and tower.json written to `tower-dir`.\n'
        : `Control tower: not written (${code('tower-build-failed')}: ${code(tower.cause)}); the sweep above stands.\n`;
  return {
    summary: `${renderRecoverySummary(report)}${towerLine}`,
    outputs: {
      scanned: report.scanned,
      'taken-over': report.takenOver,
      reconciled: report.reconciled,
      'needs-reconciliation': report.needsReconciliation,
      'resumable-runs': JSON.stringify(report.resumable),
      'approvals-recovered': report.approvalsRecovered,
      repaired: report.repaired,
      ...(tower === null ? {} : { tower: tower.written ? 'written' : 'not-written' }),
      outcome: !report.ledger.proven ? 'refused' : settings.dryRun ? 'dry-run' : 'swept',
      reason: report.ledger.proven ? '' : 'ledger-frozen',
    },
  };
}

/** The recovery action: one sweep of every run that is not terminal. */
export async function run(): Promise<void> {
  await runAction('recovery', {
    inputs: readRecoverySettings,
    connect: (settings) =>
      connectRecovery(
        { apiUrl: settings.apiUrl, repository: settings.repository.full },
        settings.ledger,
        settings.actionsToken,
        runnerLogger,
      ),
    stage: recoveryStage,
  });
}
