/**
 * check-mutations works on a copy of the working tree (scripts/checks/check-mutations.mjs's copyTree): the
 * files as they are now, tracked and untracked but not ignored; node_modules linked, with the workspace
 * packages pointing into the copy; the test bundles along. Writing to the copy leaves the tree alone.
 */
import { afterEach, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { copyTree } from '../scripts/checks/check-mutations.mjs';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

it('copies the tree as it is now, links node_modules with the workspace packages into the copy, and never writes the tree', () => {
  const tree = mkdtempSync(join(tmpdir(), 'writ-check-mutations-tree-'));
  made.push(tree);
  execFileSync('git', ['init', '-q'], { cwd: tree });
  write(tree, '.gitignore', 'node_modules/\n.tmp/\nscratch.txt\n');
  write(tree, 'packages/core/src/a.ts', 'export const a = 1;\n');
  write(tree, 'packages/core/package.json', '{"name":"@writ/core"}\n');
  execFileSync('git', ['add', '-A'], { cwd: tree });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'one'], {
    cwd: tree,
  });
  // Uncommitted: an edit, a new file; ignored: scratch; deleted: none of the copy's business.
  write(tree, 'packages/core/src/a.ts', 'export const a = 2;\n');
  write(tree, 'packages/core/src/new.ts', 'export const n = 1;\n');
  write(tree, 'scratch.txt', 'ignored\n');
  write(tree, 'node_modules/left-pad/index.js', 'module.exports = 1;\n');
  mkdirSync(join(tree, 'node_modules/@writ'), { recursive: true });
  symlinkSync('../../packages/core', join(tree, 'node_modules/@writ/core'));
  write(tree, '.tmp/test-dist/preview/index.js', 'bundle\n');

  const copy = copyTree(tree);
  made.push(copy);
  expect(readFileSync(join(copy, 'packages/core/src/a.ts'), 'utf8')).toBe('export const a = 2;\n');
  expect(existsSync(join(copy, 'packages/core/src/new.ts'))).toBe(true);
  expect(existsSync(join(copy, 'scratch.txt'))).toBe(false);
  expect(realpathSync(join(copy, 'node_modules/left-pad'))).toBe(
    realpathSync(join(tree, 'node_modules/left-pad')),
  );
  expect(realpathSync(join(copy, 'node_modules/@writ/core'))).toBe(realpathSync(join(copy, 'packages/core')));
  expect(readFileSync(join(copy, '.tmp/test-dist/preview/index.js'), 'utf8')).toBe('bundle\n');

  writeFileSync(join(copy, 'packages/core/src/a.ts'), 'throw new Error("mutant");\n');
  writeFileSync(join(copy, 'node_modules/@writ/core/src/new.ts'), 'mutated through the link\n');
  expect(readFileSync(join(tree, 'packages/core/src/a.ts'), 'utf8')).toBe('export const a = 2;\n');
  expect(readFileSync(join(tree, 'packages/core/src/new.ts'), 'utf8')).toBe('export const n = 1;\n');
});
