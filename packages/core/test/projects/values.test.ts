/**
 * The six values of a run's project item, from its ledger record alone: fixed vocabulary for the state,
 * risk, verification and decision; the blocker summary holds only code- and step-ID-shaped tokens (a
 * hostile string is dropped, never shown) and is bounded; the milestone is the step progress.
 */
import { describe, expect, it } from '@jest/globals';
import type { RunFile, RunStep } from '../../src/ledger/types.js';
import { PROJECT_VOCABULARY, projectValues } from '../../src/projects/values.js';

function step(id: string, status: RunStep['status'], errorCode: string | null = null): RunStep {
  return {
    id,
    kind: 'milestone.upsert',
    status,
    epoch: status === 'pending' ? null : 1,
    pre_state_digest: null,
    evidence: errorCode === null ? null : { status_code: null, error_code: errorCode },
    resources: [],
    reconciled_by: null,
  };
}

function run(overrides: Partial<RunFile> = {}): RunFile {
  return {
    schema: 1,
    repository: 'acme/widgets',
    run_id: 'run-1',
    plan_digest: 'sha256:0',
    evidence_digest: null,
    scope: { repository: 'acme/widgets', digest: 'sha256:0' },
    bounds: { max_steps: 10 },
    state: 'proposed',
    approval: null,
    owner: null,
    steps: [step('a', 'pending'), step('b', 'pending')],
    stop_reason: null,
    blockers: [],
    proposed_at: '2026-12-01T00:00:00Z',
    ...overrides,
  };
}

const APPROVAL = {
  actor_login: 'alice',
  actor_id: 2,
  role_name: 'maintain',
  comment_id: 5,
  comment_url: 'https://github.com/acme/widgets/issues/1#issuecomment-5',
  digest: 'sha256:0',
  consumed_at: '2026-12-01T00:01:00Z',
  epoch: 1,
};

describe('projectValues', () => {
  it('a proposed run', () => {
    expect(projectValues(run())).toEqual({
      state: 'proposed',
      risk: 'unknown',
      verification: 'not-started',
      decision: 'awaiting-approval',
      blockers: 'none',
      milestone: '0/2 steps done',
    });
  });

  it('the preview’s risk; a running, then a completed run', () => {
    const preview = { base_sha: 'a'.repeat(40), risk: 'high' as const, warnings: [] };
    const running = run({
      state: 'running',
      approval: APPROVAL,
      preview,
      steps: [step('a', 'done'), step('b', 'claimed')],
    });
    expect(projectValues(running)).toMatchObject({
      state: 'running',
      risk: 'high',
      verification: 'in-progress',
      decision: 'approved',
      blockers: 'b:claimed',
      milestone: '1/2 steps done',
    });
    const completed = run({ state: 'completed', approval: APPROVAL, steps: [step('a', 'done')] });
    expect(projectValues(completed)).toMatchObject({ verification: 'verified', blockers: 'none' });
  });

  it('needs-reconciliation, conflict, failed, cancelled and never approved', () => {
    const stuck = run({
      state: 'needs-reconciliation',
      approval: APPROVAL,
      blockers: ['needs-reconciliation'],
      steps: [step('a', 'claimed', 'write-outcome-unknown')],
    });
    expect(projectValues(stuck)).toMatchObject({
      verification: 'needs-reconciliation',
      decision: 'awaiting-reconciliation',
      blockers: 'needs-reconciliation, a:write-outcome-unknown',
    });
    const conflict = run({ state: 'running', approval: APPROVAL, steps: [step('a', 'conflict')] });
    expect(projectValues(conflict)).toMatchObject({ verification: 'conflict', blockers: 'a:conflict' });
    const failed = run({ state: 'failed', approval: APPROVAL, stop_reason: 'step-failed' });
    expect(projectValues(failed)).toMatchObject({ verification: 'failed', blockers: 'step-failed' });
    const cancelled = run({
      state: 'cancelled',
      cancelled_by: { actor_login: 'bob', actor_id: 3, role_name: 'write' },
    });
    expect(projectValues(cancelled).decision).toBe('cancelled');
    expect(projectValues(run({ state: 'failed', stop_reason: 'approval-expired' })).decision).toBe(
      'not-approved',
    );
  });

  it('hostile text never reaches the summary, and the summary is bounded', () => {
    const hostile = run({
      state: 'failed',
      stop_reason: '<script>alert(1)</script>',
      blockers: ['ok-code', 'two words', '\u202eevil', 'ok-code'],
      steps: [step('x y', 'failed'), step('s1', 'failed', '[link](https://evil)')],
    });
    expect(projectValues(hostile).blockers).toBe('ok-code, s1:failed');
    const many = run({
      state: 'failed',
      blockers: Array.from({ length: 40 }, (_, index) => `blocker-code-${index}`),
    });
    const summary = projectValues(many).blockers;
    expect(summary.length).toBeLessThanOrEqual(203);
    expect(summary.endsWith(', …')).toBe(true);
  });

  it('every value of a fixed-vocabulary field is in its vocabulary', () => {
    const states: RunFile['state'][] = [
      'proposed',
      'approved',
      'running',
      'completed',
      'failed',
      'cancelled',
      'needs-reconciliation',
    ];
    for (const state of states) {
      for (const approval of [null, APPROVAL]) {
        const values = projectValues(run({ state, approval }));
        expect(PROJECT_VOCABULARY.state).toContain(values.state);
        expect(PROJECT_VOCABULARY.verification).toContain(values.verification);
        expect(PROJECT_VOCABULARY.decision).toContain(values.decision);
      }
    }
  });
});
