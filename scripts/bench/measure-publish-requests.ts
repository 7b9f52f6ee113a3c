// Counts the API requests (and writes) one publish-artifact run makes: first publish, changed, unchanged.
// Run: npx tsx scripts/bench/measure-publish-requests.ts
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { proposeRun } from '@writ/core/ledger/ledger.js';
import { bindPlan } from '@writ/core/plan/binding.js';
import { loadPlanFile } from '@writ/core/plan/load.js';
import { deriveRunId } from '@writ/core/plan/run-id.js';
import { PEOPLE, approveInProcess, planVariant, sliceWorld } from '../../test/support/world.js';

const world = await sliceWorld({ seed: 9 });
const dir = mkdtempSync(join(tmpdir(), 'pr-'));
const planFile = planVariant(dir, 'p');
const b = bindPlan(loadPlanFile(planFile));
const runId = deriveRunId(b.digest);
await proposeRun(world.ledger, {
  runId,
  planDigest: b.digest,
  evidenceDigest: null,
  scope: b.scope,
  bounds: b.bounds,
  steps: b.steps,
});
const event = await world.comment({ login: PEOPLE.write }, `writ: approve ${runId} ${b.digest.slice(7)}`);
await approveInProcess(world, planFile, event, { holder: 1, allowedRoles: ['write'] });
const epoch = String((await world.runFile(runId))?.owner?.epoch ?? '');
const last = (): number => world.emulator.admin.requests().at(-1)?.seq ?? 0;
for (const [label, text] of [
  ['first publish', 'a\n'],
  ['changed', 'b\n'],
  ['unchanged', 'b\n'],
] as const) {
  const f = join(dir, `${label}.md`);
  writeFileSync(f, text);
  const seq = last();
  const run = await world.run(
    'publish-artifact',
    {
      'run-id': runId,
      epoch,
      'plan-file': planFile,
      path: 'docs/x.md',
      'content-file': f,
      'dry-run': 'false',
      ...world.ledgerInputs(),
    },
    // A later job of the workflow run that approved (holder 1): publish is fenced by holder.
    { env: { RUNNER_TEMP: dir, GITHUB_RUN_ID: '1', GITHUB_RUN_ATTEMPT: '1' } },
  );
  const reqs = world.emulator.admin.requests().filter((r) => r.seq > seq);
  const writes = reqs.filter(
    (r) => r.method !== 'GET' && !(r.path === '/graphql' && r.mutations.length === 0),
  );
  console.log(
    `${label}: outcome ${run.outputs.outcome}; ${reqs.length} requests, ${writes.length} writes: ${writes.map((w) => `${w.method} ${w.path.replace('/repos/acme/widgets', '')} ${w.mutations.join(',')}`).join('; ')}`,
  );
}
await world.close();
