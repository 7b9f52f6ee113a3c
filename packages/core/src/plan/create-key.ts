// The idempotency key of a plan's issue create: what persist's marker pre-check and the plan's duplicate
// check (validate.ts) both compare.
import { idempotencyKey } from '../idempotency/key.js';
import type { IssueCreateStep } from './types.js';

/** The issue-create request's idempotency key: the request without any marker (ADR 0026). */
export function createKey(step: IssueCreateStep): string {
  return idempotencyKey({
    method: 'POST',
    pathTemplate: '/repos/{owner}/{repo}/issues',
    body: {
      title: step.title,
      body: step.body ?? '',
      labels: step.labels ?? [],
      milestone: step.milestone ?? null,
    },
  });
}
