/**
 * The race campaign in CI: 8 OS processes consuming the same approval per trial, 0..50 ms random latency,
 * 5% apply-then-drop. CI runs a bounded number of trials (WRIT_RACE_TRIALS, default 25, in test/support/campaigns.mjs); the full
 * 200-trial campaign is `npm run race:ledger -w @writ/cli`.
 */
import { expect, it } from '@jest/globals';
import { CAMPAIGNS } from '../../../../../test/support/campaigns.mjs';
import { runCampaign } from './campaign.js';

const trials = CAMPAIGNS.ledgerRaceTrials;

it(`elects exactly one winner in each of ${trials} trials of 8 processes, with no lost or doubled approval`, async () => {
  const figures = await runCampaign({
    processes: 8,
    trials,
    seed: 11,
    maxLatencyMs: 50,
    dropProbability: 0.05,
  });
  process.stdout.write(`race campaign: ${JSON.stringify(figures)}\n`);
  expect(figures.trialsWithExactlyOneWinner).toBe(trials);
  expect(figures.winners).toBe(trials);
  expect(figures.codedRefusals).toBe(trials * 7);
  expect(figures.uncoded).toBe(0);
  expect(figures.lostApprovals).toBe(0);
  expect(figures.doubledApprovals).toBe(0);
  expect(figures.consumeCommits).toBe(trials);
}, 300_000);
