/**
 * Receipts and the ADR's dedupe across runs (issue 32, item 6), on the emulator with the real Octokit:
 * a later run (a new plan) that creates the same issue or comment as an earlier one finds Writ's own
 * item by its key and records `exists` instead of a second create; an item carrying the marker that
 * someone else wrote is never adopted; a marker scan past its page cap is `inconclusive` and creates
 * nothing; a `run`-scoped key (`.writ/policy.json`) lets a second run create again. Each create's key,
 * scope and outcome is in the ledger step record (proven by a full replay) and in persist's result.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { idempotencyMarker } from '../../src/idempotency/key.js';
import { verifyLedger } from '../../src/ledger/bootstrap.js';
import { readRun } from '../../src/ledger/ledger.js';
import { createKey } from '../../src/plan/create-key.js';
import type { CommentUpsertStep, IssueCreateStep } from '../../src/plan/types.js';
import type { PersistResult } from '../../src/persist/persist.js';
import { observeStep } from '../../src/persist/observe.js';
import { createdBody, keyMarker } from '../../src/persist/steps.js';
import { OWNER, REPO } from '../ledger/support/emulator.js';
import type { PersistWorld } from './support.js';
import { ALL_POSITIVE, BEST_EFFORT, evidenceFile, persistWorld, planOf } from './support.js';

const base = { owner: OWNER, repo: REPO };
const FRESH = '2026-11-25T00:00:00Z';

const epic: IssueCreateStep = {
  id: 'epic',
  kind: 'issue.create',
  title: 'Epic: offline mode',
  body: 'Offline mode, end to end.',
  labels: ['epic'],
};

let w: PersistWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

async function setup(policy: Record<string, unknown> = BEST_EFFORT): Promise<PersistWorld> {
  w = await persistWorld();
  await w.commitDefault({
    '.writ/policy.json': JSON.stringify(policy),
    '.writ/probe-evidence.json': JSON.stringify(evidenceFile(w.world.emulator.url, ALL_POSITIVE, FRESH)),
  });
  return w;
}

async function issuesTitled(world: PersistWorld, title: string): Promise<number[]> {
  const all = await world.app.paginate(world.app.rest.issues.listForRepo, {
    ...base,
    state: 'all',
    per_page: 100,
  });
  return all.filter((i) => i.title === title).map((i) => i.number);
}

async function commentsKeyed(world: PersistWorld, issue: number, key: string): Promise<number[]> {
  const all = await world.app.paginate(world.app.rest.issues.listComments, {
    ...base,
    issue_number: issue,
    per_page: 100,
  });
  return all.filter((c) => (c.body ?? '').includes(keyMarker(key))).map((c) => c.id);
}

/** Approves `plan` as a new run and persists it at the epoch it was approved at. */
async function runOnce(
  world: PersistWorld,
  plan: ReturnType<typeof planOf>,
): Promise<{ runId: string; result: PersistResult }> {
  const { runId, epoch } = await world.approve(plan);
  return { runId, result: await world.persist(plan, runId, { epoch }) };
}

describe('receipts and dedupe across runs (repository scope, the default)', () => {
  it("a second run creating the same issue and comment records `exists`: one of each on GitHub, the first run's numbers", async () => {
    const world = await setup();
    const tracking = (await world.owner.rest.issues.create({ ...base, title: 'Tracking' })).data.number;
    const note: CommentUpsertStep = {
      id: 'note',
      kind: 'comment.upsert',
      issue: tracking,
      key: 'weekly-note',
      body: 'Status: green.',
    };
    const first = await runOnce(world, planOf([epic, note], undefined, 'planner, monday'));
    expect(first.result.outcome).toBe('completed');
    const key = createKey(epic);
    expect(first.result.receipts).toEqual([
      {
        step: 'epic',
        kind: 'issue.create',
        idempotency_key: key,
        key_scope: 'repository',
        outcome: 'created',
        resource: first.result.created.epic,
      },
      {
        step: 'note',
        kind: 'comment.upsert',
        idempotency_key: 'weekly-note',
        key_scope: 'repository',
        outcome: 'created',
        resource: first.result.created.note,
      },
    ]);
    expect(first.result.created.epic).toEqual(expect.any(Number));

    const tuesday = planOf([epic, note], undefined, 'planner, tuesday');
    const approved = await world.approve(tuesday);
    const seq = world.seq();
    const second = {
      runId: approved.runId,
      result: await world.persist(tuesday, approved.runId, { epoch: approved.epoch }),
    };
    expect(second.result.outcome).toBe('completed');
    expect(world.writesSince(seq)).toEqual([]);
    expect(second.result.receipts.map((r) => [r.step, r.outcome, r.resource])).toEqual([
      ['epic', 'exists', first.result.created.epic],
      ['note', 'exists', first.result.created.note],
    ]);
    expect(second.result.created).toEqual(first.result.created);
    expect(await issuesTitled(world, epic.title)).toEqual([first.result.created.epic]);
    expect(await commentsKeyed(world, tracking, 'weekly-note')).toHaveLength(1);

    // The ledger step records carry the receipts, and the whole history still replays.
    const run = (await readRun(world.ledger, second.runId)).run;
    expect(run?.steps.map((step) => step.receipt)).toEqual([
      { idempotency_key: key, key_scope: 'repository', outcome: 'exists' },
      { idempotency_key: 'weekly-note', key_scope: 'repository', outcome: 'exists' },
    ]);
    expect((await readRun(world.ledger, first.runId)).run?.steps[0]?.receipt?.outcome).toBe('created');
    await expect(verifyLedger(world.ledger, { mode: 'full' })).resolves.toBeDefined();
  });

  it("with several of Writ's own items for the key (an earlier race), the oldest is the step's; the others are reported, not closed", async () => {
    const world = await setup();
    const body = createdBody(epic, 'run-earlier', createKey(epic));
    const made: number[] = [];
    for (let i = 0; i < 2; i += 1)
      made.push((await world.app.rest.issues.create({ ...base, title: epic.title, body })).data.number);
    const plan = planOf([epic]);
    const { runId, epoch } = await world.approve(plan);
    const seq = world.seq();
    const result = await world.persist(plan, runId, { epoch });
    expect(result.outcome).toBe('completed');
    expect(world.writesSince(seq)).toEqual([]);
    expect(result.created.epic).toBe(made[0]);
    expect(result.receipts[0]?.outcome).toBe('exists');
    expect(result.steps[0]?.notes).toEqual([`#${made[1]} also carries this step's key (an earlier race)`]);
  });

  it('never adopts an item carrying the marker that someone else wrote: it creates its own', async () => {
    const world = await setup();
    const planted = await world.owner.rest.issues.create({
      ...base,
      title: epic.title,
      body: `looks like Writ's ${idempotencyMarker(createKey(epic))}`,
    });
    const { result } = await runOnce(world, planOf([epic]));
    expect(result.outcome).toBe('completed');
    expect(result.receipts[0]?.outcome).toBe('created');
    expect(result.created.epic).not.toBe(planted.data.number);
    expect(result.steps[0]?.notes.join(' ')).toMatch(/not written by Writ/);
    expect(await issuesTitled(world, epic.title)).toHaveLength(2);
  });

  it('is `inconclusive` past the page cap: nothing is created, the step stays claimed, and a later invocation settles it', async () => {
    const world = await setup();
    for (let i = 0; i < 101; i += 1) await world.owner.rest.issues.create({ ...base, title: `filler ${i}` });
    const plan = planOf([epic]);
    const { runId, epoch } = await world.approve(plan);
    const seq = world.seq();
    const capped = await world.persist(plan, runId, { epoch, pageCap: 1 });
    expect(capped.refusal?.code).toBe('precheck-inconclusive');
    expect(world.writesSince(seq)).toEqual([]);
    expect(capped.receipts).toEqual([
      {
        step: 'epic',
        kind: 'issue.create',
        idempotency_key: createKey(epic),
        key_scope: 'repository',
        outcome: 'inconclusive',
        resource: null,
      },
    ]);
    const record = (await readRun(world.ledger, runId)).run?.steps[0];
    expect(record?.status).toBe('claimed');
    expect(record?.receipt?.outcome).toBe('inconclusive');

    // With a cap the listing fits in, the resumed step is scanned completely, then created.
    const settled = await world.persist(plan, runId, { epoch, pageCap: 20 });
    expect(settled.outcome).toBe('completed');
    expect(settled.receipts[0]?.outcome).toBe('created');
    expect(await issuesTitled(world, epic.title)).toHaveLength(1);
    expect((await readRun(world.ledger, runId)).run?.steps[0]?.receipt?.outcome).toBe('created');
  });

  it('is `inconclusive` when a listing page cannot be read: nothing is created', async () => {
    const world = await setup();
    const plan = planOf([epic]);
    const { runId, epoch } = await world.approve(plan);
    world.world.emulator.admin.addFault({
      match: { method: 'GET', path: '/repos/acme/widgets/issues' },
      fault: { type: 'status', status: 502 },
    });
    const seq = world.seq();
    const result = await world.persist(plan, runId, { epoch });
    world.world.emulator.admin.clearFaults();
    expect(result.refusal?.code).toBe('precheck-inconclusive');
    expect(world.writesSince(seq)).toEqual([]);
    expect(result.receipts[0]?.outcome).toBe('inconclusive');
    expect(await issuesTitled(world, epic.title)).toEqual([]);
  });
});

describe('run scope', () => {
  it('a second run creates again: its key includes its run ID', async () => {
    const world = await setup({ ...BEST_EFFORT, idempotency: { key_scope: 'run' } });
    const first = await runOnce(world, planOf([epic], undefined, 'planner, monday'));
    const second = await runOnce(world, planOf([epic], undefined, 'planner, tuesday'));
    expect(second.result.outcome).toBe('completed');
    const numbers = await issuesTitled(world, epic.title);
    expect(numbers).toHaveLength(2);
    expect(second.result.created.epic).not.toBe(first.result.created.epic);
    expect(second.result.receipts).toEqual([
      {
        step: 'epic',
        kind: 'issue.create',
        idempotency_key: createKey(epic, { keyScope: 'run', runId: second.runId }),
        key_scope: 'run',
        outcome: 'created',
        resource: second.result.created.epic,
      },
    ]);
    expect((await readRun(world.ledger, second.runId)).run?.steps[0]?.receipt?.key_scope).toBe('run');
  });

  it('a crash after the create: the claim recorded the scope, so a re-run and recovery look for the run-scoped key', async () => {
    const world = await setup({ ...BEST_EFFORT, idempotency: { key_scope: 'run' } });
    const plan = planOf([epic]);
    const { runId, epoch } = await world.approve(plan);
    await expect(
      world.persist(plan, runId, { epoch }, { afterWrite: () => Promise.reject(new Error('killed')) }),
    ).rejects.toThrow('killed');
    const claimed = (await readRun(world.ledger, runId)).run?.steps[0];
    expect(claimed?.status).toBe('claimed');
    expect(claimed?.receipt).toEqual({
      idempotency_key: createKey(epic, { keyScope: 'run', runId }),
      key_scope: 'run',
      outcome: null,
    });
    // Recovery's observer, given the recorded scope, finds the create; with the repository key it would not.
    const observe = observeStep({ github: world.app, ownLogin: world.ownLogin });
    const context = { ...base, firstClaimAt: null, runId };
    const [created] = await issuesTitled(world, epic.title);
    expect(await observe(epic, { ...context, keyScope: 'run' })).toEqual({
      state: 'desired',
      resources: [created],
    });
    expect(await observe(epic, context)).toEqual({ state: 'pre-state' });
    // A re-run reads the claimed step with the scope its claim recorded: found, `created`, no second issue.
    const seq = world.seq();
    const resumed = await world.persist(plan, runId, { epoch });
    expect(resumed.outcome).toBe('completed');
    expect(world.writesSince(seq)).toEqual([]);
    expect(resumed.receipts[0]?.outcome).toBe('created');
    expect(await issuesTitled(world, epic.title)).toEqual([created]);
  });
});
