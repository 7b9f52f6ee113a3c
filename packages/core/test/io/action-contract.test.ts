import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { STAGES } from '../../src/io/registry.js';
// @ts-expect-error: a build script (plain ESM JavaScript, no declarations)
import { discoverStages, renderRegistry } from '../../../../scripts/build/generate-registry.mjs';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const stagesOnDisk = readdirSync(join(root, 'actions')).filter((name) =>
  statSync(join(root, 'actions', name)).isDirectory(),
);

interface ActionYml {
  name: string;
  description: string;
  inputs?: Record<string, { description: string; required?: boolean; default?: string }>;
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

    it('declares exactly the registry inputs, with the same required flags, defaults and descriptions', () => {
      const declared = Object.fromEntries(
        Object.entries(action.inputs ?? {}).map(([name, input]) => [
          name,
          {
            description: input.description.trim(),
            required: input.required ?? false,
            default: input.default,
          },
        ]),
      );
      const registry = Object.fromEntries(
        Object.entries(
          spec.inputs as Record<string, { description: string; required: boolean; default?: string }>,
        ).map(([name, input]) => [
          name,
          { description: input.description, required: input.required, default: input.default },
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
