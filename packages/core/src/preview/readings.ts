/**
 * What a writing preview reads of the repository before it renders (issue 32): the default branch and
 * its head commit (the base SHA the preview states and the ledger records), and, at exactly that commit,
 * the owner's policy and the probe evidence, read the way the persist gate reads them (through the
 * contents API, never from the workspace, which a pull request's checkout could fill with anything).
 * Reads only. A dry run reads none of it (assess.ts `dryRunReadings`).
 */
import { WritError, httpStatus } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import type { Clock } from '../ledger/cas.js';
import type { RepositoryName } from '../ledger/paths.js';
import { readDefaultBranchFile, readEvidence } from '../setup/default-branch-files.js';
import type { Plan, StepKind } from '../plan/types.js';
import { evidenceVerdict } from '../probe/evidence.js';
import { POLICY_KINDS, defaultPolicy, parsePolicy } from '../setup/policy.js';
import type { WritPolicy } from '../setup/policy.js';
import type { ClosedKind, PreviewReadings } from './assess.js';

export interface ReadingSettings {
  repository: RepositoryName;
  /** The API base URL (evidence recorded against another API opens nothing, as in the gate). */
  apiUrl: string;
  policyPath: string;
  evidencePath: string;
  gate: PreviewReadings['gate'];
}

/** The plan's policy kinds the persist gate would keep closed under `policy` and `evidence` now. */
function closedKinds(
  plan: Plan,
  policy: WritPolicy,
  evidenceText: string | null,
  now: Date,
  apiUrl: string,
): ClosedKind[] {
  const used = [...new Set(plan.steps.map((step) => step.kind))].filter(
    (kind): kind is (typeof POLICY_KINDS)[number] => (POLICY_KINDS as readonly StepKind[]).includes(kind),
  );
  const proofKinds = used.filter((kind) => policy.kinds[kind] === 'require-proof');
  const { evidence, why } = readEvidence(evidenceText);
  return evidenceVerdict(evidence, proofKinds, now, apiUrl).flatMap((verdict) =>
    verdict.open ? [] : [{ kind: verdict.kind, why: why ?? verdict.why }],
  );
}

/** The default branch's head commit. */
async function readBase(
  github: GitHubClient,
  repository: RepositoryName,
): Promise<{ branch: string; sha: string }> {
  try {
    const { data: repo } = await github.rest.repos.get({ ...repository });
    const branch = repo.default_branch;
    const { data: ref } = await github.rest.git.getRef({ ...repository, ref: `heads/${branch}` });
    return { branch, sha: ref.object.sha };
  } catch (error: unknown) {
    const status = httpStatus(error);
    throw new WritError(
      'github-request-failed',
      `reading the default branch's head of ${repository.owner}/${repository.repo} failed${status === undefined ? '' : ` with HTTP ${status}`}; nothing was proposed`,
      { cause: error },
    );
  }
}

/** The base SHA, then the policy and the evidence at that very commit. */
export async function readPreviewReadings(
  deps: { github: GitHubClient; clock: Clock },
  plan: Plan,
  settings: ReadingSettings,
): Promise<PreviewReadings & { base: { branch: string; sha: string } }> {
  const { github } = deps;
  const base = await readBase(github, settings.repository);
  const policyFile = await readDefaultBranchFile(github, settings.repository, base.sha, settings.policyPath);
  const path = settings.policyPath;
  const evidenceRead = async () => {
    const file = await readDefaultBranchFile(github, settings.repository, base.sha, settings.evidencePath);
    return { text: file.text, now: new Date(file.date ?? policyFile.date ?? deps.clock.now()) };
  };
  if (policyFile.text === null) {
    const { text, now } = await evidenceRead();
    return {
      base,
      policy: {
        path,
        state: 'absent',
        closed: closedKinds(plan, defaultPolicy(), text, now, settings.apiUrl),
      },
      gate: settings.gate,
    };
  }
  const { policy } = parsePolicy(policyFile.text);
  if (policy === undefined) return { base, policy: { path, state: 'invalid' }, gate: settings.gate };
  const { text, now } = await evidenceRead();
  return {
    base,
    policy: {
      path,
      state: 'valid',
      policy,
      closed: closedKinds(plan, policy, text, now, settings.apiUrl),
    },
    gate: settings.gate,
  };
}
