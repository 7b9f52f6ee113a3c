/** Jest runs TypeScript through ts-jest in ESM mode (the @actions packages are ESM-only). */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  roots: ['<rootDir>/packages', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  moduleNameMapper: {
    '^@writ/([a-z-]+)/(.*)\\.js$': '<rootDir>/packages/$1/src/$2.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.json' }],
  },
  // Bundles the stages from the working tree into .tmp/test-dist/ (rebuilding only what changed) and
  // sets WRIT_BUNDLE_DIR, so the end-to-end tests run the code under test, not the committed dist/.
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  testTimeout: 120000,
  // Most suites wait on child processes and loopback HTTP, not the CPU: two workers on two cores.
  maxWorkers: 2,
  collectCoverageFrom: ['packages/core/src/**/*.ts', '!packages/core/src/generated/**'],
  coverageReporters: ['json-summary', 'text-summary'],
  // The bar for packages/core, enforced by `npm test -- --coverage` in .ci/run: per folder, lines and
  // branches, in aggregate (a folder key), each just under what the suite measured when it was set (a
  // ratchet: raise it when coverage rises, never lower it to let a change through). `global` is what no
  // folder key claims: the root modules (canonical-json, errors, redact). Only in-process tests count
  // (spawned bundles report nothing): stages/ and status-comment/ are tested in-process in
  // packages/core/test/stages/ and status-comment/ (each stage's inputs, stage and main against the
  // emulator with the real Octokit). `node scripts/coverage-table.mjs` prints each folder's measure
  // against its bar.
  coverageThreshold: {
    // Issues 26 and 27 (2026-12-03) measured global branches 95.6 % after the merge: the transport's
    // proxy and redirect edge branches (github/: client.ts 85.5, transport.ts 85.1, write-retry.ts 87.5)
    // and the recovery stage's frozen-ledger outcome through the stage (stages/recovery/stage.ts 20/24)
    // are what is left; the bars below are set to what was measured, not to what was hoped.
    global: { lines: 98, branches: 95.5 },
    './packages/core/src/approval/': { lines: 94, branches: 87 },
    './packages/core/src/artifact/': { lines: 86, branches: 78 },
    // claim/: measured 100 / 92.7 by packages/core/test/stages/ alone (what is left: a release found
    // ended while its own run still holds the lease). status-comment/: 99.4 / 94.9 by the whole suite
    // after the recovery merge (evidence links, action-needed lines).
    './packages/core/src/claim/': { lines: 100, branches: 92 },
    // command/ (issue 26): the grammar and the comment verification with GitHub's edit record, measured
    // 100 % lines and 98.7 % branches by the whole suite.
    './packages/core/src/command/': { lines: 99, branches: 96 },
    './packages/core/src/github/': { lines: 92, branches: 88.5 },
    './packages/core/src/idempotency/': { lines: 69, branches: 72 },
    // io/ gained input-file.ts (issue 9): its check-then-read race branches (a file swapped or grown
    // between the check and the read) cannot be reached deterministically in-process.
    './packages/core/src/io/': { lines: 89, branches: 78 },
    './packages/core/src/ledger/': { lines: 89, branches: 78 },
    // persist/ (issue 12): measured 80.8 % lines, 62.4 % branches by its in-process suite alone.
    './packages/core/src/persist/': { lines: 80, branches: 61 },
    './packages/core/src/plan/': { lines: 94, branches: 87 },
    './packages/core/src/preview/': { lines: 98, branches: 76 },
    // probe/: measured 86 % lines, 69 % branches from its own tests alone (before guard.test.ts).
    './packages/core/src/probe/': { lines: 85, branches: 68 },
    './packages/core/src/setup/': { lines: 89, branches: 75 },
    // stages/ per stage, each tested in-process (packages/core/test/stages/): persist measured 98.5 / 96.9,
    // probe 93.9 / 91.7 and recovery 97 / 95.8 by their own stage tests alone (index.ts, the entry, runs
    // only in bundles; probe's empty-token check sits behind the registry's `required`).
    // A glob's bar holds for each file it matches (connect.ts and runner.ts measure 83 and 80 % branches).
    './packages/core/src/stages/*.ts': { lines: 99, branches: 80 },
    './packages/core/src/stages/claim-checkpoint/': { lines: 95, branches: 99 },
    './packages/core/src/stages/consume-approval/': { lines: 95, branches: 85 },
    './packages/core/src/stages/preview/': { lines: 96, branches: 87 },
    './packages/core/src/stages/publish-artifact/': { lines: 97, branches: 91 },
    './packages/core/src/stages/recovery/': { lines: 96, branches: 88 },
    './packages/core/src/stages/persist/': { lines: 98, branches: 96 },
    './packages/core/src/stages/probe/': { lines: 93, branches: 91 },
    './packages/core/src/status-comment/': { lines: 99, branches: 94 },
    // recovery/ (issue 13): measured 84.8 % lines, 69 % branches by its in-process suites alone.
    './packages/core/src/recovery/': { lines: 84, branches: 68 },
  },
};
