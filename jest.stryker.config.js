/**
 * The jest configuration StrykerJS runs (stryker.config.mjs): the README's jest.config.js, narrowed to
 * the in-process suites of packages/core, which import the instrumented sources of Stryker's sandbox.
 * Not here: test/e2e and the CLI's tests (they run stage bundles, which do not contain the sandbox's
 * instrumented code), the bundle build of the global setup (no suite below runs a bundle), the coverage
 * bars (`npm test -- --coverage` holds them), and two suites whose work happens in other OS processes
 * (ledger/race forks 8 workers per trial; ledger/bench measures time), where no mutant is switched on.
 */
import { mkdirSync } from 'node:fs';
import base from './jest.config.js';

// Suites write scratch files under .tmp/, which the sandbox copy does not have (it is git-ignored).
mkdirSync(new URL('./.tmp/', import.meta.url), { recursive: true });

const { globalSetup: _bundles, coverageThreshold: _bars, collectCoverageFrom: _covered, ...rest } = base;

export default {
  ...rest,
  // The sources are a root too: jest's --findRelatedTests follows imports only among files in its roots.
  roots: ['<rootDir>/packages/core'],
  testMatch: ['<rootDir>/packages/core/test/**/*.test.ts'],
  testPathIgnorePatterns: [
    '/node_modules/',
    '/packages/core/test/ledger/race/',
    '/packages/core/test/ledger/bench/',
  ],
};
