import { parseAllowedRoles } from '../../approval/authorize.js';
import type { OnClosedPr } from '../../artifact/publish.js';
import { MAX_ARTIFACT_BYTES, publishArtifact } from '../../artifact/publish.js';
import { WritError } from '../../errors.js';
import { readInputFile } from '../../io/input-file.js';
import { validateRunId } from '../../plan/run-id.js';
import { code, escapeInline, fencedBlock } from '../../preview/markdown.js';
import { connect, readLedgerInputs } from '../connect.js';
import { readRunnerContext } from '../context.js';
import { failStep, runnerLogger, stageIo, writeSummary } from '../../io/action-io.js';
import { logUntrusted } from '../runner.js';

/** GitHub's limit on a pull request body, in characters; bytes bound it from above. */
const MAX_PR_BODY_BYTES = 4 * 65_536;

/** The publish-artifact action: one file, one bot branch, exactly one pull request. */
export async function run(): Promise<void> {
  const io = stageIo('publish-artifact');
  try {
    const context = readRunnerContext();
    const path = io.input('path');
    const onClosed = io.input('on-closed-pr');
    if (onClosed !== 'report' && onClosed !== 'open-new') {
      throw new WritError('invalid-input', "input 'on-closed-pr' must be report or open-new");
    }
    const prBodyFile = io.input('pr-body-file');
    const dryRun = io.booleanInput('dry-run');
    const allowWorkflowFiles = io.booleanInput('allow-workflow-files');
    const epoch = io.integerInput('epoch');
    if (epoch === undefined) throw new WritError('invalid-input', "input 'epoch' is required");
    const roots = { workspace: context.workspace, runnerTemp: context.runnerTemp };
    const content = readInputFile(io.input('content-file'), 'content-file', roots, MAX_ARTIFACT_BYTES);
    const prBody =
      prBodyFile === ''
        ? ''
        : readInputFile(prBodyFile, 'pr-body-file', roots, MAX_PR_BODY_BYTES).toString('utf8');
    const { github, ledger } = connect(context, readLedgerInputs(io), runnerLogger);
    const result = await publishArtifact(
      { github, ledger, logger: runnerLogger },
      {
        repository: context.repository,
        runId: validateRunId(io.input('run-id')),
        epoch,
        planFile: io.input('plan-file'),
        planRoots: roots,
        commandPrefix: io.input('command-prefix'),
        allowedRoles: parseAllowedRoles(io.input('allowed-roles')),
        path,
        allowWorkflowFiles,
        content,
        branch: io.input('branch'),
        base: io.input('base'),
        prTitle: io.input('pr-title'),
        prBody,
        onClosedPr: onClosed satisfies OnClosedPr,
        dryRun,
      },
    );
    const lines = [
      `## Writ artifact: ${escapeInline(path, 200)} (${result.outcome})`,
      '',
      `Branch ${code(result.branch)} → ${code(result.base)}, commit ${code(result.commitOid || '—')}, ` +
        (result.prNumber === null
          ? 'no pull request yet'
          : `pull request #${result.prNumber} ${result.prUrl}`),
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
      logUntrusted(`rendered ${path}:`, content.toString('utf8').slice(0, 20_000));
    }
    await writeSummary(`${lines.join('\n')}\n`);
    io.setOutputs({
      outcome: result.outcome,
      reason: '',
      'commit-oid': result.commitOid,
      'pr-number': result.prNumber ?? '',
      'pr-url': result.prUrl,
      branch: result.branch,
    });
  } catch (error: unknown) {
    const reason = failStep(error);
    const prUrl = error instanceof WritError ? error.details['pr-url'] : undefined;
    io.setOutputs({
      outcome: error instanceof WritError ? 'refused' : 'failed',
      reason,
      ...(typeof prUrl === 'string' ? { 'pr-url': prUrl } : {}),
    });
  }
}
