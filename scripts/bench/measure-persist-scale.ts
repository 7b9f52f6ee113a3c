// persist at scale: plans of 50, 200 and 1,000 steps (six in ten add a label to an existing issue, three
// in ten create an issue, one in ten upserts a milestone) run at the action's defaults (the adaptive
// claim window, the 300-minute time budget) against the emulator with GitHub's secondary limits on,
// through the real client with its pacer on the emulator's clock (a wait advances the clock). Prints,
// per plan: requests, content-creating requests (REST POST/PATCH/PUT/DELETE and GraphQL mutations, what
// the secondary limits count) per step, ledger commits, secondary-limit refusals, the emulator-clock
// time beside the floor GitHub's limits set for the same content-creating requests (the larger of
// N/80 per minute and N/500 per hour), and the invocations to completion.
// Run: npx tsx scripts/bench/measure-persist-scale.ts [steps...]
import { claimWindowFor } from '../../packages/core/src/persist/machine.js';
import type { PlanStep } from '@writ/core/plan/types.js';
import { OWNER, REPO } from '../../packages/core/test/ledger/support/emulator.js';
import {
  ALL_POSITIVE,
  BEST_EFFORT,
  evidenceFile,
  pacedOnEmulatorClock,
  persistWorld,
  planOf,
} from '../../packages/core/test/persist/support.js';

const TIME_BUDGET_MS = 300 * 60_000;
const MAX_INVOCATIONS = 10;

function stepsOf(n: number, issues: readonly number[]): PlanStep[] {
  return Array.from({ length: n }, (_, at): PlanStep => {
    const slot = at % 10;
    if (slot < 6)
      return { id: `l${at}`, kind: 'issue.labels', issue: issues[at] as number, add: ['triaged'] };
    if (slot < 9) return { id: `c${at}`, kind: 'issue.create', title: `Task ${at}` };
    return {
      id: `m${at}`,
      kind: 'milestone.upsert',
      key: `scale:m${at}`,
      title: `M${at}`,
      expect: { exists: false },
    };
  });
}

async function measure(n: number): Promise<string> {
  const w = await persistWorld();
  const { emulator } = w.world;
  await w.commitDefault({
    '.writ/policy.json': JSON.stringify(BEST_EFFORT),
    '.writ/probe-evidence.json': JSON.stringify(
      evidenceFile(emulator.url, ALL_POSITIVE, '2026-11-25T00:00:00Z'),
    ),
  });
  const issues: number[] = [];
  for (let at = 0; at < n; at += 1) {
    if (at % 10 < 6)
      issues[at] = (
        await w.owner.rest.issues.create({ owner: OWNER, repo: REPO, title: `Issue ${at}` })
      ).data.number;
  }
  const steps = stepsOf(n, issues);
  const plan = planOf(steps, { max_steps: n, max_creates: n }, `scale ${n}`);
  const { runId, epoch } = await w.approve(plan);
  const clock = emulator.world.clock;
  const { github, ledger } = pacedOnEmulatorClock(w);
  emulator.admin.setSecondaryLimits(true);
  const before = w.seq();
  const started = clock.now();
  let invocations = 0;
  let outcome = '';
  while (invocations < MAX_INVOCATIONS && outcome !== 'completed') {
    invocations += 1;
    const result = await w.persist(
      plan,
      runId,
      { epoch, claimWindow: null, timeBudgetMs: TIME_BUDGET_MS, maxSteps: 1000 },
      { github, ledger },
    );
    outcome = result.outcome;
    if (outcome !== 'completed' && outcome !== 'handover') {
      outcome = `${result.outcome} ${result.reason}`;
      break;
    }
  }
  const elapsedMin = (clock.now() - started) / 60_000;
  const requests = emulator.admin.requests().filter((entry) => entry.seq > before);
  const creating = requests.filter((entry) => entry.contentCreating);
  const refused = requests.filter((entry) => entry.secondaryLimited).length;
  const commits = requests.filter((entry) => entry.mutations.includes('createCommitOnBranch')).length;
  // Each window is one claim and one checkpoint commit (the last checkpoint completes the run).
  const windows = commits / 2;
  // GitHub's limits as the issue states the floor: 80 a minute while the whole lot fits in an hour's 500,
  // else 500 an hour.
  const floorMin = creating.length <= 500 ? creating.length / 80 : (creating.length / 500) * 60;
  await w.close();
  const k = claimWindowFor(plan, null);
  return [
    `${n} steps`,
    `window ${k}`,
    `${requests.length} requests (${(requests.length / n).toFixed(2)}/step, reads ${((requests.length - creating.length) / n).toFixed(2)}/step)`,
    `${creating.length} content-creating (${(creating.length / n).toFixed(3)}/step; 1 + 2/k̄ = ${(1 + (2 * windows) / n).toFixed(3)} at ${windows} windows of ${(n / windows).toFixed(1)} steps on average, k = ${k})`,
    `${commits} ledger commits`,
    `${refused} refused by the secondary limit`,
    `${elapsedMin.toFixed(1)} min on the emulator's clock, floor ${floorMin.toFixed(1)} min (${((elapsedMin / floorMin - 1) * 100).toFixed(1)}% over)`,
    `${invocations} invocation(s): ${outcome}`,
  ].join(' | ');
}

const sizes = process.argv.slice(2).map(Number);
for (const n of sizes.length > 0 ? sizes : [50, 200, 1000]) console.log(await measure(n));
