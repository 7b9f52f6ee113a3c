import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SliceWorld } from '../support/world.js';
import {
  APP_SLUG,
  client,
  OTHER_APP,
  patOf,
  PEOPLE,
  planVariant,
  proposePlan,
  sliceWorld,
} from '../support/world.js';

let world: SliceWorld;
const dir = mkdtempSync(join(tmpdir(), 'writ-rules-'));
let variant = 0;

beforeAll(async () => {
  world = await sliceWorld({ seed: 2 });
});

afterAll(async () => {
  await world.close();
});

/** Proposes a fresh run (in-process, as preview would) and returns its plan file and approve command. */
async function freshRun(): Promise<{ planFile: string; runId: string; command: string }> {
  variant += 1;
  const planFile = planVariant(dir, `v${variant}`, undefined, `Release dispatch ${variant}`);
  const { runId, command } = await proposePlan(world, planFile, world.ids[PEOPLE.admin]);
  return { planFile, runId, command };
}

/** Expires whatever lease the last approval took (server clock), so the next case starts free. */
function expireLease(): void {
  world.emulator.admin.clock({ advance_ms: 15 * 60_000 });
}

function consume(planFile: string, event: unknown, extra: Record<string, string> = {}) {
  return world.run(
    'consume-approval',
    { 'plan-file': planFile, 'dry-run': 'false', ...world.ledgerInputs(), ...extra },
    { event },
  );
}

describe('authorization matrix: role × actor kind', () => {
  const cases: [string, { login: string } | { app: string }, string][] = [
    ['admin', { login: PEOPLE.admin }, 'approved'],
    ['maintain', { login: PEOPLE.maintain }, 'approved'],
    ['write', { login: PEOPLE.write }, 'approved'],
    ['triage', { login: PEOPLE.triage }, 'insufficient-permission'],
    ['read', { login: PEOPLE.read }, 'insufficient-permission'],
    [
      'none (not a collaborator, commenting on a public repository)',
      { login: PEOPLE.none },
      'insufficient-permission',
    ],
    ["another app's bot", { app: OTHER_APP }, 'unauthorized-approval'],
    ["Writ's own app", { app: APP_SLUG }, 'unauthorized-approval'],
  ];

  it.each(cases)('%s → %s', async (_name, author, expected) => {
    expireLease();
    const { planFile, runId, command } = await freshRun();
    const event = await consume(planFile, await world.comment(author, command));
    if (expected === 'approved') {
      expect(event.outputs).toMatchObject({ outcome: 'approved', 'run-id': runId });
      expect((await world.runFile(runId))?.approval?.actor_login).toBe('login' in author ? author.login : '');
    } else {
      expect(event.outputs).toMatchObject({ outcome: 'refused', reason: expected });
      expect((await world.runFile(runId))?.approval).toBeNull();
    }
  });

  it('refuses when the permission is revoked between the comment and its consumption', async () => {
    expireLease();
    const { planFile, runId, command } = await freshRun();
    const event = await world.comment({ login: PEOPLE.maintain }, command);
    world.emulator.admin.setCollaborator('acme', 'widgets', PEOPLE.maintain, null);
    try {
      const run = await consume(planFile, event);
      expect(run.outputs).toMatchObject({ outcome: 'refused', reason: 'insufficient-permission' });
      expect((await world.runFile(runId))?.approval).toBeNull();
    } finally {
      world.emulator.admin.setCollaborator('acme', 'widgets', PEOPLE.maintain, 'maintain');
    }
  });
});

describe('custom roles', () => {
  it('accepts a custom role only when allowed-roles lists it', async () => {
    expireLease();
    world.emulator.admin.setCollaborator('acme', 'widgets', PEOPLE.read, 'release-manager', 'write');
    try {
      const { planFile, runId, command } = await freshRun();
      const refused = await consume(planFile, await world.comment({ login: PEOPLE.read }, command));
      expect(refused.outputs).toMatchObject({ outcome: 'refused', reason: 'insufficient-permission' });
      const listed = await consume(planFile, await world.comment({ login: PEOPLE.read }, command), {
        'allowed-roles': 'admin,maintain,write,release-manager',
      });
      expect(listed.outputs).toMatchObject({ outcome: 'approved', 'run-id': runId });
      expect((await world.runFile(runId))?.approval?.role_name).toBe('release-manager');
    } finally {
      world.emulator.admin.setCollaborator('acme', 'widgets', PEOPLE.read, 'read');
    }
  });
});

describe('approval rules', () => {
  it('refuses an edited comment', async () => {
    expireLease();
    const { planFile, command } = await freshRun();
    const event = await world.comment({ login: PEOPLE.write }, command);
    world.emulator.admin.clock({ advance_ms: 5000 });
    const commentId = (event.comment as { id: number }).id;
    await client(world.emulator, patOf(PEOPLE.write)).rest.issues.updateComment({
      owner: 'acme',
      repo: 'widgets',
      comment_id: commentId,
      body: command,
    });
    const run = await consume(planFile, event);
    expect(run.outputs).toMatchObject({ outcome: 'refused', reason: 'approval-comment-edited' });
  });

  it("refuses a comment edited into the command within the second it was posted (GitHub's edit record, not updated_at)", async () => {
    expireLease();
    const { planFile, command } = await freshRun();
    world.emulator.admin.clock({ freeze: true });
    let event: Record<string, unknown>;
    try {
      event = await world.comment({ login: PEOPLE.write }, 'LGTM');
      const commentId = (event.comment as { id: number }).id;
      const { data } = await client(world.emulator, patOf(PEOPLE.write)).rest.issues.updateComment({
        owner: 'acme',
        repo: 'widgets',
        comment_id: commentId,
        body: command,
      });
      expect(data.updated_at).toBe(data.created_at);
    } finally {
      world.emulator.admin.clock({ freeze: false });
    }
    const run = await consume(planFile, event);
    expect(run.outputs).toMatchObject({ outcome: 'refused', reason: 'approval-comment-edited' });
  });

  it('trusts the API, not the payload: a payload body rewritten to the command approves nothing', async () => {
    expireLease();
    const { planFile, command } = await freshRun();
    const event = await world.comment({ login: PEOPLE.write }, 'looks good to me');
    (event.comment as { body: string }).body = command;
    const run = await consume(planFile, event);
    expect(run.outputs).toMatchObject({ outcome: 'refused', reason: 'malformed-command' });
  });

  it.each([
    ['schedule', { schedule: '0 * * * *' }],
    ['issues', { action: 'labeled' }],
    ['push', { ref: 'refs/heads/main' }],
    ['workflow_dispatch', { inputs: {} }],
  ])('refuses a %s trigger with unauthorized-approval', async (eventName, payload) => {
    const { planFile } = await freshRun();
    const run = await world.run(
      'consume-approval',
      { 'plan-file': planFile, 'dry-run': 'false', ...world.ledgerInputs() },
      { event: payload, eventName },
    );
    expect(run.outputs).toMatchObject({ outcome: 'refused', reason: 'unauthorized-approval' });
  });

  it('refuses an edited or deleted comment event', async () => {
    const { planFile, command } = await freshRun();
    const event = await world.comment({ login: PEOPLE.write }, command);
    for (const action of ['edited', 'deleted']) {
      const run = await consume(planFile, { ...event, action });
      expect(run.outputs).toMatchObject({ outcome: 'refused', reason: 'unauthorized-approval' });
    }
  });

  it('refuses a plan that changed after the preview', async () => {
    expireLease();
    const { command } = await freshRun();
    const changed = planVariant(dir, 'changed', undefined, 'Something else entirely');
    const run = await consume(changed, await world.comment({ login: PEOPLE.write }, command));
    expect(run.outputs).toMatchObject({ outcome: 'refused', reason: 'stale-or-mismatched-approval' });
  });

  it('refuses the proposer as approver when a distinct approver is required', async () => {
    expireLease();
    const { planFile, command } = await freshRun();
    const run = await consume(planFile, await world.comment({ login: PEOPLE.admin }, command), {
      'require-distinct-approver': 'true',
    });
    expect(run.outputs).toMatchObject({ outcome: 'refused', reason: 'unauthorized-approval' });
    const other = await consume(planFile, await world.comment({ login: PEOPLE.maintain }, command), {
      'require-distinct-approver': 'true',
    });
    expect(other.outputs).toMatchObject({ outcome: 'approved' });
  });

  it('refuses a second run while another run holds the lease', async () => {
    expireLease();
    const first = await freshRun();
    const second = await freshRun();
    expect(
      (await consume(first.planFile, await world.comment({ login: PEOPLE.write }, first.command))).outputs
        .outcome,
    ).toBe('approved');
    const blocked = await consume(
      second.planFile,
      await world.comment({ login: PEOPLE.write }, second.command),
    );
    expect(blocked.outputs).toMatchObject({ outcome: 'refused', reason: 'repository-lease-held' });
  });
});

describe('dry run', () => {
  it('evaluates everything, shows the ledger commit it would make, and writes nothing', async () => {
    expireLease();
    const { planFile, runId, command } = await freshRun();
    const event = await world.comment({ login: PEOPLE.write }, command);
    const head = await world.head();
    const dry = await world.run(
      'consume-approval',
      { 'plan-file': planFile, ...world.ledgerInputs() },
      { event },
    );
    expect(dry.outputs).toMatchObject({
      outcome: 'dry-run',
      reason: '',
      'run-id': runId,
      epoch: expect.stringMatching(/^\d+$/),
    });
    expect(dry.summary).toMatch(/Ledger commit \(dry run: not written\)/);
    expect(dry.summary).toMatch(/Writ-Transition: consume/);
    expect(await world.head()).toBe(head);
    expect((await world.runFile(runId))?.approval).toBeNull();
  });
});

describe('concurrent consumption', () => {
  it('8 concurrent consume-approval processes for one comment: exactly one approval', async () => {
    expireLease();
    const { planFile, runId, command } = await freshRun();
    const event = await world.comment({ login: PEOPLE.write }, command);
    const runs = await Promise.all(Array.from({ length: 8 }, () => consume(planFile, event)));
    const outcomes = runs.map((r) => r.outputs.outcome);
    expect(outcomes.filter((o) => o === 'approved')).toHaveLength(1);
    for (const run of runs.filter((r) => r.outputs.outcome !== 'approved')) {
      expect(['approval-already-consumed', 'repository-lease-held']).toContain(run.outputs.reason);
    }
    const file = await world.runFile(runId);
    expect(file?.approval?.comment_id).toBe((event.comment as { id: number }).id);
  });
});

describe('status comment failures after an approval', () => {
  it('keep the approval: the status comment is reported, not allowed to fail the step', async () => {
    expireLease();
    const planFile = planVariant(dir, 'status-fails', undefined, 'Status comment fails');
    const preview = await world.run('preview', {
      'plan-file': planFile,
      'dry-run': 'false',
      'status-issue': String(world.statusIssue),
      token: world.ledgerInputs().token!,
      'ledger-app-slug': world.ledgerInputs()['ledger-app-slug']!,
      'ledger-app-id': world.ledgerInputs()['ledger-app-id']!,
    });
    const event = await world.comment({ login: PEOPLE.write }, preview.outputs['approve-command']!);
    world.emulator.admin.addFault({
      match: { method: 'PATCH', path: '/repos/acme/widgets/issues/comments/*' },
      fault: { type: 'status', status: 422 },
      times: 1,
    });
    const run = await consume(planFile, event);
    expect(run.outputs).toMatchObject({ outcome: 'approved', reason: '' });
    expect(run.commands.warnings).toEqual([expect.stringMatching(/^status comment not updated: /)]);
    expect((await world.runFile(preview.outputs['run-id']!))?.approval?.actor_login).toBe(PEOPLE.write);
  });
});
