/**
 * Every stage's `inputs`, in-process through the real @actions/core reader: a valid set of inputs
 * becomes the typed settings the stage runs with, and every value check fails with its code, naming
 * the input, the value (or its length, where the value may be a secret or untrusted) and what is expected.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WritError } from '../../src/errors.js';
import { stageIo } from '../../src/io/action-io.js';
import { readClaimCheckpointSettings } from '../../src/stages/claim-checkpoint.js';
import { readConsumeApprovalSettings } from '../../src/stages/consume-approval.js';
import { readRunnerContext } from '../../src/stages/context.js';
import { readPreviewSettings } from '../../src/stages/preview.js';
import { readPublishArtifactSettings } from '../../src/stages/publish-artifact.js';
import type { RunnerEnv } from './support/runner-env.js';
import { runnerEnv } from './support/runner-env.js';

let env: RunnerEnv | undefined;
afterEach(() => {
  env?.restore();
  env = undefined;
});

const LEDGER = {
  token: 'ghs_stageInputsToken000000000000000000',
  'ledger-app-slug': 'writ',
  'ledger-app-id': '12',
};

/** The coded failure `fn` throws: its code and message. */
function failure(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error: unknown) {
    if (error instanceof WritError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a coded failure');
}

describe('the runner context', () => {
  it('reads the repository, the run, the event and the API endpoint', () => {
    env = runnerEnv({}, { event: { action: 'created' }, env: { GITHUB_ACTOR_ID: '31' } });
    expect(readRunnerContext()).toMatchObject({
      repository: { owner: 'acme', repo: 'widgets', full: 'acme/widgets' },
      workflowRunId: 4242,
      attempt: 2,
      eventName: 'workflow_dispatch',
      payload: { action: 'created' },
      apiUrl: 'https://api.github.com',
      actorId: 31,
      workspace: env.dir,
      runnerTemp: env.dir,
    });
  });

  it('takes attempt 1 when the runner gives none, and no actor for a junk actor ID', () => {
    env = runnerEnv({}, { env: { GITHUB_RUN_ATTEMPT: undefined, GITHUB_ACTOR_ID: 'x' } });
    expect(readRunnerContext()).toMatchObject({ attempt: 1, actorId: undefined });
  });

  it.each([
    ['GITHUB_RUN_ID', '0', /GITHUB_RUN_ID must be a positive integer/],
    ['GITHUB_RUN_ID', undefined, /GITHUB_RUN_ID must be a positive integer/],
    ['GITHUB_RUN_ATTEMPT', '-1', /GITHUB_RUN_ATTEMPT must be a positive integer/],
    ['GITHUB_REPOSITORY', 'no-slash', /GITHUB_REPOSITORY/],
    ['GITHUB_API_URL', 'https://user:secret@example.com', /GITHUB_API_URL/],
  ])('refuses %s=%s as invalid-input', (name, value, message) => {
    env = runnerEnv({}, { env: { [name]: value } });
    const refused = failure(() => readRunnerContext());
    expect(refused.code).toBe('invalid-input');
    expect(refused.message).toMatch(message);
    expect(refused.message).not.toContain('secret');
  });

  it('refuses an unreadable event payload as invalid-input', () => {
    env = runnerEnv({});
    writeFileSync(String(process.env.GITHUB_EVENT_PATH), '{not json');
    expect(failure(() => readRunnerContext())).toMatchObject({
      code: 'invalid-input',
      message: expect.stringMatching(/^the event payload at GITHUB_EVENT_PATH is unreadable/),
    });
  });
});

describe('preview inputs', () => {
  it('a dry run reads the plan, the run ID, the prefix and the directories, and no ledger input', () => {
    env = runnerEnv({ 'plan-file': 'plan.json', 'run-id': 'release-1' });
    const settings = readPreviewSettings(stageIo('preview'));
    expect(settings).toEqual({
      dryRun: true,
      statusIssue: undefined,
      planFile: 'plan.json',
      planRoots: { workspace: env.dir, runnerTemp: env.dir },
      runId: 'release-1',
      commandPrefix: 'writ',
      outputDir: env.dir,
      gate: { roles: ['admin', 'maintain', 'write'], environment: null },
      policyPath: '.writ/policy.json',
      evidencePath: '.writ/probe-evidence.json',
    });
  });

  it('a writing preview reads its ledger inputs and the runner context only when asked', () => {
    env = runnerEnv(
      { 'plan-file': 'plan.json', 'dry-run': 'false', 'status-issue': '7', ...LEDGER },
      { env: { GITHUB_API_URL: 'http://127.0.0.1:9', GITHUB_ACTOR_ID: '31' } },
    );
    const settings = readPreviewSettings(stageIo('preview'));
    expect(settings).toMatchObject({ dryRun: false, statusIssue: 7 });
    expect(settings.write?.()).toEqual({
      apiUrl: 'http://127.0.0.1:9',
      repository: { owner: 'acme', repo: 'widgets', full: 'acme/widgets' },
      actorId: 31,
      ledger: {
        token: LEDGER.token,
        branch: 'bot/writ-ledger',
        app: { slug: 'writ', id: 12 },
        leaseMs: 600_000,
      },
      project: null,
    });
  });

  it.each([
    ['dry-run', 'yes', /input 'dry-run' must be true or false \(got "yes"\)/],
    ['status-issue', '#7', /input 'status-issue' must be a positive integer \(got "#7"\)/],
    ['status-issue', '0', /input 'status-issue' must be a positive integer \(got "0"\)/],
    [
      'command-prefix',
      'Writ',
      /input 'command-prefix' must be 1-32 of \[a-z0-9-\] starting with a letter \(got 4 characters\)/,
    ],
    ['command-prefix', 'writ:', /input 'command-prefix' must be 1-32 of \[a-z0-9-\] .*\(got 5 characters\)/],
  ])('refuses %s=%s as invalid-input, naming it', (name, value, message) => {
    env = runnerEnv({ 'plan-file': 'plan.json', [name]: value });
    expect(failure(() => readPreviewSettings(stageIo('preview')))).toEqual({
      code: 'invalid-input',
      message: expect.stringMatching(message),
    });
  });

  it.each(['../../etc', 'a/b', '.hidden', 'x'.repeat(65)])(
    'refuses run-id=%s as invalid-run-id, by its length',
    (value) => {
      env = runnerEnv({ 'plan-file': 'plan.json', 'run-id': value });
      expect(failure(() => readPreviewSettings(stageIo('preview')))).toEqual({
        code: 'invalid-run-id',
        message: expect.stringMatching(
          new RegExp(`^run-id must be 1-64 characters .* \\(got ${value.length} characters\\)$`),
        ),
      });
    },
  );

  it('refuses a missing plan-file as invalid-input', () => {
    env = runnerEnv({});
    expect(failure(() => readPreviewSettings(stageIo('preview')))).toEqual({
      code: 'invalid-input',
      message: "input 'plan-file' is required and was not supplied",
    });
  });

  it.each([
    ['ledger-app-id', '', /input 'ledger-app-id' is required to write the ledger/],
    [
      'ledger-app-slug',
      'Not A Slug',
      /input 'ledger-app-slug' must be a GitHub App slug \(got 10 characters\)/,
    ],
    ['token', '', /input 'token' is required when not a dry run/],
    [
      'ledger-branch',
      'main branch',
      /ledger branch \(11 characters\)\. Expected a branch name of plain segments/,
    ],
    ['ledger-branch', 'main', /never main\/master/],
  ])('a writing preview refuses %s=%s as invalid-input, naming it', (name, value, message) => {
    env = runnerEnv({ 'plan-file': 'plan.json', 'dry-run': 'false', ...LEDGER, [name]: value });
    const settings = readPreviewSettings(stageIo('preview'));
    expect(failure(() => settings.write?.())).toEqual({
      code: 'invalid-input',
      message: expect.stringMatching(message),
    });
  });
});

describe('consume-approval inputs', () => {
  const event = { action: 'created', comment: { id: 555 } };

  it('reads the approving comment from a created issue comment, and every input', () => {
    env = runnerEnv(
      {
        'plan-file': 'plan.json',
        'allowed-roles': 'admin, maintain',
        'require-distinct-approver': 'true',
        'lease-seconds': '120',
        'dry-run': 'false',
        'actions-token': 'ghs_actionsReadToken00000000000000000000',
        project: 'writ-board/7',
        ...LEDGER,
      },
      { event, eventName: 'issue_comment' },
    );
    expect(readConsumeApprovalSettings(stageIo('consume-approval'))).toEqual({
      apiUrl: 'https://api.github.com',
      repository: { owner: 'acme', repo: 'widgets', full: 'acme/widgets' },
      commentId: 555,
      dryRun: false,
      commandPrefix: 'writ',
      ledger: {
        token: LEDGER.token,
        branch: 'bot/writ-ledger',
        app: { slug: 'writ', id: 12 },
        leaseMs: 120_000,
      },
      planFile: 'plan.json',
      planRoots: { workspace: env.dir, runnerTemp: env.dir },
      allowedRoles: ['admin', 'maintain'],
      requireDistinctApprover: true,
      holder: { workflow_run_id: 4242, attempt: 2 },
      actionsToken: 'ghs_actionsReadToken00000000000000000000',
      project: { owner: 'writ-board', number: 7 },
    });
  });

  it.each([
    ['a workflow_dispatch', 'workflow_dispatch', event, /not 'workflow_dispatch' events/],
    ['an edited comment', 'issue_comment', { ...event, action: 'edited' }, /only a newly created comment/],
    ['a payload without a comment ID', 'issue_comment', { action: 'created' }, /no comment ID/],
  ])('refuses %s as unauthorized-approval before reading any input', (_name, eventName, payload, message) => {
    env = runnerEnv({}, { event: payload, eventName });
    expect(failure(() => readConsumeApprovalSettings(stageIo('consume-approval')))).toEqual({
      code: 'unauthorized-approval',
      message: expect.stringMatching(message),
    });
  });

  it.each([
    ['allowed-roles', ' , ', /input 'allowed-roles' names no role/],
    ['allowed-roles', 'admin,<script>', /input 'allowed-roles' has an invalid role name \(8 characters\)/],
    ['lease-seconds', '10', /input 'lease-seconds' must be an integer from 30 to 21600 \(got 10\)/],
    ['lease-seconds', '90000', /input 'lease-seconds' must be an integer from 30 to 21600 \(got 90000\)/],
    [
      'require-distinct-approver',
      'maybe',
      /input 'require-distinct-approver' must be true or false \(got "maybe"\)/,
    ],
    ['ledger-app-id', 'twelve', /input 'ledger-app-id' must be a positive integer \(got "twelve"\)/],
    ['token', '', /input 'token' is required and was not supplied/],
  ])('refuses %s=%s as invalid-input, naming it', (name, value, message) => {
    env = runnerEnv(
      { 'plan-file': 'plan.json', ...LEDGER, [name]: value },
      { event, eventName: 'issue_comment' },
    );
    expect(failure(() => readConsumeApprovalSettings(stageIo('consume-approval')))).toEqual({
      code: 'invalid-input',
      message: expect.stringMatching(message),
    });
  });
});

describe('claim-checkpoint inputs', () => {
  it('reads the operation, the step, its outcome and evidence, and the holder', () => {
    env = runnerEnv({
      operation: 'checkpoint',
      'run-id': 'release-1',
      'step-id': 'build',
      epoch: '0',
      'step-outcome': 'failed',
      'status-code': '503',
      'error-code': 'upstream-down',
      ...LEDGER,
    });
    expect(readClaimCheckpointSettings(stageIo('claim-checkpoint'))).toEqual({
      apiUrl: 'https://api.github.com',
      repository: 'acme/widgets',
      operation: 'checkpoint',
      runId: 'release-1',
      stepId: 'build',
      epoch: 0,
      outcome: 'failed',
      statusCode: 503,
      errorCode: 'upstream-down',
      dryRun: true,
      ledger: {
        token: LEDGER.token,
        branch: 'bot/writ-ledger',
        app: { slug: 'writ', id: 12 },
        leaseMs: 600_000,
      },
      actionsToken: null,
      holder: { workflow_run_id: 4242, attempt: 2 },
      project: null,
    });
  });

  it('leaves what was not given undefined or null', () => {
    env = runnerEnv({ operation: 'takeover', 'run-id': 'release-1', ...LEDGER });
    expect(readClaimCheckpointSettings(stageIo('claim-checkpoint'))).toMatchObject({
      stepId: undefined,
      epoch: undefined,
      outcome: undefined,
      statusCode: null,
      errorCode: null,
      actionsToken: null,
    });
  });

  it('takes an actions token for the takeover liveness read', () => {
    env = runnerEnv({
      operation: 'takeover',
      'run-id': 'release-1',
      'actions-token': 'ghs_actionsReadToken00000000000000000000',
      ...LEDGER,
    });
    expect(readClaimCheckpointSettings(stageIo('claim-checkpoint')).actionsToken).toBe(
      'ghs_actionsReadToken00000000000000000000',
    );
  });

  it.each([
    [
      'operation',
      'steal',
      'invalid-input',
      /input 'operation' must be one of claim, checkpoint, takeover, release \(got "steal"\)/,
    ],
    [
      'step-outcome',
      'maybe',
      'invalid-input',
      /input 'step-outcome' must be one of done, conflict, failed \(got "maybe"\)/,
    ],
    ['epoch', '01', 'invalid-input', /input 'epoch' must be a non-negative integer \(got "01"\)/],
    ['epoch', '-1', 'invalid-input', /input 'epoch' must be a non-negative integer \(got "-1"\)/],
    ['status-code', '2xx', 'invalid-input', /input 'status-code' must be a positive integer \(got "2xx"\)/],
    [
      'run-id',
      '../etc',
      'invalid-run-id',
      /run-id must be 1-64 characters of \[A-Za-z0-9_-\] .* \(got 6 characters\)/,
    ],
    [
      'lease-seconds',
      '29',
      'invalid-input',
      /input 'lease-seconds' must be an integer from 30 to 21600 \(got 29\)/,
    ],
  ])('refuses %s=%s as %s, naming it', (name, value, code, message) => {
    env = runnerEnv({ operation: 'claim', 'run-id': 'release-1', ...LEDGER, [name]: value });
    expect(failure(() => readClaimCheckpointSettings(stageIo('claim-checkpoint')))).toEqual({
      code,
      message: expect.stringMatching(message),
    });
  });
});

describe('publish-artifact inputs', () => {
  function valid(dir: string): Record<string, string> {
    writeFileSync(join(dir, 'roadmap.md'), '# Roadmap\n');
    writeFileSync(join(dir, 'body.md'), 'Generated.\n');
    return {
      'run-id': 'release-1',
      epoch: '3',
      'plan-file': 'plan.json',
      path: 'docs/roadmap.md',
      'content-file': join(dir, 'roadmap.md'),
      'pr-body-file': join(dir, 'body.md'),
      ...LEDGER,
    };
  }

  it('reads every input, the content and the body read under the input-file rules', () => {
    env = runnerEnv({});
    const dir = env.dir;
    env.restore();
    env = runnerEnv(valid(dir), { env: { GITHUB_WORKSPACE: dir, RUNNER_TEMP: dir } });
    const settings = readPublishArtifactSettings(stageIo('publish-artifact'));
    expect(settings).toMatchObject({
      repository: { owner: 'acme', repo: 'widgets', full: 'acme/widgets' },
      path: 'docs/roadmap.md',
      onClosedPr: 'report',
      dryRun: true,
      epoch: 3,
      prBody: 'Generated.\n',
      runId: 'release-1',
      commandPrefix: 'writ',
      allowedRoles: ['admin', 'maintain', 'write'],
      branch: 'bot/writ-artifact',
      base: null,
      prTitle: '',
    });
    expect(settings.content.toString('utf8')).toBe('# Roadmap\n');
  });

  it('takes a workflow path only with allow-workflow-files, and a named base', () => {
    env = runnerEnv({});
    const dir = env.dir;
    env.restore();
    env = runnerEnv(
      {
        ...valid(dir),
        path: '.github/workflows/ci.yml',
        'allow-workflow-files': 'true',
        base: 'release/2.5',
      },
      { env: { GITHUB_WORKSPACE: dir, RUNNER_TEMP: dir } },
    );
    expect(readPublishArtifactSettings(stageIo('publish-artifact'))).toMatchObject({
      path: '.github/workflows/ci.yml',
      base: 'release/2.5',
    });
  });

  it.each([
    [
      'on-closed-pr',
      'reopen',
      'invalid-input',
      /input 'on-closed-pr' must be one of report, open-new \(got "reopen"\)/,
    ],
    ['epoch', '', 'invalid-input', /input 'epoch' is required/],
    ['epoch', 'one', 'invalid-input', /input 'epoch' must be a positive integer \(got "one"\)/],
    [
      'allow-workflow-files',
      'sure',
      'invalid-input',
      /input 'allow-workflow-files' must be true or false \(got "sure"\)/,
    ],
    ['content-file', '/etc/passwd', 'invalid-input', /input 'content-file' \(\d+ characters\)/],
    ['pr-body-file', '/etc/hostname', 'invalid-input', /input 'pr-body-file' \(\d+ characters\)/],
    ['run-id', 'a b', 'invalid-run-id', /run-id must be 1-64 characters/],
    ['allowed-roles', ',', 'invalid-input', /input 'allowed-roles' names no role/],
    [
      'path',
      '../x.md',
      'invalid-input',
      /^input 'path' \(7 characters\) is not a safe repository file path: segment 1 is \. or \.\.$/,
    ],
    [
      'path',
      '.github/workflows/ci.yml',
      'invalid-input',
      /input 'path' \(24 characters\) .*set allow-workflow-files: true/,
    ],
    ['path', 'docs/.GIT/config', 'invalid-input', /segment 2 is \.git or a name git treats as \.git/],
    [
      'branch',
      'refs/heads/x',
      'invalid-input',
      /^input 'branch' \(12 characters\) is not an unqualified branch name/,
    ],
    [
      'branch',
      'a..b',
      'invalid-input',
      /^input 'branch' \(4 characters\) is not a branch name of plain segments/,
    ],
    ['base', 'HEAD', 'invalid-input', /^input 'base' \(4 characters\) is not an unqualified branch name/],
    [
      'branch',
      'bot/writ-ledger',
      'invalid-input',
      /inputs 'branch' and 'base' must not name the ledger branch 'bot\/writ-ledger'/,
    ],
    ['base', 'BOT/Writ-Ledger', 'invalid-input', /must not name the ledger branch 'bot\/writ-ledger'/],
    [
      'ledger-branch',
      'bot/writ-artifact',
      'invalid-input',
      /must not name the ledger branch 'bot\/writ-artifact'/,
    ],
  ])('refuses %s=%s as %s, naming it', (name, value, code, message) => {
    env = runnerEnv({});
    const dir = env.dir;
    env.restore();
    env = runnerEnv({ ...valid(dir), [name]: value }, { env: { GITHUB_WORKSPACE: dir, RUNNER_TEMP: dir } });
    expect(failure(() => readPublishArtifactSettings(stageIo('publish-artifact')))).toEqual({
      code,
      message: expect.stringMatching(message),
    });
  });
});
