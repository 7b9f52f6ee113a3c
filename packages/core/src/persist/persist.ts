/**
 * persist: an approved plan's GitHub writes, executed once, in order, behind the gate (gate.ts).
 *
 * Per step: claim (epoch-fenced ledger transition; `claimWindow` consecutive steps per commit) → pre-read
 * the full read set and compare it with the step's `expect` (a difference: the step is `conflict`, the
 * run stops, no write) → the one write, sent with the client's retries off → when its outcome is unknown
 * (a 5xx, a dropped connection) read back before anything else; a write is sent again only after the
 * read-back shows the pre-state unchanged, never blindly → post-read: the desired state must be observed
 * (unchanged is `write-silently-dropped`) → checkpoint (status code, a sanitized error code, the numbers
 * it created or touched; never a body). An identical desired state is done with no write. The last
 * checkpoint completes the run and releases the lease in the same commit.
 *
 * Resumption: a re-run with the same run ID and holder continues from the first step not done; a step
 * it left `claimed` is reconciled by reading (steps.ts, the same reads `observeStep` makes): desired →
 * done; pre-state → write (a create: after its marker pre-check); anything else → it stays claimed and
 * the run stops at `needs-reconciliation` for a repository writer.
 */
import { digest } from '../canonical-json.js';
import type { ErrorCode } from '../errors.js';
import { WritError, failureMessage, httpStatus } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import { writeOutcome } from '../github/commit-on-branch.js';
import type { HeldHead, LedgerContext, TransitionOutcome } from '../ledger/cas.js';
import { claimCommittedAt } from '../ledger/claim-time.js';
import { checkpointSteps, claimStep, claimSteps, completeRun } from '../ledger/ledger.js';
import type { RepositoryName } from '../ledger/paths.js';
import type { Holder, RunFile, RunStep, StepOutcome } from '../ledger/types.js';
import type { PlanBinding } from '../plan/binding.js';
import { bindPlan } from '../plan/binding.js';
import type { Plan, PlanStep } from '../plan/types.js';
import { renderPreview } from '../preview/render.js';
import type { Logger } from '../redact.js';
import { RESIDUAL_START } from '../recovery/repair-status.js';
import { followStatus } from '../status-comment/follow.js';
import type { GateResult } from './gate.js';
import { checkPersistenceGate } from './gate.js';
import { milestoneKeysOf } from './observe.js';
import type { Assessment, StepReadContext, WritableStep } from './steps.js';
import { assessStep, preStateDigest, readsWriteOf, retireDuplicates } from './steps.js';

export interface PersistSettings {
  repository: RepositoryName;
  runId: string;
  plan: Plan;
  epoch: number;
  holder: Omit<Holder, 'run_id'>;
  persistenceEnabled: boolean;
  policyPath: string;
  evidencePath: string;
  maxSteps: number;
  claimWindow: number;
  pageCap: number;
  commandPrefix: string;
  allowedRoles: readonly string[];
  apiUrl: string;
  dryRun: boolean;
}

export interface PersistDeps {
  github: GitHubClient;
  ledger: LedgerContext;
  logger: Logger;
  /** Writ's own login (`<app slug>[bot]`). */
  ownLogin: string;
  /**
   * Called after each write has been sent and before its checkpoint (the demo's in-process kill: a
   * throw here leaves the step claimed with its write landed, exactly like a crashed runner).
   */
  afterWrite?: (stepId: string) => void | Promise<void>;
  /**
   * Called after a window of steps was claimed (their pre-states read and digested) and before any of
   * them is written (the test hook's crash between a claim and its write: the steps stay claimed with
   * nothing written).
   */
  afterClaim?: (stepIds: readonly string[]) => void | Promise<void>;
}

export type PersistOutcome = 'completed' | 'waiting-external' | 'stopped' | 'gate-closed' | 'dry-run';

export interface StepReport {
  id: string;
  kind: PlanStep['kind'];
  /** What this invocation did with the step. */
  result: StepOutcome | 'claimed' | 'planned' | 'no-op' | 'waiting';
  write: string | null;
  statusCode: number | null;
  errorCode: string | null;
  resources: number[];
  diff: string[];
  notes: string[];
  /** Writes sent for the step in this invocation (0 for a no-op). */
  writes: number;
}

export interface PersistResult {
  outcome: PersistOutcome;
  /** A catalogue code when the run stopped or the gate is closed; empty otherwise. */
  reason: string;
  stepsDone: number;
  stepsTotal: number;
  nextStep: string;
  /** Step ID → the number or ID it created or touched first. */
  created: Record<string, number>;
  steps: StepReport[];
  gate: GateResult | null;
  ledgerCommits: number;
  /** A coded refusal to fail the action with after the outputs are written. */
  refusal: WritError | null;
  /** What became of the status comment (its summary line). */
  statusComment: string;
  /** A status comment update of this invocation failed: no other is attempted in it. */
  statusFailed: boolean;
}

const CREATING_KINDS: readonly PlanStep['kind'][] = ['milestone.upsert', 'issue.create', 'comment.upsert'];

/** `bounds-exceeded` unless the plan stays inside its approved bounds (checked before the first write). */
export function checkBounds(plan: Plan): void {
  const { bounds, steps } = plan;
  const creates = steps.filter(
    (step) =>
      step.kind === 'issue.create' ||
      ((step.kind === 'milestone.upsert' || step.kind === 'comment.upsert') && step.expect?.exists !== true),
  ).length;
  const issues = new Set<number>();
  for (const step of steps) {
    if (step.kind === 'issue.set-milestone' || step.kind === 'issue.labels' || step.kind === 'comment.upsert')
      issues.add(step.issue);
  }
  const touched = issues.size + steps.filter((step) => step.kind === 'issue.create').length;
  const over: string[] = [];
  if (steps.length > bounds.max_steps) over.push(`${steps.length} steps > max_steps ${bounds.max_steps}`);
  if (bounds.max_creates !== undefined && creates > bounds.max_creates)
    over.push(`up to ${creates} creates > max_creates ${bounds.max_creates}`);
  if (bounds.max_issues_touched !== undefined && touched > bounds.max_issues_touched)
    over.push(`${touched} issues touched > max_issues_touched ${bounds.max_issues_touched}`);
  if (over.length > 0) {
    throw new WritError(
      'bounds-exceeded',
      `the plan exceeds its bounds (${over.join('; ')}); nothing was written`,
    );
  }
}

interface StepRun {
  status: StepOutcome | 'unknown';
  statusCode: number | null;
  errorCode: string | null;
  /** Why the run stops here (unknown outcomes and failures). */
  stopCode: ErrorCode | null;
  resources: number[];
  diff: string[];
  notes: string[];
  write: string | null;
  writes: number;
}

function codeForStatus(status: number | undefined): string {
  return status === undefined ? 'no-response' : `http-${status}`;
}

export async function persistPlan(deps: PersistDeps, settings: PersistSettings): Promise<PersistResult> {
  const { github, ledger, logger } = deps;
  const { plan, runId, repository } = settings;
  if (plan.scope.repository.toLowerCase() !== `${repository.owner}/${repository.repo}`.toLowerCase()) {
    throw new WritError(
      'invalid-input',
      `the plan writes to ${plan.scope.repository}, not to this repository (${repository.owner}/${repository.repo})`,
    );
  }
  const binding: PlanBinding = bindPlan(plan);
  const gate = await checkPersistenceGate(
    deps,
    {
      repository,
      runId,
      binding,
      epoch: settings.epoch,
      persistenceEnabled: settings.persistenceEnabled,
      policyPath: settings.policyPath,
      evidencePath: settings.evidencePath,
      commandPrefix: settings.commandPrefix,
      allowedRoles: settings.allowedRoles,
      apiUrl: settings.apiUrl,
    },
    plan.steps.map((step) => step.kind),
  );
  checkBounds(plan);
  let run = gate.run;
  const holder: Holder = { run_id: runId, ...settings.holder };
  const reports: StepReport[] = [];
  let ledgerCommits = 0;
  const keys = milestoneKeysOf(plan, run);
  // The lower bound of a create's marker pre-check: the window's first claim on the server clock, once
  // known (claimedAt below); until then, and should the ledger not tell, the approval's consume time.
  let claimedAt: string | null = null;
  const context = (precheck: boolean): StepReadContext => ({
    owner: repository.owner,
    repo: repository.repo,
    ownLogin: deps.ownLogin,
    pageCap: settings.pageCap,
    createdAfter: claimedAt ?? run.approval?.consumed_at ?? null,
    milestoneKeys: keys,
    precheck,
    runId,
  });
  const planStep = (index: number): PlanStep => plan.steps[index] as PlanStep;
  // One status comment update per claim window; after a failed one, none until the next invocation
  // (the ledger stands; the stage's end or the next stage or recovery repairs the comment).
  const statusLines: string[] = [];
  let statusFailed = false;
  const followWindow = async (after: { run: RunFile; head: HeldHead | undefined }): Promise<void> => {
    if (statusFailed || (after.run.status_comment ?? null) === null) return;
    const followed = await followStatus(deps, {
      repository,
      runId,
      ownLogin: deps.ownLogin,
      preview: persistPreview(settings, gate),
      after,
    });
    if (!followed.ok) {
      statusFailed = true;
      statusLines.push(followed.line);
    }
  };

  const finish = (outcome: PersistOutcome, reason: string, refusal: WritError | null): PersistResult => {
    const firstOpen = run.steps.find((step) => step.status !== 'done');
    const created: Record<string, number> = {};
    plan.steps.forEach((step, index) => {
      const number = run.steps[index]?.resources[0];
      if (CREATING_KINDS.includes(step.kind) && number !== undefined) created[step.id] = number;
    });
    return {
      outcome,
      reason,
      stepsDone: run.steps.filter((step) => step.status === 'done').length,
      stepsTotal: run.steps.length,
      nextStep: firstOpen?.id ?? '',
      created,
      steps: reports,
      gate,
      ledgerCommits,
      // The refusal carries the outcome, so the action reports `stopped` / `gate-closed`, not `refused`.
      refusal:
        refusal === null
          ? null
          : new WritError(refusal.code, refusal.message, { details: { ...refusal.details, outcome } }),
      statusComment: statusLines.join(' '),
      statusFailed,
    };
  };

  if (!gate.open) {
    const code = gate.code ?? 'live-writes-disabled';
    const closed = gate.kinds.filter((kind) => !kind.open);
    return finish(
      'gate-closed',
      code,
      new WritError(
        code,
        `the persistence gate is closed for ${closed.map((kind) => `${kind.kind} (${kind.why})`).join('; ')}; nothing was written`,
        { details: { outcome: 'gate-closed' } },
      ),
    );
  }
  if (run.state === 'completed') return finish('completed', '', null);
  if (run.state === 'needs-reconciliation') {
    return finish(
      'stopped',
      'needs-reconciliation',
      new WritError('needs-reconciliation', `run ${runId} needs reconciliation by a repository writer`),
    );
  }
  if (run.state !== 'approved' && run.state !== 'running') {
    return finish(
      'stopped',
      'invalid-transition',
      new WritError(
        'invalid-transition',
        `run ${runId} is ${run.state} (${run.stop_reason ?? 'no reason'}); nothing to persist`,
      ),
    );
  }

  if (settings.dryRun) return finish('dry-run', '', await dryRun());

  async function dryRun(): Promise<null> {
    let budget = settings.maxSteps;
    for (const [index, record] of run.steps.entries()) {
      if (record.status === 'done' || budget === 0) continue;
      const step = planStep(index);
      if (step.kind === 'external') {
        reports.push(report(step, 'waiting', emptyRun()));
        break;
      }
      budget -= 1;
      const assessment = await assessStep(github, context(record.status === 'claimed'), step);
      const outcome = assessment.desired ? 'no-op' : 'planned';
      reports.push(
        report(step, outcome, {
          ...emptyRun(),
          diff: assessment.diff,
          notes: assessment.notes,
          resources: assessment.resources,
          write: assessment.desired ? null : (assessment.write?.describe ?? null),
        }),
      );
    }
    return null;
  }

  let budget = settings.maxSteps;
  for (;;) {
    const claimed = run.steps.filter((step) => step.status === 'claimed');
    let window: RunStep[];
    let resumed: boolean;
    // A fresh window's pre-reads, made before its claim so the claim records each step's digest.
    const preRead = new Map<string, Assessment>();
    if (claimed.length > 0) {
      const foreign = claimed.find((step) => step.epoch !== settings.epoch);
      if (foreign !== undefined) {
        return finish(
          'stopped',
          'needs-reconciliation',
          new WritError(
            'needs-reconciliation',
            `step ${foreign.id} was claimed by epoch ${foreign.epoch ?? '?'}, not ${settings.epoch}`,
          ),
        );
      }
      const external = claimed.find((step) => step.kind === 'external');
      if (external !== undefined) return finish('waiting-external', '', null);
      window = claimed;
      resumed = true;
      // Claimed by an earlier invocation: the claim commit's date bounds a create's pre-check.
      if (window.some((step) => step.kind === 'issue.create')) {
        const at = await claimCommittedAt(ledger, runId);
        claimedAt = at === null ? null : new Date(at).toISOString();
      }
    } else {
      const nextIndex = run.steps.findIndex((step) => step.status === 'pending');
      if (nextIndex === -1) return await complete();
      if (run.steps[nextIndex]?.kind === 'external') return finish('waiting-external', '', null);
      if (budget <= 0) return finish('stopped', '', null);
      window = [];
      const digests: Record<string, string | null> = {};
      for (
        let index = nextIndex;
        index < run.steps.length && window.length < Math.min(settings.claimWindow, budget);
        index += 1
      ) {
        const record = run.steps[index] as RunStep;
        if (record.status !== 'pending' || record.kind === 'external') break;
        const step = planStep(index) as WritableStep;
        // A step whose pre-read could see an earlier window step's write waits for the next window.
        if (
          window.some((earlier) => readsWriteOf(step, planStep(run.steps.indexOf(earlier)) as WritableStep))
        )
          break;
        let before: Assessment;
        try {
          before = await assessStep(github, context(false), step);
        } catch (error: unknown) {
          if (window.length > 0) break;
          logger.warning(`step ${step.id}: reading its pre-state failed: ${failureMessage(error)}`);
          return finish(
            'stopped',
            'github-request-failed',
            new WritError(
              'github-request-failed',
              `run ${runId} stopped before claiming step ${step.id}: reading its pre-state failed (${codeForStatus(httpStatus(error))})`,
            ),
          );
        }
        preRead.set(record.id, before);
        digests[record.id] = preStateDigest(before);
        window.push(record);
      }
      const first = window[0] as RunStep;
      const claimedOutcome: TransitionOutcome =
        window.length === 1
          ? await claimStep(ledger, {
              runId,
              stepId: first.id,
              epoch: settings.epoch,
              holder,
              preStateDigest: digests[first.id] ?? null,
            })
          : await claimSteps(ledger, {
              runId,
              stepIds: window.map((step) => step.id),
              epoch: settings.epoch,
              holder,
              preStateDigests: digests,
            });
      ledgerCommits += 1;
      run = claimedOutcome.result.run ?? run;
      resumed = false;
      claimedAt = new Date(claimedOutcome.serverTime).toISOString();
      // The status comment follows each claim window (once), before any of its writes: a job killed
      // from here on leaves a comment that shows the steps it claimed.
      if (claimedOutcome.result.run !== null) {
        await followWindow({ run: claimedOutcome.result.run, head: claimedOutcome.held });
      }
      await deps.afterClaim?.(window.map((step) => step.id));
    }
    budget -= window.length;

    const outcomes: { record: RunStep; run: StepRun }[] = [];
    let stopAt: StepRun | null = null;
    for (const record of window) {
      const index = run.steps.findIndex((step) => step.id === record.id);
      const step = planStep(index) as WritableStep;
      if (stopAt !== null) {
        // Claimed with this window but never attempted: recorded as such when the run stops.
        outcomes.push({
          record,
          run: {
            ...emptyRun(),
            status: stopAt.status === 'unknown' ? 'unknown' : 'failed',
            errorCode: 'not-attempted',
          },
        });
        continue;
      }
      const claimedRecord = run.steps[index] as RunStep;
      const result = await executeStep(
        step,
        resumed,
        claimedRecord.pre_state_digest ?? null,
        preRead.get(record.id),
      );
      outcomes.push({ record, run: result });
      reports.push(report(step, result.status === 'unknown' ? 'claimed' : result.status, result));
      if (result.status === 'done' && step.kind === 'milestone.upsert' && result.resources[0] !== undefined)
        keys.set(step.key, result.resources[0]);
      if (result.status !== 'done') stopAt = result;
    }

    const definite = outcomes.filter((entry) => entry.run.status !== 'unknown');
    const unknown = outcomes.some((entry) => entry.run.status === 'unknown');
    const failedRun = definite.find((entry) => entry.run.status !== 'done');
    const doneAfter = new Set([
      ...run.steps.filter((step) => step.status === 'done').map((step) => step.id),
      ...definite.filter((entry) => entry.run.status === 'done').map((entry) => entry.record.id),
    ]);
    const allDone = !unknown && run.steps.every((step) => doneAfter.has(step.id));
    const finishRun = unknown
      ? null
      : failedRun !== undefined
        ? { state: 'failed' as const, stopReason: failedRun.run.stopCode ?? 'failed' }
        : allDone
          ? { state: 'completed' as const, stopReason: null }
          : null;
    if (definite.length > 0 || finishRun !== null) {
      const committed = await checkpointSteps(ledger, {
        runId,
        epoch: settings.epoch,
        holder,
        steps: definite.map((entry) => ({
          stepId: entry.record.id,
          outcome: entry.run.status as StepOutcome,
          evidence: { status_code: entry.run.statusCode, error_code: entry.run.errorCode },
          resources: entry.run.resources.slice(0, 100),
        })),
        finish: finishRun,
      });
      ledgerCommits += 1;
      run = committed.result.run ?? run;
    }
    if (stopAt !== null) {
      const code = stopAt.stopCode ?? 'write-outcome-unknown';
      return finish(
        'stopped',
        code,
        new WritError(
          code,
          `run ${runId} stopped at step ${outcomes.find((entry) => entry.run === stopAt)?.record.id ?? '?'}: ${stopAt.diff[0] ?? code}`,
        ),
      );
    }
    if (allDone) return finish('completed', '', null);
  }

  async function complete(): Promise<PersistResult> {
    const open = run.steps.find((step) => step.status !== 'done');
    if (open !== undefined) {
      return finish(
        'stopped',
        run.stop_reason ?? 'invalid-transition',
        new WritError('invalid-transition', `step ${open.id} is ${open.status}; the run cannot complete`),
      );
    }
    const completed = await completeRun(ledger, { runId, epoch: settings.epoch, holder, state: 'completed' });
    ledgerCommits += 1;
    run = completed.result.run ?? run;
    return finish('completed', '', null);
  }

  /**
   * Reads (unless `pre`, its pre-read made just before its claim, is given), and when safe writes, one
   * claimed step; `recorded` is the `pre_state_digest` its claim recorded. See the module comment.
   */
  async function executeStep(
    step: WritableStep,
    resumed: boolean,
    recorded: string | null,
    pre?: Assessment,
  ): Promise<StepRun> {
    const base = emptyRun();
    const read = async (precheck: boolean): Promise<Assessment | StepRun> => {
      try {
        return await assessStep(github, context(precheck), step);
      } catch (error: unknown) {
        logger.warning(`step ${step.id}: reading failed: ${failureMessage(error)}`);
        return {
          ...base,
          status: 'unknown',
          stopCode: 'github-request-failed',
          errorCode: codeForStatus(httpStatus(error)),
        };
      }
    };
    const before = pre ?? (await read(resumed));
    if ('status' in before) return before;
    // The pre-state differs from the one its claim recorded (and the step is not done).
    const drifted = (assessment: Assessment): boolean =>
      recorded !== null && !assessment.desired && preStateDigest(assessment) !== recorded;
    const notes = before.notes;
    const settled = async (
      assessment: Assessment,
      statusCode: number | null,
      writes: number,
    ): Promise<StepRun> => {
      const resources = assessment.resources;
      if (assessment.duplicates.length > 0 && resources[0] !== undefined) {
        const left = await retireDuplicates(github, context(true), resources[0], assessment.duplicates);
        notes.push(
          `retired ${assessment.duplicates.length - left.length} duplicate(s) of #${resources[0]}: ${assessment.duplicates.map((n) => `#${n}`).join(', ')}`,
        );
      }
      return {
        ...base,
        status: 'done',
        statusCode,
        resources,
        notes,
        writes,
        write: assessment.write?.describe ?? null,
      };
    };
    if (before.inconclusive !== null)
      return {
        ...base,
        status: 'unknown',
        stopCode: 'precheck-inconclusive',
        errorCode: 'precheck-inconclusive',
        notes,
      };
    if (before.desired) return settled(before, null, 0);
    if (resumed && drifted(before))
      return {
        ...base,
        status: 'unknown',
        stopCode: 'pre-state-drift',
        errorCode: 'pre-state-drift',
        diff: [`step ${step.id}: what it reads changed since its claim recorded it; nothing is written`],
        notes,
      };
    if (before.diff.length > 0) {
      if (resumed)
        return {
          ...base,
          status: 'unknown',
          stopCode: 'needs-reconciliation',
          errorCode: 'needs-reconciliation',
          diff: before.diff,
          notes,
        };
      return {
        ...base,
        status: 'conflict',
        stopCode: 'conflict',
        errorCode: 'conflict',
        diff: before.diff,
        notes,
        resources: before.resources,
      };
    }
    const write = before.write;
    if (write === null)
      return { ...base, status: 'failed', stopCode: 'internal-error', errorCode: 'internal-error' };
    let writes = 0;
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      writes += 1;
      let sent: { status: number; resource: number | null } | null = null;
      let failure: unknown = null;
      try {
        sent = await write.send();
      } catch (error: unknown) {
        failure = error;
      }
      await deps.afterWrite?.(step.id);
      if (sent !== null) {
        let observed: boolean;
        try {
          observed = await write.verify(sent.resource);
        } catch (error: unknown) {
          logger.warning(`step ${step.id}: the post-read failed: ${failureMessage(error)}`);
          return {
            ...base,
            status: 'unknown',
            stopCode: 'write-outcome-unknown',
            errorCode: 'write-outcome-unknown',
            statusCode: sent.status,
            writes,
            write: write.describe,
            notes,
          };
        }
        const resources = sent.resource === null ? before.resources : [sent.resource];
        if (observed)
          return {
            ...base,
            status: 'done',
            statusCode: sent.status,
            resources,
            writes,
            write: write.describe,
            notes,
          };
        return {
          ...base,
          status: 'failed',
          stopCode: 'write-silently-dropped',
          errorCode: 'write-silently-dropped',
          statusCode: sent.status,
          resources,
          diff: [
            `GitHub answered ${sent.status} to ${write.describe} but a re-read shows the state unchanged`,
          ],
          writes,
          write: write.describe,
          notes,
        };
      }
      const status = httpStatus(failure);
      if (writeOutcome(failure) === 'refused') {
        return {
          ...base,
          status: 'failed',
          stopCode: 'github-request-failed',
          errorCode: codeForStatus(status),
          statusCode: status ?? null,
          diff: [`GitHub refused ${write.describe} with HTTP ${status ?? '?'}`],
          writes,
          write: write.describe,
          notes,
        };
      }
      // Unknown outcome: read back before anything else.
      logger.warning(
        `step ${step.id}: ${write.describe} had no definite answer (${codeForStatus(status)}); reading back`,
      );
      const after = await read(true);
      if ('status' in after)
        return { ...after, stopCode: 'write-outcome-unknown', writes, write: write.describe };
      if (after.inconclusive !== null)
        return {
          ...base,
          status: 'unknown',
          stopCode: 'precheck-inconclusive',
          errorCode: 'precheck-inconclusive',
          writes,
          write: write.describe,
          notes,
        };
      if (after.desired) return settled(after, status !== undefined && status >= 100 ? status : null, writes);
      if (after.diff.length > 0 || drifted(after) || attempt === 2) {
        return {
          ...base,
          status: 'unknown',
          stopCode: 'write-outcome-unknown',
          errorCode: 'write-outcome-unknown',
          diff: after.diff,
          writes,
          write: write.describe,
          notes,
        };
      }
      // The read-back shows the pre-state unchanged: the write did not land, so it is sent once more.
    }
    return {
      ...base,
      status: 'unknown',
      stopCode: 'write-outcome-unknown',
      errorCode: 'write-outcome-unknown',
      writes,
    };
  }
}

function emptyRun(): StepRun {
  return {
    status: 'unknown',
    statusCode: null,
    errorCode: null,
    stopCode: null,
    resources: [],
    diff: [],
    notes: [],
    write: null,
    writes: 0,
  };
}

function report(step: PlanStep, result: StepReport['result'], run: StepRun): StepReport {
  return {
    id: step.id,
    kind: step.kind,
    result,
    write: run.write,
    statusCode: run.statusCode,
    errorCode: run.errorCode,
    resources: run.resources,
    diff: run.diff,
    notes: run.notes,
    writes: run.writes,
  };
}

/** The preview persist's status projection shows: the plan's, after the best-effort note when open. */
export function persistPreview(
  settings: Pick<PersistSettings, 'plan' | 'runId' | 'commandPrefix'>,
  gate: GateResult | null,
): string {
  const preview = renderPreview({
    plan: settings.plan,
    planDigest: digest(settings.plan),
    runId: settings.runId,
    commandPrefix: settings.commandPrefix,
  });
  const residual =
    gate !== null && gate.residual.length > 0
      ? `${RESIDUAL_START}(the owner's policy): ${gate.residual.join('; ')}.\n\n`
      : '';
  return `${residual}${preview}`;
}

/**
 * The status comment when persist ends (stopped, waiting or completed): one more update, unless one
 * failed in this invocation already. A failure is reported, never allowed to undo the writes.
 */
export async function syncPersistStatus(
  deps: PersistDeps,
  settings: PersistSettings,
  result: PersistResult,
): Promise<string> {
  if (result.statusFailed) return result.statusComment;
  const followed = await followStatus(deps, {
    repository: settings.repository,
    runId: settings.runId,
    ownLogin: deps.ownLogin,
    preview: persistPreview(settings, result.gate),
  });
  return followed.line;
}
