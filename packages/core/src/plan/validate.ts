/**
 * A plan's validation: the JSON Schema (the generated validator, its errors named by the offending
 * member), the rules the schema cannot say (unique step IDs, marker keys and milestone titles, milestone
 * references to earlier steps, the plan's own bounds) and the text rules; `malformed-plan` lists them all.
 */
import type { ErrorObject } from 'ajv';
import { WritError } from '../errors.js';
import validatePlanSchema from '../generated/plan-validator.js';
import { createKey } from './create-key.js';
import { containsSecret } from '../redact.js';
import { escapeUntrusted } from '../untrusted-text.js';
import { planTextProblems } from './text-rules.js';
import type { Plan, PlanProblem, PlanStep } from './types.js';

export type { PlanProblem } from './types.js';

function pointer(base: string, child: string | number): string {
  return `${base}/${String(child).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** Turns an ajv error into a problem whose path names the exact offending member. */
export function describeSchemaError(error: ErrorObject): PlanProblem {
  const base = error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { path: pointer(base, String(params.missingProperty)), message: 'is required' };
    case 'additionalProperties':
      return { path: pointer(base, String(params.additionalProperty)), message: 'is not allowed here' };
    case 'discriminator':
      return {
        path: pointer(base, String(params.tag)),
        message:
          params.error === 'mapping'
            ? 'must be one of the step kinds in plan.schema.json'
            : 'must be a string naming the step kind',
      };
    default:
      return { path: base === '' ? '/' : base, message: error.message ?? `fails ${error.keyword}` };
  }
}

/** Creates, as `bounds.max_creates` counts them, and the existing issues the steps name. */
export function stepCounts(steps: PlanStep[]): { creates: number; issues: Set<number> } {
  const issues = new Set<number>();
  let creates = 0;
  for (const step of steps) {
    if (step.kind === 'issue.create') creates += 1;
    if (step.kind === 'milestone.upsert' && step.expect?.exists !== true) creates += 1;
    if ('issue' in step && typeof step.issue === 'number') issues.add(step.issue);
  }
  return { creates, issues };
}

/** What the steps before this one used, each by the index of the step that first did. */
interface SeenSteps {
  ids: Map<string, number>;
  milestoneKeys: Map<string, number>;
  milestoneTitles: Map<string, number>;
  commentKeys: Map<string, number>;
  /** Marker keys by kind: a `writ-key` marker means one resource whichever kind wrote it. */
  keyKinds: Map<string, number>;
  createKeys: Map<string, number>;
}

/** One step's uniqueness checks against the steps before it, in the context of the whole plan. */
interface StepCheck {
  plan: Plan;
  step: PlanStep;
  index: number;
  seen: SeenSteps;
  problems: PlanProblem[];
}

/** A step by index and ID; an ID shaped like a secret is refused on its own and never shown. */
function named(plan: Plan, index: number): string {
  const id = plan.steps[index]?.id ?? '';
  return containsSecret(id) ? `/steps/${index}` : `/steps/${index} (${escapeUntrusted(id, 64)})`;
}

/** Records `value` as first used by this step, or reports the earlier step that used it. */
function firstUse(
  check: StepCheck,
  seen: Map<string, number>,
  value: string,
  problem: (earlier: number) => PlanProblem,
): void {
  const earlier = seen.get(value);
  if (earlier !== undefined) check.problems.push(problem(earlier));
  else seen.set(value, check.index);
}

function milestoneProblems(check: StepCheck): void {
  const { plan, step, index, seen } = check;
  if (step.kind !== 'milestone.upsert') return;
  firstUse(check, seen.milestoneKeys, step.key, (earlier) => ({
    path: `/steps/${index}/key`,
    message: `duplicates the key of an earlier milestone.upsert, ${named(plan, earlier)}`,
  }));
  // GitHub keeps one milestone per title; two upserts of one title would fight over it (compared
  // case-insensitively, the stricter reading, since GitHub does not document the comparison).
  firstUse(check, seen.milestoneTitles, step.title.normalize('NFC').toLowerCase(), (earlier) => ({
    path: `/steps/${index}/title`,
    message: `has the milestone title of ${named(plan, earlier)}; milestone titles are unique in a repository`,
  }));
}

function markerKeyProblems(check: StepCheck): void {
  const { plan, step, index, seen } = check;
  if (step.kind === 'comment.upsert') {
    firstUse(check, seen.commentKeys, `${step.issue}#${step.key}`, (earlier) => ({
      path: `/steps/${index}/key`,
      message: `duplicates the key of an earlier comment.upsert on this issue, ${named(plan, earlier)}`,
    }));
  }
  if (step.kind === 'milestone.upsert' || step.kind === 'comment.upsert') {
    const other = seen.keyKinds.get(step.key);
    const otherStep = other === undefined ? undefined : plan.steps[other];
    if (other !== undefined && otherStep !== undefined && otherStep.kind !== step.kind) {
      check.problems.push({
        path: `/steps/${index}/key`,
        message: `is also the marker key of ${named(plan, other)} (${otherStep.kind}); one key names one resource`,
      });
    } else if (other === undefined) seen.keyKinds.set(step.key, index);
  }
}

function issueProblems(check: StepCheck): void {
  const { plan, step, index, seen } = check;
  if (step.kind === 'issue.create') {
    // Two identical creates share one idempotency key: the second would find the first's issue.
    firstUse(check, seen.createKeys, createKey(step), (earlier) => ({
      path: `/steps/${index}`,
      message: `has the same idempotency key as ${named(plan, earlier)} (an identical issue.create)`,
    }));
  }
  if (step.kind === 'issue.labels' && step.add && step.remove) {
    const both = step.add.filter((label) => step.remove?.includes(label));
    if (both.length > 0)
      check.problems.push({ path: `/steps/${index}/remove`, message: 'repeats a label that add also names' });
  }
}

/** A milestone referenced by key must be upserted by an earlier step of the same plan. */
function referenceProblems(plan: Plan, problems: PlanProblem[]): void {
  const seenKeys = new Set<string>();
  plan.steps.forEach((step, index) => {
    const ref =
      step.kind === 'milestone.edit' || step.kind === 'issue.set-milestone' || step.kind === 'issue.create'
        ? step.milestone
        : undefined;
    if (ref && 'key' in ref && !seenKeys.has(ref.key)) {
      problems.push({
        path: `/steps/${index}/milestone/key`,
        message: 'names no milestone.upsert key of an earlier step',
      });
    }
    if (step.kind === 'milestone.upsert') seenKeys.add(step.key);
  });
}

/** The plan's own bounds: steps, creates and issues touched. */
function boundsProblems(plan: Plan, problems: PlanProblem[]): void {
  if (plan.steps.length > plan.bounds.max_steps) {
    problems.push({
      path: '/steps',
      message: `has ${plan.steps.length} steps, over bounds.max_steps ${plan.bounds.max_steps}`,
    });
  }
  const { creates, issues } = stepCounts(plan.steps);
  if (plan.bounds.max_creates !== undefined && creates > plan.bounds.max_creates) {
    problems.push({
      path: '/steps',
      message: `creates ${creates} resources, over bounds.max_creates ${plan.bounds.max_creates}`,
    });
  }
  if (plan.bounds.max_issues_touched !== undefined && issues.size > plan.bounds.max_issues_touched) {
    problems.push({
      path: '/steps',
      message: `touches ${issues.size} issues, over bounds.max_issues_touched ${plan.bounds.max_issues_touched}`,
    });
  }
}

/** Rules JSON Schema cannot say: unique step IDs and marker keys, references, bounds. */
function semanticProblems(plan: Plan): PlanProblem[] {
  const problems: PlanProblem[] = [];
  const seen: SeenSteps = {
    ids: new Map(),
    milestoneKeys: new Map(),
    milestoneTitles: new Map(),
    commentKeys: new Map(),
    keyKinds: new Map(),
    createKeys: new Map(),
  };
  plan.steps.forEach((step, index) => {
    const check: StepCheck = { plan, step, index, seen, problems };
    firstUse(check, seen.ids, step.id, (first) => ({
      path: `/steps/${index}/id`,
      message: `duplicates the id of /steps/${first}`,
    }));
    milestoneProblems(check);
    markerKeyProblems(check);
    issueProblems(check);
  });
  referenceProblems(plan, problems);
  boundsProblems(plan, problems);
  return problems;
}

/**
 * The problems of a candidate plan, schema first; empty when the plan is valid. The text rules (no
 * Writ marker, no secret, plan/text-rules.ts) hold for every string whether or not the schema passes.
 */
export function planProblems(value: unknown): PlanProblem[] {
  const text = planTextProblems(value);
  if (!validatePlanSchema(value)) {
    const seen = new Set<string>();
    const problems: PlanProblem[] = [];
    for (const error of validatePlanSchema.errors ?? []) {
      const problem = describeSchemaError(error);
      const key = `${problem.path}\u0000${problem.message}`;
      if (!seen.has(key)) {
        seen.add(key);
        problems.push(problem);
      }
    }
    return [...problems, ...text];
  }
  return [...semanticProblems(value as Plan), ...text];
}

export const MAX_REPORTED_PROBLEMS = 50;

/**
 * Validates a parsed plan; throws `malformed-plan` listing one problem per line with its JSON path.
 * A path can hold member names the plan chose, so each is escaped and bounded in the message.
 */
export function validatePlan(value: unknown): Plan {
  const problems = planProblems(value);
  if (problems.length === 0) return value as Plan;
  const shown = problems
    .slice(0, MAX_REPORTED_PROBLEMS)
    .map((p) => `  ${escapeUntrusted(p.path, 200)}: ${p.message}`);
  if (problems.length > shown.length) shown.push(`  … and ${problems.length - shown.length} more`);
  throw new WritError('malformed-plan', `the plan has ${problems.length} problem(s):\n${shown.join('\n')}`, {
    details: { problems: problems.length },
  });
}
