/**
 * The bundles `npm test` runs (.tmp/test-dist/, built by jest's global setup through
 * scripts/build/test-bundles.mjs) each carry the record of their inputs, the generated entry among them, so
 * the next run rebuilds nothing. On a fresh clone the first bundling used to write the generated entries
 * (scripts/build/bundle/entries/, not committed) after it noted its start, so it recorded no inputs and the next
 * run bundled every stage again (and a test reading the record failed on the first run only).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { repoRoot } from '../support/run-action.js';

const testDist = join(repoRoot, '.tmp/test-dist');
const stages = execFileSync('git', ['ls-files', 'actions/*/action.yml'], { cwd: repoRoot, encoding: 'utf8' })
  .trim()
  .split('\n')
  .map((path) => path.split('/')[1] ?? '');

describe("the test bundles jest's global setup built", () => {
  it.each(stages)('%s: a bundle with the record of its inputs, its generated entry among them', (stage) => {
    expect(existsSync(join(testDist, stage, 'index.js'))).toBe(true);
    const record = JSON.parse(readFileSync(join(testDist, `${stage}.inputs.json`), 'utf8')) as {
      files: Record<string, string>;
    };
    expect(Object.keys(record.files)).toEqual(
      expect.arrayContaining([
        `scripts/build/bundle/entries/${stage}.ts`,
        `packages/core/src/stages/${stage}.ts`,
      ]),
    );
  });

  it('are up to date: bundling the tree again rebuilds no stage', () => {
    // It prints each stage it rebuilds, and why, on stderr.
    const run = spawnSync(process.execPath, [join(repoRoot, 'scripts/build/test-bundles.mjs')], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});

describe('a stage bundle reads as its sources (the build is the same bundleStage)', () => {
  const errors = readFileSync(join(repoRoot, 'packages/core/src/errors.ts'), 'utf8').split('\n');
  const declared = errors.findIndex((line) => line.startsWith('export class WritError extends Error'));

  it.each(stages)('%s: not minified, each module named, its source map beside it', (stage) => {
    const bundle = readFileSync(join(testDist, stage, 'index.js'), 'utf8');
    const lines = bundle.split('\n');
    expect(lines.length).toBeGreaterThan(10_000);
    // A module webpack concatenates carries its path; one it keeps apart (shared with a chunk loaded on
    // demand, or CommonJS) is headed by its id, which the build names after its source file.
    expect(bundle).toMatch(
      /^(;\/\/ CONCATENATED MODULE: \.\/|\/\*{3}\/ \d+: \/\/ )packages\/core\/src\/errors\.ts$/m,
    );
    expect(lines.filter((line) => /^\/\*{3}\/ \d+:$/.test(line)).length).toBeLessThan(
      lines.filter((line) => /^\/\*{3}\/ \d+: \/\/ node_modules\//.test(line)).length,
    );
    expect(lines.at(-1) === '' ? lines.at(-2) : lines.at(-1)).toBe('//# sourceMappingURL=index.js.map');

    const map = JSON.parse(readFileSync(join(testDist, stage, 'index.js.map'), 'utf8')) as {
      sources: string[];
      sourcesContent?: unknown;
    };
    // The sources are the repository's files, from dist/<stage>/ where the map is committed, not copies.
    expect(map.sourcesContent).toBeUndefined();
    const own = map.sources.filter((source) => source.includes('/packages/core/src/'));
    expect(own.length).toBeGreaterThan(10);
    for (const source of own) expect(existsSync(join(repoRoot, 'dist', stage, source))).toBe(true);

    // A stack frame in the bundle maps to the TypeScript source's line.
    const at = lines.findIndex((line) => /^class \w*WritError extends Error/.test(line));
    expect(at).toBeGreaterThan(0);
    const entry = new SourceMap(map as never).findEntry(at, 0) as {
      originalSource?: string;
      originalLine?: number;
    };
    expect(entry.originalSource).toMatch(/packages\/core\/src\/errors\.ts$/);
    expect(entry.originalLine).toBe(declared);
  });
});
