/** Types of jest.config.js for the tests that read its tiers. */
export const E2E_SUITES: string[];
/** The two tiers, jest projects: unit, then e2e. */
export const TIERS: { displayName: string }[];
declare const config: {
  projects: { displayName: string }[];
  coverageThreshold: Record<string, { lines: number; branches: number }>;
};
export default config;
