/**
 * What the run's project item shows (operations spec §13): six short values from a fixed vocabulary,
 * derived from the run's ledger record alone, so the same ledger state always gives the same values.
 * Nothing a planner or a commenter wrote reaches them: the state, risk and decision are ledger enums,
 * the blocker summary is catalogue-shaped codes and step IDs (anything else is dropped), and the
 * milestone is the run's step progress (the plan's milestone titles are plan text and are left out).
 * The projection is presentation: nothing here is ever read back as input.
 */
import type { RunFile } from '../ledger/types.js';

export const PROJECT_VALUE_KEYS = [
  'state',
  'risk',
  'verification',
  'decision',
  'blockers',
  'milestone',
] as const;
export type ProjectValueKey = (typeof PROJECT_VALUE_KEYS)[number];
export type ProjectValues = Record<ProjectValueKey, string>;

/**
 * The field each value is written to, by name. GitHub gives every project built-in `Status` and `Milestone` fields (not writable as text),
 * so Writ's own names differ from them.
 */
export const DEFAULT_FIELD_NAMES: Readonly<ProjectValues> = {
  state: 'Writ state',
  risk: 'Risk',
  verification: 'Verification',
  decision: 'Decision',
  blockers: 'Blockers',
  milestone: 'Writ milestone',
};

/** The single-select option names a project needs for each value with a fixed vocabulary. */
export const PROJECT_VOCABULARY = {
  state: ['proposed', 'approved', 'running', 'completed', 'failed', 'cancelled', 'needs-reconciliation'],
  risk: ['low', 'medium', 'high', 'unknown'],
  verification: ['not-started', 'in-progress', 'verified', 'needs-reconciliation', 'conflict', 'failed'],
  decision: ['awaiting-approval', 'approved', 'cancelled', 'not-approved', 'awaiting-reconciliation'],
} as const satisfies Partial<Record<ProjectValueKey, readonly string[]>>;

/** A code or a step ID as the summary may show it: a short token of safe characters, else nothing. */
const TOKEN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** The blocker summary's bound (GitHub's text fields hold more; a summary is a glance). */
const MAX_BLOCKERS = 200;

function verification(run: RunFile): string {
  if (run.state === 'completed') return 'verified';
  if (run.state === 'needs-reconciliation') return 'needs-reconciliation';
  if (run.steps.some((step) => step.status === 'conflict')) return 'conflict';
  if (run.state === 'failed' || run.steps.some((step) => step.status === 'failed')) return 'failed';
  return run.steps.some((step) => step.status !== 'pending') ? 'in-progress' : 'not-started';
}

function decision(run: RunFile): string {
  if (run.state === 'proposed') return 'awaiting-approval';
  if (run.state === 'cancelled' || run.cancelled_by != null) return 'cancelled';
  if (run.state === 'needs-reconciliation') return 'awaiting-reconciliation';
  return run.approval === null ? 'not-approved' : 'approved';
}

function blockers(run: RunFile): string {
  const parts: string[] = [];
  const add = (part: string): void => {
    if (!parts.includes(part)) parts.push(part);
  };
  if (run.stop_reason !== null && TOKEN.test(run.stop_reason)) add(run.stop_reason);
  for (const blocker of run.blockers) if (TOKEN.test(blocker)) add(blocker);
  for (const step of run.steps) {
    if (step.status !== 'claimed' && step.status !== 'conflict' && step.status !== 'failed') continue;
    if (!TOKEN.test(step.id)) continue;
    const reason = step.evidence?.error_code ?? null;
    add(reason !== null && TOKEN.test(reason) ? `${step.id}:${reason}` : `${step.id}:${step.status}`);
  }
  if (parts.length === 0) return 'none';
  let summary = '';
  for (const part of parts) {
    const next = summary === '' ? part : `${summary}, ${part}`;
    if (next.length > MAX_BLOCKERS) return `${summary}, …`;
    summary = next;
  }
  return summary;
}

/** The six values of the run's project item. */
export function projectValues(run: RunFile): ProjectValues {
  const done = run.steps.filter((step) => step.status === 'done').length;
  return {
    state: run.state,
    risk: run.preview?.risk ?? 'unknown',
    verification: verification(run),
    decision: decision(run),
    blockers: blockers(run),
    milestone: `${done}/${run.steps.length} steps done`,
  };
}
