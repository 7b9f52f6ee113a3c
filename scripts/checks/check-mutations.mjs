#!/usr/bin/env node
// npm run check-mutations: proves the end-to-end suites run stage bundles built from the working tree,
// which StrykerJS (npm run mutate) cannot: its mutants live in the in-process code of its sandbox, and a
// bundle spawned by test/e2e never contains them. Each mutant here makes one stage bundle's entry (or
// code only a bundle runs end to end) throw, or gives probe a behaviour it must not have (probe/ is
// outside Stryker's scope); the suites that run that code must then fail.
//
// It works on a copy: the working tree's files (tracked and untracked, not ignored, as they are now,
// uncommitted edits included) copied to a temporary folder, node_modules linked in (the workspace
// packages pointing into the copy), and the test bundles of .tmp/test-dist/ copied along, so each mutant
// rebuilds only the stages it touches. The working tree is never written; the copy is removed at the end,
// also on an error or Ctrl-C.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** scripts/build/test-bundles.mjs's TEST_DIST, relative (not imported: that would load the bundler into a test). */
const TEST_DIST = join('.tmp', 'test-dist');

/**
 * Each mutant: a throw inserted before `before` in `file`, or (`replace`) `before` replaced by a
 * changed line; `suites` run that code (through bundles, or in-process for the classifier and the guard).
 * Gone since Stryker (issue 28): persist's three behaviour mutants (writing with the gate closed,
 * skipping the post-read, writing again without believing the read-back), which Stryker expresses in
 * persist/ in-process; the persist bundle keeps its throw-on-entry mutant below.
 */
const MUTANTS = [
  {
    name: 'status comment sync',
    file: 'packages/core/src/status-comment/sync.ts',
    before: '  const { runId } = request;\n',
    suites: ['test/e2e/approval-slice.test.ts'],
  },
  ...[
    ['preview', 'test/e2e/preview.test.ts'],
    ['consume-approval', 'test/e2e/approval-slice.test.ts'],
    ['claim-checkpoint', 'test/e2e/approval-slice.test.ts'],
    ['publish-artifact', 'test/e2e/publish-artifact.test.ts'],
    ['recovery', 'test/e2e/recovery.test.ts'],
    ['persist', 'test/e2e/persist.test.ts'],
    ['probe', 'test/e2e/probe.test.ts'],
  ].map(([stage, suite]) => ({
    name: `${stage} run`,
    file: `packages/core/src/stages/${stage}.ts`,
    before: `  await runAction('${stage}', {\n`,
    suites: [suite],
  })),
  {
    name: 'probe counts a 412 whose read-back shows the write applied as positive',
    file: 'packages/core/src/probe/classify.ts',
    before: "    if (stale.status === 412) return outcome(observation, 'negative', '412-applied');\n",
    replace: "    if (stale.status === 412) return outcome(observation, 'positive', 'refused-unchanged');\n",
    suites: ['test/e2e/probe.test.ts', 'packages/core/test/probe/probe.test.ts'],
  },
  {
    name: 'probe guard lets the running repository through as the sandbox',
    file: 'packages/core/src/probe/guard.ts',
    before: '  if (same(settings.sandbox, settings.current)) {\n',
    replace: '  if (same(settings.sandbox, settings.current) && Date.now() < 0) {\n',
    suites: ['test/e2e/probe.test.ts', 'packages/core/test/probe/guard.test.ts'],
  },
];

/** The working tree's files as they are now: tracked (unless deleted) and untracked, not ignored. */
function workingFiles(root) {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  return [...new Set(listed.stdout.split('\0').filter(Boolean))].filter((path) => {
    try {
      return lstatSync(join(root, path)).isFile();
    } catch {
      return false;
    }
  });
}

/**
 * A copy of the working tree in a new temporary folder, with node_modules linked entry by entry (the
 * workspace packages, node_modules/@writ/*, link into the copy's packages/, so the copy's code is what
 * its tests and bundles import) and the test bundles of .tmp/test-dist/ copied along.
 */
export function copyTree(root = ROOT) {
  const copy = mkdtempSync(join(tmpdir(), 'writ-check-mutations-'));
  for (const path of workingFiles(root)) {
    mkdirSync(dirname(join(copy, path)), { recursive: true });
    cpSync(join(root, path), join(copy, path), { verbatimSymlinks: true });
  }
  const modules = join(root, 'node_modules');
  mkdirSync(join(copy, 'node_modules'));
  for (const entry of readdirSync(modules)) {
    if (entry === '@writ') {
      mkdirSync(join(copy, 'node_modules', '@writ'));
      for (const name of readdirSync(join(modules, '@writ'))) {
        symlinkSync(join(copy, 'packages', name), join(copy, 'node_modules', '@writ', name));
      }
    } else {
      symlinkSync(join(modules, entry), join(copy, 'node_modules', entry));
    }
  }
  if (existsSync(join(root, TEST_DIST)))
    cpSync(join(root, TEST_DIST), join(copy, TEST_DIST), { recursive: true });
  return copy;
}

function npmTest(cwd, suites) {
  const started = Date.now();
  const result = spawnSync('npm', ['test', '--', '--silent', ...suites], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  const output = `${result.stdout}${result.stderr}`;
  const tests = /^Tests: .*$/m.exec(output)?.[0] ?? 'no test summary';
  return { status: result.status, seconds: ((Date.now() - started) / 1000).toFixed(1), tests, output };
}

let copy = null;
function removeCopy() {
  if (copy !== null) rmSync(copy, { recursive: true, force: true });
  copy = null;
}

/**
 * `--after-passing-npm-test`: the caller has just run the whole `npm test` on this tree and it passed
 * (CI does, one step before), so the mutants' suites are known to pass unmutated and .tmp/test-dist/
 * holds this tree's bundles; the unmutated run is not repeated.
 */
const AFTER_PASSING_NPM_TEST = process.argv.includes('--after-passing-npm-test');

function main() {
  if (AFTER_PASSING_NPM_TEST && !existsSync(join(ROOT, TEST_DIST))) {
    console.error(`check-mutations: --after-passing-npm-test, yet ${TEST_DIST} holds no bundles.`);
    return 1;
  }
  const started = Date.now();
  copy = copyTree();
  console.log(`check-mutations: the working tree copied to ${copy} in ${Date.now() - started} ms`);
  const copyDist = join(copy, TEST_DIST);
  if (AFTER_PASSING_NPM_TEST) {
    console.log('unmutated tree: passed in the npm test run just before (--after-passing-npm-test)');
  } else {
    const suites = [...new Set(MUTANTS.flatMap((mutant) => mutant.suites))];
    const clean = npmTest(copy, suites);
    console.log(`unmutated tree: exit ${clean.status} in ${clean.seconds} s (${clean.tests})`);
    if (clean.status !== 0) {
      console.error(clean.output);
      console.error('check-mutations: the suites fail without a mutant; fix that first.');
      return 1;
    }
  }
  const snapshot = `${copyDist}.unmutated`;
  cpSync(copyDist, snapshot, { recursive: true });
  const survivors = [];
  for (const mutant of MUTANTS) {
    const path = join(copy, mutant.file);
    const text = readFileSync(path, 'utf8');
    if (text.split(mutant.before).length !== 2) {
      console.error(`check-mutations: ${mutant.file} no longer has one ${JSON.stringify(mutant.before)}`);
      return 1;
    }
    const indent = /^ */.exec(mutant.before)?.[0] ?? '';
    // A condition no compiler can decide, so the code after it stays reachable (and `npm run typecheck`
    // would still pass on the mutated tree).
    const mutated = `${indent}if (Date.now() > 0) throw new Error('check-mutations: ${mutant.name} throws on entry');\n`;
    writeFileSync(path, text.replace(mutant.before, mutant.replace ?? `${mutated}${mutant.before}`));
    let run;
    try {
      run = npmTest(copy, mutant.suites);
    } finally {
      // The copy back to unmutated, its bundles too, for the next mutant.
      writeFileSync(path, text);
      rmSync(copyDist, { recursive: true, force: true });
      cpSync(snapshot, copyDist, { recursive: true });
    }
    if (!/^Tests: /m.test(run.output)) {
      console.error(run.output.slice(-4000));
      console.error(`check-mutations: the ${mutant.name} mutant ran no tests (above); the check is broken.`);
      return 1;
    }
    const killed = run.status !== 0;
    console.log(
      `${killed ? 'killed  ' : 'SURVIVED'} ${mutant.name} (${mutant.file}): npm test -- ${mutant.suites.join(' ')} → exit ${run.status} in ${run.seconds} s (${run.tests})`,
    );
    if (!killed) survivors.push(mutant.name);
  }
  if (survivors.length > 0) {
    console.error(`check-mutations: npm test passed with these mutants: ${survivors.join(', ')}`);
    return 1;
  }
  console.log(
    `check-mutations: all ${MUTANTS.length} mutants fail npm test (on a copy; the working tree untouched).`,
  );
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      removeCopy();
      process.exit(130);
    });
  }
  try {
    process.exitCode = main();
  } finally {
    removeCopy();
  }
}
