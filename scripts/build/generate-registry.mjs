#!/usr/bin/env node
// Generates the typed I/O registry (packages/core/src/generated/registry.ts) from actions/*/action.yml,
// the single source of every action's interface: names, descriptions, required flags, defaults and value
// limits live in action.yml alone. A limit sits beside the default, under the input's `x-limits` key
// (GitHub's runner ignores keys it does not know in an input; Writ's reader enforces these):
//   x-limits: { min: 1, max: 1000 }        an integer input from min to max (both required)
//   x-limits: { min: 1, max: 50, or: [auto] }  the same, or one of these keywords instead of a number
//   x-limits: { one-of: [report, open-new] }  a string input that is one of these values
// A default must lie within its input's limits. Run by `npm run build`; the output is committed and
// checked fresh by `npm run check-dist`.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const REGISTRY_OUT = 'packages/core/src/generated/registry.ts';

/** Every action: a folder under actions/ holding an action.yml, sorted. */
export function discoverStages() {
  return readdirSync(join(root, 'actions'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, 'actions', entry.name, 'action.yml')))
    .map((entry) => entry.name)
    .sort();
}

/**
 * The one thing action.yml cannot say: which inputs are secrets (registered with core.setSecret and
 * the redactor before first use). A Writ input is a secret exactly when it is named `token` or ends in
 * `-token`; the contract test holds every action to that rule.
 */
export function isSecretInput(name) {
  return name === 'token' || name.endsWith('-token');
}

/** Null for `least` or more distinct kebab-case values, else a message saying what is wrong. */
function keywordsProblem(values, least, what) {
  const kebab = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
  if (
    !Array.isArray(values) ||
    values.length < least ||
    !values.every((value) => typeof value === 'string' && kebab.test(value)) ||
    new Set(values).size !== values.length
  ) {
    return `${what} must list ${least === 1 ? 'one or more' : 'two or more'} distinct kebab-case values`;
  }
  return null;
}

/**
 * An input's `x-limits` (see the header), checked: an integer range (with keywords it may take instead of
 * a number) or a list of allowed values, and the default within it. Returns the registry's fields
 * (`min`, `max`, `or`, or `oneOf`); none when undeclared.
 */
export function inputLimits(stage, name, input) {
  const limits = input['x-limits'];
  if (limits === undefined) return {};
  const where = `actions/${stage}/action.yml input '${name}' x-limits`;
  const keys = typeof limits === 'object' && limits !== null ? Object.keys(limits).sort().join(',') : '';
  const fallback = input.default === undefined ? '' : String(input.default);
  if (keys === 'max,min' || keys === 'max,min,or') {
    const { min, max } = limits;
    if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min < 1 || min > max) {
      throw new Error(`${where}: min and max must be positive integers, min <= max`);
    }
    const keywords = limits.or ?? [];
    const problem = keys === 'max,min' ? null : keywordsProblem(keywords, 1, 'or');
    if (problem !== null) throw new Error(`${where}: ${problem}`);
    const inRange = /^[1-9][0-9]*$/.test(fallback) && +fallback >= min && +fallback <= max;
    if (fallback !== '' && !inRange && !keywords.includes(fallback)) {
      const also = keywords.length === 0 ? '' : ` nor one of ${keywords.join(', ')}`;
      throw new Error(
        `${where}: the default ${JSON.stringify(fallback)} is not from ${min} to ${max}${also}`,
      );
    }
    return keys === 'max,min' ? { min, max } : { min, max, or: keywords };
  }
  if (keys === 'one-of') {
    const values = limits['one-of'];
    const problem = keywordsProblem(values, 2, 'one-of');
    if (problem !== null) {
      throw new Error(`${where}: ${problem}`);
    }
    if (fallback !== '' && !values.includes(fallback)) {
      throw new Error(`${where}: the default ${JSON.stringify(fallback)} is not one of ${values.join(', ')}`);
    }
    return { oneOf: values };
  }
  throw new Error(`${where}: must be { min, max }, { min, max, or: [...] } or { one-of: [...] }`);
}

/** YAML folds a multi-line description into one line; surrounding whitespace is not part of it. */
function text(value) {
  return String(value ?? '').trim();
}

function stageSpec(stage) {
  const action = parse(readFileSync(join(root, 'actions', stage, 'action.yml'), 'utf8'));
  const inputs = {};
  for (const [name, input] of Object.entries(action.inputs ?? {})) {
    inputs[name] = {
      description: text(input.description),
      required: input.required === true,
      ...(input.default === undefined ? {} : { default: String(input.default) }),
      ...inputLimits(stage, name, input),
      ...(isSecretInput(name) ? { secret: true } : {}),
    };
  }
  const outputs = {};
  for (const [name, output] of Object.entries(action.outputs ?? {})) {
    outputs[name] = { description: text(output.description) };
  }
  return { name: text(action.name), description: text(action.description), inputs, outputs };
}

/** Renders the registry module for the given stages (sorted, so the output is stable). */
export function renderRegistry(stages) {
  const specs = Object.fromEntries([...stages].sort().map((stage) => [stage, stageSpec(stage)]));
  return [
    '// Generated by scripts/build/generate-registry.mjs from actions/*/action.yml. Do not edit: change the',
    '// action.yml and run `npm run build` (`npm run check-dist` fails on drift).',
    '',
    `export const STAGES = ${JSON.stringify(specs, null, 2)} as const;`,
    '',
  ].join('\n');
}

export function generateRegistry(stages = discoverStages()) {
  const target = join(root, REGISTRY_OUT);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, renderRegistry(stages));
  return REGISTRY_OUT;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(`generated ${generateRegistry()}`);
}
