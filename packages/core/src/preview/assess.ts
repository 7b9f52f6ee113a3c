/**
 * What a preview states beyond the plan itself (issue 32): the warnings derived from the plan and the
 * owner's policy, the risk class the policy's `risk` rules give, and the gate the run needs. Pure
 * functions of their inputs (the stage reads the default branch, preview/context.ts), so the preview
 * stays deterministic: the same plan and the same readings render the same bytes.
 *
 * Every warning's sentence is Markdown, and every piece of plan text in it went through `escapeInline`.
 */
import { code, escapeInline } from '../markdown.js';
import type { MilestoneRef, Plan, PlanStep, PlanWrites, StepKind } from '../plan/types.js';
import { stepCounts } from '../plan/validate.js';
import type { WritPolicy } from '../setup/policy.js';

/** The stable warning codes, in the order the preview lists them. */
export const WARNING_CODES = [
  'policy-invalid',
  'base-moved',
  'write-outside-scope',
  'many-creates',
  'kind-closed-by-policy',
] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

export interface PreviewWarning {
  code: WarningCode;
  /** The step it is about (a plan step ID: `[a-z0-9._-]`), or null for the whole plan. */
  step: string | null;
  /** One plain sentence, Markdown, plan text escaped. */
  text: string;
}

export type RiskClass = 'low' | 'medium' | 'high';

/** One rule of `.writ/policy.json` `risk`: it matches a plan when any of its conditions holds. */
export interface RiskRule {
  kinds?: StepKind[];
  warnings?: WarningCode[];
  steps_over?: number;
  creates_over?: number;
}

export interface RiskPolicy {
  many_creates?: number;
  high?: RiskRule;
  medium?: RiskRule;
}

/** The policy file as the preview reads it: the persistence policy and its optional `risk` section. */
export type PreviewPolicy = WritPolicy & { risk?: RiskPolicy };

const DEFAULT_HIGH = {
  warnings: ['policy-invalid', 'write-outside-scope'],
  creates_over: 50,
  steps_over: 200,
} satisfies RiskRule;
const DEFAULT_MEDIUM = {
  kinds: ['milestone.edit', 'external'],
  warnings: ['base-moved', 'many-creates'],
  steps_over: 20,
} satisfies RiskRule;

/** The rules a policy without a `risk` section (or without one of its keys) gets. */
export const DEFAULT_RISK = { many_creates: 10, high: DEFAULT_HIGH, medium: DEFAULT_MEDIUM };

/** A `require-proof` kind the persist gate keeps closed now, and why (probe/evidence.ts's verdict). */
export interface ClosedKind {
  kind: StepKind;
  why: string;
}

/** What the stage read of the repository; null everywhere in a dry run, which reads nothing. */
export interface PreviewReadings {
  /** The default branch and its head commit when the preview ran. */
  base: { branch: string; sha: string } | null;
  /** The policy file: its path, and what was found (`not-read` in a dry run). */
  policy:
    | { path: string; state: 'valid'; policy: PreviewPolicy; closed: ClosedKind[] }
    | { path: string; state: 'absent'; closed: ClosedKind[] }
    | { path: string; state: 'invalid' }
    | { path: string; state: 'not-read' };
  /** Who may approve (the configured `allowed-roles`) and the GitHub Environment the writing jobs use. */
  gate: { roles: readonly string[]; environment: string | null };
}

/** A dry run states the gate it was given and reads nothing else. */
export function dryRunReadings(policyPath: string, gate: PreviewReadings['gate']): PreviewReadings {
  return { base: null, policy: { path: policyPath, state: 'not-read' }, gate };
}

export interface Assessment {
  readings: PreviewReadings;
  warnings: PreviewWarning[];
  risk: { class: RiskClass; reasons: string[]; rules: 'policy' | 'default' };
}

function stepLabel(step: PlanStep): string {
  return `Step ${code(step.id)}`;
}

function quotedList(values: readonly string[]): string {
  return values.map((value) => `“${escapeInline(value, 50)}”`).join(', ');
}

/** A milestone reference as `scope.writes.milestones` names it: a number, or a marker key. */
function milestoneName(ref: MilestoneRef): number | string {
  return 'number' in ref ? ref.number : ref.key;
}

function milestoneShown(name: number | string): string {
  return typeof name === 'number' ? `#${name}` : `keyed “${escapeInline(name, 100)}”`;
}

/** What one step writes, per dimension of `scope.writes`. */
function stepWrites(step: PlanStep): { issues: number[]; labels: string[]; milestones: (number | string)[] } {
  switch (step.kind) {
    case 'milestone.upsert':
      return { issues: [], labels: [], milestones: [step.key] };
    case 'milestone.edit':
      return { issues: [], labels: [], milestones: [milestoneName(step.milestone)] };
    case 'issue.set-milestone':
      return {
        issues: [step.issue],
        labels: [],
        milestones: step.milestone === null ? [] : [milestoneName(step.milestone)],
      };
    case 'issue.labels':
      return { issues: [step.issue], labels: [...(step.add ?? []), ...(step.remove ?? [])], milestones: [] };
    case 'issue.create':
      return {
        issues: [],
        labels: step.labels ?? [],
        milestones: step.milestone === undefined ? [] : [milestoneName(step.milestone)],
      };
    case 'comment.upsert':
      return { issues: [step.issue], labels: [], milestones: [] };
    case 'external':
      return { issues: [], labels: [], milestones: [] };
  }
}

/** One `write-outside-scope` warning per step and dimension it leaves; none when the plan declares none. */
export function scopeWarnings(steps: readonly PlanStep[], writes: PlanWrites | undefined): PreviewWarning[] {
  if (writes === undefined) return [];
  const warnings: PreviewWarning[] = [];
  const warn = (step: PlanStep, what: string, list: string): void => {
    warnings.push({
      code: 'write-outside-scope',
      step: step.id,
      text: `${stepLabel(step)} ${what}, outside the plan's declared ${code(`scope.writes.${list}`)}.`,
    });
  };
  for (const step of steps) {
    if (writes.kinds !== undefined && !writes.kinds.includes(step.kind)) {
      warn(step, `is of the kind ${code(step.kind)}`, 'kinds');
    }
    const touched = stepWrites(step);
    const issues = writes.issues;
    const outIssues = issues === undefined ? [] : touched.issues.filter((n) => !issues.includes(n));
    if (outIssues.length > 0)
      warn(step, `writes to issue ${outIssues.map((n) => `#${n}`).join(', ')}`, 'issues');
    const labels = writes.labels;
    const outLabels = labels === undefined ? [] : touched.labels.filter((label) => !labels.includes(label));
    if (outLabels.length > 0) warn(step, `writes the label ${quotedList([...new Set(outLabels)])}`, 'labels');
    const milestones = writes.milestones;
    const outMilestones =
      milestones === undefined ? [] : touched.milestones.filter((name) => !milestones.includes(name));
    if (outMilestones.length > 0)
      warn(step, `writes the milestone ${outMilestones.map(milestoneShown).join(', ')}`, 'milestones');
  }
  return warnings;
}

/** The many-creates threshold: the policy's `risk.many_creates`, else the default. */
function manyCreates(policy: PreviewPolicy | undefined): number {
  return policy?.risk?.many_creates ?? DEFAULT_RISK.many_creates;
}

/** Every warning of a plan under these readings, in WARNING_CODES order, then plan order. */
export function deriveWarnings(plan: Plan, readings: PreviewReadings): PreviewWarning[] {
  const warnings: PreviewWarning[] = [];
  const { policy, base } = readings;
  if (policy.state === 'invalid') {
    warnings.push({
      code: 'policy-invalid',
      step: null,
      text: `The policy file ${code(policy.path)} on the default branch is invalid, so persist keeps every step kind closed and this risk class uses the default rules.`,
    });
  }
  if (base !== null && plan.scope.base_sha !== undefined && plan.scope.base_sha !== base.sha) {
    warnings.push({
      code: 'base-moved',
      step: null,
      text: `The plan was made at ${code(plan.scope.base_sha)}, but ${code(base.branch)} is now at ${code(base.sha)}: what the planner read may have changed since.`,
    });
  }
  warnings.push(...scopeWarnings(plan.steps, plan.scope.writes));
  const threshold = manyCreates(policy.state === 'valid' ? policy.policy : undefined);
  const { creates } = stepCounts(plan.steps);
  if (creates > threshold) {
    warnings.push({
      code: 'many-creates',
      step: null,
      text: `The plan creates up to ${creates} issues and milestones, more than the ${threshold} the policy's ${code('risk.many_creates')} allows without a warning.`,
    });
  }
  if (policy.state === 'valid' || policy.state === 'absent') {
    for (const closed of policy.closed) {
      const steps = plan.steps.filter((step) => step.kind === closed.kind);
      const first = steps[0];
      if (first === undefined) continue;
      warnings.push({
        code: 'kind-closed-by-policy',
        step: first.id,
        text: `${steps.length} ${code(closed.kind)} step${steps.length === 1 ? '' : 's'}: the owner's policy keeps the kind closed (\`require-proof\`: ${escapeInline(closed.why, 200)}), so persist will refuse to write ${steps.length === 1 ? 'it' : 'them'} until it opens.`,
      });
    }
  }
  return warnings;
}

/** Why a rule matches the plan (trusted text: kinds, codes and numbers), empty when it does not. */
export function ruleMatches(rule: RiskRule, plan: Plan, warnings: readonly PreviewWarning[]): string[] {
  const reasons: string[] = [];
  for (const kind of rule.kinds ?? []) {
    const count = plan.steps.filter((step) => step.kind === kind).length;
    if (count > 0) reasons.push(`${count} ${code(kind)} step${count === 1 ? '' : 's'}`);
  }
  for (const warning of rule.warnings ?? []) {
    if (warnings.some((w) => w.code === warning)) reasons.push(`warning ${code(warning)}`);
  }
  if (rule.steps_over !== undefined && plan.steps.length > rule.steps_over)
    reasons.push(`${plan.steps.length} steps, over ${rule.steps_over}`);
  const { creates } = stepCounts(plan.steps);
  if (rule.creates_over !== undefined && creates > rule.creates_over)
    reasons.push(`up to ${creates} creates, over ${rule.creates_over}`);
  return reasons;
}

/** The risk class: `high` when its rule matches, else `medium` when its rule matches, else `low`. */
export function classifyRisk(
  plan: Plan,
  warnings: readonly PreviewWarning[],
  policy: PreviewPolicy | undefined,
): Assessment['risk'] {
  const rules = policy?.risk === undefined ? 'default' : 'policy';
  const high = ruleMatches(policy?.risk?.high ?? DEFAULT_RISK.high, plan, warnings);
  if (high.length > 0) return { class: 'high', reasons: high, rules };
  const medium = ruleMatches(policy?.risk?.medium ?? DEFAULT_RISK.medium, plan, warnings);
  if (medium.length > 0) return { class: 'medium', reasons: medium, rules };
  return { class: 'low', reasons: [], rules };
}

/** The warnings and the risk class of a plan under what the stage read. */
export function assessPlan(plan: Plan, readings: PreviewReadings): Assessment {
  const warnings = deriveWarnings(plan, readings);
  const policy = readings.policy.state === 'valid' ? readings.policy.policy : undefined;
  return { readings, warnings, risk: classifyRisk(plan, warnings, policy) };
}
