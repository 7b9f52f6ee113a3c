#!/usr/bin/env node
// npm run check-mutations: proves `npm test` tests the working tree. Each mutant makes one stage's code
// throw on entry, or gives persist or probe a behaviour they must not have (writing with the gate
// closed, skipping the post-read, a 412-yet-applied counted positive…); `npm test` on the suites that
// run that code must then fail. The
// suites first pass on the unmutated tree (so a failure is the mutant's), and every mutated file is
// restored byte for byte afterwards, also on an error or Ctrl-C, with the unmutated test bundles (so
// each mutant rebuilds only the stages it touches).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_DIST } from './test-bundles.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Each mutant: a throw inserted before `before` in `file`, or (`replace`) `before` replaced by a
 * changed line, a behaviour persist and probe must not have; `suites` run that code (through bundles,
 * or in-process for the classifier and the guard).
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
  ].map(([stage, suite]) => ({
    name: `${stage} main`,
    file: `packages/core/src/stages/${stage}/main.ts`,
    before: `  await runStage('${stage}', {\n`,
    suites: [suite],
  })),
  {
    name: 'persist writes with the gate closed',
    file: 'packages/core/src/persist/persist.ts',
    before: '  if (!gate.open) {\n',
    replace: '  if (!gate.open && Date.now() < 0) {\n',
    suites: ['test/e2e/persist.test.ts'],
  },
  {
    name: 'persist skips the post-read after a write',
    file: 'packages/core/src/persist/persist.ts',
    before: '          observed = await write.verify(sent.resource);\n',
    replace: '          observed = Date.now() > 0;\n',
    suites: ['test/e2e/persist-matrix.test.ts'],
  },
  {
    name: 'persist writes again without believing its read-back',
    file: 'packages/core/src/persist/persist.ts',
    before: '      if (after.desired) return settled(',
    replace: '      if (after.desired && Date.now() < 0) return settled(',
    suites: ['test/e2e/persist-matrix.test.ts'],
  },
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
  {
    name: 'probe main',
    file: 'packages/core/src/stages/probe/main.ts',
    before: "  await runStage('probe', {\n",
    suites: ['test/e2e/probe.test.ts'],
  },
];

function npmTest(suites) {
  const started = Date.now();
  const result = spawnSync('npm', ['test', '--', '--silent', ...suites], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  const output = `${result.stdout}${result.stderr}`;
  const tests = /^Tests: .*$/m.exec(output)?.[0] ?? 'no test summary';
  return { status: result.status, seconds: ((Date.now() - started) / 1000).toFixed(1), tests, output };
}

const SNAPSHOT = `${TEST_DIST}.unmutated`;
const originals = new Map();
function restore() {
  for (const [file, text] of originals) writeFileSync(join(root, file), text);
  if (originals.size > 0) {
    rmSync(TEST_DIST, { recursive: true, force: true });
    cpSync(SNAPSHOT, TEST_DIST, { recursive: true });
  }
  originals.clear();
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    restore();
    process.exit(130);
  });
}

/**
 * `--after-passing-npm-test`: the caller has just run the whole `npm test` on this tree and it passed
 * (CI does, one step before), so the mutants' suites are known to pass unmutated and .tmp/test-dist/
 * holds this tree's bundles; the unmutated run is not repeated.
 */
const AFTER_PASSING_NPM_TEST = process.argv.includes('--after-passing-npm-test');

function main() {
  if (AFTER_PASSING_NPM_TEST) {
    if (!existsSync(TEST_DIST)) {
      console.error(`check-mutations: --after-passing-npm-test, yet ${TEST_DIST} holds no bundles.`);
      return 1;
    }
    console.log('unmutated tree: passed in the npm test run just before (--after-passing-npm-test)');
  } else {
    const suites = [...new Set(MUTANTS.flatMap((mutant) => mutant.suites))];
    const clean = npmTest(suites);
    console.log(`unmutated tree: exit ${clean.status} in ${clean.seconds} s (${clean.tests})`);
    if (clean.status !== 0) {
      console.error(clean.output);
      console.error('check-mutations: the suites fail without a mutant; fix that first.');
      return 1;
    }
  }
  rmSync(SNAPSHOT, { recursive: true, force: true });
  cpSync(TEST_DIST, SNAPSHOT, { recursive: true });
  const survivors = [];
  for (const mutant of MUTANTS) {
    const text = readFileSync(join(root, mutant.file), 'utf8');
    if (text.split(mutant.before).length !== 2) {
      console.error(`check-mutations: ${mutant.file} no longer has one ${JSON.stringify(mutant.before)}`);
      return 1;
    }
    originals.set(mutant.file, text);
    const indent = /^ */.exec(mutant.before)?.[0] ?? '';
    // A condition no compiler can decide, so the code after it stays reachable (and `npm run typecheck`
    // would still pass on the mutated tree).
    const mutated = `${indent}if (Date.now() > 0) throw new Error('check-mutations: ${mutant.name} throws on entry');\n`;
    writeFileSync(
      join(root, mutant.file),
      text.replace(mutant.before, mutant.replace ?? `${mutated}${mutant.before}`),
    );
    let run;
    try {
      run = npmTest(mutant.suites);
    } finally {
      restore();
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
    console.error(`check-mutations: npm test passed with these stages throwing: ${survivors.join(', ')}`);
    return 1;
  }
  console.log(`check-mutations: all ${MUTANTS.length} mutants fail npm test.`);
  return 0;
}

try {
  process.exitCode = main();
} finally {
  restore();
  rmSync(SNAPSHOT, { recursive: true, force: true });
}
