/**
 * The probe's evidence file (`schemas/probe-evidence.schema.json`) and the one rule that reads it:
 * which step kinds it opens under `require-proof`. The probe writes it, `writ probe --explain` and
 * `writ doctor` explain it, and `persist`'s gate decides with it — all through `evidenceVerdict`.
 */
import validateEvidenceSchema from '../generated/probe-evidence-validator.js';
import type { StepKind } from '../plan/types.js';
import { schemaProblems } from '../schema-check.js';

export const EVIDENCE_PATH = '.writ/probe-evidence.json';

/** Evidence older than this (by `finished_at`, against the server clock) opens nothing. */
export const EVIDENCE_MAX_AGE_DAYS = 30;

export const CASE_IDS = ['1', '2a', '2b', '3a', '3b', '4'] as const;
export type CaseId = (typeof CASE_IDS)[number];

export const PRIMITIVE_IDS = [
  'stale-expected-head-oid',
  'create-ref-existing',
  'update-refs-stale-before-oid',
  'update-ref-non-fast-forward',
] as const;
export type PrimitiveId = (typeof PRIMITIVE_IDS)[number];

export type Classification = 'positive' | 'negative' | 'inconclusive';
export type ReadBack = 'unchanged' | 'applied' | 'duplicate' | 'unknown';

export interface ProbeAttempt {
  surface: string;
  classification: Classification;
  control_status: number | null;
  status: number | null;
  error_code: string | null;
  read_back: ReadBack;
  reason: string;
  at: string;
}

export interface ProbeCase {
  id: CaseId;
  classification: Classification;
  attempts: ProbeAttempt[];
}

export interface ProbePrimitive {
  id: PrimitiveId;
  classification: Classification;
  attempts: [ProbeAttempt];
}

export interface ProbeEvidence {
  schema: 1;
  sandbox: string;
  api_url: string;
  writ: { version: string; commit: string | null };
  probe_run: string;
  started_at: string;
  finished_at: string;
  cases: ProbeCase[];
  primitives: ProbePrimitive[];
  cleanup: { removed: number; left: string[] };
}

/**
 * The cases that must all be positive before `require-proof` opens a kind (SPEC §6): an assignment
 * needs its full read set protected (item, source and target milestone: 2a, 2b, 3a, 3b); a create
 * needs a refused duplicate (4); a marker or pin edit needs a refused stale edit (1). An upsert may
 * create or edit, so it needs both. `external` steps are the workflow's own writes, never persist's.
 */
export const CASES_FOR_KIND: Record<Exclude<StepKind, 'external'>, readonly CaseId[]> = {
  'milestone.upsert': ['1', '4'],
  'milestone.edit': ['1'],
  'issue.set-milestone': ['2a', '2b', '3a', '3b'],
  'issue.labels': ['1'],
  'issue.create': ['4'],
  'comment.upsert': ['1', '4'],
};

/** A case's classification from its attempts: any negative → negative; all positive → positive. */
export function combine(classifications: readonly Classification[]): Classification {
  if (classifications.includes('negative')) return 'negative';
  if (classifications.length > 0 && classifications.every((c) => c === 'positive')) return 'positive';
  return 'inconclusive';
}

/** Schema problems of a parsed evidence value, one line each (empty when valid). */
export function evidenceProblems(value: unknown): string[] {
  return schemaProblems(validateEvidenceSchema, value, 5);
}

export type KindVerdict =
  | { kind: StepKind; open: true; cases: readonly CaseId[] }
  | { kind: StepKind; open: false; cases: readonly CaseId[]; why: string };

/**
 * Which of `kinds` this evidence opens under `require-proof`, at `now` (the server clock), each with
 * why not: evidence missing or invalid, stale, or a covering case missing, negative or inconclusive.
 * `expectedApiUrl`, when given, must equal the evidence's API base URL (github.com evidence does not
 * open a GHES repository's gate, nor the reverse).
 */
export function evidenceVerdict(
  evidence: ProbeEvidence | undefined,
  kinds: readonly StepKind[],
  now: Date,
  expectedApiUrl?: string,
): KindVerdict[] {
  const closedAll = (why: string): KindVerdict[] =>
    kinds.map((kind) => ({ kind, open: false, cases: casesFor(kind), why }));
  if (evidence === undefined) return closedAll('no probe evidence is committed');
  if (expectedApiUrl !== undefined && stripSlash(evidence.api_url) !== stripSlash(expectedApiUrl)) {
    return closedAll(`the evidence was recorded against ${evidence.api_url}, not ${expectedApiUrl}`);
  }
  const finished = Date.parse(evidence.finished_at);
  const ageDays = (now.getTime() - finished) / 86_400_000;
  if (!Number.isFinite(ageDays) || ageDays > EVIDENCE_MAX_AGE_DAYS) {
    return closedAll(
      `the evidence finished at ${evidence.finished_at}, more than ${EVIDENCE_MAX_AGE_DAYS} days ago`,
    );
  }
  if (ageDays < -1) return closedAll(`the evidence finished at ${evidence.finished_at}, in the future`);
  const byId = new Map(evidence.cases.map((c) => [c.id, c.classification]));
  return kinds.map((kind): KindVerdict => {
    const cases = casesFor(kind);
    if (kind === 'external') return { kind, open: true, cases };
    const failing = cases
      .map((id) => [id, byId.get(id)] as const)
      .filter(([, classification]) => classification !== 'positive');
    if (failing.length === 0) return { kind, open: true, cases };
    return {
      kind,
      open: false,
      cases,
      why: failing
        .map(
          ([id, classification]) => `case ${id} ${classification === undefined ? 'missing' : classification}`,
        )
        .join(', '),
    };
  });
}

function casesFor(kind: StepKind): readonly CaseId[] {
  return kind === 'external' ? [] : CASES_FOR_KIND[kind];
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
