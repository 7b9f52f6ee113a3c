// @ts-check
/**
 * StrykerJS (`npm run mutate`, scripts/checks/mutate.mjs): mutation testing of the code that decides safety.
 * Stryker copies the project into .stryker-tmp/sandbox-* and instruments the copy; the working tree is
 * never edited. The incremental file (reports/stryker-incremental.json) is committed, so a run on a
 * clean clone re-tests only the mutants whose code or covering tests changed since it was written.
 * docs/mutation-testing.md has the scores and how to read a survivor.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  packageManager: 'npm',
  testRunner: 'jest',
  // Jest runs here as ESM (ts-jest with useESM): the same flag as package.json's "test" script.
  testRunnerNodeArgs: ['--experimental-vm-modules'],
  jest: {
    projectType: 'custom',
    configFile: 'jest.stryker.config.js',
    // Per mutant, only the test files jest relates to the mutated file (their import graph).
    enableFindRelatedTests: true,
  },
  coverageAnalysis: 'perTest',
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  mutate: [
    'packages/core/src/ledger/**/*.ts',
    'packages/core/src/approval/**/*.ts',
    'packages/core/src/idempotency/**/*.ts',
    'packages/core/src/persist/**/*.ts',
    'packages/core/src/claim/**/*.ts',
    'packages/core/src/github/client.ts',
  ],
  // Stryker gives half the concurrency to checkers: 4 makes two jest runners (one per core) and two
  // TypeScript checkers, which idle once they are ahead of the runners.
  concurrency: 4,
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: false, reportScoreTable: true },
  thresholds: { high: 90, low: 80, break: null },
  // Generous: on two shared cores a mutant that merely waited for the CPU must not count as a timeout
  // (a timeout counts as detected).
  timeoutMS: 30000,
  // The initial run of every related suite takes minutes on two shared cores (the default stops at 5).
  dryRunTimeoutMinutes: 30,
  tempDirName: '.stryker-tmp',
  // Not copied into the sandbox: build output and scratch (the suites Stryker runs read none of them).
  ignorePatterns: ['/.stryker-tmp*', '/dist', '/.tmp', '/coverage', '/reports/mutation', '/bench/results'],
  cleanTempDir: true,
};
