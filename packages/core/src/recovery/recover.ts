/**
 * The recovery sweep (the `recovery` stage and `writ recover`): one proven ledger read, then for each run
 * that is not terminal —
 *
 * - `approved` / `running`: the holder's liveness from the Actions API. A holder still in progress, or
 *   one GitHub will not say about, is left alone whatever the lease says; a lease not yet expired on the
 *   server's clock plus grace is left alone whatever the holder says. A lease its owner released at its
 *   own epoch while the run goes on (persist's `handover`) needs neither: the owner is fenced, and the
 *   run is taken over at once. Otherwise the run is taken over at
 *   epoch + 1 (the compare-and-set commit picks exactly one winner among concurrent sweepers; the
 *   approval is never re-consumed), its claimed steps resolved through the step observer: desired state
 *   → done with its resources, pre-state unchanged → back to pending, anything else (every `external`
 *   step, an unavailable observer, a plan that no longer matches) → `needs-reconciliation` with the
 *   reason. A run with steps left is listed as resumable (the next job runs `persist`); one with none
 *   left is completed.
 * - `needs-reconciliation`: its claimed steps are observed again; a settled one is taken over the same way.
 * - `proposed`: a lost approval. The status issue's comments since the proposal are read for the exact
 *   approve command; one that passes every consume-approval rule, the plan recomputed from `plan-file`
 *   included, is consumed (so an approval whose workflow run GitHub cancelled is not lost). One whose
 *   digest does not match the plan is reported on the status comment, never consumed.
 *
 * Then each scanned run's status comment is repaired if it is missing, hand-edited or out of date.
 * Recovery writes the ledger and status comments only: no issue, milestone or external dispatch.
 */
import { parseCommandOrNull } from '../command/grammar.js';
import { reactToCommand } from '../command/reactions.js';
import { consumeApprovalComment } from '../approval/consume-approval.js';
import { verifyApprovalComment } from '../approval/verify.js';
import type { ErrorCode } from '../errors.js';
import { WritError, errorCode, failureMessage } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import type { FileRoots } from '../io/input-file.js';
import type { LedgerContext } from '../ledger/cas.js';
import { showLedger, verifyLedger } from '../ledger/bootstrap.js';
import type { FreezeOutcome } from '../ledger/freeze.js';
import { freezeLedger } from '../ledger/freeze.js';
import { completeRun, readRun, readVerifiedRuns, takeoverRun } from '../ledger/ledger.js';
import type { RepositoryName } from '../ledger/paths.js';
import type { StepResolution } from '../ledger/transitions.js';
import { isTerminal, leaseIsLive, releasedByOwner } from '../ledger/transitions.js';
import type { Holder, Lease, RunFile, RunState } from '../ledger/types.js';
import type { StepObserver } from '../persist/observation.js';
import { milestoneKeysOf } from '../persist/observe.js';
import { bindPlan } from '../plan/binding.js';
import { loadPlanFile } from '../plan/load.js';
import type { Plan } from '../plan/types.js';
import { renderPreview } from '../preview/render.js';
import type { Logger } from '../redact.js';
import { renderStatusProjection } from '../status-comment/projection.js';
import type { Liveness } from '../ledger/liveness.js';
import { actionsLiveness } from '../ledger/liveness.js';
import { repairStatusComment, runEvidence } from '../status-comment/repair.js';
import { followProject } from '../status-comment/follow.js';
import type { ProjectTarget } from '../projects/sync.js';

export interface RecoverySettings {
  /** The repository whose runs are swept (the ledger's own). */
  repository: RepositoryName;
  /** GITHUB_SERVER_URL, for evidence links. */
  serverUrl: string;
  /** This sweep's workflow run: the holder of whatever it takes over or approves. */
  holder: Omit<Holder, 'run_id'>;
  commandPrefix: string;
  allowedRoles: readonly string[];
  requireDistinctApprover: boolean;
  /** The ledger app's bot login (`<slug>[bot]`). */
  appBotLogin: string;
  /** The plan recomputed now (as the approval workflow computes it); null when none is given. */
  planFile: string | null;
  planRoots?: FileRoots;
  dryRun: boolean;
  /**
   * The Projects (v2) project each swept run's item is kept on, after its status comment (presentation
   * only, never throws: projects/sync.ts); null or absent: none.
   */
  project?: ProjectTarget | null;
  /** Bounds: runs handled per sweep, comment pages read per lost-approval scan. */
  maxRuns?: number;
  maxCommentPages?: number;
}

export interface RecoveryDeps {
  github: GitHubClient;
  /** The client for Actions reads (holder liveness); default `github`. */
  actions?: GitHubClient;
  ledger: LedgerContext;
  logger: Logger;
  /** What a claimed step's outcome is on GitHub (persist/observe.ts's observeStep; it never writes). */
  observe: StepObserver;
}

/** What one sweep did to one run. */
export interface RunRecovery {
  runId: string;
  before: RunState;
  after: RunState;
  /** `left-alone`, `taken-over`, `completed`, `approval-recovered`, `approval-refused`, `waiting`… */
  action: string;
  /** A stable code saying why (the liveness, the refusal, the reconciliation reason), or null. */
  reason: string | null;
  /** Claimed steps resolved automatically (done or back to pending) by this sweep. */
  reconciled: number;
  /** Claimed steps left for a human, with their reasons. */
  needsReconciliation: { stepId: string; reason: string }[];
  /** The status comment: `repaired` (deleted or edited), `updated`, `unchanged`, or why not. */
  status: string;
}

export interface ResumableRun {
  run_id: string;
  epoch: number;
}

/** A ledger the sweep's full replay refused: the freeze, and how many open runs were told. */
export interface FrozenLedger {
  proven: false;
  freeze: FreezeOutcome;
  /** Open runs whose status comment now opens with the freeze notice (this sweep or before). */
  announced: number;
}

export interface RecoveryReport {
  headOid: string;
  /**
   * The full replay from the root this sweep ran before anything else: `proven` with the commits it
   * replayed, or the freeze it committed (or found) because the replay refused a commit.
   */
  ledger: { proven: true; commits: number } | FrozenLedger;
  scanned: number;
  takenOver: number;
  reconciled: number;
  needsReconciliation: number;
  approvalsRecovered: number;
  repaired: number;
  resumable: ResumableRun[];
  runs: RunRecovery[];
  /** Why the plan file could not be used (a code), or null. */
  planProblem: string | null;
  dryRun: boolean;
}

const DEFAULT_MAX_RUNS = 100;
const DEFAULT_MAX_COMMENT_PAGES = 10;
const PER_PAGE = 100;

interface SweepContext {
  deps: RecoveryDeps;
  settings: RecoverySettings;
  plan: { plan: Plan; digest: string } | null;
  serverTime: number;
  lease: Lease;
  notes: Map<string, string[]>;
}

function refusalCode(error: unknown): string {
  return error instanceof WritError ? error.code : 'internal-error';
}

function loadPlan(settings: RecoverySettings): {
  plan: { plan: Plan; digest: string } | null;
  problem: string | null;
} {
  if (settings.planFile === null) return { plan: null, problem: null };
  try {
    const plan = loadPlanFile(settings.planFile, settings.planRoots);
    return { plan: { plan, digest: bindPlan(plan).digest }, problem: null };
  } catch (error: unknown) {
    if (error instanceof WritError) return { plan: null, problem: error.code };
    throw error;
  }
}

function planOf(context: SweepContext, run: RunFile): Plan | null {
  return context.plan !== null && context.plan.digest === run.plan_digest ? context.plan.plan : null;
}

/** Observes every claimed step of `run`; the reasons are stable codes. */
async function resolveClaimed(context: SweepContext, run: RunFile): Promise<Record<string, StepResolution>> {
  const plan = planOf(context, run);
  const milestoneKeys = plan === null ? undefined : milestoneKeysOf(plan, run);
  const resolutions: Record<string, StepResolution> = {};
  for (const step of run.steps) {
    if (step.status !== 'claimed') continue;
    if (step.kind === 'external') {
      resolutions[step.id] = { state: 'unknown', reason: 'external-step' };
      continue;
    }
    const planned = plan?.steps.find((candidate) => candidate.id === step.id);
    if (planned === undefined || planned.kind === 'external') {
      resolutions[step.id] = { state: 'unknown', reason: 'plan-unavailable' };
      continue;
    }
    try {
      const observed = await context.deps.observe(planned, {
        owner: context.settings.repository.owner,
        repo: context.settings.repository.repo,
        firstClaimAt: null,
        runId: run.run_id,
        preStateDigest: step.pre_state_digest ?? null,
        ...(step.receipt === undefined ? {} : { keyScope: step.receipt.key_scope }),
        ...(milestoneKeys === undefined ? {} : { milestoneKeys }),
      });
      resolutions[step.id] =
        observed.state === 'desired'
          ? { state: 'desired', resources: observed.resources }
          : observed.state === 'pre-state'
            ? { state: 'pre-state' }
            : { state: 'unknown', reason: observed.reason };
    } catch (error: unknown) {
      context.deps.logger.warning(
        `observing step ${step.id} of run ${run.run_id} failed: ${failureMessage(error)}`,
      );
      resolutions[step.id] = { state: 'unknown', reason: 'observation-failed' };
    }
  }
  return resolutions;
}

function settles(resolutions: Record<string, StepResolution>): boolean {
  return Object.values(resolutions).some((resolution) => resolution.state !== 'unknown');
}

function sameHolder(a: Omit<Holder, 'run_id'>, b: Omit<Holder, 'run_id'>): boolean {
  return a.workflow_run_id === b.workflow_run_id && a.attempt === b.attempt;
}

function blank(run: RunFile): RunRecovery {
  return {
    runId: run.run_id,
    before: run.state,
    after: run.state,
    action: 'left-alone',
    reason: null,
    reconciled: 0,
    needsReconciliation: [],
    status: 'not-checked',
  };
}

function claimedReasons(run: RunFile): { stepId: string; reason: string }[] {
  return run.steps
    .filter((step) => step.status === 'claimed')
    .map((step) => ({ stepId: step.id, reason: step.evidence?.error_code ?? 'needs-reconciliation' }));
}

/** Takes the run over with the observed resolutions and, if nothing is left to do, completes it. */
async function takeOver(
  context: SweepContext,
  run: RunFile,
  report: RunRecovery,
  resolutions: Record<string, StepResolution>,
  resumable: ResumableRun[],
): Promise<void> {
  const { ledger } = context.deps;
  const { holder, dryRun } = context.settings;
  let outcome;
  try {
    outcome = await takeoverRun(ledger, { runId: run.run_id, holder, resolutions }, { dryRun });
  } catch (error: unknown) {
    if (!(error instanceof WritError)) throw error;
    // Another sweeper won, another run holds the lease, or the run moved on: nothing to do this time.
    context.deps.logger.info(`run ${run.run_id} not taken over: ${failureMessage(error)}`);
    report.action = 'waiting';
    report.reason = error.code;
    return;
  }
  const after = outcome.result.run ?? run;
  report.action = 'taken-over';
  report.after = after.state;
  report.reconciled = run.steps.filter(
    (step, index) => step.status === 'claimed' && after.steps[index]?.status !== 'claimed',
  ).length;
  report.needsReconciliation = claimedReasons(after);
  if (after.state === 'needs-reconciliation') {
    report.reason = report.needsReconciliation[0]?.reason ?? 'needs-reconciliation';
    return;
  }
  const epoch = outcome.result.epoch;
  if (after.steps.some((step) => step.status === 'pending')) {
    if (!dryRun) resumable.push({ run_id: run.run_id, epoch });
    report.reason = 'resumable';
    return;
  }
  // Every step has an outcome but the holder died before completing the run: finish it in the ledger.
  const state = after.steps.every((step) => step.status === 'done') ? 'completed' : 'failed';
  if (dryRun) {
    report.after = state;
    report.action = 'taken-over-and-completed';
    return;
  }
  const completed = await completeRun(ledger, {
    runId: run.run_id,
    epoch,
    holder: { run_id: run.run_id, ...holder },
    state,
  });
  report.after = completed.result.run?.state ?? state;
  report.action = 'taken-over-and-completed';
}

function livenessReason(liveness: Liveness): string {
  switch (liveness.state) {
    case 'in-progress':
      return 'holder-in-progress';
    case 'unknown':
      return liveness.reason;
    case 'finished':
      return 'holder-finished';
    case 'missing':
      return 'holder-missing';
  }
}

async function recoverHeld(
  context: SweepContext,
  run: RunFile,
  report: RunRecovery,
  resumable: ResumableRun[],
): Promise<void> {
  const { ledger } = context.deps;
  const { settings, lease } = context;
  const owner = run.owner?.holder ?? null;
  if (owner !== null && sameHolder(owner, settings.holder) && lease.holder?.run_id === run.run_id) {
    report.reason = 'held-by-this-sweep';
    if (run.steps.some((step) => step.status === 'pending') && run.owner !== null) {
      resumable.push({ run_id: run.run_id, epoch: run.owner.epoch });
    }
    return;
  }
  if (lease.holder?.run_id === run.run_id && leaseIsLive(lease, context.serverTime, ledger.policy)) {
    report.reason = 'lease-unexpired';
    return;
  }
  // An owner that released the lease at its own epoch handed the run over (persist's `handover`): its
  // workflow run may still be finishing, but it is fenced from every claim, so the run is taken at once.
  if (owner !== null && !releasedByOwner(lease, run)) {
    const liveness = await ledger.liveness(owner);
    if (liveness.state === 'in-progress' || liveness.state === 'unknown') {
      report.reason = livenessReason(liveness);
      return;
    }
  }
  if (
    lease.holder !== null &&
    lease.holder.run_id !== run.run_id &&
    leaseIsLive(lease, context.serverTime, ledger.policy)
  ) {
    report.action = 'waiting';
    report.reason = 'repository-lease-held';
    return;
  }
  await takeOver(context, run, report, await resolveClaimed(context, run), resumable);
}

async function recoverStopped(
  context: SweepContext,
  run: RunFile,
  report: RunRecovery,
  resumable: ResumableRun[],
): Promise<void> {
  const resolutions = await resolveClaimed(context, run);
  report.needsReconciliation = claimedReasons(run).map((entry) => {
    const resolution = resolutions[entry.stepId];
    return resolution?.state === 'unknown' ? { stepId: entry.stepId, reason: resolution.reason } : entry;
  });
  report.reason = report.needsReconciliation[0]?.reason ?? 'needs-reconciliation';
  if (!settles(resolutions)) return;
  if (leaseIsLive(context.lease, context.serverTime, context.deps.ledger.policy)) {
    report.action = 'waiting';
    report.reason = 'repository-lease-held';
    return;
  }
  await takeOver(context, run, report, resolutions, resumable);
}

interface ListedComment {
  id: number;
  body?: string | null;
}

/** The status issue's comments since the proposal, oldest first, paged and bounded. */
async function commentsSince(context: SweepContext, issue: number, since: string): Promise<ListedComment[]> {
  const { github } = context.deps;
  const out: ListedComment[] = [];
  const pages = context.settings.maxCommentPages ?? DEFAULT_MAX_COMMENT_PAGES;
  for (let page = 1; page <= pages; page += 1) {
    const response = await github.rest.issues.listComments({
      ...context.settings.repository,
      issue_number: issue,
      since,
      per_page: PER_PAGE,
      page,
    });
    out.push(...response.data);
    if (!/rel="next"/.test(response.headers.link ?? '')) return out;
  }
  context.deps.logger.warning(`lost-approval scan of #${issue} stopped at ${pages} pages`);
  return out;
}

function approvesRun(body: string | null | undefined, prefix: string, runId: string): boolean {
  const command = parseCommandOrNull(body, prefix);
  return command?.kind === 'approve' && command.runId === runId;
}

async function recoverApproval(
  context: SweepContext,
  run: RunFile,
  report: RunRecovery,
  resumable: ResumableRun[],
): Promise<void> {
  const { github, ledger, logger } = context.deps;
  const { settings } = context;
  const issue = run.status_comment?.issue_number;
  if (issue === undefined) {
    report.reason = 'no-status-issue';
    return;
  }
  const candidates = (await commentsSince(context, issue, run.proposed_at)).filter((comment) =>
    approvesRun(comment.body, settings.commandPrefix, run.run_id),
  );
  if (candidates.length === 0) {
    report.reason = 'waiting-for-approval';
    return;
  }
  const refusals: ErrorCode[] = [];
  for (const comment of candidates) {
    if (planOf(context, run) === null) {
      // Without the plan this run was proposed for, nothing is consumed; a comment that otherwise
      // verifies is reported, so the human knows their approval is waiting on a matching plan.
      try {
        await verifyApprovalComment(github, {
          repository: settings.repository,
          commentId: comment.id,
          commandPrefix: settings.commandPrefix,
          allowedRoles: settings.allowedRoles,
          appBotLogin: settings.appBotLogin,
        });
        refusals.push('stale-or-mismatched-approval');
        const notes = context.notes.get(run.run_id) ?? [];
        notes.push(
          `Recovery: the approve command in comment ${comment.id} does not match the plan recomputed now (\`stale-or-mismatched-approval\`); it was not consumed.`,
        );
        context.notes.set(run.run_id, notes);
      } catch (error: unknown) {
        refusals.push(errorCode(error));
      }
      continue;
    }
    try {
      const consumed = await consumeApprovalComment(
        { github, ledger, logger },
        {
          repository: settings.repository,
          commentId: comment.id,
          commandPrefix: settings.commandPrefix,
          allowedRoles: settings.allowedRoles,
          appBotLogin: settings.appBotLogin,
          planFile: settings.planFile ?? '',
          ...(settings.planRoots === undefined ? {} : { planRoots: settings.planRoots }),
          holder: settings.holder,
          requireDistinctApprover: settings.requireDistinctApprover,
          dryRun: settings.dryRun,
        },
      );
      report.action = 'approval-recovered';
      report.after = 'approved';
      report.reason = null;
      if (!settings.dryRun) resumable.push({ run_id: run.run_id, epoch: consumed.epoch });
      // The command's acknowledgement (command/reactions.ts): best-effort, after the consume commit.
      if (!settings.dryRun) {
        await reactToCommand(
          { github, logger },
          { repository: settings.repository, commentId: comment.id },
          'acted',
        );
      }
      logger.info(`recovered the approval of run ${run.run_id} from comment ${comment.id}`);
      return;
    } catch (error: unknown) {
      if (!(error instanceof WritError) || error.code === 'github-request-failed') throw error;
      refusals.push(error.code);
    }
  }
  report.action = 'approval-refused';
  report.reason = refusals.includes('stale-or-mismatched-approval')
    ? 'stale-or-mismatched-approval'
    : (refusals[0] ?? null);
}

async function repairStatus(context: SweepContext, scanned: RunFile, report: RunRecovery): Promise<boolean> {
  const { github, ledger, logger } = context.deps;
  const { settings } = context;
  const runId = scanned.run_id;
  if (settings.dryRun) {
    report.status = 'dry-run';
    return false;
  }
  try {
    // The evidence link: the run file at its last transition (see status-comment/repair.ts).
    const current = await readRun(ledger, runId);
    const evidence = await runEvidence(ledger, settings.serverUrl, scanned, current.headOid);
    const plan = planOf(context, scanned);
    const outcome = await repairStatusComment(
      { github, ledger, logger },
      {
        repository: settings.repository,
        runId,
        ownLogin: settings.appBotLogin,
        preview:
          plan === null
            ? null
            : renderPreview({
                plan,
                planDigest: scanned.plan_digest,
                runId,
                commandPrefix: settings.commandPrefix,
              }),
        render: (run, preview) =>
          renderStatusProjection(run, preview, {
            commandPrefix: settings.commandPrefix,
            evidence,
            notes: context.notes.get(runId) ?? [],
          }),
      },
    );
    report.status = outcome;
    // The run as just read: the repair above records only the comment, which the item does not show.
    if (settings.project != null && current.run !== null) {
      await followProject(
        { github, ledger, logger },
        {
          runId,
          ownLogin: settings.appBotLogin,
          project: settings.project,
          after: { run: current.run, head: undefined },
        },
      );
    }
    return outcome === 'repaired' || outcome === 'updated';
  } catch (error: unknown) {
    report.status =
      refusalCode(error) === 'stale-or-mismatched-approval' ? 'plan-unavailable' : refusalCode(error);
    if (report.status !== 'plan-unavailable') {
      logger.warning(`status comment of run ${runId} not repaired: ${failureMessage(error)}`);
    }
    return false;
  }
}

/**
 * Holder liveness is read with the Actions client (`actions`, else the ledger's own) by the sweep's
 * checks and by every takeover (`takeoverRun` reads the lease's holder too, so no run is taken over
 * from another run's live holder).
 */
function withActionsLiveness(deps: RecoveryDeps, repository: RepositoryName): RecoveryDeps {
  if (deps.actions === undefined) return deps;
  return { ...deps, ledger: { ...deps.ledger, liveness: actionsLiveness(deps.actions, repository) } };
}

/**
 * The sweep's full replay from the root (no checkpoint trusted): the check that bounds what the O(1)
 * gates cannot see (a forger's two commits, the second claiming the first proven). A refused commit
 * freezes the ledger (ledger/freeze.ts): every later gate refuses it.
 */
async function fullReplay(
  deps: RecoveryDeps,
  settings: RecoverySettings,
): Promise<{ proven: true; commits: number } | FrozenLedger> {
  try {
    const verified = await verifyLedger(deps.ledger, { mode: 'full' });
    return { proven: true, commits: verified.report.totalCommits };
  } catch (error: unknown) {
    // Only a refused commit freezes (or a freeze already there): a ruleset the root pinned that changed
    // stays unproven by construction (its pin never matches again), and one this token cannot read is
    // configuration, not forgery; both refuse this sweep (and every gate) without a freeze.
    const refusedCommit =
      error instanceof WritError &&
      ((error.code === 'ledger-provenance-unproven' && typeof error.details.commit === 'string') ||
        error.code === 'ledger-frozen');
    if (!refusedCommit) throw error;
    deps.logger.warning(`recovery: the full replay of the ledger refused it: ${failureMessage(error)}`);
    const freeze = await freezeLedger(deps.ledger, error, { dryRun: settings.dryRun });
    return { proven: false, freeze, announced: await announceFreeze(deps, settings, freeze) };
  }
}

/** The line a frozen ledger's open runs' status comments open with (OIDs and codes only: no plan text). */
export function freezeNotice(freeze: FreezeOutcome): string {
  const what = freeze.freeze.commit === null ? 'its rulesets' : `commit ${freeze.freeze.commit}`;
  return `> **Writ ledger frozen.** The recovery sweep's full replay refused ${what} (\`${freeze.freeze.code}\`). This run cannot go on: every Writ gate refuses with \`ledger-frozen\` until the owner re-provisions the ledger (SECURITY.md).`;
}

/**
 * Says so on the status comment of every open run: the freeze notice is put first in the comment's
 * body. A frozen ledger records no status write, so this PATCH is made directly, only on a comment the
 * app itself authored (the ID the run file names, read back first), once (a body that already opens
 * with the notice is left alone). Run files are read unproven here: they only say which comments to
 * notify. Returns how many open runs' comments carry the notice.
 */
async function announceFreeze(
  deps: RecoveryDeps,
  settings: RecoverySettings,
  freeze: FreezeOutcome,
): Promise<number> {
  if (settings.dryRun) return 0;
  const notice = freezeNotice(freeze);
  let announced = 0;
  let runs: RunFile[];
  try {
    runs = (await showLedger(deps.ledger)).runs;
  } catch (error: unknown) {
    deps.logger.warning(`recovery: the frozen ledger's runs could not be listed: ${failureMessage(error)}`);
    return 0;
  }
  for (const run of runs.filter((entry) => !isTerminal(entry.state))) {
    const commentId = run.status_comment?.comment_id ?? null;
    if (commentId === null) continue;
    try {
      const { data } = await deps.github.rest.issues.getComment({
        ...settings.repository,
        comment_id: commentId,
      });
      if (data.user?.login !== settings.appBotLogin) continue;
      const body = data.body ?? '';
      if (!body.startsWith(notice)) {
        await deps.github.rest.issues.updateComment({
          ...settings.repository,
          comment_id: commentId,
          body: `${notice}\n\n${body}`,
        });
      }
      announced += 1;
    } catch (error: unknown) {
      deps.logger.warning(
        `recovery: the freeze notice on run ${run.run_id}'s status comment failed: ${failureMessage(error)}`,
      );
    }
  }
  return announced;
}

function frozenReport(settings: RecoverySettings, ledger: FrozenLedger): RecoveryReport {
  return {
    headOid: ledger.freeze.headOid,
    ledger,
    scanned: 0,
    takenOver: 0,
    reconciled: 0,
    needsReconciliation: 0,
    approvalsRecovered: 0,
    repaired: 0,
    resumable: [],
    runs: [],
    planProblem: null,
    dryRun: settings.dryRun,
  };
}

export async function recoverRuns(deps: RecoveryDeps, settings: RecoverySettings): Promise<RecoveryReport> {
  const ledger = await fullReplay(deps, settings);
  if (!ledger.proven) return frozenReport(settings, ledger);
  const view = await readVerifiedRuns(deps.ledger);
  const { plan, problem } = loadPlan(settings);
  const context: SweepContext = {
    deps: withActionsLiveness(deps, settings.repository),
    settings,
    plan,
    serverTime: view.serverTime,
    lease: view.lease,
    notes: new Map(),
  };
  // Approved work first (a takeover finishes what a crashed holder started), then lost approvals, which
  // start new work; within each, oldest proposal first (whole-second times tie: then by run ID). Every
  // sweeper takes the same order, so concurrent sweeps contend for the one lease in the same sequence.
  const rank = (run: RunFile): number => (run.state === 'proposed' ? 1 : 0);
  const open = view.runs
    .filter((run) => !isTerminal(run.state))
    .sort(
      (a, b) =>
        rank(a) - rank(b) ||
        (a.proposed_at === b.proposed_at
          ? a.run_id.localeCompare(b.run_id)
          : a.proposed_at < b.proposed_at
            ? -1
            : 1),
    )
    .slice(0, settings.maxRuns ?? DEFAULT_MAX_RUNS);
  const resumable: ResumableRun[] = [];
  const runs: RunRecovery[] = [];
  let repaired = 0;
  for (const run of open) {
    const report = blank(run);
    try {
      if (run.state === 'proposed') await recoverApproval(context, run, report, resumable);
      else if (run.state === 'needs-reconciliation') await recoverStopped(context, run, report, resumable);
      else await recoverHeld(context, run, report, resumable);
    } catch (error: unknown) {
      if (!(error instanceof WritError)) throw error;
      deps.logger.warning(`run ${run.run_id}: ${failureMessage(error)}`);
      report.action = 'failed';
      report.reason = error.code;
    }
    if (await repairStatus(context, run, report)) repaired += 1;
    runs.push(report);
  }
  return {
    headOid: view.headOid,
    ledger,
    scanned: open.length,
    takenOver: runs.filter((run) => run.action.startsWith('taken-over')).length,
    reconciled: runs.reduce((sum, run) => sum + run.reconciled, 0),
    needsReconciliation: runs.filter((run) => run.after === 'needs-reconciliation').length,
    approvalsRecovered: runs.filter((run) => run.action === 'approval-recovered').length,
    repaired,
    resumable,
    runs,
    planProblem: problem,
    dryRun: settings.dryRun,
  };
}
