/**
 * `.writ/policy.json`: per step kind, `require-proof` or `best-effort`. Apart from the other `.writ/`
 * files (files.ts) so the stages that read it (persist, probe) bundle only its validator, not init's
 * renderer and every other schema.
 */
import validatePolicy from '../generated/writ-policy-validator.js';
import { POLICY_KINDS } from '../plan/types.js';
import { parseChecked } from '../schema-check.js';

export { POLICY_KINDS };

export const POLICY_PATH = '.writ/policy.json';

export interface WritPolicy {
  schema: 1;
  kinds: Record<(typeof POLICY_KINDS)[number], 'require-proof' | 'best-effort'>;
  /** How far a create's idempotency key reaches (absent: `repository`; docs/idempotency.md). */
  idempotency?: { key_scope?: 'repository' | 'run' };
}

export function defaultPolicy(): WritPolicy {
  return {
    schema: 1,
    kinds: Object.fromEntries(POLICY_KINDS.map((kind) => [kind, 'require-proof'])) as WritPolicy['kinds'],
  };
}

/** Parses and validates policy text: the policy, or the problems, one line each (never both). */
export function parsePolicy(text: string): { policy: WritPolicy | undefined; problems: string[] } {
  const { value, problems } = parseChecked(validatePolicy, text);
  return { policy: value as WritPolicy | undefined, problems };
}

export { sha256 } from '../canonical-json.js';
