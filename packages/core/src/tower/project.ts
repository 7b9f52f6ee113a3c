/**
 * The control tower's public-safe projection of the ledger (ops spec §15): an ALLOWLIST. Only these
 * fields leave the ledger, each re-checked against the exact form the ledger schema gives it (a run or
 * step ID, a catalogue-shaped code, a hex SHA, a `sha256:` digest, an ISO timestamp, a number, one of a
 * fixed set of states, kinds and risks), so that even a run file that somehow held other text could not
 * put it on the page: a value that fails its check is dropped (null) and counted in `withheld`.
 *
 * Never projected: anything a plan, a comment or a provider chose as free text. The ledger stores none
 * (SPEC §3: numbers, digests, logins, IDs and codes only), and the plan schema marks no field public, so
 * the tower takes nothing from a plan at all: no title, body, label, milestone title or comment. Also
 * left out although the ledger has them: logins and account IDs (approver, proposer, reconciler,
 * canceller), role names, comment IDs and URLs, workflow run IDs, resource numbers, idempotency keys and
 * the lease holder's workflow run — none is needed to see the state of the work, and a page published on
 * Pages may be public when the repository is not. Commit messages are read only through
 * `parseTrailers` (the transition, run and epoch it names); the message text itself never is.
 */
import { parseTrailers } from '../ledger/message.js';
import {
  BRANCH_PATTERN,
  LEASE_PATH,
  LEDGER_ROOT_PATH,
  PROVENANCE_PATH,
  runFilePath,
} from '../ledger/paths.js';
import type { CommitInfo } from '../ledger/store.js';
import { isTerminal } from '../ledger/transitions.js';
import type { RunFile, RunState, StepKind, StepStatus } from '../ledger/types.js';
import { STEP_KINDS } from '../plan/types.js';
import { evidencePermalink } from '../status-comment/evidence-link.js';
import type { TowerSnapshot } from './snapshot.js';

export const TOWER_SCHEMA = 1;

const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const STEP_ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const CODE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;
const TIMESTAMP = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{3})?Z$/;
const REPOSITORY = /^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}\/[A-Za-z0-9._-]{1,100}$/;

export const RUN_STATES: readonly RunState[] = [
  'proposed',
  'approved',
  'running',
  'needs-reconciliation',
  'completed',
  'failed',
  'cancelled',
];
export const STEP_STATUSES: readonly StepStatus[] = ['pending', 'claimed', 'done', 'conflict', 'failed'];
const RISKS = ['low', 'medium', 'high'] as const;
const RECEIPT_OUTCOMES = ['created', 'exists', 'inconclusive'] as const;

export interface TowerStep {
  id: string | null;
  kind: StepKind | null;
  status: StepStatus | null;
  epoch: number | null;
  error_code: string | null;
  receipt: (typeof RECEIPT_OUTCOMES)[number] | null;
}

export interface TowerRun {
  repository: string | null;
  run_id: string | null;
  state: RunState | null;
  /** The epoch of the run's current owner, else of its approval, else null. */
  epoch: number | null;
  proposed_at: string | null;
  approved_at: string | null;
  plan_digest: string | null;
  base_sha: string | null;
  risk: (typeof RISKS)[number] | null;
  warnings: string[];
  step_counts: Record<StepStatus, number>;
  steps: TowerStep[];
  stop_reason: string | null;
  blockers: string[];
  artifact_commit: string | null;
}

/** Why a run or step is listed as verification debt. */
export type DebtKind = 'needs-reconciliation' | 'claimed-unsettled' | 'stopped' | 'receipt-inconclusive';

export interface TowerDebt {
  run_id: string | null;
  step_id: string | null;
  kind: DebtKind;
  code: string | null;
}

export interface TowerFailure {
  run_id: string | null;
  step_id: string | null;
  code: string;
}

export interface TowerCommit {
  oid: string;
  committed_at: string | null;
  /** The transition its trailers name, or null when it carries no well-formed Writ trailers. */
  transition: string | null;
  run_id: string | null;
  epoch: number | null;
  /** The exact-commit permalink of the file the transition is about (a durable evidence link). */
  link: string | null;
}

/** What the recovery stage that built the site swept just before (absent: not recorded). */
export interface SweepRecord {
  head: string;
  proven: boolean;
  scanned: number;
  taken_over: number;
  needs_reconciliation: number;
  dry_run: boolean;
}

export interface TowerHealth {
  ledger_head: string;
  server_time: string;
  lease: { epoch: number; held: boolean; holder_run_id: string | null; expires_at: string | null };
  checkpoint: { verified_through: string | null; verified_commits: number | null } | null;
  frozen: { code: string | null; commit: string | null; frozen_at: string | null } | null;
  /** The sweep that built this site; null when the site was built otherwise (not recorded). */
  last_recovery_sweep: (SweepRecord & { at: string }) | null;
  /** The ledger records no doctor result: always null, shown as "not recorded". */
  doctor: null;
  timeline_truncated: boolean;
}

export interface TowerData {
  schema: typeof TOWER_SCHEMA;
  repository: string | null;
  branch: string | null;
  generated_at: string;
  runs: TowerRun[];
  active: string[];
  debt: TowerDebt[];
  failures: TowerFailure[];
  timeline: TowerCommit[];
  health: TowerHealth;
  /** How many values failed their allowlist check and were left out. */
  withheld: number;
}

export interface ProjectionSettings {
  /** GITHUB_SERVER_URL, for the timeline's permalinks. */
  serverUrl: string;
  /** When the site is generated (the injected clock), ms since the epoch. */
  generatedAt: number;
  /** The sweep the recovery stage ran just before, if it builds the site. */
  sweep?: SweepRecord;
}

/** One allowlist check; every value that fails one is counted. */
class Allow {
  withheld = 0;

  text(value: unknown, pattern: RegExp): string | null {
    if (typeof value === 'string' && pattern.test(value)) return value;
    if (value !== null && value !== undefined) this.withheld += 1;
    return null;
  }

  oneOf<T extends string>(value: unknown, allowed: readonly T[]): T | null {
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
    if (value !== null && value !== undefined) this.withheld += 1;
    return null;
  }

  count(value: unknown): number | null {
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
    if (value !== null && value !== undefined) this.withheld += 1;
    return null;
  }

  codes(values: unknown): string[] {
    if (!Array.isArray(values)) return [];
    return values.map((value) => this.text(value, CODE)).filter((value): value is string => value !== null);
  }
}

function iso(time: number | null): string | null {
  return time === null || !Number.isFinite(time) ? null : new Date(time).toISOString();
}

function projectRun(allow: Allow, run: RunFile): TowerRun {
  const steps: TowerStep[] = (Array.isArray(run.steps) ? run.steps : []).map((step) => ({
    id: allow.text(step.id, STEP_ID),
    kind: allow.oneOf(step.kind, STEP_KINDS),
    status: allow.oneOf(step.status, STEP_STATUSES),
    epoch: allow.count(step.epoch),
    error_code: allow.text(step.evidence?.error_code, CODE),
    receipt: allow.oneOf(step.receipt?.outcome, RECEIPT_OUTCOMES),
  }));
  const counts = Object.fromEntries(STEP_STATUSES.map((status) => [status, 0])) as Record<StepStatus, number>;
  for (const step of steps) if (step.status !== null) counts[step.status] += 1;
  return {
    repository: allow.text(run.repository, REPOSITORY),
    run_id: allow.text(run.run_id, RUN_ID),
    state: allow.oneOf(run.state, RUN_STATES),
    epoch: allow.count(run.owner?.epoch ?? run.approval?.epoch ?? null),
    proposed_at: allow.text(run.proposed_at, TIMESTAMP),
    approved_at: allow.text(run.approval?.consumed_at, TIMESTAMP),
    plan_digest: allow.text(run.plan_digest, DIGEST),
    base_sha: allow.text(run.preview?.base_sha, SHA),
    risk: allow.oneOf(run.preview?.risk, RISKS),
    warnings: allow.codes((run.preview?.warnings ?? []).map((warning) => warning.code)),
    step_counts: counts,
    steps,
    stop_reason: allow.text(run.stop_reason, CODE),
    blockers: allow.codes(run.blockers),
    artifact_commit: allow.text(run.artifact?.commit_oid, SHA),
  };
}

function debtOf(run: TowerRun): TowerDebt[] {
  const debt: TowerDebt[] = [];
  if (run.state === 'needs-reconciliation') {
    debt.push({ run_id: run.run_id, step_id: null, kind: 'needs-reconciliation', code: run.stop_reason });
  }
  for (const step of run.steps) {
    const entry = (kind: DebtKind, code: string | null): void => {
      debt.push({ run_id: run.run_id, step_id: step.id, kind, code });
    };
    if (step.status === 'claimed') entry('claimed-unsettled', step.error_code);
    if (step.status === 'conflict' || step.status === 'failed')
      entry('stopped', step.error_code ?? step.status);
    if (step.receipt === 'inconclusive') entry('receipt-inconclusive', null);
  }
  return debt;
}

function failuresOf(run: TowerRun): TowerFailure[] {
  const failures: TowerFailure[] = [];
  if (run.stop_reason !== null) failures.push({ run_id: run.run_id, step_id: null, code: run.stop_reason });
  for (const blocker of run.blockers) failures.push({ run_id: run.run_id, step_id: null, code: blocker });
  for (const step of run.steps) {
    if (step.error_code !== null)
      failures.push({ run_id: run.run_id, step_id: step.id, code: step.error_code });
  }
  return failures;
}

/** The ledger file a commit's transition is about: its run file, else the file that transition writes. */
function subjectPath(transition: string | null, runId: string | null, repository: string | null): string {
  if (runId !== null && repository !== null) return runFilePath(repository, runId);
  if (transition === 'bootstrap') return LEDGER_ROOT_PATH;
  if (transition === 'freeze') return PROVENANCE_PATH;
  return LEASE_PATH;
}

function projectCommit(
  allow: Allow,
  commit: CommitInfo,
  snapshot: TowerSnapshot,
  serverUrl: string,
): TowerCommit | null {
  const oid = allow.text(commit.oid, SHA);
  if (oid === null) return null;
  const trailers = parseTrailers(commit.message);
  const runId = trailers?.runId ?? null;
  const runRepository = trailers?.repository ?? (runId === null ? null : snapshot.repository);
  let link: string | null = null;
  try {
    link = evidencePermalink(
      serverUrl,
      snapshot.repository,
      oid,
      subjectPath(trailers?.transition ?? null, runId, runRepository),
    );
  } catch {
    allow.withheld += 1;
  }
  return {
    oid,
    committed_at: iso(commit.committedAt),
    transition: trailers?.transition ?? null,
    run_id: runId,
    epoch: trailers?.epoch ?? null,
    link,
  };
}

/** The public-safe data of the tower: tower.json as it is written, and what index.html shows. */
export function projectTower(snapshot: TowerSnapshot, settings: ProjectionSettings): TowerData {
  const allow = new Allow();
  const runs = snapshot.runs.map((run) => projectRun(allow, run));
  const timeline = snapshot.commits
    .map((commit) => projectCommit(allow, commit, snapshot, settings.serverUrl))
    .filter((commit): commit is TowerCommit => commit !== null);
  const { lease, checkpoint } = snapshot;
  const generatedAt = new Date(settings.generatedAt).toISOString();
  const sweep = settings.sweep;
  const health: TowerHealth = {
    ledger_head: allow.text(snapshot.headOid, SHA) ?? '',
    server_time: new Date(snapshot.serverTime).toISOString(),
    lease: {
      epoch: lease.epoch,
      held: lease.holder !== null,
      holder_run_id: allow.text(lease.holder?.run_id, RUN_ID),
      expires_at: allow.text(lease.lease_expires_at, TIMESTAMP),
    },
    checkpoint:
      checkpoint === null
        ? null
        : {
            verified_through: allow.text(checkpoint.verified_through, SHA),
            verified_commits: allow.count(checkpoint.verified_commits),
          },
    frozen:
      checkpoint?.frozen === undefined
        ? null
        : {
            code: allow.text(checkpoint.frozen.code, CODE),
            commit: allow.text(checkpoint.frozen.commit, SHA),
            frozen_at: allow.text(checkpoint.frozen.frozen_at, TIMESTAMP),
          },
    last_recovery_sweep:
      sweep === undefined
        ? null
        : {
            head: allow.text(sweep.head, SHA) ?? '',
            proven: sweep.proven,
            scanned: sweep.scanned,
            taken_over: sweep.taken_over,
            needs_reconciliation: sweep.needs_reconciliation,
            dry_run: sweep.dry_run,
            at: generatedAt,
          },
    doctor: null,
    timeline_truncated: snapshot.historyTruncated,
  };
  return {
    schema: TOWER_SCHEMA,
    repository: allow.text(snapshot.repository, REPOSITORY),
    branch: allow.text(snapshot.branch, BRANCH_PATTERN),
    generated_at: generatedAt,
    runs,
    active: runs
      .filter((run) => run.state !== null && !isTerminal(run.state))
      .map((run) => run.run_id)
      .filter((id): id is string => id !== null),
    debt: runs.flatMap(debtOf),
    failures: runs.flatMap(failuresOf),
    timeline,
    health,
    withheld: allow.withheld,
  };
}
