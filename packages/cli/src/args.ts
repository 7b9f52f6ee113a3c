/** What every `writ` command does with its arguments first: strict options, and the repository it acts on. */
import { parseArgs } from 'node:util';
import { WritError } from '@writ/core/errors.js';
import { parseRepository } from '@writ/core/ledger/paths.js';
import type { CliEnv } from './cli.js';

/** Parses `args` strictly: an unknown option or a missing value is `invalid-input` naming it. */
export function parseOptions<T extends Record<string, { type: 'string' | 'boolean'; short?: string }>>(
  args: readonly string[],
  options: T,
): ReturnType<typeof parseArgs<{ options: T; strict: true; allowPositionals: false }>>['values'] {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals: false }).values;
  } catch (error: unknown) {
    throw new WritError('invalid-input', error instanceof Error ? error.message : 'Invalid arguments.');
  }
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
