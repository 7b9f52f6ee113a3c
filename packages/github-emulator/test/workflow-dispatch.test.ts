/**
 * Workflows and `workflow_dispatch` as GitHub describes them: the workflow list from the default branch's
 * `.github/workflows`, dispatch validation (GitHub's 404/422s and the input limit), the run a dispatch
 * creates (actor, run-name rendered into `display_title`, `return_run_details`), run lists with GitHub's
 * filters and paging, the visibility delay, faults on a dispatch, admin run changes and their events.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { Emulator } from '@writ/github-emulator/index.js';
import { client, expectConformance, start } from './support/helpers.js';

const CONNECTOR = `name: Writ connector
run-name: "writ \${{ inputs.key }}"
on:
  workflow_dispatch:
    inputs:
      key:
        type: string
        required: true
      attempt:
        type: number
        default: 1
      mode:
        type: choice
        options: [fast, slow]
        default: fast
jobs:
  work:
    runs-on: ubuntu-latest
    steps:
      - run: echo hi
`;

const PUSH_ONLY = `name: CI
on: [push, pull_request]
jobs: {}
`;

let emulator: Emulator;
const where = { owner: 'octo', repo: 'repo' };

beforeAll(async () => {
  emulator = await start(31);
  const { admin } = emulator;
  admin.createUser({ login: 'octo' });
  admin.createUser({ login: 'reader' });
  admin.createApp({ slug: 'writ' });
  admin.createToken({
    token: 'writ-app',
    kind: 'installation',
    app: 'writ',
    permissions: { actions: 'write', contents: 'write' },
  });
  admin.createToken({ token: 'reads-actions', kind: 'installation', app: 'writ' });
  admin.createToken({ token: 'octo-pat', kind: 'pat', login: 'octo' });
  admin.createToken({ token: 'reader-pat', kind: 'pat', login: 'reader' });
  admin.createRepo({
    owner: 'octo',
    name: 'repo',
    private: true,
    files: {
      'README.md': 'x\n',
      '.github/workflows/writ-connector.yml': CONNECTOR,
      '.github/workflows/ci.yaml': PUSH_ONLY,
      '.github/workflows/notes.txt': 'not a workflow',
    },
  });
  admin.setCollaborator('octo', 'repo', 'reader', 'read');
});
afterAll(async () => {
  await emulator.close();
  expectConformance();
});
beforeEach(() => {
  emulator.admin.clearFaults();
  emulator.admin.setRunVisibilityDelay(0);
});

describe('workflows', () => {
  it('lists the default branch’s workflow files and gets one by ID or file name', async () => {
    const github = client(emulator, 'reads-actions');
    const list = await github.rest.actions.listRepoWorkflows(where);
    expect(list.data.total_count).toBe(2);
    expect(list.data.workflows.map((entry) => [entry.name, entry.path, entry.state])).toEqual([
      ['CI', '.github/workflows/ci.yaml', 'active'],
      ['Writ connector', '.github/workflows/writ-connector.yml', 'active'],
    ]);
    const connector = list.data.workflows[1];
    const byName = await github.rest.actions.getWorkflow({ ...where, workflow_id: 'writ-connector.yml' });
    const byId = await github.rest.actions.getWorkflow({ ...where, workflow_id: connector?.id ?? 0 });
    expect(byName.data.id).toBe(connector?.id);
    expect(byId.data.path).toBe('.github/workflows/writ-connector.yml');
    await expect(
      github.rest.actions.getWorkflow({ ...where, workflow_id: 'nope.yml' }),
    ).rejects.toMatchObject({
      status: 404,
    });
  });
});

describe('workflow_dispatch', () => {
  it('creates a queued run as the caller (a Bot for an app token) with run-name rendered', async () => {
    const github = client(emulator, 'writ-app');
    const head = emulator.world.repo('octo', 'repo')?.refs.get('refs/heads/main');
    const answer = await github.request(
      'POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches',
      {
        ...where,
        workflow_id: 'writ-connector.yml',
        ref: 'main',
        inputs: { key: 'k-123', attempt: 2 },
        return_run_details: true,
      },
    );
    expect(answer.status).toBe(200);
    const details = answer.data as { workflow_run_id: number; run_url: string; html_url: string };
    expect(details.run_url).toMatch(new RegExp(`/repos/octo/repo/actions/runs/${details.workflow_run_id}$`));
    const run = await github.rest.actions.getWorkflowRun({ ...where, run_id: details.workflow_run_id });
    expect(run.data).toMatchObject({
      event: 'workflow_dispatch',
      status: 'queued',
      conclusion: null,
      head_branch: 'main',
      head_sha: head,
      path: '.github/workflows/writ-connector.yml',
      name: 'Writ connector',
      display_title: 'writ k-123',
      run_attempt: 1,
      actor: { login: 'writ[bot]', type: 'Bot' },
      triggering_actor: { login: 'writ[bot]', type: 'Bot' },
    });
    const events = emulator.world.events.filter(
      (event) => event.event === 'workflow_dispatch' || event.event === 'workflow_run',
    );
    expect(events.map((event) => `${event.event}:${event.action}`).slice(-2)).toEqual([
      'workflow_dispatch:',
      'workflow_run:requested',
    ]);
    expect(events.at(-2)?.payload).toMatchObject({
      ref: 'refs/heads/main',
      workflow: '.github/workflows/writ-connector.yml',
      inputs: { key: 'k-123', attempt: '2', mode: 'fast' },
    });
  });

  it('answers 204 without return_run_details; the run carries the caller as actor (a user’s PAT)', async () => {
    const github = client(emulator, 'octo-pat');
    const answer = await github.rest.actions.createWorkflowDispatch({
      ...where,
      workflow_id: 'writ-connector.yml',
      ref: 'refs/heads/main',
      inputs: { key: 'by-octo' },
    });
    expect(answer.status).toBe(204);
    const runs = await github.rest.actions.listWorkflowRunsForRepo({ ...where, actor: 'octo' });
    expect(runs.data.workflow_runs[0]).toMatchObject({
      display_title: 'writ by-octo',
      actor: { login: 'octo' },
    });
  });

  it('refuses as GitHub does: 404 unknown workflow, 422 for ref, trigger, inputs; 403 without actions: write', async () => {
    const app = client(emulator, 'writ-app', { retries: 0 });
    const dispatch = (workflow_id: string, ref: string, inputs?: Record<string, unknown>) =>
      app.request('POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches', {
        ...where,
        workflow_id,
        ref,
        ...(inputs ? { inputs } : {}),
      });
    const before = emulator.world.repo('octo', 'repo')?.runs.size;
    await expect(dispatch('missing.yml', 'main', { key: 'x' })).rejects.toMatchObject({ status: 404 });
    await expect(dispatch('ci.yaml', 'main')).rejects.toMatchObject({
      status: 422,
      response: { data: { message: "Workflow does not have 'workflow_dispatch' trigger" } },
    });
    await expect(dispatch('writ-connector.yml', 'no-such-branch', { key: 'x' })).rejects.toMatchObject({
      status: 422,
      response: { data: { message: 'No ref found for: no-such-branch' } },
    });
    await expect(dispatch('writ-connector.yml', 'main', { key: 'x', extra: 'y' })).rejects.toMatchObject({
      status: 422,
      response: { data: { message: 'Unexpected inputs provided: ["extra"]' } },
    });
    await expect(dispatch('writ-connector.yml', 'main', { attempt: 1 })).rejects.toMatchObject({
      status: 422,
      response: { data: { message: "Required input 'key' not provided" } },
    });
    await expect(dispatch('writ-connector.yml', 'main', { key: 'x', mode: 'medium' })).rejects.toMatchObject({
      status: 422,
    });
    const many = Object.fromEntries(Array.from({ length: 26 }, (_, index) => [`i${index}`, 'v']));
    await expect(dispatch('writ-connector.yml', 'main', many)).rejects.toMatchObject({
      status: 422,
      response: {
        data: {
          message: expect.stringContaining('No more than 25 properties are allowed; 26 were supplied'),
        },
      },
    });
    await expect(
      client(emulator, 'reads-actions', { retries: 0 }).rest.actions.createWorkflowDispatch({
        ...where,
        workflow_id: 'writ-connector.yml',
        ref: 'main',
        inputs: { key: 'x' },
      }),
    ).rejects.toMatchObject({ status: 403 });
    await expect(
      client(emulator, 'reader-pat', { retries: 0 }).rest.actions.createWorkflowDispatch({
        ...where,
        workflow_id: 'writ-connector.yml',
        ref: 'main',
        inputs: { key: 'x' },
      }),
    ).rejects.toMatchObject({ status: 403 });
    expect(emulator.world.repo('octo', 'repo')?.runs.size).toBe(before);
  });

  it('reads the workflow at the dispatched ref, and an unsupported run-name expression stays as written', async () => {
    emulator.admin.commitFiles('octo', 'repo', {
      branch: 'topic',
      files: {
        '.github/workflows/writ-connector.yml': `name: Topic connector
run-name: "\${{ github.actor }} on \${{ github.ref_name }}: \${{ github.event.inputs.key }} \${{ format('{0}', inputs.key) }}"
on:
  workflow_dispatch:
    inputs:
      key: { required: true }
`,
      },
    });
    const github = client(emulator, 'writ-app');
    const answer = await github.request(
      'POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches',
      {
        ...where,
        workflow_id: 'writ-connector.yml',
        ref: 'topic',
        inputs: { key: 'k9' },
        return_run_details: true,
      },
    );
    const id = (answer.data as { workflow_run_id: number }).workflow_run_id;
    const run = await github.rest.actions.getWorkflowRun({ ...where, run_id: id });
    expect(run.data.display_title).toBe("writ[bot] on topic: k9 ${{ format('{0}', inputs.key) }}");
    expect(run.data.name).toBe('Topic connector');
    expect(run.data.head_branch).toBe('topic');
  });
});

describe('workflow runs', () => {
  it('filters lists by event, branch, status, actor, head_sha and created, newest first, paged', async () => {
    const github = client(emulator, 'writ-app');
    emulator.admin.clock({ now: '2030-01-02T10:00:00Z' });
    const ids: number[] = [];
    for (const key of ['a', 'b', 'c']) {
      const answer = await github.request(
        'POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches',
        {
          ...where,
          workflow_id: 'writ-connector.yml',
          ref: 'main',
          inputs: { key },
          return_run_details: true,
        },
      );
      ids.push((answer.data as { workflow_run_id: number }).workflow_run_id);
      emulator.admin.clock({ advance_ms: 60_000 });
    }
    const [first, second, third] = ids;
    emulator.admin.startRun('octo', 'repo', first ?? 0);
    emulator.admin.completeRun('octo', 'repo', first ?? 0, 'success');
    emulator.admin.startRun('octo', 'repo', second ?? 0);

    const listed = await github.rest.actions.listWorkflowRuns({
      ...where,
      workflow_id: 'writ-connector.yml',
      created: '>=2030-01-02T10:00:00Z',
    });
    expect(listed.data.total_count).toBe(3);
    expect(listed.data.workflow_runs.map((run) => run.id)).toEqual([third, second, first]);
    const query = async (params: Record<string, string | number>): Promise<number[]> =>
      (
        await github.rest.actions.listWorkflowRunsForRepo({ ...where, created: '2030-01-02', ...params })
      ).data.workflow_runs.map((run) => run.id);
    expect(await query({ status: 'success' })).toEqual([first]);
    expect(await query({ status: 'completed' })).toEqual([first]);
    expect(await query({ status: 'in_progress' })).toEqual([second]);
    expect(await query({ status: 'queued' })).toEqual([third]);
    expect(await query({ event: 'push' })).toEqual([]);
    expect(await query({ event: 'workflow_dispatch', branch: 'main', actor: 'writ[bot]' })).toEqual([
      third,
      second,
      first,
    ]);
    expect(await query({ created: '2030-01-02T10:00:00Z..2030-01-02T10:01:00Z' })).toEqual([second, first]);
    // Runs dispatched earlier in this file (at the real time, before 2030) are older still.
    const older = await query({ created: '<2030-01-02T10:01:00Z' });
    expect(older[0]).toBe(first);
    expect(older).not.toContain(second);
    expect(await query({ created: '>2030-01-02T10:01:00Z' })).toEqual([third]);
    expect(await query({ created: '2030-01-03' })).toEqual([]);
    const head = emulator.world.repo('octo', 'repo')?.refs.get('refs/heads/main') ?? '';
    expect(await query({ head_sha: head })).toEqual([third, second, first]);

    const page = await github.rest.actions.listWorkflowRunsForRepo({
      ...where,
      created: '2030-01-02',
      per_page: 2,
    });
    expect(page.data.workflow_runs).toHaveLength(2);
    expect(page.data.total_count).toBe(3);
    expect(page.headers.link).toContain('rel="next"');
    const two = await github.rest.actions.listWorkflowRunsForRepo({
      ...where,
      created: '2030-01-02',
      per_page: 2,
      page: 2,
    });
    expect(two.data.workflow_runs.map((run) => run.id)).toEqual([first]);

    const kinds = emulator.world.events
      .filter((event) => event.event === 'workflow_run')
      .map((event) => event.action);
    expect(kinds).toEqual(expect.arrayContaining(['requested', 'in_progress', 'completed']));
  });

  it('keeps a dispatched run out of lists until the visibility delay passes (GET by ID finds it at once)', async () => {
    const github = client(emulator, 'writ-app');
    emulator.admin.setRunVisibilityDelay(5_000);
    const answer = await github.request(
      'POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches',
      {
        ...where,
        workflow_id: 'writ-connector.yml',
        ref: 'main',
        inputs: { key: 'late' },
        return_run_details: true,
      },
    );
    const id = (answer.data as { workflow_run_id: number }).workflow_run_id;
    emulator.admin.clock({ freeze: true });
    const listedIds = async (): Promise<number[]> =>
      (await github.rest.actions.listWorkflowRunsForRepo({ ...where, per_page: 100 })).data.workflow_runs.map(
        (run) => run.id,
      );
    expect(await listedIds()).not.toContain(id);
    expect((await github.rest.actions.getWorkflowRun({ ...where, run_id: id })).data.id).toBe(id);
    emulator.admin.clock({ advance_ms: 5_000 });
    expect(await listedIds()).toContain(id);
    emulator.admin.clock({ freeze: false });
  });

  it('faults: a dispatch applied but its answer dropped, and a 5xx without applying', async () => {
    const repo = emulator.world.repo('octo', 'repo');
    const path = '/repos/octo/repo/actions/workflows/*/dispatches';
    const dispatch = () =>
      client(emulator, 'writ-app', { retries: 0 }).rest.actions.createWorkflowDispatch({
        ...where,
        workflow_id: 'writ-connector.yml',
        ref: 'main',
        inputs: { key: 'faulty' },
      });
    const count = () =>
      [...(repo?.runs.values() ?? [])].filter((run) => run.display_title === 'writ faulty').length;
    emulator.admin.addFault({
      match: { method: 'POST', path },
      fault: { type: 'apply-then-drop' },
      times: 1,
    });
    await expect(dispatch()).rejects.toBeDefined();
    expect(count()).toBe(1);
    emulator.admin.addFault({
      match: { method: 'POST', path },
      fault: { type: 'status', status: 502 },
      times: 1,
    });
    await expect(dispatch()).rejects.toMatchObject({ status: 502 });
    expect(count()).toBe(1);
  });

  it('admin: start and complete a run over HTTP; completing twice is refused', async () => {
    const github = client(emulator, 'writ-app');
    const answer = await github.request(
      'POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches',
      {
        ...where,
        workflow_id: 'writ-connector.yml',
        ref: 'main',
        inputs: { key: 'http' },
        return_run_details: true,
      },
    );
    const id = (answer.data as { workflow_run_id: number }).workflow_run_id;
    const post = (suffix: string, body: unknown) =>
      fetch(`${emulator.adminUrl}/repos/octo/repo/actions/runs/${id}/${suffix}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post('start', {})).status).toBe(200);
    expect((await post('complete', { conclusion: 'failure' })).status).toBe(200);
    expect((await post('complete', { conclusion: 'success' })).status).toBe(409);
    const run = await github.rest.actions.getWorkflowRun({ ...where, run_id: id });
    expect(run.data).toMatchObject({ status: 'completed', conclusion: 'failure' });
  });
});
