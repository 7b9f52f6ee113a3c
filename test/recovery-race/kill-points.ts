/**
 * The kill-point campaign. The lifecycle (a list of stages: preview, then consume-approval of a
 * writer's approve comment, then persist of a plan with real GitHub writes — a milestone upsert, an
 * issue create, a labels edit and a comment upsert, under a best-effort policy committed to the default
 * branch — then publish-artifact) runs from its bundles against the emulator, first uninterrupted (the
 * reference, which also counts each stage's request boundaries), then once per (stage, boundary,
 * kind): the stage's i-th request to GitHub is
 *
 *   kill-before       — the process is killed as the request arrives; the server never applies it
 *   kill-after-apply  — the server applies it, the process is killed before the response
 *   apply-then-drop   — the server applies it and drops the connection; the process lives on
 *   5xx               — the server answers 502
 *   latency           — the server holds it past the job's timeout: the runner kills the process, the
 *                       write lands afterwards
 *
 * After each, at most two recovery sweeps (each 15 minutes later, as the schedule runs them; with the
 * recovery stage's own step observer), each followed, as writ-recovery.yml does, by a persist and a
 * publish job for the runs the sweep lists as resumable (under the sweep's workflow run and the epoch
 * it took); then the
 * rest of the lifecycle as the workflow would run it: a stage the next trigger re-runs (preview,
 * publish) is re-run; one whose event is gone (consume-approval: GitHub does not redeliver a comment)
 * or whose job cannot be re-run under its lease (persist: a re-run attempt is another holder) is left
 * to recovery. The end state must be the reference's: exactly one status comment, one artifact pull
 * request, one consume, one milestone, one created issue and one summary comment per run (counted by
 * their markers on the emulator), no write of a step applied twice, the approval consumed (zero lost),
 * and the run in the reference's state, or at `needs-reconciliation` with a reason. Every trial's
 * ledger history is checked, commit by commit, against the model's transition relation
 * (model/relation.json, test/model/conformance.ts); a commit it does not allow fails the trial.
 * Every loop is bounded in count; every wait in time.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitOnBranch } from '@writ/core/github/commit-on-branch.js';
import { idempotencyMarker } from '@writ/core/idempotency/key.js';
import { cancelRun, readRun } from '@writ/core/ledger/ledger.js';
import type { LedgerContext } from '@writ/core/ledger/cas.js';
import { parseTrailers } from '@writ/core/ledger/message.js';
import type { Holder, RunFile } from '@writ/core/ledger/types.js';
import { observeStep } from '@writ/core/persist/observe.js';
import { keyMarker } from '@writ/core/persist/steps.js';
import { createKey } from '@writ/core/plan/create-key.js';
import type { IssueCreateStep } from '@writ/core/plan/types.js';
import { POLICY_KINDS, POLICY_PATH, defaultPolicy } from '@writ/core/setup/policy.js';
import { seededRandom } from '@writ/core/seeded-random.js';
import { bindPlan } from '@writ/core/plan/binding.js';
import { loadPlanFile } from '@writ/core/plan/load.js';
import { deriveRunId } from '@writ/core/plan/run-id.js';
import type { RequestLogEntry } from '@writ/github-emulator/state.js';
import { loadRelation } from '../../scripts/checks/model-relation.mjs';
import { conformanceMemory, conformanceProblems, recordHistory } from '../model/conformance.js';
import type { StageRun } from '../../packages/cli/src/run-stage.js';
import {
  APP_SLUG,
  APP_TOKEN,
  OWNER,
  PEOPLE,
  REPO,
  REPOSITORY,
  client,
  patOf,
  sliceWorld,
} from '../support/world.js';
import type { SliceWorld } from '../support/world.js';
import {
  SWEEPER_TOKEN,
  mintSweeperTokens,
  sweep,
  sweeperLedger,
} from '../../packages/core/test/recovery/support.js';

export const KINDS = ['kill-before', 'kill-after-apply', 'apply-then-drop', '5xx', 'latency'] as const;
export type Kind = (typeof KINDS)[number];

/** One trial's own plan, status issue, artifact branch and content. */
export interface Trial {
  name: string;
  planFile: string;
  issue: number;
  /** The issue the plan's labels and comment steps write to. */
  target: number;
  /** The markers of what the plan creates: its milestone, its issue, its comment on the target. */
  markers: { milestone: string; issue: string; comment: string };
  branch: string;
  contentFile: string;
  runId: string | null;
  /** The exact approve command a writer posts. */
  command: string;
  /** The approve comment's webhook payload, once posted. */
  approveEvent: Record<string, unknown> | null;
}

export interface LifecycleStage {
  name: string;
  /** Runs the stage's bundle for the trial (`spawn` lets the harness kill it). */
  run(world: SliceWorld, trial: Trial, options: StageOptions): Promise<StageRun>;
  /** Who finishes the stage after a kill: the workflow's next trigger re-runs it, or only recovery can. */
  afterKill: 'rerun' | 'recovery';
}

interface StageOptions {
  onSpawn?: (child: ChildProcess) => void;
  timeoutMs?: number;
  /** The workflow run the job runs in and the epoch it is handed (recovery's persist job). */
  as?: { holder: Omit<Holder, 'run_id'>; epoch: number };
}

function jobEnv(holder: Omit<Holder, 'run_id'>): Record<string, string> {
  return { GITHUB_RUN_ID: String(holder.workflow_run_id), GITHUB_RUN_ATTEMPT: String(holder.attempt) };
}

const ARTIFACT_PATH = 'docs/generated/roadmap.md';

function ledgerInputs(world: SliceWorld): Record<string, string> {
  return { ...world.ledgerInputs(), token: APP_TOKEN };
}

export const PREVIEW: LifecycleStage = {
  name: 'preview',
  afterKill: 'rerun',
  run: (world, trial, options) =>
    world.run(
      'preview',
      {
        'plan-file': trial.planFile,
        'dry-run': 'false',
        'status-issue': String(trial.issue),
        ...ledgerInputs(world),
      },
      options,
    ),
};

export const CONSUME_APPROVAL: LifecycleStage = {
  name: 'consume-approval',
  afterKill: 'recovery',
  async run(world, trial, options) {
    if (trial.runId === null) throw new Error('consume-approval before preview');
    trial.approveEvent ??= await world.comment({ login: PEOPLE.write }, trial.command, trial.issue);
    return world.run(
      'consume-approval',
      { 'plan-file': trial.planFile, 'dry-run': 'false', ...ledgerInputs(world) },
      { event: trial.approveEvent, ...options },
    );
  },
};

/**
 * persist, as the job of the workflow run that holds the run's lease runs it: the approval workflow's
 * persist job after consume-approval (same workflow run, the epoch consume took), or recovery's persist
 * job for a run the sweep listed as resumable (`as`: the sweep's workflow run and the epoch it took).
 */
export const PERSIST: LifecycleStage = {
  name: 'persist',
  afterKill: 'recovery',
  async run(world, trial, options) {
    const run = trial.runId === null ? null : await world.runFile(trial.runId);
    const owner =
      options.as ?? (run?.owner == null ? null : { holder: run.owner.holder, epoch: run.owner.epoch });
    return world.run(
      'persist',
      {
        'run-id': trial.runId ?? '',
        'plan-file': trial.planFile,
        epoch: String(owner?.epoch ?? 1),
        'persistence-enabled': 'true',
        'dry-run': 'false',
        ...ledgerInputs(world),
      },
      {
        ...(owner === null ? {} : { env: jobEnv(owner.holder) }),
        ...(options.onSpawn === undefined ? {} : { onSpawn: options.onSpawn }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      },
    );
  },
};

export const PUBLISH_ARTIFACT: LifecycleStage = {
  name: 'publish-artifact',
  afterKill: 'rerun',
  async run(world, trial, options) {
    const run = trial.runId === null ? null : await world.runFile(trial.runId);
    // The epoch the job is handed: consume's output, or (after a takeover) the one recovery lists. The
    // job is a later job of the workflow run that holds the run (publish is fenced by holder, as persist).
    const epoch = options.as?.epoch ?? run?.owner?.epoch ?? 1;
    const holder = options.as?.holder ?? run?.owner?.holder ?? null;
    return world.run(
      'publish-artifact',
      {
        'run-id': trial.runId ?? '',
        epoch: String(epoch),
        'plan-file': trial.planFile,
        path: ARTIFACT_PATH,
        branch: trial.branch,
        'content-file': trial.contentFile,
        'dry-run': 'false',
        ...ledgerInputs(world),
      },
      {
        ...(holder === null ? {} : { env: jobEnv(holder) }),
        ...(options.onSpawn === undefined ? {} : { onSpawn: options.onSpawn }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      },
    );
  },
};

export const LIFECYCLE: readonly LifecycleStage[] = [PREVIEW, CONSUME_APPROVAL, PERSIST, PUBLISH_ARTIFACT];

/** The jobs writ-recovery.yml runs, in order, for each run its sweep lists as resumable. */
const RESUMED_BY_RECOVERY: readonly LifecycleStage[] = [PERSIST, PUBLISH_ARTIFACT];

/** What the end state of a trial is compared on (numbers and states only). */
export interface EndState {
  statusComments: number;
  otherAppComments: number;
  pulls: number;
  consumes: number;
  /** Issues (not pull requests) opened since the trial began, by anyone. */
  issues: number;
  /** Milestones carrying the trial's milestone marker (state all). */
  milestones: number;
  /** Issues carrying the create step's idempotency marker (state all: a retired duplicate counts). */
  createdIssues: number;
  /** Comments on the target issue carrying the comment step's marker. */
  summaryComments: number;
  /** Writes of each plan step the server applied (from its request log; the reference: one each). */
  appliedWrites: Record<string, number>;
  targetLabels: string;
  /** The run's step statuses, in order. */
  steps: string;
  runState: string | null;
  approved: boolean;
  artifactRecorded: boolean;
  artifactOnBranch: boolean;
}

export interface KillPointFigures {
  stages: string[];
  kinds: readonly Kind[];
  /** Request boundaries per stage (its requests in an uninterrupted run). */
  boundaries: Record<string, number>;
  /** Every (stage, boundary, kind). */
  combinations: number;
  trials: number;
  /** Trials per kind and per stage. */
  byKind: Record<string, number>;
  byStage: Record<string, number>;
  faultsFired: number;
  recoveryRuns: number;
  duplicates: number;
  /** Trials where a plan step's write was applied more often than in the reference. */
  doubleWrites: number;
  lostApprovals: number;
  /** Persist jobs recovery's sweeps were followed by (resumable runs). */
  resumedPersists: number;
  /** Ledger commits checked against model/relation.json, and the commits it did not allow. */
  conformanceCommits: number;
  conformanceProblems: number;
  /** Runs ending at needs-reconciliation (each with a reason on its claimed step). */
  needsReconciliation: number;
  reference: EndState;
  failures: string[];
  seconds: number;
  /** The five slowest trials, `<label>: <seconds> s`: where a campaign's time goes. */
  slowest: string[];
}

async function endState(
  world: SliceWorld,
  ledger: LedgerContext,
  trial: Trial,
  since: { issues: number; seq: number; oid: string },
): Promise<EndState> {
  const api = client(world.emulator, patOf(PEOPLE.admin));
  const { data: comments } = await api.rest.issues.listComments({
    owner: OWNER,
    repo: REPO,
    issue_number: trial.issue,
    per_page: 100,
  });
  const own = comments.filter((comment) => comment.user?.login === `${APP_SLUG}[bot]`);
  const marker = `<!-- writ-status run=${trial.runId ?? ''} -->`;
  const { data: pulls } = await api.rest.pulls.list({
    owner: OWNER,
    repo: REPO,
    state: 'all',
    head: `${OWNER}:${trial.branch}`,
    per_page: 100,
  });
  const run: RunFile | null = trial.runId === null ? null : (await readRun(ledger, trial.runId)).run;
  let onBranch = false;
  try {
    const { data } = await api.rest.repos.getContent({
      owner: OWNER,
      repo: REPO,
      path: ARTIFACT_PATH,
      ref: trial.branch,
    });
    onBranch = !Array.isArray(data) && 'content' in data;
  } catch {
    onBranch = false;
  }
  // Counted in the emulator's own state: every object, open or closed, whatever a listing would page.
  const repo = world.emulator.world.repo(OWNER, REPO);
  const issues = repo === undefined ? [] : [...repo.issues.values()].filter((issue) => issue.pull === null);
  const target = repo?.issues.get(trial.target);
  return {
    statusComments: own.filter((comment) => comment.body?.startsWith(marker)).length,
    otherAppComments: own.filter((comment) => !comment.body?.startsWith(marker)).length,
    pulls: pulls.length,
    consumes: trial.runId === null ? 0 : await consumeCommits(ledger, trial.runId, since.oid),
    issues: issues.length - since.issues,
    milestones: [...(repo?.milestones.values() ?? [])].filter((m) =>
      (m.description ?? '').includes(trial.markers.milestone),
    ).length,
    createdIssues: issues.filter((issue) => (issue.body ?? '').includes(trial.markers.issue)).length,
    summaryComments: [...(repo?.comments.values() ?? [])].filter(
      (comment) => comment.issue_number === trial.target && comment.body.includes(trial.markers.comment),
    ).length,
    appliedWrites: appliedStepWrites(world, trial, since.seq),
    targetLabels:
      target === undefined
        ? ''
        : target.labels
            .map((id) => repo?.labels.get(id)?.name ?? '?')
            .sort()
            .join(','),
    steps: run?.steps.map((step) => step.status).join(',') ?? '',
    runState: run?.state ?? null,
    approved: run?.approval != null,
    artifactRecorded: run?.artifact?.pr_number != null,
    artifactOnBranch: onBranch,
  };
}

/**
 * The plan's writes the server applied since `sinceSeq`, by step: an answered 2xx, or a write applied
 * whose response was dropped (apply-then-drop; a latency-held write is answered once it lands).
 */
function appliedStepWrites(world: SliceWorld, trial: Trial, sinceSeq: number): Record<string, number> {
  const base = `/repos/${OWNER}/${REPO}`;
  const stepOf = (entry: RequestLogEntry): string | null => {
    const path = entry.path.split('?')[0] ?? '';
    if (entry.method === 'POST' && path === `${base}/milestones`) return 'milestone';
    if (entry.method === 'POST' && path === `${base}/issues`) return 'epic';
    if (entry.method === 'PATCH' && path === `${base}/issues/${trial.target}`) return 'labels';
    if (entry.method === 'POST' && path === `${base}/issues/${trial.target}/comments`) return 'summary';
    const edited = /^\/issues\/comments\/(\d+)$/.exec(path.slice(base.length));
    if (
      entry.method === 'PATCH' &&
      edited !== null &&
      comments.get(Number(edited[1]))?.issue_number === trial.target
    )
      return 'summary';
    return null;
  };
  const comments =
    world.emulator.world.repo(OWNER, REPO)?.comments ?? new Map<number, { issue_number: number }>();
  const applied = (entry: RequestLogEntry): boolean =>
    entry.status === 'dropped'
      ? entry.fault === 'apply-then-drop'
      : entry.status >= 200 && entry.status < 300;
  const counts: Record<string, number> = {};
  for (const entry of world.emulator.admin.requests()) {
    if (entry.seq <= sinceSeq || entry.actor !== `${APP_SLUG}[bot]` || !applied(entry)) continue;
    const step = stepOf(entry);
    if (step !== null) counts[step] = (counts[step] ?? 0) + 1;
  }
  return counts;
}

/** Consume commits of the run since the trial began (`since`: the ledger head then). */
async function consumeCommits(ledger: LedgerContext, runId: string, since: string): Promise<number> {
  const snapshot = await ledger.store.read({ paths: [], historyFirst: 100 });
  if (snapshot === null) return 0;
  let count = 0;
  let page = snapshot.history;
  for (let pages = 0; pages < 20; pages += 1) {
    for (const commit of page.commits) {
      if (commit.oid === since) return count;
      const trailers = parseTrailers(commit.message);
      if (trailers?.transition === 'consume' && trailers.runId === runId) count += 1;
    }
    if (!page.hasNextPage || page.endCursor === null) break;
    page = await ledger.store.readHistory(snapshot.headOid, page.endCursor, 100);
  }
  return count;
}

/** A request boundary to act on, armed while one stage's process runs. */
interface Armed {
  at: number;
  kind: Kind;
  seen: number;
  fired: boolean;
  child: ChildProcess | null;
  latencySeq: number | null;
}

function issuesIn(world: SliceWorld): number {
  const repo = world.emulator.world.repo(OWNER, REPO);
  return repo === undefined ? 0 : [...repo.issues.values()].filter((issue) => issue.pull === null).length;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The plan a trial persists: one step of each writing kind, so its boundaries stay bounded. */
function trialPlan(
  name: string,
  target: number,
): { plan: Record<string, unknown>; markers: Trial['markers'] } {
  const milestoneKey = `kill-points:${name}`;
  const commentKey = `kill-points:${name}:summary`;
  const epic: IssueCreateStep = {
    id: 'epic',
    kind: 'issue.create',
    title: `Epic: offline mode (${name})`,
    body: 'Offline mode: local cache, conflict resolution, sync status.',
    labels: ['epic'],
    milestone: { key: milestoneKey },
  };
  const plan = {
    schema: 1,
    title: `Kill points ${name}`,
    scope: { repository: REPOSITORY, selection: 'label:roadmap' },
    bounds: { max_steps: 4, max_creates: 3, max_issues_touched: 2 },
    steps: [
      {
        id: 'milestone',
        kind: 'milestone.upsert',
        key: milestoneKey,
        title: `v2.5 (${name})`,
        description: 'Plugin API and offline mode.',
        state: 'open',
        expect: { exists: false },
      },
      epic,
      {
        id: 'labels',
        kind: 'issue.labels',
        issue: target,
        add: ['deferred'],
        remove: ['needs-triage'],
        expect: { labels: ['roadmap', 'needs-triage'] },
      },
      {
        id: 'summary',
        kind: 'comment.upsert',
        issue: target,
        key: commentKey,
        body: `Roadmap refreshed (${name}).`,
        expect: { exists: false },
      },
    ],
  };
  return {
    plan,
    markers: {
      milestone: keyMarker(milestoneKey),
      issue: idempotencyMarker(createKey(epic)),
      comment: keyMarker(commentKey),
    },
  };
}

/** The owner's policy on the default branch: best-effort for the kinds the trial plans write. */
async function commitBestEffortPolicy(world: SliceWorld): Promise<void> {
  const admin = client(world.emulator, patOf(PEOPLE.admin));
  const head = (await admin.rest.git.getRef({ owner: OWNER, repo: REPO, ref: 'heads/main' })).data.object.sha;
  const policy = defaultPolicy();
  for (const kind of POLICY_KINDS) {
    if (['milestone.upsert', 'issue.create', 'issue.labels', 'comment.upsert'].includes(kind))
      policy.kinds[kind] = 'best-effort';
  }
  await commitOnBranch(
    admin,
    {
      repository: REPOSITORY,
      branch: 'main',
      expectedHeadOid: head,
      headline: 'Writ policy: best-effort for the kill-point plans',
      body: '',
      additions: [{ path: POLICY_PATH, contents: JSON.stringify(policy) }],
    },
    'artifact',
  );
}

interface Combination {
  stage: LifecycleStage;
  at: number;
  kind: Kind;
}

export async function runKillPointCampaign(options: {
  seed: number;
  /**
   * Run a seeded sample instead of every combination: this many over all of them, or this many per
   * stage, `*` standing for all the stages the record does not name, sampled together (a stage left
   * out of a record without `*` is not killed).
   */
  sample?: number | Readonly<Record<string, number>>;
  stages?: readonly string[];
  lifecycle?: readonly LifecycleStage[];
  /** Only these combinations, by label (`<stage>#<boundary>:<kind>`): to reproduce one. */
  only?: readonly string[];
}): Promise<KillPointFigures> {
  const started = Date.now();
  const lifecycle = options.lifecycle ?? LIFECYCLE;
  const perStage = typeof options.sample === 'object' ? options.sample : null;
  const killed = lifecycle.filter(
    (stage) =>
      (options.stages === undefined || options.stages.includes(stage.name)) &&
      (perStage === null || (perStage[stage.name] ?? perStage['*'] ?? 0) > 0),
  );
  let armed: Armed | null = null;
  let world: SliceWorld | null = null;
  const LATENCY_MS = 2500;
  const JOB_TIMEOUT_MS = 1200;
  const onRequest = (entry: RequestLogEntry): void => {
    const target = armed;
    // Only the stage process's requests count: the harness's own reads happen before it is spawned.
    if (target?.child == null || world === null || entry.actor !== `${APP_SLUG}[bot]`) return;
    if (target.fired) {
      // The stage was killed: nothing more from it reaches the server while its process dies.
      if (target.kind === 'kill-before' || target.kind === 'kill-after-apply') {
        world.emulator.admin.addFault({ match: {}, fault: { type: 'drop-before-apply' }, times: 1 });
      }
      return;
    }
    target.seen += 1;
    if (target.seen !== target.at) return;
    target.fired = true;
    const admin = world.emulator.admin;
    const child = target.child;
    switch (target.kind) {
      case 'kill-before':
        admin.addFault({ match: {}, fault: { type: 'drop-before-apply' }, times: 1 });
        child.kill('SIGKILL');
        break;
      case 'kill-after-apply':
        admin.addFault({ match: {}, fault: { type: 'apply-then-drop' }, times: 1 });
        child.kill('SIGKILL');
        break;
      case 'apply-then-drop':
        admin.addFault({ match: {}, fault: { type: 'apply-then-drop' }, times: 1 });
        break;
      case '5xx':
        admin.addFault({ match: {}, fault: { type: 'status', status: 502 }, times: 1 });
        break;
      case 'latency':
        // The request hangs past the job's timeout (counted from this request, not from the job's
        // start, so a late boundary of a long stage is reached): the runner kills the process.
        admin.addFault({ match: {}, fault: { type: 'latency', ms: LATENCY_MS }, times: 1 });
        target.latencySeq = entry.seq;
        setTimeout(() => child.kill('SIGKILL'), JOB_TIMEOUT_MS).unref();
        break;
    }
  };
  world = await sliceWorld({ seed: options.seed, onRequest });
  const current = world;
  mintSweeperTokens(current);
  const { ledger } = sweeperLedger(current);
  // Recovery's step observer, as the recovery stage builds it (reads only).
  const observer = observeStep({
    github: client(current.emulator, SWEEPER_TOKEN),
    ownLogin: `${APP_SLUG}[bot]`,
  });
  const relation = loadRelation();
  const memory = conformanceMemory();
  const dir = mkdtempSync(join(tmpdir(), 'writ-kill-points-'));
  await commitBestEffortPolicy(current);
  let sweepRuns = 700_000;

  const newTrial = async (name: string): Promise<Trial> => {
    const admin = client(current.emulator, patOf(PEOPLE.admin));
    const { data: issue } = await admin.rest.issues.create({
      owner: OWNER,
      repo: REPO,
      title: `status ${name}`,
    });
    const { data: target } = await admin.rest.issues.create({
      owner: OWNER,
      repo: REPO,
      title: `Plugin API (${name})`,
      labels: ['roadmap', 'needs-triage'],
    });
    const { plan, markers } = trialPlan(name, target.number);
    const planFile = join(dir, `${name}.json`);
    writeFileSync(planFile, JSON.stringify(plan));
    const digest = bindPlan(loadPlanFile(planFile)).digest;
    const runId = deriveRunId(digest);
    const contentFile = join(dir, `${name}.md`);
    writeFileSync(contentFile, `# Roadmap ${name}\n`);
    return {
      name,
      planFile,
      issue: issue.number,
      target: target.number,
      markers,
      branch: `bot/writ-artifact-${name}`,
      contentFile,
      runId,
      command: `writ: approve ${runId} ${digest.slice(7)}`,
      approveEvent: null,
    };
  };
  const lastSeq = (): number => current.emulator.admin.requests().at(-1)?.seq ?? 0;
  const since = async (): Promise<{ issues: number; seq: number; oid: string }> => ({
    issues: issuesIn(current),
    seq: lastSeq(),
    oid: (await readRun(ledger, 'head-probe')).headOid,
  });
  const finish = async (trial: Trial): Promise<void> => {
    // Out of the next trial's way: a cancelled run is terminal and frees the lease it holds.
    if (trial.runId !== null && (await readRun(ledger, trial.runId)).run !== null) {
      try {
        await cancelRun(ledger, {
          runId: trial.runId,
          actor: { actor_login: PEOPLE.admin, actor_id: 1, role_name: 'admin' },
          commentId: null,
        });
      } catch {
        // already terminal
      }
    }
    current.emulator.admin.clearFaults();
    current.emulator.admin.clock({ advance_ms: 3_600_000 });
  };
  /** The trial's ledger commits (its cancel included) against the model's transition relation. */
  const conformance = async (label: string, fromOid: string): Promise<string[]> => {
    const history = await recordHistory(ledger, { after: fromOid });
    figures.conformanceCommits += history.length;
    const problems = conformanceProblems(relation, history, ledger.policy.graceMs, memory);
    figures.conformanceProblems += problems.length;
    return problems.map((problem) => `${label}: not in the model: ${problem}`);
  };

  const figures: KillPointFigures = {
    stages: killed.map((stage) => stage.name),
    kinds: KINDS,
    boundaries: {},
    combinations: 0,
    trials: 0,
    byKind: {},
    byStage: {},
    faultsFired: 0,
    recoveryRuns: 0,
    duplicates: 0,
    doubleWrites: 0,
    lostApprovals: 0,
    resumedPersists: 0,
    conformanceCommits: 0,
    conformanceProblems: 0,
    needsReconciliation: 0,
    reference: undefined as unknown as EndState,
    failures: [],
    seconds: 0,
    slowest: [],
  };
  const trialSeconds: Array<[string, number]> = [];
  try {
    // The reference: the lifecycle uninterrupted, counting each stage's requests (its boundaries).
    const reference = await newTrial(`ref-${options.seed}`);
    const before = await since();
    for (const stage of lifecycle) {
      const counting: Armed = {
        at: Number.MAX_SAFE_INTEGER,
        kind: '5xx',
        seen: 0,
        fired: false,
        child: null,
        latencySeq: null,
      };
      armed = counting;
      const run = await stage.run(current, reference, { onSpawn: (child) => (counting.child = child) });
      figures.boundaries[stage.name] = counting.seen;
      armed = null;
      if (run.outputs.outcome === 'refused' || run.outputs.outcome === 'failed') {
        throw new Error(`the reference lifecycle failed at ${stage.name}: ${run.outputs.reason ?? ''}`);
      }
    }
    figures.reference = await endState(current, ledger, reference, before);
    await finish(reference);
    figures.failures.push(...(await conformance('reference', before.oid)));

    const combinations: Combination[] = killed.flatMap((stage) =>
      Array.from({ length: figures.boundaries[stage.name] ?? 0 }, (_, index) =>
        KINDS.map((kind) => ({ stage, at: index + 1, kind })),
      ).flat(),
    );
    figures.combinations = combinations.length;
    const random = seededRandom(options.seed);
    const labelOf = (c: Combination): string => `${c.stage.name}#${c.at}:${c.kind}`;
    const shuffled = (list: readonly Combination[]): Combination[] =>
      list
        .map((combination) => ({ combination, key: random() }))
        .sort((a, b) => a.key - b.key)
        .map((entry) => entry.combination);
    const chosen =
      options.only !== undefined
        ? combinations.filter((combination) => options.only?.includes(labelOf(combination)))
        : options.sample === undefined
          ? combinations
          : perStage === null
            ? shuffled(combinations).slice(0, options.sample as number)
            : [
                ...killed
                  .filter((stage) => perStage[stage.name] !== undefined)
                  .flatMap((stage) =>
                    shuffled(combinations.filter((c) => c.stage === stage)).slice(0, perStage[stage.name]),
                  ),
                ...shuffled(combinations.filter((c) => perStage[c.stage.name] === undefined)).slice(
                  0,
                  perStage['*'] ?? 0,
                ),
              ];

    for (const [number, combination] of chosen.entries()) {
      const { stage, at, kind } = combination;
      const label = labelOf(combination);
      const trialStarted = Date.now();
      const trial = await newTrial(`t${options.seed}-${number}`);
      const start = await since();
      const outcomes: string[] = [];
      const runStage = async (later: LifecycleStage, stageOptions: StageOptions = {}): Promise<void> => {
        const run = await later.run(current, trial, stageOptions);
        outcomes.push(`${later.name}=${run.outputs.outcome ?? '?'}/${run.outputs.reason ?? ''}`);
      };
      try {
        const position = lifecycle.indexOf(stage);
        for (const earlier of lifecycle.slice(0, position)) await runStage(earlier);
        armed = { at, kind, seen: 0, fired: false, child: null, latencySeq: null };
        const target = armed;
        await stage.run(current, trial, { onSpawn: (child) => (target.child = child) });
        armed = null;
        current.emulator.admin.clearFaults();
        if (target.fired) figures.faultsFired += 1;
        if (target.latencySeq !== null) {
          // The held write lands after the job died: wait (bounded) until the server has answered it.
          for (let waited = 0; waited < 40; waited += 1) {
            const entry = current.emulator.admin
              .requests()
              .find((request) => request.seq === target.latencySeq);
            if (entry !== undefined && entry.status !== 0) break;
            await sleep(100);
          }
        }
        const processKilled =
          target.fired && (kind === 'kill-before' || kind === 'kill-after-apply' || kind === 'latency');
        // At most two recovery sweeps, each a schedule tick (15 minutes) later, each followed by the
        // recovery workflow's persist job for the runs it lists as resumable.
        for (let sweepNumber = 0; sweepNumber < 2; sweepNumber += 1) {
          current.emulator.admin.clock({ advance_ms: 15 * 60_000 });
          const holder = { workflow_run_id: (sweepRuns += 1), attempt: 1 };
          const report = await sweep(current, { planFile: trial.planFile, holder }, observer);
          figures.recoveryRuns += 1;
          outcomes.push(
            `recovery=${report.runs.find((run) => run.runId === trial.runId)?.action ?? 'not-scanned'}`,
          );
          for (const resumable of report.resumable.filter((entry) => entry.run_id === trial.runId)) {
            for (const resumed of RESUMED_BY_RECOVERY.filter((candidate) => lifecycle.includes(candidate))) {
              if (resumed === PERSIST) figures.resumedPersists += 1;
              await runStage(resumed, { as: { holder, epoch: resumable.epoch } });
            }
          }
        }
        // The rest of the lifecycle as the workflow runs it.
        const resumeAt = processKilled && stage.afterKill === 'recovery' ? position + 1 : position;
        if (!processKilled) {
          // The process lived: it finished (or refused) on its own; a refusal is retried by a re-run.
          for (const later of lifecycle.slice(position + 1)) await runStage(later);
        } else {
          for (const later of lifecycle.slice(resumeAt)) await runStage(later);
        }
        // A stage that lived through a 5xx or a dropped response may have refused: the job is re-run once.
        let end = await endState(current, ledger, trial, start);
        if (!processKilled && !sameAs(end, figures.reference)) {
          for (const later of lifecycle.slice(position)) await runStage(later);
          end = await endState(current, ledger, trial, start);
        }
        figures.trials += 1;
        figures.byKind[kind] = (figures.byKind[kind] ?? 0) + 1;
        figures.byStage[stage.name] = (figures.byStage[stage.name] ?? 0) + 1;
        const reference = figures.reference;
        const over = (value: number, bound: number): number => Math.max(0, value - bound);
        const duplicates =
          over(end.statusComments, 1) +
          end.otherAppComments +
          over(end.pulls, 1) +
          over(end.consumes, 1) +
          over(end.issues, reference.issues) +
          over(end.milestones, reference.milestones) +
          over(end.summaryComments, reference.summaryComments);
        figures.duplicates += duplicates;
        const doubled = Object.entries(end.appliedWrites).filter(
          ([step, count]) => count > (reference.appliedWrites[step] ?? 0),
        );
        if (doubled.length > 0) {
          figures.doubleWrites += 1;
          figures.failures.push(
            `${label}: a step's write applied twice: ${JSON.stringify(end.appliedWrites)}`,
          );
        }
        if (!end.approved) figures.lostApprovals += 1;
        if (end.runState === 'needs-reconciliation') {
          figures.needsReconciliation += 1;
          const run = trial.runId === null ? null : (await readRun(ledger, trial.runId)).run;
          const reasons = (run?.steps ?? []).filter(
            (step) => step.status === 'claimed' && step.evidence?.error_code != null,
          );
          if (reasons.length === 0) figures.failures.push(`${label}: needs-reconciliation without a reason`);
        }
        if (duplicates > 0 || (!sameAs(end, figures.reference) && end.runState !== 'needs-reconciliation')) {
          figures.failures.push(`${label}: ${JSON.stringify(end)} after ${outcomes.join(', ')}`);
        }
      } catch (error: unknown) {
        figures.failures.push(
          `${label}: ${error instanceof Error ? (process.env.WRIT_RACE_DEBUG ? String(error.stack) : error.message) : String(error)}`,
        );
      } finally {
        armed = null;
        await finish(trial);
      }
      try {
        figures.failures.push(...(await conformance(label, start.oid)));
      } catch (error: unknown) {
        figures.failures.push(`${label}: its ledger history could not be recorded: ${String(error)}`);
      }
      trialSeconds.push([label, Math.round((Date.now() - trialStarted) / 100) / 10]);
    }
    figures.slowest = trialSeconds
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([label, seconds]) => `${label}: ${seconds} s`);
    figures.seconds = Math.round((Date.now() - started) / 100) / 10;
    return figures;
  } finally {
    await current.close();
  }
}

function sameAs(end: EndState, reference: EndState): boolean {
  return JSON.stringify(end) === JSON.stringify(reference);
}
