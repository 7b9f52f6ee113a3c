/**
 * persist's job summary, rendered from a result alone (no emulator): what it says when no gate was read,
 * as when the run stopped before the gate (a cancelled run, a step budget of zero left).
 */
import { describe, expect, it } from '@jest/globals';
import type { PersistResult } from '../../src/persist/persist.js';
import { renderPersistSummary } from '../../src/stages/persist.js';

function result(overrides: Partial<PersistResult>): PersistResult {
  return {
    outcome: 'stopped',
    reason: 'invalid-transition',
    stepsDone: 0,
    stepsTotal: 3,
    nextStep: 'epic',
    created: {},
    steps: [],
    gate: null,
    ledgerCommits: 0,
    refusal: null,
    statusComment: '',
    statusFailed: false,
    pace: null,
    ...overrides,
  };
}

describe("persist's summary", () => {
  it('has no gate table when no gate was read, and still says where the run stands', () => {
    const summary = renderPersistSummary({ runId: 'run-1', epoch: 2, dryRun: false }, result({}));
    expect(summary).toContain('## Writ persist: stopped (`invalid-transition`)');
    expect(summary).toContain('Run `run-1`, epoch 2: 0 of 3 steps done, next `epic`; 0 ledger commit(s)');
    expect(summary).not.toContain('| kind | policy | gate | why |');
    expect(summary).not.toContain('| step | kind |');
  });

  it('has the gate table, each kind open or closed, when the gate was read', () => {
    const summary = renderPersistSummary(
      { runId: 'run-1', epoch: 1, dryRun: true },
      result({
        outcome: 'gate-closed',
        reason: 'github-conditional-mutation-not-proven',
        gate: {
          kinds: [{ kind: 'issue.create', policy: 'require-proof', open: false, why: 'no | evidence' }],
          residual: [],
        } as unknown as PersistResult['gate'],
      }),
    );
    expect(summary).toContain('(dry run: nothing written)');
    expect(summary).toContain('| `issue.create` | require-proof | **closed** | no \\| evidence |');
  });

  it('says a handover is the time budget spent, how many steps it took, and where recovery resumes', () => {
    const step = { kind: 'issue.labels', result: 'done', write: null, writes: 1, statusCode: 200 };
    const summary = renderPersistSummary(
      { runId: 'run-1', epoch: 4, dryRun: false },
      result({
        outcome: 'handover',
        reason: '',
        stepsDone: 2,
        stepsTotal: 5,
        nextStep: 's3',
        steps: ['s1', 's2'].map((id) => ({
          ...step,
          id,
          errorCode: null,
          resources: [],
          diff: [],
          notes: [],
        })) as PersistResult['steps'],
      }),
    );
    expect(summary).toContain('## Writ persist: handover\n');
    expect(summary).toContain('2 of 5 steps done, next `s3`');
    expect(summary).toContain(
      'Time budget spent after 2 steps; handed over to recovery: the workflow releases the lease and dispatches the recovery workflow, which resumes the run from `s3` at once.',
    );
    expect(
      renderPersistSummary({ runId: 'r', epoch: 1, dryRun: false }, result({ steps: [] })),
    ).not.toContain('Time budget spent');
  });
});
