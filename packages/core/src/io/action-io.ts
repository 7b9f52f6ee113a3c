/**
 * The only module that reads inputs or sets outputs. Everything a stage reads or writes is declared in
 * the registry; asking for anything else is a type error.
 */
import { WritError } from '../errors.js';
import { redact, registerSecret } from '../redact.js';
import type { InputName, OutputName, StageName } from './registry.js';
import { STAGES } from './registry.js';
import * as runner from './runner-protocol.js';

export interface StageIo<S extends StageName> {
  /** A trimmed string input; the registry default when the runner supplied none. */
  input(name: InputName<S>): string;
  /** A boolean input: only true/false spellings are accepted, anything else is `invalid-input`. */
  booleanInput(name: InputName<S>): boolean;
  /** A positive integer input, or undefined when empty. */
  integerInput(name: InputName<S>): number | undefined;
  /** Sets outputs (redacted); unset outputs stay unset. */
  setOutputs(values: Partial<Record<OutputName<S>, string | number>>): void;
}

export function stageIo<S extends StageName>(stage: S): StageIo<S> {
  const spec: (typeof STAGES)[StageName] = STAGES[stage];
  const inputs = spec.inputs as Record<string, { required: boolean; default?: string; secret?: boolean }>;

  // Secrets are registered before anything else can read or print them.
  for (const [name, input] of Object.entries(inputs)) {
    if (!input.secret) continue;
    const value = runner.getInput(name);
    if (value !== '') {
      runner.setSecret(value);
      registerSecret(value);
    }
  }

  const read = (name: string): string => {
    const input = inputs[name];
    if (!input) throw new Error(`input '${name}' is not declared for stage ${stage}`);
    const value = runner.getInput(name);
    if (value !== '') return value;
    if (input.required)
      throw new WritError('invalid-input', `input '${name}' is required and was not supplied`);
    return input.default ?? '';
  };

  return {
    input: read,
    booleanInput(name) {
      const value = read(name);
      if (/^(true|True|TRUE)$/.test(value)) return true;
      if (/^(false|False|FALSE)$/.test(value)) return false;
      throw new WritError(
        'invalid-input',
        `input '${name}' must be true or false (got ${JSON.stringify(redact(value).slice(0, 40))})`,
      );
    },
    integerInput(name) {
      const value = read(name);
      if (value === '') return undefined;
      if (!/^[1-9][0-9]{0,15}$/.test(value) || !Number.isSafeInteger(Number(value))) {
        throw new WritError(
          'invalid-input',
          `input '${name}' must be a positive integer (got ${JSON.stringify(redact(value).slice(0, 40))})`,
        );
      }
      return Number(value);
    },
    setOutputs(values) {
      for (const [name, value] of Object.entries(values)) {
        if (value === undefined) continue;
        if (!(name in spec.outputs)) throw new Error(`output '${name}' is not declared for stage ${stage}`);
        runner.setOutput(name, redact(String(value)));
      }
    },
  };
}
