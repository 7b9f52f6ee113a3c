/**
 * persist in-process against the emulator with the real client: the gate, every kind's write (expect
 * matches, conflict, identical, silent drop, 5xx before the write, apply-then-drop, crashes), the
 * idempotent create cases, fencing, bounds and a recomputed plan with another digest.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { WritError } from '../../src/errors.js';
import { claimStep, proposeRun, readRun } from '../../src/ledger/ledger.js';
import { bindPlan } from '../../src/plan/binding.js';
import { claimCommittedAt } from '../../src/ledger/claim-time.js';
import { SINCE_SKEW_MS } from '../../src/idempotency/github-pages.js';
import { createKey } from '../../src/plan/create-key.js';
import { createdBody } from '../../src/persist/steps.js';
import { idempotencyMarker } from '../../src/idempotency/key.js';
import { observeStep } from '../../src/persist/observe.js';
import type { IssueCreateStep, PlanStep } from '../../src/plan/types.js';
import { OWNER, REPO, emulatorClient } from '../ledger/support/emulator.js';
import type { PersistWorld } from './support.js';
import {
  ALL_POSITIVE,
  BEST_EFFORT,
  HOLDER,
  READER_TOKEN,
  evidenceFile,
  persistWorld,
  planOf,
} from './support.js';

const base = { owner: OWNER, repo: REPO };
const FRESH = '2026-11-25T00:00:00Z';
const STALE = '2026-10-29T00:00:00Z';

let w: PersistWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

async function setup(
  policy: unknown = BEST_EFFORT,
  classes: typeof ALL_POSITIVE | null = ALL_POSITIVE,
  finished = FRESH,
): Promise<PersistWorld> {
  w = await persistWorld();
  const files: Record<string, string> = {};
  if (policy !== null) files['.writ/policy.json'] = JSON.stringify(policy);
  if (classes !== null)
    files['.writ/probe-evidence.json'] = JSON.stringify(
      evidenceFile(w.world.emulator.url, classes, finished),
    );
  if (Object.keys(files).length > 0) await w.commitDefault(files);
  return w;
}

async function issue(
  world: PersistWorld,
  title: string,
  extra: { labels?: string[]; milestone?: number } = {},
): Promise<number> {
  return (await world.owner.rest.issues.create({ ...base, title, ...extra })).data.number;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    const result = (await promise) as { refusal?: WritError | null; outcome?: string };
    return result.refusal?.code ?? `passed:${result.outcome ?? ''}`;
  } catch (error: unknown) {
    if (error instanceof WritError) return error.code;
    throw error;
  }
}

describe('the persistence gate', () => {
  const assign = (n: number): PlanStep => ({
    id: 'assign',
    kind: 'issue.set-milestone',
    issue: n,
    milestone: { number: 1 },
  });
  const create: PlanStep = { id: 'create', kind: 'issue.create', title: 'Epic' };
  const requireProof = null; // no policy file: require-proof everywhere

  it.each([
    ['the flag is off (approval only)', requireProof, ALL_POSITIVE, FRESH, false, 'live-writes-disabled'],
    [
      'the evidence is missing (flag only)',
      requireProof,
      null,
      FRESH,
      true,
      'github-conditional-mutation-not-proven',
    ],
    [
      'the evidence is 32 days old',
      requireProof,
      ALL_POSITIVE,
      STALE,
      true,
      'github-conditional-mutation-not-proven',
    ],
    [
      'case 2a is negative',
      requireProof,
      { ...ALL_POSITIVE, '2a': 'negative' },
      FRESH,
      true,
      'github-conditional-mutation-not-proven',
    ],
    [
      'case 2b is inconclusive',
      requireProof,
      { ...ALL_POSITIVE, '2b': 'inconclusive' },
      FRESH,
      true,
      'github-conditional-mutation-not-proven',
    ],
    [
      'case 3a is missing',
      requireProof,
      { '2a': 'positive', '2b': 'positive', '3b': 'positive', '4': 'positive' },
      FRESH,
      true,
      'github-conditional-mutation-not-proven',
    ],
    [
      'case 3b is missing',
      requireProof,
      { '2a': 'positive', '2b': 'positive', '3a': 'positive', '4': 'positive' },
      FRESH,
      true,
      'github-conditional-mutation-not-proven',
    ],
    [
      'case 4 is missing (a create)',
      requireProof,
      { '2a': 'positive', '2b': 'positive', '3a': 'positive', '3b': 'positive' },
      FRESH,
      true,
      'github-conditional-mutation-not-proven',
    ],
  ] as const)(
    'stays closed with no write when %s',
    async (_name, policy, classes, finished, enabled, code) => {
      const world = await setup(policy, classes as never, finished);
      const n = await issue(world, 'Importer');
      const plan = planOf([assign(n), create]);
      const { runId } = await world.approve(plan);
      const seq = world.seq();
      const result = await world.persist(plan, runId, { persistenceEnabled: enabled });
      expect(result.outcome).toBe('gate-closed');
      expect(result.refusal?.code).toBe(code);
      expect(world.writesSince(seq)).toEqual([]);
      expect((await readRun(world.ledger, runId)).run?.steps.map((s) => s.status)).toEqual([
        'pending',
        'pending',
      ]);
    },
  );

  it('opens with all-positive fresh evidence under require-proof', async () => {
    const world = await setup(null, ALL_POSITIVE);
    const n = await issue(world, 'Importer');
    const plan = planOf([assign(n)]);
    const { runId } = await world.approve(plan);
    const result = await world.persist(plan, runId);
    expect(result.outcome).toBe('completed');
    expect(result.gate?.residual).toEqual([]);
  });

  it('opens under best-effort without evidence and names the residual window', async () => {
    const world = await setup(BEST_EFFORT, null);
    const n = await issue(world, 'Importer');
    const plan = planOf([assign(n)]);
    const { runId } = await world.approve(plan);
    const result = await world.persist(plan, runId);
    expect(result.outcome).toBe('completed');
    expect(result.gate?.residual.join(' ')).toMatch(/issue.set-milestone.*last write wins/);
  });

  it('refuses a recomputed plan with another digest (stale-or-mismatched-approval), no write', async () => {
    const world = await setup();
    const n = await issue(world, 'Importer');
    const plan = planOf([assign(n)]);
    const { runId } = await world.approve(plan);
    const seq = world.seq();
    expect(await refusal(world.persist({ ...plan, title: 'another plan' }, runId))).toBe(
      'stale-or-mismatched-approval',
    );
    expect(world.writesSince(seq)).toEqual([]);
  });

  it('a fenced holder (another epoch) makes no write', async () => {
    const world = await setup();
    const n = await issue(world, 'Importer');
    const plan = planOf([assign(n)]);
    const { runId } = await world.approve(plan);
    const seq = world.seq();
    expect(await refusal(world.persist(plan, runId, { epoch: 2 }))).toBe('fenced');
    expect(await refusal(world.persist(plan, runId, { holder: { ...HOLDER, attempt: 2 } }))).toBe('fenced');
    expect(world.writesSince(seq)).toEqual([]);
  });

  it('refuses a plan beyond its bounds before the first write (bounds-exceeded)', async () => {
    const world = await setup();
    const plan = planOf(
      [
        { id: 'a', kind: 'issue.create', title: 'A' },
        { id: 'b', kind: 'issue.create', title: 'B' },
      ],
      { max_steps: 5, max_creates: 1 },
    );
    const { runId } = await world.approve(plan);
    const seq = world.seq();
    expect(await refusal(world.persist(plan, runId))).toBe('bounds-exceeded');
    expect(world.writesSince(seq)).toEqual([]);
  });
});

describe('executing every kind', () => {
  async function roadmap(world: PersistWorld): Promise<{ steps: PlanStep[]; issues: number[] }> {
    const a = await issue(world, 'Importer', { labels: ['roadmap'] });
    const b = await issue(world, 'Plugins', { labels: ['roadmap', 'needs-triage'], milestone: 1 });
    const tracking = await issue(world, 'Roadmap tracking');
    const steps: PlanStep[] = [
      {
        id: 'm-25',
        kind: 'milestone.upsert',
        key: 'roadmap:v2.5',
        title: 'v2.5',
        description: 'Plugins.',
        expect: { exists: false },
      },
      {
        id: 'close-23',
        kind: 'milestone.edit',
        milestone: { number: 2 },
        set: { state: 'closed' },
        expect: { number: 2, title: 'v2.3', state: 'open' },
      },
      {
        id: 'assign-a',
        kind: 'issue.set-milestone',
        issue: a,
        milestone: { number: 1 },
        expect: { milestone: null, labels: ['roadmap'] },
      },
      {
        id: 'move-b',
        kind: 'issue.set-milestone',
        issue: b,
        milestone: { key: 'roadmap:v2.5' },
        expect: { milestone: 1, source_milestone: { number: 1, title: 'v2.4' } },
      },
      {
        id: 'label-b',
        kind: 'issue.labels',
        issue: b,
        add: ['deferred'],
        remove: ['needs-triage'],
        expect: { labels: ['roadmap', 'needs-triage'] },
      },
      {
        id: 'epic',
        kind: 'issue.create',
        title: 'Epic: offline',
        body: 'Offline mode.',
        labels: ['epic'],
        milestone: { key: 'roadmap:v2.5' },
      },
      {
        id: 'summary',
        kind: 'comment.upsert',
        issue: tracking,
        key: 'roadmap:summary',
        body: 'Roadmap refreshed.',
        expect: { exists: false },
      },
    ];
    return { steps, issues: [a, b, tracking] };
  }

  it.each([1, 3])(
    'persists a plan of every kind at claim-window %i, one write per step, then a re-run writes nothing',
    async (windowSize) => {
      const world = await setup();
      const { steps, issues } = await roadmap(world);
      const plan = planOf(steps);
      const { runId } = await world.approve(plan);
      const seq = world.seq();
      const result = await world.persist(plan, runId, { claimWindow: windowSize });
      expect(result.outcome).toBe('completed');
      expect(result.stepsDone).toBe(7);
      expect(world.writesSince(seq)).toHaveLength(7);
      // claim + checkpoint per window; the last checkpoint completes the run. A window ends before a
      // step whose pre-read sees an earlier window step's write (its claim records its pre-state):
      // here [m-25] [close-23] [assign-a] [move-b] [label-b, epic, summary].
      expect(result.ledgerCommits).toBe(windowSize === 1 ? 14 : 10);
      const run = (await readRun(world.ledger, runId)).run;
      expect(run?.state).toBe('completed');
      const epic = result.created.epic as number;
      const { data: created } = await world.app.rest.issues.get({ ...base, issue_number: epic });
      expect(created.milestone?.number).toBe(3);
      expect(created.labels.map((l) => (typeof l === 'string' ? l : l.name))).toContain('epic');
      const { data: moved } = await world.app.rest.issues.get({ ...base, issue_number: issues[1] as number });
      expect(moved.milestone?.number).toBe(3);
      expect(moved.labels.map((l) => (typeof l === 'string' ? l : l.name)).sort()).toEqual([
        'deferred',
        'roadmap',
      ]);
      const again = world.seq();
      expect((await world.persist(plan, runId)).outcome).toBe('completed');
      expect(world.writesSince(again)).toEqual([]);
    },
  );

  it('stops at a conflict with a sanitized diff and writes nothing for it', async () => {
    const world = await setup();
    const a = await issue(world, 'Importer', { milestone: 2 });
    const plan = planOf([
      {
        id: 'assign-a',
        kind: 'issue.set-milestone',
        issue: a,
        milestone: { number: 1 },
        expect: { milestone: null },
      },
      { id: 'later', kind: 'issue.labels', issue: a, add: ['x'] },
    ]);
    const { runId } = await world.approve(plan);
    const seq = world.seq();
    const result = await world.persist(plan, runId);
    expect(result.outcome).toBe('stopped');
    expect(result.refusal?.code).toBe('conflict');
    expect(result.steps[0]?.diff[0]).toMatch(/expected no milestone, found #2/);
    expect(world.writesSince(seq)).toEqual([]);
    const run = (await readRun(world.ledger, runId)).run;
    expect(run?.steps.map((s) => s.status)).toEqual(['conflict', 'pending']);
    expect(run?.state).toBe('failed');
  });

  it('treats an identical desired state as done with no write', async () => {
    const world = await setup();
    const a = await issue(world, 'Importer', { milestone: 1 });
    const plan = planOf([
      {
        id: 'assign-a',
        kind: 'issue.set-milestone',
        issue: a,
        milestone: { number: 1 },
        expect: { milestone: null },
      },
    ]);
    const { runId } = await world.approve(plan);
    const seq = world.seq();
    const result = await world.persist(plan, runId);
    expect(result.outcome).toBe('completed');
    expect(result.steps[0]?.writes).toBe(0);
    expect(world.writesSince(seq)).toEqual([]);
  });

  it('reports a silently dropped write (a caller without push access) as write-silently-dropped', async () => {
    const world = await setup();
    const reader = emulatorClient(world.world.emulator, READER_TOKEN, 0);
    const own = (await reader.rest.issues.create({ ...base, title: 'Reader issue' })).data.number;
    const plan = planOf([
      { id: 'assign', kind: 'issue.set-milestone', issue: own, milestone: { number: 1 } },
    ]);
    const { runId } = await world.approve(plan);
    const result = await world.persist(plan, runId, {}, { github: reader });
    expect(result.outcome).toBe('stopped');
    expect(result.refusal?.code).toBe('write-silently-dropped');
    expect((await readRun(world.ledger, runId)).run?.steps[0]).toMatchObject({
      status: 'failed',
      evidence: { status_code: 200, error_code: 'write-silently-dropped' },
    });
  });

  it('reads back after a 5xx before the write and sends it again only once the pre-state is confirmed', async () => {
    const world = await setup();
    const a = await issue(world, 'Importer');
    const plan = planOf([{ id: 'labels', kind: 'issue.labels', issue: a, add: ['deferred'] }]);
    const { runId } = await world.approve(plan);
    world.world.emulator.admin.addFault({
      match: { method: 'PATCH', path: '/repos/acme/widgets/issues/*' },
      fault: { type: 'status', status: 502 },
      times: 1,
    });
    const seq = world.seq();
    const result = await world.persist(plan, runId);
    expect(result.outcome).toBe('completed');
    expect(result.steps[0]?.writes).toBe(2);
    expect(world.writesSince(seq)).toHaveLength(2);
  });

  it('accepts a write applied but whose answer was dropped, by reading it back, without sending it again', async () => {
    const world = await setup();
    const plan = planOf([
      { id: 'close', kind: 'milestone.edit', milestone: { number: 2 }, set: { state: 'closed' } },
    ]);
    const { runId } = await world.approve(plan);
    world.world.emulator.admin.addFault({
      match: { method: 'PATCH', path: '/repos/acme/widgets/milestones/*' },
      fault: { type: 'apply-then-drop' },
      times: 1,
    });
    const result = await world.persist(plan, runId);
    expect(result.outcome).toBe('completed');
    expect(result.steps[0]?.writes).toBe(1);
  });
});

describe('idempotent creates', () => {
  const epic: IssueCreateStep = {
    id: 'epic',
    kind: 'issue.create',
    title: 'Epic: offline',
    body: 'Offline mode.',
    labels: ['epic'],
  };

  async function issuesTitled(world: PersistWorld, title: string): Promise<number[]> {
    const all = await world.app.paginate(world.app.rest.issues.listForRepo, {
      ...base,
      state: 'all',
      per_page: 100,
    });
    return all.filter((i) => i.title === title).map((i) => i.number);
  }

  it('after a crash between the write and its checkpoint, a re-run finds its marker and creates nothing', async () => {
    const world = await setup();
    const plan = planOf([epic]);
    const { runId } = await world.approve(plan);
    await expect(
      world.persist(
        plan,
        runId,
        {},
        {
          afterWrite: () => {
            throw new Error('killed');
          },
        },
      ),
    ).rejects.toThrow('killed');
    expect((await readRun(world.ledger, runId)).run?.steps[0]?.status).toBe('claimed');
    const result = await world.persist(plan, runId);
    expect(result.outcome).toBe('completed');
    expect(result.steps[0]?.writes).toBe(0);
    expect(await issuesTitled(world, epic.title)).toHaveLength(1);
  });

  it('bounds a resumed pre-check by the step first claim (run scope): a marker from before it is out, one after it found on one page', async () => {
    // A run-scoped key is looked for only since the claim (a repository-scoped one: everywhere,
    // test/persist/receipts.test.ts).
    const world = await setup({ ...BEST_EFFORT, idempotency: { key_scope: 'run' } });
    const plan = planOf([epic]);
    const { runId } = await world.approve(plan);
    const { admin } = world.world.emulator;
    // Writ's own marker for the same key, from before this step was ever claimed.
    const key = createKey(epic, { keyScope: 'run', runId });
    const body = createdBody(epic, runId, key);
    const before = (
      await world.app.rest.issues.create({ ...base, title: epic.title, body, labels: ['epic'] })
    ).data.number;
    admin.clock({ advance_ms: 10 * 60_000 });
    // Issues between the approval and the claim: a bound at the approval would list them too.
    for (let i = 0; i < 101; i += 1) await world.owner.rest.issues.create({ ...base, title: `filler ${i}` });
    admin.clock({ advance_ms: 10 * 60_000 });
    await expect(
      world.persist(plan, runId, {}, { afterWrite: () => Promise.reject(new Error('killed')) }),
    ).rejects.toThrow('killed');
    const claimedAt = await claimCommittedAt(world.ledger, runId);
    expect(claimedAt).not.toBeNull();
    const seq = world.seq();
    const result = await world.persist(plan, runId);
    expect(result.outcome).toBe('completed');
    expect(result.steps[0]?.writes).toBe(0);
    const listed = admin
      .requests()
      .filter((r) => r.seq > seq && r.method === 'GET' && r.path.startsWith('/repos/acme/widgets/issues?'));
    expect(listed).toHaveLength(1);
    const since = new URL(listed[0]?.path ?? '', 'http://emulator').searchParams.get('since');
    expect(since).toBe(new Date((claimedAt as number) - SINCE_SKEW_MS).toISOString());
    // The issue created after the claim is the step's; the one from before was never in the window.
    const titled = await issuesTitled(world, epic.title);
    expect(titled).toHaveLength(2);
    expect(result.created.epic).toBe(titled.find((n) => n !== before));
    expect((await readRun(world.ledger, runId)).run?.steps[0]?.resources).toEqual([result.created.epic]);
  });

  it('finds no claim time for a run never claimed, or when the search stops before the claim', async () => {
    const world = await setup();
    const plan = planOf([epic]);
    const { runId } = await world.approve(plan);
    expect(await claimCommittedAt(world.ledger, runId)).toBeNull();
    await claimStep(world.ledger, { runId, stepId: 'epic', epoch: 1, holder: { run_id: runId, ...HOLDER } });
    const binding = bindPlan(planOf([{ ...epic, id: 'other' }], { max_steps: 5 }, 'another plan'));
    await proposeRun(world.ledger, {
      runId: 'run-other',
      planDigest: binding.digest,
      evidenceDigest: null,
      scope: binding.scope,
      bounds: binding.bounds,
      steps: binding.steps,
    });
    expect(await claimCommittedAt(world.ledger, runId)).toEqual(expect.any(Number));
    // The claim is one commit down, under the other run's propose.
    expect(await claimCommittedAt(world.ledger, runId, 1)).toBeNull();
    // A run proposed and never approved: the whole history is read, no claim found.
    expect(await claimCommittedAt(world.ledger, 'run-other')).toBeNull();
  });

  it('after a crash between the claim and the write, a re-run reads the pre-state and creates once', async () => {
    const world = await setup();
    const plan = planOf([epic]);
    const { runId } = await world.approve(plan);
    await claimStep(world.ledger, { runId, stepId: 'epic', epoch: 1, holder: { run_id: runId, ...HOLDER } });
    const result = await world.persist(plan, runId);
    expect(result.outcome).toBe('completed');
    expect(await issuesTitled(world, epic.title)).toHaveLength(1);
  });

  it('a create whose answer was dropped is found by re-listing, not sent twice', async () => {
    const world = await setup();
    const plan = planOf([epic]);
    const { runId } = await world.approve(plan);
    world.world.emulator.admin.addFault({
      match: { method: 'POST', path: '/repos/acme/widgets/issues' },
      fault: { type: 'apply-then-drop' },
      times: 1,
    });
    const result = await world.persist(plan, runId);
    expect(result.outcome).toBe('completed');
    expect(result.steps[0]?.writes).toBe(1);
    expect(await issuesTitled(world, epic.title)).toHaveLength(1);
  });

  it('ignores and reports a marker planted by another user', async () => {
    const world = await setup();
    const plan = planOf([epic]);
    const { runId } = await world.approve(plan);
    const key = createKey(epic);
    await world.owner.rest.issues.create({
      ...base,
      title: epic.title,
      body: `spoof ${idempotencyMarker(key)}`,
    });
    await claimStep(world.ledger, { runId, stepId: 'epic', epoch: 1, holder: { run_id: runId, ...HOLDER } });
    const result = await world.persist(plan, runId);
    expect(result.outcome).toBe('completed');
    expect(result.steps[0]?.notes.join(' ')).toMatch(/not written by Writ/);
    expect(await issuesTitled(world, epic.title)).toHaveLength(2);
  });

  it('is inconclusive at the page cap and creates nothing', async () => {
    const world = await setup();
    for (let i = 0; i < 101; i += 1) await world.owner.rest.issues.create({ ...base, title: `filler ${i}` });
    const plan = planOf([epic]);
    const { runId } = await world.approve(plan);
    await claimStep(world.ledger, { runId, stepId: 'epic', epoch: 1, holder: { run_id: runId, ...HOLDER } });
    const seq = world.seq();
    const result = await world.persist(plan, runId, { pageCap: 1 });
    expect(result.refusal?.code).toBe('precheck-inconclusive');
    expect(world.writesSince(seq)).toEqual([]);
    expect((await readRun(world.ledger, runId)).run?.steps[0]?.status).toBe('claimed');
  });

  it('reports labels dropped on create as write-silently-dropped', async () => {
    const world = await setup();
    const reader = emulatorClient(world.world.emulator, READER_TOKEN, 0);
    const plan = planOf([epic]);
    const { runId } = await world.approve(plan);
    const result = await world.persist(plan, runId, {}, { github: reader, ownLogin: 'reid' });
    expect(result.refusal?.code).toBe('write-silently-dropped');
    expect(Object.keys(result.created)).toEqual(['epic']);
  });

  it('retires duplicates from two concurrent creators: the oldest wins, the others are closed with a comment', async () => {
    const world = await setup();
    const plan = planOf([epic]);
    const { runId } = await world.approve(plan);
    const body = createdBody(epic, runId, createKey(epic));
    const first = (await world.app.rest.issues.create({ ...base, title: epic.title, body, labels: ['epic'] }))
      .data.number;
    const second = (
      await world.app.rest.issues.create({ ...base, title: epic.title, body, labels: ['epic'] })
    ).data.number;
    await claimStep(world.ledger, { runId, stepId: 'epic', epoch: 1, holder: { run_id: runId, ...HOLDER } });
    const result = await world.persist(plan, runId);
    expect(result.outcome).toBe('completed');
    expect(result.created.epic).toBe(first);
    expect((await readRun(world.ledger, runId)).run?.steps[0]?.resources).toEqual([first, second]);
    const { data: retired } = await world.app.rest.issues.get({ ...base, issue_number: second });
    expect(retired.state).toBe('closed');
    const { data: comments } = await world.app.rest.issues.listComments({ ...base, issue_number: second });
    expect(comments[0]?.body).toMatch(new RegExp(`Duplicate of #${first}`));
  });

  it('finds its comment marker on page 3 of a 250-comment thread, and is inconclusive with a cap of 2', async () => {
    const world = await setup();
    const thread = await issue(world, 'Busy thread');
    for (let i = 0; i < 210; i += 1)
      await world.owner.rest.issues.createComment({ ...base, issue_number: thread, body: `chatter ${i}` });
    await world.app.rest.issues.createComment({
      ...base,
      issue_number: thread,
      body: 'Old summary\n\n<!-- writ-key: roadmap:summary -->',
    });
    for (let i = 0; i < 39; i += 1)
      await world.owner.rest.issues.createComment({ ...base, issue_number: thread, body: `more ${i}` });
    const step: PlanStep = {
      id: 'summary',
      kind: 'comment.upsert',
      issue: thread,
      key: 'roadmap:summary',
      body: 'New summary',
      expect: { exists: true },
    };
    const observe = observeStep({ github: world.app, ownLogin: world.ownLogin, pageCap: 2 });
    expect(await observe(step as never, { owner: OWNER, repo: REPO, firstClaimAt: null })).toEqual({
      state: 'unknown',
      reason: 'precheck-inconclusive',
    });
    const plan = planOf([step]);
    const { runId } = await world.approve(plan);
    const seq = world.seq();
    const result = await world.persist(plan, runId);
    expect(result.outcome).toBe('completed');
    expect(world.writesSince(seq)).toEqual([
      expect.stringMatching(/^PATCH \/repos\/acme\/widgets\/issues\/comments\//),
    ]);
  });
});
