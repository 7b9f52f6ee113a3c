/**
 * Jest runs TypeScript through ts-jest in ESM mode (the @actions packages are ESM-only), in two tiers
 * (jest `projects`, chosen by what a suite starts):
 * - `unit` (`npm run test:unit`): in process, no emulator, no child process, no stage bundle;
 * - `e2e` (`npm run test:e2e`): the suites in E2E_SUITES, which start the GitHub emulator (in process or
 *   as a process), spawn processes (the stage bundles, `writ`, git, a shell) or run a campaign. Its
 *   global setup bundles the stages, so the unit tier never bundles.
 * `npm test` (README's one command) runs both. test/tiers.test.ts holds every unit suite to its rule.
 */
import { readFileSync } from 'node:fs';

/**
 * The e2e tier, as paths from the repository root (a folder ends in `/`); every other suite is a unit
 * suite. A new suite that starts the emulator or a process belongs here (test/tiers.test.ts says so).
 */
export const E2E_SUITES = [
  // The stage bundles, run by `writ run`'s engine against the emulator, and the campaigns over them.
  'test/e2e/',
  // The model's conformance against the emulator.
  'test/model/',
  // The emulator itself, its CLI and its git objects (git fsck).
  'packages/github-emulator/test/',
  // The `writ` CLI: its commands against the emulator, git remotes, spawned stages.
  'packages/cli/test/',
  // packages/core suites against the emulator with the real Octokit (each stage's main and stage, the
  // ledger, persist, probe, recovery, the status comment), or spawning processes.
  'packages/core/test/approval/gate.test.ts',
  'packages/core/test/approval/verify.test.ts',
  'packages/core/test/claim/claim-checkpoint.test.ts',
  'packages/core/test/command/comment.test.ts',
  'packages/core/test/command/reactions.test.ts',
  'packages/core/test/github/conditional-reads.test.ts',
  'packages/core/test/github/outbound.test.ts',
  'packages/core/test/github/proxy-transport.test.ts',
  'packages/core/test/github/secondary-limit.test.ts',
  'packages/core/test/github/write-sites.test.ts',
  'packages/core/test/idempotency/pages.test.ts',
  'packages/core/test/io/input-file.test.ts',
  'packages/core/test/ledger/bench/',
  'packages/core/test/ledger/emulator.test.ts',
  'packages/core/test/ledger/race/',
  'packages/core/test/ledger/ruleset-pins.test.ts',
  // The model campaign: fast-check runs of the ledger against its model (campaign size in campaigns.mjs).
  'packages/core/test/ledger/model.test.ts',
  'packages/core/test/persist/own-markers.test.ts',
  'packages/core/test/persist/persist.test.ts',
  'packages/core/test/persist/pre-state.test.ts',
  'packages/core/test/persist/receipts.test.ts',
  'packages/core/test/persist/scale.test.ts',
  'packages/core/test/persist/window-read.test.ts',
  'packages/core/test/probe/guard.test.ts',
  'packages/core/test/probe/probe.test.ts',
  'packages/core/test/recovery/',
  'packages/core/test/stages/claim-checkpoint.test.ts',
  'packages/core/test/stages/consume-approval.test.ts',
  'packages/core/test/stages/main.test.ts',
  'packages/core/test/stages/persist.test.ts',
  'packages/core/test/stages/preview.test.ts',
  'packages/core/test/stages/probe.test.ts',
  'packages/core/test/stages/publish-artifact.test.ts',
  'packages/core/test/stages/publish-ledger-state.test.ts',
  'packages/core/test/stages/recovery.test.ts',
  'packages/core/test/stages/refusals-fuzz.test.ts',
  'packages/core/test/stages/refusals.test.ts',
  'packages/core/test/stages/status-follow.test.ts',
  'packages/core/test/status-comment/sync.test.ts',
  // The Pages control tower built by the recovery stage on the emulator, rendered by headless Chromium.
  'packages/core/test/tower/recovery-stage.test.ts',
  'packages/core/test/tower/screenshot.test.ts',
  // Issue 33: the Projects (v2) projection against the emulator.
  'packages/core/test/projects/follow.test.ts',
  'packages/core/test/projects/stage.test.ts',
  // README's `writ` lines run by a real shell; the release workflow's version check run by bash.
  'test/readme-command.test.ts',
  // check-mutations' copy of the tree: git and the file system, as the script makes it.
  'test/check-mutations.test.ts',
  'test/release-workflow.test.ts',
];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The coverage bar, from coverage-bars.json (its `about` says how it is kept). */
const { bars } = JSON.parse(readFileSync(new URL('./coverage-bars.json', import.meta.url), 'utf8'));

const shared = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  roots: ['<rootDir>/packages', '<rootDir>/test'],
  moduleNameMapper: {
    '^@writ/([a-z-]+)/(.*)\\.js$': '<rootDir>/packages/$1/src/$2.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.json' }],
  },
};

/**
 * `npm run test:unit` and `npm run test:e2e` run jest with this config, which keeps the one tier the
 * script is named after (npm names it in npm_lifecycle_event), so arguments pass on as to `npm test`
 * (`npm run test:unit -- packages/core/test/plan`); `--selectProjects unit` does the same by hand.
 */
const tier = /^test:(unit|e2e)$/.exec(process.env.npm_lifecycle_event ?? '')?.[1];

export const TIERS = [
  {
    ...shared,
    displayName: 'unit',
    testMatch: ['**/*.test.ts'],
    testPathIgnorePatterns: ['/node_modules/', ...E2E_SUITES.map((path) => `<rootDir>/${escape(path)}`)],
  },
  {
    ...shared,
    displayName: 'e2e',
    testMatch: E2E_SUITES.map((path) => `<rootDir>/${path}${path.endsWith('/') ? '**/*.test.ts' : ''}`),
    // Bundles the stages from the working tree into .tmp/test-dist/ (rebuilding only what changed) and
    // sets WRIT_BUNDLE_DIR, so the end-to-end tests run the code under test, not the committed dist/.
    // Jest runs a project's global setup only when one of its suites is selected.
    globalSetup: '<rootDir>/test/support/global-setup.mjs',
  },
];

export default {
  projects: TIERS.filter((project) => tier === undefined || project.displayName === tier),
  // Prints the campaign sizes (test/support/campaigns.mjs) once per run.
  globalSetup: '<rootDir>/test/support/print-campaigns.mjs',
  testTimeout: 120000,
  // Most suites wait on child processes and loopback HTTP, not the CPU: two workers on two cores.
  maxWorkers: 2,
  collectCoverageFrom: ['packages/core/src/**/*.ts', '!packages/core/src/generated/**'],
  coverageReporters: ['json-summary', 'text-summary'],
  coverageThreshold: Object.fromEntries(
    Object.entries(bars).map(([key, { lines, branches }]) => [key, { lines, branches }]),
  ),
};
