/**
 * Runs the full race campaign from the command line and prints its figures as JSON:
 *   node --import tsx packages/core/test/ledger/race/run.ts [--processes 8] [--trials 200] [--seed 1]
 * (also `npm run race:ledger -w @writ/cli`).
 */
import { parseArgs } from 'node:util';
import { runCampaign } from './campaign.js';

const { values } = parseArgs({
  options: {
    processes: { type: 'string', default: '8' },
    trials: { type: 'string', default: '200' },
    seed: { type: 'string', default: '1' },
    'max-latency-ms': { type: 'string', default: '50' },
    'drop-probability': { type: 'string', default: '0.05' },
  },
});
const figures = await runCampaign({
  processes: Number(values.processes),
  trials: Number(values.trials),
  seed: Number(values.seed),
  maxLatencyMs: Number(values['max-latency-ms']),
  dropProbability: Number(values['drop-probability']),
});
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
const clean =
  figures.trialsWithExactlyOneWinner === figures.trials &&
  figures.uncoded === 0 &&
  figures.lostApprovals === 0 &&
  figures.doubledApprovals === 0 &&
  figures.consumeCommits === figures.trials;
process.exitCode = clean ? 0 : 1;
