/**
 * persist at scale, against the emulator with GitHub's secondary limits on and the real client whose
 * pacer runs on the emulator's clock (a wait advances it): the adaptive window's writes and ledger
 * commits, a secondary-limit refusal read back before its write is sent again, and the time budget's
 * handover, resumed by the next invocation until the run completes. Counts only, never time: how long
 * the writes take on the emulator's clock is `npm run bench`'s (scripts/bench/measure-persist-scale.ts).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { GitHubClient } from '../../src/github/client.js';
import { pacerOf } from '../../src/github/client.js';
import type { LedgerContext } from '../../src/ledger/cas.js';
import { readRun } from '../../src/ledger/ledger.js';
import { claimWindowFor } from '../../src/persist/machine.js';
import type { PlanStep } from '../../src/plan/types.js';
import { OWNER, REPO } from '../ledger/support/emulator.js';
import type { PersistWorld } from './support.js';
import {
  ALL_POSITIVE,
  BEST_EFFORT,
  evidenceFile,
  pacedOnEmulatorClock,
  persistWorld,
  planOf,
} from './support.js';

const base = { owner: OWNER, repo: REPO };

let w: PersistWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

interface Scaled {
  world: PersistWorld;
  github: GitHubClient;
  ledger: LedgerContext;
  steps: PlanStep[];
}

/** `n` label steps on issues of their own, and a client and ledger paced on the emulator's clock. */
async function scaled(n: number): Promise<Scaled> {
  const world = await persistWorld();
  w = world;
  const { emulator } = world.world;
  await world.commitDefault({
    '.writ/policy.json': JSON.stringify(BEST_EFFORT),
    '.writ/probe-evidence.json': JSON.stringify(
      evidenceFile(emulator.url, ALL_POSITIVE, '2026-11-25T00:00:00Z'),
    ),
  });
  const steps: PlanStep[] = [];
  for (let at = 0; at < n; at += 1) {
    const issue = (await world.owner.rest.issues.create({ ...base, title: `Issue ${at}` })).data.number;
    steps.push({ id: `l${at}`, kind: 'issue.labels', issue, add: ['triaged'] });
  }
  const { github, ledger } = pacedOnEmulatorClock(world);
  return { world, github, ledger, steps };
}

describe('persist at scale', () => {
  it('a 60-step plan at the adaptive window: one write a step and two ledger commits a window, no refusal', async () => {
    const { world, github, ledger, steps } = await scaled(60);
    const plan = planOf(steps, { max_steps: 60 });
    const { runId, epoch } = await world.approve(plan);
    world.world.emulator.admin.setSecondaryLimits(true);
    const seq = world.seq();
    const result = await world.persist(
      plan,
      runId,
      { epoch, claimWindow: null, timeBudgetMs: 300 * 60_000, maxSteps: 1000 },
      { github, ledger },
    );
    expect(result.outcome).toBe('completed');
    expect(result.stepsDone).toBe(60);
    const k = claimWindowFor(plan, null);
    expect(k).toBe(8);
    const windows = Math.ceil(60 / k);
    expect(result.ledgerCommits).toBe(2 * windows);
    expect(world.writesSince(seq)).toHaveLength(60);
    const log = world.world.emulator.admin.requests().filter((entry) => entry.seq > seq);
    expect(log.filter((entry) => entry.secondaryLimited)).toEqual([]);
    expect(log.filter((entry) => entry.contentCreating)).toHaveLength(60 + 2 * windows);
    // One GraphQL query pre-reads a window and one post-reads it: reads stay under one a step.
    expect(log.filter((entry) => !entry.contentCreating).length).toBeLessThan(60);
    expect(result.pace).toMatchObject({ expected: 60 + 2 * windows, hourlyBudget: 480 });
    expect(result.pace?.figures.refusals).toBe(0);
  });

  it("a write GitHub's secondary limit refuses is read back, then sent again once the wait passed: each write lands once", async () => {
    const { world, github, ledger, steps } = await scaled(12);
    const plan = planOf(steps, { max_steps: 12 });
    const { runId, epoch } = await world.approve(plan);
    // A limit lower than the pacer knows (another tool sharing the installation, in effect).
    world.world.emulator.admin.setSecondaryLimits({ perMinute: 4 });
    const seq = world.seq();
    const result = await world.persist(
      plan,
      runId,
      { epoch, claimWindow: 4, timeBudgetMs: null, maxSteps: 1000 },
      { github, ledger },
    );
    expect(result.outcome).toBe('completed');
    const log = world.world.emulator.admin.requests().filter((entry) => entry.seq > seq);
    const refused = log.filter((entry) => entry.secondaryLimited);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((entry) => entry.status === 403)).toBe(true);
    // Each refused step write is read back before the same write is sent again (a refused ledger commit
    // is a compare-and-set, which the client may send again after the wait).
    const writes = refused.filter((entry) => entry.method === 'PATCH');
    expect(writes.length).toBeGreaterThan(0);
    for (const refusal of writes) {
      const after = log.slice(log.indexOf(refusal) + 1);
      const again = after.findIndex(
        (entry) => entry.method === refusal.method && entry.path === refusal.path,
      );
      expect(again).toBeGreaterThan(0);
      expect(
        after.slice(0, again).some((entry) => entry.method === 'GET' && entry.path === refusal.path),
      ).toBe(true);
    }
    // Writes sent: one per step and one per refusal; applied: one per step (each issue has one label).
    expect(world.writesSince(seq)).toHaveLength(12 + writes.length);
    expect(pacerOf(github)?.figures().refusals).toBe(refused.length);
    const labelled = await Promise.all(
      steps.map(async (step) => {
        const issue = step.kind === 'issue.labels' ? step.issue : 0;
        return (await world.app.rest.issues.get({ ...base, issue_number: issue })).data.labels.length;
      }),
    );
    expect(labelled).toEqual(steps.map(() => 1));
  });

  it('a spent time budget hands the run over with its steps left; each invocation makes progress and the last completes it', async () => {
    const { world, github, ledger, steps } = await scaled(3);
    const plan = planOf(steps, { max_steps: 3 });
    const { runId, epoch } = await world.approve(plan);
    const clock = world.world.emulator.world.clock;
    const seq = world.seq();
    const outcomes: string[] = [];
    const done: number[] = [];
    for (let invocation = 0; invocation < 5 && outcomes.at(-1) !== 'completed'; invocation += 1) {
      const result = await world.persist(
        plan,
        runId,
        { epoch, claimWindow: 1, timeBudgetMs: 60_000, maxSteps: 1000 },
        // Each write takes 40 s of the clock: a second window would end past the budget.
        { github, ledger, afterWrite: () => clock.advance(40_000) },
      );
      outcomes.push(result.outcome);
      done.push(result.stepsDone);
      if (result.outcome === 'handover') {
        expect(result.reason).toBe('');
        expect(result.refusal).toBeNull();
        expect((await readRun(ledger, runId)).run?.state).toBe('running');
      }
    }
    expect(outcomes).toEqual(['handover', 'handover', 'completed']);
    expect(done).toEqual([1, 2, 3]);
    expect(world.writesSince(seq)).toHaveLength(3);
  });
});
