/** planInit (init as a pure function): a release tag as --ref, --environment, the default branch. */
import { describe, expect, it } from '@jest/globals';
import { WritError } from '../../src/errors.js';
import { CONFIG_PATH, defaultConfig, renderConfig } from '../../src/setup/files.js';
import type { InitRequest, PathState } from '../../src/setup/init.js';
import { planInit } from '../../src/setup/init.js';

const COMMIT = 'a'.repeat(40);
const TAGS: Record<string, string> = { 'v1.2.3': COMMIT };

function request(overrides: Partial<InitRequest> = {}, files: Record<string, string> = {}): InitRequest {
  return {
    defaultWritRepository: 'writ-actions/writ',
    versionOf: (ref) => ref.slice(0, 7),
    resolveTag: (tag) => {
      const commit = TAGS[tag];
      if (commit === undefined) throw new WritError('init-tag-unknown', `no ${tag}`);
      return commit;
    },
    writeConflicts: false,
    stateOf: (path): PathState => {
      const text = files[path];
      return text === undefined ? { kind: 'missing' } : { kind: 'file', text };
    },
    ...overrides,
  };
}

describe('planInit', () => {
  it('pins a release tag by the commit it resolves to, the tag as the version comment', () => {
    const plan = planInit(request({ ref: 'v1.2.3' }));
    expect(plan.pin).toEqual({ repository: 'writ-actions/writ', ref: COMMIT, version: 'v1.2.3' });
    const preview = plan.operations.find((operation) => operation.path.endsWith('writ-preview.yml'));
    expect(preview?.contents).toContain(`@${COMMIT} # v1.2.3`);
  });

  it('refuses an unknown tag with its code, and a resolver answer that is not a commit', () => {
    expect(() => planInit(request({ ref: 'v9.9.9' }))).toThrow(
      expect.objectContaining({ code: 'init-tag-unknown' }),
    );
    expect(() => planInit(request({ ref: 'v1.2.3', resolveTag: () => 'refs/tags/v1.2.3' }))).toThrow(
      expect.objectContaining({ code: 'internal-error' }),
    );
    expect(() => planInit(request({ ref: 'v1.2' }))).toThrow(
      expect.objectContaining({ code: 'invalid-input' }),
    );
  });

  it('puts --environment into the config it renders, keeps the config one, and refuses a bad name', () => {
    const plan = planInit(request({ ref: COMMIT, environment: 'writ-prod' }));
    expect(plan.config.environment).toBe('writ-prod');
    const config = plan.operations.find((operation) => operation.path === CONFIG_PATH);
    expect(JSON.parse(config?.contents ?? '{}')).toMatchObject({ environment: 'writ-prod' });
    const kept = planInit(
      request(
        { ref: COMMIT },
        { [CONFIG_PATH]: renderConfig({ ...defaultConfig(), environment: 'staging' }) },
      ),
    );
    expect(kept.config.environment).toBe('staging');
    expect(planInit(request({ ref: COMMIT })).config).not.toHaveProperty('environment');
    expect(() => planInit(request({ ref: COMMIT, environment: 'a b' }))).toThrow(
      /Invalid --environment "a b"/,
    );
  });

  it('refuses a ledger branch that is the default branch, and accepts any other or an unknown one', () => {
    expect(() => planInit(request({ ref: COMMIT, defaultBranch: 'bot/writ-ledger' }))).toThrow(
      expect.objectContaining({ code: 'init-ledger-branch-is-default' }),
    );
    expect(planInit(request({ ref: COMMIT, defaultBranch: 'main' })).pin.ref).toBe(COMMIT);
    expect(planInit(request({ ref: COMMIT, defaultBranch: null })).pin.ref).toBe(COMMIT);
  });
});
