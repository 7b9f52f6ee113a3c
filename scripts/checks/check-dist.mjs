#!/usr/bin/env node
// Rebuilds every generated file from clean and fails on any difference from what is committed, new
// files included (a plain `git diff` would miss an untracked bundle or doc).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const GENERATED = [
  'dist/',
  'actions/',
  'packages/core/src/generated/',
  'workflows-templates/',
  'docs/errors.md',
  // Its coverage table, generated from coverage-bars.json.
  'docs/checks.md',
  // Its per-job permissions table, generated from packages/core/src/setup/permissions.ts.
  'README.md',
];

for (const dir of ['dist', 'packages/core/src/generated', 'docs/errors.md']) {
  rmSync(join(root, dir), { recursive: true, force: true });
}
execFileSync(process.execPath, [join(root, 'scripts/build/build.mjs')], { cwd: root, stdio: 'inherit' });

const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all', '--', ...GENERATED], {
  cwd: root,
  encoding: 'utf8',
});
if (status.trim() !== '') {
  console.error(
    'check-dist: generated files differ from the committed ones. Run `npm run build` and commit:',
  );
  console.error(status);
  console.error(execFileSync('git', ['diff', '--stat', '--', ...GENERATED], { cwd: root, encoding: 'utf8' }));
  process.exit(1);
}
console.log(
  'check-dist: dist/, action READMEs, generated validators, workflows-templates/, docs/errors.md, the coverage table in docs/checks.md and the permissions table in README.md are fresh.',
);
