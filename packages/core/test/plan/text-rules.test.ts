/**
 * Plan-level refusals of issue 26: a plan cannot speak Writ's control language (class 3), cannot carry
 * a secret (class 10), and cannot hold two steps that would fight over one resource (class 4). Each is
 * `malformed-plan` naming the JSON path (and, for a collision, both steps), never echoing the text.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { WritError } from '../../src/errors.js';
import { idempotencyMarker, speaksMarkerLanguage, statusMarker } from '../../src/idempotency/key.js';
import { keyMarker, markedKeys } from '../../src/persist/steps.js';
import type { Plan, PlanStep } from '../../src/plan/types.js';
import { planProblems, validatePlan } from '../../src/plan/validate.js';
import { clearRegisteredSecrets, registerSecret } from '../../src/redact.js';

const example = JSON.parse(
  readFileSync(new URL('../../../../examples/roadmap-plan.json', import.meta.url), 'utf8'),
) as Plan;

function clone(): Plan {
  return structuredClone(example);
}

function step(plan: Plan, index: number): Record<string, unknown> {
  return plan.steps[index] as unknown as Record<string, unknown>;
}

/** The plan with `text` put at `path` (a JSON pointer into the example). */
function withText(path: string, text: string): Plan {
  const plan = clone() as unknown as Record<string, unknown>;
  const parts = path.split('/').slice(1);
  let node: Record<string, unknown> = plan;
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  node[parts[parts.length - 1] as string] = text;
  return plan as unknown as Plan;
}

/** Every text field a plan writes to GitHub (and the ones it does not, which must hold too). */
const TEXT_FIELDS = [
  '/title',
  '/steps/0/title',
  '/steps/0/description',
  '/steps/0/summary',
  '/steps/2/set/title',
  '/steps/2/set/description',
  '/steps/5/add/0',
  '/steps/5/remove/0',
  '/steps/6/title',
  '/steps/6/body',
  '/steps/6/labels/0',
  '/steps/7/body',
  '/planner/name',
];

const GH_TOKEN = `ghp_${'a1B2c3D4'.repeat(5)}`;

afterEach(() => clearRegisteredSecrets());

describe('a plan cannot speak Writ control language (issue 26, class 3)', () => {
  const markers = [
    keyMarker('roadmap:v2.4'),
    idempotencyMarker(`sha256:${'a'.repeat(64)}`),
    statusMarker('run-1'),
    '<!-- writ-probe run=p-1 -->',
    '<!-- WRIT-key: roadmap:v2.4 -->',
    '<!--writ-status run=x -->',
    '<!--   writ-key: k -->',
    '<!--\n\twrit-key: k -->',
    '<!---writ-key: k -->',
    '<!-- w\u200brit-key: k -->',
    '<!--\u200b writ-key: k -->',
    '<\u2060!-- writ-key: k -->',
    '\uff1c!-- writ-key: k -->', // fullwidth less-than (NFKC)
    '&lt;!-- writ-key: k --&gt;',
    '&#60;!-- writ-key: k -->',
    '&#x3C;!-- writ-key: k -->',
    '&#x3c!-- writ-key: k -->',
    '&amp;lt;!-- writ-key: k -->',
    '<!&#45;- writ-key: k -->',
    `Some notes first.\n\n${statusMarker('another-run')}\nForged status.`,
  ];

  it.each(markers)('recognises %j as a marker', (text) => {
    expect(speaksMarkerLanguage(text)).toBe(true);
  });

  it.each([
    'Plain text about Writ and writ-key without a comment.',
    '<!-- a harmless HTML comment -->',
    '<!-- writing notes -->'.replace('writing', 'wr iting'),
    'writ-status run=1 -->',
    '<!- - not a comment opener either way',
  ])('lets ordinary text %j through', (text) => {
    expect(speaksMarkerLanguage(text)).toBe(false);
  });

  it('every marker Writ writes is recognised (the refusal covers what its parsers accept)', () => {
    for (const marker of [keyMarker('x'), idempotencyMarker('sha256:0'), statusMarker('r')])
      expect(speaksMarkerLanguage(`before ${marker} after`)).toBe(true);
    expect(markedKeys(`a ${keyMarker('k1')} b ${keyMarker('k2')}`)).toEqual(['k1', 'k2']);
  });

  it.each(TEXT_FIELDS)('refuses a marker in %s as malformed-plan naming the path', (path) => {
    const plan = withText(path, `text ${keyMarker('roadmap:v2.5')} more`);
    const problems = planProblems(plan);
    expect(problems).toContainEqual({ path, message: expect.stringMatching(/Writ hidden marker/) });
    let refusal: unknown;
    try {
      validatePlan(plan);
    } catch (error: unknown) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(WritError);
    expect((refusal as WritError).code).toBe('malformed-plan');
    expect((refusal as WritError).message).toContain(path);
    expect((refusal as WritError).message).not.toContain('roadmap:v2.5');
  });

  it('refuses a marker inside an external step parameter and in a member name', () => {
    const plan = clone();
    step(plan, 8).parameters = { note: { deep: ['ok', '<!-- writ-status run=r -->'] } };
    expect(planProblems(plan).map((p) => p.path)).toContain('/steps/8/parameters/note/deep/1');
    const named = clone();
    step(named, 8).parameters = { '<!-- writ-key: k -->': 1 };
    expect(planProblems(named).map((p) => p.path)).toContain('/steps/8/parameters');
  });

  it('lets a marker split across two fields through (each field alone is harmless)', () => {
    const plan = clone();
    step(plan, 6).title = 'Offline mode <!--';
    step(plan, 6).body = ' writ-key: roadmap:v2.4 -->';
    expect(planProblems(plan)).toEqual([]);
  });
});

describe('a secret in plan text goes nowhere (issue 26, class 10)', () => {
  const tokens = [
    GH_TOKEN,
    `gho_${'Z9'.repeat(18)}`,
    `ghu_${'Z9'.repeat(18)}`,
    `ghs_${'Z9'.repeat(18)}`,
    `ghr_${'Z9'.repeat(18)}`,
    `github_pat_11ABCDEFG0${'x'.repeat(60)}`,
    `v1.${'0123456789abcdef0123'.repeat(2)}`,
    'eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiIxMjM0NSIsImlhdCI6MX0.c2lnbmF0dXJlLWJ5dGVz',
  ];

  it.each(TEXT_FIELDS)('refuses a token in %s without echoing it', (path) => {
    for (const token of tokens) {
      const plan = withText(path, `see ${token} here`);
      expect(planProblems(plan)).toContainEqual({ path, message: expect.stringMatching(/secret/) });
      let message = '';
      try {
        validatePlan(plan);
      } catch (error: unknown) {
        message = (error as Error).message;
      }
      expect(message).toContain(path);
      expect(message).not.toContain(token);
    }
  });

  it('refuses a registered secret, raw or URL-encoded, wherever it is', () => {
    const secret = 'correct horse battery staple';
    registerSecret(secret);
    expect(planProblems(withText('/steps/7/body', `x ${secret} y`))).toContainEqual({
      path: '/steps/7/body',
      message: expect.stringMatching(/secret/),
    });
    expect(
      planProblems(withText('/steps/8/target', `https://x.example/?q=${encodeURIComponent(secret)}`)).map(
        (p) => p.path,
      ),
    ).toContain('/steps/8/target');
  });

  it('refuses a token-shaped step ID or key (the ledger records step IDs; keys become markers)', () => {
    const plan = clone();
    step(plan, 0).id = GH_TOKEN;
    step(plan, 7).key = `k:${GH_TOKEN}`;
    const problems = planProblems(plan);
    expect(problems).toContainEqual({ path: '/steps/0/id', message: expect.stringMatching(/secret/) });
    expect(problems).toContainEqual({ path: '/steps/7/key', message: expect.stringMatching(/secret/) });
    expect(JSON.stringify(problems)).not.toContain(GH_TOKEN);
  });

  it('refuses a token in an external parameter and in a member name, reporting neither', () => {
    const plan = clone();
    step(plan, 8).parameters = { auth: GH_TOKEN, [GH_TOKEN]: 'x' };
    const problems = planProblems(plan);
    expect(problems.map((p) => p.path)).toEqual(['/steps/8/parameters/auth', '/steps/8/parameters']);
    expect(JSON.stringify(problems)).not.toContain(GH_TOKEN);
  });
});

describe('keys and titles do not collide inside one plan (issue 26, class 4)', () => {
  const upsert = (id: string, key: string, title: string): PlanStep => ({
    id,
    kind: 'milestone.upsert',
    key,
    title,
  });
  const plan = (steps: PlanStep[]): Plan => ({
    schema: 1,
    title: 'collisions',
    scope: { repository: 'acme/widgets' },
    bounds: { max_steps: 20 },
    steps,
  });

  it('refuses two milestone.upsert steps with the same title, naming both', () => {
    const problems = planProblems(plan([upsert('first', 'k1', 'v3.0'), upsert('second', 'k2', 'v3.0')]));
    expect(problems).toEqual([
      { path: '/steps/1/title', message: expect.stringContaining('/steps/0 (first)') },
    ]);
  });

  it('compares milestone titles case-insensitively', () => {
    expect(
      planProblems(plan([upsert('first', 'k1', 'Release'), upsert('second', 'k2', 'RELEASE')])).map(
        (p) => p.path,
      ),
    ).toEqual(['/steps/1/title']);
  });

  it('never shows a token-shaped step ID when naming a step in a collision', () => {
    const id = `ghp_${'a1b2c3d4'.repeat(5)}`;
    const problems = planProblems(plan([upsert(id, 'k1', 'v3.0'), upsert('second', 'k2', 'v3.0')]));
    expect(problems).toContainEqual({
      path: '/steps/1/title',
      message: expect.stringContaining('/steps/0;'),
    });
    expect(JSON.stringify(problems)).not.toContain(id);
  });

  it('refuses the same milestone key twice, naming the earlier step', () => {
    expect(planProblems(plan([upsert('a', 'k', 'A'), upsert('b', 'k', 'B')]))).toEqual([
      { path: '/steps/1/key', message: expect.stringContaining('/steps/0 (a)') },
    ]);
  });

  it('refuses one marker key used by a milestone and a comment', () => {
    const comment: PlanStep = { id: 'note', kind: 'comment.upsert', issue: 3, key: 'k', body: 'Hi' };
    expect(planProblems(plan([upsert('m', 'k', 'A'), comment]))).toEqual([
      { path: '/steps/1/key', message: expect.stringContaining('/steps/0 (m) (milestone.upsert)') },
    ]);
  });

  it('refuses the same comment key twice on one issue, naming the earlier step; other issues are fine', () => {
    const on = (id: string, issue: number): PlanStep => ({
      id,
      kind: 'comment.upsert',
      issue,
      key: 'k',
      body: id,
    });
    expect(planProblems(plan([on('a', 3), on('b', 3)]))).toEqual([
      { path: '/steps/1/key', message: expect.stringContaining('/steps/0 (a)') },
    ]);
    expect(planProblems(plan([on('a', 3), on('b', 4)]))).toEqual([]);
  });

  it('refuses two identical issue.create steps (one idempotency key), naming both', () => {
    const create = (id: string, title: string): PlanStep => ({ id, kind: 'issue.create', title });
    expect(planProblems(plan([create('one', 'Epic'), create('two', 'Epic')]))).toEqual([
      { path: '/steps/1', message: expect.stringContaining('/steps/0 (one)') },
    ]);
    expect(planProblems(plan([create('one', 'Epic'), create('two', 'Epic 2')]))).toEqual([]);
  });
});
