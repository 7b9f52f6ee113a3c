/**
 * The recovery reliability figures from the command line (`npm run race:recovery`), as JSON:
 *   npm run race:recovery                      the full kill-point campaign (every boundary × kind)
 *   npm run race:recovery -- --sweepers        the concurrent-sweepers campaign (200 seeded trials)
 * Options: --trials <n> (sweepers; or a seeded sample of the kill points), --seed <n>,
 * --stages preview,consume-approval,persist,publish-artifact (the lifecycle stages to kill),
 * --only <stage>#<boundary>:<kind>,… (reproduce those combinations).
 * Every trial's ledger history is checked against model/relation.json (conformanceProblems: 0).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runKillPointCampaign } from './kill-points.js';
import { runSweeperCampaign } from './sweepers.js';

// Like npm test: the stages run from bundles of the working tree (.tmp/test-dist/), never a stale dist/.
const testBundles = fileURLToPath(new URL('../../scripts/build/test-bundles.mjs', import.meta.url));
execFileSync(process.execPath, [testBundles], { stdio: ['ignore', 'inherit', 'inherit'] });
process.env.WRIT_BUNDLE_DIR = fileURLToPath(new URL('../../.tmp/test-dist/', import.meta.url));

const { values } = parseArgs({
  options: {
    sweepers: { type: 'boolean', default: false },
    trials: { type: 'string' },
    seed: { type: 'string', default: '1' },
    stages: { type: 'string' },
    only: { type: 'string' },
  },
});
const seed = Number(values.seed);
if (values.sweepers) {
  const figures = await runSweeperCampaign({ trials: Number(values.trials ?? '200'), seed });
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  process.exitCode =
    figures.trialsWithOneTakeover === figures.trials &&
    figures.divergentStates === 0 &&
    figures.duplicateProjections === 0 &&
    figures.doubleConsumes === 0 &&
    figures.lostApprovalTrials === 0 &&
    figures.sweeperErrors === 0 &&
    figures.conformanceProblems === 0
      ? 0
      : 1;
} else {
  const figures = await runKillPointCampaign({
    seed,
    ...(values.trials === undefined ? {} : { sample: Number(values.trials) }),
    ...(values.stages === undefined ? {} : { stages: values.stages.split(',') }),
    ...(values.only === undefined ? {} : { only: values.only.split(',') }),
  });
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  process.exitCode = figures.failures.length === 0 ? 0 : 1;
}
