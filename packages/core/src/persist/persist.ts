/**
 * persist: an approved plan's GitHub writes, executed once, in order, behind the gate (gate.ts).
 * `persistPlan` is the executor of the step machine (machine.ts, where every rule lives): it performs
 * the one action the machine asks for with the real client and ledger and feeds what it observed back
 * in, until the machine finishes.
 *
 * Per window: pre-read each step's full read set and compare it with the step's `expect` → claim the
 * window (epoch-fenced ledger transition; up to `claimWindow` consecutive steps in one commit, each with
 * its `pre_state_digest`) → per step, the one write, sent with the client's retries off (a difference
 * from `expect`: `conflict`, no write; the desired state already there: done, no write) → when its
 * outcome is unknown (a 5xx, a dropped connection) read back before anything else; a write is sent
 * again only after the read-back shows the pre-state unchanged, never blindly → post-read: the desired
 * state must be observed (unchanged is `write-silently-dropped`) → one checkpoint for the window
 * (status code, a sanitized error code, the numbers it created or touched; never a body). The last
 * checkpoint completes the run and releases the lease in the same commit.
 *
 * Resumption: a re-run with the same run ID and holder continues from the first step not done; a step
 * it left `claimed` is reconciled by reading (steps.ts, the same reads `observeStep` makes): desired →
 * done; pre-state → write (a create: after its marker pre-check); anything else → it stays claimed and
 * the run stops at `needs-reconciliation` for a repository writer.
 */
import { digest } from '../canonical-json.js';
import { WritError, failureMessage, httpStatus } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import { pacerOf } from '../github/client.js';
import type { PacerFigures } from '../github/pacer.js';
import { writeOutcome } from '../github/commit-on-branch.js';
import type { HeldHead, LedgerContext, TransitionOutcome } from '../ledger/cas.js';
import { claimCommittedAt } from '../ledger/claim-time.js';
import { checkpointSteps, claimStep, claimSteps, completeRun } from '../ledger/ledger.js';
import type { RepositoryName } from '../ledger/paths.js';
import type { Holder, RunFile } from '../ledger/types.js';
import { bindPlan } from '../plan/binding.js';
import type { Plan } from '../plan/types.js';
import { renderPreview } from '../preview/render.js';
import type { Logger } from '../redact.js';
import { RESIDUAL_START } from '../status-comment/repair.js';
import { followStatus } from '../status-comment/follow.js';
import type { GateResult } from './gate.js';
import { checkPersistenceGate } from './gate.js';
import type {
  Action,
  Observation,
  PersistOutcome,
  PersistState,
  ReadContext,
  Receipt,
  ReadFailure,
  Reading,
  StepReport,
  VerifyResult,
} from './machine.js';
import { claimWindowFor, contentRequestsLeft, next, start, summaryOf } from './machine.js';
import type { Assessment, PlannedWrite, StepReadContext, WritableStep, WriteResult } from './steps.js';
import { assessStep, preStateDigest, retireDuplicates } from './steps.js';
import { readWindow, verifyWindow } from './window-read.js';
import type { ProjectTarget } from '../projects/sync.js';

export type { PersistOutcome, Receipt, StepReport } from './machine.js';

/** The least time between two status comment updates that follow a claim on a plan paced by the hour. */
const STATUS_FOLLOW_MS = 5 * 60_000;

/**
 * A write GitHub's secondary rate limit refused, or null: the client fails it with the coded
 * `secondary-rate-limit` (github/write-retry.ts, `secondaryLimitRefusal`, its outermost plugin).
 */
function secondaryLimit(error: unknown): { retryAfterSeconds: number | null } | null {
  if (!(error instanceof WritError) || error.code !== 'secondary-rate-limit') return null;
  const after = error.details.retryAfterSeconds;
  return { retryAfterSeconds: typeof after === 'number' ? after : null };
}

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
  /** Steps per claim; null: adaptive (`claimWindowFor`). */
  claimWindow: number | null;
  /** Milliseconds this invocation may spend before it hands the run over; null: no limit. */
  timeBudgetMs: number | null;
  pageCap: number;
  commandPrefix: string;
  allowedRoles: readonly string[];
  apiUrl: string;
  dryRun: boolean;
  /** The Projects (v2) project the run's item is kept on (`project` input); null or absent: none. */
  project?: ProjectTarget | null;
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

export interface PersistResult {
  outcome: PersistOutcome;
  /** A catalogue code when the run stopped or the gate is closed; empty otherwise. */
  reason: string;
  stepsDone: number;
  stepsTotal: number;
  nextStep: string;
  /** Step ID → the number or ID it created or touched first. */
  created: Record<string, number>;
  /** Each create's receipt: its idempotency key, the key's scope, and `created`, `exists` or `inconclusive`. */
  receipts: Receipt[];
  steps: StepReport[];
  gate: GateResult | null;
  ledgerCommits: number;
  /** A coded refusal to fail the action with after the outputs are written. */
  refusal: WritError | null;
  /** What became of the status comment (its summary line). */
  statusComment: string;
  /** A status comment update of this invocation failed: no other is attempted in it. */
  statusFailed: boolean;
  /** How the writes were paced to GitHub's secondary limits (null: a dry run, the gate closed, no pacer). */
  pace: PaceReport | null;
}

/** The pacer's plan for this invocation's writes and what it did (github/pacer.ts). */
export interface PaceReport {
  /** The content-creating requests the open steps take at most (`contentRequestsLeft`). */
  expected: number;
  /** The content-creating requests the pacer allows in any hour. */
  hourlyBudget: number;
  /** Minutes those requests take at GitHub's limits, from the gate. */
  plannedMinutes: number;
  figures: PacerFigures;
}

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

/**
 * Runs an approved plan's writes: the step machine (machine.ts) decides each action, and this loop
 * performs it with the real client and ledger and feeds back what it observed.
 */
export async function persistPlan(deps: PersistDeps, settings: PersistSettings): Promise<PersistResult> {
  const { plan, repository } = settings;
  if (plan.scope.repository.toLowerCase() !== `${repository.owner}/${repository.repo}`.toLowerCase()) {
    throw new WritError(
      'invalid-input',
      `the plan writes to ${plan.scope.repository}, not to this repository (${repository.owner}/${repository.repo})`,
    );
  }
  const executor = new Executor(deps, settings);
  let { state, action } = start({
    runId: settings.runId,
    epoch: settings.epoch,
    plan,
    maxSteps: settings.maxSteps,
    claimWindow: claimWindowFor(plan, settings.claimWindow),
    dryRun: settings.dryRun,
    timeBudgetMs: settings.timeBudgetMs,
  });
  for (;;) {
    for (const warning of action.warnings ?? []) deps.logger.warning(warning);
    if (action.kind === 'finish') return executor.result(state, action);
    ({ state, action } = next(state, await executor.perform(state, action)));
  }
}

type Performed<K extends Action['kind']> = Extract<Action, { kind: K }>;

/** Performs one action of the machine with the real dependencies; it decides nothing. */
class Executor {
  private readonly holder: Holder;
  private gate: GateResult | null = null;
  /** The write each step would make, from its read before any write (the read-backs only observe). */
  private readonly planned = new Map<string, PlannedWrite | null>();
  /** Status comment updates: one per claim window; after a failed one, none in this invocation. */
  private readonly statusLines: string[] = [];
  private statusFailed = false;
  /** When the status comment last followed a claim (clock ms). */
  private statusFollowedAt: number | null = null;
  private pacePlan: Omit<PaceReport, 'figures'> | null = null;
  /** The open steps' content-creating requests exceed the pacer's hourly budget. */
  private pacedByHour = false;
  /** The runner's clock (the ledger's): the time budget and the status comment's pace. */
  private readonly clock: () => number;

  constructor(
    private readonly deps: PersistDeps,
    private readonly settings: PersistSettings,
  ) {
    this.holder = { run_id: settings.runId, ...settings.holder };
    this.clock = () => deps.ledger.clock.now();
  }

  perform(state: PersistState, action: Exclude<Action, { kind: 'finish' }>): Promise<Observation> {
    switch (action.kind) {
      case 'read-gate':
        return this.readGate(state);
      case 'read-clock':
        return Promise.resolve({ kind: 'clock', now: this.clock() });
      case 'read':
        return this.read(state, action);
      case 'read-window':
        return this.readWindow(state, action);
      case 'claim':
        return this.claim(action);
      case 'read-claim-time':
        return this.readClaimTime();
      case 'write':
        return this.write(action);
      case 'verify-window':
        return this.verifyWindow(state, action);
      case 'retire-duplicates':
        return this.retire(action);
      case 'checkpoint':
        return this.checkpoint(action);
      case 'complete-run':
        return this.completeRun();
    }
  }

  private context(context: ReadContext): StepReadContext {
    return {
      owner: this.settings.repository.owner,
      repo: this.settings.repository.repo,
      ownLogin: this.deps.ownLogin,
      pageCap: this.settings.pageCap,
      createdAfter: context.createdAfter,
      milestoneKeys: context.milestoneKeys,
      precheck: context.precheck,
      keyScope: context.keyScope,
      runId: this.settings.runId,
    };
  }

  private async readGate(state: PersistState): Promise<Observation> {
    const { settings } = this;
    const gate = await checkPersistenceGate(
      this.deps,
      {
        repository: settings.repository,
        runId: settings.runId,
        binding: bindPlan(settings.plan),
        epoch: settings.epoch,
        persistenceEnabled: settings.persistenceEnabled,
        policyPath: settings.policyPath,
        evidencePath: settings.evidencePath,
        commandPrefix: settings.commandPrefix,
        allowedRoles: settings.allowedRoles,
        apiUrl: settings.apiUrl,
      },
      settings.plan.steps.map((step) => step.kind),
    );
    checkBounds(settings.plan);
    this.gate = gate;
    if (gate.open && !settings.dryRun) this.planPace(contentRequestsLeft(gate.run, state.config.claimWindow));
    const closed = gate.kinds.filter((kind) => !kind.open);
    return {
      kind: 'gate',
      open: gate.open,
      code: gate.code,
      closed,
      run: gate.run,
      keyScope: gate.keyScope,
    };
  }

  /**
   * The pacer hears how many content-creating requests are coming, so a plan past the hour's budget is
   * spaced evenly from its first write (never a burst then a stall longer than the lease); the log says
   * when GitHub's hourly limit, not the plan, sets the pace.
   */
  private planPace(expected: number): void {
    const pacer = pacerOf(this.deps.github);
    if (pacer === undefined) return;
    pacer.expect(expected);
    const plannedMinutes = Math.ceil(pacer.plannedMs(expected) / 60_000);
    this.pacePlan = { expected, hourlyBudget: pacer.hourlyBudget, plannedMinutes };
    if (expected > pacer.hourlyBudget) {
      this.pacedByHour = true;
      this.deps.logger.info(
        `About ${expected} content-creating requests remain, more than GitHub's secondary limit allows in an hour: writes are paced to ${pacer.hourlyBudget} an hour (about ${plannedMinutes} min).`,
      );
    }
  }

  /** A dry run's read throws on failure; the others report it to the machine. */
  private async read(state: PersistState, action: Performed<'read'>): Promise<Observation> {
    const step = state.config.plan.steps[action.index] as WritableStep;
    let assessment: Assessment;
    try {
      assessment = await assessStep(this.deps.github, this.context(action.context), step);
    } catch (error: unknown) {
      if (action.purpose === 'dry-run') throw error;
      return { kind: 'read-failed', status: httpStatus(error), message: failureMessage(error) };
    }
    if (action.purpose === 'read') this.planned.set(step.id, assessment.write);
    return { kind: 'read', reading: readingOf(assessment) };
  }

  /** A fresh window's pre-reads in one query (window-read.ts), each step's reading or failure, in order. */
  private async readWindow(state: PersistState, action: Performed<'read-window'>): Promise<Observation> {
    const steps = action.indexes.map((index) => state.config.plan.steps[index] as WritableStep);
    const read = await readWindow(this.deps.github, this.context(action.context), steps);
    const readings: (Reading | ReadFailure)[] = steps.map((step) => {
      const assessment = read.get(step.id);
      if (assessment === undefined) return { failed: true, status: undefined, message: 'not read' };
      if ('failed' in assessment) return { failed: true, ...assessment.failed };
      this.planned.set(step.id, assessment.write);
      return readingOf(assessment);
    });
    return { kind: 'window-read', readings };
  }

  /** The claim, then the status comment it follows (before any write), then the `afterClaim` hook. */
  private async claim(action: Performed<'claim'>): Promise<Observation> {
    const { ledger } = this.deps;
    const { runId, epoch } = this.settings;
    const [first] = action.stepIds;
    const claimed: TransitionOutcome =
      action.stepIds.length === 1
        ? await claimStep(ledger, {
            runId,
            stepId: first as string,
            epoch,
            holder: this.holder,
            preStateDigest: action.digests[first as string] ?? null,
            receipt: action.receipts[first as string] ?? null,
          })
        : await claimSteps(ledger, {
            runId,
            stepIds: action.stepIds,
            epoch,
            holder: this.holder,
            preStateDigests: action.digests,
            receipts: action.receipts,
          });
    // A job killed from here on leaves a comment that shows the steps it claimed.
    if (claimed.result.run !== null) await this.followWindow(claimed.result.run, claimed.held);
    await this.deps.afterClaim?.(action.stepIds);
    return { kind: 'claimed', run: claimed.result.run, serverTime: claimed.serverTime };
  }

  /**
   * The status comment follows each claim, so a job killed after it shows the steps it claimed; when
   * GitHub's hourly limit sets the pace (`pacedByHour`), the first claim and then at most one every
   * STATUS_FOLLOW_MS, since each update costs content-creating requests (its reservation, the PATCH,
   * its record) the writes need (the end of the invocation always updates it; recovery repairs it).
   */
  private async followWindow(run: RunFile, head: HeldHead | undefined): Promise<void> {
    if (this.statusFailed || (run.status_comment ?? null) === null) return;
    const now = this.clock();
    const recent = this.statusFollowedAt !== null && now - this.statusFollowedAt < STATUS_FOLLOW_MS;
    if (this.pacedByHour && recent) return;
    this.statusFollowedAt = now;
    const followed = await followStatus(this.deps, {
      repository: this.settings.repository,
      runId: this.settings.runId,
      ownLogin: this.deps.ownLogin,
      preview: persistPreview(this.settings, this.gate),
      after: { run, head },
      project: this.settings.project,
    });
    if (!followed.ok) {
      this.statusFailed = true;
      this.statusLines.push(followed.line);
    }
  }

  private async readClaimTime(): Promise<Observation> {
    return { kind: 'claim-time', at: await claimCommittedAt(this.deps.ledger, this.settings.runId) };
  }

  /** The one write, sent with the client's retries off; the `afterWrite` hook runs whatever it answered. */
  private async write(action: Performed<'write'>): Promise<Observation> {
    const write = this.plannedWrite(action.stepId);
    let sent: WriteResult | null = null;
    let failure: unknown = null;
    try {
      sent = await write.send();
    } catch (error: unknown) {
      failure = error;
    }
    await this.deps.afterWrite?.(action.stepId);
    if (sent !== null) return { kind: 'write-answered', status: sent.status, resource: sent.resource };
    const status = httpStatus(failure);
    const limited = secondaryLimit(failure);
    if (limited !== null)
      return { kind: 'write-limited', status, retryAfterSeconds: limited.retryAfterSeconds };
    return writeOutcome(failure) === 'refused'
      ? { kind: 'write-refused', status }
      : { kind: 'write-ambiguous', status };
  }

  /** The post-reads of the window's answered writes in one query (window-read.ts), one verdict each. */
  private async verifyWindow(state: PersistState, action: Performed<'verify-window'>): Promise<Observation> {
    const byId = new Map(state.config.plan.steps.map((step) => [step.id, step]));
    const entries = action.entries.map((entry) => ({
      step: byId.get(entry.stepId) as WritableStep,
      write: this.plannedWrite(entry.stepId),
      resource: entry.resource,
    }));
    const verified = await verifyWindow(this.deps.github, this.context(action.context), entries);
    const results: VerifyResult[] = [];
    for (const entry of entries) {
      const verdict = verified.get(entry.step.id);
      if (verdict === undefined || typeof verdict !== 'boolean') {
        results.push({ failed: verdict?.failed.message ?? 'not read' });
        continue;
      }
      // "Unchanged" fails the run: confirmed by the write's own REST post-read first, so a GraphQL
      // answer that lags the write is never taken for a silently dropped one.
      results.push(verdict ? { observed: true } : await this.verifyAlone(entry.write, entry.resource));
    }
    return { kind: 'window-verified', results };
  }

  private async verifyAlone(write: PlannedWrite, resource: number | null): Promise<VerifyResult> {
    try {
      return { observed: await write.verify(resource) };
    } catch (error: unknown) {
      return { failed: failureMessage(error) };
    }
  }

  private plannedWrite(stepId: string): PlannedWrite {
    const write = this.planned.get(stepId);
    if (write == null) throw new WritError('internal-error', `step ${stepId} has no write to send`);
    return write;
  }

  private async retire(action: Performed<'retire-duplicates'>): Promise<Observation> {
    const context = this.context(action.context);
    return {
      kind: 'retired',
      left: await retireDuplicates(this.deps.github, context, action.keep, action.duplicates),
    };
  }

  private async checkpoint(action: Performed<'checkpoint'>): Promise<Observation> {
    const committed = await checkpointSteps(this.deps.ledger, {
      runId: this.settings.runId,
      epoch: this.settings.epoch,
      holder: this.holder,
      steps: action.steps,
      finish: action.finish,
    });
    return { kind: 'checkpointed', run: committed.result.run };
  }

  private async completeRun(): Promise<Observation> {
    const completed = await completeRun(this.deps.ledger, {
      runId: this.settings.runId,
      epoch: this.settings.epoch,
      holder: this.holder,
      state: 'completed',
    });
    return { kind: 'completed', run: completed.result.run };
  }

  result(state: PersistState, action: Performed<'finish'>): PersistResult {
    const { outcome, reason, refusal } = action;
    return {
      outcome,
      reason,
      ...summaryOf(state),
      gate: this.gate,
      // The refusal carries the outcome, so the action reports `stopped` / `gate-closed`, not `refused`.
      refusal:
        refusal === null ? null : new WritError(refusal.code, refusal.message, { details: { outcome } }),
      statusComment: this.statusLines.join(' '),
      statusFailed: this.statusFailed,
      pace: this.paceReport(),
    };
  }

  private paceReport(): PaceReport | null {
    const pacer = pacerOf(this.deps.github);
    if (this.pacePlan === null || pacer === undefined) return null;
    return { ...this.pacePlan, figures: pacer.figures() };
  }
}

/** What the machine needs of an assessment (its write stays with the executor). */
function readingOf(assessment: Assessment): Reading {
  return {
    desired: assessment.desired,
    resources: assessment.resources,
    diff: assessment.diff,
    inconclusive: assessment.inconclusive,
    notes: assessment.notes,
    duplicates: assessment.duplicates,
    digest: preStateDigest(assessment),
    write: assessment.write?.describe ?? null,
    receipt: assessment.receipt,
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
    project: settings.project,
  });
  return followed.line;
}
