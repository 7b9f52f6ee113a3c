/**
 * Issues, comments, labels and milestones: CRUD, webhooks, triage rules, filters, and last-write-wins
 * unless If-Match is opted into.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { World } from './support/helpers.js';
import { client, expectConformance, setup } from './support/helpers.js';

let world: World;
beforeAll(async () => {
  world = await setup();
  world.emulator.admin.createUser({ login: 'dave' });
  world.emulator.admin.createToken({ token: 'dave-pat', kind: 'pat', login: 'dave' });
  world.emulator.admin.setCollaborator('alice', 'repo', 'dave', 'read');
});
afterAll(async () => {
  await world.emulator.close();
  expectConformance();
});

const repo = { owner: 'alice', repo: 'repo' };

describe('issues', () => {
  it('creates, gets, edits and closes an issue, recording the webhooks GitHub would send', async () => {
    const app = client(world.emulator, 'app-token');
    const since = world.emulator.world.events.length;
    const { data: milestone } = await app.rest.issues.createMilestone({ ...repo, title: 'v1' });
    const { data: created } = await app.rest.issues.create({
      ...repo,
      title: 'First',
      body: 'hello',
      labels: ['writ'],
      milestone: milestone.number,
    });
    expect(created).toMatchObject({
      number: 1,
      state: 'open',
      user: { login: 'writ-ledger[bot]', type: 'Bot' },
    });
    expect(created.labels.map((entry) => (typeof entry === 'string' ? entry : entry.name))).toEqual(['writ']);
    expect(created.milestone?.number).toBe(milestone.number);
    expect(created.performed_via_github_app?.slug).toBe('writ-ledger');
    const { data: edited } = await app.rest.issues.update({
      ...repo,
      issue_number: 1,
      title: 'First!',
      state: 'closed',
    });
    expect(edited).toMatchObject({ title: 'First!', state: 'closed', state_reason: 'completed' });
    const events = world.emulator.admin
      .events()
      .slice(since)
      .map((event) => `${event.event}.${event.action}`);
    expect(events).toEqual([
      'issues.opened',
      'issues.labeled',
      'issues.milestoned',
      'issues.edited',
      'issues.closed',
    ]);
    const editedEvent = world.emulator.admin.events().find((event) => event.action === 'edited');
    expect(editedEvent?.payload).toMatchObject({
      changes: { title: { from: 'First' } },
      sender: { login: 'writ-ledger[bot]' },
    });
    expect(editedEvent?.payload).toHaveProperty('installation');
  });

  it('silently drops milestone and label changes from a caller without triage access', async () => {
    const dave = client(world.emulator, 'dave-pat');
    const { data: created } = await dave.rest.issues.create({
      ...repo,
      title: 'From a reader',
      labels: ['bug'],
      milestone: 1,
    });
    expect(created.labels).toEqual([]);
    expect(created.milestone).toBeNull();
    const { data: updated } = await dave.rest.issues.update({
      ...repo,
      issue_number: created.number,
      milestone: 1,
      body: 'edited',
    });
    expect(updated.milestone).toBeNull();
    expect(updated.body).toBe('edited');
  });

  it('refuses a duplicate milestone title with already_exists', async () => {
    const app = client(world.emulator, 'app-token');
    await expect(app.rest.issues.createMilestone({ ...repo, title: 'v1' })).rejects.toMatchObject({
      status: 422,
      response: {
        data: {
          message: 'Validation Failed',
          errors: [{ resource: 'Milestone', code: 'already_exists', field: 'title' }],
        },
      },
    });
  });

  it('lists with state, milestone and label filters and includes pull requests', async () => {
    const app = client(world.emulator, 'app-token');
    const { data: open } = await app.rest.issues.listForRepo({ ...repo });
    expect(open.map((entry) => entry.number)).toEqual([2]);
    const { data: all } = await app.rest.issues.listForRepo({ ...repo, state: 'all', direction: 'asc' });
    expect(all.map((entry) => entry.number)).toEqual([1, 2]);
    const { data: withMilestone } = await app.rest.issues.listForRepo({
      ...repo,
      state: 'all',
      milestone: '*',
    });
    expect(withMilestone.map((entry) => entry.number)).toEqual([1]);
    const { data: labelled } = await app.rest.issues.listForRepo({ ...repo, state: 'all', labels: 'writ' });
    expect(labelled.map((entry) => entry.number)).toEqual([1]);
  });

  it('is last-write-wins by default and honours If-Match only in the opt-in mode', async () => {
    const app = client(world.emulator, 'app-token');
    const { data: created, headers } = await app.rest.issues.create({ ...repo, title: 'etag' });
    const etag = String(headers.etag);
    await app.rest.issues.update({ ...repo, issue_number: created.number, body: 'changed by someone else' });
    const stale = await app.rest.issues.update({
      ...repo,
      issue_number: created.number,
      body: 'mine',
      headers: { 'if-match': etag },
    });
    expect(stale.data.body).toBe('mine');
    world.emulator.admin.setConditionalWrites('honoured');
    try {
      const { headers: fresh } = await app.rest.issues.get({ ...repo, issue_number: created.number });
      await expect(
        app.rest.issues.update({
          ...repo,
          issue_number: created.number,
          body: 'refused',
          headers: { 'if-match': etag },
        }),
      ).rejects.toMatchObject({ status: 412 });
      expect((await app.rest.issues.get({ ...repo, issue_number: created.number })).data.body).toBe('mine');
      const ok = await app.rest.issues.update({
        ...repo,
        issue_number: created.number,
        body: 'accepted',
        headers: { 'if-match': String(fresh.etag) },
      });
      expect(ok.data.body).toBe('accepted');
      world.emulator.admin.setConditionalWrites('applied-then-412');
      await expect(
        app.rest.issues.update({
          ...repo,
          issue_number: created.number,
          body: 'applied anyway',
          headers: { 'if-match': etag },
        }),
      ).rejects.toMatchObject({ status: 412 });
      expect((await app.rest.issues.get({ ...repo, issue_number: created.number })).data.body).toBe(
        'applied anyway',
      );
    } finally {
      world.emulator.admin.setConditionalWrites('ignored');
    }
  });
});

describe('comments and labels', () => {
  it('creates, edits, lists and deletes comments with issue_comment webhooks', async () => {
    const app = client(world.emulator, 'app-token');
    const bob = client(world.emulator, 'bob-pat');
    const since = world.emulator.world.events.length;
    const { data: created } = await bob.rest.issues.createComment({
      ...repo,
      issue_number: 2,
      body: 'writ: approve 1 abc',
    });
    expect(created).toMatchObject({
      body: 'writ: approve 1 abc',
      user: { login: 'bob', type: 'User' },
      author_association: 'COLLABORATOR',
    });
    await bob.rest.issues.updateComment({ ...repo, comment_id: created.id, body: 'edited' });
    const { data: fetched } = await app.rest.issues.getComment({ ...repo, comment_id: created.id });
    expect(fetched.body).toBe('edited');
    expect(fetched.updated_at >= fetched.created_at).toBe(true);
    await app.rest.issues.createComment({ ...repo, issue_number: 2, body: 'status' });
    const { data: perIssue } = await app.rest.issues.listComments({ ...repo, issue_number: 2 });
    expect(perIssue.map((entry) => entry.body)).toEqual(['edited', 'status']);
    const { data: perRepo } = await app.rest.issues.listCommentsForRepo({ ...repo });
    expect(perRepo).toHaveLength(2);
    await app.rest.issues.deleteComment({ ...repo, comment_id: created.id });
    await expect(app.rest.issues.getComment({ ...repo, comment_id: created.id })).rejects.toMatchObject({
      status: 404,
    });
    const events = world.emulator.admin.events().slice(since);
    expect(events.map((event) => `${event.event}.${event.action}`)).toEqual([
      'issue_comment.created',
      'issue_comment.edited',
      'issue_comment.created',
      'issue_comment.deleted',
    ]);
    expect(events[1]?.payload).toMatchObject({
      changes: { body: { from: 'writ: approve 1 abc' } },
      comment: { body: 'edited' },
    });
  });

  it('refuses to edit another user’s comment without write access', async () => {
    const app = client(world.emulator, 'app-token');
    const dave = client(world.emulator, 'dave-pat');
    const { data: created } = await app.rest.issues.createComment({ ...repo, issue_number: 2, body: 'bot' });
    await expect(
      dave.rest.issues.updateComment({ ...repo, comment_id: created.id, body: 'hijack' }),
    ).rejects.toMatchObject({ status: 403 });
  });

  it('adds, lists and removes labels; a duplicate label is already_exists', async () => {
    const app = client(world.emulator, 'app-token');
    await app.rest.issues.createLabel({ ...repo, name: 'writ:run', color: '0e8a16', description: 'managed' });
    await expect(app.rest.issues.createLabel({ ...repo, name: 'writ:run' })).rejects.toMatchObject({
      status: 422,
      response: { data: { errors: [{ resource: 'Label', code: 'already_exists', field: 'name' }] } },
    });
    const { data: added } = await app.rest.issues.addLabels({
      ...repo,
      issue_number: 2,
      labels: ['writ:run', 'extra'],
    });
    expect(added.map((entry) => entry.name)).toEqual(['writ:run', 'extra']);
    const { data: remaining } = await app.rest.issues.removeLabel({
      ...repo,
      issue_number: 2,
      name: 'extra',
    });
    expect(remaining.map((entry) => entry.name)).toEqual(['writ:run']);
    await expect(
      app.rest.issues.removeLabel({ ...repo, issue_number: 2, name: 'extra' }),
    ).rejects.toMatchObject({ status: 404 });
    const { data: labels } = await app.rest.issues.listLabelsForRepo({ ...repo });
    expect(labels.map((entry) => entry.name)).toEqual(expect.arrayContaining(['writ', 'writ:run', 'extra']));
    const { data: renamed } = await app.rest.issues.updateLabel({
      ...repo,
      name: 'extra',
      new_name: 'spare',
      color: '#ff0000',
    });
    expect(renamed).toMatchObject({ name: 'spare', color: 'ff0000' });
    await expect(
      app.rest.issues.updateLabel({ ...repo, name: 'spare', new_name: 'writ' }),
    ).rejects.toMatchObject({ status: 422 });
    await app.rest.issues.deleteLabel({ ...repo, name: 'writ:run' });
    await expect(app.rest.issues.getLabel({ ...repo, name: 'writ:run' })).rejects.toMatchObject({
      status: 404,
    });
    const { data: onIssue } = await app.rest.issues.listLabelsOnIssue({ ...repo, issue_number: 2 });
    expect(onIssue).toEqual([]);
  });
});

describe('labels and milestones by name and number', () => {
  it('gets a label by name, replaces an issue’s labels, and deletes a milestone (clearing it from issues)', async () => {
    const app = client(world.emulator, 'app-token');
    const { data: byName } = await app.rest.issues.getLabel({ ...repo, name: 'writ' });
    expect(byName.name).toBe('writ');
    const { data: created } = await app.rest.issues.create({ ...repo, title: 'labels', labels: ['a', 'b'] });
    const { data: replaced } = await app.rest.issues.setLabels({
      ...repo,
      issue_number: created.number,
      labels: ['c'],
    });
    expect(replaced.map((entry) => entry.name)).toEqual(['c']);
    const { data: listed } = await app.rest.issues.listLabelsOnIssue({
      ...repo,
      issue_number: created.number,
    });
    expect(listed.map((entry) => entry.name)).toEqual(['c']);
    const { data: doomed } = await app.rest.issues.createMilestone({ ...repo, title: 'doomed' });
    await app.rest.issues.update({ ...repo, issue_number: created.number, milestone: doomed.number });
    const { data: fetched } = await app.rest.issues.getMilestone({
      ...repo,
      milestone_number: doomed.number,
    });
    expect(fetched.open_issues).toBe(1);
    await app.rest.issues.deleteMilestone({ ...repo, milestone_number: doomed.number });
    await expect(
      app.rest.issues.getMilestone({ ...repo, milestone_number: doomed.number }),
    ).rejects.toMatchObject({ status: 404 });
    expect((await app.rest.issues.get({ ...repo, issue_number: created.number })).data.milestone).toBeNull();
  });
});

describe('milestones', () => {
  it('updates and lists milestones by state', async () => {
    const app = client(world.emulator, 'app-token');
    const { data: created } = await app.rest.issues.createMilestone({
      ...repo,
      title: 'v2',
      description: '<!-- writ -->',
    });
    const { data: updated } = await app.rest.issues.updateMilestone({
      ...repo,
      milestone_number: created.number,
      state: 'closed',
    });
    expect(updated).toMatchObject({ state: 'closed', description: '<!-- writ -->' });
    expect(updated.closed_at).not.toBeNull();
    const { data: open } = await app.rest.issues.listMilestones({ ...repo });
    expect(open.map((entry) => entry.title)).toEqual(['v1']);
    const { data: all } = await app.rest.issues.listMilestones({ ...repo, state: 'all' });
    expect(all.map((entry) => entry.title)).toEqual(['v1', 'v2']);
    await expect(
      app.rest.issues.updateMilestone({ ...repo, milestone_number: created.number, title: 'v1' }),
    ).rejects.toMatchObject({
      status: 422,
    });
  });
});
