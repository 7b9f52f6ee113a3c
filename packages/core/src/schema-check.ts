/**
 * One reading of a precompiled validator's verdict for the files a user or a stage commits (`.writ/`
 * settings, the probe evidence): JSON text → the value, or its problems one line each, named by JSON
 * pointer. Ledger files keep their own coded errors (ledger/schemas.ts).
 */
import type { ValidateFunction } from 'ajv';

/** Schema problems of a parsed value, one line each (empty when valid); at most `limit` when given. */
export function schemaProblems(validate: ValidateFunction, value: unknown, limit?: number): string[] {
  if (validate(value)) return [];
  const errors = validate.errors ?? [];
  return (limit === undefined ? errors : errors.slice(0, limit)).map(
    (error) => `${error.instancePath === '' ? '/' : error.instancePath} ${error.message ?? 'is invalid'}`,
  );
}

/** Parses and validates JSON text: the value, or the problems (never both). */
export function parseChecked(
  validate: ValidateFunction,
  text: string,
): { value: unknown; problems: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return { value: undefined, problems: ['is not JSON'] };
  }
  const problems = schemaProblems(validate, value);
  return problems.length === 0 ? { value, problems } : { value: undefined, problems };
}
