/**
 * The fields of the Writ work-request Issue Form (the operations reference §4.2), defined once: the
 * form is rendered from them (setup/issue-form.ts, installed by `writ init --github`) and a submitted
 * form is read by them (plan/from-issue.ts), so the form and its reader cannot drift apart. A field is
 * either free text, which only ever becomes plan text, or a choice from a closed list, mapped through
 * `choices` to a fixed keyword. No field names a secret, a command, a permission, an administration
 * setting or merge authority.
 */
export const ISSUE_FORM_PATH = '.github/ISSUE_TEMPLATE/writ-request.yml';

/** The form's name in GitHub's template chooser, and the title prefix of the issues it opens. */
export const ISSUE_FORM_NAME = 'Writ work request';
export const ISSUE_FORM_TITLE_PREFIX = '[writ request] ';

/** One choice of a dropdown: what the requester sees, and the fixed keyword it maps to. */
export interface IntakeChoice {
  option: string;
  keyword: string;
}

interface FieldBase {
  /** The form element's `id` (GitHub: letters, digits, `-`, `_`) and the reader's key. */
  id: string;
  /** The label: GitHub renders each answer under `### <label>`, which is how the reader finds it. */
  label: string;
  description: string;
  required: boolean;
}

export interface TextField extends FieldBase {
  type: 'textarea' | 'input';
  placeholder: string;
  /** The longest value accepted, in code points. */
  maxLength: number;
  /** What the value is: prose, one repository path per line, or one connector name. */
  shape: 'prose' | 'paths' | 'name';
}

export interface ChoiceField extends FieldBase {
  type: 'dropdown';
  choices: readonly IntakeChoice[];
}

export type IntakeField = TextField | ChoiceField;

/** The fields of §4.2, in form order. */
export const INTAKE_FIELDS: readonly IntakeField[] = [
  {
    id: 'objective',
    type: 'textarea',
    label: 'Objective',
    description: 'What should be true when this work is done? One short paragraph.',
    placeholder: 'Document how to rotate the Writ app key.',
    required: true,
    maxLength: 4000,
    shape: 'prose',
  },
  {
    id: 'task-class',
    type: 'dropdown',
    label: 'Task class',
    description: 'The kind of work.',
    required: true,
    choices: [
      { option: 'Documentation', keyword: 'documentation' },
      { option: 'Bug fix', keyword: 'bug-fix' },
      { option: 'Feature', keyword: 'feature' },
      { option: 'Refactoring', keyword: 'refactoring' },
      { option: 'Maintenance', keyword: 'maintenance' },
      { option: 'Investigation', keyword: 'investigation' },
    ],
  },
  {
    id: 'expected-outputs',
    type: 'textarea',
    label: 'Expected outputs',
    description: 'What the work should produce (files, a pull request, a report).',
    placeholder: 'A new section in docs/setup.md.',
    required: false,
    maxLength: 2000,
    shape: 'prose',
  },
  {
    id: 'allowed-paths',
    type: 'textarea',
    label: 'Allowed paths',
    description:
      'One repository path or glob per line that the work may change. Workflows (.github/), Writ settings (.writ/) and CODEOWNERS cannot be requested here.',
    placeholder: 'docs/**',
    required: false,
    maxLength: 4000,
    shape: 'paths',
  },
  {
    id: 'forbidden-paths',
    type: 'textarea',
    label: 'Forbidden or sensitive paths',
    description: 'One repository path or glob per line that the work must not touch.',
    placeholder: 'src/billing/**',
    required: false,
    maxLength: 4000,
    shape: 'paths',
  },
  {
    id: 'dependencies',
    type: 'textarea',
    label: 'Dependencies',
    description: 'Issues or work this depends on, one per line (#123).',
    placeholder: '#123',
    required: false,
    maxLength: 2000,
    shape: 'prose',
  },
  {
    id: 'acceptance-checks',
    type: 'textarea',
    label: 'Acceptance checks',
    description: 'How a reviewer can tell the work is done. They are text for the reviewer, never run.',
    placeholder: 'The setup guide names every step of a key rotation.',
    required: false,
    maxLength: 4000,
    shape: 'prose',
  },
  {
    id: 'risk-hint',
    type: 'dropdown',
    label: 'Risk hint',
    description: "How risky you think this is. A hint only: the owner's policy decides the risk class.",
    required: false,
    choices: [
      { option: 'Low', keyword: 'low' },
      { option: 'Medium', keyword: 'medium' },
      { option: 'High', keyword: 'high' },
    ],
  },
  {
    id: 'data-sensitivity',
    type: 'dropdown',
    label: 'Data sensitivity and external processing',
    description: 'A hint only: what the work may read, and whether it may leave the repository.',
    required: false,
    choices: [
      { option: 'Public data, external processing allowed', keyword: 'public' },
      { option: 'Internal data, no external processing', keyword: 'internal' },
      { option: 'Confidential data, no external processing', keyword: 'confidential' },
    ],
  },
  {
    id: 'review-gate',
    type: 'dropdown',
    label: 'Review gate hint',
    description: 'A hint only: the approval rules in .writ/config.json decide who approves.',
    required: false,
    choices: [
      { option: 'Standard approval', keyword: 'standard' },
      { option: 'A second reviewer', keyword: 'second-reviewer' },
    ],
  },
  {
    id: 'connector-hint',
    type: 'input',
    label: 'Preferred connector',
    description: 'A hint only: the name of the connector you would like to do the work.',
    placeholder: 'docs-writer',
    required: false,
    maxLength: 64,
    shape: 'name',
  },
];
