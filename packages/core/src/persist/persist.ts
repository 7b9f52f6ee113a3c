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
  Reading,
  StepReport,
} from './machine.js';
import { next, start, summaryOf } from './machine.js';
import type { Assessment, PlannedWrite, StepReadContext, WritableStep, WriteResult } from './steps.js';
import { assessStep, preStateDigest, retireDuplicates } from './steps.js';

export type { PersistOutcome, StepReport } from './machine.js';

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
  /** How long this invocation writes before it hands over (`handover`), in milliseconds. */
  timeBudgetMs: number;
  /** Steps claimed per ledger commit; null: `auto` (the executor's adaptive window). */
  claimWindow: number | null;
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
    // null is `auto`: one step per claim until the step machine sizes the window itself.
    claimWindow: settings.claimWindow ?? 1,
    dryRun: settings.dryRun,
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

  constructor(
    private readonly deps: PersistDeps,
    private readonly settings: PersistSettings,
  ) {
    this.holder = { run_id: settings.runId, ...settings.holder };
  }

  perform(state: PersistState, action: Exclude<Action, { kind: 'finish' }>): Promise<Observation> {
    switch (action.kind) {
      case 'read-gate':
        return this.readGate();
      case 'read':
        return this.read(state, action);
      case 'claim':
        return this.claim(action);
      case 'read-claim-time':
        return this.readClaimTime();
      case 'write':
        return this.write(action);
      case 'verify':
        return this.verify(action);
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
      runId: this.settings.runId,
    };
  }

  private async readGate(): Promise<Observation> {
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
    const closed = gate.kinds.filter((kind) => !kind.open);
    return { kind: 'gate', open: gate.open, code: gate.code, closed, run: gate.run };
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
    if (action.purpose === 'pre-read' || action.purpose === 'read')
      this.planned.set(step.id, assessment.write);
    return { kind: 'read', reading: readingOf(assessment) };
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
          })
        : await claimSteps(ledger, {
            runId,
            stepIds: action.stepIds,
            epoch,
            holder: this.holder,
            preStateDigests: action.digests,
          });
    // A job killed from here on leaves a comment that shows the steps it claimed.
    if (claimed.result.run !== null) await this.followWindow(claimed.result.run, claimed.held);
    await this.deps.afterClaim?.(action.stepIds);
    return { kind: 'claimed', run: claimed.result.run, serverTime: claimed.serverTime };
  }

  private async followWindow(run: RunFile, head: HeldHead | undefined): Promise<void> {
    if (this.statusFailed || (run.status_comment ?? null) === null) return;
    const followed = await followStatus(this.deps, {
      repository: this.settings.repository,
      runId: this.settings.runId,
      ownLogin: this.deps.ownLogin,
      preview: persistPreview(this.settings, this.gate),
      after: { run, head },
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
    return writeOutcome(failure) === 'refused'
      ? { kind: 'write-refused', status }
      : { kind: 'write-ambiguous', status };
  }

  private async verify(action: Performed<'verify'>): Promise<Observation> {
    try {
      return { kind: 'verified', observed: await this.plannedWrite(action.stepId).verify(action.resource) };
    } catch (error: unknown) {
      return { kind: 'verify-failed', message: failureMessage(error) };
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
    };
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
