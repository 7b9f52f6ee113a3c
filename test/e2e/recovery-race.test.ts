/**
 * The recovery reliability figures in CI, a seeded sample sized in test/support/campaigns.mjs (the full
 * runs, nightly in .github/workflows/campaigns.yml: `npm run race:recovery` for every kill point,
 * `npm run race:recovery -- --sweepers` for 200 sweeper trials):
 * - 4 recovery processes at once over the same expired runs, in each seeded trial: exactly one takeover
 *   per run, the final ledger state the scenario implies, no duplicate projection, no lost approval;
 * - a seeded sample of kill points (stage × request boundary × kind) over preview, consume-approval
 *   and publish-artifact, and more in persist (a plan of a milestone upsert, an issue create, a
 *   labels edit and a comment upsert): after at most two recovery sweeps and the persist jobs they
 *   list, zero duplicates (created objects counted by their markers against the uninterrupted
 *   reference), no step's write applied twice, zero lost approvals, every run in the uninterrupted
 *   run's end state or at needs-reconciliation with a reason;
 * - in both campaigns, every trial's ledger history allowed, commit by commit, by model/relation.json.
 */
import { expect, it } from '@jest/globals';
import { runKillPointCampaign } from '../recovery-race/kill-points.js';
import { runSweeperCampaign } from '../recovery-race/sweepers.js';
import { CAMPAIGNS } from '../support/campaigns.mjs';

// The sizes (and their environment overrides) are set in test/support/campaigns.mjs.
const sweeperTrials = CAMPAIGNS.recoverySweeperTrials;
const killPoints = CAMPAIGNS.recoveryKillPoints;
const persistKillPoints = CAMPAIGNS.recoveryPersistKillPoints;

it(`lets exactly one of 4 concurrent sweepers take over, in each of ${sweeperTrials} seeded trials`, async () => {
  const figures = await runSweeperCampaign({ trials: sweeperTrials, seed: 5 });
  process.stdout.write(`recovery sweepers: ${JSON.stringify(figures)}\n`);
  expect(figures.sweeperErrors).toBe(0);
  expect(figures.trialsWithOneTakeover).toBe(sweeperTrials);
  expect(figures.takeovers).toBe(sweeperTrials);
  expect(figures.divergentStates).toBe(0);
  expect(figures.duplicateProjections).toBe(0);
  expect(figures.doubleConsumes).toBe(0);
  expect(figures.lostApprovalTrials).toBe(0);
  expect(figures.conformanceCommits).toBeGreaterThan(sweeperTrials * 5);
  expect(figures.nonConforming).toEqual([]);
}, 900_000);

it(`survives a seeded sample of ${killPoints} + ${persistKillPoints} (persist) kill points with no duplicate and no lost approval`, async () => {
  const figures = await runKillPointCampaign({
    seed: 1,
    sample: { persist: persistKillPoints, '*': killPoints },
  });
  process.stdout.write(`recovery kill points: ${JSON.stringify(figures)}\n`);
  const trials = killPoints + persistKillPoints;
  expect(figures.trials).toBe(trials);
  expect(figures.byStage.persist).toBe(persistKillPoints);
  // A boundary past the requests a stage made this time (retries vary the count) runs uninterrupted.
  expect(figures.faultsFired).toBeGreaterThanOrEqual(Math.ceil(trials * 0.75));
  expect(Object.keys(figures.byKind).length).toBeGreaterThanOrEqual(4);
  expect(figures.failures).toEqual([]);
  expect(figures.duplicates).toBe(0);
  expect(figures.doubleWrites).toBe(0);
  expect(figures.lostApprovals).toBe(0);
  // The reference persisted every step once; interrupted persists were resumed by recovery's job.
  expect(figures.reference.appliedWrites).toEqual({ milestone: 1, epic: 1, labels: 1, summary: 1 });
  expect(figures.reference.runState).toBe('completed');
  expect(figures.resumedPersists).toBeGreaterThan(0);
  expect(figures.conformanceCommits).toBeGreaterThan(trials * 5);
  expect(figures.conformanceProblems).toBe(0);
}, 2_700_000);
