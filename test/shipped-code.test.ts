/**
 * What ships carries no test machinery: no committed stage bundle (dist/<stage>/index.js) and no source
 * of a shipped package (packages/core/src, packages/cli/src) reads a WRIT_TEST_ variable, and the `writ`
 * CLI's source holds no demo world (no import of the emulator). Tests inject crash points from outside
 * (the emulator's crash points, persist's afterWrite/afterClaim dependencies); the demo lives in
 * packages/cli/demo/.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { repoRoot } from './support/run-action.js';

function sources(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

const bundles = readdirSync(join(repoRoot, 'dist'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => `dist/${entry.name}/index.js`);
const shipped = [...bundles, ...sources('packages/core/src'), ...sources('packages/cli/src')];

/** The files among `files` whose text matches `pattern`. */
function matching(files: readonly string[], pattern: RegExp): string[] {
  return files.filter((file) => pattern.test(readFileSync(join(repoRoot, file), 'utf8')));
}

describe('no test machinery in what ships', () => {
  it('scans every stage bundle and every shipped source file', () => {
    expect(bundles).toEqual(expect.arrayContaining(['dist/persist/index.js', 'dist/preview/index.js']));
    expect(shipped).toEqual(
      expect.arrayContaining(['packages/core/src/stages/persist.ts', 'packages/cli/src/cli.ts']),
    );
  });

  it('no bundle or shipped source names a WRIT_TEST_ variable', () => {
    expect(matching(shipped, /WRIT_TEST_/)).toEqual([]);
  });

  it('the writ CLI carries no demo world: its source never imports the emulator', () => {
    expect(matching(sources('packages/cli/src'), /@writ\/github-emulator|github-emulator\/src/)).toEqual([]);
  });
});
