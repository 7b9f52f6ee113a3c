/**
 * A marker counts only if Writ's own app wrote it, for every resource kind (issue 26, class 2): a
 * milestone, an issue or a comment carrying a step's marker but written by anyone else — a write
 * collaborator, a former collaborator, another app's bot, GITHUB_TOKEN's `github-actions[bot]` — is
 * never adopted and never PATCHed. Where the planted item is in the way (a milestone with the step's
 * title: GitHub keeps titles unique) the step stops as `conflict`; otherwise Writ creates its own.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { GitHubClient } from '../../src/github/client.js';
import { withMarker } from '../../src/idempotency/key.js';
import { idempotencyMarker } from '../../src/idempotency/key.js';
import { claimStep } from '../../src/ledger/ledger.js';
import { createKey } from '../../src/plan/create-key.js';
import { keyMarker } from '../../src/persist/steps.js';
import type { IssueCreateStep, PlanStep } from '../../src/plan/types.js';
import { OWNER, REPO, emulatorClient } from '../ledger/support/emulator.js';
import type { PersistWorld } from './support.js';
import { ALL_POSITIVE, BEST_EFFORT, HOLDER, evidenceFile, persistWorld, planOf } from './support.js';

const base = { owner: OWNER, repo: REPO };
const FRESH = '2026-11-25T00:00:00Z';

let w: PersistWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

async function setup(): Promise<PersistWorld> {
  w = await persistWorld();
  await w.commitDefault({
    '.writ/policy.json': JSON.stringify(BEST_EFFORT),
    '.writ/probe-evidence.json': JSON.stringify(evidenceFile(w.world.emulator.url, ALL_POSITIVE, FRESH)),
  });
  return w;
}

type Planter = 'a write collaborator' | 'a non-collaborator' | 'another app' | 'github-actions[bot]';
const PLANTERS: Planter[] = [
  'a write collaborator',
  'a non-collaborator',
  'another app',
  'github-actions[bot]',
];

/**
 * A client for `who`, and what to do once it planted. A non-collaborator cannot create a milestone, so
 * it is one who had write access when it planted and lost it since (the creator is no collaborator).
 */
function planter(world: PersistWorld, who: Planter): { client: GitHubClient; after: () => void } {
  const { admin } = world.world.emulator;
  const client = (token: string): GitHubClient => emulatorClient(world.world.emulator, token, 0);
  switch (who) {
    case 'a write collaborator':
      admin.createToken({ token: 'ghp_malloryPlantsMarkers0000000000000000', kind: 'pat', login: 'mallory' });
      return { client: client('ghp_malloryPlantsMarkers0000000000000000'), after: () => undefined };
    case 'a non-collaborator':
      admin.createUser({ login: 'eve' });
      admin.createToken({ token: 'ghp_evePlantsMarkers000000000000000000000', kind: 'pat', login: 'eve' });
      admin.setCollaborator(OWNER, REPO, 'eve', 'write');
      return {
        client: client('ghp_evePlantsMarkers000000000000000000000'),
        after: () => admin.setCollaborator(OWNER, REPO, 'eve', null),
      };
    case 'another app':
      admin.createApp({ slug: 'other-app' });
      admin.createToken({
        token: 'ghs_otherAppPlantsMarkers000000000000000',
        kind: 'installation',
        app: 'other-app',
        permissions: { issues: 'write' },
      });
      return { client: client('ghs_otherAppPlantsMarkers000000000000000'), after: () => undefined };
    case 'github-actions[bot]':
      admin.createToken({
        token: 'ghs_githubTokenPlantsMarkers000000000000',
        kind: 'github_token',
        permissions: { issues: 'write' },
      });
      return { client: client('ghs_githubTokenPlantsMarkers000000000000'), after: () => undefined };
  }
}

async function milestones(world: PersistWorld) {
  return world.app.paginate(world.app.rest.issues.listMilestones, { ...base, state: 'all' });
}

describe.each(PLANTERS)('a marker planted by %s', (who) => {
  const upsert = (title: string): PlanStep => ({
    id: 'm',
    kind: 'milestone.upsert',
    key: 'release:v9',
    title,
    description: 'Plan notes.',
  });

  it('on a milestone with another title: not adopted, not PATCHed; Writ creates its own', async () => {
    const world = await setup();
    const { client, after } = planter(world, who);
    const planted = (
      await client.rest.issues.createMilestone({
        ...base,
        title: 'Planted',
        description: withMarker('planted', keyMarker('release:v9')),
      })
    ).data;
    after();
    const plan = planOf([upsert('v9')]);
    const { runId } = await world.approve(plan);
    const seq = world.seq();
    const result = await world.persist(plan, runId);
    expect(result.outcome).toBe('completed');
    expect(result.steps[0]?.notes.join(' ')).toMatch(/not created by Writ/);
    const writes = world.writesSince(seq).filter((w) => w.includes('/milestones'));
    expect(writes).toEqual(['POST /repos/acme/widgets/milestones']);
    const now = await milestones(world);
    const still = now.find((m) => m.number === planted.number);
    expect(still?.title).toBe('Planted');
    expect(still?.description).toBe(planted.description);
    expect(still?.updated_at).toBe(planted.updated_at);
    const own = now.find((m) => m.title === 'v9');
    expect(own?.creator?.login).toBe(world.ownLogin);
    expect(result.created.m).toBe(own?.number);
  });

  it('on a milestone with the step title: a conflict, nothing written to it', async () => {
    const world = await setup();
    const { client, after } = planter(world, who);
    const planted = (
      await client.rest.issues.createMilestone({
        ...base,
        title: 'v9',
        description: withMarker('planted', keyMarker('release:v9')),
      })
    ).data;
    after();
    const plan = planOf([upsert('v9')]);
    const { runId } = await world.approve(plan);
    const seq = world.seq();
    const result = await world.persist(plan, runId);
    expect(result.refusal?.code).toBe('conflict');
    expect(world.writesSince(seq).filter((w) => w.includes('/milestones'))).toEqual([]);
    const still = (await milestones(world)).find((m) => m.number === planted.number);
    expect(still?.description).toBe(planted.description);
  });

  it('on an issue: the create is not adopted; Writ creates its own', async () => {
    const world = await setup();
    const { client, after } = planter(world, who);
    const epic: IssueCreateStep = { id: 'epic', kind: 'issue.create', title: 'Epic', body: 'Do it.' };
    const planted = (
      await client.rest.issues.create({
        ...base,
        title: 'Epic',
        body: `spoof ${idempotencyMarker(createKey(epic))}`,
      })
    ).data;
    after();
    const plan = planOf([epic]);
    const { runId } = await world.approve(plan);
    // Claimed with no outcome: persist searches for an earlier create before creating.
    await claimStep(world.ledger, { runId, stepId: 'epic', epoch: 1, holder: { run_id: runId, ...HOLDER } });
    const seq = world.seq();
    const result = await world.persist(plan, runId);
    expect(result.outcome).toBe('completed');
    expect(result.steps[0]?.notes.join(' ')).toMatch(/not written by Writ/);
    expect(result.created.epic).not.toBe(planted.number);
    expect(world.writesSince(seq).filter((w) => w.includes(`/issues/${planted.number}`))).toEqual([]);
    const still = (await world.app.rest.issues.get({ ...base, issue_number: planted.number })).data;
    expect(still.updated_at).toBe(planted.updated_at);
  });

  it('on a comment: not adopted, not PATCHed; Writ posts its own', async () => {
    const world = await setup();
    const { client, after } = planter(world, who);
    const issue = (await world.owner.rest.issues.create({ ...base, title: 'Thread' })).data.number;
    const planted = (
      await client.rest.issues.createComment({
        ...base,
        issue_number: issue,
        body: withMarker('planted', keyMarker('note')),
      })
    ).data;
    after();
    const plan = planOf([{ id: 'c', kind: 'comment.upsert', issue, key: 'note', body: 'Summary.' }]);
    const { runId } = await world.approve(plan);
    const seq = world.seq();
    const result = await world.persist(plan, runId);
    expect(result.outcome).toBe('completed');
    expect(result.steps[0]?.notes.join(' ')).toMatch(/not written by Writ/);
    expect(world.writesSince(seq).filter((w) => w.includes('/comments'))).toEqual([
      `POST /repos/acme/widgets/issues/${issue}/comments`,
    ]);
    const still = (await world.app.rest.issues.getComment({ ...base, comment_id: planted.id })).data;
    expect(still.body).toBe(planted.body);
    expect(result.created.c).not.toBe(planted.id);
  });
});

describe('a milestone keyed by another step', () => {
  it('is never rewritten: a PATCH target carrying another key is a conflict', async () => {
    const world = await setup();
    // Writ's own milestone, keyed `a`; a later plan names it by number for key `b`.
    const mine = (
      await world.app.rest.issues.createMilestone({
        ...base,
        title: 'Shared',
        description: withMarker('notes', keyMarker('a')),
      })
    ).data;
    const plan = planOf([
      {
        id: 'b',
        kind: 'milestone.upsert',
        key: 'b',
        title: 'Shared',
        description: 'other notes',
        expect: { exists: true, milestone: { number: mine.number } },
      },
    ]);
    const { runId } = await world.approve(plan);
    const seq = world.seq();
    const result = await world.persist(plan, runId);
    expect(result.refusal?.code).toBe('conflict');
    expect(result.steps[0]?.diff.join(' ')).toMatch(/carries the key `a` of another step/);
    expect(world.writesSince(seq).filter((w) => w.includes('/milestones'))).toEqual([]);
    const still = (await world.app.rest.issues.getMilestone({ ...base, milestone_number: mine.number })).data;
    expect(still.description).toBe(mine.description);
  });

  it('is never stripped of its key by a milestone.edit by number; an edit leaving the description is fine', async () => {
    const world = await setup();
    const mine = (
      await world.app.rest.issues.createMilestone({
        ...base,
        title: 'Keyed',
        description: withMarker('notes', keyMarker('a')),
      })
    ).data;
    const strip = planOf([
      { id: 'e', kind: 'milestone.edit', milestone: { number: mine.number }, set: { description: 'bare' } },
    ]);
    const first = await world.approve(strip);
    const seq = world.seq();
    const result = await world.persist(strip, first.runId);
    expect(result.refusal?.code).toBe('conflict');
    expect(result.steps[0]?.diff.join(' ')).toMatch(
      /carries the key `a`, which this description would remove/,
    );
    expect(world.writesSince(seq).filter((w) => w.includes('/milestones'))).toEqual([]);
    const close = planOf([
      { id: 'e', kind: 'milestone.edit', milestone: { number: mine.number }, set: { state: 'closed' } },
    ]);
    const second = await world.approve(close);
    expect((await world.persist(close, second.runId, { epoch: second.epoch })).outcome).toBe('completed');
    const now = (await world.app.rest.issues.getMilestone({ ...base, milestone_number: mine.number })).data;
    expect(now.description).toBe(mine.description);
    expect(now.state).toBe('closed');
  });
});
