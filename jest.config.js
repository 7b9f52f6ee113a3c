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
};
