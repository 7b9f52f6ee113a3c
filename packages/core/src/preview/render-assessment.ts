/**
 * The preview's "What this run asks" section: the base SHA, the risk class and why, the gate (who may
 * approve, whether a GitHub Environment applies), where the policy came from, and every warning with
 * its code. Deterministic: it depends only on the assessment.
 */
import { code, escapeInline } from '../markdown.js';
import type { Assessment, PreviewReadings } from './assess.js';
import { DEFAULT_RISK } from './assess.js';

export const ASSESSMENT_HEADING = '### What this run asks';

/** Warnings listed one by one; the rest are counted (the `warnings` output and the run file hold all). */
export const MAX_LISTED_WARNINGS = 50;

function orList(values: readonly string[]): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} or ${values.at(-1) ?? ''}`;
}

function policyLine(policy: PreviewReadings['policy']): string {
  const path = code(policy.path);
  switch (policy.state) {
    case 'valid':
      return `${path} at the base commit`;
    case 'absent':
      return `${path} is absent at the base commit: \`require-proof\` for every kind, default risk rules`;
    case 'invalid':
      return `${path} at the base commit is **invalid**: persist keeps every kind closed`;
    case 'not-read':
      return `${path} not read (a dry run reads nothing of the repository): default risk rules`;
  }
}

function riskLine(risk: Assessment['risk']): string {
  const { high, medium } = DEFAULT_RISK;
  const source =
    risk.rules === 'policy'
      ? "by the `risk` rules of the owner's policy"
      : `by Writ's default rules (high: ${orList(high.warnings.map((w) => `warning ${code(w)}`))}, over ${high.creates_over} creates or ${high.steps_over} steps; medium: a ${orList(medium.kinds.map(code))} step, ${orList(medium.warnings.map((w) => `warning ${code(w)}`))}, or over ${medium.steps_over} steps)`;
  const why = risk.reasons.length === 0 ? 'no rule for medium or high matches' : risk.reasons.join('; ');
  return `**${risk.class}**: ${why} (${source})`;
}

/** The section's lines, ending with an empty line. */
export function renderAssessment(assessment: Assessment): string[] {
  const { readings, warnings, risk } = assessment;
  const { base, gate } = readings;
  const lines = [
    ASSESSMENT_HEADING,
    '',
    '| | |',
    '|---|---|',
    base === null
      ? '| Base | not read: a dry run reads nothing of the repository |'
      : `| Base | ${code(base.branch)} at ${code(base.sha)} when this preview ran |`,
    `| Risk | ${riskLine(risk)} |`,
    `| Approval | one approve comment, by an account whose live repository role is ${orList(gate.roles.map(code))} |`,
    gate.environment === null
      ? '| Environment | none: the approve comment is the only gate before the writing jobs |'
      : `| Environment | the writing jobs run in the GitHub Environment “${escapeInline(gate.environment, 255)}”: its protection rules (required reviewers) must pass too |`,
    `| Policy | ${policyLine(readings.policy)} |`,
    '',
  ];
  if (warnings.length === 0) return [...lines, 'No warnings.', ''];
  lines.push(`Warnings (${warnings.length}):`, '');
  for (const warning of warnings.slice(0, MAX_LISTED_WARNINGS))
    lines.push(`- ${code(warning.code)}: ${warning.text}`);
  if (warnings.length > MAX_LISTED_WARNINGS)
    lines.push(
      `- … and ${warnings.length - MAX_LISTED_WARNINGS} more, listed with their codes and steps in the \`warnings\` output`,
    );
  lines.push('');
  return lines;
}
