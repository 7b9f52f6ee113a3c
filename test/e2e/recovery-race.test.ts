/**
 * The recovery reliability figures in CI (the full runs: `npm run race:recovery` for every kill point,
 * `npm run race:recovery -- --sweepers` for 200 sweeper trials):
 * - 4 recovery processes at once over the same expired runs, 25 seeded trials: exactly one takeover
 *   per run, the final ledger state the scenario implies, no duplicate projection, no lost approval;
 * - a seeded sample of 40 kill points (stage × request boundary × kind) over preview, consume-approval
 *   and publish-artifact: after at most two recovery sweeps, zero duplicates and zero lost approvals,
 *   every run in the uninterrupted run's end state or at needs-reconciliation with a reason.
 */
import { expect, it } from '@jest/globals';
import { runKillPointCampaign } from '../recovery-race/kill-points.js';
import { runSweeperCampaign } from '../recovery-race/sweepers.js';

const sweeperTrials = Number(process.env.WRIT_RECOVERY_SWEEPER_TRIALS ?? '25');
const killPoints = Number(process.env.WRIT_RECOVERY_KILL_POINTS ?? '40');

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
}, 900_000);

it(`survives a seeded sample of ${killPoints} kill points with no duplicate and no lost approval`, async () => {
  const figures = await runKillPointCampaign({ seed: 1, sample: killPoints });
  process.stdout.write(`recovery kill points: ${JSON.stringify(figures)}\n`);
  expect(figures.trials).toBe(killPoints);
  // A boundary past the requests a stage made this time (retries vary the count) runs uninterrupted.
  expect(figures.faultsFired).toBeGreaterThanOrEqual(Math.ceil(killPoints * 0.75));
  expect(Object.keys(figures.byKind).length).toBeGreaterThanOrEqual(4);
  expect(figures.failures).toEqual([]);
  expect(figures.duplicates).toBe(0);
  expect(figures.lostApprovals).toBe(0);
}, 1_800_000);
