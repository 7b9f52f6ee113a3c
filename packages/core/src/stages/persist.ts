/**
 * The persist action (actions/persist/action.yml): an approved plan's writes, behind the gate, once,
 * in order, resumable. Its inputs become persist's own settings (persist/persist.ts `PersistSettings`)
 * plus the ledger's, `persistStage` calls `persistPlan` and then keeps the run's status comment, and
 * `run` is what the action's bundle runs.
 */
import { parseAllowedRoles } from '../approval/authorize.js';
import { WritError } from '../errors.js';
import type { StageIo } from '../io/action-io.js';
import { quoted, repositoryPath, runnerLogger } from '../io/action-io.js';
import type {
  PaceReport,
  PersistDeps,
  PersistResult,
  PersistSettings,
  Receipt,
  StepReport,
} from '../persist/persist.js';
import { persistPlan, syncPersistStatus } from '../persist/persist.js';
import { loadPlanFile } from '../plan/load.js';
import { validateRunId } from '../plan/run-id.js';
import { code, escapeInline } from '../markdown.js';
import type { StageDeps } from './connect.js';
import { connect } from './connect.js';
import { readRunnerContext } from './context.js';
import type { LedgerSettings } from './ledger-inputs.js';
import { readLedgerSettings } from './ledger-inputs.js';
import { parseProjectInput } from '../projects/target.js';
import type { StageResult } from './runner.js';
import { runAction } from './runner.js';

/** Persist's settings, as its inputs give them, and the ledger it writes through. */
export interface PersistStageSettings extends PersistSettings {
  ledger: LedgerSettings;
}

export function readPersistSettings(io: StageIo<'persist'>): PersistStageSettings {
  const context = readRunnerContext();
  const runId = validateRunId(io.input('run-id'));
  const epochInput = io.input('epoch');
  if (!/^[1-9][0-9]{0,15}$/.test(epochInput)) {
    throw new WritError(
      'invalid-input',
      `input 'epoch' must be a positive integer (got ${quoted(epochInput)})`,
    );
  }
  const persistenceEnabled = io.booleanInput('persistence-enabled');
  const policyPath = repositoryPath(io.input('policy-file'), 'policy-file');
  const evidencePath = repositoryPath(io.input('evidence-file'), 'evidence-file');
  const maxSteps = io.boundedInput('max-steps');
  const timeBudgetMinutes = io.boundedInput('time-budget-minutes');
  const window = io.boundedOrKeywordInput('claim-window');
  const pageCap = io.boundedInput('precheck-page-cap');
  const dryRun = io.booleanInput('dry-run');
  const commandPrefix = io.input('command-prefix');
  const allowedRoles = parseAllowedRoles(io.input('allowed-roles'));
  const ledger = readLedgerSettings(io, 'lease-seconds');
  const plan = loadPlanFile(io.input('plan-file'), {
    workspace: context.workspace,
    runnerTemp: context.runnerTemp,
  });
  return {
    apiUrl: context.apiUrl,
    repository: { owner: context.repository.owner, repo: context.repository.repo },
    runId,
    plan,
    epoch: Number(epochInput),
    persistenceEnabled,
    policyPath,
    evidencePath,
    maxSteps,
    timeBudgetMs: timeBudgetMinutes * 60_000,
    claimWindow: window === 'auto' ? null : window,
    pageCap,
    commandPrefix,
    allowedRoles,
    dryRun,
    ledger,
    project: parseProjectInput(io.input('project')),
    holder: { workflow_run_id: context.workflowRunId, attempt: context.attempt },
  };
}

function stepRow(step: StepReport): string {
  const resources = step.resources.length === 0 ? '—' : step.resources.map((n) => `#${n}`).join(', ');
  return `| ${code(step.id)} | ${code(step.kind)} | ${step.result} | ${step.write === null ? '—' : code(step.write)} | ${step.writes} | ${step.statusCode ?? '—'} | ${step.errorCode === null ? '—' : code(step.errorCode)} | ${resources} |`;
}

/** A create's receipt as a table row: its key escaped (an upsert's key is the planner's text). */
function receiptRow(receipt: Receipt): string {
  const outcome = receipt.outcome ?? 'claimed, not settled';
  const resource = receipt.resource === null ? '—' : `#${receipt.resource}`;
  return `| ${code(receipt.step)} | ${code(receipt.kind)} | ${escapeInline(receipt.idempotency_key, 100)} | ${receipt.key_scope} | ${receipt.outcome === 'inconclusive' ? '**inconclusive**' : outcome} | ${resource} |`;
}

/**
 * Why a `handover` is not a failure: the time budget was spent with steps left, every step done so far is
 * checkpointed, and the workflow hands the run to the recovery workflow (released lease, dispatched at once).
 */
function handoverLine(result: Pick<PersistResult, 'steps' | 'nextStep'>): string {
  const steps = result.steps.length;
  return `Time budget spent after ${steps} step${steps === 1 ? '' : 's'}; handed over to recovery: the workflow releases the lease and dispatches the recovery workflow, which resumes the run from ${code(result.nextStep)} at once.`;
}

/**
 * How GitHub's secondary limits set this invocation's pace: said plainly when the writes cannot fit in
 * an hour (GitHub allows 500 content-creating requests an hour; the pacer budgets fewer).
 */
function paceLine(pace: PaceReport): string {
  const { expected, hourlyBudget, plannedMinutes, figures } = pace;
  const did = `${figures.contentCreating} content-creating request(s) sent, ${figures.refusals} secondary-limit refusal(s)`;
  if (expected > hourlyBudget) {
    return `**Paced by GitHub's hourly limit:** about ${expected} content-creating requests (writes, claims, checkpoints) were left, more than GitHub's secondary limit allows in an hour (500; Writ budgets ${hourlyBudget}), so they are spaced evenly, about ${plannedMinutes} min in all. ${did}.`;
  }
  return `Paced to GitHub's guidance (a second apart, at most 80 a minute, ${hourlyBudget} an hour): about ${expected} content-creating requests were left, about ${plannedMinutes} min. ${did}.`;
}

export function renderPersistSummary(
  settings: Pick<PersistSettings, 'runId' | 'epoch' | 'dryRun'>,
  result: PersistResult,
): string {
  const lines = [
    `## Writ persist: ${result.outcome}${result.reason === '' ? '' : ` (${code(result.reason)})`}${settings.dryRun ? ' (dry run: nothing written)' : ''}`,
    '',
    `Run ${code(settings.runId)}, epoch ${settings.epoch}: ${result.stepsDone} of ${result.stepsTotal} steps done${result.nextStep === '' ? '' : `, next ${code(result.nextStep)}`}; ${result.ledgerCommits} ledger commit(s) this invocation.`,
    '',
  ];
  if (result.gate !== null) {
    lines.push('| kind | policy | gate | why |', '|---|---|---|---|');
    for (const kind of result.gate.kinds) {
      lines.push(
        `| ${code(kind.kind)} | ${kind.policy} | ${kind.open ? 'open' : '**closed**'} | ${escapeInline(kind.why, 300)} |`,
      );
    }
    lines.push('');
    if (result.gate.residual.length > 0) {
      lines.push(
        '**Best-effort** (the owner chose it in the policy file), so these residual windows stay open:',
        '',
        ...result.gate.residual.map((line) => `- ${line}`),
        '',
      );
    }
  }
  if (result.steps.length > 0) {
    lines.push(
      '| step | kind | result | write | writes | status | code | resources |',
      '|---|---|---|---|---:|---:|---|---|',
      ...result.steps.map(stepRow),
      '',
    );
  }
  for (const step of result.steps) {
    if (step.diff.length > 0)
      lines.push(`Step ${code(step.id)}:`, '', ...step.diff.map((line) => `- ${line}`), '');
    if (step.notes.length > 0)
      lines.push(`Step ${code(step.id)} notes:`, '', ...step.notes.map((line) => `- ${line}`), '');
  }
  if (result.receipts.length > 0) {
    lines.push(
      "Receipts (each create's idempotency key and what came of it; docs/idempotency.md):",
      '',
      '| step | kind | key | scope | outcome | resource |',
      '|---|---|---|---|---|---|',
      ...result.receipts.map(receiptRow),
      '',
    );
  }
  if (result.pace !== null) lines.push(paceLine(result.pace), '');
  if (result.outcome === 'handover') lines.push(handoverLine(result), '');
  if (result.outcome === 'waiting-external')
    lines.push(
      `Waiting for the external step ${code(result.nextStep)}: perform it under claim-checkpoint, then run persist again.`,
      '',
    );
  lines.push(
    'Creates are idempotent only client-side: a marker pre-check on the primary list endpoint, and a re-list after an ambiguous create that retires later duplicates (oldest wins). Two truly concurrent creates can still both land for a moment.',
    '',
  );
  if (result.statusComment !== '') lines.push(result.statusComment, '');
  return lines.join('\n');
}

/** An approved plan's writes, behind the gate, once, in order, resumable; then its status comment. */
export async function persistStage(
  settings: PersistStageSettings,
  deps: Pick<StageDeps, 'github' | 'ledger' | 'logger' | 'ownLogin'> &
    Pick<PersistDeps, 'afterWrite' | 'afterClaim'>,
): Promise<StageResult<'persist'>> {
  const result = await persistPlan(deps, settings);
  if (result.outcome === 'handover') deps.logger.info(handoverLine(result));
  if (!settings.dryRun && result.outcome !== 'gate-closed') {
    result.statusComment = await syncPersistStatus(deps, settings, result);
  }
  return {
    summary: renderPersistSummary(settings, result),
    outputs: {
      outcome: result.outcome,
      reason: result.reason,
      'steps-done': result.stepsDone,
      'steps-total': result.stepsTotal,
      'next-step': result.nextStep,
      created: JSON.stringify(result.created),
      receipts: JSON.stringify(result.receipts),
    },
    ...(result.refusal === null ? {} : { refusal: result.refusal }),
  };
}

/** The persist action: an approved plan's writes, behind the gate, once, in order, resumable. */
export async function run(): Promise<void> {
  await runAction('persist', {
    inputs: readPersistSettings,
    connect: (settings) =>
      connect(
        {
          apiUrl: settings.apiUrl,
          repository: `${settings.repository.owner}/${settings.repository.repo}`,
        },
        settings.ledger,
        runnerLogger,
      ),
    stage: persistStage,
    // A closed gate or a stopped run is its own outcome, not a generic refusal.
    refusalOutputs(error) {
      const outcome = error.details.outcome;
      return outcome === 'gate-closed' || outcome === 'stopped' ? { outcome } : {};
    },
  });
}
