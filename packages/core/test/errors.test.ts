import { describe, expect, it } from '@jest/globals';
import type { ErrorCode } from '../src/errors.js';
import {
  ERRORS_DOC_URL,
  ERROR_CATALOGUE,
  WritError,
  errorDoc,
  errorLink,
  errorCode,
  errorMessage,
  failureMessage,
  isErrorCode,
  toError,
} from '../src/errors.js';

describe('error catalogue', () => {
  it('holds only kebab-case codes, each with a one-line meaning and what to do', () => {
    for (const code of Object.keys(ERROR_CATALOGUE)) {
      expect(code).toMatch(/^[a-z]+(?:-[a-z]+)*$/);
      const { meaning, fix } = errorDoc(code as ErrorCode);
      expect(meaning).not.toMatch(/\n/);
      expect(meaning.length).toBeGreaterThan(10);
      expect(fix).not.toBeNull();
      expect(fix).not.toMatch(/\n/);
      expect(fix!.length).toBeGreaterThan(10);
    }
  });

  it("ends every failure message with the code's stable link in docs/errors.md", () => {
    expect(failureMessage(new WritError('fenced', 'epoch 1 is no longer current'))).toBe(
      'fenced: epoch 1 is no longer current — https://github.com/writ-actions/writ/blob/main/docs/errors.md#fenced',
    );
    expect(failureMessage(new Error('boom'))).toMatch(/— https:\/\/\S+\/docs\/errors\.md#internal-error$/);
    expect(errorLink('invalid-input')).toBe(`${ERRORS_DOC_URL}#invalid-input`);
  });

  it('contains every code the product contract names', () => {
    for (const code of [
      'malformed-plan',
      'run-exists',
      'unauthorized-approval',
      'insufficient-permission',
      'approval-already-consumed',
      'stale-or-mismatched-approval',
      'repository-lease-held',
      'fenced',
      'needs-reconciliation',
      'live-writes-disabled',
      'github-conditional-mutation-not-proven',
      'conflict',
      'precheck-inconclusive',
      'artifact-pr-closed',
      'probe-repository-refused',
      'ledger-provenance-unproven',
      'ledger-branch-exists',
      'malformed-command',
      'approval-comment-edited',
    ]) {
      expect(isErrorCode(code)).toBe(true);
    }
    expect(isErrorCode('no-such-code')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
  });

  it('formats a user error as <code>: <message>', () => {
    const error = new WritError('run-exists', 'run r1 was already proposed', { details: { run: 'r1' } });
    expect(failureMessage(error)).toBe(
      `run-exists: run r1 was already proposed — ${errorLink('run-exists')}`,
    );
    expect(errorCode(error)).toBe('run-exists');
    expect(error.details).toEqual({ run: 'r1' });
    expect(Object.isFrozen(error.details)).toBe(true);
  });

  it('classifies anything else as internal-error, keeping the thrown value', () => {
    expect(errorCode(new TypeError('x'))).toBe('internal-error');
    expect(failureMessage(new TypeError('boom'))).toBe(
      `internal-error: boom — ${errorLink('internal-error')}`,
    );
    expect(failureMessage('a string')).toBe(
      `internal-error: non-Error thrown: a string — ${errorLink('internal-error')}`,
    );
    expect(errorMessage({ a: 1 })).toBe('non-Error thrown: {"a":1}');
    expect(errorMessage(undefined)).toBe('non-Error thrown: undefined');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(errorMessage(cyclic)).toBe('non-Error thrown: [object Object]');
    const wrapped = toError(42) as Error & { thrown?: unknown };
    expect(wrapped.thrown).toBe(42);
    const original = new Error('same');
    expect(toError(original)).toBe(original);
  });

  it('keeps the cause', () => {
    const cause = new Error('root');
    expect(new WritError('conflict', 'x', { cause }).cause).toBe(cause);
  });
});
