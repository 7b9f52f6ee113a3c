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
  // folder key claims: the root modules (canonical-json, errors, redact). Only in-process tests count;
  // claim/, status-comment/ and stages/ run only inside spawned bundles (end-to-end and check-mutations)
  // and read 0 here until they are tested in-process. `node scripts/coverage-table.mjs` prints each
  // folder's measure against its bar.
  coverageThreshold: {
    global: { lines: 98, branches: 96 },
    './packages/core/src/approval/': { lines: 91, branches: 85 },
    './packages/core/src/artifact/': { lines: 72, branches: 57 },
    './packages/core/src/claim/': { lines: 0, branches: 0 },
    './packages/core/src/github/': { lines: 75, branches: 81 },
    './packages/core/src/idempotency/': { lines: 69, branches: 72 },
    // io/ gained input-file.ts (issue 9): its check-then-read race branches (a file swapped or grown
    // between the check and the read) cannot be reached deterministically in-process.
    './packages/core/src/io/': { lines: 89, branches: 78 },
    './packages/core/src/ledger/': { lines: 89, branches: 78 },
    './packages/core/src/plan/': { lines: 94, branches: 87 },
    './packages/core/src/preview/': { lines: 84, branches: 67 },
    './packages/core/src/setup/': { lines: 89, branches: 75 },
    // recovery/ (issue 13): measured 84.8 % lines, 69 % branches by its in-process suites alone.
    './packages/core/src/recovery/': { lines: 84, branches: 68 },
    './packages/core/src/stages/': { lines: 0, branches: 0 },
    './packages/core/src/status-comment/': { lines: 0, branches: 0 },
  },
};
