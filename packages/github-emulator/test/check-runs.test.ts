/**
 * Check runs as GitHub describes them: only a GitHub App may create one (a PAT gets 403), with
 * `checks: write`; each records the app that made it (a second, "verifier" app is told apart), its
 * `head_sha` is fixed, only its app may update it; the per-ref list filters by name, status, app and
 * latest/all; events `check_run` created/completed. Commit statuses and the combined status too.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Emulator } from '@writ/github-emulator/index.js';
import { client, expectConformance, start } from './support/helpers.js';

let emulator: Emulator;
let head = '';
let verifierId = 0;
let writId = 0;
const where = { owner: 'octo', repo: 'repo' };

beforeAll(async () => {
  emulator = await start(32);
  const { admin } = emulator;
  admin.createUser({ login: 'octo' });
  writId = admin.createApp({ slug: 'writ' }).app_id;
  verifierId = admin.createApp({ slug: 'writ-verifier' }).app_id;
  admin.createToken({
    token: 'writ-app',
    kind: 'installation',
    app: 'writ',
    permissions: { checks: 'write' },
  });
  admin.createToken({
    token: 'verifier-app',
    kind: 'installation',
    app: 'writ-verifier',
    permissions: { checks: 'write', statuses: 'write', contents: 'read' },
  });
  admin.createToken({
    token: 'no-checks',
    kind: 'installation',
    app: 'writ',
    permissions: { contents: 'write' },
  });
  admin.createToken({ token: 'octo-pat', kind: 'pat', login: 'octo' });
  admin.createRepo({ owner: 'octo', name: 'repo', files: { 'README.md': 'x\n' } });
  head = admin.commitFiles('octo', 'repo', {
    branch: 'writ/candidate/k1',
    files: { 'src/a.txt': 'candidate\n' },
    author: 'writ[bot]',
  }).sha;
});
afterAll(async () => {
  await emulator.close();
  expectConformance();
});

describe('check runs', () => {
  it('records the creating app; a PAT is refused 403; a token without checks: write is refused 403', async () => {
    const verifier = client(emulator, 'verifier-app');
    const created = await verifier.rest.checks.create({
      ...where,
      name: 'writ/verify',
      head_sha: head,
      status: 'in_progress',
      external_id: 'run-1',
      output: { title: 'Verifying', summary: 'candidate k1' },
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      name: 'writ/verify',
      head_sha: head,
      status: 'in_progress',
      conclusion: null,
      external_id: 'run-1',
      completed_at: null,
      app: { id: verifierId, slug: 'writ-verifier', owner: { login: 'writ-verifier-owner' } },
      output: { title: 'Verifying', summary: 'candidate k1', text: null },
    });
    expect(created.data.started_at).toEqual(expect.any(String));
    await expect(
      client(emulator, 'octo-pat', { retries: 0 }).rest.checks.create({
        ...where,
        name: 'x',
        head_sha: head,
      }),
    ).rejects.toMatchObject({
      status: 403,
      response: { data: { message: 'You must authenticate via a GitHub App.' } },
    });
    await expect(
      client(emulator, 'no-checks', { retries: 0 }).rest.checks.create({
        ...where,
        name: 'x',
        head_sha: head,
      }),
    ).rejects.toMatchObject({ status: 403 });
    await expect(
      verifier.rest.checks.create({ ...where, name: 'x', head_sha: 'f'.repeat(40) }),
    ).rejects.toMatchObject({ status: 422 });

    // Only the creating app may update it; completing records `completed_at` and the event.
    await expect(
      client(emulator, 'writ-app', { retries: 0 }).rest.checks.update({
        ...where,
        check_run_id: created.data.id,
        conclusion: 'success',
      }),
    ).rejects.toMatchObject({ status: 403 });
    const done = await verifier.rest.checks.update({
      ...where,
      check_run_id: created.data.id,
      conclusion: 'success',
      output: { title: 'Verified', summary: 'ok', text: 'all checks passed' },
    });
    expect(done.data).toMatchObject({ status: 'completed', conclusion: 'success', head_sha: head });
    expect(done.data.completed_at).toEqual(expect.any(String));
    const read = await client(emulator, 'verifier-app').rest.checks.get({
      ...where,
      check_run_id: created.data.id,
    });
    expect(read.data).toMatchObject({ conclusion: 'success', app: { id: verifierId } });
    const actions = emulator.world.events
      .filter((event) => event.event === 'check_run')
      .map((event) => event.action);
    expect(actions).toEqual(['created', 'completed']);
  });

  it('lists a ref’s check runs: latest per app and name by default, all on request, filtered', async () => {
    const verifier = client(emulator, 'verifier-app');
    const writ = client(emulator, 'writ-app');
    await verifier.rest.checks.create({
      ...where,
      name: 'writ/verify',
      head_sha: head,
      conclusion: 'failure',
    });
    await writ.rest.checks.create({ ...where, name: 'writ/verify', head_sha: head, conclusion: 'success' });
    const list = (params: Record<string, string | number>) =>
      verifier.rest.checks.listForRef({ ...where, ref: 'writ/candidate/k1', ...params });
    const latest = await list({});
    expect(latest.data.total_count).toBe(2);
    expect(latest.data.check_runs.map((entry) => [entry.app?.slug, entry.conclusion])).toEqual([
      ['writ', 'success'],
      ['writ-verifier', 'failure'],
    ]);
    expect((await list({ filter: 'all' })).data.total_count).toBe(3);
    const byApp = await list({ filter: 'all', app_id: verifierId });
    expect(byApp.data.check_runs.map((entry) => entry.conclusion)).toEqual(['failure', 'success']);
    expect((await list({ app_id: writId, check_name: 'writ/verify' })).data.total_count).toBe(1);
    expect((await list({ status: 'in_progress' })).data.total_count).toBe(0);
    expect((await list({ check_name: 'other' })).data.total_count).toBe(0);
    const bySha = await verifier.rest.checks.listForRef({ ...where, ref: head, filter: 'all', per_page: 1 });
    expect(bySha.data.check_runs).toHaveLength(1);
    expect(bySha.headers.link).toContain('rel="next"');
  });
});

describe('commit statuses', () => {
  it('creates statuses, lists them newest first and combines the latest per context', async () => {
    const verifier = client(emulator, 'verifier-app');
    const created = await verifier.rest.repos.createCommitStatus({
      ...where,
      sha: head,
      state: 'pending',
      context: 'writ/verify',
      description: 'running',
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      state: 'pending',
      context: 'writ/verify',
      creator: { login: 'writ-verifier[bot]' },
    });
    let combined = await verifier.rest.repos.getCombinedStatusForRef({ ...where, ref: head });
    expect(combined.data).toMatchObject({ state: 'pending', sha: head, total_count: 1 });
    await verifier.rest.repos.createCommitStatus({
      ...where,
      sha: head,
      state: 'success',
      context: 'writ/verify',
    });
    await verifier.rest.repos.createCommitStatus({ ...where, sha: head, state: 'success', context: 'lint' });
    combined = await verifier.rest.repos.getCombinedStatusForRef({ ...where, ref: 'writ/candidate/k1' });
    expect(combined.data.state).toBe('success');
    expect(combined.data.statuses.map((entry) => `${entry.context}:${entry.state}`)).toEqual([
      'lint:success',
      'writ/verify:success',
    ]);
    await verifier.rest.repos.createCommitStatus({ ...where, sha: head, state: 'error', context: 'lint' });
    combined = await verifier.rest.repos.getCombinedStatusForRef({ ...where, ref: head });
    expect(combined.data.state).toBe('failure');
    const all = await verifier.rest.repos.listCommitStatusesForRef({ ...where, ref: head });
    expect(all.data.map((entry) => entry.state)).toEqual(['error', 'success', 'success', 'pending']);
    await expect(
      verifier.rest.repos.createCommitStatus({ ...where, sha: head, state: 'bogus' as 'error' }),
    ).rejects.toMatchObject({ status: 422 });
    await expect(
      client(emulator, 'writ-app', { retries: 0 }).rest.repos.createCommitStatus({
        ...where,
        sha: head,
        state: 'success',
      }),
    ).rejects.toMatchObject({ status: 403 });
    const statusEvents = emulator.world.events.filter((event) => event.event === 'status');
    expect(statusEvents).toHaveLength(4);
    expect(statusEvents[0]?.payload).toMatchObject({ sha: head, state: 'pending', context: 'writ/verify' });
  });
});
