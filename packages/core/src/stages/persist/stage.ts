import type { PersistDeps, PersistResult, StepReport } from '../../persist/persist.js';
import { persistPlan, syncPersistStatus } from '../../persist/persist.js';
import { code, escapeInline } from '../../markdown.js';
import type { StageDeps } from '../connect.js';
import type { StageResult } from '../runner.js';
import type { PersistStageSettings } from './inputs.js';

function stepRow(step: StepReport): string {
  const resources = step.resources.length === 0 ? '—' : step.resources.map((n) => `#${n}`).join(', ');
  return `| ${code(step.id)} | ${code(step.kind)} | ${step.result} | ${step.write === null ? '—' : code(step.write)} | ${step.writes} | ${step.statusCode ?? '—'} | ${step.errorCode === null ? '—' : code(step.errorCode)} | ${resources} |`;
}

export function renderPersistSummary(settings: PersistStageSettings, result: PersistResult): string {
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

/** An approved plan's writes, behind the gate, once, in order, resumable. */
export async function persist(
  settings: PersistStageSettings,
  deps: Pick<StageDeps, 'github' | 'ledger' | 'logger' | 'ownLogin'> &
    Pick<PersistDeps, 'afterWrite' | 'afterClaim'>,
): Promise<StageResult<'persist'>> {
  const persistSettings = {
    repository: { owner: settings.repository.owner, repo: settings.repository.repo },
    runId: settings.runId,
    plan: settings.plan,
    epoch: settings.epoch,
    holder: settings.holder,
    persistenceEnabled: settings.persistenceEnabled,
    policyPath: settings.policyPath,
    evidencePath: settings.evidencePath,
    maxSteps: settings.maxSteps,
    claimWindow: settings.claimWindow,
    pageCap: settings.pageCap,
    commandPrefix: settings.commandPrefix,
    allowedRoles: settings.allowedRoles,
    apiUrl: settings.apiUrl,
    dryRun: settings.dryRun,
  };
  const result = await persistPlan(deps, persistSettings);
  if (!settings.dryRun && result.outcome !== 'gate-closed') {
    result.statusComment = await syncPersistStatus(deps, persistSettings, result);
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
    },
    ...(result.refusal === null ? {} : { refusal: result.refusal }),
  };
}
