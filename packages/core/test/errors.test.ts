import { describe, expect, it } from '@jest/globals';
import {
  ERROR_CATALOGUE,
  WritError,
  errorCode,
  errorMessage,
  failureMessage,
  isErrorCode,
  toError,
} from '../src/errors.js';

describe('error catalogue', () => {
  it('holds only kebab-case codes with a one-line meaning', () => {
    for (const [code, meaning] of Object.entries(ERROR_CATALOGUE)) {
      expect(code).toMatch(/^[a-z]+(?:-[a-z]+)*$/);
      expect(meaning).not.toMatch(/\n/);
      expect(meaning.length).toBeGreaterThan(10);
    }
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
    expect(failureMessage(error)).toBe('run-exists: run r1 was already proposed');
    expect(errorCode(error)).toBe('run-exists');
    expect(error.details).toEqual({ run: 'r1' });
    expect(Object.isFrozen(error.details)).toBe(true);
  });

  it('classifies anything else as internal-error, keeping the thrown value', () => {
    expect(errorCode(new TypeError('x'))).toBe('internal-error');
    expect(failureMessage(new TypeError('boom'))).toBe('internal-error: boom');
    expect(failureMessage('a string')).toBe('internal-error: non-Error thrown: a string');
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
