/**
 * `runProbe`: the one core function behind the `probe` stage and `writ probe`. The guard first (reads
 * only); a dry run then says what it would create and run and writes nothing; otherwise every selected
 * case and primitive runs on its own fresh, marked resources, cleanup removes them by marker (also when
 * a case threw), and the evidence is assembled from server time alone.
 */
import type { GitHubClient } from '../github/client.js';
import type { Logger } from '../redact.js';
import { ProbeApi, serverTime } from './api.js';
import type { ProbeTarget } from './cases.js';
import { CASE_RESOURCES, runCase, runMarker } from './cases.js';
import { cleanupProbe } from './cleanup.js';
import type { CaseId, PrimitiveId, ProbeCase, ProbeEvidence, ProbePrimitive } from './evidence.js';
import { CASE_IDS, PRIMITIVE_IDS } from './evidence.js';
import type { SandboxInfo } from './guard.js';
import { guardSandbox } from './guard.js';
import { PRIMITIVE_SURFACES, probeBranch, runPrimitives } from './primitives.js';
import { WritError } from '../errors.js';

export { WRIT_VERSION } from '../version.js';

export const PROBE_RUN_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

export interface ProbeSettings {
  sandbox: string;
  confirmSandbox: string;
  /** The repository the workflow (or the operator) runs from; its allow-list governs. */
  current: string;
  allowlistFile: string;
  cases: readonly CaseId[];
  primitives: readonly PrimitiveId[];
  /** The per-run marker ID. */
  probeRun: string;
  dryRun: boolean;
  apiUrl: string;
  writ: { version: string; commit: string | null };
}

export interface ProbeDeps {
  sandboxGithub: GitHubClient;
  repositoryGithub: GitHubClient;
  logger: Logger;
}

export type ProbeResult =
  | { kind: 'dry-run'; sandbox: SandboxInfo; plan: string[] }
  | { kind: 'probed'; sandbox: SandboxInfo; evidence: ProbeEvidence; requests: number };

/** Parses the `cases` input: `all`, or comma-separated case and primitive IDs. */
export function parseCaseSelection(value: string): { cases: CaseId[]; primitives: PrimitiveId[] } {
  const words = value
    .split(',')
    .map((word) => word.trim())
    .filter((word) => word !== '');
  if (words.length === 0 || words.includes('all'))
    return { cases: [...CASE_IDS], primitives: [...PRIMITIVE_IDS] };
  const known = new Set<string>([...CASE_IDS, ...PRIMITIVE_IDS]);
  const unknown = words.filter((word) => !known.has(word));
  if (unknown.length > 0) {
    throw new WritError(
      'invalid-input',
      `input 'cases' must be all or a comma-separated list of ${[...CASE_IDS, ...PRIMITIVE_IDS].join(', ')} (got ${unknown.length} unknown)`,
    );
  }
  return {
    cases: CASE_IDS.filter((id) => words.includes(id)),
    primitives: PRIMITIVE_IDS.filter((id) => words.includes(id)),
  };
}

export function validateProbeRun(value: string): string {
  if (!PROBE_RUN_PATTERN.test(value)) {
    throw new WritError(
      'invalid-input',
      `the probe run ID must be 1-64 of [a-z0-9-] (got ${value.length} characters)`,
    );
  }
  return value;
}

function dryRunPlan(settings: ProbeSettings, sandbox: SandboxInfo): string[] {
  const marker = runMarker(settings.probeRun);
  return [
    `Every resource carries ${marker} (issues, milestones) or the name writ-probe-${settings.probeRun}… (label, branch), and cleanup removes exactly those.`,
    ...settings.cases.map((id) => `case ${id}: creates ${CASE_RESOURCES[id]}`),
    ...(settings.primitives.length === 0
      ? []
      : [
          `primitives (${settings.primitives.join(', ')}): branch ${probeBranch(settings.probeRun)} from ${sandbox.defaultBranch}, 5 unreachable commits, then ${settings.primitives.map((id) => PRIMITIVE_SURFACES[id]).join('; ')}`,
        ]),
  ];
}

export async function runProbe(deps: ProbeDeps, settings: ProbeSettings): Promise<ProbeResult> {
  validateProbeRun(settings.probeRun);
  const sandbox = await guardSandbox(
    { repositoryGithub: deps.repositoryGithub, sandboxGithub: deps.sandboxGithub },
    settings,
  );
  if (settings.dryRun) return { kind: 'dry-run', sandbox, plan: dryRunPlan(settings, sandbox) };
  const api = new ProbeApi(deps.sandboxGithub);
  const target: ProbeTarget = { owner: sandbox.owner, repo: sandbox.repo, runId: settings.probeRun };
  const cases: ProbeCase[] = [];
  let primitives: ProbePrimitive[] = [];
  let cleanup;
  try {
    for (const id of settings.cases) {
      const result = await runCase(api, target, id);
      deps.logger.info(
        `case ${id}: ${result.classification} (${result.attempts.map((a) => a.reason).join(', ')})`,
      );
      cases.push(result);
    }
    primitives = await runPrimitives(
      api,
      target,
      { repositoryNodeId: sandbox.nodeId, defaultBranch: sandbox.defaultBranch },
      settings.primitives,
    );
    for (const result of primitives) deps.logger.info(`primitive ${result.id}: ${result.classification}`);
  } finally {
    cleanup = await cleanupProbe(api, target);
    deps.logger.info(`cleanup: removed ${cleanup.removed}, left ${cleanup.left.length}`);
  }
  const first = sandbox.serverTime ?? api.serverTimes[0] ?? 0;
  const last = api.serverTimes[api.serverTimes.length - 1] ?? first;
  const evidence: ProbeEvidence = {
    schema: 1,
    sandbox: `${sandbox.owner}/${sandbox.repo}`,
    api_url: settings.apiUrl.replace(/\/+$/, ''),
    writ: settings.writ,
    probe_run: settings.probeRun,
    started_at: serverTime(first),
    finished_at: serverTime(last),
    cases,
    primitives,
    cleanup: { removed: cleanup.removed, left: cleanup.left.slice(0, 100) },
  };
  return { kind: 'probed', sandbox, evidence, requests: api.requests };
}
