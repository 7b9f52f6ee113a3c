/**
 * The stage bundles resolve `undici` to scripts/bundle/lazy-undici.cjs (scripts/bundle/tsconfig.json's
 * `paths`, read by ncc when build.mjs bundles): @actions/github and @actions/http-client import undici
 * at their top level, and Writ needs it only behind a proxy (test/e2e/proxy.test.ts runs a bundle both
 * ways). Here: the module evaluates undici on first use and answers as undici does, and every bundle
 * `npm test` runs was built through it.
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const SHIM = 'scripts/bundle/lazy-undici.cjs';

/** Runs CommonJS in a fresh node (jest's module registry would stand between it and require.cache). */
function node(script: string): string {
  const result = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return result.stdout.trim();
}

describe('undici in the stage bundles', () => {
  it('is evaluated on the first use of what is read from it, not when imported', () => {
    const seen = node(`
      const real = require.resolve('undici');
      const shim = require('./${SHIM}');
      const before = real in require.cache;
      const ProxyAgent = shim.ProxyAgent;
      const after = real in require.cache;
      const undici = require('undici');
      console.log(JSON.stringify({
        before,
        after,
        same: ProxyAgent === undici.ProxyAgent && shim.fetch === undici.fetch,
        esModule: shim.__esModule === undefined,
        keys: Object.keys(shim).length === Object.keys(undici).length && 'Agent' in shim,
      }));
    `);
    expect(JSON.parse(seen)).toEqual({ before: false, after: true, same: true, esModule: true, keys: true });
  });

  it('is what every test bundle resolved undici to', () => {
    const dist = process.env.WRIT_BUNDLE_DIR ?? join(root, '.tmp/test-dist');
    const manifests = readdirSync(dist).filter((name) => name.endsWith('.inputs.json'));
    expect(manifests.length).toBeGreaterThan(0);
    for (const manifest of manifests) {
      const { files } = JSON.parse(readFileSync(join(dist, manifest), 'utf8')) as {
        files: Record<string, string>;
      };
      expect([manifest, SHIM in files]).toEqual([manifest, true]);
    }
  });
});
