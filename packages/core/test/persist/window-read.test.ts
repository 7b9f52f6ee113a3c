/**
 * A claim window's reads batched (persist/window-read.ts): the snapshot of one GraphQL query judged by
 * the same rules as a lone step's REST reads. For every step kind and the states the persist tests use
 * (desired, pre-state, a diff against `expect`, a missing issue or milestone, foreign markers, an issue
 * past one page of labels), the assessment and its `pre_state_digest` are the same over both paths,
 * and so is each write's verify. In-process against the emulator with the real client; requests are
 * counted from the emulator's log.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { sha256 } from '../../src/setup/policy.js';
import { withMarker } from '../../src/idempotency/key.js';
import type { Assessment, StepReadContext, WritableStep } from '../../src/persist/steps.js';
import { assessStep, keyMarker, preStateDigest } from '../../src/persist/steps.js';
import type { WindowReadFailure, WindowReadStats } from '../../src/persist/window-read.js';
import { readWindow, verifyWindow } from '../../src/persist/window-read.js';
import { OWNER, REPO, emulatorClient } from '../ledger/support/emulator.js';
import type { PersistWorld } from './support.js';
import { persistWorld } from './support.js';

const base = { owner: OWNER, repo: REPO };

let w: PersistWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

function contextOf(world: PersistWorld, overrides: Partial<StepReadContext> = {}): StepReadContext {
  return {
    ...base,
    ownLogin: world.ownLogin,
    pageCap: 20,
    createdAfter: null,
    milestoneKeys: new Map<string, number>(),
    precheck: false,
    runId: 'run-w',
    ...overrides,
  };
}

/** What an assessment says, its digest and its write's shape (the write itself is a closure). */
function view(assessment: Assessment | WindowReadFailure | undefined): unknown {
  if (assessment === undefined) return 'missing';
  if ('failed' in assessment) return assessment;
  const { write, ...rest } = assessment;
  return {
    ...rest,
    digest: preStateDigest(assessment),
    write: write === null ? null : { describe: write.describe, create: write.create },
  };
}

function isAssessment(value: Assessment | WindowReadFailure | undefined): value is Assessment {
  return value !== undefined && !('failed' in value);
}

/** Requests to the emulator since `seq`: GraphQL queries, and REST reads (GETs). */
function requestsSince(world: PersistWorld, seq: number): { graphql: number; gets: string[] } {
  const after = world.world.emulator.admin.requests().filter((r) => r.seq > seq);
  return {
    graphql: after.filter((r) => r.path === '/graphql').length,
    gets: after.filter((r) => r.method === 'GET').map((r) => r.path.replace(/\?.*$/, '')),
  };
}

async function issue(world: PersistWorld, title: string, labels: string[] = [], milestone?: number) {
  return (
    await world.owner.rest.issues.create({
      ...base,
      title,
      body: 'b',
      labels,
      ...(milestone === undefined ? {} : { milestone }),
    })
  ).data;
}

/**
 * Every kind in the states the persist tests use. Milestones #1 (v2.4) and #2 (v2.3, "old notes") are
 * the app's (support.ts); more are made here, by the app and by others.
 */
async function scenario(world: PersistWorld): Promise<{ steps: WritableStep[]; keys: Map<string, number> }> {
  const { admin } = world.world.emulator;
  admin.createToken({
    token: 'ghs_githubTokenPlantsMarkers000000000000',
    kind: 'github_token',
    permissions: { issues: 'write' },
  });
  const planter = emulatorClient(world.world.emulator, 'ghs_githubTokenPlantsMarkers000000000000', 0);
  const own = (
    await world.app.rest.issues.createMilestone({
      ...base,
      title: 'v3',
      description: withMarker('Plan notes.', keyMarker('release:v3')),
      due_on: '2026-12-24T08:00:00Z',
    })
  ).data;
  const planted = (
    await planter.rest.issues.createMilestone({
      ...base,
      title: 'Planted',
      description: withMarker('planted', keyMarker('release:v9')),
    })
  ).data;
  await world.app.rest.issues.createMilestone({
    ...base,
    title: 'v6',
    description: withMarker('Six.', keyMarker('release:v6')),
  });
  const ownerMade = (await world.owner.rest.issues.createMilestone({ ...base, title: 'v5 (owner)' })).data;
  const a = await issue(world, 'A', ['roadmap', 'Zeta', 'alpha'], 1);
  const b = await issue(world, 'B');
  const many = Array.from({ length: 101 }, (_, i) => `many-${String(i).padStart(3, '0')}`);
  const crowded = await issue(world, 'Crowded', many);
  const closed = await issue(world, 'Closed', ['done'], 2);
  await world.owner.rest.issues.update({ ...base, issue_number: closed.number, state: 'closed' });
  await world.owner.rest.issues.createComment({ ...base, issue_number: b.number, body: 'hello' });
  const keys = new Map([['release:v3', own.number]]);
  const steps: WritableStep[] = [
    // milestone.upsert: desired (own, keyed); an update with a diff; a create beside a foreign marker;
    // a title taken without the key; adoption of a milestone by number.
    {
      id: 'up-desired',
      kind: 'milestone.upsert',
      key: 'release:v3',
      title: 'v3',
      description: 'Plan notes.',
    },
    {
      id: 'up-update',
      kind: 'milestone.upsert',
      key: 'release:v3',
      title: 'v3.1',
      state: 'closed',
      expect: { exists: true, milestone: { number: own.number, title: 'v3', state: 'closed' } },
    },
    { id: 'up-foreign', kind: 'milestone.upsert', key: 'release:v9', title: 'v9', description: 'x' },
    { id: 'up-taken', kind: 'milestone.upsert', key: 'release:v5', title: 'v5 (owner)' },
    {
      id: 'up-adopt',
      kind: 'milestone.upsert',
      key: 'release:v2.3',
      title: 'v2.3',
      expect: { exists: true, milestone: { number: 2, description_digest: sha256('old notes') } },
    },
    { id: 'up-planted-title', kind: 'milestone.upsert', key: 'release:v9', title: 'Planted' },
    // milestone.edit: desired; a write with an expect diff; by a known key; by a key only the listing
    // finds; a missing milestone; a description that would drop another key.
    { id: 'edit-desired', kind: 'milestone.edit', milestone: { number: 1 }, set: { title: 'v2.4' } },
    {
      id: 'edit-diff',
      kind: 'milestone.edit',
      milestone: { number: 2 },
      set: { state: 'closed', due_on: '2027-01-01T00:00:00Z' },
      expect: { title: 'v2.2', updated_at: '2020-01-01T00:00:00Z', description_digest: sha256('x') },
    },
    {
      id: 'edit-known-key',
      kind: 'milestone.edit',
      milestone: { key: 'release:v3' },
      set: { state: 'closed' },
    },
    {
      id: 'edit-listed-key',
      kind: 'milestone.edit',
      milestone: { key: 'release:v3' },
      set: { title: 'v3!' },
    },
    // Only the listing names it (no other step reads it by number): answered from the listing.
    {
      id: 'edit-listed-only',
      kind: 'milestone.edit',
      milestone: { key: 'release:v6' },
      set: { title: 'v6.0' },
    },
    { id: 'edit-missing', kind: 'milestone.edit', milestone: { number: 404 }, set: { state: 'closed' } },
    { id: 'edit-unknown-key', kind: 'milestone.edit', milestone: { key: 'nope' }, set: { state: 'closed' } },
    {
      id: 'edit-drops-key',
      kind: 'milestone.edit',
      milestone: { number: own.number },
      set: { description: 'plain' },
    },
    {
      id: 'edit-owner',
      kind: 'milestone.edit',
      milestone: { number: ownerMade.number },
      set: { state: 'closed' },
    },
    // issue.set-milestone: desired; by number with every expect; by key; removal; a missing issue.
    { id: 'set-desired', kind: 'issue.set-milestone', issue: a.number, milestone: { number: 1 } },
    {
      id: 'set-expect',
      kind: 'issue.set-milestone',
      issue: a.number,
      milestone: { number: 2 },
      expect: {
        milestone: 2,
        labels: ['roadmap'],
        state: 'closed',
        source_milestone: { title: 'v2.4', state: 'open' },
        target_milestone: { title: 'v2.3', description_digest: sha256('other') },
      },
    },
    {
      id: 'set-key',
      kind: 'issue.set-milestone',
      issue: b.number,
      milestone: { key: 'release:v3' },
      expect: { target_milestone: { title: 'v3' } },
    },
    { id: 'set-none', kind: 'issue.set-milestone', issue: closed.number, milestone: null },
    { id: 'set-missing', kind: 'issue.set-milestone', issue: 9999, milestone: { number: 1 } },
    {
      id: 'set-planted-key',
      kind: 'issue.set-milestone',
      issue: b.number,
      milestone: { key: 'release:v9' },
    },
    // issue.labels: desired; add/remove with an expect diff; a missing issue; past one page of labels.
    { id: 'labels-desired', kind: 'issue.labels', issue: a.number, add: ['ROADMAP'], remove: ['gone'] },
    {
      id: 'labels-diff',
      kind: 'issue.labels',
      issue: a.number,
      add: ['planned'],
      remove: ['zeta'],
      expect: { labels: ['roadmap', 'wontfix'] },
    },
    { id: 'labels-missing', kind: 'issue.labels', issue: 9999, add: ['x'] },
    {
      id: 'labels-crowded',
      kind: 'issue.labels',
      issue: crowded.number,
      add: ['extra'],
      expect: { labels: ['many-000'] },
    },
    { id: 'labels-closed', kind: 'issue.labels', issue: closed.number, remove: ['done'] },
    // issue.create: fresh; with a milestone by number and by key; comment.upsert: fresh.
    { id: 'create', kind: 'issue.create', title: 'Epic', body: 'e', labels: ['roadmap'] },
    { id: 'create-m', kind: 'issue.create', title: 'Epic 2', milestone: { number: 2 } },
    { id: 'create-key', kind: 'issue.create', title: 'Epic 3', milestone: { key: 'release:v3' } },
    { id: 'create-no-key', kind: 'issue.create', title: 'Epic 4', milestone: { key: 'release:v9' } },
    { id: 'comment', kind: 'comment.upsert', issue: b.number, key: 'summary', body: 'Summary' },
  ];
  expect(planted.creator?.login).toBe('github-actions[bot]');
  return { steps, keys };
}

async function restAssessments(
  world: PersistWorld,
  context: StepReadContext,
  steps: readonly WritableStep[],
): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  for (const step of steps) {
    try {
      out.set(step.id, view(await assessStep(world.app, context, step)));
    } catch (error: unknown) {
      out.set(step.id, `threw ${String(error)}`);
    }
  }
  return out;
}

describe('readWindow: the snapshot judged by the REST rules', () => {
  it('gives every step kind and state the assessment and digest REST gives', async () => {
    const world = (w = await persistWorld());
    const { steps, keys } = await scenario(world);
    for (const milestoneKeys of [new Map<string, number>(), keys]) {
      const context = contextOf(world, { milestoneKeys });
      const rest = await restAssessments(world, context, steps);
      const stats: WindowReadStats = { queries: 0, restFallbacks: 0 };
      const windowed = await readWindow(world.app, context, steps, stats);
      for (const step of steps)
        expect([step.id, view(windowed.get(step.id))]).toEqual([step.id, rest.get(step.id)]);
      // One query; REST only for what it cannot answer: the missing issue and the crowded one.
      expect(stats).toEqual({ queries: 1, restFallbacks: 3 });
    }
    // The states are what the scenario means them to be (so the equality above covers them).
    const context = contextOf(world);
    const windowed = await readWindow(world.app, context, steps);
    const get = (id: string): Assessment => {
      const found = windowed.get(id);
      if (!isAssessment(found)) throw new Error(`${id}: ${JSON.stringify(found)}`);
      return found;
    };
    expect(get('up-desired').desired).toBe(true);
    expect(get('up-update').diff.join(' ')).toMatch(/expected closed, found open/);
    expect(get('up-foreign').notes.join(' ')).toMatch(/not created by Writ \(github\\-actions\\\[bot\\\]\)/);
    expect(get('up-foreign').write?.create).toBe(true);
    expect(get('up-taken').diff.join(' ')).toMatch(/already has the title/);
    expect(get('up-planted-title').diff.join(' ')).toMatch(/already has the title/);
    expect(get('edit-desired').desired).toBe(true);
    expect(get('edit-diff').diff).toHaveLength(3);
    expect(get('edit-listed-only').preState?.milestone).toMatchObject({ title: 'v6' });
    expect(get('edit-missing').diff).toEqual(['milestone #404 does not exist']);
    expect(get('edit-unknown-key').diff.join(' ')).toMatch(/no milestone carries the key/);
    expect(get('edit-drops-key').diff.join(' ')).toMatch(/which this description would remove/);
    expect(get('set-desired').desired).toBe(true);
    expect(get('set-expect').diff).toHaveLength(4);
    expect(get('set-missing').diff).toEqual(['issue #9999 does not exist']);
    expect(get('set-planted-key').diff.join(' ')).toMatch(/no milestone carries the key `release:v9`/);
    expect(get('labels-desired').desired).toBe(true);
    expect(get('labels-diff').diff.join(' ')).toMatch(
      /expected labels “roadmap”, “wontfix”, found “alpha”, “roadmap”, “Zeta”/,
    );
    expect(get('labels-missing').diff).toEqual(['issue #9999 does not exist']);
    expect((get('labels-crowded').preState?.issue as { labels: string[] }).labels).toHaveLength(101);
    expect(get('create').preState).toBeNull();
  });

  it('the digest a claim recorded from one path is the digest the other reads: no false drift', async () => {
    const world = (w = await persistWorld());
    const { steps } = await scenario(world);
    const context = contextOf(world);
    const windowed = await readWindow(world.app, context, steps);
    for (const step of steps) {
      const batched = windowed.get(step.id);
      if (!isAssessment(batched)) throw new Error(`${step.id} failed`);
      expect([step.id, preStateDigest(await assessStep(world.app, context, step))]).toEqual([
        step.id,
        preStateDigest(batched),
      ]);
    }
    // A real drift is seen through the snapshot as through REST.
    const labels = steps.find((step) => step.id === 'labels-diff') as WritableStep & { issue: number };
    await world.owner.rest.issues.update({ ...base, issue_number: labels.issue, labels: ['roadmap'] });
    const after = (await readWindow(world.app, context, [labels])).get(labels.id);
    expect(isAssessment(after) && preStateDigest(after)).not.toBe(
      preStateDigest(windowed.get(labels.id) as Assessment),
    );
    expect(isAssessment(after) && preStateDigest(after)).toBe(
      preStateDigest(await assessStep(world.app, context, labels)),
    );
  });

  it('a create pre-check (REST listing) finds an earlier create; its issue read falls back to REST and agrees', async () => {
    const world = (w = await persistWorld());
    const step: WritableStep = { id: 'epic', kind: 'issue.create', title: 'Epic', labels: ['roadmap'] };
    const context = contextOf(world, { precheck: true });
    const fresh = await assessStep(world.app, context, step);
    await fresh.write?.send();
    const rest = view(await assessStep(world.app, context, step));
    const windowed = view((await readWindow(world.app, context, [step])).get('epic'));
    expect(windowed).toEqual(rest);
    expect(windowed).toMatchObject({ desired: true, resources: [expect.any(Number)] });
  });

  it('a milestone listing past one page is paged; past the page cap it is inconclusive, as over REST', async () => {
    const world = (w = await persistWorld());
    for (let i = 0; i < 120; i += 1)
      await world.app.rest.issues.createMilestone({ ...base, title: `bulk ${i}` });
    const steps: WritableStep[] = [
      { id: 'up', kind: 'milestone.upsert', key: 'k', title: 'bulk 119' },
      { id: 'edit', kind: 'milestone.edit', milestone: { number: 110 }, set: { title: 'bulk 108' } },
    ];
    for (const pageCap of [2, 1]) {
      const context = contextOf(world, { pageCap });
      const rest = await restAssessments(world, context, steps);
      const stats: WindowReadStats = { queries: 0, restFallbacks: 0 };
      const windowed = await readWindow(world.app, context, steps, stats);
      for (const step of steps) expect(view(windowed.get(step.id))).toEqual(rest.get(step.id));
      expect(stats.queries).toBe(pageCap === 2 ? 2 : 1);
    }
    const capped = (await readWindow(world.app, contextOf(world, { pageCap: 1 }), steps)).get('up');
    expect(isAssessment(capped) && capped.inconclusive).toBe('page-cap');
  });

  it('a failed query fails every step; a token without issues read fails each as REST does', async () => {
    const world = (w = await persistWorld());
    const steps: WritableStep[] = [
      { id: 'l', kind: 'issue.labels', issue: 1, add: ['x'] },
      { id: 'm', kind: 'milestone.edit', milestone: { number: 1 }, set: { state: 'closed' } },
    ];
    const nowhere = await readWindow(world.app, contextOf(world, { repo: 'nowhere' }), steps);
    for (const id of ['l', 'm'])
      expect(nowhere.get(id)).toEqual({
        failed: { status: 200, message: expect.stringMatching(/^github-request-failed: .*\(NOT_FOUND\)/) },
      });
    world.world.emulator.admin.createToken({
      token: 'ghs_contentsOnlyToken0000000000000000000',
      kind: 'installation',
      app: 'writ-ledger',
      permissions: { contents: 'read' },
    });
    const blind = emulatorClient(world.world.emulator, 'ghs_contentsOnlyToken0000000000000000000', 0);
    const refused = await readWindow(blind, contextOf(world), steps);
    for (const id of ['l', 'm']) expect(refused.get(id)).toMatchObject({ failed: { status: 403 } });
  });
});

describe('a window read GitHub refuses', () => {
  it('fails every step of the window with its status, and reads nothing more (no REST read per step)', async () => {
    const world = (w = await persistWorld());
    const a = await issue(world, 'A', ['roadmap']);
    const steps: WritableStep[] = [
      { id: 'l', kind: 'issue.labels', issue: a.number, add: ['x'] },
      { id: 'm', kind: 'milestone.edit', milestone: { number: 1 }, set: { state: 'closed' } },
    ];
    const context = contextOf(world);
    const read = await readWindow(world.app, context, steps);
    const entries = steps.map((step) => {
      const assessment = read.get(step.id);
      if (!isAssessment(assessment) || assessment.write === null) throw new Error(step.id);
      return { step, write: assessment.write, resource: null };
    });
    world.world.emulator.admin.addFault({
      match: { operation: 'WritWindowRead' },
      fault: { type: 'status', status: 502 },
      times: 2,
    });
    const seq = world.seq();
    const refused = await readWindow(world.app, context, steps);
    const unverified = await verifyWindow(world.app, context, entries);
    for (const id of ['l', 'm']) {
      expect(refused.get(id)).toMatchObject({ failed: { status: 502 } });
      expect(unverified.get(id)).toMatchObject({ failed: { status: 502 } });
    }
    expect(requestsSince(world, seq)).toEqual({ graphql: 2, gets: [] });
  });
});

describe('request counts', () => {
  it('a window of 20 label and milestone steps: pre-read in 1 GraphQL request, listing included; verify in 1', async () => {
    const world = (w = await persistWorld());
    const numbers: number[] = [];
    for (let i = 0; i < 10; i += 1) numbers.push((await issue(world, `I${i}`, ['roadmap'])).number);
    const steps: WritableStep[] = [
      ...numbers.map((number, i): WritableStep => ({
        id: `label-${i}`,
        kind: 'issue.labels',
        issue: number,
        add: ['planned'],
      })),
      ...Array.from({ length: 5 }, (_, i): WritableStep => ({
        id: `upsert-${i}`,
        kind: 'milestone.upsert',
        key: `m:${i}`,
        title: `M${i}`,
      })),
      ...numbers.slice(0, 5).map((number, i): WritableStep => ({
        id: `assign-${i}`,
        kind: 'issue.set-milestone',
        issue: number,
        milestone: { number: 1 + (i % 2) },
        expect: { target_milestone: { state: 'open' } },
      })),
    ];
    expect(steps).toHaveLength(20);
    const context = contextOf(world);
    let seq = world.seq();
    for (const step of steps) await assessStep(world.app, context, step);
    // Lone steps over REST: 10 + 5 issues, 5 listings (one page each), 5 target milestones.
    const lone25 = requestsSince(world, seq);
    expect([lone25.graphql, lone25.gets.length]).toEqual([0, 25]);
    seq = world.seq();
    const read = await readWindow(world.app, context, steps);
    expect(requestsSince(world, seq)).toEqual({ graphql: 1, gets: [] });
    // The writes, then their verify in one query, agreeing with each lone verify (REST).
    const entries = [];
    for (const step of steps) {
      const assessment = read.get(step.id);
      if (!isAssessment(assessment) || assessment.write === null) throw new Error(step.id);
      const sent = await assessment.write.send();
      entries.push({ step, write: assessment.write, resource: sent.resource });
    }
    seq = world.seq();
    const verified = await verifyWindow(world.app, context, entries);
    expect(requestsSince(world, seq)).toEqual({ graphql: 1, gets: [] });
    expect([...verified.values()]).toEqual(steps.map(() => true));
    seq = world.seq();
    for (const { step, write, resource } of entries)
      expect([step.id, await write.verify(resource)]).toEqual([step.id, verified.get(step.id)]);
    // Lone verifies over REST: one read each.
    const lone20 = requestsSince(world, seq);
    expect([lone20.graphql, lone20.gets.length]).toEqual([0, 20]);
  });

  it("a window whose steps read nothing GraphQL answers sends no query; a window's milestone listing is one alias", async () => {
    const world = (w = await persistWorld());
    const b = await issue(world, 'B');
    const context = contextOf(world);
    let seq = world.seq();
    await readWindow(world.app, context, [
      { id: 'c', kind: 'comment.upsert', issue: b.number, key: 'k', body: 'x' },
      { id: 'e', kind: 'issue.create', title: 'E' },
    ]);
    expect(requestsSince(world, seq).graphql).toBe(0);
    seq = world.seq();
    const upserts: WritableStep[] = Array.from({ length: 20 }, (_, i) => ({
      id: `u${i}`,
      kind: 'milestone.upsert',
      key: `k${i}`,
      title: `T${i}`,
    }));
    await readWindow(world.app, context, upserts);
    expect(requestsSince(world, seq)).toEqual({ graphql: 1, gets: [] });
  });
});

describe('verifyWindow: the same verdict as each verify', () => {
  it('before the writes land every verdict is false, after them true, over both paths; a comment verifies over REST', async () => {
    const world = (w = await persistWorld());
    const a = await issue(world, 'A', ['roadmap'], 1);
    const steps: WritableStep[] = [
      { id: 'labels', kind: 'issue.labels', issue: a.number, add: ['planned'] },
      { id: 'assign', kind: 'issue.set-milestone', issue: a.number, milestone: { number: 2 } },
      { id: 'edit', kind: 'milestone.edit', milestone: { number: 1 }, set: { state: 'closed' } },
      { id: 'upsert', kind: 'milestone.upsert', key: 'v', title: 'V', description: 'd' },
      { id: 'create', kind: 'issue.create', title: 'C', labels: ['roadmap'], milestone: { number: 2 } },
      { id: 'comment', kind: 'comment.upsert', issue: a.number, key: 'k', body: 'hello' },
    ];
    const context = contextOf(world);
    const read = await readWindow(world.app, context, steps);
    const entries = steps.map((step) => {
      const assessment = read.get(step.id);
      if (!isAssessment(assessment) || assessment.write === null) throw new Error(step.id);
      return { step, write: assessment.write, resource: null as number | null };
    });
    const before = await verifyWindow(world.app, context, entries);
    for (const entry of entries)
      expect([entry.step.id, before.get(entry.step.id)]).toEqual([
        entry.step.id,
        await entry.write.verify(null),
      ]);
    expect([...before.values()]).toEqual(steps.map(() => false));
    for (const entry of entries) entry.resource = (await entry.write.send()).resource;
    const stats: WindowReadStats = { queries: 0, restFallbacks: 0 };
    const seq = world.seq();
    const after = await verifyWindow(world.app, context, entries, stats);
    expect(stats).toEqual({ queries: 1, restFallbacks: 0 });
    // The one GET is the comment's verify, by ID.
    expect(requestsSince(world, seq).gets).toEqual([expect.stringMatching(/\/issues\/comments\/\d+$/)]);
    for (const entry of entries)
      expect([entry.step.id, after.get(entry.step.id)]).toEqual([
        entry.step.id,
        await entry.write.verify(entry.resource),
      ]);
    expect([...after.values()]).toEqual(steps.map(() => true));
    // Someone undoes a write after it: both paths see it.
    await world.owner.rest.issues.update({ ...base, issue_number: a.number, labels: ['roadmap'] });
    const undone = await verifyWindow(world.app, context, entries.slice(0, 1));
    expect(undone.get('labels')).toBe(false);
    expect(await entries[0]?.write.verify(a.number)).toBe(false);
  });
});
