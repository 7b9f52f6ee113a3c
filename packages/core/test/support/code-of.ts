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

/** The WritError a promise rejects with; anything else, or success, fails the test. */
export async function refusalError(promise: Promise<unknown>): Promise<WritError> {
  try {
    await promise;
  } catch (error: unknown) {
    if (error instanceof WritError) return error;
    throw error;
  }
  throw new Error('expected a coded refusal');
}

/** The catalogue code a promise rejects with (see refusalError). */
export async function refusal(promise: Promise<unknown>): Promise<string> {
  return (await refusalError(promise)).code;
}
