/**
 * The probe action (actions/probe/action.yml): the stale-write contract probe on an allow-listed
 * sandbox, and its evidence. Its inputs, `probeStage` (guard, cases, primitives, cleanup, through
 * probe/probe.ts `runProbe`; then the evidence file and the summary) and `run`, what the action's
 * bundle runs.
 */
import { WritError } from '../errors.js';
import { createGitHubClient } from '../github/client.js';
import type { StageIo } from '../io/action-io.js';
import { runnerLogger } from '../io/action-io.js';
import { parseRepository } from '../ledger/paths.js';
import type { CaseId, PrimitiveId } from '../probe/evidence.js';
import { validateEvidenceFile, writeEvidenceFile } from '../probe/evidence-file.js';
import { validateAllowlistFile } from '../probe/guard.js';
import type { ProbeDeps } from '../probe/probe.js';
import { WRIT_VERSION, parseCaseSelection, runProbe } from '../probe/probe.js';
import { kindVerdicts, renderEvidence, renderProbeSummary } from '../probe/render.js';
import { clientTimingFor } from './connect.js';
import { readRunnerContext } from './context.js';
import type { StageResult } from './runner.js';
import { runAction } from './runner.js';

export interface ProbeStageSettings {
  apiUrl: string;
  /** The repository the workflow runs in. */
  current: string;
  sandbox: string;
  confirmSandbox: string;
  allowlistFile: string;
  evidenceFile: string;
  workspace: string;
  cases: CaseId[];
  primitives: PrimitiveId[];
  token: string;
  repositoryToken: string;
  dryRun: boolean;
  probeRun: string;
  writ: { version: string; commit: string | null };
}

export function readProbeSettings(io: StageIo<'probe'>): ProbeStageSettings {
  const context = readRunnerContext();
  const sandbox = io.input('repository');
  parseRepository(sandbox, "input 'repository'");
  const confirmSandbox = io.input('confirm-sandbox');
  const allowlistFile = validateAllowlistFile(io.input('allowlist-file'));
  const evidenceFile = validateEvidenceFile(io.input('evidence-file'));
  const { cases, primitives } = parseCaseSelection(io.input('cases'));
  const dryRun = io.booleanInput('dry-run');
  const token = io.input('token');
  const repositoryToken = io.input('repository-token');
  if (token === '')
    throw new WritError('invalid-input', "input 'token' (the sandbox-only token) is required");
  if (repositoryToken === '' || repositoryToken.startsWith('${{')) {
    throw new WritError(
      'invalid-input',
      "input 'repository-token' (the workflow's token, contents: read, to read the allow-list) is required",
    );
  }
  // The Writ commit the action runs from, when the runner says (uses: …/actions/probe@<sha>).
  const ref = process.env.GITHUB_ACTION_REF ?? '';
  return {
    apiUrl: context.apiUrl,
    current: context.repository.full,
    sandbox,
    confirmSandbox,
    allowlistFile,
    evidenceFile,
    workspace: context.workspace,
    cases,
    primitives,
    token,
    repositoryToken,
    dryRun,
    probeRun: `gh-${context.workflowRunId}-${context.attempt}`,
    writ: { version: WRIT_VERSION, commit: /^[0-9a-f]{40}$/.test(ref) ? ref : null },
  };
}

/** Guard, cases, primitives, cleanup; then the evidence file in the workspace and the summary table. */
export async function probeStage(
  settings: ProbeStageSettings,
  deps: ProbeDeps,
): Promise<StageResult<'probe'>> {
  const result = await runProbe(deps, settings);
  if (result.kind === 'dry-run') {
    return {
      summary: [
        `## Writ probe: \`${settings.sandbox}\` (dry run: nothing written)`,
        '',
        `The guard passed: ${settings.sandbox} is confirmed, allow-listed in ${settings.allowlistFile} of ${settings.current}, and not this repository. Run with \`dry-run: false\` to:`,
        '',
        ...result.plan.map((line) => `- ${line}`),
        '',
      ].join('\n'),
      outputs: { outcome: 'dry-run', reason: '' },
    };
  }
  const { evidence } = result;
  const bytes = renderEvidence(evidence);
  const path = writeEvidenceFile(settings.workspace, settings.evidenceFile, bytes);
  const opens = kindVerdicts(evidence, new Date(Date.parse(evidence.finished_at)))
    .filter((verdict) => verdict.open)
    .map((verdict) => verdict.kind);
  return {
    // The evidence itself, for the owner to commit as `evidence-file` through a pull request.
    summary: `${renderProbeSummary(evidence, settings.evidenceFile, result.requests)}\n<details><summary>${settings.evidenceFile}</summary>\n\n\`\`\`json\n${bytes}\`\`\`\n\n</details>\n`,
    outputs: {
      outcome: 'probed',
      reason: '',
      'evidence-file': path,
      cases: evidence.cases.map((entry) => `${entry.id}=${entry.classification}`).join(','),
      primitives: evidence.primitives.map((entry) => `${entry.id}=${entry.classification}`).join(','),
      opens: opens.join(','),
      requests: result.requests,
      'cleanup-left': evidence.cleanup.left.length,
    },
  };
}

/** The probe action: the stale-write contract probe on an allow-listed sandbox, and its evidence. */
export async function run(): Promise<void> {
  await runAction('probe', {
    inputs: readProbeSettings,
    connect: (settings) => {
      // Every request once: a rate limit or a failure makes a case inconclusive, never a retried write.
      const options = {
        baseUrl: settings.apiUrl,
        logger: runnerLogger,
        rateLimitRetries: 0,
        ...clientTimingFor(settings.apiUrl),
      };
      return {
        sandboxGithub: createGitHubClient(settings.token, { ...options, throttleId: 'writ-probe-sandbox' }),
        repositoryGithub: createGitHubClient(settings.repositoryToken, {
          ...options,
          throttleId: 'writ-probe-repository',
        }),
        logger: runnerLogger,
      };
    },
    stage: probeStage,
  });
}
