/**
 * The stage bundles resolve `undici` to scripts/bundle/no-undici.cjs (scripts/bundle/tsconfig.json's
 * `paths`, read by ncc when build.mjs bundles): @actions/github and @actions/http-client import undici
 * at their top level, and no Writ request goes through it (test/e2e/proxy.test.ts runs a bundle direct
 * and behind a proxy). Here: what the two read of it is there and inert, any use of it fails naming
 * the stand-in, every bundle `npm test` runs was built through it, and none carries undici's code.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const STAND_IN = 'scripts/bundle/no-undici.cjs';
const dist = process.env.WRIT_BUNDLE_DIR ?? join(root, '.tmp/test-dist');

interface StandIn {
  ProxyAgent: new (options: unknown) => {
    dispatch(): void;
    close(): Promise<void>;
    destroy(): Promise<void>;
  };
  fetch(url: string): Promise<unknown>;
}

describe('undici in the stage bundles', () => {
  const standIn = createRequire(import.meta.url)(join(root, STAND_IN)) as StandIn;

  it('is an inert stand-in: a ProxyAgent can be built, and any request through it fails naming it', async () => {
    // @actions/http-client's getAgentDispatcher, as @actions/github calls it at import behind a proxy.
    const agent = new standIn.ProxyAgent({ uri: 'http://proxy.corp:3128/', pipelining: 0 });
    expect(() => agent.dispatch()).toThrow(
      /ProxyAgent\.dispatch: undici is not in this bundle \(scripts\/bundle\/no-undici\.cjs\)/,
    );
    await expect(agent.close()).resolves.toBeUndefined();
    await expect(agent.destroy()).resolves.toBeUndefined();
    await expect(standIn.fetch('https://api.github.com/')).rejects.toThrow(
      /fetch: undici is not in this bundle/,
    );
    expect(Object.keys(standIn).sort()).toEqual(['ProxyAgent', 'fetch']);
  });

  it('is what every test bundle resolved undici to', () => {
    const manifests = readdirSync(dist).filter((name) => name.endsWith('.inputs.json'));
    expect(manifests.length).toBeGreaterThan(0);
    for (const manifest of manifests) {
      const { files } = JSON.parse(readFileSync(join(dist, manifest), 'utf8')) as {
        files: Record<string, string>;
      };
      expect([
        manifest,
        STAND_IN in files,
        Object.keys(files).some((f) => f.includes('node_modules/undici/')),
      ]).toEqual([manifest, true, false]);
    }
  });

  it('leaves no undici code in any bundle', () => {
    const stages = readdirSync(dist, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(stages.length).toBeGreaterThan(0);
    for (const stage of stages) {
      for (const file of readdirSync(join(dist, stage.name)).filter((name) => name.endsWith('.js'))) {
        const code = readFileSync(join(dist, stage.name, file), 'utf8');
        // Every undici error code starts so; its HTTP parser ships as base64 wasm ("AGFzbQ", \0asm).
        expect([stage.name, file, code.includes('UND_ERR_'), code.includes('AGFzbQ')]).toEqual([
          stage.name,
          file,
          false,
          false,
        ]);
      }
    }
  });
});
