/**
 * The preview's derived warnings and risk class (preview/assess.ts), as tables, hostile plan text
 * included, and their rendering in the preview (preview/render-assessment.ts).
 */
import { describe, expect, it } from '@jest/globals';
import { digest } from '../../src/canonical-json.js';
import { planProblems } from '../../src/plan/validate.js';
import type { Plan, PlanStep, PlanWrites } from '../../src/plan/types.js';
import type { PreviewPolicy, PreviewReadings, WarningCode } from '../../src/preview/assess.js';
import {
  DEFAULT_RISK,
  assessPlan,
  classifyRisk,
  deriveWarnings,
  dryRunReadings,
  scopeWarnings,
} from '../../src/preview/assess.js';
import { renderPreview } from '../../src/preview/render.js';
import { defaultPolicy, parsePolicy } from '../../src/setup/policy.js';
import { environmentName } from '../../src/stages/preview.js';

const HOSTILE = '@admin <!-- writ-key:x --> [x](https://evil.example) | `tick` **b**\u202e\u0007';
const HOSTILE_LABEL = '@admin <!-- [x](https://e) | `t` \u202e\u0007';
const SHA_A = 'a'.repeat(40);
const SHA_B = 'b'.repeat(40);
const GATE = { roles: ['admin', 'maintain', 'write'], environment: null };

function plan(steps: PlanStep[], writes?: PlanWrites, baseSha?: string): Plan {
  return {
    schema: 1,
    title: HOSTILE,
    scope: {
      repository: 'acme/widgets',
      ...(baseSha === undefined ? {} : { base_sha: baseSha }),
      ...(writes === undefined ? {} : { writes }),
    },
    bounds: { max_steps: 1000 },
    steps,
  };
}

const create = (id: string, labels?: string[], title = 'A new issue'): PlanStep => ({
  id,
  kind: 'issue.create',
  title,
  ...(labels === undefined ? {} : { labels }),
});
const labelsOn = (id: string, issue: number, add: string[], remove: string[] = []): PlanStep => ({
  id,
  kind: 'issue.labels',
  issue,
  add,
  ...(remove.length === 0 ? {} : { remove }),
});
const upsert = (id: string, key: string): PlanStep => ({ id, kind: 'milestone.upsert', key, title: 'v1' });
const edit = (id: string, number: number): PlanStep => ({
  id,
  kind: 'milestone.edit',
  milestone: { number },
  set: { state: 'closed' },
});
const setMilestone = (id: string, issue: number, key: string | null): PlanStep => ({
  id,
  kind: 'issue.set-milestone',
  issue,
  milestone: key === null ? null : { key },
});
const comment = (id: string, issue: number): PlanStep => ({
  id,
  kind: 'comment.upsert',
  issue,
  key: `c-${id}`,
  body: 'hello',
});
const external = (id: string): PlanStep => ({ id, kind: 'external', target: 'build-farm' });

function readings(overrides: Partial<PreviewReadings> = {}): PreviewReadings {
  return {
    base: { branch: 'main', sha: SHA_A },
    policy: { path: '.writ/policy.json', state: 'valid', policy: defaultPolicy(), closed: [] },
    gate: GATE,
    ...overrides,
  };
}

function codes(warnings: readonly { code: WarningCode; step: string | null }[]): string[] {
  return warnings.map((w) => `${w.code}${w.step === null ? '' : `@${w.step}`}`);
}

describe('scope.writes', () => {
  it('is valid in a plan, and refused when it names an unknown kind or a bad milestone key', () => {
    const good = plan([create('c1')], {
      kinds: ['issue.create'],
      issues: [3],
      labels: ['bug'],
      milestones: [2, 'v1'],
    });
    expect(planProblems({ ...good, title: 'Plain' })).toEqual([]);
    expect(planProblems(plan([create('c1')], { kinds: ['repo.delete' as never] })).length).toBeGreaterThan(0);
    expect(planProblems(plan([create('c1')], { milestones: ['Not A Key'] })).length).toBeGreaterThan(0);
  });

  it.each([
    ['no declaration: nothing is outside', undefined, [create('c1', ['x'])], []],
    ['an empty declaration bounds nothing', {}, [labelsOn('l1', 3, ['x']), external('e1')], []],
    [
      'a kind outside the kinds',
      { kinds: ['issue.labels'] },
      [create('c1'), labelsOn('l1', 3, ['x'])],
      ['write-outside-scope@c1'],
    ],
    [
      'an issue outside the issues',
      { issues: [3] },
      [labelsOn('l1', 3, ['x']), comment('m1', 4), setMilestone('s1', 5, null)],
      ['write-outside-scope@m1', 'write-outside-scope@s1'],
    ],
    [
      'a label added, removed or given outside the labels',
      { labels: ['bug'] },
      [labelsOn('l1', 3, ['bug'], ['wontfix']), create('c1', ['bug']), create('c2', ['feature'])],
      ['write-outside-scope@l1', 'write-outside-scope@c2'],
    ],
    [
      'a milestone by key or number outside the milestones',
      { milestones: ['v1', 7] },
      [
        upsert('u1', 'v1'),
        upsert('u2', 'v2'),
        edit('e1', 7),
        edit('e2', 8),
        setMilestone('s1', 3, 'v2'),
        setMilestone('s2', 3, null),
      ],
      ['write-outside-scope@u2', 'write-outside-scope@e2', 'write-outside-scope@s1'],
    ],
    [
      'one warning per step and dimension',
      { kinds: ['comment.upsert'], labels: [], issues: [] },
      [labelsOn('l1', 3, ['a', 'b', 'a'])],
      ['write-outside-scope@l1', 'write-outside-scope@l1', 'write-outside-scope@l1'],
    ],
  ] as [string, PlanWrites | undefined, PlanStep[], string[]][])('%s', (_name, writes, steps, expected) => {
    expect(codes(scopeWarnings(steps, writes))).toEqual(expected);
  });

  it('escapes a hostile label in the warning sentence', () => {
    const [warning] = scopeWarnings([labelsOn('l1', 3, [HOSTILE_LABEL])], { labels: ['bug'] });
    expect(warning?.text).toContain("outside the plan's declared `scope.writes.labels`");
    for (const raw of ['<!--', '@admin', '](', '`t`', '\u202e', '\u0007'])
      expect(warning?.text).not.toContain(raw);
    expect(warning?.text).not.toMatch(/(?<!\\)\|/);
  });
});

describe('deriveWarnings', () => {
  const creates = (n: number): PlanStep[] => Array.from({ length: n }, (_, i) => create(`c${i}`));

  it.each([
    ['a plain plan under a valid policy', plan([labelsOn('l1', 3, ['x'])]), readings(), []],
    [
      'a dry run reads nothing and so warns of nothing it did not read',
      plan(creates(3), undefined, SHA_B),
      dryRunReadings('.writ/policy.json', GATE),
      [],
    ],
    [
      'an invalid policy',
      plan([labelsOn('l1', 3, ['x'])]),
      readings({ policy: { path: '.writ/policy.json', state: 'invalid' } }),
      ['policy-invalid'],
    ],
    [
      'a plan made at another base',
      plan([labelsOn('l1', 3, ['x'])], undefined, SHA_B),
      readings(),
      ['base-moved'],
    ],
    ['a plan made at this base', plan([labelsOn('l1', 3, ['x'])], undefined, SHA_A), readings(), []],
    ['ten creates: at the default threshold', plan(creates(10)), readings(), []],
    ['eleven creates: over it', plan(creates(11)), readings(), ['many-creates']],
    [
      'a milestone upsert counts as a create unless it exists',
      plan([...creates(10), upsert('u1', 'v1')]),
      readings(),
      ['many-creates'],
    ],
    [
      'a closed kind the plan uses, once per kind',
      plan([create('c1'), create('c2'), labelsOn('l1', 3, ['x'])]),
      readings({
        policy: {
          path: 'p',
          state: 'absent',
          closed: [
            { kind: 'issue.create', why: 'no evidence' },
            { kind: 'comment.upsert', why: 'no evidence' },
          ],
        },
      }),
      ['kind-closed-by-policy@c1'],
    ],
    [
      'every code, in catalogue order',
      plan([...creates(11), external('e1')], { kinds: ['issue.create'] }, SHA_B),
      readings({ policy: { path: 'p', state: 'absent', closed: [{ kind: 'issue.create', why: 'x' }] } }),
      ['base-moved', 'write-outside-scope@e1', 'many-creates', 'kind-closed-by-policy@c0'],
    ],
  ] as [string, Plan, PreviewReadings, string[]][])('%s', (_name, subject, read, expected) => {
    expect(codes(deriveWarnings(subject, read))).toEqual(expected);
  });

  it("takes the many-creates threshold from the policy's risk section", () => {
    const policy: PreviewPolicy = { ...defaultPolicy(), risk: { many_creates: 1 } };
    const read = readings({ policy: { path: 'p', state: 'valid', policy, closed: [] } });
    expect(codes(deriveWarnings(plan(creates(2)), read))).toEqual(['many-creates']);
    expect(deriveWarnings(plan(creates(2)), read)[0]?.text).toContain(
      'up to 2 issues and milestones, more than the 1',
    );
  });

  it('escapes why a kind is closed (evidence text) and counts its steps', () => {
    const read = readings({
      policy: { path: 'p', state: 'absent', closed: [{ kind: 'issue.create', why: HOSTILE }] },
    });
    const [warning] = deriveWarnings(plan(creates(2)), read);
    expect(warning?.text).toMatch(/^2 `issue\.create` steps: the owner's policy keeps the kind closed \(/);
    for (const raw of ['<!--', '@admin', '](', '\u202e']) expect(warning?.text).not.toContain(raw);
    expect(warning?.text).not.toMatch(/(?<!\\)\|/);
  });
});

describe('classifyRisk', () => {
  const many = (n: number): PlanStep[] =>
    Array.from({ length: n }, (_, i) => labelsOn(`l${i}`, i + 1, ['x']));
  const strict: PreviewPolicy = {
    ...defaultPolicy(),
    risk: { high: { kinds: ['issue.labels'] }, medium: { creates_over: 0 } },
  };

  it.each([
    ['a few label changes: low', plan(many(3)), undefined, 'low', []],
    [
      'an external step: medium by default',
      plan([external('e1')]),
      undefined,
      'medium',
      ['1 `external` step'],
    ],
    [
      'a milestone edit: medium by default',
      plan([edit('e1', 2)]),
      undefined,
      'medium',
      ['1 `milestone.edit` step'],
    ],
    ['over 20 steps: medium by default', plan(many(21)), undefined, 'medium', ['21 steps, over 20']],
    [
      'a write outside the declared scope: high by default',
      plan([create('c1')], { kinds: ['issue.labels'] }),
      undefined,
      'high',
      ['warning `write-outside-scope`'],
    ],
    [
      'over 50 creates: high by default',
      plan(Array.from({ length: 51 }, (_, i) => create(`c${i}`))),
      undefined,
      'high',
      ['up to 51 creates, over 50'],
    ],
    [
      "the policy's rules replace the defaults: labels are high",
      plan(many(1)),
      strict,
      'high',
      ['1 `issue.labels` step'],
    ],
    ["the policy's rules: an external step is not medium there", plan([external('e1')]), strict, 'low', []],
    [
      "the policy's rules: any create is medium",
      plan([create('c1')]),
      strict,
      'medium',
      ['up to 1 creates, over 0'],
    ],
    [
      'an empty rule never matches',
      plan([create('c1')], { kinds: [] }),
      { ...defaultPolicy(), risk: { high: {}, medium: {} } },
      'low',
      [],
    ],
  ] as [string, Plan, PreviewPolicy | undefined, string, string[]][])(
    '%s',
    (_name, subject, policy, risk, reasons) => {
      const read = readings(
        policy === undefined ? {} : { policy: { path: 'p', state: 'valid', policy, closed: [] } },
      );
      const warnings = deriveWarnings(subject, read);
      const result = classifyRisk(subject, warnings, policy);
      expect(result.class).toBe(risk);
      expect(result.reasons).toEqual(reasons);
      expect(result.rules).toBe(policy?.risk === undefined ? 'default' : 'policy');
    },
  );

  it('a risk section that sets only the threshold keeps the default rules', () => {
    const policy: PreviewPolicy = { ...defaultPolicy(), risk: { many_creates: 0 } };
    const subject = plan([create('c1')]);
    const result = classifyRisk(
      subject,
      deriveWarnings(subject, readings({ policy: { path: 'p', state: 'valid', policy, closed: [] } })),
      policy,
    );
    expect(result).toEqual({ class: 'medium', reasons: ['warning `many-creates`'], rules: 'policy' });
    expect(DEFAULT_RISK.medium.warnings).toContain('many-creates');
  });

  it('an invalid policy is high by default', () => {
    const subject = plan([labelsOn('l1', 3, ['x'])]);
    const assessment = assessPlan(subject, readings({ policy: { path: 'p', state: 'invalid' } }));
    expect(assessment.risk).toMatchObject({ class: 'high', rules: 'default' });
  });
});

describe('policy.json risk section', () => {
  it.each([
    [
      'a full risk section',
      {
        many_creates: 5,
        high: { kinds: ['external'], warnings: ['many-creates'], steps_over: 3, creates_over: 2 },
        medium: {},
      },
      true,
    ],
    ['an unknown warning code', { high: { warnings: ['dispatch-unknown-workflow'] } }, false],
    ['an unknown rule key', { high: { labels: ['x'] } }, false],
    ['a negative threshold', { many_creates: -1 }, false],
    ['a fourth class', { critical: {} }, false],
  ])('%s', (_name, risk, valid) => {
    const { policy, problems } = parsePolicy(JSON.stringify({ ...defaultPolicy(), risk }));
    expect(policy !== undefined).toBe(valid);
    expect(problems.length === 0).toBe(valid);
  });
});

describe('the rendered assessment', () => {
  function rendered(subject: Plan, read: PreviewReadings): string {
    return renderPreview({
      plan: subject,
      planDigest: digest(subject),
      runId: 'run-1',
      commandPrefix: 'writ',
      assessment: assessPlan(subject, read),
    });
  }

  it('shows the base SHA, risk, gate, policy and every warning, before the steps', () => {
    const subject = plan([create('c1', [HOSTILE_LABEL])], { labels: ['bug'] }, SHA_B);
    const markdown = rendered(
      subject,
      readings({ gate: { roles: ['admin', 'maintain'], environment: 'production' } }),
    );
    expect(markdown).toContain('### What this run asks');
    expect(markdown.indexOf('### What this run asks')).toBeLessThan(markdown.indexOf('### Steps'));
    expect(markdown).toContain(`| Base | \`main\` at \`${SHA_A}\` when this preview ran |`);
    expect(markdown).toContain('| Risk | **high**: warning `write-outside-scope`');
    expect(markdown).toContain('live repository role is `admin` or `maintain` |');
    expect(markdown).toContain('GitHub Environment “production”');
    expect(markdown).toContain('Warnings (2):');
    expect(markdown).toContain('- `base-moved`: The plan was made at');
    expect(markdown).toMatch(/- `write-outside-scope`: Step `c1` writes the label “[^\n]*”, outside/);
  });

  it('a dry run says it read nothing; no Environment says the comment is the only gate', () => {
    const subject = plan([labelsOn('l1', 3, ['x'])]);
    const markdown = rendered(
      subject,
      dryRunReadings('.writ/policy.json', { roles: ['write'], environment: null }),
    );
    expect(markdown).toContain('live repository role is `write` |');
    expect(markdown).toContain('| Base | not read: a dry run reads nothing of the repository |');
    expect(markdown).toContain('not read (a dry run reads nothing of the repository)');
    expect(markdown).toContain('| Environment | none: the approve comment is the only gate');
    expect(markdown).toContain(
      "| Risk | **low**: no rule for medium or high matches (by Writ's default rules",
    );
    expect(markdown).toContain('No warnings.');
  });

  it('keeps every assessment line one table row or list item: hostile text never opens structure', () => {
    const subject = plan([create('c1', [HOSTILE_LABEL]), labelsOn('l1', 3, [], [HOSTILE_LABEL])], {
      labels: [],
    });
    const read = readings({
      gate: { roles: ['admin'], environment: HOSTILE },
      policy: {
        path: '.writ/policy.json',
        state: 'absent',
        closed: [{ kind: 'issue.create', why: HOSTILE }],
      },
    });
    const markdown = rendered(subject, read);
    const section = markdown.slice(markdown.indexOf('### What this run asks'), markdown.indexOf('### Steps'));
    for (const raw of ['<!--', '@admin', '](', '\u202e', '\u0007']) expect(section).not.toContain(raw);
    for (const line of section.split('\n').filter((l) => l.startsWith('| ')))
      expect(line.replace(/\\\|/g, '').split('|').length).toBe(4);
    expect(section.match(/^- `/gm)).toHaveLength(3);
  });

  it.each([
    [
      { path: '.writ/policy.json', state: 'absent', closed: [] },
      '| Policy | `.writ/policy.json` is absent at the base commit',
    ],
    [
      { path: '.writ/policy.json', state: 'invalid' },
      '| Policy | `.writ/policy.json` at the base commit is **invalid**',
    ],
    [
      { path: 'cfg/p.json', state: 'valid', policy: { ...defaultPolicy(), risk: {} }, closed: [] },
      '| Policy | `cfg/p.json` at the base commit |',
    ],
  ] as [PreviewReadings['policy'], string][])('names where the policy came from: %j', (policy, row) => {
    const subject = plan([{ id: 'l1', kind: 'issue.labels', issue: 3 }, create('c1', undefined, 'x')]);
    expect(rendered(subject, readings({ policy }))).toContain(row);
  });

  it('reads a create into a milestone and a label step with no change as writes of their own', () => {
    const steps: PlanStep[] = [
      { id: 'c1', kind: 'issue.create', title: 'x', milestone: { number: 9 } },
      { id: 'l1', kind: 'issue.labels', issue: 3 },
    ];
    expect(codes(scopeWarnings(steps, { milestones: [9], labels: [] }))).toEqual([]);
    expect(codes(scopeWarnings(steps, { milestones: [], issues: [] }))).toEqual([
      'write-outside-scope@c1',
      'write-outside-scope@l1',
    ]);
  });

  it('lists the first 50 warnings and counts the rest', () => {
    const steps = Array.from({ length: 60 }, (_, i) => labelsOn(`l${i}`, i + 1, ['x']));
    const markdown = rendered(plan(steps, { kinds: ['comment.upsert'] }), readings());
    expect(markdown).toContain('Warnings (60):');
    expect(markdown.match(/^- `write-outside-scope`: /gm)).toHaveLength(50);
    expect(markdown).toContain('- … and 10 more, listed with their codes and steps in the `warnings` output');
  });

  it('renders identical bytes for identical readings', () => {
    const subject = plan([create('c1')], { kinds: ['issue.labels'] });
    expect(rendered(subject, readings())).toBe(rendered(structuredClone(subject), readings()));
  });
});

describe('environment input', () => {
  it.each([
    ['', null],
    ['  ', null],
    ['production', 'production'],
    [' staging ', 'staging'],
  ])('%j is %j', (value, expected) => {
    expect(environmentName(value)).toBe(expected);
  });

  it.each([['x'.repeat(256)], ['prod\u202e'], ['prod\nuction'], ['staging area'], ['-prod'], ['${{ x }}']])(
    'refuses %j by the one environment name rule (environment-name-invalid)',
    (value) => {
      expect(() => environmentName(value)).toThrow(/input 'environment' must be 1 to 255 letters/);
      expect(errorCodeOf(() => environmentName(value))).toBe('environment-name-invalid');
    },
  );
});

function errorCodeOf(action: () => unknown): string | undefined {
  try {
    action();
    return undefined;
  } catch (error: unknown) {
    return (error as { code?: string }).code;
  }
}
