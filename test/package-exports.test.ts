/**
 * @writ/core's package `exports` is its public surface: exactly the modules another package (the CLI,
 * the emulator) or the repository's tooling (scripts/, test/, the other packages' tests) imports as
 * `@writ/core/<path>.js`, each pointing at a file that exists. packages/core's own tests import its
 * sources by relative path, so they do not widen it.
 */
import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const core = join(root, 'packages/core');
const SOURCE = /\.(ts|mts|mjs|js)$/;
const SPECIFIER = /['"]@writ\/core\/([A-Za-z0-9/._-]+\.js)['"]/g;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'generated') return [];
    return statSync(path).isDirectory() ? files(path) : SOURCE.test(name) ? [path] : [];
  });
}

/** Each `@writ/core/…` specifier in `paths`, with the files that use it. */
function importsOf(paths: string[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of paths) {
    for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const entry = `./${match[1] ?? ''}`;
      found.set(entry, [...(found.get(entry) ?? []), relative(root, file)]);
    }
  }
  return found;
}

const exportsMap = (
  JSON.parse(readFileSync(join(core, 'package.json'), 'utf8')) as { exports: Record<string, string> }
).exports;
const outside = importsOf(
  ['packages/cli', 'packages/github-emulator', 'scripts', 'test'].flatMap((dir) => files(join(root, dir))),
);

describe("@writ/core's exports", () => {
  it('point at files that exist', () => {
    const missing = Object.entries(exportsMap).filter(([, target]) => !existsSync(join(core, target)));
    expect(missing).toEqual([]);
  });

  it('name files, no pattern that would make every module public', () => {
    expect(Object.keys(exportsMap).filter((entry) => entry.includes('*'))).toEqual([]);
  });

  it('list every module imported from outside the package', () => {
    const unlisted = [...outside].filter(([entry]) => !(entry in exportsMap));
    expect(unlisted).toEqual([]);
  });

  it('list nothing that nobody outside the package imports', () => {
    expect(Object.keys(exportsMap).filter((entry) => !outside.has(entry))).toEqual([]);
  });

  it("are not how packages/core's own tests reach its sources", () => {
    const own = importsOf(files(join(core, 'test')));
    const internal = [...own].filter(([entry]) => !(entry in exportsMap));
    expect(internal).toEqual([]);
  });
});
