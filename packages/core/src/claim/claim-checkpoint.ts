/**
 * Fencing for a side effect the consumer performs itself (a dispatch to another system, a script):
 * `claim` a step at the holder's epoch before acting, pass the idempotency key on, `checkpoint` the
 * outcome after; `takeover` an expired run, `release` the lease when done. The checkpoint that leaves
 * every step done completes the run and releases the lease in that same ledger commit, so a `release`
 * after it (the templates' release job runs after every plan) finds nothing to release and says so.
 */
import { digest } from '../canonical-json.js';
import { WritError } from '../errors.js';
import type { HeldHead, LedgerContext, PlannedCommit, TransitionOutcome } from '../ledger/cas.js';
import { checkpointStep, claimStep, readRun, releaseLease, takeoverRun } from '../ledger/ledger.js';
import { isTerminal } from '../ledger/transitions.js';
import type { Holder, RunFile, StepOutcome } from '../ledger/types.js';

export const OPERATIONS = ['claim', 'checkpoint', 'takeover', 'release'] as const;
export type Operation = (typeof OPERATIONS)[number];
export const STEP_OUTCOMES: readonly StepOutcome[] = ['done', 'conflict', 'failed'];

export interface ClaimCheckpointSettings {
  repository: string;
  operation: Operation;
  runId: string;
  stepId?: string;
  /** The holder's epoch (claim, checkpoint, release). */
  epoch?: number;
  holder: Omit<Holder, 'run_id'>;
  outcome?: StepOutcome;
  statusCode?: number | null;
  errorCode?: string | null;
  resources?: number[];
  dryRun?: boolean;
}

export interface ClaimCheckpointResult {
  epoch: number;
  stepStatus: string;
  leaseExpiresAt: string;
  idempotencyKey: string;
  runState: string;
  ledgerHead: string | null;
  committed: boolean;
  needsReconciliation: boolean;
  /** A release of a run that had already ended and freed the lease: nothing was (or would be) written. */
  alreadyReleased: boolean;
  /** The ledger commit made, or (dry run) the one that would be made; null when nothing was to write. */
  commit: PlannedCommit | null;
  /** The run as the committed transition left it, and that commit's head (the status comment follows). */
  after: { run: RunFile; head: HeldHead | undefined } | null;
}

/** What the consumer hands its external system: stable per run, step and epoch, so a retry after a
 *  takeover (a new epoch) is distinguishable from a retry by the same holder. */
export function stepIdempotencyKey(repository: string, runId: string, stepId: string, epoch: number): string {
  return digest({ repository, run_id: runId, step_id: stepId, epoch });
}

function required<T>(value: T | undefined, name: string, operation: Operation): T {
  if (value === undefined)
    throw new WritError('invalid-input', `input '${name}' is required for operation '${operation}'`);
  return value;
}

export const SAFE_ERROR_CODE = /^[a-z0-9][a-z0-9-]{0,63}$/;

export async function runClaimCheckpoint(
  ledger: LedgerContext,
  settings: ClaimCheckpointSettings,
): Promise<ClaimCheckpointResult> {
  const holder: Holder = { run_id: settings.runId, ...settings.holder };
  const options = { dryRun: settings.dryRun === true };
  const { operation, runId, repository } = settings;
  let outcome: TransitionOutcome;
  switch (operation) {
    case 'claim':
      outcome = await claimStep(
        ledger,
        {
          runId,
          stepId: required(settings.stepId, 'step-id', operation),
          epoch: required(settings.epoch, 'epoch', operation),
          holder,
        },
        options,
      );
      break;
    case 'checkpoint': {
      const errorCode = settings.errorCode ?? null;
      if (errorCode !== null && !SAFE_ERROR_CODE.test(errorCode)) {
        throw new WritError(
          'invalid-input',
          "input 'error-code' must be a kebab-case code (it is stored in the ledger)",
        );
      }
      outcome = await checkpointStep(
        ledger,
        {
          runId,
          stepId: required(settings.stepId, 'step-id', operation),
          epoch: required(settings.epoch, 'epoch', operation),
          holder,
          outcome: required(settings.outcome, 'outcome', operation),
          evidence: { status_code: settings.statusCode ?? null, error_code: errorCode },
          resources: settings.resources ?? [],
        },
        options,
      );
      break;
    }
    case 'takeover':
      outcome = await takeoverRun(ledger, { runId, holder: settings.holder }, options);
      break;
    case 'release': {
      const epoch = required(settings.epoch, 'epoch', operation);
      try {
        outcome = await releaseLease(ledger, { runId, epoch, holder }, options);
      } catch (error: unknown) {
        const ended = await endedAt(ledger, error, runId, epoch);
        if (ended === null) throw error;
        return ended;
      }
      break;
    }
  }
  const run = outcome.result.run;
  const step = settings.stepId === undefined ? undefined : run?.steps.find((s) => s.id === settings.stepId);
  const epoch = outcome.result.epoch;
  return {
    epoch,
    stepStatus: step?.status ?? '',
    leaseExpiresAt: outcome.result.lease?.lease_expires_at ?? '',
    idempotencyKey:
      settings.stepId === undefined ? '' : stepIdempotencyKey(repository, runId, settings.stepId, epoch),
    runState: run?.state ?? '',
    ledgerHead: outcome.commitOid,
    committed: outcome.committed,
    needsReconciliation: outcome.result.needsReconciliation,
    alreadyReleased: false,
    commit: outcome.commit,
    after: outcome.committed && run !== null ? { run, head: outcome.held } : null,
  };
}

/**
 * A release refused as `fenced` because the run already ended at this epoch (its last checkpoint, or a
 * completion, freed the lease): the result that says there was nothing to release. Null otherwise.
 */
async function endedAt(
  ledger: LedgerContext,
  error: unknown,
  runId: string,
  epoch: number,
): Promise<ClaimCheckpointResult | null> {
  if (!(error instanceof WritError) || error.code !== 'fenced') return null;
  const { run, lease, headOid } = await readRun(ledger, runId);
  if (run === null || !isTerminal(run.state) || run.owner?.epoch !== epoch) return null;
  return {
    epoch,
    stepStatus: '',
    leaseExpiresAt: lease.holder?.run_id === runId ? (lease.lease_expires_at ?? '') : '',
    idempotencyKey: '',
    runState: run.state,
    ledgerHead: headOid,
    committed: false,
    needsReconciliation: false,
    alreadyReleased: true,
    commit: null,
    after: null,
  };
}
