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
    receipts: [],
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

  it("lists each create's receipt: key escaped, inconclusive in bold, an unsettled claim said so", () => {
    const key = `sha256:${'b'.repeat(64)}`;
    const summary = renderPersistSummary(
      { runId: 'run-1', epoch: 1, dryRun: false },
      result({
        receipts: [
          {
            step: 'epic',
            kind: 'issue.create',
            idempotency_key: key,
            key_scope: 'repository',
            outcome: 'exists',
            resource: 12,
          },
          {
            step: 'cap',
            kind: 'issue.create',
            idempotency_key: key,
            key_scope: 'run',
            outcome: 'inconclusive',
            resource: null,
          },
          // A key read back from a ledger is schema-checked; escaped all the same.
          {
            step: 'note',
            kind: 'comment.upsert',
            idempotency_key: '`@all` <b>|',
            key_scope: 'repository',
            outcome: null,
            resource: null,
          },
        ],
      }),
    );
    expect(summary).toContain('| step | kind | key | scope | outcome | resource |');
    expect(summary).toContain(
      `| \`epic\` | \`issue.create\` | sha256\\:${'b'.repeat(64)} | repository | exists | #12 |`,
    );
    expect(summary).toContain('| run | **inconclusive** | — |');
    expect(summary).toContain(
      '| `note` | `comment.upsert` | \\`@&#8288;all\\` &lt;b&gt;\\| | repository | claimed, not settled | — |',
    );
    expect(renderPersistSummary({ runId: 'r', epoch: 1, dryRun: false }, result({}))).not.toContain(
      'Receipts',
    );
  });

  it("says when GitHub's hourly limit, not the plan, sets the pace, and what the pacer sent and met", () => {
    const figures = { contentCreating: 9, paced: 8, waitedMs: 8000, largestWaitMs: 1000, refusals: 1 };
    const long = renderPersistSummary(
      { runId: 'run-1', epoch: 1, dryRun: false },
      result({ pace: { expected: 1100, hourlyBudget: 480, plannedMinutes: 138, figures } }),
    );
    expect(long).toContain(
      "**Paced by GitHub's hourly limit:** about 1100 content-creating requests (writes, claims, checkpoints) were left, more than GitHub's secondary limit allows in an hour (500; Writ budgets 480), so they are spaced evenly, about 138 min in all. 9 content-creating request(s) sent, 1 secondary-limit refusal(s).",
    );
    const short = renderPersistSummary(
      { runId: 'run-1', epoch: 1, dryRun: false },
      result({ pace: { expected: 9, hourlyBudget: 480, plannedMinutes: 1, figures } }),
    );
    expect(short).toContain("Paced to GitHub's guidance (a second apart, at most 80 a minute, 480 an hour)");
    expect(short).not.toContain('hourly limit:**');
    expect(renderPersistSummary({ runId: 'r', epoch: 1, dryRun: false }, result({}))).not.toContain('Paced');
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
          receipt: null,
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
