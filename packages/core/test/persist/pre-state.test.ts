/**
 * `pre_state_digest`: persist pre-reads each step of a claim window before claiming it and records the
 * digest of the fields it observed (never a body) in the claim; the next claim of the step — persist
 * resuming it, or recovery observing it — compares the pre-state it reads now and refuses a drift with
 * `pre-state-drift` instead of writing over it. In-process against the emulator with the real client.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { DIGEST_PATTERN } from '../../src/canonical-json.js';
import { claimStep, readRun, readVerifiedRun } from '../../src/ledger/ledger.js';
import { observeStep } from '../../src/persist/observe.js';
import type { WritableStep } from '../../src/persist/steps.js';
import { assessStep, preStateDigest, readsWriteOf } from '../../src/persist/steps.js';
import type { PlanStep } from '../../src/plan/types.js';
import { OWNER, REPO } from '../ledger/support/emulator.js';
import type { PersistWorld } from './support.js';
import { ALL_POSITIVE, BEST_EFFORT, HOLDER, evidenceFile, persistWorld, planOf } from './support.js';

const base = { owner: OWNER, repo: REPO };
const SECRET_BODY = 'private body text that must never reach the ledger';

let w: PersistWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

async function setup(): Promise<PersistWorld> {
  w = await persistWorld();
  await w.commitDefault({
    '.writ/policy.json': JSON.stringify(BEST_EFFORT),
    '.writ/probe-evidence.json': JSON.stringify(
      evidenceFile(w.world.emulator.url, ALL_POSITIVE, '2026-11-25T00:00:00Z'),
    ),
  });
  return w;
}

async function issue(world: PersistWorld, title: string, labels: string[] = []): Promise<number> {
  return (await world.owner.rest.issues.create({ ...base, title, body: SECRET_BODY, labels })).data.number;
}

const killed = (): never => {
  throw new Error('killed');
};

async function ledgerText(world: PersistWorld, runId: string): Promise<string> {
  return JSON.stringify((await readRun(world.ledger, runId)).run);
}

describe('pre_state_digest at claim', () => {
  it('records the digest of the observed fields for every kind that reads a pre-state, null for a fresh create, never a body', async () => {
    const world = await setup();
    const a = await issue(world, 'Importer', ['roadmap']);
    const tracking = await issue(world, 'Tracking');
    const steps: PlanStep[] = [
      { id: 'm-1', kind: 'milestone.upsert', key: 'roadmap:v1', title: 'v1', description: SECRET_BODY },
      { id: 'close-1', kind: 'milestone.edit', milestone: { number: 1 }, set: { state: 'closed' } },
      { id: 'assign-a', kind: 'issue.set-milestone', issue: a, milestone: { number: 2 } },
      { id: 'label-a', kind: 'issue.labels', issue: a, add: ['planned'] },
      { id: 'epic', kind: 'issue.create', title: 'Epic', body: SECRET_BODY },
      { id: 'summary', kind: 'comment.upsert', issue: tracking, key: 'roadmap:summary', body: SECRET_BODY },
    ];
    const plan = planOf(steps);
    const { runId } = await world.approve(plan);
    const recorded: Record<string, string | null> = {};
    // Each window is claimed, then the process dies before its write: the claim shows what was recorded.
    for (const step of steps) {
      await expect(world.persist(plan, runId, {}, { afterClaim: killed })).rejects.toThrow('killed');
      const record = (await readRun(world.ledger, runId)).run?.steps.find((s) => s.id === step.id);
      expect(record?.status).toBe('claimed');
      recorded[step.id] = record?.pre_state_digest ?? null;
      // The same reads now give the same digest (nothing changed), so the resumed step writes.
      const result = await world.persist(plan, runId, { maxSteps: 1 });
      expect(result.steps[0]?.id).toBe(step.id);
      expect(result.steps[0]?.result).toBe('done');
      expect(result.steps[0]?.writes).toBe(1);
    }
    for (const id of ['m-1', 'close-1', 'assign-a', 'label-a', 'summary'])
      expect(recorded[id]).toMatch(DIGEST_PATTERN);
    expect(recorded.epic).toBeNull();
    expect(new Set(Object.values(recorded)).size).toBe(6);
    const text = await ledgerText(world, runId);
    expect(text).not.toContain(SECRET_BODY);
    expect(text).not.toContain('Importer');
    // The verified read replays every claim with its digest.
    const verified = await readVerifiedRun(world.ledger, runId);
    expect(verified.run?.steps.map((s) => s.pre_state_digest)).toEqual(steps.map((s) => recorded[s.id]));
    expect(verified.run?.state).toBe('completed');
  });

  it('a claim window records each step in one commit, and replays', async () => {
    const world = await setup();
    const a = await issue(world, 'A');
    const b = await issue(world, 'B');
    const steps: PlanStep[] = [
      { id: 'label-a', kind: 'issue.labels', issue: a, add: ['x'] },
      { id: 'label-b', kind: 'issue.labels', issue: b, add: ['x'] },
    ];
    const plan = planOf(steps);
    const { runId } = await world.approve(plan);
    await expect(world.persist(plan, runId, { claimWindow: 2 }, { afterClaim: killed })).rejects.toThrow(
      'killed',
    );
    const run = (await readVerifiedRun(world.ledger, runId)).run;
    expect(run?.steps.map((s) => s.status)).toEqual(['claimed', 'claimed']);
    const [da, db] = run?.steps.map((s) => s.pre_state_digest) ?? [];
    expect(da).toMatch(DIGEST_PATTERN);
    expect(db).toMatch(DIGEST_PATTERN);
    expect(da).not.toBe(db);
    const result = await world.persist(plan, runId, { claimWindow: 2 });
    expect(result.outcome).toBe('completed');
  });

  it('the digest covers the fields the write depends on, not the body', async () => {
    const world = await setup();
    const a = await issue(world, 'A', ['roadmap']);
    const step: WritableStep = { id: 'label-a', kind: 'issue.labels', issue: a, add: ['planned'] };
    const context = {
      ...base,
      ownLogin: world.ownLogin,
      pageCap: 20,
      createdAfter: null,
      milestoneKeys: new Map<string, number>(),
      precheck: false,
      runId: 'r',
    };
    const first = preStateDigest(await assessStep(world.app, context, step));
    await world.owner.rest.issues.update({ ...base, issue_number: a, body: 'edited body' });
    expect(preStateDigest(await assessStep(world.app, context, step))).toBe(first);
    await world.owner.rest.issues.update({ ...base, issue_number: a, labels: ['roadmap', 'wontfix'] });
    expect(preStateDigest(await assessStep(world.app, context, step))).not.toBe(first);
  });
});

describe('the next claim compares it', () => {
  async function claimedLabels(
    world: PersistWorld,
  ): Promise<{ runId: string; a: number; plan: ReturnType<typeof planOf> }> {
    const a = await issue(world, 'A', ['roadmap']);
    // No `expect`: before the digest, nothing would have noticed an edit made after the claim.
    const plan = planOf([{ id: 'label-a', kind: 'issue.labels', issue: a, add: ['planned'] }]);
    const { runId } = await world.approve(plan);
    await expect(world.persist(plan, runId, {}, { afterClaim: killed })).rejects.toThrow('killed');
    return { runId, a, plan };
  }

  it('persist resuming a claimed step whose pre-state drifted refuses with pre-state-drift and writes nothing', async () => {
    const world = await setup();
    const { runId, a, plan } = await claimedLabels(world);
    await world.owner.rest.issues.update({ ...base, issue_number: a, labels: ['roadmap', 'wontfix'] });
    const seq = world.seq();
    const result = await world.persist(plan, runId);
    expect(result.outcome).toBe('stopped');
    expect(result.reason).toBe('pre-state-drift');
    expect(result.refusal?.code).toBe('pre-state-drift');
    expect(world.writesSince(seq)).toEqual([]);
    expect((await readRun(world.ledger, runId)).run?.steps[0]?.status).toBe('claimed');
  });

  it('recovery observing the claimed step reports the drift (unknown, pre-state-drift), and pre-state without one', async () => {
    const world = await setup();
    const { runId, a, plan } = await claimedLabels(world);
    const step = plan.steps[0] as WritableStep;
    const record = (await readRun(world.ledger, runId)).run?.steps[0];
    const observe = observeStep({ github: world.app, ownLogin: world.ownLogin });
    const context = { ...base, firstClaimAt: null, runId, preStateDigest: record?.pre_state_digest ?? null };
    expect(await observe(step, context)).toEqual({ state: 'pre-state' });
    await world.owner.rest.issues.update({ ...base, issue_number: a, labels: ['roadmap', 'wontfix'] });
    expect(await observe(step, context)).toEqual({ state: 'unknown', reason: 'pre-state-drift' });
    // A claim from a ledger written before the digest was recorded (null): only `expect` is compared.
    expect(await observe(step, { ...context, preStateDigest: null })).toEqual({ state: 'pre-state' });
  });

  it('a claim without a digest (an older ledger) resumes as before', async () => {
    const world = await setup();
    const a = await issue(world, 'A', ['roadmap']);
    const plan = planOf([{ id: 'label-a', kind: 'issue.labels', issue: a, add: ['planned'] }]);
    const { runId } = await world.approve(plan);
    await claimStep(world.ledger, {
      runId,
      stepId: 'label-a',
      epoch: 1,
      holder: { run_id: runId, ...HOLDER },
    });
    expect((await readRun(world.ledger, runId)).run?.steps[0]?.pre_state_digest).toBeNull();
    await world.owner.rest.issues.update({ ...base, issue_number: a, labels: ['roadmap', 'wontfix'] });
    const result = await world.persist(plan, runId);
    expect(result.outcome).toBe('completed');
  });
});

describe('claim windows', () => {
  const labels = (id: string, issue: number): WritableStep => ({
    id,
    kind: 'issue.labels',
    issue,
    add: ['x'],
  });
  it('end before a step that reads what an earlier window step writes', () => {
    expect(readsWriteOf(labels('b', 1), labels('a', 1))).toBe(true);
    expect(readsWriteOf(labels('b', 2), labels('a', 1))).toBe(false);
    const upsert = (key: string, title: string): WritableStep => ({
      id: key,
      kind: 'milestone.upsert',
      key,
      title,
    });
    expect(readsWriteOf(upsert('k2', 'v2'), upsert('k1', 'v1'))).toBe(false);
    expect(readsWriteOf(upsert('k2', 'v1'), upsert('k1', 'v1'))).toBe(true);
    const assign: WritableStep = {
      id: 'as',
      kind: 'issue.set-milestone',
      issue: 3,
      milestone: { key: 'k1' },
    };
    expect(readsWriteOf(assign, upsert('k1', 'v1'))).toBe(true);
    expect(readsWriteOf(assign, { id: 'c', kind: 'issue.create', title: 'E' })).toBe(false);
  });
});
