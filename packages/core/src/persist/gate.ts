/**
 * The persistence gate (SPEC §6): writes of a step kind open only when all hold — a consumed approval
 * for exactly this plan's digest, scope and bounds, held by this run at this epoch, whose source
 * comment, author and live permission re-verify (approval/gate.ts); the `persistence-enabled` flag;
 * and the policy for the kind: `require-proof` (the default) needs committed probe evidence, positive
 * and at most 30 days old on the server's clock, for every case covering the kind
 * (probe/evidence.ts `evidenceVerdict`); `best-effort` opens it with the residual window named.
 * The policy and the evidence are read from the default branch through the contents API, never from
 * the workspace (a pull request's checkout could carry anything). A flag, a label, an approval or a
 * mock alone never opens it.
 */
import { verifyApprovalGate } from '../approval/gate.js';
import { canonicalize } from '../canonical-json.js';
import { WritError } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import type { LedgerContext } from '../ledger/cas.js';
import type { RepositoryName } from '../ledger/paths.js';
import type { KeyScope, RunFile } from '../ledger/types.js';
import type { PlanBinding } from '../plan/binding.js';
import type { StepKind } from '../plan/types.js';
import type { KindVerdict } from '../probe/evidence.js';
import { evidenceVerdict } from '../probe/evidence.js';
import type { Logger } from '../redact.js';
import type { WritPolicy } from '../setup/policy.js';
import { readDefaultBranchFile, readEvidence, serverDate } from '../setup/default-branch-files.js';
import { POLICY_KINDS, defaultPolicy, parsePolicy } from '../setup/policy.js';

export type PersistKind = (typeof POLICY_KINDS)[number];

export interface GateSettings {
  repository: RepositoryName;
  runId: string;
  binding: PlanBinding;
  epoch: number;
  persistenceEnabled: boolean;
  policyPath: string;
  evidencePath: string;
  commandPrefix: string;
  allowedRoles: readonly string[];
  /** The API base URL the stage talks to (evidence recorded against another API opens nothing). */
  apiUrl: string;
}

export interface KindGate {
  kind: PersistKind;
  open: boolean;
  policy: 'require-proof' | 'best-effort';
  why: string;
}

export interface GateResult {
  run: RunFile;
  open: boolean;
  kinds: KindGate[];
  /** The code when closed: `live-writes-disabled` or `github-conditional-mutation-not-proven`. */
  code: 'live-writes-disabled' | 'github-conditional-mutation-not-proven' | null;
  /** The best-effort kinds that opened without proof: the residual window, for every summary. */
  residual: string[];
  /** Server time of the default-branch read (ms). */
  serverTime: number;
  /** How far a create's idempotency key reaches (the policy's `idempotency.key_scope`; `repository` by default). */
  keyScope: KeyScope;
}

/** What a `best-effort` kind risks, in one sentence each (printed in the summary and status comment). */
export const RESIDUAL: Record<PersistKind, string> = {
  'milestone.upsert':
    'a milestone edited between the pre-read and the write is overwritten (GitHub has no conditional milestone write); two concurrent creators both create only when neither sees the other within the same second',
  'milestone.edit':
    'a milestone edited by someone else between the pre-read and the write is overwritten (last write wins)',
  'issue.set-milestone':
    'an issue or its source or target milestone changed between the pre-read and the write is not detected (last write wins)',
  'issue.labels': 'a label change between the pre-read and the write is overwritten (last write wins)',
  'issue.create':
    'two truly concurrent creates of the same step can both land; the re-list retires the later ones, oldest wins',
  'comment.upsert':
    'a comment edited between the pre-read and the write is overwritten; two concurrent first posts can both land',
};

function isPersistKind(kind: StepKind): kind is PersistKind {
  return (POLICY_KINDS as readonly string[]).includes(kind);
}

function readPolicy(text: string | null, path: string): { policy: WritPolicy | null; why: string } {
  if (text === null)
    return { policy: defaultPolicy(), why: `${path} is absent: require-proof for every kind` };
  const { policy, problems } = parsePolicy(text);
  if (policy === undefined)
    return { policy: null, why: `${path} is invalid (${problems.slice(0, 3).join('; ')})` };
  return { policy, why: '' };
}

export async function checkPersistenceGate(
  deps: { github: GitHubClient; ledger: LedgerContext; logger: Logger },
  settings: GateSettings,
  kinds: readonly StepKind[],
): Promise<GateResult> {
  const { binding } = settings;
  const run = await verifyApprovalGate(deps, {
    repository: settings.repository,
    runId: settings.runId,
    planDigest: binding.digest,
    commandPrefix: settings.commandPrefix,
    allowedRoles: settings.allowedRoles,
  });
  if (
    canonicalize(binding.scope) !== canonicalize(run.scope) ||
    canonicalize(binding.bounds) !== canonicalize(run.bounds)
  ) {
    throw new WritError(
      'stale-or-mismatched-approval',
      `the scope or bounds of the plan recomputed now differ from run ${run.run_id}'s approved ones; a new dry-run plan is required`,
    );
  }
  if (run.owner === null || run.owner.epoch !== settings.epoch) {
    throw new WritError(
      'fenced',
      `epoch ${settings.epoch} does not hold run ${run.run_id} (it is held at epoch ${run.owner?.epoch ?? 'none'}); no write`,
      { details: { epoch: run.owner?.epoch ?? 0 } },
    );
  }
  const wanted = [...new Set(kinds.filter(isPersistKind))];
  const { data: repo, headers } = await deps.github.rest.repos.get({ ...settings.repository });
  const repoDate = serverDate(headers);
  const ref = repo.default_branch;
  const policyFile = await readDefaultBranchFile(deps.github, settings.repository, ref, settings.policyPath);
  const evidenceFile = await readDefaultBranchFile(
    deps.github,
    settings.repository,
    ref,
    settings.evidencePath,
  );
  const serverTime =
    evidenceFile.date ?? policyFile.date ?? (Number.isFinite(repoDate) ? repoDate : Date.now());
  const { policy, why: policyWhy } = readPolicy(policyFile.text, settings.policyPath);
  const { evidence, why: evidenceWhy } = readEvidence(evidenceFile.text);
  const verdicts = new Map<StepKind, KindVerdict>(
    evidenceVerdict(evidence, wanted, new Date(serverTime), settings.apiUrl).map((v) => [v.kind, v]),
  );
  const gates: KindGate[] = wanted.map((kind) => {
    const chosen = policy?.kinds[kind] ?? 'require-proof';
    if (!settings.persistenceEnabled)
      return { kind, open: false, policy: chosen, why: 'persistence-enabled is false' };
    if (policy === null) return { kind, open: false, policy: chosen, why: policyWhy };
    if (chosen === 'best-effort')
      return { kind, open: true, policy: chosen, why: 'best-effort (owner policy)' };
    const verdict = verdicts.get(kind);
    if (verdict?.open === true)
      return { kind, open: true, policy: chosen, why: `probe cases ${verdict.cases.join(', ')} positive` };
    const why = evidenceWhy ?? (verdict === undefined ? 'no verdict' : verdict.why);
    return { kind, open: false, policy: chosen, why };
  });
  const closed = gates.filter((gate) => !gate.open);
  const code =
    closed.length === 0
      ? null
      : !settings.persistenceEnabled || policy === null
        ? 'live-writes-disabled'
        : 'github-conditional-mutation-not-proven';
  deps.logger.info(
    `persistence gate: ${closed.length === 0 ? 'open' : `closed (${code ?? ''})`} for ${gates.map((g) => `${g.kind} ${g.open ? 'open' : 'closed'}`).join(', ') || 'no kind'}`,
  );
  return {
    run,
    open: closed.length === 0,
    kinds: gates,
    code,
    residual: gates
      .filter((g) => g.open && g.policy === 'best-effort')
      .map((g) => `\`${g.kind}\`: ${RESIDUAL[g.kind]}`),
    serverTime,
    keyScope: policy?.idempotency?.key_scope ?? 'repository',
  };
}
