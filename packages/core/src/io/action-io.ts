/**
 * The runner interface, through @actions/core and nowhere else: inputs (declared in the registry, so
 * asking for anything else is a type error, and held to the limits action.yml declares), outputs, masking, log lines and annotations, groups, the
 * job summary and the failure of the step. No other module imports @actions/core.
 */
import * as core from '@actions/core';
import { WritError, errorCode, failureMessage } from '../errors.js';
import type { Logger } from '../redact.js';
import { redact, redactingLogger, registerSecret } from '../redact.js';
import type {
  BoundedInputName,
  Choice,
  ChoiceInputName,
  InputName,
  InputSpec,
  Keyword,
  KeywordInputName,
  OutputName,
  StageName,
} from './registry.js';
import { STAGES } from './registry.js';

export interface StageIo<S extends StageName> {
  /** A trimmed string input; the registry default when the runner supplied none. */
  input(name: InputName<S>): string;
  /** A boolean input: only true/false spellings are accepted, anything else is `invalid-input`. */
  booleanInput(name: InputName<S>): boolean;
  /** A positive integer input, or undefined when empty. */
  integerInput(name: InputName<S>): number | undefined;
  /** An integer input within the bounds action.yml declares for it: `integerInput`, then `bounded`. */
  boundedInput(name: BoundedInputName<S>): number;
  /** `value` (read from `name`, undefined when empty) held to the bounds action.yml declares for it. */
  bounded(name: BoundedInputName<S>, value: number | undefined): number;
  /**
   * An integer input within its declared bounds, or one of the keywords action.yml allows instead of a
   * number (`x-limits: { min, max, or: [...] }`), returned as is.
   */
  boundedOrKeywordInput<N extends KeywordInputName<S>>(name: N): number | Keyword<S, N>;
  /** A string input that must be one of the values action.yml declares for it. */
  choiceInput<N extends ChoiceInputName<S>>(name: N): Choice<S, N>;
  /** Sets outputs (redacted); unset outputs stay unset. */
  setOutputs(values: Partial<Record<OutputName<S>, string | number>>): void;
}

/** A value quoted for a message: redacted and cut short (it may be anything a workflow passed). */
export function quoted(value: string): string {
  return JSON.stringify(redact(value).slice(0, 40));
}

/**
 * A repository-relative file path on the default branch, as persist's and preview's `policy-file` and
 * `evidence-file` inputs name one: no traversal, no absolute path, no empty segment.
 */
export function repositoryPath(value: string, name: string): string {
  if (
    !/^[A-Za-z0-9._-][A-Za-z0-9._/-]{0,255}$/.test(value) ||
    value.split('/').some((part) => part === '..' || part === '')
  ) {
    throw new WritError(
      'invalid-input',
      `input '${name}' must be a repository-relative file path (got ${quoted(value)})`,
    );
  }
  return value;
}

/** Masks a secret in every later log line (the runner) and in everything Writ prints (the redactor). */
export function registerRunnerSecret(value: string): void {
  core.setSecret(value);
  registerSecret(value);
}

/**
 * A token goes into an HTTP `Authorization` header: visible ASCII only. Anything else (a space, a
 * newline, a control or non-ASCII character) is refused here, naming the input and never echoing the
 * value, before a request fails on it with a transport error that would blame the API URL.
 */
function checkedToken(name: string, value: string): string {
  const wrong = Array.from(value).filter((c) => !/^[\x21-\x7e]$/.test(c)).length;
  if (wrong === 0) return value;
  throw new WritError(
    'invalid-input',
    `input '${name}' holds ${wrong} character${wrong === 1 ? '' : 's'} no token has (whitespace, control or non-ASCII: an unexpanded \${{ … }} expression, or more than the token pasted); a valid token is required`,
  );
}

export function stageIo<S extends StageName>(stage: S): StageIo<S> {
  const spec: (typeof STAGES)[StageName] = STAGES[stage];
  const inputs = spec.inputs as Readonly<Record<string, InputSpec>>;

  // Secrets are registered before anything else can read or print them.
  for (const [name, input] of Object.entries(inputs)) {
    if (!input.secret) continue;
    const value = core.getInput(name);
    if (value !== '') registerRunnerSecret(value);
  }

  const read = (name: string): string => {
    const input = inputs[name];
    if (!input) throw new Error(`input '${name}' is not declared for stage ${stage}`);
    const value = core.getInput(name);
    if (value !== '' && input.secret) return checkedToken(name, value);
    if (value !== '') return value;
    if (input.required)
      throw new WritError('invalid-input', `input '${name}' is required and was not supplied`);
    return input.default ?? '';
  };

  const integer = (name: string): number | undefined => {
    const value = read(name);
    if (value === '') return undefined;
    if (!/^[1-9][0-9]{0,15}$/.test(value) || !Number.isSafeInteger(Number(value))) {
      throw new WritError(
        'invalid-input',
        `input '${name}' must be a positive integer (got ${quoted(value)})`,
      );
    }
    return Number(value);
  };

  const bounded = (name: string, value: number | undefined): number => {
    const { min, max } = inputs[name] ?? {};
    if (min === undefined || max === undefined) throw new Error(`input '${name}' declares no bounds`);
    if (value === undefined || value < min || value > max) {
      throw new WritError(
        'invalid-input',
        `input '${name}' must be an integer from ${min} to ${max} (got ${value === undefined ? 'nothing' : value})`,
      );
    }
    return value;
  };

  return {
    input: read,
    integerInput: integer,
    bounded,
    boundedInput: (name) => bounded(name, integer(name)),
    boundedOrKeywordInput(name) {
      const { min, max, or: keywords } = inputs[name] ?? {};
      if (keywords === undefined) throw new Error(`input '${name}' declares no keywords`);
      const value = read(name);
      if (keywords.includes(value)) return value as Keyword<S, typeof name>;
      if (/^[1-9][0-9]{0,15}$/.test(value) && Number(value) >= Number(min) && Number(value) <= Number(max)) {
        return Number(value);
      }
      throw new WritError(
        'invalid-input',
        `input '${name}' must be ${keywords.join(' or ')} or an integer from ${min} to ${max} (got ${quoted(value)})`,
      );
    },
    choiceInput(name) {
      const allowed = inputs[name]?.oneOf;
      if (allowed === undefined) throw new Error(`input '${name}' declares no allowed values`);
      const value = read(name);
      if (!allowed.includes(value)) {
        throw new WritError(
          'invalid-input',
          `input '${name}' must be one of ${allowed.join(', ')} (got ${quoted(value)})`,
        );
      }
      return value as Choice<S, typeof name>;
    },
    booleanInput(name) {
      const value = read(name);
      // An empty input takes the registry default (action.yml's `'true'` or `'false'`).
      if (core.getInput(name) === '') return /^(true|True|TRUE)$/.test(value);
      try {
        return core.getBooleanInput(name);
      } catch {
        // core's TypeError names neither Writ's code nor the value: say both, and what is expected.
        throw new WritError('invalid-input', `input '${name}' must be true or false (got ${quoted(value)})`);
      }
    },
    setOutputs(values) {
      for (const [name, value] of Object.entries(values)) {
        if (value === undefined) continue;
        if (!(name in spec.outputs)) throw new Error(`output '${name}' is not declared for stage ${stage}`);
        core.setOutput(name, redact(String(value)));
      }
    },
  };
}

/** The runner's log: plain lines, warning and debug annotations, every line redacted. */
export const runnerLogger: Logger = redactingLogger({
  info: (message) => core.info(message),
  warning: (message) => core.warning(message),
  debug: (message) => core.debug(message),
});

/** Runs `fn` inside a collapsible log group. */
export function logGroup<T>(name: string, fn: () => T): T {
  core.startGroup(redact(name));
  try {
    return fn();
  } finally {
    core.endGroup();
  }
}

/** GitHub refuses step summaries over 1 MiB; Writ stays below that. */
export const MAX_SUMMARY_BYTES = 1024 * 1024 - 4096;

/** Appends Markdown to the job summary, redacted and bounded. Does nothing outside a runner. */
export async function writeSummary(markdown: string): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return;
  let text = redact(markdown);
  if (Buffer.byteLength(text, 'utf8') > MAX_SUMMARY_BYTES) {
    text = `${Buffer.from(text, 'utf8')
      .subarray(0, MAX_SUMMARY_BYTES)
      .toString('utf8')
      .replace(/\uFFFD*$/, '')}\n\n_(summary truncated at ${MAX_SUMMARY_BYTES} bytes)_\n`;
  }
  await core.summary.addRaw(text).write();
}

/** Fails the step with `<code>: <message>` (an error annotation, exit code 1); returns the code. */
export function failStep(error: unknown): string {
  const code = errorCode(error);
  core.setFailed(redact(failureMessage(error)));
  return code;
}
