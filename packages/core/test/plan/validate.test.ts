import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WritError } from '../../src/errors.js';
import { MAX_PLAN_BYTES, loadPlanFile } from '../../src/plan/load.js';
import { deriveRunId, isValidRunId, validateRunId } from '../../src/plan/run-id.js';
import type { Plan } from '../../src/plan/types.js';
import { STEP_KINDS } from '../../src/plan/types.js';
import { planProblems, validatePlan } from '../../src/plan/validate.js';
import { codeOf } from '../support/code-of.js';

const example = JSON.parse(
  readFileSync(new URL('../../../../examples/roadmap-plan.json', import.meta.url), 'utf8'),
) as Plan;

function clone(): Plan {
  return structuredClone(example);
}

describe('plan validation', () => {
  it('accepts the example roadmap plan, which covers every step kind', () => {
    expect(planProblems(example)).toEqual([]);
    expect(new Set(example.steps.map((s) => s.kind))).toEqual(new Set(STEP_KINDS));
  });

  it('names the JSON path of a missing required member', () => {
    const plan = clone() as Partial<Plan>;
    delete plan.scope;
    expect(planProblems(plan)).toContainEqual({ path: '/scope', message: 'is required' });
  });

  it('names the JSON path of an unknown member', () => {
    const plan = clone() as Plan & { extra?: number };
    (plan.steps[2] as unknown as Record<string, unknown>).assignee = 'x';
    expect(planProblems(plan)).toContainEqual({ path: '/steps/2/assignee', message: 'is not allowed here' });
  });

  it('names the step whose kind is unknown', () => {
    const plan = clone();
    (plan.steps[0] as unknown as Record<string, unknown>).kind = 'repo.delete';
    expect(planProblems(plan)).toEqual([
      { path: '/steps/0/kind', message: 'must be one of the step kinds in plan.schema.json' },
    ]);
  });

  it('reports a bad value with its exact path', () => {
    const plan = clone();
    (plan.steps[3] as unknown as Record<string, unknown>).issue = 0;
    const problems = planProblems(plan);
    expect(problems.map((p) => p.path)).toContain('/steps/3/issue');
  });

  it('refuses duplicate step IDs', () => {
    const plan = clone();
    plan.steps[1]!.id = plan.steps[0]!.id;
    expect(planProblems(plan)).toContainEqual({
      path: '/steps/1/id',
      message: 'duplicates the id of /steps/0',
    });
  });

  it('refuses a milestone key that no earlier upsert defines', () => {
    const plan = clone();
    plan.steps[2] = { id: 'x', kind: 'issue.set-milestone', issue: 5, milestone: { key: 'roadmap:v9' } };
    expect(planProblems(plan)).toContainEqual({
      path: '/steps/2/milestone/key',
      message: 'names no milestone.upsert key of an earlier step',
    });
  });

  it('refuses a plan over its own bounds', () => {
    const plan = clone();
    plan.bounds.max_steps = 3;
    plan.bounds.max_creates = 1;
    plan.bounds.max_issues_touched = 1;
    const messages = planProblems(plan).map((p) => p.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/over bounds.max_steps 3/),
        expect.stringMatching(/over bounds.max_creates 1/),
        expect.stringMatching(/over bounds.max_issues_touched 1/),
      ]),
    );
  });

  it('refuses a label both added and removed', () => {
    const plan = clone();
    plan.steps[4] = { id: 'l', kind: 'issue.labels', issue: 1, add: ['a'], remove: ['a'] };
    expect(planProblems(plan)).toContainEqual({
      path: '/steps/4/remove',
      message: 'repeats a label that add also names',
    });
  });

  it('refuses an unsafe step ID or repository', () => {
    const plan = clone();
    plan.steps[0]!.id = '../etc';
    plan.scope.repository = 'acme/widgets/../x';
    const paths = planProblems(plan).map((p) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['/steps/0/id', '/scope/repository']));
  });

  it('throws malformed-plan with one line per problem', () => {
    const plan = clone() as Partial<Plan>;
    delete plan.title;
    delete plan.bounds;
    let error: unknown;
    try {
      validatePlan(plan);
    } catch (caught: unknown) {
      error = caught;
    }
    expect(error).toBeInstanceOf(WritError);
    expect((error as WritError).code).toBe('malformed-plan');
    expect((error as WritError).message.split('\n').slice(1)).toEqual([
      '  /title: is required',
      '  /bounds: is required',
    ]);
  });

  it('refuses something that is not an object', () => {
    expect(codeOf(() => validatePlan([]))).toBe('malformed-plan');
    expect(codeOf(() => validatePlan(null))).toBe('malformed-plan');
  });
});

describe('plan files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'writ-plan-'));

  function loadCode(name: string, content: string | Buffer | null): string | undefined {
    const path = join(dir, name);
    if (content !== null) writeFileSync(path, content);
    try {
      loadPlanFile(path);
    } catch (error: unknown) {
      return error instanceof WritError ? error.code : 'not-a-writ-error';
    }
    return undefined;
  }

  it('loads a valid plan file, with or without a BOM', () => {
    expect(loadCode('ok.json', JSON.stringify(example))).toBeUndefined();
    expect(loadCode('bom.json', `\ufeff${JSON.stringify(example)}`)).toBeUndefined();
  });

  it('gives each file failure its own code', () => {
    expect(loadCode('missing.json', null)).toBe('plan-file-not-found');
    expect(loadCode('not-json.json', '{"schema": 1,')).toBe('plan-not-json');
    expect(loadCode('latin1.json', Buffer.from([0x7b, 0xe9, 0x7d]))).toBe('malformed-plan');
    expect(loadCode('huge.json', `{"pad":"${'x'.repeat(MAX_PLAN_BYTES)}"}`)).toBe('plan-too-large');
    expect(loadCode('invalid.json', '{"schema": 2}')).toBe('malformed-plan');
    expect(loadCode('.', null)).toBe('plan-file-not-found');
  });
});

describe('run IDs', () => {
  it('derives the same run ID from the same digest', () => {
    const d = `sha256:${'ab'.repeat(32)}`;
    expect(deriveRunId(d)).toBe('run-abababababababab');
    expect(isValidRunId(deriveRunId(d))).toBe(true);
  });

  it.each(['', '.', '..', '../x', 'a/b', 'a\\b', 'a.b', '-a', 'a b', 'x'.repeat(65), 'ru\u200bn', 'ｒｕｎ'])(
    'refuses the unsafe run ID %j',
    (value) => {
      expect(isValidRunId(value)).toBe(false);
      expect(codeOf(() => validateRunId(value))).toBe('invalid-run-id');
    },
  );
});
