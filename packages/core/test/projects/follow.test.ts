/**
 * The Projects (v2) projection through `followStatus`, against the emulator with the real Octokit:
 * the run's item is created with the six values, a replay sends no mutation, a changed run one write per
 * changed field; a human's edit changes nothing in the run and is restored by the next follow; a planted
 * item with the run's marker is never adopted; an item create whose answer was lost is adopted, not
 * duplicated; and a deleted project, a token without `organization_projects`, a user-owned project or
 * no project at all leave the follow's result, the ledger and the status comment exactly as they are.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { GitHubClient } from '../../src/github/client.js';
import { projectItemMarker, withMarker } from '../../src/idempotency/key.js';
import type { LedgerContext } from '../../src/ledger/cas.js';
import { readRun } from '../../src/ledger/ledger.js';
import type { ProjectTarget } from '../../src/projects/sync.js';
import { followStatus } from '../../src/status-comment/follow.js';
import type { FollowRequest } from '../../src/status-comment/follow.js';
import { syncStatusComment } from '../../src/status-comment/sync.js';
import type { LedgerWorld } from '../ledger/support/emulator.js';
import {
  BRANCH,
  LEDGER_TOKEN,
  OWNER,
  OWNER_TOKEN,
  REPO,
  emulatorClient,
  ledgerWorld,
} from '../ledger/support/emulator.js';
import { approvedRunFor, proposePlanFor } from '../ledger/support/fixtures.js';
import { recordingLogger } from '../stages/support/stage-world.js';

let world: LedgerWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const repository = { owner: OWNER, repo: REPO };
const OWN_LOGIN = 'writ-ledger[bot]';
const ORG = 'writ-board';
const STATES = [
  'proposed',
  'approved',
  'running',
  'completed',
  'failed',
  'cancelled',
  'needs-reconciliation',
];
const DECISIONS = ['awaiting-approval', 'approved', 'cancelled', 'not-approved', 'awaiting-reconciliation'];
const FIELDS = [
  { name: 'Writ state', type: 'SINGLE_SELECT', options: STATES },
  { name: 'Risk', type: 'SINGLE_SELECT', options: ['low', 'medium', 'high', 'unknown'] },
  { name: 'Verification', type: 'TEXT' },
  { name: 'Decision', type: 'SINGLE_SELECT', options: DECISIONS },
  { name: 'Blockers', type: 'TEXT' },
  { name: 'Writ milestone', type: 'TEXT' },
];

interface ProjectView {
  id: string;
  number: number;
  items: { id: string; creator: string; title: string; body: string; values: Record<string, string> }[];
}

interface Setup {
  world: LedgerWorld;
  github: GitHubClient;
  ledger: LedgerContext;
  logger: ReturnType<typeof recordingLogger>;
  target: ProjectTarget;
  follow(project?: ProjectTarget | null, runId?: string): ReturnType<typeof followStatus>;
  admin(method: string, path: string, body?: unknown): Promise<unknown>;
  project(): Promise<ProjectView>;
  mutations(): string[];
  /** What a projection must never change: the ledger head, the run record and the status comment. */
  snapshot(runId?: string): Promise<unknown>;
}

async function setup(
  options: { permissions?: Record<string, 'read' | 'write'>; fields?: typeof FIELDS } = {},
): Promise<Setup> {
  world = await ledgerWorld({
    appPermissions: options.permissions ?? {
      contents: 'write',
      administration: 'write',
      issues: 'write',
      organization_projects: 'write',
    },
  });
  const current = world;
  const github = emulatorClient(current.emulator, LEDGER_TOKEN);
  const owner = emulatorClient(current.emulator, OWNER_TOKEN);
  const ledger = current.context();
  const logger = recordingLogger();
  current.emulator.admin.createUser({ login: ORG, type: 'Organization' });
  const admin = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${current.emulator.adminUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer: unknown = await response.json();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(answer)}`);
    return answer;
  };
  const created = (await admin('POST', '/projects', {
    owner: ORG,
    title: 'Writ runs',
    fields: options.fields ?? FIELDS,
  })) as ProjectView;
  const target = { owner: ORG, number: created.number };
  await proposePlanFor(ledger, 'run-1');
  const { data: issue } = await owner.rest.issues.create({ ...repository, title: 'Status' });
  await syncStatusComment(
    { github, ledger, logger },
    {
      repository,
      runId: 'run-1',
      issueNumber: issue.number,
      project: (run) => `run ${run.run_id} is ${run.state}`,
      ownLogin: OWN_LOGIN,
    },
  );
  const request = (runId: string, project?: ProjectTarget | null): FollowRequest => ({
    repository,
    runId,
    ownLogin: OWN_LOGIN,
    preview: 'The preview.',
    ...(project === undefined ? {} : { project }),
  });
  return {
    world: current,
    github,
    ledger,
    logger,
    target,
    follow: (project, runId = 'run-1') => followStatus({ github, ledger, logger }, request(runId, project)),
    admin,
    project: async () => (await admin('GET', `/projects/${ORG}/${target.number}`)) as ProjectView,
    mutations: () =>
      current.emulator.admin
        .requests()
        .flatMap((entry) => entry.mutations)
        .filter((name) => name.includes('ProjectV2')),
    snapshot: async (runId = 'run-1') => {
      const head = await owner.rest.git.getRef({ ...repository, ref: `heads/${BRANCH}` });
      const comments = await owner.rest.issues.listComments({ ...repository, issue_number: issue.number });
      return {
        head: head.data.object.sha,
        run: (await readRun(ledger, runId)).run,
        comments: comments.data.map((comment) => [comment.id, comment.body, comment.updated_at]),
      };
    },
  };
}

function warnings(logger: { lines: string[] }): string[] {
  return logger.lines.filter((line) => line.startsWith('warning: '));
}

describe('the Projects (v2) projection, through followStatus', () => {
  it('creates the run’s one item with the six values; a replay sends no mutation', async () => {
    const s = await setup();
    const before = s.mutations().length;
    const result = await s.follow(s.target);
    expect(result.ok).toBe(true);
    const project = await s.project();
    expect(project.items).toHaveLength(1);
    const [item] = project.items;
    expect(item).toMatchObject({ creator: 'writ-ledger[bot]', title: 'Writ run run-1' });
    expect(item?.body).toContain(projectItemMarker('run-1'));
    expect(item?.values).toEqual({
      'Writ state': 'proposed',
      Risk: 'unknown',
      Verification: 'not-started',
      Decision: 'awaiting-approval',
      Blockers: 'none',
      'Writ milestone': expect.stringMatching(/^0\/\d+ steps done$/),
    });
    // One create and six field writes.
    expect(s.mutations().slice(before)).toEqual([
      'addProjectV2DraftIssue',
      ...Array<string>(6).fill('updateProjectV2ItemFieldValue'),
    ]);
    const replayFrom = s.mutations().length;
    await s.follow(s.target);
    expect(s.mutations().length).toBe(replayFrom);
    expect((await s.project()).items).toHaveLength(1);
    expect(warnings(s.logger)).toEqual([]);
  });

  it('an approved run: one write per changed field; a human edit is restored, the run untouched', async () => {
    const s = await setup();
    await s.follow(s.target);
    await approvedRunFor(s.world, s.ledger, 'run-2', { workflow_run_id: 7, attempt: 1 });
    await s.follow(s.target, 'run-2');
    const from = s.mutations().length;
    // run-1 has not changed: nothing sent for it.
    await s.follow(s.target);
    expect(s.mutations().length).toBe(from);
    const project = await s.project();
    const item = project.items.find((entry) => entry.title === 'Writ run run-2');
    expect(item?.values).toMatchObject({ 'Writ state': 'approved', Decision: 'approved' });

    // A human marks run-1's item approved and completed: the ledger does not move, nothing runs.
    const mine = project.items.find((entry) => entry.title === 'Writ run run-1');
    const untouched = await s.snapshot();
    await s.admin('PATCH', `/projects/${ORG}/${s.target.number}/items/${mine?.id ?? ''}`, {
      field: 'Writ state',
      value: 'completed',
      editor: OWNER,
    });
    await s.admin('PATCH', `/projects/${ORG}/${s.target.number}/items/${mine?.id ?? ''}`, {
      field: 'Decision',
      value: 'approved',
      editor: OWNER,
    });
    expect(await s.snapshot()).toEqual(untouched);
    const restoreFrom = s.mutations().length;
    await s.follow(s.target);
    expect(s.mutations().slice(restoreFrom)).toEqual([
      'updateProjectV2ItemFieldValue',
      'updateProjectV2ItemFieldValue',
    ]);
    const restored = (await s.project()).items.find((entry) => entry.title === 'Writ run run-1');
    expect(restored?.values).toMatchObject({ 'Writ state': 'proposed', Decision: 'awaiting-approval' });
    expect((await readRun(s.ledger, 'run-1')).run?.state).toBe('proposed');
  });

  it('an item someone else planted with the run’s marker is never adopted nor overwritten', async () => {
    const s = await setup();
    await s.admin('POST', `/projects/${ORG}/${s.target.number}/items`, {
      creator: 'mallory',
      title: 'Writ run run-1',
      body: withMarker('looks like Writ', projectItemMarker('run-1')),
    });
    await s.follow(s.target);
    const project = await s.project();
    expect(project.items).toHaveLength(2);
    expect(project.items[0]).toMatchObject({ creator: 'mallory', values: {} });
    expect(project.items[1]).toMatchObject({ creator: 'writ-ledger[bot]' });
    expect(project.items[1]?.values['Writ state']).toBe('proposed');
    expect(warnings(s.logger).join('\n')).toContain('not created by Writ');
  });

  it('an item create whose answer was lost is adopted by the next follow, never created twice', async () => {
    const s = await setup();
    s.world.emulator.admin.addFault({
      match: { method: 'POST', operation: 'addProjectV2DraftIssue' },
      fault: { type: 'apply-then-status', status: 502 },
      times: 1,
    });
    const first = await s.follow(s.target);
    expect(first.ok).toBe(true);
    expect(warnings(s.logger).join('\n')).toMatch(/^warning: project-unavailable: .*outcome is unknown/m);
    expect(s.mutations()).toEqual(['addProjectV2DraftIssue']);
    await s.follow(s.target);
    const project = await s.project();
    expect(project.items).toHaveLength(1);
    expect(project.items[0]?.values['Writ state']).toBe('proposed');
    expect(s.mutations().filter((name) => name === 'addProjectV2DraftIssue')).toHaveLength(1);
  });

  it('a field write whose answer was lost is read back, never sent again blindly', async () => {
    const s = await setup();
    s.world.emulator.admin.addFault({
      match: { method: 'POST', operation: 'updateProjectV2ItemFieldValue' },
      fault: { type: 'apply-then-status', status: 502 },
      times: 1,
    });
    await s.follow(s.target);
    // The create, then the first field write (applied, answered 502): the follow stops there.
    expect(s.mutations()).toEqual(['addProjectV2DraftIssue', 'updateProjectV2ItemFieldValue']);
    expect(warnings(s.logger).join('\n')).toMatch(/^warning: project-unavailable: .*outcome is unknown/m);
    await s.follow(s.target);
    // The landed value is read back and not sent again: the five others follow, once each.
    expect(s.mutations()).toEqual([
      'addProjectV2DraftIssue',
      ...Array<string>(6).fill('updateProjectV2ItemFieldValue'),
    ]);
    expect((await s.project()).items[0]?.values['Writ state']).toBe('proposed');
  });

  it('pages the items: the run’s item past the first page is found; past the page bound nothing is created', async () => {
    const s = await setup();
    const plant = async (count: number): Promise<void> => {
      for (let index = 0; index < count; index++) {
        await s.admin('POST', `/projects/${ORG}/${s.target.number}/items`, {
          creator: OWNER,
          title: `card ${index}`,
        });
      }
    };
    await plant(60);
    await s.follow(s.target);
    expect((await s.project()).items).toHaveLength(61);
    const from = s.mutations().length;
    await s.follow(s.target);
    expect(s.mutations().length).toBe(from);
    // 500 items before a new run's: the listing stops at its bound, and nothing is created for it.
    await plant(440);
    await proposePlanFor(s.ledger, 'run-3');
    const result = await s.follow(s.target, 'run-3');
    expect(result.ok).toBe(true);
    expect(s.mutations().length).toBe(from);
    expect(warnings(s.logger)).toEqual([expect.stringMatching(/^warning: project-item-inconclusive: /)]);
  });

  it('a missing field or option is skipped with its code; the other fields are written', async () => {
    const s = await setup({
      fields: [
        { name: 'Writ state', type: 'SINGLE_SELECT', options: ['approved'] },
        { name: 'Blockers', type: 'TEXT' },
      ],
    });
    await s.follow(s.target);
    const [item] = (await s.project()).items;
    expect(item?.values).toEqual({ Blockers: 'none' });
    const lines = warnings(s.logger).join('\n');
    expect(lines).toContain('project-option-missing');
    expect(lines).toMatch(/project-field-missing: .*Risk, Verification, Decision, Writ milestone/);
  });

  describe('switched off, removed or unreachable: the follow, the ledger and the comment are as without it', () => {
    async function expectNoEffect(s: Setup, project: ProjectTarget, code: string | null): Promise<void> {
      // The comment brought up to date first; then the same follow without and with the project.
      await s.follow();
      const without = await s.follow();
      const state = await s.snapshot();
      const withProject = await s.follow(project);
      expect(withProject).toEqual(without);
      expect(await s.snapshot()).toEqual(state);
      const lines = warnings(s.logger);
      if (code === null) expect(lines).toEqual([]);
      else expect(lines).toEqual([expect.stringMatching(new RegExp(`^warning: ${code}: `))]);
    }

    it('no project configured sends no project request at all', async () => {
      const s = await setup();
      await s.follow(null);
      expect(s.mutations()).toEqual([]);
      expect(
        s.world.emulator.admin.requests().filter((entry) => entry.operation === 'WritProjectItems'),
      ).toEqual([]);
    });

    it('a run the ledger does not hold, or an unreadable run ID: nothing projected, nothing thrown', async () => {
      const s = await setup();
      const absent = await s.follow(s.target, 'run-9');
      expect(absent.ok).toBe(false);
      const invalid = await s.follow(s.target, 'not a run id');
      expect(invalid.ok).toBe(false);
      expect(s.mutations()).toEqual([]);
      expect(warnings(s.logger).filter((line) => line.startsWith('warning: project-'))).toEqual([
        expect.stringMatching(/^warning: project-unavailable: run not a run id's project item not updated/),
      ]);
    });

    it('a deleted project: project-not-found', async () => {
      const s = await setup();
      await s.follow(s.target);
      await s.admin('DELETE', `/projects/${ORG}/${s.target.number}`);
      await expectNoEffect(s, s.target, 'project-not-found');
    });

    it('a token without organization_projects: project-access-denied', async () => {
      const s = await setup({ permissions: { contents: 'write', administration: 'write', issues: 'write' } });
      await expectNoEffect(s, s.target, 'project-access-denied');
    });

    it('a read-only organization_projects token: the create is refused, project-access-denied', async () => {
      const s = await setup({
        permissions: {
          contents: 'write',
          administration: 'write',
          issues: 'write',
          organization_projects: 'read',
        },
      });
      await expectNoEffect(s, s.target, 'project-access-denied');
    });

    it('a user-owned project (no app token reaches one): project-not-found', async () => {
      const s = await setup();
      const mine = (await s.admin('POST', '/projects', { owner: OWNER, fields: FIELDS })) as ProjectView;
      await expectNoEffect(s, { owner: OWNER, number: mine.number }, 'project-not-found');
    });

    it('an owner that does not exist: project-not-found', async () => {
      const s = await setup();
      await expectNoEffect(s, { owner: 'nobody-here', number: 1 }, 'project-not-found');
    });
  });
});
