/** scripts/checks/mutate.mjs's reading of Stryker's report: the score per folder, the survivors, the bar, the merge. */
import { describe, expect, it } from '@jest/globals';
import type { MutationReport, ReportMutant } from '../scripts/checks/mutate.mjs';
import { FOLDERS, mergeReports, render, scores } from '../scripts/checks/mutate.mjs';

function mutant(
  status: string,
  line = 1,
  mutatorName = 'ConditionalExpression',
  replacement = 'false',
): ReportMutant {
  return {
    mutatorName,
    replacement,
    status,
    location: { start: { line, column: 3 }, end: { line, column: 9 } },
  };
}

function statuses(counts: Record<string, number>): ReportMutant[] {
  return Object.entries(counts).flatMap(([status, n]) =>
    Array.from({ length: n }, (_, i) => mutant(status, i + 1)),
  );
}

/** A report where every scored folder has 10 killed mutants, with `files` on top. */
function report(files: MutationReport['files']): MutationReport {
  const all: MutationReport['files'] = {};
  for (const folder of FOLDERS) {
    const path = folder.prefix.endsWith('.ts') ? folder.prefix : `${folder.prefix}x.ts`;
    all[path] = { mutants: statuses({ Killed: 10 }) };
  }
  return { files: { ...all, ...files } };
}

describe('scores', () => {
  it('counts each folder: killed and timed out detected, survived and uncovered not, compile errors aside', () => {
    const { rows } = scores(
      report({
        'packages/core/src/claim/x.ts': {
          mutants: statuses({
            Killed: 6,
            Timeout: 1,
            Survived: 2,
            NoCoverage: 1,
            CompileError: 5,
            Ignored: 1,
          }),
        },
      }),
    );
    const claim = rows.find((row) => row.name === 'claim/');
    expect(claim).toMatchObject({ mutants: 16, killed: 6, timeout: 1, survived: 2, noCoverage: 1, other: 6 });
    expect(claim?.score).toBeCloseTo(70, 5);
    expect(rows.find((row) => row.name === 'ledger/')?.score).toBe(100);
  });

  it('counts github/client.ts alone, not the rest of github/, and ignores files outside the scope', () => {
    const { rows } = scores(
      report({
        'packages/core/src/github/transport.ts': { mutants: statuses({ Survived: 4 }) },
        'packages/core/src/probe/guard.ts': { mutants: statuses({ Survived: 4 }) },
      }),
    );
    expect(rows.find((row) => row.name === 'github/client.ts')).toMatchObject({ mutants: 10, survived: 0 });
    expect(rows.reduce((sum, row) => sum + row.mutants, 0)).toBe(60);
  });

  it('lists survivors and uncovered mutants by file and line, with mutator and replacement', () => {
    const { undetected } = scores(
      report({
        'packages/core/src/approval/verify.ts': {
          mutants: [
            mutant('Survived', 40, 'EqualityOperator', 'a !== b'),
            mutant('Killed', 12),
            mutant('NoCoverage', 7, 'BlockStatement', '{}'),
          ],
        },
      }),
    );
    expect(undetected).toEqual([
      expect.objectContaining({
        path: 'packages/core/src/approval/verify.ts',
        line: 7,
        status: 'NoCoverage',
        mutator: 'BlockStatement',
      }),
      expect.objectContaining({
        line: 40,
        status: 'Survived',
        mutator: 'EqualityOperator',
        replacement: 'a !== b',
      }),
    ]);
  });
});

describe('render', () => {
  it('fails the folders under their bar and names each survivor as file:line:column mutator → replacement', () => {
    const { text, failing } = render(
      scores(
        report({
          'packages/core/src/persist/gate.ts': { mutants: statuses({ Killed: 7, Survived: 3 }) },
          'packages/core/src/idempotency/key.ts': {
            mutants: [...statuses({ Killed: 4 }), mutant('Survived', 21, 'StringLiteral', '""')],
          },
        }),
      ),
    );
    // persist/: 17 of 20 = 85 %; idempotency/: 14 of 15 = 93.3 %; both at or over 80.
    expect(failing).toEqual([]);
    expect(text).toMatch(/^persist\/ +20 +17 +0 +3 +0 +85\.0% +80%$/m);
    expect(text).toContain('idempotency/key.ts:21:3 StringLiteral → ""');
    const under = render(
      scores(
        report({ 'packages/core/src/persist/gate.ts': { mutants: statuses({ Killed: 1, Survived: 30 }) } }),
      ),
    );
    expect(under.failing).toEqual(['persist/']);
    expect(under.text).toMatch(/^persist\/.*UNDER$/m);
  });

  it('fails a folder with no measured mutant (never run, or only compile errors)', () => {
    const partial = report({});
    delete partial.files['packages/core/src/ledger/x.ts'];
    expect(render(scores(partial)).failing).toEqual(['ledger/']);
  });
});

describe('mergeReports', () => {
  it('keeps the earlier results of files in scope that this run did not mutate, and replaces those it did', () => {
    const before: MutationReport = {
      files: {
        'packages/core/src/ledger/cas.ts': { mutants: statuses({ Survived: 1 }) },
        'packages/core/src/claim/claim-checkpoint.ts': { mutants: statuses({ Survived: 9 }) },
        'packages/core/src/ledger/deleted.ts': { mutants: statuses({ Killed: 1 }) },
        'packages/core/src/probe/guard.ts': { mutants: statuses({ Killed: 1 }) },
      },
      testFiles: {
        'packages/core/test/a.test.ts': { tests: [] },
        'packages/core/test/gone.test.ts': { tests: [] },
      },
    };
    const after: MutationReport = {
      files: { 'packages/core/src/claim/claim-checkpoint.ts': { mutants: statuses({ Killed: 9 }) } },
      testFiles: { 'packages/core/test/b.test.ts': { tests: [] } },
    };
    const exists = (path: string): boolean => !path.includes('deleted') && !path.includes('gone');
    const merged = mergeReports(before, after, exists);
    expect(Object.keys(merged.files).sort()).toEqual([
      'packages/core/src/claim/claim-checkpoint.ts',
      'packages/core/src/ledger/cas.ts',
    ]);
    expect(merged.files['packages/core/src/claim/claim-checkpoint.ts']?.mutants[0]?.status).toBe('Killed');
    expect(Object.keys(merged.testFiles ?? {}).sort()).toEqual([
      'packages/core/test/a.test.ts',
      'packages/core/test/b.test.ts',
    ]);
    expect(mergeReports(null, after)).toBe(after);
  });
});
