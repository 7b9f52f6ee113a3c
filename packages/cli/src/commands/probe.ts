/**
 * `writ probe`: the probe stage's core function (`runProbe`) for an operator, and `writ probe --explain
 * <evidence-file>`: which step kinds an evidence file opens under require-proof, and why not.
 */
import { readFileSync } from 'node:fs';
import { WritError, errorMessage } from '@writ/core/errors.js';
import { validateApiUrl } from '@writ/core/github/api-url.js';
import { createGitHubClient } from '@writ/core/github/client.js';
import type { ProbeEvidence } from '@writ/core/probe/evidence.js';
import { evidenceProblems } from '@writ/core/probe/evidence.js';
import { writeEvidenceFile } from '@writ/core/probe/evidence-file.js';
import { validateAllowlistFile } from '@writ/core/probe/guard.js';
import { WRIT_VERSION, parseCaseSelection, runProbe, validateProbeRun } from '@writ/core/probe/probe.js';
import { renderEvidence, renderExplain, renderProbeSummary } from '@writ/core/probe/render.js';
import { ALLOWLIST_PATH } from '@writ/core/setup/files.js';
import { EVIDENCE_PATH } from '@writ/core/probe/evidence.js';
import { silentLogger } from '@writ/core/redact.js';
import { clientTimingFor } from '@writ/core/stages/connect.js';
import { parseOptions, repositoryFrom } from '../args.js';
import type { CliEnv, CliIo } from '../cli-io.js';
import { PROBE_HELP } from '../help.js';
import { repositoryTarget } from '../repository.js';

const OPTIONS = {
  repo: { type: 'string' },
  'confirm-sandbox': { type: 'string' },
  from: { type: 'string' },
  remote: { type: 'string' },
  'github-host': { type: 'string' },
  'allowlist-file': { type: 'string' },
  'evidence-file': { type: 'string' },
  cases: { type: 'string' },
  'probe-run': { type: 'string' },
  apply: { type: 'boolean' },
  explain: { type: 'string' },
  now: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function explain(path: string, nowText: string | undefined, io: CliIo, json: boolean): number {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (error: unknown) {
    throw new WritError(
      'invalid-input',
      `cannot read the evidence file ${JSON.stringify(path.slice(0, 200))}: ${errorMessage(error)}`,
    );
  }
  const problems = evidenceProblems(value);
  if (problems.length > 0) {
    throw new WritError(
      'invalid-input',
      `the evidence file does not validate against schemas/probe-evidence.schema.json: ${problems.join('; ')}`,
    );
  }
  const now = nowText === undefined ? new Date() : new Date(nowText);
  if (!Number.isFinite(now.getTime()))
    throw new WritError('invalid-input', 'Invalid --now. Expected an ISO 8601 time.');
  const text = renderExplain(value as ProbeEvidence, now);
  io.stdout(json ? `${JSON.stringify({ explain: text.trimEnd().split('\n') }, null, 2)}\n` : text);
  return 0;
}

export async function runProbeCommand(args: readonly string[], env: CliEnv, io: CliIo): Promise<number> {
  const values = parseOptions(args, OPTIONS);
  if (values.help === true) {
    io.stdout(PROBE_HELP);
    return 0;
  }
  if (values.explain !== undefined) return explain(values.explain, values.now, io, values.json === true);
  const sandbox = repositoryFrom(values.repo, {});
  // The repository whose allow-list governs: --from, else found as every command finds its repository.
  const current = repositoryTarget(
    { repo: values.from, remote: values.remote, 'github-host': values['github-host'] },
    env,
  ).repository;
  const token = env.GITHUB_TOKEN ?? '';
  if (token === '') {
    throw new WritError(
      'invalid-input',
      `GITHUB_TOKEN (the sandbox-only token) is not set: export GITHUB_TOKEN=<a token that reaches only ${sandbox}>; the API is ${env.GITHUB_API_URL || 'https://api.github.com'} (GITHUB_API_URL).`,
    );
  }
  const apiUrl = validateApiUrl(env.GITHUB_API_URL || 'https://api.github.com', 'GITHUB_API_URL');
  const { cases, primitives } = parseCaseSelection(values.cases ?? 'all');
  const probeRun = validateProbeRun(values['probe-run'] ?? `cli-${Date.now().toString(36)}`);
  const allowlistFile = validateAllowlistFile(values['allowlist-file'] ?? ALLOWLIST_PATH);
  const options = { baseUrl: apiUrl, rateLimitRetries: 0, ...clientTimingFor(apiUrl) };
  const sandboxGithub = createGitHubClient(token, { ...options, throttleId: 'writ-probe-cli-sandbox' });
  const repositoryToken = env.WRIT_REPOSITORY_TOKEN || token;
  const repositoryGithub = createGitHubClient(repositoryToken, {
    ...options,
    throttleId: 'writ-probe-cli-repository',
  });
  const result = await runProbe(
    { sandboxGithub, repositoryGithub, logger: silentLogger },
    {
      sandbox,
      confirmSandbox: values['confirm-sandbox'] ?? '',
      current,
      allowlistFile,
      cases,
      primitives,
      probeRun,
      dryRun: values.apply !== true,
      apiUrl,
      writ: { version: WRIT_VERSION, commit: null },
    },
  );
  if (result.kind === 'dry-run') {
    const lines = [
      `writ probe ${sandbox} (dry run: nothing written; --apply to run):`,
      ...result.plan.map((line) => `  ${line}`),
    ];
    io.stdout(
      values.json === true
        ? `${JSON.stringify({ dry_run: true, plan: result.plan }, null, 2)}\n`
        : `${lines.join('\n')}\n`,
    );
    return 0;
  }
  const evidencePath = values['evidence-file'] ?? EVIDENCE_PATH;
  const written = writeEvidenceFile(process.cwd(), evidencePath, renderEvidence(result.evidence));
  io.stdout(
    values.json === true
      ? renderEvidence(result.evidence)
      : `${renderProbeSummary(result.evidence, evidencePath, result.requests)}\nwritten: ${written}\n`,
  );
  return 0;
}
