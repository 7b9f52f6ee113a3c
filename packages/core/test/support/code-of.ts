import { WritError } from '../../src/errors.js';

/** The catalogue code a call fails with (`not-a-writ-error` for anything else), or undefined if it succeeds. */
export function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error: unknown) {
    return error instanceof WritError ? error.code : 'not-a-writ-error';
  }
  return undefined;
}
