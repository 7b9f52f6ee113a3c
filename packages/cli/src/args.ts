/** What every `writ` command does with its arguments first: strict options, and the repository it acts on. */
import { parseArgs } from 'node:util';
import { WritError } from '@writ/core/errors.js';
import { parseRepository } from '@writ/core/ledger/paths.js';
import type { CliEnv } from './cli-io.js';

export type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

/** The parsed values of `T`'s options (each absent when not given), plus `help`. */
export type OptionValues<T extends OptionSpec> = {
  [K in keyof T]?: T[K]['type'] extends 'string'
    ? T[K]['multiple'] extends true
      ? string[]
      : string
    : boolean;
} & { help?: boolean };

/** Every command takes `-h` / `--help`. */
export const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * Collects every problem with a command's arguments, so one run reports them all: a maintainer fixes
 * the command line once, not once per mistake. `done()` throws one `invalid-input` naming each.
 */
export class Problems {
  private readonly list: string[] = [];

  constructor(private readonly command: string) {}

  add(problem: string): void {
    this.list.push(problem);
  }

  /** Runs `check`; a WritError it throws becomes one more problem (its message), anything else propagates. */
  check<T>(check: () => T): T | undefined {
    try {
      return check();
    } catch (error: unknown) {
      if (!(error instanceof WritError) || error.code !== 'invalid-input') throw error;
      this.add(error.message.replace(/\.$/, ''));
      return undefined;
    }
  }

  get count(): number {
    return this.list.length;
  }

  done(): void {
    const [only, ...more] = this.list;
    if (only === undefined) return;
    const help = `see ${this.command} --help`;
    throw new WritError(
      'invalid-input',
      more.length === 0
        ? `${only} (${help}).`
        : `${this.list.length} problems with the arguments of ${this.command} (${help}): ${this.list.map((problem, index) => `(${index + 1}) ${problem}`).join('; ')}.`,
      { details: { problems: this.list.length } },
    );
  }
}

function optionName(raw: string): string {
  return JSON.stringify(raw.slice(0, 60));
}

/**
 * Parses `args` against `options` (plus `--help`), collecting every unknown option, missing value,
 * value given to a flag and stray argument into `problems`: each names the option as typed.
 * `positionals` is how many bare arguments the command takes (a subcommand's stage name).
 */
export function parseOptionsInto<T extends OptionSpec>(
  args: readonly string[],
  options: T,
  problems: Problems,
  positionals = 0,
): { values: OptionValues<T>; positionals: string[] } {
  const spec = { ...options, ...HELP_OPTION };
  const { tokens } = parseArgs({
    args: [...args],
    options: spec,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const known = new Map(Object.entries(spec));
  const bare: string[] = [];
  const values: Record<string, unknown> = {};
  for (const token of tokens) {
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') {
      bare.push(token.value);
      continue;
    }
    const option = known.get(token.name);
    if (option === undefined) {
      problems.add(`unknown option ${optionName(token.rawName)}`);
      continue;
    }
    if (option.type === 'boolean') {
      if (token.value === undefined) values[token.name] = true;
      else problems.add(`option ${token.rawName} takes no value (got ${optionName(token.value)})`);
      continue;
    }
    // `--repo --json`: parseArgs would take "--json" as the value; a value is never an option.
    if (token.value === undefined || (!token.inlineValue && token.value.startsWith('--'))) {
      problems.add(`option ${token.rawName} needs a value`);
      continue;
    }
    values[token.name] =
      option.multiple === true
        ? [...((values[token.name] as string[] | undefined) ?? []), token.value]
        : token.value;
  }
  if (bare.length > positionals) {
    problems.add(
      `unexpected argument${bare.length - positionals > 1 ? 's' : ''} ${bare.slice(positionals).map(optionName).join(', ')}`,
    );
  }
  return { values: values as OptionValues<T>, positionals: bare.slice(0, positionals) };
}

/** Parses `args` strictly: every unknown option or missing value is reported at once, as `invalid-input`. */
export function parseOptions<T extends OptionSpec>(
  args: readonly string[],
  options: T,
  command = 'writ',
): OptionValues<T> {
  const problems = new Problems(command);
  const { values } = parseOptionsInto(args, options, problems);
  if (values.help !== true) problems.done();
  return values;
}

/** `--repo`, else `GITHUB_REPOSITORY`, validated as `owner/repo`. */
export function repositoryFrom(repo: string | undefined, env: CliEnv): string {
  const repository = repo ?? env.GITHUB_REPOSITORY ?? '';
  if (repository === '') {
    throw new WritError('invalid-input', 'No repository: pass --repo <owner/repo> or set GITHUB_REPOSITORY.');
  }
  parseRepository(repository, '--repo');
  return repository;
}
