/**
 * An issue create's idempotency key per key scope (ADR 0026, issue 32 item 6): `repository` (the
 * default) is a function of the request alone — the same title, body, labels and milestone give the
 * same key in any run, and it is exactly the key Writ derived before scopes existed, so items made by
 * earlier versions are found again; anything that makes two creates different changes it. `run` hashes
 * the run ID in: the same request in another run has another key.
 */
import { describe, expect, it } from '@jest/globals';
import { digest } from '../../src/canonical-json.js';
import { idempotencyKey } from '../../src/idempotency/key.js';
import { createKey, keyScopeOf } from '../../src/plan/create-key.js';
import type { IssueCreateStep } from '../../src/plan/types.js';

const step: IssueCreateStep = {
  id: 'epic',
  kind: 'issue.create',
  title: 'Epic: offline mode',
  body: 'Offline mode, end to end.',
  labels: ['epic'],
};

describe('createKey', () => {
  it('repository scope (the default): the request alone, byte-stable, and the key Writ always derived', () => {
    const key = createKey(step);
    expect(key).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(createKey(step, { keyScope: 'repository' })).toBe(key);
    expect(createKey({ ...step })).toBe(key);
    // The pre-scope derivation: the canonical JSON of {method, path, body}, nothing else.
    expect(key).toBe(
      digest({
        method: 'POST',
        path: '/repos/{owner}/{repo}/issues',
        body: { title: step.title, body: step.body, labels: ['epic'], milestone: null },
      }),
    );
  });

  it('repository scope: the step ID and the run do not change it; what makes two creates differ does', () => {
    const key = createKey(step);
    expect(createKey({ ...step, id: 'another-step' })).toBe(key);
    expect(keyScopeOf('repository', 'run-7')).toEqual({ keyScope: 'repository' });
    expect(createKey(step, keyScopeOf('repository', 'run-7'))).toBe(key);
    expect(createKey({ ...step, title: 'Epic: online mode' })).not.toBe(key);
    expect(createKey({ ...step, body: 'Other text.' })).not.toBe(key);
    expect(createKey({ ...step, labels: ['epic', 'p1'] })).not.toBe(key);
    expect(createKey({ ...step, milestone: { number: 3 } })).not.toBe(key);
    expect(createKey({ ...step, milestone: { key: 'roadmap:v3' } })).not.toBe(key);
  });

  it('an absent body or label list is the empty one', () => {
    const bare: IssueCreateStep = { id: 'bare', kind: 'issue.create', title: 'Bare' };
    expect(createKey(bare)).toBe(createKey({ ...bare, body: '', labels: [] }));
  });

  it('run scope: the run ID is hashed in, so each run has its own key for the same request', () => {
    const one = createKey(step, { keyScope: 'run', runId: 'run-1' });
    const two = createKey(step, keyScopeOf('run', 'run-2'));
    expect(one).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(one).not.toBe(two);
    expect(one).not.toBe(createKey(step));
    expect(createKey(step, keyScopeOf('run', 'run-1'))).toBe(one);
    expect(one).toBe(
      idempotencyKey({
        method: 'POST',
        pathTemplate: '/repos/{owner}/{repo}/issues',
        body: { title: step.title, body: step.body, labels: ['epic'], milestone: null },
        scope: { run: 'run-1' },
      }),
    );
  });
});
