import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { digest } from '../../src/canonical-json.js';
import { WritError } from '../../src/errors.js';
import { renderPreview } from '../../src/preview/render.js';
import { MAX_PLAN_DEPTH, MAX_PLAN_STRING_LENGTH, loadPlanFile } from '../../src/plan/load.js';
import {
  BAD_PLANS,
  ODD_BUT_VALID,
  RELEASE_PLAN_TEXT,
  withParameters,
} from '../../../../test/fixtures/bad-plans.js';

const dir = mkdtempSync(join(tmpdir(), 'writ-load-'));
let files = 0;

function planFile(content: string | Buffer): string {
  files += 1;
  const path = join(dir, `plan-${files}.json`);
  writeFileSync(path, content);
  return path;
}

function refusal(content: string | Buffer): WritError {
  try {
    loadPlanFile(planFile(content));
  } catch (error: unknown) {
    if (error instanceof WritError) return error;
    throw new Error(`not a WritError: ${String(error)}`);
  }
  throw new Error('the plan was accepted');
}

/** What must never reach a log raw: C0/C1 controls (ESC, BEL, CR, LF…), bidi and format characters, lone surrogates. */
const RAW_UNSAFE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f]|[\ud800-\udfff]/u;

describe('plan loading refuses every bad plan with a code, never internal-error', () => {
  it.each(BAD_PLANS.map((plan) => [plan.class, plan.name, plan] as const))(
    '%s: %s',
    (_class, _name, plan) => {
      const error = refusal(plan.content);
      expect(error.code).toBe(plan.code);
      if (plan.message !== undefined) expect(error.message).toContain(plan.message);
      // Problem lists are one per line; nothing else in the message may break a line or steer a terminal.
      expect(error.message.replace(/\n {2}/g, ' ')).not.toMatch(RAW_UNSAFE);
      expect(error.message.length).toBeLessThan(2000);
    },
  );

  it('accepts the odd but valid plans, each with its own digest', () => {
    const digests = ODD_BUT_VALID.map(({ content }) => digest(loadPlanFile(planFile(content))));
    digests.push(digest(loadPlanFile(planFile(RELEASE_PLAN_TEXT))));
    expect(new Set(digests).size).toBe(digests.length);
  });

  it('keeps a __proto__ member in parameters as data', () => {
    const plan = loadPlanFile(planFile(withParameters('{"__proto__":{"ref":"v2.5.0"}}')));
    const parameters = (plan.steps[0] as { parameters: Record<string, unknown> }).parameters;
    expect(Object.keys(parameters)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(parameters)).toBe(Object.prototype);
    expect((parameters as { ref?: unknown }).ref).toBeUndefined();
  });

  it('refuses, rather than digests alike, the plans JSON.parse would conflate', () => {
    const pairs = [
      ['{"n":9007199254740992}', '{"n":9007199254740993}'],
      ['{"ref":"main"}', '{"ref":"v2.5.0","ref":"main"}'],
      ['{"n":0}', '{"n":1e-400}'],
    ];
    for (const [kept, conflated] of pairs as [string, string][]) {
      const viaJsonParse = (text: string) => digest(JSON.parse(withParameters(text)));
      expect(viaJsonParse(conflated)).toBe(viaJsonParse(kept));
      expect(refusal(withParameters(conflated)).code).toBe('malformed-plan');
    }
  });

  it('documents its limits where plan authors read them', async () => {
    const { readFileSync } = await import('node:fs');
    const schema = JSON.parse(
      readFileSync(new URL('../../../../schemas/plan.schema.json', import.meta.url), 'utf8'),
    ) as { description: string };
    expect(schema.description).toContain(`${MAX_PLAN_DEPTH} levels`);
    expect(schema.description).toContain(`${MAX_PLAN_STRING_LENGTH} characters`);
    expect(schema.description).toContain('1 MiB');
  });

  it('escapes the plan-file path it names', () => {
    const error = refusal(Buffer.from([0xff]));
    expect(error.message).toMatch(/^plan-file '.*plan-\d+\.json' is not I-JSON/);
    let missing: unknown;
    try {
      loadPlanFile('/nonexistent/\u001b]0;x\u0007.json');
    } catch (thrown: unknown) {
      missing = thrown;
    }
    expect(missing).toBeInstanceOf(WritError);
    expect((missing as WritError).message).toBe(
      "plan-file '/nonexistent/\\u001b]0;x\\u0007.json' does not exist or is not a regular file",
    );
  });

  it('either loads a plan that digests and renders, or refuses it with a code: never anything else', () => {
    const text = fc.oneof(
      { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
      { arbitrary: fc.constantFrom('ok', 'release-1', '2026-01-01T00:00:00Z'), weight: 3 },
    );
    let loadedPlans = 0;
    const json = fc.jsonValue({ maxDepth: 4 });
    const step = fc.oneof(
      fc.record({
        id: fc.constantFrom('a', 'b'),
        kind: fc.constant('external'),
        target: text,
        parameters: fc.dictionary(text, json, { maxKeys: 5 }),
      }),
      fc.record({
        id: fc.constant('c'),
        kind: fc.constant('issue.create'),
        title: text,
        body: text,
        labels: fc.array(text, { maxLength: 3 }),
      }),
      fc.record({
        id: fc.constant('d'),
        kind: fc.constant('issue.labels'),
        issue: fc.integer({ min: 1, max: 9 }),
        add: fc.array(text, { maxLength: 3 }),
      }),
      fc.record({
        id: fc.constant('e'),
        kind: fc.constant('milestone.upsert'),
        key: text,
        title: text,
        due_on: text,
      }),
    );
    const plan = fc.record({
      schema: fc.constantFrom(1, 1, 1, 2),
      title: text,
      scope: fc.record({
        repository: fc.constantFrom('acme/widgets', 'acme/widgets', 'a/b/../c'),
        selection: text,
      }),
      bounds: fc.record({
        max_steps: fc.oneof(fc.constant(5), fc.constant(5), fc.integer({ min: 0, max: 5 }), fc.double()),
      }),
      steps: fc.array(step, { minLength: 1, maxLength: 3 }),
    });
    const mutate = fc.constantFrom(
      (t: string) => t,
      (t: string) => t,
      (t: string) => t,
      (t: string) => t.replace('{', '{"title":"dup",'),
      (t: string) => t.replace(/"([^"]*)":/, '"$1":1,"$1":'),
      (t: string) => t.replace(/\d+/, '1e400'),
      (t: string) => t.replace(/\d+/, '9007199254740993'),
      (t: string) => t.replace('"', '"\\ud800'),
    );
    fc.assert(
      fc.property(plan, mutate, (value, change) => {
        let loaded;
        try {
          loaded = loadPlanFile(planFile(change(JSON.stringify(value))));
        } catch (error: unknown) {
          expect(error).toBeInstanceOf(WritError);
          expect((error as WritError).message.replace(/\n {2}/g, ' ')).not.toMatch(RAW_UNSAFE);
          return;
        }
        loadedPlans += 1;
        const planDigest = digest(loaded);
        expect(() =>
          renderPreview({ plan: loaded, planDigest, runId: 'run-x', commandPrefix: 'writ' }),
        ).not.toThrow();
      }),
      // Seeded: the same 400 plans every run, so how many load (and what coverage they give) is stable.
      { numRuns: 400, seed: 20261201 },
    );
    expect(loadedPlans).toBeGreaterThan(5);
  });
});
