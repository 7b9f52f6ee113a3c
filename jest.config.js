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
  testTimeout: 120000,
  // Most suites wait on child processes and loopback HTTP, not the CPU: two workers on two cores.
  maxWorkers: 2,
  collectCoverageFrom: ['packages/core/src/**/*.ts', '!packages/core/src/generated/**'],
};
