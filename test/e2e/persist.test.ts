/**
 * The persist bundle as the runner runs it, after a real approval: dry run, the gate closed (flag off,
 * then require-proof without evidence), open under best-effort, an ambiguous create that stays claimed,
 * the re-run that reconciles it without a duplicate, the external step under claim-checkpoint, and the
 * run completed.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitOnBranch } from '@writ/core/github/commit-on-branch.js';
import type { SliceWorld } from '../support/world.js';
import {
  OWNER,
  PEOPLE,
  REPO,
  REPOSITORY,
  client,
  patOf,
  proposePlan,
  requestLog,
  sliceWorld,
} from '../support/world.js';

let world: SliceWorld;
const JOB = { GITHUB_RUN_ID: '8001', GITHUB_RUN_ATTEMPT: '1' };
const dir = mkdtempSync(join(tmpdir(), 'writ-persist-'));
const base = { owner: OWNER, repo: REPO };

beforeAll(async () => {
  world = await sliceWorld();
});

afterAll(async () => {
  await world.close();
});

describe('persist through its bundle', () => {
  let planFile: string;
  let runId: string;
  let epoch: string;
  let target: number;
  const log = requestLog(() => world.emulator);
  const persist = (extra: Record<string, string> = {}): ReturnType<SliceWorld['run']> =>
    world.run(
      'persist',
      {
        'run-id': runId,
        'plan-file': planFile,
        epoch,
        'persistence-enabled': 'true',
        'dry-run': 'false',
        ...world.ledgerInputs(),
        ...extra,
      },
      { env: JOB },
    );
  const issueWrites = (seq: number): string[] =>
    log.writesSince(seq).filter((w) => !w.startsWith('POST /graphql'));

  it('is approved for a plan of a milestone, an assignment, a create, a comment and an external step', async () => {
    const admin = client(world.emulator, patOf(PEOPLE.admin));
    target = (await admin.rest.issues.create({ ...base, title: 'Importer' })).data.number;
    const plan = {
      schema: 1,
      title: 'Persist through the bundle',
      scope: { repository: REPOSITORY },
      bounds: { max_steps: 10, max_creates: 3, max_issues_touched: 5 },
      steps: [
        {
          id: 'm-25',
          kind: 'milestone.upsert',
          key: 'roadmap:v2.5',
          title: 'v2.5',
          expect: { exists: false },
        },
        {
          id: 'assign',
          kind: 'issue.set-milestone',
          issue: target,
          milestone: { key: 'roadmap:v2.5' },
          expect: { milestone: null },
        },
        { id: 'epic', kind: 'issue.create', title: 'Epic: offline mode', body: 'Offline.', labels: ['epic'] },
        { id: 'notify', kind: 'external', target: 'release-planner' },
        { id: 'summary', kind: 'comment.upsert', issue: target, key: 'roadmap:summary', body: 'Refreshed.' },
      ],
    };
    planFile = join(dir, 'plan.json');
    writeFileSync(planFile, JSON.stringify(plan));
    const proposed = await proposePlan(world, planFile);
    runId = proposed.runId;
    const event = await world.comment({ login: PEOPLE.write }, proposed.command);
    const consume = await world.run(
      'consume-approval',
      { 'plan-file': planFile, 'dry-run': 'false', ...world.ledgerInputs() },
      { event, env: JOB },
    );
    expect(consume.outputs).toMatchObject({ outcome: 'approved', epoch: '1' });
    epoch = consume.outputs.epoch!;
  });

  it('keeps the gate closed with the flag off, and without evidence under require-proof, writing nothing', async () => {
    const seq = log.lastSeq();
    const off = await persist({ 'persistence-enabled': 'false' });
    expect(off.outputs).toMatchObject({ outcome: 'gate-closed', reason: 'live-writes-disabled' });
    const unproven = await persist();
    expect(unproven.outputs).toMatchObject({
      outcome: 'gate-closed',
      reason: 'github-conditional-mutation-not-proven',
    });
    expect(unproven.summary).toMatch(/no probe evidence is committed/);
    expect(log.writesSince(seq)).toEqual([]);
  });

  it('dry-runs under best-effort: the writes it would make, and none made', async () => {
    const admin = client(world.emulator, patOf(PEOPLE.admin));
    const head = (await admin.rest.git.getRef({ ...base, ref: 'heads/main' })).data.object.sha;
    const policy = Object.fromEntries(
      [
        'milestone.upsert',
        'milestone.edit',
        'issue.set-milestone',
        'issue.labels',
        'issue.create',
        'comment.upsert',
      ].map((k) => [k, 'best-effort']),
    );
    await commitOnBranch(
      admin,
      {
        repository: REPOSITORY,
        branch: 'main',
        expectedHeadOid: head,
        headline: 'Writ policy: best-effort',
        body: '',
        additions: [{ path: '.writ/policy.json', contents: JSON.stringify({ schema: 1, kinds: policy }) }],
      },
      'artifact',
    );
    const seq = log.lastSeq();
    const dry = await persist({ 'dry-run': 'true' });
    expect(dry.outputs).toMatchObject({ outcome: 'dry-run', 'steps-done': '0', 'steps-total': '5' });
    expect(dry.summary).toContain('POST /repos/{owner}/{repo}/milestones');
    expect(dry.summary).toMatch(/residual windows stay open/);
    expect(log.writesSince(seq)).toEqual([]);
  });

  it('stops with the create left claimed when its outcome cannot be told, then a re-run creates it exactly once', async () => {
    world.emulator.admin.addFault({
      match: { method: 'POST', path: '/repos/acme/widgets/issues' },
      fault: { type: 'drop-before-apply' },
      times: 2,
    });
    const stopped = await persist();
    expect(stopped.outputs).toMatchObject({
      outcome: 'stopped',
      reason: 'write-outcome-unknown',
      'next-step': 'epic',
    });
    expect((await world.runFile(runId))?.steps.map((s) => s.status)).toEqual([
      'done',
      'done',
      'claimed',
      'pending',
      'pending',
    ]);
    world.emulator.admin.clearFaults();
    const seq = log.lastSeq();
    const resumed = await persist();
    expect(resumed.outputs).toMatchObject({
      outcome: 'waiting-external',
      'next-step': 'notify',
      'steps-done': '3',
    });
    expect(issueWrites(seq)).toEqual(['POST /repos/acme/widgets/issues ']);
    const created = JSON.parse(resumed.outputs.created!) as Record<string, number>;
    expect(Object.keys(created).sort()).toEqual(['epic', 'm-25']);
    const all = await client(world.emulator, patOf(PEOPLE.admin)).paginate(
      client(world.emulator, patOf(PEOPLE.admin)).rest.issues.listForRepo,
      { ...base, state: 'all', per_page: 100 },
    );
    expect(all.filter((i) => i.title === 'Epic: offline mode')).toHaveLength(1);
  });

  it('continues after the external step is checkpointed and completes the run, releasing the lease', async () => {
    for (const operation of ['claim', 'checkpoint']) {
      const step = await world.run(
        'claim-checkpoint',
        {
          operation,
          'run-id': runId,
          'step-id': 'notify',
          epoch,
          ...(operation === 'checkpoint' ? { 'step-outcome': 'done' } : {}),
          'dry-run': 'false',
          ...world.ledgerInputs(),
        },
        { env: JOB },
      );
      expect(step.outputs.reason).toBe('');
    }
    const done = await persist();
    expect(done.outputs).toMatchObject({
      outcome: 'completed',
      reason: '',
      'steps-done': '5',
      'next-step': '',
    });
    const run = await world.runFile(runId);
    expect(run?.state).toBe('completed');
    const seq = log.lastSeq();
    expect((await persist()).outputs).toMatchObject({ outcome: 'completed' });
    expect(issueWrites(seq)).toEqual([]);
  });
});
