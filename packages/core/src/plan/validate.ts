import type { ErrorObject } from 'ajv';
import { WritError } from '../errors.js';
import validatePlanSchema from '../generated/plan-validator.js';
import { createKey } from '../persist/steps.js';
import { containsSecret } from '../redact.js';
import { escapeUntrusted } from '../untrusted-text.js';
import { planTextProblems } from './text-rules.js';
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
  const milestoneKeys = new Map<string, number>();
  const milestoneTitles = new Map<string, number>();
  const commentKeys = new Map<string, number>();
  /** Marker keys by kind: a `writ-key` marker means one resource whichever kind wrote it. */
  const keyKinds = new Map<string, number>();
  const createKeys = new Map<string, number>();
  /** A step by index and ID; an ID shaped like a secret is refused on its own and never shown. */
  const named = (index: number): string => {
    const id = plan.steps[index]?.id ?? '';
    return containsSecret(id) ? `/steps/${index}` : `/steps/${index} (${escapeUntrusted(id, 64)})`;
  };
  plan.steps.forEach((step, index) => {
    const first = ids.get(step.id);
    if (first !== undefined) {
      problems.push({ path: `/steps/${index}/id`, message: `duplicates the id of /steps/${first}` });
    } else {
      ids.set(step.id, index);
    }
    if (step.kind === 'milestone.upsert') {
      const earlier = milestoneKeys.get(step.key);
      if (earlier !== undefined) {
        problems.push({
          path: `/steps/${index}/key`,
          message: `duplicates the key of an earlier milestone.upsert, ${named(earlier)}`,
        });
      } else milestoneKeys.set(step.key, index);
      // GitHub keeps one milestone per title; two upserts of one title would fight over it (compared
      // case-insensitively, the stricter reading, since GitHub does not document the comparison).
      const title = step.title.normalize('NFC').toLowerCase();
      const sameTitle = milestoneTitles.get(title);
      if (sameTitle !== undefined) {
        problems.push({
          path: `/steps/${index}/title`,
          message: `has the milestone title of ${named(sameTitle)}; milestone titles are unique in a repository`,
        });
      } else milestoneTitles.set(title, index);
    }
    if (step.kind === 'comment.upsert') {
      const scoped = `${step.issue}#${step.key}`;
      const earlier = commentKeys.get(scoped);
      if (earlier !== undefined) {
        problems.push({
          path: `/steps/${index}/key`,
          message: `duplicates the key of an earlier comment.upsert on this issue, ${named(earlier)}`,
        });
      } else commentKeys.set(scoped, index);
    }
    if (step.kind === 'milestone.upsert' || step.kind === 'comment.upsert') {
      const other = keyKinds.get(step.key);
      const otherStep = other === undefined ? undefined : plan.steps[other];
      if (other !== undefined && otherStep !== undefined && otherStep.kind !== step.kind) {
        problems.push({
          path: `/steps/${index}/key`,
          message: `is also the marker key of ${named(other)} (${otherStep.kind}); one key names one resource`,
        });
      } else if (other === undefined) keyKinds.set(step.key, index);
    }
    if (step.kind === 'issue.create') {
      // Two identical creates share one idempotency key: the second would find the first's issue.
      const key = createKey(step);
      const earlier = createKeys.get(key);
      if (earlier !== undefined) {
        problems.push({
          path: `/steps/${index}`,
          message: `has the same idempotency key as ${named(earlier)} (an identical issue.create)`,
        });
      } else createKeys.set(key, index);
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
