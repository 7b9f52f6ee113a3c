/**
 * README's test command passes on a fresh clone, first time, with no earlier build: the repository's
 * committed HEAD is cloned into a temp folder (the test says so when the working tree has uncommitted
 * changes: it tests what is committed), installed with `npm ci --offline` from npm's local cache (which
 * the install of this tree filled; no network), and README's test command runs there on the suites that
 * need built or generated artefacts:
 * - test/e2e/test-bundles.test.ts: the stage bundles jest's global setup builds from the clone, each with
 *   the record of its inputs (on a fresh clone the first bundling recorded none);
 * - test/e2e/preview.test.ts: a stage bundle built there runs, as `writ run` starts it;
 * - packages/core/test/io/action-contract.test.ts: the generated registry (packages/core/src/generated/)
 *   agrees with every action.yml;
 * - test/error-docs.test.ts: docs/errors.md, generated from the error catalogue, is what it renders.
 * .ci/run runs the whole suite first thing after `npm ci` on CI's own clean clone; this is the check
 * that `npm test` alone (the two set-up commands) builds what it needs. The nested run sets
 * WRIT_FRESH_CLONE_NESTED, so it never clones again.
 *
 * Inside that CI run (.ci/run sets WRIT_CI_CLEAN_CLONE=1 for its first test step) the clone would test
 * the same thing a second time, so it is replaced by a check that the premise holds: this run's tree has
 * the committed tree and nothing else, and .ci/run's first step after `npm ci` is README's test command.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from '@jest/globals';
import { repoRoot } from '../support/run-action.js';

const SUITES = [
  'test/e2e/test-bundles.test.ts',
  'test/e2e/preview.test.ts',
  'packages/core/test/io/action-contract.test.ts',
  'test/error-docs.test.ts',
];

const nested = process.env.WRIT_FRESH_CLONE_NESTED === '1';
/** CI's own first test step, which is itself README's test command on a clean clone (.ci/run). */
const ciCleanClone = process.env.WRIT_CI_CLEAN_CLONE === '1';
const git = (...args: string[]): string =>
  execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
const dirty = nested ? '' : git('status', '--porcelain', '--untracked-files=no');
const head = nested ? '' : git('rev-parse', 'HEAD');

/** README's test command, as its set-up section gives it. */
const readmeTest = /^npm ci && (npm test)\b/m.exec(readFileSync(join(repoRoot, 'README.md'), 'utf8'))?.[1];

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

(ciCleanClone && !nested ? it : it.skip)(
  "is CI's own first test step: .ci/run runs README's test command right after `npm ci`, on a clean clone",
  () => {
    expect(readmeTest).toBe('npm test');
    const ci = readFileSync(join(repoRoot, '.ci/run'), 'utf8');
    const steps = [...ci.matchAll(/^step "([^"]*)" (.*)$/gm)].map((match) => match[2] ?? '');
    const install = steps.findIndex((command) => command.startsWith('npm ci'));
    expect(install).toBeGreaterThanOrEqual(0);
    // The step after `npm ci` is the Node 24 suite, which runs README's test command (.ci/node24/run).
    expect(steps[install + 1]).toBe('tests_on_node24');
    expect(readFileSync(join(repoRoot, '.ci/node24/run'), 'utf8')).toMatch(/jest/);
    // A clean clone: the tree is what is committed, no file edited and none git does not track or ignore.
    expect(git('status', '--porcelain', '--untracked-files=normal')).toBe('');
  },
);

(nested || ciCleanClone ? it.skip : it)(
  `passes README's test command on a fresh clone of HEAD ${head.slice(0, 7)}${dirty === '' ? '' : ' (what is committed: the working tree has uncommitted changes)'}, with no earlier build`,
  () => {
    expect(readmeTest).toBe('npm test');
    const dir = mkdtempSync(join(tmpdir(), 'writ-fresh-clone-'));
    dirs.push(dir);
    const clone = join(dir, 'writ');
    execFileSync('git', ['clone', '--quiet', '--no-hardlinks', '--no-checkout', repoRoot, clone]);
    execFileSync('git', ['checkout', '--quiet', head], { cwd: clone });
    // Nothing of this run's set-up reaches the nested one: its own global setup bundles its own tree.
    const env: NodeJS.ProcessEnv = { ...process.env, WRIT_FRESH_CLONE_NESTED: '1' };
    delete env.WRIT_BUNDLE_DIR;
    delete env.JEST_WORKER_ID;
    execFileSync('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: clone,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    // One worker: the outer run's two are busy with the rest of the suite.
    const run = spawnSync('npm', ['test', '--', '--ci', '--maxWorkers=1', ...SUITES], {
      cwd: clone,
      env,
      encoding: 'utf8',
    });
    const report = `${run.stdout}\n${run.stderr}`;
    if (run.status !== 0) process.stderr.write(report);
    expect(run.status).toBe(0);
    expect(report).toMatch(new RegExp(`Test Suites: ${SUITES.length} passed, ${SUITES.length} total`));
    expect(report).not.toMatch(/failed to exit gracefully|force exited/);
  },
  900_000,
);
