// What conditional reads save: the roadmap-shaped plan (7 steps, every kind) persisted at claim-window 1
// and 10 with Writ's client's `conditionalReads` off and on, in-process against the emulator (which
// answers an unchanged listing's If-None-Match with 304 and, as GitHub documents, does not count an
// authorized 304 against the primary rate limit). Counted on the emulator's request log: requests, 304s
// and the core (REST) rate limit spent. Run: npx tsx scripts/bench/measure-conditional-reads.ts
import { createGitHubClient, loopbackTimings } from '@writ/core/github/client.js';
import type { PlanStep } from '@writ/core/plan/types.js';
import { OWNER, REPO } from '../../packages/core/test/ledger/support/emulator.js';
import {
  ALL_POSITIVE,
  BEST_EFFORT,
  evidenceFile,
  persistWorld,
  planOf,
  WRITER_TOKEN,
} from '../../packages/core/test/persist/support.js';

const base = { owner: OWNER, repo: REPO };

async function measure(conditionalReads: boolean, claimWindow: number): Promise<string> {
  const w = await persistWorld();
  await w.commitDefault({
    '.writ/policy.json': JSON.stringify(BEST_EFFORT),
    '.writ/probe-evidence.json': JSON.stringify(
      evidenceFile(w.world.emulator.url, ALL_POSITIVE, '2026-11-25T00:00:00Z'),
    ),
  });
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
  const plan = planOf(steps, { max_steps: 50 }, `conditional ${String(conditionalReads)} ${claimWindow}`);
  const { runId } = await w.approve(plan);
  const github = createGitHubClient(WRITER_TOKEN, {
    baseUrl: w.world.emulator.url,
    retries: 0,
    ...loopbackTimings(5),
    throttleId: `measure-conditional-${String(conditionalReads)}-${claimWindow}`,
    conditionalReads,
  });
  const before = w.seq();
  const result = await w.persist(plan, runId, { claimWindow }, { github });
  const requests = w.world.emulator.admin.requests().filter((entry) => entry.seq > before);
  const rest = requests.filter((entry) => entry.path !== '/graphql');
  const notModified = rest.filter((entry) => entry.status === 304).length;
  await w.close();
  return `${result.outcome}: ${requests.length} requests, ${rest.length} REST of which ${notModified} answered 304, core rate limit spent ${rest.length - notModified}`;
}

/** A listing re-read 10 times while nothing changes: what a polling reader (a sweep) does. */
async function poll(conditionalReads: boolean): Promise<string> {
  const w = await persistWorld();
  const issue = (await w.owner.rest.issues.create({ ...base, title: 'Polled' })).data.number;
  await w.owner.rest.issues.createComment({ ...base, issue_number: issue, body: 'status' });
  const github = createGitHubClient(WRITER_TOKEN, {
    baseUrl: w.world.emulator.url,
    ...loopbackTimings(5),
    throttleId: `measure-poll-${String(conditionalReads)}`,
    conditionalReads,
  });
  const before = w.seq();
  for (let index = 0; index < 10; index++)
    await github.rest.issues.listComments({ ...base, issue_number: issue, per_page: 100 });
  const requests = w.world.emulator.admin.requests().filter((entry) => entry.seq > before);
  const notModified = requests.filter((entry) => entry.status === 304).length;
  await w.close();
  return `${requests.length} requests, ${notModified} answered 304, core rate limit spent ${requests.length - notModified}`;
}

for (const conditionalReads of [false, true]) {
  console.log(
    `an unchanged comment listing polled 10 times, conditional reads ${conditionalReads ? 'on ' : 'off'}: ${await poll(conditionalReads)}`,
  );
}
for (const claimWindow of [1, 10]) {
  for (const conditionalReads of [false, true]) {
    console.log(
      `roadmap-shaped plan (7 steps), claim-window ${claimWindow}, conditional reads ${conditionalReads ? 'on ' : 'off'}: ${await measure(conditionalReads, claimWindow)}`,
    );
  }
}
