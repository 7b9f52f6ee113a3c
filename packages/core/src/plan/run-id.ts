import { WritError } from '../errors.js';
import { bareHex } from '../canonical-json.js';
import { containsSecret } from '../redact.js';

/** Run IDs become ledger paths and comment markers: short, no separators, no dots, no traversal. */
export const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** A run ID names ledger paths, comment markers and summaries: one shaped like a token is refused. */
export function isValidRunId(value: string): boolean {
  return RUN_ID_PATTERN.test(value) && !containsSecret(value);
}

/** Throws `invalid-run-id` unless the value is a safe run ID. The message never echoes the raw value. */
export function validateRunId(value: string, source = 'run-id'): string {
  if (!isValidRunId(value)) {
    throw new WritError(
      'invalid-run-id',
      `${source} must be 1-64 characters of [A-Za-z0-9_-] starting with a letter or digit, and not shaped like a token (got ${value.length} characters)`,
    );
  }
  return value;
}

/** The default run ID: derived from the digest alone, so the same plan always proposes the same run. */
export function deriveRunId(planDigest: string): string {
  return `run-${bareHex(planDigest).slice(0, 16)}`;
}
