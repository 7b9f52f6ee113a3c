// Counts the API requests, the plan writes and the ledger commits persist makes: one single-step plan per
// step kind, and a roadmap-shaped plan of every kind (7 steps) at claim-window 1 and 10, in-process
// against the emulator with the real client. Run: npx tsx scripts/bench/measure-persist-requests.ts
import type { PlanStep } from '@writ/core/plan/types.js';
import { OWNER, REPO } from '../../packages/core/test/ledger/support/emulator.js';
import type { PersistWorld } from '../../packages/core/test/persist/support.js';
import {
  ALL_POSITIVE,
  BEST_EFFORT,
  evidenceFile,
  persistWorld,
  planOf,
} from '../../packages/core/test/persist/support.js';

const base = { owner: OWNER, repo: REPO };

async function world(): Promise<PersistWorld> {
  const w = await persistWorld();
  await w.commitDefault({
    '.writ/policy.json': JSON.stringify(BEST_EFFORT),
    '.writ/probe-evidence.json': JSON.stringify(
      evidenceFile(w.world.emulator.url, ALL_POSITIVE, '2026-11-25T00:00:00Z'),
    ),
  });
  return w;
}

async function measure(w: PersistWorld, steps: PlanStep[], claimWindow: number): Promise<string> {
  const plan = planOf(steps, { max_steps: 50 }, `measure ${Math.random()}`);
  const { runId } = await w.approve(plan);
  const before = w.seq();
  const result = await w.persist(plan, runId, { claimWindow });
  const requests = w.world.emulator.admin.requests().filter((r) => r.seq > before);
  const commits = requests.filter((r) => r.mutations.includes('createCommitOnBranch')).length;
  const writes = w.writesSince(before).length;
  return `${result.outcome}: ${requests.length} requests (${requests.filter((r) => r.path === '/graphql').length} GraphQL), ${writes} plan writes, ${commits} ledger commits`;
}

const kinds: [string, (w: PersistWorld) => Promise<PlanStep>][] = [
  [
    'milestone.upsert (create)',
    () =>
      Promise.resolve({
        id: 's',
        kind: 'milestone.upsert',
        key: 'k:new',
        title: 'v9',
        expect: { exists: false },
      }),
  ],
  [
    'milestone.edit',
    () =>
      Promise.resolve({
        id: 's',
        kind: 'milestone.edit',
        milestone: { number: 2 },
        set: { state: 'closed' },
      }),
  ],
  [
    'issue.set-milestone',
    async (w) => ({
      id: 's',
      kind: 'issue.set-milestone',
      issue: (await w.owner.rest.issues.create({ ...base, title: 'a' })).data.number,
      milestone: { number: 1 },
      expect: { milestone: null },
    }),
  ],
  [
    'issue.labels',
    async (w) => ({
      id: 's',
      kind: 'issue.labels',
      issue: (await w.owner.rest.issues.create({ ...base, title: 'b' })).data.number,
      add: ['x'],
    }),
  ],
  ['issue.create', () => Promise.resolve({ id: 's', kind: 'issue.create', title: 'Epic', labels: ['epic'] })],
  [
    'comment.upsert (create)',
    async (w) => ({
      id: 's',
      kind: 'comment.upsert',
      issue: (await w.owner.rest.issues.create({ ...base, title: 'c' })).data.number,
      key: 'k:c',
      body: 'hi',
    }),
  ],
];
for (const [name, make] of kinds) {
  const w = await world();
  console.log(`${name}: ${await measure(w, [await make(w)], 1)}`);
  await w.close();
}
for (const claimWindow of [1, 10]) {
  const w = await world();
  const a = (await w.owner.rest.issues.create({ ...base, title: 'Importer', labels: ['roadmap'] })).data
    .number;
  const b = (
    await w.owner.rest.issues.create({
      ...base,
      title: 'Plugins',
      labels: ['roadmap', 'needs-triage'],
      milestone: 1,
    })
  ).data.number;
  const t = (await w.owner.rest.issues.create({ ...base, title: 'Tracking' })).data.number;
  const steps: PlanStep[] = [
    { id: 'm-25', kind: 'milestone.upsert', key: 'roadmap:v2.5', title: 'v2.5', expect: { exists: false } },
    { id: 'close-23', kind: 'milestone.edit', milestone: { number: 2 }, set: { state: 'closed' } },
    { id: 'assign-a', kind: 'issue.set-milestone', issue: a, milestone: { number: 1 } },
    { id: 'move-b', kind: 'issue.set-milestone', issue: b, milestone: { key: 'roadmap:v2.5' } },
    { id: 'label-b', kind: 'issue.labels', issue: b, add: ['deferred'], remove: ['needs-triage'] },
    { id: 'epic', kind: 'issue.create', title: 'Epic', milestone: { key: 'roadmap:v2.5' } },
    { id: 'summary', kind: 'comment.upsert', issue: t, key: 'roadmap:summary', body: 'Refreshed.' },
  ];
  console.log(
    `roadmap-shaped plan (7 steps), claim-window ${claimWindow}: ${await measure(w, steps, claimWindow)}`,
  );
  await w.close();
}
