import { bareHex, digest as digestOf } from '../canonical-json.js';
import type { MilestoneRef, MilestoneState, Plan, PlanStep } from '../plan/types.js';
import { code, escapeInline } from './markdown.js';

export interface PreviewInput {
  plan: Plan;
  planDigest: string;
  runId: string;
  commandPrefix: string;
}

/** The exact comment that approves this run: `<prefix>: approve <run_id> <64 lowercase hex>`. */
export function approveCommand(commandPrefix: string, runId: string, planDigest: string): string {
  return `${commandPrefix}: approve ${runId} ${bareHex(planDigest)}`;
}

function milestoneRef(ref: MilestoneRef | null): string {
  if (ref === null) return 'no milestone';
  return 'number' in ref ? `milestone #${ref.number}` : `milestone keyed ${code(ref.key)}`;
}

function milestoneState(state: MilestoneState | undefined): string[] {
  if (!state) return [];
  const parts: string[] = [];
  if (state.number !== undefined) parts.push(`#${state.number}`);
  if (state.title !== undefined) parts.push(`“${escapeInline(state.title, 80)}”`);
  if (state.state !== undefined) parts.push(state.state);
  if (state.description_digest !== undefined)
    parts.push(`description ${code(state.description_digest.slice(0, 19))}…`);
  return parts;
}

function labels(list: readonly string[] | undefined): string {
  if (!list || list.length === 0) return 'none';
  return list.map((label) => `“${escapeInline(label, 50)}”`).join(', ');
}

function textStats(text: string | undefined): string {
  if (text === undefined || text.length === 0) return 'empty body';
  return `body of ${Array.from(text).length} characters, ${code(digestOf(text).slice(0, 19))}…`;
}

/** What a step will change, in one table cell. */
export function describeChange(step: PlanStep): string {
  switch (step.kind) {
    case 'milestone.upsert':
      return [
        `Upsert milestone “${escapeInline(step.title, 120)}” keyed ${code(step.key)}`,
        step.state ? `state ${step.state}` : '',
        step.due_on ? `due ${code(step.due_on)}` : '',
        step.description !== undefined ? `description: ${textStats(step.description)}` : '',
      ]
        .filter(Boolean)
        .join('; ');
    case 'milestone.edit': {
      const changes: string[] = [];
      if (step.set.title !== undefined) changes.push(`title → “${escapeInline(step.set.title, 120)}”`);
      if (step.set.state !== undefined) changes.push(`state → ${step.set.state}`);
      if (step.set.due_on !== undefined)
        changes.push(`due → ${step.set.due_on === null ? 'none' : code(step.set.due_on)}`);
      if (step.set.description !== undefined)
        changes.push(`description → ${textStats(step.set.description)}`);
      return `Edit ${milestoneRef(step.milestone)}: ${changes.join('; ')}`;
    }
    case 'issue.set-milestone':
      return `Set issue #${step.issue} to ${milestoneRef(step.milestone)}`;
    case 'issue.labels': {
      const changes: string[] = [];
      if (step.add?.length) changes.push(`add ${labels(step.add)}`);
      if (step.remove?.length) changes.push(`remove ${labels(step.remove)}`);
      return `Labels on #${step.issue}: ${changes.join('; ') || 'no change'}`;
    }
    case 'issue.create':
      return [
        `Create issue “${escapeInline(step.title, 120)}”`,
        textStats(step.body),
        step.labels?.length ? `labels ${labels(step.labels)}` : '',
        step.milestone ? milestoneRef(step.milestone) : '',
      ]
        .filter(Boolean)
        .join('; ');
    case 'comment.upsert':
      return `Upsert comment keyed ${code(step.key)} on #${step.issue}: ${textStats(step.body)}`;
    case 'external':
      return `External side effect on ${code(step.target)}${
        step.parameters ? ` with parameters ${code(digestOf(step.parameters).slice(0, 19))}…` : ''
      }`;
  }
}

/** The pre-state the planner observed, which a later write re-checks for drift. */
export function describeExpectation(step: PlanStep): string {
  switch (step.kind) {
    case 'milestone.upsert':
      if (!step.expect) return '—';
      return step.expect.exists ? ['exists', ...milestoneState(step.expect.milestone)].join(' ') : 'absent';
    case 'milestone.edit':
      return step.expect ? milestoneState(step.expect).join(' ') || '—' : '—';
    case 'issue.set-milestone': {
      const expect = step.expect;
      if (!expect) return '—';
      const parts: string[] = [];
      if (expect.milestone !== undefined)
        parts.push(expect.milestone === null ? 'no milestone' : `milestone #${expect.milestone}`);
      if (expect.state !== undefined) parts.push(expect.state);
      if (expect.labels !== undefined) parts.push(`labels ${labels(expect.labels)}`);
      if (expect.source_milestone) parts.push(`source ${milestoneState(expect.source_milestone).join(' ')}`);
      if (expect.target_milestone) parts.push(`target ${milestoneState(expect.target_milestone).join(' ')}`);
      return parts.join('; ') || '—';
    }
    case 'issue.labels':
      return step.expect?.labels !== undefined ? `labels ${labels(step.expect.labels)}` : '—';
    case 'issue.create':
      return step.expect ? 'absent' : '—';
    case 'comment.upsert':
      if (!step.expect) return '—';
      return step.expect.exists
        ? ['exists', step.expect.comment_id !== undefined ? `comment ${step.expect.comment_id}` : '']
            .filter(Boolean)
            .join(' ')
        : 'absent';
    case 'external':
      return '—';
  }
}

/**
 * Deterministic Markdown preview of a plan. The output depends only on its input (no clock, no
 * environment), so identical plan and state always render identical bytes.
 */
export function renderPreview({ plan, planDigest, runId, commandPrefix }: PreviewInput): string {
  const kinds = new Map<string, number>();
  for (const step of plan.steps) kinds.set(step.kind, (kinds.get(step.kind) ?? 0) + 1);
  const kindSummary = [...kinds.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([kind, count]) => `${count} × ${code(kind)}`)
    .join(', ');
  const bounds = [`max ${plan.bounds.max_steps} steps`];
  if (plan.bounds.max_creates !== undefined) bounds.push(`max ${plan.bounds.max_creates} creates`);
  if (plan.bounds.max_issues_touched !== undefined)
    bounds.push(`max ${plan.bounds.max_issues_touched} issues`);

  const lines: string[] = [
    `## Writ plan preview: ${escapeInline(plan.title, 200)}`,
    '',
    '| | |',
    '|---|---|',
    `| Run | ${code(runId)} |`,
    `| Digest | ${code(planDigest)} |`,
    `| Repository | ${code(plan.scope.repository)} |`,
  ];
  if (plan.scope.selection !== undefined)
    lines.push(`| Selection | ${escapeInline(plan.scope.selection, 200)} |`);
  if (plan.scope.base_sha !== undefined) lines.push(`| Base | ${code(plan.scope.base_sha)} |`);
  if (plan.planner) {
    lines.push(
      `| Planner | ${code(plan.planner.name)}${plan.planner.version ? ` ${code(plan.planner.version)}` : ''} |`,
    );
  }
  if (plan.evidence_digest !== undefined) lines.push(`| Evidence | ${code(plan.evidence_digest)} |`);
  lines.push(`| Steps | ${plan.steps.length} (${kindSummary}) |`, `| Bounds | ${bounds.join(', ')} |`, '');
  lines.push('### Steps', '', '| # | Step | Kind | Change | Expected now |', '|---:|---|---|---|---|');
  plan.steps.forEach((step, index) => {
    lines.push(
      `| ${index + 1} | ${code(step.id)} | ${code(step.kind)} | ${describeChange(step)} | ${describeExpectation(step)} |`,
    );
  });
  lines.push(
    '',
    '### Approve',
    '',
    'Nothing has been written. To approve exactly this plan, a repository writer comments this line, alone and unedited:',
    '',
    '```text',
    approveCommand(commandPrefix, runId, planDigest),
    '```',
    '',
  );
  return lines.join('\n');
}
