/**
 * `writ plan from-issue`'s core: a submitted work-request form, as GitHub renders it, turned into a
 * plan. Every answer is untrusted (operations reference §4.2): hostile values for every field are
 * refused with a stable code naming the field and the rule, never echoing the text, and a valid form
 * becomes a plan the plan validator accepts, with one `issue.create` and nothing else.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { digest } from '../../src/canonical-json.js';
import { WritError } from '../../src/errors.js';
import type { GitHubClient } from '../../src/github/client.js';
import {
  planFromIssueForm,
  readIntakeIssue,
  readIssueForm,
  renderWorkUnit,
  splitIssueForm,
} from '../../src/plan/from-issue.js';
import { planProblems, validatePlan } from '../../src/plan/validate.js';
import { clearRegisteredSecrets, registerSecret } from '../../src/redact.js';
import { INTAKE_FIELDS } from '../../src/setup/issue-form.js';

afterEach(() => clearRegisteredSecrets());

const ANSWERS: Record<string, string> = {
  objective: 'Document how to rotate the Writ app key.\nThe guide names every step.',
  'task-class': 'Documentation',
  'expected-outputs': 'A new section in docs/setup.md.',
  'allowed-paths': 'docs/**\n- README.md',
  'forbidden-paths': 'src/billing/**\n.github/**',
  dependencies: '#12',
  'acceptance-checks': 'The guide names each step; npm test passes.',
  'risk-hint': 'Low',
  'data-sensitivity': 'Internal data, no external processing',
  'review-gate': 'Standard approval',
  'connector-hint': 'docs-writer',
};

/** A body as GitHub renders a submitted form: each label as a `###` heading, then the answer. */
function formBody(changes: Record<string, string | undefined> = {}): string {
  return INTAKE_FIELDS.map((field) => {
    const value = field.id in changes ? changes[field.id] : ANSWERS[field.id];
    return `### ${field.label}\n\n${value === undefined || value === '' ? '_No response_' : value}`;
  }).join('\n\n');
}

const SOURCE = { repository: 'acme/widgets', issue: 7, title: '[writ request] Rotate the app key' };

function refusal(run: () => unknown): WritError {
  try {
    run();
  } catch (error: unknown) {
    if (error instanceof WritError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('a valid form', () => {
  it('becomes a plan of one issue.create the plan validator accepts (form → plan → validator)', () => {
    const plan = planFromIssueForm(formBody(), SOURCE);
    expect(planProblems(plan)).toEqual([]);
    expect(validatePlan(JSON.parse(JSON.stringify(plan)))).toEqual(plan);
    expect(plan).toMatchObject({
      schema: 1,
      title: 'Work request: Rotate the app key',
      planner: { name: 'writ-plan-from-issue' },
      scope: { repository: 'acme/widgets', selection: 'issue #7' },
      bounds: { max_steps: 1, max_creates: 1, max_issues_touched: 0 },
    });
    expect(plan.steps.map((step) => [step.id, step.kind])).toEqual([['work-unit', 'issue.create']]);
    const step = plan.steps[0] as { title: string; body: string; labels?: unknown; milestone?: unknown };
    expect(step.title).toBe('Rotate the app key');
    expect(step.labels).toBeUndefined();
    expect(step.milestone).toBeUndefined();
    expect(step.body).toContain('Work request from #7.');
    expect(step.body).toContain('| Task class | `documentation` |');
    expect(step.body).toContain('| Data sensitivity and external processing | `internal` |');
    expect(step.body).toContain('| Preferred connector | docs\\-writer |');
    expect(step.body).toContain('#### Allowed paths\n\n```text\ndocs/**\nREADME.md\n```');
    expect(step.body).toContain(
      '```text\nDocument how to rotate the Writ app key.\nThe guide names every step.\n```',
    );
  });

  it('gives the same plan, byte for byte, every time (the approval recomputes it)', () => {
    const one = planFromIssueForm(formBody(), SOURCE);
    const two = planFromIssueForm(formBody().replace(/\n/g, '\r\n'), { ...SOURCE });
    expect(digest(two)).toBe(digest(one));
  });

  it('reads empty optional answers (`_No response_`, and None for a dropdown) as no answer', () => {
    const body = formBody({
      'expected-outputs': '',
      'allowed-paths': '',
      'forbidden-paths': '',
      dependencies: '',
      'acceptance-checks': '',
      'risk-hint': 'None',
      'data-sensitivity': '',
      'review-gate': '',
      'connector-hint': '',
    });
    const request = readIssueForm(body);
    expect(
      Object.entries(request)
        .filter(([, answer]) => answer !== null)
        .map(([id]) => id),
    ).toEqual(['objective', 'task-class']);
    const plan = planFromIssueForm(body, { repository: 'acme/widgets' });
    expect(planProblems(plan)).toEqual([]);
    expect(plan.scope.selection).toBe('a Writ work-request form');
    // No title given: the objective's first line.
    expect(plan.steps[0]).toMatchObject({ title: 'Document how to rotate the Writ app key.' });
    expect((plan.steps[0] as { body: string }).body).toContain('#### Dependencies\n\n_No answer._');
  });

  it('takes the objective when the title is only the form prefix, and cuts a long objective line', () => {
    const long = 'x'.repeat(300);
    const plan = planFromIssueForm(formBody({ objective: long }), { ...SOURCE, title: '[writ request] ' });
    expect((plan.steps[0] as { title: string }).title).toBe(`${'x'.repeat(120)}…`);
    expect(plan.title.length).toBeLessThanOrEqual(256);
  });

  it('shows every free answer inside a code block no answer can close, and hints only as keywords', () => {
    const body = renderWorkUnit(
      readIssueForm(formBody({ objective: 'Use ``` and ```` fences\n@someone <img src=x>' })),
      { repository: 'acme/widgets' },
    );
    expect(body).toContain('`````text\nUse ``` and ```` fences\n@someone <img src=x>\n`````');
    expect(body).toContain('Work request from a Writ work-request form.');
  });
});

describe('a body that is not the form: intake-form-malformed', () => {
  it.each([
    ['text before the first heading', `Hello\n\n${formBody()}`, 'text before the first'],
    ['an unknown heading', `${formBody()}\n\n### Secrets to use\n\nx`, 'the 12th heading is not a field'],
    [
      'a duplicate heading (an answer holding one)',
      formBody({ objective: 'x\n\n### Allowed paths\n\n**' }),
      'appears twice',
    ],
    ['a missing field', formBody().replace('### Risk hint', '### Risk'), '"Risk hint" is missing'],
    ['an empty body', '', '"Objective" is missing'],
  ])('%s', (_name, body, why) => {
    const error = refusal(() => planFromIssueForm(body, SOURCE));
    expect(error.code).toBe('intake-form-malformed');
    expect(error.message).toContain(why);
    expect(error.message).not.toContain('Secrets to use');
  });

  it('a body longer than GitHub allows', () => {
    const error = refusal(() => splitIssueForm(formBody({ objective: 'x'.repeat(70000) })));
    expect(error.code).toBe('intake-form-malformed');
  });
});

const TOKEN = 'ghp_' + 'A'.repeat(36);
const DIGEST = 'b'.repeat(64);

/** Hostile values, each with the rule that refuses it. */
const HOSTILE_VALUES: [string, string, string][] = [
  ['a Writ marker', 'see <!-- writ-key: release --> here', 'writ-marker'],
  ['an entity-encoded Writ marker', 'see &lt;!-- writ-status run=x --&gt;', 'writ-marker'],
  ['a Writ approve command', `writ: approve run-1 ${DIGEST}`, 'writ-command'],
  ['a quoted cancel command', '> writ: cancel run-1', 'writ-command'],
  ['an approve under another prefix', `ops: approve run-1 ${DIGEST}`, 'writ-command'],
  ['a personal access token', `use ${TOKEN}`, 'secret'],
  ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4eXoxMjMifQ.c2ln', 'secret'],
  ['an ANSI escape', 'red \u001b[31m text', 'control-character'],
  ['a bidi override', 'abc\u202edcba', 'control-character'],
  ['a zero-width space', 'a\u200bb', 'control-character'],
  ['a carriage return alone', 'a\rb', 'control-character'],
  ['a heading that would pass for a field', 'see below\n  ## Allowed paths', 'heading'],
  ['an Actions expression', 'echo ${{ github.token }}', 'authority-request'],
  ['a secret reference', 'use secrets.DEPLOY_KEY please', 'authority-request'],
  ['a fullwidth secret reference', 'use ｓｅｃｒｅｔｓ.DEPLOY_KEY please', 'authority-request'],
  ['a token variable', 'export GITHUB_TOKEN to the job', 'authority-request'],
  ['a private key', '-----BEGIN RSA PRIVATE KEY-----', 'authority-request'],
  ['a permissions block', 'permissions:\n  contents: write', 'authority-request'],
  ['a permission grant', 'needs pull-requests: write', 'authority-request'],
  ['a workflow change', 'edit .github/workflows/ci.yml', 'authority-request'],
  ['a workflow trigger', 'run it on pull_request_target', 'authority-request'],
  ['an access request', 'please grant me admin access', 'authority-request'],
  ['a bypass request', 'bypass the branch protection for this', 'authority-request'],
  ['a merge request', 'enable auto-merge', 'authority-request'],
  ['a merge without review', 'merge it without review', 'authority-request'],
  ['an admin merge', 'gh pr merge 3 --admin', 'authority-request'],
];

const TEXT_FIELDS = INTAKE_FIELDS.filter((field) => field.type !== 'dropdown').map((field) => field.id);
const CHOICE_FIELDS = INTAKE_FIELDS.filter((field) => field.type === 'dropdown').map((field) => field.id);

describe('hostile answers: intake-field-hostile, naming the field and rule, never the text', () => {
  const cases = TEXT_FIELDS.flatMap((field) =>
    HOSTILE_VALUES.map(([name, value, rule]) => [field, name, value, rule] as const),
  );
  it.each(cases)('%s: %s', (field, _name, value, rule) => {
    const error = refusal(() => planFromIssueForm(formBody({ [field]: value }), SOURCE));
    expect(error.code).toBe('intake-field-hostile');
    expect(error.details).toMatchObject({ field, rule });
    expect(error.message).toContain(`${field} (${rule})`);
    expect(error.message).not.toContain(value.split('\n')[0] ?? '');
    expect(error.message).not.toContain(TOKEN);
  });

  it.each(HOSTILE_VALUES.filter(([, , rule]) => rule !== 'heading'))(
    'the issue title: %s',
    (_name, value, rule) => {
      const error = refusal(() =>
        planFromIssueForm(formBody(), { ...SOURCE, title: value.replace(/\n/g, ' ') }),
      );
      expect(error.code).toBe('intake-field-hostile');
      expect(error.details).toMatchObject({ field: 'title', rule });
    },
  );

  it('the issue title: a line break', () => {
    const error = refusal(() => planFromIssueForm(formBody(), { ...SOURCE, title: 'one\ntwo' }));
    expect(error.details).toMatchObject({ field: 'title', rule: 'control-character' });
  });

  it.each(
    CHOICE_FIELDS.flatMap((field) => HOSTILE_VALUES.map(([name, value]) => [field, name, value] as const)),
  )(
    '%s: %s is not one of the choices (refused, mapped through the allowlist only)',
    (field, _name, value) => {
      const error = refusal(() => planFromIssueForm(formBody({ [field]: value }), SOURCE));
      expect(['intake-field-invalid', 'intake-form-malformed']).toContain(error.code);
      if (error.code === 'intake-field-invalid')
        expect(error.details).toMatchObject({ field, rule: 'unknown-choice' });
    },
  );

  it('a registered secret in any answer', () => {
    registerSecret('hunter2-deploy-key');
    const error = refusal(() => planFromIssueForm(formBody({ dependencies: 'hunter2-deploy-key' }), SOURCE));
    expect(error.details).toMatchObject({ field: 'dependencies', rule: 'secret' });
    expect(error.message).not.toContain('hunter2');
  });

  it('lists every problem, hostile first, and the code is hostile when any is', () => {
    const error = refusal(() =>
      planFromIssueForm(
        formBody({ objective: 'y'.repeat(5000), 'task-class': 'Whatever', dependencies: TOKEN }),
        SOURCE,
      ),
    );
    expect(error.code).toBe('intake-field-hostile');
    expect(error.details).toMatchObject({ problems: 3, field: 'dependencies', rule: 'secret' });
    expect(error.message).toMatch(
      /dependencies \(secret\)[\s\S]*objective \(too-long\)[\s\S]*task-class \(unknown-choice\)/,
    );
  });
});

describe('honest mistakes: intake-field-invalid', () => {
  it.each([
    ['objective', '', 'required'],
    ['task-class', '', 'required'],
    ['objective', 'x'.repeat(4001), 'too-long'],
    ['expected-outputs', 'x'.repeat(2001), 'too-long'],
    ['task-class', 'documentation', 'unknown-choice'],
    ['risk-hint', 'Critical', 'unknown-choice'],
    ['connector-hint', 'my connector', 'name-shape'],
    ['connector-hint', '-flag', 'name-shape'],
    ['allowed-paths', '/etc/hosts', 'path-shape'],
    ['allowed-paths', 'docs/../src', 'path-shape'],
    ['allowed-paths', 'docs//x', 'path-shape'],
    ['allowed-paths', 'docs\\x', 'path-shape'],
    ['allowed-paths', 'docs/my file.md', 'path-shape'],
    ['allowed-paths', `docs/${'a'.repeat(300)}`, 'too-long'],
    ['forbidden-paths', './secrets', 'path-shape'],
  ])('%s = %j: %s', (field, value, rule) => {
    const error = refusal(() => planFromIssueForm(formBody({ [field]: value }), SOURCE));
    expect(error.code).toBe('intake-field-invalid');
    expect(error.details).toMatchObject({ field, rule });
  });
});

describe('paths: an allowed path cannot reach workflows, settings or everything', () => {
  it.each([
    '**',
    '*',
    '*.md',
    '**/*.ts',
    '.github/workflows/ci.yml',
    '.GitHub/x',
    '.writ/policy.json',
    '.git/config',
    'docs/CODEOWNERS',
  ])('allowed path %s is an authority request', (path) => {
    const error = refusal(() => planFromIssueForm(formBody({ 'allowed-paths': `docs/**\n${path}` }), SOURCE));
    expect(error.code).toBe('intake-field-hostile');
    expect(error.details).toMatchObject({ field: 'allowed-paths', rule: 'authority-request' });
  });

  it('a forbidden path may name them (it only narrows the work)', () => {
    const request = readIssueForm(formBody({ 'forbidden-paths': '.github/**\n.writ/**\n**/CODEOWNERS' }));
    expect(request['forbidden-paths']).toEqual({
      kind: 'paths',
      paths: ['.github/**', '.writ/**', '**/CODEOWNERS'],
    });
  });
});

describe('commands under the configured prefix', () => {
  it('refuses a cancel under the prefix the repository uses, not prose that merely has a colon', () => {
    expect(() => readIssueForm(formBody({ objective: 'Goal: cancel the nightly job' }))).not.toThrow();
    const error = refusal(() =>
      readIssueForm(formBody({ objective: 'ops: cancel run-1' }), { commandPrefix: 'ops' }),
    );
    expect(error.details).toMatchObject({ field: 'objective', rule: 'writ-command' });
  });
});

describe('reading the issue', () => {
  const fake = (data: Record<string, unknown>): { github: GitHubClient; calls: unknown[] } => {
    const calls: unknown[] = [];
    const github = {
      rest: { issues: { get: (params: unknown) => (calls.push(params), Promise.resolve({ data })) } },
    } as unknown as GitHubClient;
    return { github, calls };
  };

  it('reads the title and body of the issue by number', async () => {
    const { github, calls } = fake({ title: 'T', body: 'B' });
    await expect(readIntakeIssue({ github }, { owner: 'acme', repo: 'widgets' }, 7)).resolves.toEqual({
      title: 'T',
      body: 'B',
    });
    expect(calls).toEqual([{ owner: 'acme', repo: 'widgets', issue_number: 7 }]);
  });

  it('reads a null body as empty, which the form reader then refuses', async () => {
    const { github } = fake({ title: 'T', body: null });
    const { body } = await readIntakeIssue({ github }, { owner: 'acme', repo: 'widgets' }, 7);
    expect(refusal(() => readIssueForm(body)).code).toBe('intake-form-malformed');
  });

  it('refuses a pull request', async () => {
    const { github } = fake({ title: 'T', body: formBody(), pull_request: { url: 'x' } });
    await expect(readIntakeIssue({ github }, { owner: 'acme', repo: 'widgets' }, 7)).rejects.toMatchObject({
      code: 'intake-form-malformed',
    });
  });
});
