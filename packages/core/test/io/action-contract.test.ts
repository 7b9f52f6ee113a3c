import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { OPERATIONS, STEP_OUTCOMES } from '../../src/claim/claim-checkpoint.js';
import type { InputSpec } from '../../src/io/registry.js';
import { STAGES } from '../../src/io/registry.js';
// @ts-expect-error: a build script (plain ESM JavaScript, no declarations)
import { discoverStages, inputLimits, renderRegistry } from '../../../../scripts/build/generate-registry.mjs';

// @ts-expect-error: a build script (plain ESM JavaScript, no declarations)
import { renderActionReadme } from '../../../../scripts/build/docs.mjs';

const limitsOf = inputLimits as (stage: string, name: string, input: Record<string, unknown>) => object;

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const stagesOnDisk = readdirSync(join(root, 'actions')).filter((name) =>
  statSync(join(root, 'actions', name)).isDirectory(),
);

interface ActionYml {
  name: string;
  description: string;
  inputs?: Record<
    string,
    { description: string; required?: boolean; default?: string; 'x-limits'?: Record<string, unknown> }
  >;
  outputs?: Record<string, { description: string }>;
  runs: { using: string; main: string };
}

function loadAction(stage: string): ActionYml {
  return parse(readFileSync(join(root, 'actions', stage, 'action.yml'), 'utf8')) as ActionYml;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('action contract', () => {
  it('has one registry entry per actions/<stage>/action.yml', () => {
    expect(Object.keys(STAGES).sort()).toEqual([...stagesOnDisk].sort());
  });

  it('uses the registry generated from the action.yml files as they are now', () => {
    const generated = readFileSync(join(root, 'packages/core/src/generated/registry.ts'), 'utf8');
    expect(generated).toBe(
      (renderRegistry as (stages: string[]) => string)((discoverStages as () => string[])()),
    );
  });

  describe.each(stagesOnDisk)('actions/%s/action.yml', (stage) => {
    const action = loadAction(stage);
    const spec = STAGES[stage as keyof typeof STAGES];

    it('declares exactly the registry inputs, with the same required flags, defaults, limits and descriptions', () => {
      const declared = Object.fromEntries(
        Object.entries(action.inputs ?? {}).map(([name, input]) => [
          name,
          {
            description: input.description.trim(),
            required: input.required ?? false,
            default: input.default,
            limits: input['x-limits'] ?? null,
          },
        ]),
      );
      const registry = Object.fromEntries(
        Object.entries(spec.inputs as Readonly<Record<string, InputSpec>>).map(([name, input]) => [
          name,
          {
            description: input.description,
            required: input.required,
            default: input.default,
            limits:
              input.oneOf !== undefined
                ? { 'one-of': input.oneOf }
                : input.min !== undefined
                  ? { min: input.min, max: input.max, ...(input.or === undefined ? {} : { or: input.or }) }
                  : null,
          },
        ]),
      );
      expect(declared).toEqual(registry);
    });

    it('declares exactly the registry outputs', () => {
      const declared = Object.fromEntries(
        Object.entries(action.outputs ?? {}).map(([name, output]) => [name, output.description.trim()]),
      );
      const registry = Object.fromEntries(
        Object.entries(spec.outputs).map(([name, output]) => [name, output.description]),
      );
      expect(declared).toEqual(registry);
      expect(Object.keys(registry)).toEqual(expect.arrayContaining(['outcome', 'reason']));
    });

    it('runs its bundle on node24', () => {
      expect(action.runs).toEqual({ using: 'node24', main: `../../dist/${stage}/index.js` });
      expect(action.name).toBe(spec.name);
      expect(action.description.trim()).toBe(spec.description);
    });

    it('names inputs and outputs in kebab-case', () => {
      for (const name of [...Object.keys(action.inputs ?? {}), ...Object.keys(action.outputs ?? {})]) {
        expect(name).toMatch(/^[a-z]+(?:-[a-z]+)*$/);
      }
    });
  });

  describe('value limits, declared once beside the default (x-limits)', () => {
    it('are generated into the registry: bounds for integers, allowed values for strings', () => {
      const persist = STAGES.persist.inputs;
      expect([persist['max-steps'].min, persist['max-steps'].max]).toEqual([1, 1000]);
      expect([persist['claim-window'].min, persist['claim-window'].max]).toEqual([1, 50]);
      expect(persist['claim-window'].or).toEqual(['auto']);
      expect([persist['time-budget-minutes'].min, persist['time-budget-minutes'].max]).toEqual([1, 340]);
      expect([persist['precheck-page-cap'].min, persist['precheck-page-cap'].max]).toEqual([1, 100]);
      expect(STAGES['publish-artifact'].inputs['on-closed-pr'].oneOf).toEqual(['report', 'open-new']);
    });

    it("allow exactly claim-checkpoint's operations and step outcomes", () => {
      const inputs = STAGES['claim-checkpoint'].inputs;
      expect(inputs.operation.oneOf).toEqual([...OPERATIONS]);
      expect(inputs['step-outcome'].oneOf).toEqual([...STEP_OUTCOMES]);
    });

    it('are the same for an input every action declares alike (lease-seconds: 30 to 21600, 600)', () => {
      const declared = Object.values(STAGES).flatMap((spec) => {
        const input = (spec.inputs as Readonly<Record<string, InputSpec>>)['lease-seconds'];
        return input === undefined ? [] : [input];
      });
      expect(declared.length).toBeGreaterThanOrEqual(4);
      for (const input of declared) {
        expect({ min: input.min, max: input.max, default: input.default }).toEqual({
          min: 30,
          max: 21600,
          default: '600',
        });
      }
    });

    it("are shown once, in each action's generated inputs table", () => {
      const docs = (stage: string) =>
        (renderActionReadme as (stage: string, yml: string) => string)(
          stage,
          readFileSync(join(root, 'actions', stage, 'action.yml'), 'utf8'),
        );
      expect(docs('persist')).toContain(
        '| `max-steps` | no | `1000` | The most steps this invocation executes (a plan has at most 1000; the time budget is the real bound); a re-run continues. From 1 to 1000. |',
      );
      expect(docs('persist')).toMatch(
        /\| `claim-window` \| no \| `auto` \| How many consecutive steps [^|]+ From 1 to 50, or `auto`\. \|/,
      );
      expect(docs('claim-checkpoint')).toContain(
        "| `operation` | yes |  | What to do with the run's lease and step. One of `claim`, `checkpoint`, `takeover`, `release`. |",
      );
    });

    it('hold every default within its limits, and refuse limits that cannot be enforced', () => {
      expect(limitsOf('s', 'n', { default: '5', 'x-limits': { min: 1, max: 9 } })).toEqual({
        min: 1,
        max: 9,
      });
      expect(limitsOf('s', 'n', { default: '', 'x-limits': { 'one-of': ['a', 'b-c'] } })).toEqual({
        oneOf: ['a', 'b-c'],
      });
      expect(limitsOf('s', 'n', {})).toEqual({});
      expect(limitsOf('s', 'n', { default: 'auto', 'x-limits': { min: 1, max: 9, or: ['auto'] } })).toEqual({
        min: 1,
        max: 9,
        or: ['auto'],
      });
      expect(
        limitsOf('s', 'n', { default: '9', 'x-limits': { min: 1, max: 9, or: ['auto', 'all'] } }),
      ).toEqual({
        min: 1,
        max: 9,
        or: ['auto', 'all'],
      });
      for (const [input, message] of [
        [{ default: '10', 'x-limits': { min: 1, max: 9 } }, /the default "10" is not from 1 to 9/],
        [{ default: '07', 'x-limits': { min: 1, max: 9 } }, /the default "07" is not from 1 to 9/],
        [{ 'x-limits': { min: 0, max: 9 } }, /min and max must be positive integers/],
        [{ 'x-limits': { min: 9, max: 1 } }, /min <= max/],
        [{ 'x-limits': { min: 1 } }, /must be \{ min, max \}, \{ min, max, or: \[\.\.\.\] \} or \{ one-of/],
        [{ 'x-limits': { min: 1, max: 2, 'one-of': ['a', 'b'] } }, /must be \{ min, max \},/],
        [{ 'x-limits': { or: ['auto'] } }, /must be \{ min, max \},/],
        [
          { default: 'all', 'x-limits': { min: 1, max: 9, or: ['auto'] } },
          /"all" is not from 1 to 9 nor one of auto/,
        ],
        [
          { default: '10', 'x-limits': { min: 1, max: 9, or: ['auto'] } },
          /"10" is not from 1 to 9 nor one of auto/,
        ],
        [{ 'x-limits': { min: 1, max: 9, or: [] } }, /or must list one or more distinct kebab-case values/],
        [{ 'x-limits': { min: 1, max: 9, or: ['Auto'] } }, /or must list one or more distinct kebab-case/],
        [{ 'x-limits': { min: 1, max: 9, or: ['a', 'a'] } }, /or must list one or more distinct/],
        [{ 'x-limits': { min: 1, max: 9, or: 'auto' } }, /or must list/],
        [{ 'x-limits': { min: 0, max: 9, or: ['auto'] } }, /min and max must be positive integers/],
        [{ default: 'c', 'x-limits': { 'one-of': ['a', 'b'] } }, /the default "c" is not one of a, b/],
        [{ 'x-limits': { 'one-of': ['a'] } }, /two or more distinct kebab-case values/],
        [{ 'x-limits': { 'one-of': ['a', 'a'] } }, /two or more distinct/],
        [{ 'x-limits': { 'one-of': ['a', 'B'] } }, /kebab-case/],
        [{ 'x-limits': 'one-of a, b' }, /must be \{ min, max \},/],
      ] as const) {
        expect(() => limitsOf('persist', 'max-steps', input)).toThrow(message);
      }
      expect(() => limitsOf('persist', 'max-steps', { 'x-limits': null })).toThrow(
        "actions/persist/action.yml input 'max-steps' x-limits: must be { min, max }, { min, max, or: [...] } or { one-of: [...] }",
      );
    });
  });

  it('reads inputs and writes outputs only through the registry module', () => {
    const offenders = ['packages']
      .flatMap((dir) => readdirSync(join(root, dir)).map((pkg) => join(root, dir, pkg, 'src')))
      .filter((dir) => {
        try {
          return statSync(dir).isDirectory();
        } catch {
          return false;
        }
      })
      .flatMap(sourceFiles)
      // action-io.ts is the registry's reader and writer, and the only module that speaks to the runner.
      .filter((file) => !file.endsWith(join('io', 'action-io.ts')))
      .filter((file) => {
        const text = readFileSync(file, 'utf8');
        return (
          /\b(getInput|getBooleanInput|getMultilineInput|setOutput)\s*\(/.test(text) ||
          /from '@actions\/core'/.test(text)
        );
      })
      .map((file) => relative(root, file));
    expect(offenders).toEqual([]);
  });
});
