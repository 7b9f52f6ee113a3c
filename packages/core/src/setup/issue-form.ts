/**
 * The Writ work-request Issue Form, `.github/ISSUE_TEMPLATE/writ-request.yml`, rendered by
 * `writ init --github` from the one list of its fields (plan/intake-fields.ts), which is also how
 * `writ plan from-issue` (plan/from-issue.ts) reads a submitted form.
 *
 * Every field is untrusted (§4.2): the form's text says so to the requester, and the reader refuses
 * answers that reach for authority.
 */
import type { IntakeField } from '../plan/intake-fields.js';
import {
  INTAKE_FIELDS,
  ISSUE_FORM_NAME,
  ISSUE_FORM_PATH,
  ISSUE_FORM_TITLE_PREFIX,
} from '../plan/intake-fields.js';
import type { RenderedFile } from './types.js';

export { INTAKE_FIELDS, ISSUE_FORM_PATH } from '../plan/intake-fields.js';

const INTRO = [
  'A request for work that Writ previews and a maintainer approves before anything is written.',
  'Every answer is treated as untrusted text: it describes the work and can never grant access, name a secret, run a command, change permissions or settings, or merge anything. Answers that try to are refused. Do not paste credentials or personal data.',
].join('\n\n');

/** A YAML double-quoted scalar (JSON's string syntax is a subset of it). */
function scalar(text: string): string {
  return JSON.stringify(text);
}

function renderField(field: IntakeField): string[] {
  const lines = [`  - type: ${field.type}`, `    id: ${field.id}`, '    attributes:'];
  lines.push(`      label: ${scalar(field.label)}`, `      description: ${scalar(field.description)}`);
  if (field.type === 'dropdown') {
    lines.push('      multiple: false', '      options:');
    for (const choice of field.choices) lines.push(`        - ${scalar(choice.option)}`);
  } else {
    lines.push(`      placeholder: ${scalar(field.placeholder)}`);
  }
  lines.push('    validations:', `      required: ${field.required ? 'true' : 'false'}`);
  return lines;
}

/** The Issue Form's YAML (GitHub's form schema), rendered from `INTAKE_FIELDS`. */
export function renderIssueForm(): RenderedFile {
  const lines = [
    '# Writ: the work-request Issue Form, rendered by writ init --github.',
    '# `writ plan from-issue` turns a submitted form into a plan (docs/intake.md). Its reader finds each',
    '# answer by its label: rename a label and the reader refuses the form; add a field and it refuses it.',
    `name: ${scalar(ISSUE_FORM_NAME)}`,
    `description: ${scalar('Ask for work that Writ previews and a maintainer approves.')}`,
    `title: ${scalar(ISSUE_FORM_TITLE_PREFIX)}`,
    'body:',
    '  - type: markdown',
    '    attributes:',
    `      value: ${scalar(INTRO)}`,
    ...INTAKE_FIELDS.flatMap(renderField),
  ];
  return { path: ISSUE_FORM_PATH, contents: `${lines.join('\n')}\n` };
}
