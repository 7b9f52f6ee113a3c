/** Types of scripts/checks/mutate.mjs for the tests that import it. */
export interface ReportMutant {
  id?: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}
export interface MutationReport {
  files: Record<string, { mutants: ReportMutant[]; source?: string; language?: string }>;
  testFiles?: Record<string, unknown>;
  [key: string]: unknown;
}
export interface FolderRow {
  name: string;
  prefix: string;
  bar: number;
  mutants: number;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  other: number;
  score: number | null;
}
export interface Undetected {
  path: string;
  line: number;
  column: number;
  status: string;
  mutator: string;
  replacement: string;
}
export const INCREMENTAL_FILE: string;
export const FOLDERS: { name: string; prefix: string; bar: number }[];
export function mergeReports(
  before: MutationReport | null,
  after: MutationReport,
  exists?: (path: string) => boolean,
): MutationReport;
export function scores(report: MutationReport): { rows: FolderRow[]; undetected: Undetected[] };
export function render(scored: { rows: FolderRow[]; undetected: Undetected[] }): {
  text: string;
  failing: string[];
};
