/**
 * The deterministic preview: identical plan, run ID and command prefix give identical Markdown bytes,
 * each step's full content shown with untrusted text escaped, ending with the exact approve command.
 */
import { bareHex, canonicalize, digest as digestOf } from '../canonical-json.js';
import type { MilestoneRef, MilestoneState, Plan, PlanStep } from '../plan/types.js';
import { truncateCodePoints } from '../untrusted-text.js';
import { APPROVE_HEADING, code, escapeInline, fencedBlock } from '../markdown.js';
import type { Assessment } from './assess.js';
import { renderAssessment } from './render-assessment.js';

export interface PreviewInput {
  plan: Plan;
  planDigest: string;
  runId: string;
  commandPrefix: string;
  /**
   * What the preview stage derived and read (base SHA, warnings, risk, gate): rendered as "What this
   * run asks". The later stages re-render the plan without it.
   */
  assessment?: Assessment;
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

/** A field of a step's content: a one-line value, or text shown line by line. */
interface ContentField {
  name: string;
  value: string;
  multiline: boolean;
}

/** Longest text shown per field, and shown open before it is collapsed. */
const MAX_FIELD_CODE_POINTS = 4000;
const MAX_FIELD_LINES = 120;
const OPEN_LINES = 12;
const OPEN_CHARACTERS = 800;

function milestoneTarget(ref: MilestoneRef | null): string {
  if (ref === null) return 'none (remove the milestone)';
  return 'number' in ref ? `#${ref.number}` : `the milestone keyed ${JSON.stringify(ref.key)}`;
}

function line(name: string, value: string): ContentField {
  return { name, value, multiline: false };
}

/** Plan text on one line, quoted, so spaces at either end and escapes are visible. */
function quoted(name: string, value: string): ContentField {
  return line(name, JSON.stringify(value));
}

function text(name: string, value: string): ContentField {
  return { name, value, multiline: true };
}

/** Everything a step will write, field by field: what an approver approves, not a hash of it. */
export function stepContent(step: PlanStep): ContentField[] {
  const fields: ContentField[] = [];
  const list = (name: string, values: readonly string[] | undefined): void => {
    if (values !== undefined && values.length > 0)
      fields.push(line(name, values.map((value) => JSON.stringify(value)).join(', ')));
  };
  switch (step.kind) {
    case 'milestone.upsert':
      fields.push(quoted('milestone key', step.key), quoted('title', step.title));
      if (step.state !== undefined) fields.push(line('state', step.state));
      if (step.due_on !== undefined) fields.push(line('due on', step.due_on));
      if (step.description !== undefined) fields.push(text('description', step.description));
      break;
    case 'milestone.edit':
      fields.push(line('milestone', milestoneTarget(step.milestone)));
      if (step.set.title !== undefined) fields.push(quoted('new title', step.set.title));
      if (step.set.state !== undefined) fields.push(line('new state', step.set.state));
      if (step.set.due_on !== undefined) fields.push(line('new due on', step.set.due_on ?? 'none'));
      if (step.set.description !== undefined) fields.push(text('new description', step.set.description));
      break;
    case 'issue.set-milestone':
      fields.push(line('issue', `#${step.issue}`), line('target milestone', milestoneTarget(step.milestone)));
      break;
    case 'issue.labels':
      fields.push(line('issue', `#${step.issue}`));
      list('add labels', step.add);
      list('remove labels', step.remove);
      break;
    case 'issue.create':
      fields.push(quoted('title', step.title));
      list('labels', step.labels);
      if (step.milestone !== undefined) fields.push(line('milestone', milestoneTarget(step.milestone)));
      fields.push(text('body', step.body ?? ''));
      break;
    case 'comment.upsert':
      fields.push(line('issue', `#${step.issue}`), quoted('comment key', step.key), text('body', step.body));
      break;
    case 'external':
      fields.push(quoted('target', step.target));
      if (step.parameters !== undefined)
        // Canonical key order (RFC 8785), so the same plan renders the same bytes whatever its key order.
        fields.push(text('parameters', JSON.stringify(JSON.parse(canonicalize(step.parameters)), null, 2)));
      break;
  }
  return fields;
}

/** `<!--` could otherwise carry a Writ hidden marker into the status comment; shown visibly altered. */
function defused(value: string): string {
  return value.replace(/<!--/g, '<\\!--');
}

/** The lines of one field inside the code block (long text cut, saying how much is not shown). */
function fieldLines(field: ContentField): string[] {
  if (!field.multiline) return [`${field.name}: ${defused(field.value).replace(/\r\n|\r|\n/g, '\\n')}`];
  const total = Array.from(field.value).length;
  const cut = truncateCodePoints(field.value, MAX_FIELD_CODE_POINTS);
  const all = defused(cut.text).split(/\r\n|\r|\n/);
  const shown = all.slice(0, MAX_FIELD_LINES);
  const header = `${field.name} (${total} characters, ${digestOf(field.value)}):`;
  const lines = [header, ...shown.map((entry) => (entry === '' ? '' : `  ${entry}`))];
  if (cut.truncated || shown.length < all.length) {
    lines.push(
      `  … cut here for the preview; the digest above (and the plan digest) covers all ${total} characters`,
    );
  }
  return lines;
}

/**
 * The step's content in a code block, where nothing renders: no Markdown, HTML, mention, image or
 * link, a fence longer than any backtick run inside, invisible and control characters shown as U+FFFD.
 * Long content is collapsed behind a `<details>` summary that holds no plan text.
 */
function renderStepContent(step: PlanStep, index: number): string[] {
  const body = stepContent(step).flatMap(fieldLines);
  const block = fencedBlock(body, 'text');
  const heading = `#### ${index + 1}. ${code(step.id)} · ${code(step.kind)}`;
  const summary =
    step.summary === undefined ? [] : ['', `Planner's summary: ${escapeInline(step.summary, 300)}`];
  const long = body.length > OPEN_LINES || body.join('\n').length > OPEN_CHARACTERS;
  if (!long) return [heading, ...summary, '', block, ''];
  return [
    heading,
    ...summary,
    '',
    `<details><summary>Show what step ${index + 1} writes (${body.length} lines)</summary>`,
    '',
    block,
    '',
    '</details>',
    '',
  ];
}

/**
 * Deterministic Markdown preview of a plan. The output depends only on its input (no clock, no
 * environment), so identical plan and state always render identical bytes.
 */
export function renderPreview({ plan, planDigest, runId, commandPrefix, assessment }: PreviewInput): string {
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
  if (assessment !== undefined) lines.push(...renderAssessment(assessment));
  lines.push('### Steps', '', '| # | Step | Kind | Change | Expected now |', '|---:|---|---|---|---|');
  plan.steps.forEach((step, index) => {
    lines.push(
      `| ${index + 1} | ${code(step.id)} | ${code(step.kind)} | ${describeChange(step)} | ${describeExpectation(step)} |`,
    );
  });
  lines.push(
    '',
    '### What each step writes',
    '',
    `The exact content the digest ${code(planDigest)} covers, step by step. Plan text is shown in code blocks, where nothing renders as Markdown, HTML, a mention, an image or a link; invisible and control characters show as \`\ufffd\`, and an HTML comment opener as \`<\\!--\`.`,
    '',
  );
  plan.steps.forEach((step, index) => lines.push(...renderStepContent(step, index)));
  lines.push(
    APPROVE_HEADING,
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
