/**
 * The bundles `npm test` runs (.tmp/test-dist/, built by jest's global setup through
 * scripts/test-bundles.mjs) each carry the record of their inputs, the generated entry among them, so
 * the next run rebuilds nothing. On a fresh clone the first bundling used to write the generated entries
 * (scripts/bundle/entries/, not committed) after it noted its start, so it recorded no inputs and the next
 * run bundled every stage again (and a test reading the record failed on the first run only).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
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
      expect.arrayContaining([`scripts/bundle/entries/${stage}.ts`, `packages/core/src/stages/${stage}.ts`]),
    );
  });

  it('are up to date: bundling the tree again rebuilds no stage', () => {
    // It prints each stage it rebuilds, and why, on stderr.
    const run = spawnSync(process.execPath, [join(repoRoot, 'scripts/test-bundles.mjs')], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
