/**
 * The ledger race campaign: P OS processes × T seeded trials consuming the same approval, with 0..50 ms
 * of random client-side latency per request and a seeded 5% apply-then-drop fault on every
 * createCommitOnBranch. Each trial must end with exactly one winner, every loser refused with a code,
 * exactly one consume commit in the history and the lease epoch one higher: no lost and no doubled
 * approval. The coordinator (this module) runs the emulator and checks the ledger after each trial.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { showLedger } from '../../../src/ledger/bootstrap.js';
import type { LedgerContext } from '../../../src/ledger/cas.js';
import { releaseLease } from '../../../src/ledger/ledger.js';
import { parseTrailers } from '../../../src/ledger/message.js';
import { BRANCH, LEDGER_TOKEN, POLICY, REPOSITORY, ledgerWorld } from '../support/emulator.js';
import { approvalFor, proposePlanFor, recomputed } from '../support/fixtures.js';
import type { WorkerConsume, WorkerInit, WorkerReport } from './worker.js';

export interface CampaignOptions {
  processes: number;
  trials: number;
  seed: number;
  maxLatencyMs: number;
  dropProbability: number;
}

export interface CampaignFigures {
  processes: number;
  trials: number;
  attempts: number;
  trialsWithExactlyOneWinner: number;
  winners: number;
  codedRefusals: number;
  refusalCodes: Record<string, number>;
  uncoded: number;
  lostApprovals: number;
  doubledApprovals: number;
  recoveredLostResponses: number;
  droppedCommitResponses: number;
  consumeCommits: number;
  finalEpoch: number;
  ledgerCommits: number;
  /** API requests the emulator served during the campaign, and per trial. */
  apiRequests: number;
  requestsPerTrial: number;
  /** Emulator hours the campaign spanned (the clock is advanced to respect the rate limit). */
  emulatorHours: number;
  seconds: number;
}

const TRIALS_PER_HOUR = 40;

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));

function waitFor<T>(child: ChildProcess, predicate: (message: unknown) => message is T): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown): void => {
      if (predicate(message)) {
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message);
      }
    };
    const onExit = (code: number | null): void => reject(new Error(`race worker exited (${String(code)})`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

async function consumeCommitsSince(ledger: LedgerContext, runId: string, stopAt: string): Promise<number> {
  const snapshot = await ledger.store.read({ paths: [], historyFirst: 100 });
  if (snapshot === null) throw new Error('the ledger branch vanished');
  let page = snapshot.history;
  let found = 0;
  for (;;) {
    for (const commit of page.commits) {
      if (commit.oid === stopAt) return found;
      const trailers = parseTrailers(commit.message);
      if (trailers?.transition === 'consume' && trailers.runId === runId) found += 1;
    }
    if (!page.hasNextPage || page.endCursor === null) return found;
    page = await ledger.store.readHistory(snapshot.headOid, page.endCursor, 100);
  }
}

export async function runCampaign(options: CampaignOptions): Promise<CampaignFigures> {
  const started = Date.now();
  const world = await ledgerWorld({ seed: options.seed });
  const children: ChildProcess[] = [];
  try {
    const coordinator = world.context({ seed: options.seed, maxAttempts: 20 });
    for (let index = 0; index < options.processes; index += 1) {
      const child = fork(WORKER, [], {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      children.push(child);
      const init: WorkerInit = {
        type: 'init',
        index,
        url: world.emulator.url,
        token: LEDGER_TOKEN,
        repository: REPOSITORY,
        branch: BRANCH,
        app: world.app,
        seed: options.seed * 1000 + index,
        maxLatencyMs: options.maxLatencyMs,
        policy: POLICY,
      };
      child.send(init);
    }
    await Promise.all(
      children.map((child) =>
        waitFor(child, (m): m is { type: 'ready' } => (m as { type?: string }).type === 'ready'),
      ),
    );
    world.emulator.admin.addFault({
      match: { operation: 'createCommitOnBranch' },
      fault: { type: 'apply-then-drop' },
      probability: options.dropProbability,
    });
    const figures: CampaignFigures = {
      processes: options.processes,
      trials: options.trials,
      attempts: 0,
      trialsWithExactlyOneWinner: 0,
      winners: 0,
      codedRefusals: 0,
      refusalCodes: {},
      uncoded: 0,
      lostApprovals: 0,
      doubledApprovals: 0,
      recoveredLostResponses: 0,
      droppedCommitResponses: 0,
      consumeCommits: 0,
      finalEpoch: 0,
      ledgerCommits: 0,
      apiRequests: 0,
      requestsPerTrial: 0,
      emulatorHours: Math.floor(options.trials / TRIALS_PER_HOUR),
      seconds: 0,
    };
    for (let trial = 0; trial < options.trials; trial += 1) {
      const runId = `race-${options.seed}-${trial}`;
      const plan = await proposePlanFor(coordinator, runId);
      const before = await showLedger(coordinator);
      const commentId = 100_000 + trial;
      const reports = await Promise.all(
        children.map((child, index) => {
          const message: WorkerConsume = {
            type: 'consume',
            trial,
            input: {
              runId,
              approval: approvalFor(plan, commentId),
              plan: recomputed(plan),
              holder: { workflow_run_id: 7000 + index, attempt: 1 },
            },
          };
          const reply = waitFor(child, (m): m is WorkerReport => (m as WorkerReport).trial === trial);
          child.send(message);
          return reply;
        }),
      );
      const after = await showLedger(coordinator);
      const winners = reports.filter((report) => report.ok);
      const commits = await consumeCommitsSince(coordinator, runId, before.headOid);
      const run = after.runs.find((candidate) => candidate.run_id === runId);
      figures.attempts += reports.length;
      figures.winners += winners.length;
      figures.consumeCommits += commits;
      figures.recoveredLostResponses += winners.filter((report) => report.recovered).length;
      for (const report of reports) {
        if (report.ok) continue;
        if (report.code !== null && !report.code.startsWith('uncoded')) {
          figures.codedRefusals += 1;
          figures.refusalCodes[report.code] = (figures.refusalCodes[report.code] ?? 0) + 1;
        } else figures.uncoded += 1;
      }
      if (winners.length === 1) figures.trialsWithExactlyOneWinner += 1;
      const recorded = run?.approval !== null && run?.approval !== undefined;
      const epochDelta = after.lease.epoch - before.lease.epoch;
      const owner = run?.owner ?? null;
      // Lost: an approval recorded that nobody was told they won, or a win the ledger does not hold.
      if ((recorded || commits > 0) !== winners.length > 0 || (winners.length === 1 && epochDelta !== 1)) {
        figures.lostApprovals += 1;
      }
      // Doubled: more than one consume commit, winner or epoch step, or an owner other than the winner.
      const winner = winners.length === 1 ? winners[0] : undefined;
      if (
        commits > 1 ||
        winners.length > 1 ||
        epochDelta > 1 ||
        (winner !== undefined && owner?.holder.workflow_run_id !== 7000 + winner.index)
      ) {
        figures.doubledApprovals += 1;
      }
      if (owner !== null)
        await releaseLease(coordinator, { runId, epoch: owner.epoch, holder: owner.holder });
      figures.finalEpoch = after.lease.epoch;
      // One trial costs ~80 GraphQL requests against the installation's 5,000/hour primary limit, which
      // the emulator enforces as GitHub does: between trials (lease released), let an hour pass.
      if ((trial + 1) % TRIALS_PER_HOUR === 0) world.emulator.admin.clock({ advance_ms: 3_600_000 });
    }
    figures.droppedCommitResponses = world.emulator.admin
      .requests()
      .filter(
        (entry) => entry.status === 'dropped' && entry.mutations.includes('createCommitOnBranch'),
      ).length;
    const tail = await coordinator.store.read({ paths: [], historyFirst: 1 });
    if (tail === null) throw new Error('the ledger branch vanished');
    let count = 0;
    let page = await coordinator.store.readHistory(tail.headOid, null, 100);
    for (;;) {
      count += page.commits.length;
      if (!page.hasNextPage || page.endCursor === null) break;
      page = await coordinator.store.readHistory(tail.headOid, page.endCursor, 100);
    }
    figures.ledgerCommits = count;
    figures.apiRequests = world.emulator.admin.requests().length;
    figures.requestsPerTrial = Math.round((figures.apiRequests / options.trials) * 10) / 10;
    figures.seconds = Math.round((Date.now() - started) / 100) / 10;
    return figures;
  } finally {
    for (const child of children) {
      if (child.connected) child.send({ type: 'exit' });
    }
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
