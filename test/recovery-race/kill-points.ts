/**
 * The kill-point campaign. The lifecycle (a list of stages, so persist plugs in: preview, then
 * consume-approval of a writer's approve comment, then publish-artifact) runs from its bundles against
 * the emulator, first uninterrupted (the reference, which also counts each stage's request
 * boundaries), then once per (stage, boundary, kind): the stage's i-th request to GitHub is
 *
 *   kill-before       — the process is killed as the request arrives; the server never applies it
 *   kill-after-apply  — the server applies it, the process is killed before the response
 *   apply-then-drop   — the server applies it and drops the connection; the process lives on
 *   5xx               — the server answers 502
 *   latency           — the server holds it past the job's timeout: the runner kills the process, the
 *                       write lands afterwards
 *
 * After each, at most two recovery sweeps (each 15 minutes later, as the schedule runs them), then the
 * rest of the lifecycle as the workflow would run it: a stage the next trigger re-runs (preview,
 * publish) is re-run; one whose event is gone (consume-approval: GitHub does not redeliver a comment)
 * is left to recovery. The end state must be the reference's: exactly one status comment, one artifact
 * pull request and one consume per run, no other comment, issue or milestone, the approval consumed
 * (zero lost), and the run in the reference's state, or at `needs-reconciliation` with a reason.
 * Every loop is bounded in count; every wait in time.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cancelRun, readRun } from '@writ/core/ledger/ledger.js';
import type { LedgerContext } from '@writ/core/ledger/cas.js';
import { parseTrailers } from '@writ/core/ledger/message.js';
import type { RunFile } from '@writ/core/ledger/types.js';
import { seededRandom } from '@writ/core/seeded-random.js';
import { bindPlan } from '@writ/core/plan/binding.js';
import { loadPlanFile } from '@writ/core/plan/load.js';
import { deriveRunId } from '@writ/core/plan/run-id.js';
import type { RequestLogEntry } from '@writ/github-emulator/state.js';
import type { StageRun } from '../../packages/cli/src/run-stage.js';
import {
  APP_SLUG,
  APP_TOKEN,
  OWNER,
  PEOPLE,
  REPO,
  client,
  patOf,
  planVariant,
  sliceWorld,
} from '../support/world.js';
import type { SliceWorld } from '../support/world.js';
import { mintSweeperTokens, sweep, sweeperLedger } from '../../packages/core/test/recovery/support.js';

export const KINDS = ['kill-before', 'kill-after-apply', 'apply-then-drop', '5xx', 'latency'] as const;
export type Kind = (typeof KINDS)[number];

/** One trial's own plan, status issue, artifact branch and content. */
export interface Trial {
  name: string;
  planFile: string;
  issue: number;
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

export const PUBLISH_ARTIFACT: LifecycleStage = {
  name: 'publish-artifact',
  afterKill: 'rerun',
  async run(world, trial, options) {
    const run = trial.runId === null ? null : await world.runFile(trial.runId);
    // The epoch the job is handed: consume's output, or (after a takeover) the one recovery lists.
    const epoch = run?.owner?.epoch ?? 1;
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
      options,
    );
  },
};

export const LIFECYCLE: readonly LifecycleStage[] = [PREVIEW, CONSUME_APPROVAL, PUBLISH_ARTIFACT];

/** What the end state of a trial is compared on (numbers and states only). */
export interface EndState {
  statusComments: number;
  otherAppComments: number;
  pulls: number;
  consumes: number;
  issues: number;
  milestones: number;
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
  lostApprovals: number;
  /** Runs ending at needs-reconciliation (each with a reason on its claimed step). */
  needsReconciliation: number;
  reference: EndState;
  failures: string[];
  seconds: number;
}

async function endState(
  world: SliceWorld,
  ledger: LedgerContext,
  trial: Trial,
  issuesBefore: number,
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
  const { data: milestones } = await api.rest.issues.listMilestones({
    owner: OWNER,
    repo: REPO,
    state: 'all',
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
  return {
    statusComments: own.filter((comment) => comment.body?.startsWith(marker)).length,
    otherAppComments: own.filter((comment) => !comment.body?.startsWith(marker)).length,
    pulls: pulls.length,
    consumes: trial.runId === null ? 0 : await consumeCommits(ledger, trial.runId),
    issues: issuesIn(world) - issuesBefore,
    milestones: milestones.length,
    runState: run?.state ?? null,
    approved: run?.approval != null,
    artifactRecorded: run?.artifact?.pr_number != null,
    artifactOnBranch: onBranch,
  };
}

async function consumeCommits(ledger: LedgerContext, runId: string): Promise<number> {
  const snapshot = await ledger.store.read({ paths: [], historyFirst: 100 });
  if (snapshot === null) return 0;
  let count = 0;
  let page = snapshot.history;
  for (let pages = 0; pages < 20; pages += 1) {
    for (const commit of page.commits) {
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

export async function runKillPointCampaign(options: {
  seed: number;
  /** Run a seeded sample of this many combinations instead of all of them. */
  sample?: number;
  stages?: readonly string[];
  lifecycle?: readonly LifecycleStage[];
  /** Only these combinations, by label (`<stage>#<boundary>:<kind>`): to reproduce one. */
  only?: readonly string[];
}): Promise<KillPointFigures> {
  const started = Date.now();
  const lifecycle = options.lifecycle ?? LIFECYCLE;
  const killed = lifecycle.filter(
    (stage) => options.stages === undefined || options.stages.includes(stage.name),
  );
  let armed: Armed | null = null;
  let world: SliceWorld | null = null;
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
    switch (target.kind) {
      case 'kill-before':
        admin.addFault({ match: {}, fault: { type: 'drop-before-apply' }, times: 1 });
        target.child.kill('SIGKILL');
        break;
      case 'kill-after-apply':
        admin.addFault({ match: {}, fault: { type: 'apply-then-drop' }, times: 1 });
        target.child.kill('SIGKILL');
        break;
      case 'apply-then-drop':
        admin.addFault({ match: {}, fault: { type: 'apply-then-drop' }, times: 1 });
        break;
      case '5xx':
        admin.addFault({ match: {}, fault: { type: 'status', status: 502 }, times: 1 });
        break;
      case 'latency':
        admin.addFault({ match: {}, fault: { type: 'latency', ms: LATENCY_MS }, times: 1 });
        target.latencySeq = entry.seq;
        break;
    }
  };
  const LATENCY_MS = 2500;
  const JOB_TIMEOUT_MS = 1200;
  world = await sliceWorld({ seed: options.seed, onRequest });
  const current = world;
  mintSweeperTokens(current);
  const { ledger } = sweeperLedger(current);
  const dir = mkdtempSync(join(tmpdir(), 'writ-kill-points-'));

  const newTrial = async (name: string): Promise<Trial> => {
    const planFile = planVariant(dir, name, 'examples/release-plan.json', `Kill points ${name}`);
    const { data: issue } = await client(current.emulator, patOf(PEOPLE.admin)).rest.issues.create({
      owner: OWNER,
      repo: REPO,
      title: `status ${name}`,
    });
    const digest = bindPlan(loadPlanFile(planFile)).digest;
    const runId = deriveRunId(digest);
    const contentFile = join(dir, `${name}.md`);
    writeFileSync(contentFile, `# Roadmap ${name}\n`);
    return {
      name,
      planFile,
      issue: issue.number,
      branch: `bot/writ-artifact-${name}`,
      contentFile,
      runId,
      command: `writ: approve ${runId} ${digest.slice(7)}`,
      approveEvent: null,
    };
  };
  // Counted in the emulator's own state: a listing's first page stops at 100 issues and pull requests.
  const issueCount = (): Promise<number> => Promise.resolve(issuesIn(current));
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
    lostApprovals: 0,
    needsReconciliation: 0,
    reference: undefined as unknown as EndState,
    failures: [],
    seconds: 0,
  };
  try {
    // The reference: the lifecycle uninterrupted, counting each stage's requests (its boundaries).
    const reference = await newTrial(`ref-${options.seed}`);
    const before = await issueCount();
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

    const combinations = killed.flatMap((stage) =>
      Array.from({ length: figures.boundaries[stage.name] ?? 0 }, (_, index) =>
        KINDS.map((kind) => ({ stage, at: index + 1, kind })),
      ).flat(),
    );
    figures.combinations = combinations.length;
    const random = seededRandom(options.seed);
    const labelOf = (c: { stage: LifecycleStage; at: number; kind: Kind }): string =>
      `${c.stage.name}#${c.at}:${c.kind}`;
    const chosen =
      options.only !== undefined
        ? combinations.filter((combination) => options.only?.includes(labelOf(combination)))
        : options.sample === undefined
          ? combinations
          : combinations
              .map((combination) => ({ combination, key: random() }))
              .sort((a, b) => a.key - b.key)
              .slice(0, options.sample)
              .map((entry) => entry.combination);

    for (const [number, { stage, at, kind }] of chosen.entries()) {
      const label = `${stage.name}#${at}:${kind}`;
      const trial = await newTrial(`t${options.seed}-${number}`);
      const issuesBefore = await issueCount();
      const outcomes: string[] = [];
      const runStage = async (later: LifecycleStage): Promise<void> => {
        const run = await later.run(current, trial, {});
        outcomes.push(`${later.name}=${run.outputs.outcome ?? '?'}/${run.outputs.reason ?? ''}`);
      };
      try {
        const position = lifecycle.indexOf(stage);
        for (const earlier of lifecycle.slice(0, position)) await runStage(earlier);
        armed = { at, kind, seen: 0, fired: false, child: null, latencySeq: null };
        const target = armed;
        await stage.run(current, trial, {
          onSpawn: (child) => (target.child = child),
          ...(kind === 'latency' ? { timeoutMs: JOB_TIMEOUT_MS } : {}),
        });
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
        // At most two recovery sweeps, each a schedule tick (15 minutes) later.
        for (let sweepNumber = 0; sweepNumber < 2; sweepNumber += 1) {
          current.emulator.admin.clock({ advance_ms: 15 * 60_000 });
          await sweep(current, { planFile: trial.planFile });
          figures.recoveryRuns += 1;
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
        let end = await endState(current, ledger, trial, issuesBefore);
        if (!processKilled && !sameAs(end, figures.reference)) {
          for (const later of lifecycle.slice(position)) await runStage(later);
          end = await endState(current, ledger, trial, issuesBefore);
        }
        figures.trials += 1;
        figures.byKind[kind] = (figures.byKind[kind] ?? 0) + 1;
        figures.byStage[stage.name] = (figures.byStage[stage.name] ?? 0) + 1;
        const duplicates =
          Math.max(0, end.statusComments - 1) +
          end.otherAppComments +
          Math.max(0, end.pulls - 1) +
          Math.max(0, end.consumes - 1) +
          end.issues +
          end.milestones;
        figures.duplicates += duplicates;
        if (!end.approved) figures.lostApprovals += 1;
        if (end.runState === 'needs-reconciliation') figures.needsReconciliation += 1;
        if (!sameAs(end, figures.reference) && end.runState !== 'needs-reconciliation') {
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
    }
    figures.seconds = Math.round((Date.now() - started) / 100) / 10;
    return figures;
  } finally {
    await current.close();
  }
}

function sameAs(end: EndState, reference: EndState): boolean {
  return JSON.stringify(end) === JSON.stringify(reference);
}
