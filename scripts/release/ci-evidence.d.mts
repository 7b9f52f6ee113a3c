/** Types of scripts/release/ci-evidence.mjs for the tests that import it. */
export interface CoverageCell {
  measured: number;
  of: number;
  bar: number;
}
export interface Evidence {
  sha: string;
  outcome: string;
  verdict: 'passed' | 'failed';
  reasons: string[];
  tests?: { passed: number; failed: number };
  coverage: { key: string; lines: CoverageCell; branches: CoverageCell; below: boolean }[];
  steps: { seconds: number; name: string }[];
  total?: number;
}
export function extractEvidence(log: string, run: { sha: string; outcome: string }): Evidence;
export function renderEvidence(evidence: Evidence): string;
