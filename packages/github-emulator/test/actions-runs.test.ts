/**
 * The Actions API for workflow run attempts, as recovery reads it: each attempt's status, 404 for what the
 * run never had, 403 without `actions: read`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Emulator } from '@writ/github-emulator/index.js';
import { client, expectConformance, start } from './support/helpers.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await start(11);
  const { admin } = emulator;
  admin.createUser({ login: 'octo' });
  admin.createApp({ slug: 'writ' });
  admin.createToken({ token: 'reads-actions', kind: 'installation', app: 'writ' });
  admin.createToken({
    token: 'no-actions',
    kind: 'installation',
    app: 'writ',
    permissions: { contents: 'write', issues: 'write' },
  });
  admin.createRepo({ owner: 'octo', name: 'repo', files: { 'README.md': 'x\n' } });
  admin.setRun('octo', 'repo', { id: 77, status: 'in_progress' });
});
afterAll(async () => {
  await emulator.close();
  expectConformance();
});

const where = { owner: 'octo', repo: 'repo', run_id: 77 };

describe('workflow run attempts', () => {
  it('answers each attempt with its own status and conclusion, as the admin API set them', async () => {
    const github = client(emulator, 'reads-actions');
    const first = await github.rest.actions.getWorkflowRunAttempt({ ...where, attempt_number: 1 });
    expect(first.data).toMatchObject({ id: 77, run_attempt: 1, status: 'in_progress', conclusion: null });

    emulator.admin.setRun('octo', 'repo', { id: 77, status: 'completed', conclusion: 'failure' });
    emulator.admin.setRun('octo', 'repo', {
      id: 77,
      run_attempt: 2,
      status: 'in_progress',
      conclusion: null,
    });
    const [one, two, run] = await Promise.all([
      github.rest.actions.getWorkflowRunAttempt({ ...where, attempt_number: 1 }),
      github.rest.actions.getWorkflowRunAttempt({ ...where, attempt_number: 2 }),
      github.rest.actions.getWorkflowRun(where),
    ]);
    expect(one.data).toMatchObject({ run_attempt: 1, status: 'completed', conclusion: 'failure' });
    expect(two.data).toMatchObject({ run_attempt: 2, status: 'in_progress', conclusion: null });
    expect(run.data).toMatchObject({ run_attempt: 2, status: 'in_progress' });

    // An earlier attempt's status can be set on its own (the latest stays as it is).
    emulator.admin.setRun('octo', 'repo', {
      id: 77,
      run_attempt: 1,
      status: 'completed',
      conclusion: 'cancelled',
    });
    const again = await github.rest.actions.getWorkflowRunAttempt({ ...where, attempt_number: 1 });
    expect(again.data).toMatchObject({ status: 'completed', conclusion: 'cancelled' });
    expect((await github.rest.actions.getWorkflowRun(where)).data.status).toBe('in_progress');
  });

  it('answers 404 for an unknown run and for an attempt the run never had', async () => {
    const github = client(emulator, 'reads-actions');
    await expect(
      github.rest.actions.getWorkflowRunAttempt({ ...where, run_id: 9999, attempt_number: 1 }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      github.rest.actions.getWorkflowRunAttempt({ ...where, attempt_number: 3 }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      github.rest.actions.getWorkflowRunAttempt({ ...where, attempt_number: 0 }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('answers 403 to a token without actions: read, for the run and for its attempts', async () => {
    const github = client(emulator, 'no-actions', { retries: 0 });
    await expect(
      github.rest.actions.getWorkflowRunAttempt({ ...where, attempt_number: 1 }),
    ).rejects.toMatchObject({ status: 403 });
    await expect(github.rest.actions.getWorkflowRun(where)).rejects.toMatchObject({ status: 403 });
  });
});
