/** `writ init --pages` as planInit sees it: `pages: true` in .writ/config.json, and the recovery workflow with the tower. */
import { describe, expect, it } from '@jest/globals';
import { CONFIG_PATH, defaultConfig, renderConfig } from '../../src/setup/files.js';
import type { InitRequest, PathState } from '../../src/setup/init.js';
import { planInit } from '../../src/setup/init.js';
import validateWritConfig from '../../src/generated/writ-config-validator.js';

const COMMIT = 'a'.repeat(40);
const RECOVERY = '.github/workflows/writ-recovery.yml';

function request(overrides: Partial<InitRequest> = {}, files: Record<string, string> = {}): InitRequest {
  return {
    ref: COMMIT,
    defaultWritRepository: 'writ-actions/writ',
    versionOf: (ref) => ref.slice(0, 7),
    resolveTag: () => COMMIT,
    writeConflicts: false,
    stateOf: (path): PathState => {
      const text = files[path];
      return text === undefined ? { kind: 'missing' } : { kind: 'file', text };
    },
    ...overrides,
  };
}

const contentsOf = (plan: ReturnType<typeof planInit>, path: string): string =>
  plan.operations.find((operation) => operation.path === path)?.contents ?? '';

describe('writ init --pages', () => {
  it('records pages: true in the config, valid against its schema, and renders the tower into the recovery workflow', () => {
    const plan = planInit(request({ pages: true }));
    const config = JSON.parse(contentsOf(plan, CONFIG_PATH)) as Record<string, unknown>;
    expect(config.pages).toBe(true);
    expect(validateWritConfig(config)).toBe(true);
    const recovery = contentsOf(plan, RECOVERY);
    expect(recovery).toContain("tower-dir: '${{ runner.temp }}/writ-tower'");
    expect(recovery).toMatch(/^ {2}pages:$/m);
    expect(recovery).toContain(
      'uses: actions/deploy-pages@cd2ce8fcbc39b97be8ca5fce6e763baed58fa128 # v5.0.0',
    );
  });

  it('keeps the config choice on a re-run without --pages, and renders nothing of it when the config has none or false', () => {
    const kept = planInit(request({}, { [CONFIG_PATH]: renderConfig({ ...defaultConfig(), pages: true }) }));
    expect(kept.config.pages).toBe(true);
    expect(contentsOf(kept, RECOVERY)).toContain('tower-dir');
    const plain = planInit(request());
    expect(plain.config).not.toHaveProperty('pages');
    expect(contentsOf(plain, CONFIG_PATH)).not.toContain('pages');
    expect(contentsOf(plain, RECOVERY)).not.toMatch(/tower-dir|deploy-pages|id-token/);
    const off = planInit(request({}, { [CONFIG_PATH]: renderConfig({ ...defaultConfig(), pages: false }) }));
    expect(contentsOf(off, RECOVERY)).toBe(contentsOf(plain, RECOVERY));
  });

  it('refuses a config whose pages is not a boolean', () => {
    expect(validateWritConfig({ ...defaultConfig(), pages: 'yes' })).toBe(false);
  });
});
