import type { ErrorObject } from 'ajv';
import { WritError } from '../errors.js';
import validatePlanSchema from '../generated/plan-validator.js';
import { escapeUntrusted } from '../untrusted-text.js';
import type { Plan, PlanStep } from './types.js';

/** One problem with a plan: the JSON pointer it is at and what is wrong there. */
export interface PlanProblem {
  path: string;
  message: string;
}

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

function stepCounts(steps: PlanStep[]): { creates: number; issues: Set<number> } {
  const issues = new Set<number>();
  let creates = 0;
  for (const step of steps) {
    if (step.kind === 'issue.create') creates += 1;
    if (step.kind === 'milestone.upsert' && step.expect?.exists !== true) creates += 1;
    if ('issue' in step && typeof step.issue === 'number') issues.add(step.issue);
  }
  return { creates, issues };
}

/** Rules JSON Schema cannot say: unique step IDs and marker keys, references, bounds. */
function semanticProblems(plan: Plan): PlanProblem[] {
  const problems: PlanProblem[] = [];
  const ids = new Map<string, number>();
  const milestoneKeys = new Set<string>();
  const commentKeys = new Map<string, number>();
  plan.steps.forEach((step, index) => {
    const first = ids.get(step.id);
    if (first !== undefined) {
      problems.push({ path: `/steps/${index}/id`, message: `duplicates the id of /steps/${first}` });
    } else {
      ids.set(step.id, index);
    }
    if (step.kind === 'milestone.upsert') {
      if (milestoneKeys.has(step.key)) {
        problems.push({
          path: `/steps/${index}/key`,
          message: 'duplicates the key of an earlier milestone.upsert',
        });
      }
      milestoneKeys.add(step.key);
    }
    if (step.kind === 'comment.upsert') {
      const scoped = `${step.issue}#${step.key}`;
      if (commentKeys.has(scoped)) {
        problems.push({
          path: `/steps/${index}/key`,
          message: 'duplicates the key of an earlier comment.upsert on this issue',
        });
      }
      commentKeys.set(scoped, index);
    }
    if (step.kind === 'issue.labels' && step.add && step.remove) {
      const both = step.add.filter((label) => step.remove?.includes(label));
      if (both.length > 0)
        problems.push({ path: `/steps/${index}/remove`, message: 'repeats a label that add also names' });
    }
  });
  // A milestone referenced by key must be upserted by an earlier step of the same plan.
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
  return problems;
}

/** The problems of a candidate plan, schema first; empty when the plan is valid. */
export function planProblems(value: unknown): PlanProblem[] {
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
    return problems;
  }
  return semanticProblems(value as Plan);
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
