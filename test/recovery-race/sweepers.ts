/**
 * The concurrent-sweepers campaign: 4 recovery processes at once over the same expired runs, seeded
 * trials. Each trial leaves one approved run whose holder is gone and whose lease expired (with or
 * without a claimed step), and sometimes a proposed run with a lost approval comment; then 4 OS
 * processes each run the recovery core at the same moment. Every trial must end with exactly one
 * takeover of the expired run, at most one consume of the lost approval, the final ledger state the
 * scenario implies (whoever won), and exactly one status comment per run. Every trial's ledger
 * commits are checked against the model's transition relation (model/relation.json,
 * test/model/conformance.ts); a commit it does not allow is named in `nonConforming`.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '@writ/core/seeded-random.js';
import { cancelRun, readRun } from '@writ/core/ledger/ledger.js';
import { parseTrailers } from '@writ/core/ledger/message.js';
import type { LedgerContext } from '@writ/core/ledger/cas.js';
import { OWNER, PEOPLE, REPO, REPOSITORY, client, patOf, sliceWorld } from '../support/world.js';
import type { SliceWorld } from '../support/world.js';
import {
  SWEEPER_TOKEN,
  approvedRun,
  claimFirst,
  expireLeases,
  freshPlan,
  mintSweeperTokens,
  proposeWithStatus,
  sweeperLedger,
} from '../../packages/core/test/recovery/support.js';
import { loadRelation } from '../../scripts/checks/model-relation.mjs';
import { conformanceMemory, conformanceProblems, recordHistory } from '../model/conformance.js';
import type { SweeperInit, SweeperReport, SweeperSweep } from './sweeper-worker.js';

export interface SweeperFigures {
  sweepers: number;
  trials: number;
  /** Trials per scenario: `claimed` (a claimed step) × `lost-approval` (a second, proposed run). */
  scenarios: Record<string, number>;
  takeovers: number;
  trialsWithOneTakeover: number;
  approvalsRecovered: number;
  lostApprovalTrials: number;
  /** Trials whose final ledger state differs from the one the scenario implies. */
  divergentStates: number;
  /** Status comments beyond one per run. */
  duplicateProjections: number;
  doubleConsumes: number;
  sweeperErrors: number;
  /** Ledger commits checked against model/relation.json, and the ones it does not allow (at most 10). */
  conformanceCommits: number;
  conformanceProblems: number;
  nonConforming: string[];
  /** What the sweepers reported for each run of a divergent trial (at most 10). */
  divergent: string[];
  seconds: number;
}

const WORKER = fileURLToPath(new URL('./sweeper-worker.ts', import.meta.url));
const ADMIN_ACTOR = { actor_login: PEOPLE.admin, actor_id: 1, role_name: 'admin' };

function waitFor<T>(child: ChildProcess, predicate: (message: unknown) => message is T): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown): void => {
      if (predicate(message)) {
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message);
      }
    };
    const onExit = (code: number | null): void => reject(new Error(`sweeper exited (${String(code)})`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

async function statusComments(world: SliceWorld, issue: number, runId: string): Promise<number> {
  const { data } = await client(world.emulator, patOf(PEOPLE.admin)).rest.issues.listComments({
    owner: OWNER,
    repo: REPO,
    issue_number: issue,
    per_page: 100,
  });
  return data.filter((comment) => comment.body?.startsWith(`<!-- writ-status run=${runId} -->`)).length;
}

async function consumeCommits(ledger: LedgerContext, runId: string): Promise<number> {
  const snapshot = await ledger.store.read({ paths: [], historyFirst: 100 });
  return (snapshot?.history.commits ?? []).filter((commit) => {
    const trailers = parseTrailers(commit.message);
    return trailers?.transition === 'consume' && trailers.runId === runId;
  }).length;
}

export async function runSweeperCampaign(options: {
  trials: number;
  seed: number;
  sweepers?: number;
}): Promise<SweeperFigures> {
  const started = Date.now();
  const sweepers = options.sweepers ?? 4;
  const random = seededRandom(options.seed);
  const dir = mkdtempSync(join(tmpdir(), 'writ-sweepers-'));
  const world = await sliceWorld({ seed: options.seed });
  mintSweeperTokens(world);
  const children: ChildProcess[] = [];
  const figures: SweeperFigures = {
    sweepers,
    trials: options.trials,
    scenarios: {},
    takeovers: 0,
    trialsWithOneTakeover: 0,
    approvalsRecovered: 0,
    lostApprovalTrials: 0,
    divergentStates: 0,
    duplicateProjections: 0,
    doubleConsumes: 0,
    sweeperErrors: 0,
    conformanceCommits: 0,
    conformanceProblems: 0,
    nonConforming: [],
    divergent: [],
    seconds: 0,
  };
  try {
    for (let index = 0; index < sweepers; index += 1) {
      const child = fork(WORKER, [], {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      children.push(child);
      child.send({
        type: 'init',
        index,
        url: world.emulator.url,
        token: SWEEPER_TOKEN,
        repository: REPOSITORY,
        app: { slug: 'writ', id: world.appId },
        seed: options.seed * 100 + index,
      } satisfies SweeperInit);
    }
    await Promise.all(
      children.map((child) =>
        waitFor(child, (m): m is { type: 'ready' } => (m as { type?: string }).type === 'ready'),
      ),
    );
    const { ledger } = sweeperLedger(world);
    const relation = loadRelation();
    const memory = conformanceMemory();
    for (let trial = 0; trial < options.trials; trial += 1) {
      const startOid = (await readRun(ledger, 'head-probe')).headOid;
      const claimed = random() < 0.5;
      const lost = random() < 0.5;
      const scenario = `${claimed ? 'claimed' : 'unclaimed'}${lost ? '+lost-approval' : ''}`;
      figures.scenarios[scenario] = (figures.scenarios[scenario] ?? 0) + 1;
      // The run a crashed holder left: approved (and maybe mid-step), its workflow run gone or finished.
      const holder = { workflow_run_id: 500_000 + trial, attempt: 1 };
      if (random() < 0.5)
        world.emulator.admin.setRun(OWNER, REPO, {
          id: holder.workflow_run_id,
          status: 'completed',
          conclusion: 'failure',
        });
      const planA = freshPlan(dir, `a-${options.seed}-${trial}`);
      const a = await approvedRun(world, planA, holder);
      if (claimed) await claimFirst(world, a.runId, { run_id: a.runId, ...holder }, a.epoch);
      let b: { runId: string; issue: number } | null = null;
      let planB: string | null = null;
      if (lost) {
        planB = freshPlan(dir, `b-${options.seed}-${trial}`);
        const proposed = await proposeWithStatus(world, planB);
        await world.comment({ login: PEOPLE.write }, proposed.command, proposed.issue);
        b = proposed;
      }
      expireLeases(world);
      const reports = await Promise.all(
        children.map((child, index) => {
          const reply = waitFor(child, (m): m is SweeperReport => (m as SweeperReport).trial === trial);
          child.send({
            type: 'sweep',
            trial,
            holder: { workflow_run_id: 900_000 + trial * 10 + index, attempt: 1 },
            planFile: planB ?? planA,
          } satisfies SweeperSweep);
          return reply;
        }),
      );
      figures.sweeperErrors += reports.filter((report) => report.error !== null).length;
      const actionsOn = (runId: string): string[] =>
        reports.map((report) => report.runs.find((run) => run.runId === runId)?.action ?? 'not-scanned');
      const takeovers = actionsOn(a.runId).filter((action) => action.startsWith('taken-over')).length;
      figures.takeovers += takeovers;
      if (takeovers === 1) figures.trialsWithOneTakeover += 1;

      const runA = (await readRun(ledger, a.runId)).run;
      let divergent =
        runA?.owner?.epoch !== a.epoch + 1 ||
        runA.state !== (claimed ? 'needs-reconciliation' : 'approved') ||
        runA.approval?.epoch !== a.epoch;
      if (b !== null) {
        const recovered = actionsOn(b.runId).filter((action) => action === 'approval-recovered').length;
        figures.approvalsRecovered += recovered;
        const runB = (await readRun(ledger, b.runId)).run;
        const commits = await consumeCommits(ledger, b.runId);
        if (commits > 1 || recovered > 1) figures.doubleConsumes += 1;
        // With the lease freed by a stop at needs-reconciliation the approval must be consumed now;
        // while the taken-over run holds the lease it must wait (and is not lost: the comment stays).
        const expected = claimed ? 'approved' : 'proposed';
        if (runB?.state !== expected || (claimed && recovered !== 1)) divergent = true;
        if (claimed && runB?.approval === null) figures.lostApprovalTrials += 1;
        figures.duplicateProjections += Math.max(0, (await statusComments(world, b.issue, b.runId)) - 1);
      }
      if (divergent) {
        figures.divergentStates += 1;
        if (figures.divergent.length < 10) {
          const seen = (runId: string): string =>
            reports
              .map((report) => {
                const run = report.runs.find((entry) => entry.runId === runId);
                return run === undefined ? 'not-scanned' : `${run.action}/${run.reason ?? ''}`;
              })
              .join(' ');
          const history = await ledger.store.read({ paths: [], historyFirst: 14 });
          const headlines = (history?.history.commits ?? []).map(
            (commit) => commit.message.split('\n')[0] ?? '',
          );
          if (process.env.WRIT_RACE_DEBUG) process.stderr.write(`${headlines.join('\n')}\n`);
          figures.divergent.push(
            `trial ${trial} ${scenario}: A ${runA?.state ?? 'none'} epoch ${runA?.owner?.epoch ?? '-'} [${seen(a.runId)}]` +
              (b === null ? '' : ` B [${seen(b.runId)}]`),
          );
        }
      }
      figures.duplicateProjections += Math.max(0, (await statusComments(world, a.issue, a.runId)) - 1);
      // Out of the next trial's way: cancelled runs are terminal (and free the lease they hold).
      for (const runId of [a.runId, ...(b === null ? [] : [b.runId])]) {
        await cancelRun(ledger, { runId, actor: ADMIN_ACTOR, commentId: null });
      }
      // The trial's commits, its cancels included, against the model's transition relation.
      const history = await recordHistory(ledger, { after: startOid });
      figures.conformanceCommits += history.length;
      const problems = conformanceProblems(relation, history, ledger.policy.graceMs, memory);
      figures.conformanceProblems += problems.length;
      for (const problem of problems) {
        if (figures.nonConforming.length < 10)
          figures.nonConforming.push(`trial ${trial} ${scenario}: ${problem}`);
      }
      // The primary rate limit (5,000 requests an hour per installation, as GitHub): let an hour pass.
      if ((trial + 1) % 5 === 0) world.emulator.admin.clock({ advance_ms: 3_600_000 });
    }
    figures.seconds = Math.round((Date.now() - started) / 100) / 10;
    return figures;
  } finally {
    for (const child of children) if (child.connected) child.send({ type: 'exit' });
    await Promise.all(
      children.map((child) =>
        child.exitCode !== null
          ? Promise.resolve()
          : new Promise<void>((resolve) => child.once('exit', () => resolve())),
      ),
    );
    await world.close();
  }
}
