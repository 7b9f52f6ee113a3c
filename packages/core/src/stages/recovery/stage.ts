import type { RecoveryReport } from '../../recovery/recover.js';
import { recoverRuns } from '../../recovery/recover.js';
import { code } from '../../markdown.js';
import type { StageResult } from '../runner.js';
import type { RecoveryStageDeps } from './connect.js';
import type { RecoveryStageSettings } from './inputs.js';

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
export async function recovery(
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
    },
  );
  return {
    summary: renderRecoverySummary(report),
    outputs: {
      scanned: report.scanned,
      'taken-over': report.takenOver,
      reconciled: report.reconciled,
      'needs-reconciliation': report.needsReconciliation,
      'resumable-runs': JSON.stringify(report.resumable),
      'approvals-recovered': report.approvalsRecovered,
      repaired: report.repaired,
      outcome: !report.ledger.proven ? 'refused' : settings.dryRun ? 'dry-run' : 'swept',
      reason: report.ledger.proven ? '' : 'ledger-frozen',
    },
  };
}
