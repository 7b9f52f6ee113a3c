import { writeFileSync } from 'node:fs';
import { ledgerStateOf, ledgerStateText } from '../../artifact/ledger-state.js';
import { publishArtifact as publish } from '../../artifact/publish.js';
import { digest } from '../../canonical-json.js';
import { loadPlanFile } from '../../plan/load.js';
import { WritError } from '../../errors.js';
import { readVerifiedRun } from '../../ledger/ledger.js';
import { code, escapeInline, fencedBlock } from '../../markdown.js';
import { renderPreview } from '../../preview/render.js';
import { followStatus } from '../../status-comment/follow.js';
import type { StageDeps } from '../connect.js';
import type { StageResult } from '../runner.js';
import type { PublishArtifactStageSettings } from './inputs.js';

/** One file, one bot branch, exactly one pull request. */
export async function publishArtifact(
  settings: PublishArtifactStageSettings,
  deps: Pick<StageDeps, 'github' | 'ledger' | 'logger'> & Partial<Pick<StageDeps, 'ownLogin'>>,
): Promise<StageResult<'publish-artifact'>> {
  const { path, content, dryRun } = settings;
  if (settings.ledgerStateFile !== undefined)
    return writeLedgerState(settings, settings.ledgerStateFile, deps);
  const result = await publish(
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
