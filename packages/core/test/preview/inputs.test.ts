/**
 * The preview's gate and policy inputs (issue 32), through the real @actions/core reader: what the
 * preview states as the gate, and the policy and evidence paths it reads, each checked and named.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { WritError } from '../../src/errors.js';
import { stageIo } from '../../src/io/action-io.js';
import { readPreviewSettings } from '../../src/stages/preview.js';
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
    ['environment', 'prod\u202eenv', /input 'environment' must be a GitHub Environment name/],
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
