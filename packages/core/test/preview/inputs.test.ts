/**
 * The preview's gate and policy inputs (issue 32), through the real @actions/core reader: what the
 * preview states as the gate, and the policy and evidence paths it reads, each checked and named.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WritError } from '../../src/errors.js';
import { stageIo } from '../../src/io/action-io.js';
import { previewStage, readPreviewSettings } from '../../src/stages/preview.js';
import type { RunnerEnv } from '../stages/support/runner-env.js';
import { runnerEnv } from '../stages/support/runner-env.js';

let env: RunnerEnv | undefined;
afterEach(() => {
  env?.restore();
  env = undefined;
});

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error: unknown) {
    if (error instanceof WritError) return `${error.code}: ${error.message}`;
    throw error;
  }
  throw new Error('expected a coded refusal');
}

describe('preview gate and policy inputs', () => {
  it('reads the roles, the Environment and the policy and evidence paths', () => {
    env = runnerEnv({
      'plan-file': 'plan.json',
      'allowed-roles': 'admin, release-manager',
      environment: ' production ',
      'policy-file': 'config/writ-policy.json',
      'evidence-file': 'config/evidence.json',
    });
    expect(readPreviewSettings(stageIo('preview'))).toMatchObject({
      gate: { roles: ['admin', 'release-manager'], environment: 'production' },
      policyPath: 'config/writ-policy.json',
      evidencePath: 'config/evidence.json',
    });
  });

  it.each([
    ['allowed-roles', ' , ', /input 'allowed-roles' names no role/],
    ['allowed-roles', 'admin,<b>', /input 'allowed-roles' has an invalid role name/],
    ['policy-file', '../secrets.json', /input 'policy-file' must be a repository-relative file path/],
    ['policy-file', '/etc/passwd', /input 'policy-file' must be a repository-relative file path/],
    ['evidence-file', 'a//b.json', /input 'evidence-file' must be a repository-relative file path/],
  ])('refuses %s=%j as invalid-input, naming it', (name, value, message) => {
    env = runnerEnv({ 'plan-file': 'plan.json', [name]: value });
    const text = refusal(() => readPreviewSettings(stageIo('preview')));
    expect(text).toMatch(/^invalid-input: /);
    expect(text).toMatch(message);
    expect(text).not.toContain('\u202e');
  });
});

describe('preview environment and directories', () => {
  it.each(['prod\u202eenv', 'staging area', '-prod'])(
    'refuses environment=%j by the one name rule (environment-name-invalid), never repeating it',
    (value) => {
      env = runnerEnv({ 'plan-file': 'plan.json', environment: value });
      const text = refusal(() => readPreviewSettings(stageIo('preview')));
      expect(text).toMatch(/^environment-name-invalid: input 'environment' must be 1 to 255 letters/);
      expect(text).not.toContain(value);
    },
  );

  it('falls back to the working directory and the system temp directory outside a runner', () => {
    env = runnerEnv(
      { 'plan-file': 'plan.json' },
      { env: { GITHUB_WORKSPACE: undefined, RUNNER_TEMP: undefined } },
    );
    expect(readPreviewSettings(stageIo('preview'))).toMatchObject({
      planRoots: { workspace: process.cwd(), runnerTemp: undefined },
      outputDir: tmpdir(),
    });
  });
});

describe('a dry-run preview', () => {
  it('states its warnings and risk in its outputs and log without reading the repository', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'writ-preview-'));
    const planFile = join(dir, 'plan.json');
    writeFileSync(
      planFile,
      JSON.stringify({
        schema: 1,
        title: 'Labels',
        scope: { repository: 'acme/widgets', writes: { kinds: ['comment.upsert'] } },
        bounds: { max_steps: 5 },
        steps: [{ id: 'l1', kind: 'issue.labels', issue: 3, add: ['x'] }],
      }),
    );
    const lines: string[] = [];
    const logger = {
      info: (m: string) => lines.push(m),
      warning: (m: string) => lines.push(m),
      debug: () => {},
    };
    const connect = () => Promise.reject(new Error('a dry run never connects'));
    const result = await previewStage(
      {
        dryRun: true,
        statusIssue: undefined,
        planFile,
        planRoots: { workspace: dir, runnerTemp: undefined },
        runId: '',
        commandPrefix: 'writ',
        outputDir: dir,
      },
      { logger, connect },
    );
    expect(result.outputs).toMatchObject({
      outcome: 'previewed',
      'base-sha': '',
      risk: 'high',
      warnings: '[{"code":"write-outside-scope","step":"l1"}]',
    });
    expect(lines).toContain('base not read (dry run); risk high; 1 warning write-outside-scope@l1');
    expect(result.summary).toContain('| Base | not read: a dry run reads nothing of the repository |');
  });
});
