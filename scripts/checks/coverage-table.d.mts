/** Types of scripts/checks/coverage-table.mjs for the tests that import it. */
export interface Bar {
  lines: number;
  branches: number;
  measured?: { lines: number; branches: number };
  why?: string;
}
export interface BarsFile {
  about: string;
  bars: Record<string, Bar>;
}
export function readBars(path?: string): BarsFile;
export function measure(
  summary: Record<string, Record<string, { covered: number; total: number }>>,
  keys: string[],
): Record<string, { lines: number; branches: number; totals: { lines: number; branches: number } }>;
export function renderCoverageTable(file: BarsFile): string;
export function withCoverageTable(doc: string, file: BarsFile): string;
export function renderCoverageDoc(doc: string, file: BarsFile): Promise<string>;
export const COVERAGE_DOC: string;
export const TABLE_START: string;
export const TABLE_END: string;
