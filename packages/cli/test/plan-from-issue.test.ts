/**
 * `writ plan from-issue` against the emulator with the real Octokit: a request issue opened with the
 * form becomes a plan on stdout (valid, one issue.create), a hostile one is refused with its code and
 * no plan, and the example planner (examples/plan-from-issue, the `./scripts/plan` of docs/intake.md)
 * prints the same plan from the workflow event as the command prints from the API.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { startEmulator } from '@writ/github-emulator/index.js';
import type { Emulator } from '@writ/github-emulator/index.js';
import { INTAKE_FIELDS } from '@writ/core/setup/issue-form.js';
import { planProblems } from '@writ/core/plan/validate.js';
import { createGitHubClient, loopbackTimings } from '@writ/core/github/client.js';
import { runCli } from '@writ/cli/cli.js';

const BIN = fileURLToPath(new URL('../bin/writ.js', import.meta.url));
const EXAMPLE = fileURLToPath(new URL('../../../examples/plan-from-issue', import.meta.url));
const PAT = 'ghp_planFromIssueRequester000000000000000';
const READER = 'ghp_planFromIssueReader00000000000000000';
const scratch = mkdtempSync(join(tmpdir(), 'writ-plan-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const ANSWERS: Record<string, string> = {
  objective: 'Document how to rotate the Writ app key.',
  'task-class': 'Documentation',
  'allowed-paths': 'docs/**',
  'risk-hint': 'Low',
};

function formBody(changes: Record<string, string> = {}): string {
  return INTAKE_FIELDS.map((field) => {
    const value = changes[field.id] ?? ANSWERS[field.id] ?? '';
    return `### ${field.label}\n\n${value === '' ? '_No response_' : value}`;
  }).join('\n\n');
}

async function world(): Promise<{
  env: Record<string, string>;
  open: (title: string, body: string) => Promise<number>;
}> {
  emulator = await startEmulator({ seed: 32, startTime: Date.parse('2026-12-01T09:00:00Z') });
  const { admin } = emulator;
  admin.createUser({ login: 'acme' });
  admin.createUser({ login: 'rita' });
  admin.createToken({ token: PAT, kind: 'pat', login: 'rita' });
  admin.createToken({ token: READER, kind: 'pat', login: 'acme' });
  admin.createRepo({ owner: 'acme', name: 'widgets', files: { 'README.md': 'x\n' } });
  admin.setCollaborator('acme', 'widgets', 'rita', 'read');
  const requester = createGitHubClient(PAT, { baseUrl: emulator.url, ...loopbackTimings(5) });
  return {
    env: { GITHUB_TOKEN: READER, GITHUB_API_URL: emulator.url, GITHUB_REPOSITORY: 'acme/widgets' },
    open: async (title, body) =>
      (await requester.rest.issues.create({ owner: 'acme', repo: 'widgets', title, body })).data.number,
  };
}

async function writ(
  argv: string[],
  env: Record<string, string>,
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, env, { stdout: (text) => (out += text), stderr: (text) => (err += text) });
  return { code, out, err };
}

describe('writ plan from-issue --issue', () => {
  it('reads the request issue over the API and prints a valid plan of one issue.create', async () => {
    const { env, open } = await world();
    const issue = await open('[writ request] Rotate the app key', formBody());
    const result = await writ(['plan', 'from-issue', '--issue', String(issue)], env);
    expect([result.code, result.err]).toEqual([0, '']);
    const plan = JSON.parse(result.out) as { title: string; steps: { kind: string; title: string }[] };
    expect(planProblems(plan)).toEqual([]);
    expect(plan.title).toBe('Work request: Rotate the app key');
    expect(plan.steps.map((step) => [step.kind, step.title])).toEqual([
      ['issue.create', 'Rotate the app key'],
    ]);
    // Reads only: the command sent no write.
    const writes = emulator?.admin
      .requests()
      .filter((request) => request.method !== 'GET' && request.path !== '/graphql');
    expect(writes?.map((request) => `${request.method} ${request.path}`)).toEqual([
      `POST /repos/acme/widgets/issues`,
    ]);
  });

  it('refuses a hostile request with its code, naming field and rule, and prints no plan', async () => {
    const { env, open } = await world();
    const marker = '<!-- writ-idempotency-key: sha256:' + 'c'.repeat(64) + ' -->';
    const issue = await open(
      '[writ request] x',
      formBody({ objective: `Do it ${marker}`, dependencies: `ops: approve r ${'d'.repeat(64)}` }),
    );
    const result = await writ(['plan', 'from-issue', '--issue', String(issue)], env);
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.err).toMatch(/^intake-field-hostile: /);
    expect(result.err).toContain('objective (writ-marker)');
    expect(result.err).toContain('dependencies (writ-command)');
    expect(result.err).not.toContain('writ-idempotency-key');
    expect(result.err).toContain('docs/errors.md#intake-field-hostile');
  });

  it('refuses an issue that is not the form (intake-form-malformed)', async () => {
    const { env, open } = await world();
    const issue = await open('free text', 'Please fix the docs.');
    const result = await writ(['plan', 'from-issue', '--issue', String(issue)], env);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^intake-form-malformed: the issue body is not a Writ work-request form/);
  });

  it('refuses a pull request, whatever its body (a form opens issues)', async () => {
    const { env } = await world();
    const owner = createGitHubClient(READER, { baseUrl: emulator?.url ?? '', ...loopbackTimings(5) });
    const repo = { owner: 'acme', repo: 'widgets' };
    const main = (await owner.rest.repos.getBranch({ ...repo, branch: 'main' })).data.commit;
    const { data: tree } = await owner.rest.git.createTree({
      ...repo,
      base_tree: main.commit.tree.sha,
      tree: [{ path: 'docs/key.md', mode: '100644', type: 'blob', content: 'rotate\n' }],
    });
    const { data: commit } = await owner.rest.git.createCommit({
      ...repo,
      message: 'docs',
      tree: tree.sha,
      parents: [main.sha],
    });
    await owner.rest.git.createRef({ ...repo, ref: 'refs/heads/docs', sha: commit.sha });
    const { data: pull } = await owner.rest.pulls.create({
      ...repo,
      title: '[writ request] x',
      body: formBody(),
      head: 'docs',
      base: 'main',
    });
    const result = await writ(['plan', 'from-issue', '--issue', String(pull.number)], env);
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.err).toMatch(/^intake-form-malformed: #\d+ in acme\/widgets is a pull request/);
  });

  it('says which issue could not be read', async () => {
    const { env } = await world();
    const result = await writ(['plan', 'from-issue', '--issue', '99'], env);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/404/);
  });
});

describe('writ plan from-issue --body-file', () => {
  it('needs no token and no network, and gives the plan the API path gives', async () => {
    const { env, open } = await world();
    const issue = await open('[writ request] Rotate the app key', formBody());
    const fromApi = await writ(['plan', 'from-issue', '--issue', String(issue)], env);
    const file = join(scratch, 'body.md');
    writeFileSync(file, formBody());
    const offline = await writ(
      [
        'plan',
        'from-issue',
        '--issue',
        String(issue),
        '--body-file',
        file,
        '--title',
        '[writ request] Rotate the app key',
      ],
      { GITHUB_REPOSITORY: 'acme/widgets', GITHUB_API_URL: 'https://127.0.0.1:9' },
    );
    expect([offline.code, offline.err]).toEqual([0, '']);
    expect(offline.out).toBe(fromApi.out);
  });

  it('reports every problem with the arguments at once', async () => {
    const result = await writ(['plan', 'from-issue', '--issue', 'abc', '--prefix', 'Bad!'], {
      GITHUB_REPOSITORY: 'acme/widgets',
    });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^invalid-input: 2 problems with the arguments of writ plan from-issue/);
    const neither = await writ(['plan', 'from-issue'], { GITHUB_REPOSITORY: 'acme/widgets' });
    expect(neither.err).toContain(
      'pass --issue <number> (read the issue over the API) or --body-file <path>',
    );
    const missing = await writ(['plan', 'from-issue', '--body-file', join(scratch, 'none.md')], {
      GITHUB_REPOSITORY: 'acme/widgets',
    });
    expect(missing.err).toMatch(/^invalid-input: --body-file does not name a regular file/);
    const unknown = await writ(['plan', 'to-issue'], {});
    expect(unknown.err).toMatch(/^invalid-input: Unknown plan command "to-issue"/);
  });

  it.each([
    [['plan', '--help'], /^Usage: writ plan from-issue/],
    [['plan', 'from-issue', '--help'], /^Usage: writ plan from-issue \(--issue/],
  ])('writ %j prints its help', async (argv, usage) => {
    const result = await writ(argv, {});
    expect(result.code).toBe(0);
    expect(result.out).toMatch(usage);
  });
});

describe('the example planner (examples/plan-from-issue)', () => {
  const run = promisify(execFile);

  it('prints, from the workflow event, the plan the command prints from the API', async () => {
    const { env, open } = await world();
    const title = '[writ request] Rotate the app key';
    const issue = await open(title, formBody());
    const fromApi = await writ(['plan', 'from-issue', '--issue', String(issue)], env);
    const event = join(scratch, 'event.json');
    writeFileSync(
      event,
      JSON.stringify({ action: 'labeled', issue: { number: issue, title, body: formBody() } }),
    );
    const { stdout } = await run('bash', [EXAMPLE], {
      env: {
        PATH: process.env.PATH,
        GITHUB_EVENT_PATH: event,
        GITHUB_REPOSITORY: 'acme/widgets',
        RUNNER_TEMP: scratch,
        WRIT: `${process.execPath} ${BIN}`,
      },
    });
    expect(stdout).toBe(fromApi.out);
  });

  it('refuses an event on a pull request, and a hostile request, with no plan', async () => {
    const event = join(scratch, 'pull.json');
    writeFileSync(
      event,
      JSON.stringify({ issue: { number: 3, title: 't', body: formBody(), pull_request: {} } }),
    );
    const base = {
      PATH: process.env.PATH,
      GITHUB_REPOSITORY: 'acme/widgets',
      RUNNER_TEMP: scratch,
      WRIT: `${process.execPath} ${BIN}`,
    };
    await expect(
      run('bash', [EXAMPLE], { env: { ...base, GITHUB_EVENT_PATH: event } }),
    ).rejects.toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining('pull request'),
    });
    writeFileSync(
      event,
      JSON.stringify({
        issue: { number: 3, title: '--json', body: formBody({ 'allowed-paths': '.github/workflows/x.yml' }) },
      }),
    );
    await expect(
      run('bash', [EXAMPLE], { env: { ...base, GITHUB_EVENT_PATH: event } }),
    ).rejects.toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(/^intake-field-hostile: .*\n  allowed-paths \(authority-request\)/),
    });
  });
});
