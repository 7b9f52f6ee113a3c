/**
 * The work-request Issue Form as GitHub reads it (its form schema and the validation errors GitHub
 * documents for issue forms), rendered from the one field list the reader uses, and installed by
 * `writ init` like every other file it renders.
 */
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import validateManifest from '../../src/generated/writ-manifest-validator.js';
import { readIssueForm } from '../../src/plan/from-issue.js';
import { MANIFEST_PATH } from '../../src/setup/files.js';
import { planInit } from '../../src/setup/init.js';
import { INTAKE_FIELDS, ISSUE_FORM_PATH, renderIssueForm } from '../../src/setup/issue-form.js';

interface FormElement {
  type: string;
  id?: string;
  attributes: Record<string, unknown>;
  validations?: Record<string, unknown>;
}
interface Form {
  name: string;
  description: string;
  title?: string;
  body: FormElement[];
}

const rendered = renderIssueForm();
const form = parse(rendered.contents) as Form;
const inputs = form.body.filter((element) => element.type !== 'markdown');

/** Top-level keys GitHub's issue form syntax permits, and the attributes of each element type. */
const TOP_LEVEL = ['name', 'description', 'body', 'assignees', 'labels', 'title', 'projects', 'type'];
const ATTRIBUTES: Record<string, string[]> = {
  markdown: ['value'],
  textarea: ['label', 'description', 'placeholder', 'value', 'render'],
  input: ['label', 'description', 'placeholder', 'value'],
  dropdown: ['label', 'description', 'multiple', 'options', 'default'],
  checkboxes: ['label', 'description', 'options'],
};

describe('the work-request Issue Form', () => {
  it('is rendered at .github/ISSUE_TEMPLATE/writ-request.yml, deterministically', () => {
    expect(rendered.path).toBe('.github/ISSUE_TEMPLATE/writ-request.yml');
    expect(rendered.path).toBe(ISSUE_FORM_PATH);
    expect(renderIssueForm()).toEqual(rendered);
    expect(rendered.contents.endsWith('\n')).toBe(true);
  });

  it('has the required top-level keys as non-empty strings and no other key', () => {
    for (const key of Object.keys(form)) expect([key, TOP_LEVEL.includes(key)]).toEqual([key, true]);
    expect(typeof form.name).toBe('string');
    expect(form.name.trim()).not.toBe('');
    expect(form.description.trim()).not.toBe('');
    expect(Array.isArray(form.body)).toBe(true);
  });

  it('holds the fields of the operations reference §4.2, in the order of INTAKE_FIELDS', () => {
    expect(inputs.map((element) => [element.type, element.id, element.attributes.label])).toEqual(
      INTAKE_FIELDS.map((field) => [field.type, field.id, field.label]),
    );
    expect(inputs.map((element) => element.id)).toEqual([
      'objective',
      'task-class',
      'expected-outputs',
      'allowed-paths',
      'forbidden-paths',
      'dependencies',
      'acceptance-checks',
      'risk-hint',
      'data-sensitivity',
      'review-gate',
      'connector-hint',
    ]);
    expect(inputs.filter((element) => element.validations?.required === true).map((e) => e.id)).toEqual([
      'objective',
      'task-class',
    ]);
  });

  it('passes the checks GitHub documents for issue forms', () => {
    const ids = inputs.map((element) => element.id as string);
    const labels = inputs.map((element) => element.attributes.label as string);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(labels).size).toBe(labels.length);
    // Labels too similar: GitHub parameterizes them (Rails) and refuses two that collide.
    const parameterized = labels.map((label) => label.toLowerCase().replace(/[^a-z0-9_-]+/g, '-'));
    expect(new Set(parameterized).size).toBe(labels.length);
    for (const element of form.body) {
      expect(Object.keys(ATTRIBUTES)).toContain(element.type);
      for (const key of Object.keys(element))
        expect(['type', 'id', 'attributes', 'validations']).toContain(key);
      for (const key of Object.keys(element.attributes)) expect(ATTRIBUTES[element.type]).toContain(key);
      if (element.type === 'markdown') {
        expect(typeof element.attributes.value).toBe('string');
        continue;
      }
      expect(element.id).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(typeof element.attributes.label).toBe('string');
      // GitHub refuses input and textarea labels with words such as "password".
      expect(String(element.attributes.label)).not.toMatch(/password|secret|token|credential/i);
      if (element.type === 'dropdown') {
        const options = element.attributes.options as unknown[];
        expect(options.length).toBeGreaterThan(0);
        expect(options.every((option) => typeof option === 'string' && option.trim() !== '')).toBe(true);
        expect(new Set(options).size).toBe(options.length);
        // "None" is reserved: GitHub adds it to a dropdown that is not required.
        expect(options.some((option) => String(option).toLowerCase() === 'none')).toBe(false);
      }
    }
  });

  it('is read back by writ plan from-issue: a body GitHub renders from the YAML is a valid request', () => {
    // GitHub's rendering of a submission: each input's label as a heading, then the answer.
    const answer = (element: FormElement): string =>
      element.type === 'dropdown'
        ? String((element.attributes.options as string[])[0])
        : element.id === 'connector-hint'
          ? 'docs-writer'
          : element.id?.endsWith('paths') === true
            ? 'docs/**'
            : `An answer to ${String(element.attributes.label)}.`;
    const body = inputs
      .map((element) => `### ${String(element.attributes.label)}\n\n${answer(element)}`)
      .join('\n\n');
    const request = readIssueForm(body);
    expect(Object.keys(request)).toEqual(INTAKE_FIELDS.map((field) => field.id));
    expect(request['task-class']).toEqual({ kind: 'choice', keyword: 'documentation' });
    expect(request['allowed-paths']).toEqual({ kind: 'paths', paths: ['docs/**'] });
  });
});

describe('writ init installs the form', () => {
  const request = (state: Record<string, string> = {}) => ({
    ref: 'a'.repeat(40),
    defaultWritRepository: 'writ-actions/writ',
    versionOf: () => 'v0.2.0',
    // The one release tag of this test, on the pinned commit.
    resolveTag: (tag: string): string => {
      if (tag !== 'v0.2.0') throw new Error(`no tag ${tag} in this test`);
      return 'a'.repeat(40);
    },
    writeConflicts: false,
    stateOf: (path: string) =>
      state[path] === undefined ? { kind: 'missing' as const } : { kind: 'file' as const, text: state[path] },
  });

  it('creates it like every other file, and records it in the manifest (valid against its schema)', () => {
    const plan = planInit(request());
    const operation = plan.operations.find((entry) => entry.path === ISSUE_FORM_PATH);
    expect(operation?.action).toBe('create');
    expect(operation?.contents).toBe(rendered.contents);
    const manifest = JSON.parse(
      plan.operations.find((entry) => entry.path === MANIFEST_PATH)?.contents ?? '',
    );
    expect(manifest.files[ISSUE_FORM_PATH]).toBe(operation?.sha256);
    expect(validateManifest(manifest)).toBe(true);
  });

  it('reports an edited form as a conflict and leaves it alone, and an unchanged one as unchanged', () => {
    const first = planInit(request());
    const manifest = first.operations.find((entry) => entry.path === MANIFEST_PATH)?.contents ?? '';
    const same = planInit(request({ [ISSUE_FORM_PATH]: rendered.contents, [MANIFEST_PATH]: manifest }));
    expect(same.operations.find((entry) => entry.path === ISSUE_FORM_PATH)?.action).toBe('unchanged');
    const edited = planInit(request({ [ISSUE_FORM_PATH]: 'name: mine\n', [MANIFEST_PATH]: manifest }));
    expect(edited.operations.find((entry) => entry.path === ISSUE_FORM_PATH)).toMatchObject({
      action: 'conflict',
      reason: 'changed since writ init wrote it',
    });
  });
});
