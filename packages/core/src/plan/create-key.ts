// The idempotency key of a plan's issue create: what persist's marker pre-check and the plan's duplicate
// check (validate.ts) both compare.
import { idempotencyKey } from '../idempotency/key.js';
import type { IssueCreateStep } from './types.js';

/** How far a create's idempotency key reaches (`.writ/policy.json` `idempotency.key_scope`). */
export type KeyScope = 'repository' | 'run';

/** Where a key reaches: the repository (any run), or one run (the key includes its ID). */
export type CreateKeyScope = { keyScope: 'repository' } | { keyScope: 'run'; runId: string };

/** The scope of a key from the policy's `keyScope` and the run ID. */
export function keyScopeOf(keyScope: KeyScope, runId: string): CreateKeyScope {
  return keyScope === 'run' ? { keyScope, runId } : { keyScope };
}

/**
 * The issue-create request's idempotency key: the request without any marker (ADR 0026). Repository
 * scope (the default): a function of the request alone — the title, body, labels and milestone that
 * make two creates "the same" — never of the run, so a later run's identical create finds the earlier
 * one; run scope: the run ID is hashed in too, so only the same run's create matches.
 */
export function createKey(step: IssueCreateStep, scope: CreateKeyScope = { keyScope: 'repository' }): string {
  return idempotencyKey({
    method: 'POST',
    pathTemplate: '/repos/{owner}/{repo}/issues',
    body: {
      title: step.title,
      body: step.body ?? '',
      labels: step.labels ?? [],
      milestone: step.milestone ?? null,
    },
    ...(scope.keyScope === 'run' ? { scope: { run: scope.runId } } : {}),
  });
}
