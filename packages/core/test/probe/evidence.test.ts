import { describe, expect, it } from '@jest/globals';
import type { CaseId, Classification, ProbeEvidence } from '../../src/probe/evidence.js';
import { CASE_IDS, combine, evidenceProblems, evidenceVerdict } from '../../src/probe/evidence.js';

const NOW = new Date('2026-12-01T12:00:00Z');

function evidence(
  classes: Partial<Record<CaseId, Classification>>,
  finished = '2026-11-20T10:00:00Z',
): ProbeEvidence {
  return {
    schema: 1,
    sandbox: 'owner/sandbox',
    api_url: 'https://api.github.com',
    writ: { version: '0.1.0', commit: null },
    probe_run: 'p-1',
    started_at: '2026-11-20T09:59:00Z',
    finished_at: finished,
    cases: CASE_IDS.filter((id) => classes[id] !== undefined).map((id) => ({
      id,
      classification: classes[id] as Classification,
      attempts: [
        {
          surface: 'PATCH /repos/{owner}/{repo}/milestones/{milestone_number}',
          classification: classes[id] as Classification,
          control_status: 200,
          status: 412,
          error_code: null,
          read_back: 'unchanged',
          reason: 'refused-unchanged',
          at: '2026-11-20T10:00:00Z',
        },
      ],
    })),
    primitives: [],
    cleanup: { removed: 3, left: [] },
  };
}

const ALL_POSITIVE = Object.fromEntries(CASE_IDS.map((id) => [id, 'positive'])) as Record<
  CaseId,
  Classification
>;

describe('probe evidence', () => {
  it('validates against its schema, and names what is wrong otherwise', () => {
    expect(evidenceProblems(evidence(ALL_POSITIVE))).toEqual([]);
    expect(evidenceProblems({ ...evidence(ALL_POSITIVE), api_url: 'ftp://x' })[0]).toMatch(/api_url/);
    expect(evidenceProblems({ schema: 2 }).length).toBeGreaterThan(0);
  });

  it('opens every kind when every case is positive and fresh', () => {
    const verdicts = evidenceVerdict(
      evidence(ALL_POSITIVE),
      ['issue.set-milestone', 'issue.create', 'external'],
      NOW,
    );
    expect(verdicts.map((v) => v.open)).toEqual([true, true, true]);
  });

  it('closes an assignment when any of 2a, 2b, 3a, 3b is missing or not positive', () => {
    for (const id of ['2a', '2b', '3a', '3b'] as const) {
      for (const worse of ['negative', 'inconclusive', undefined] as const) {
        const classes = Object.fromEntries(
          CASE_IDS.filter((other) => other !== id || worse !== undefined).map((other) => [
            other,
            other === id ? worse : 'positive',
          ]),
        ) as Partial<Record<CaseId, Classification>>;
        const [verdict] = evidenceVerdict(evidence(classes), ['issue.set-milestone'], NOW);
        expect(verdict).toMatchObject({ open: false, why: `case ${id} ${worse ?? 'missing'}` });
      }
    }
  });

  it('closes a create without case 4 and an edit without case 1', () => {
    const noFour = evidenceVerdict(
      evidence({ ...ALL_POSITIVE, 4: 'negative' }),
      ['issue.create', 'milestone.edit'],
      NOW,
    );
    expect(noFour.map((v) => v.open)).toEqual([false, true]);
    const noOne = evidenceVerdict(
      evidence({ ...ALL_POSITIVE, 1: 'inconclusive' }),
      ['milestone.upsert', 'issue.create'],
      NOW,
    );
    expect(noOne.map((v) => v.open)).toEqual([false, true]);
  });

  it('closes everything for missing, stale (31 days), future or foreign-host evidence', () => {
    expect(evidenceVerdict(undefined, ['issue.labels'], NOW)[0]).toMatchObject({
      open: false,
      why: 'no probe evidence is committed',
    });
    expect(
      evidenceVerdict(evidence(ALL_POSITIVE, '2026-10-31T11:59:59Z'), ['issue.labels'], NOW)[0]?.open,
    ).toBe(false);
    expect(
      evidenceVerdict(evidence(ALL_POSITIVE, '2026-11-01T12:00:00Z'), ['issue.labels'], NOW)[0]?.open,
    ).toBe(true);
    expect(
      evidenceVerdict(evidence(ALL_POSITIVE, '2026-12-03T12:00:00Z'), ['issue.labels'], NOW)[0]?.open,
    ).toBe(false);
    const ghes = evidenceVerdict(
      evidence(ALL_POSITIVE),
      ['issue.labels'],
      NOW,
      'https://ghe.example.com/api/v3',
    );
    expect(ghes[0]).toMatchObject({ open: false });
    expect(
      evidenceVerdict(evidence(ALL_POSITIVE), ['issue.labels'], NOW, 'https://api.github.com/')[0]?.open,
    ).toBe(true);
  });

  it('combines attempts: any negative wins, all positive is positive, else inconclusive', () => {
    expect(combine(['positive', 'negative', 'inconclusive'])).toBe('negative');
    expect(combine(['positive', 'positive'])).toBe('positive');
    expect(combine(['positive', 'inconclusive'])).toBe('inconclusive');
    expect(combine([])).toBe('inconclusive');
  });
});
