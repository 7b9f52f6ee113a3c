/**
 * What a writing preview reads (preview/readings.ts), against a small typed fake of the client: the
 * default branch's head, then the policy and the evidence at that commit; which kinds stay closed; a
 * failed read of the base is `github-request-failed` and nothing more is read.
 */
import { describe, expect, it } from '@jest/globals';
import { errorCode } from '../../src/errors.js';
import type { GitHubClient } from '../../src/github/client.js';
import type { Clock } from '../../src/ledger/cas.js';
import type { Plan, PlanStep } from '../../src/plan/types.js';
import { CASE_IDS } from '../../src/probe/evidence.js';
import type { ProbeEvidence } from '../../src/probe/evidence.js';
import { readPreviewReadings } from '../../src/preview/readings.js';
import { defaultPolicy } from '../../src/setup/policy.js';

const API = 'https://api.github.com';
const SHA = 'c'.repeat(40);
const NOW = Date.parse('2026-12-01T00:00:00Z');
const clock: Clock = { now: () => NOW, sleep: () => Promise.resolve() };
const GATE = { roles: ['write'], environment: null };

function notFound(): Error {
  return Object.assign(new Error('Not Found'), { status: 404, request: {}, response: { status: 404 } });
}

function evidence(finishedAt: string): ProbeEvidence {
  return {
    schema: 1,
    sandbox: 'acme/sandbox',
    api_url: API,
    writ: { version: '0.1.0', commit: null },
    probe_run: 'p-1',
    started_at: finishedAt,
    finished_at: finishedAt,
    cases: CASE_IDS.map((id) => ({
      id,
      classification: 'positive',
      attempts: [
        {
          surface: 'PATCH /repos/{owner}/{repo}/milestones/{milestone_number}',
          classification: 'positive',
          control_status: 200,
          status: 409,
          error_code: null,
          read_back: 'unchanged',
          reason: 'refused-unchanged',
          at: finishedAt,
        },
      ],
    })),
    primitives: [],
    cleanup: { removed: 0, left: [] },
  };
}

/** A fake client: the repository's files at SHA (absent when not named), and every request it was sent. */
function fakeGitHub(
  files: Record<string, string>,
  options: { failRef?: 502 | 'no answer'; date?: string } = {},
) {
  const sent: string[] = [];
  const github = {
    rest: {
      repos: {
        get: () => {
          sent.push('GET repo');
          return Promise.resolve({ data: { default_branch: 'trunk' }, headers: {} });
        },
        getContent: ({ path, ref }: { path: string; ref: string }) => {
          sent.push(`GET contents ${path}@${ref}`);
          const text = files[path];
          if (text === undefined) return Promise.reject(notFound());
          return Promise.resolve({
            data: { type: 'file', encoding: 'base64', content: Buffer.from(text).toString('base64') },
            headers: options.date === undefined ? {} : { date: options.date },
          });
        },
      },
      git: {
        getRef: ({ ref }: { ref: string }) => {
          sent.push(`GET ref ${ref}`);
          if (options.failRef === 502)
            return Promise.reject(
              Object.assign(new Error('boom'), { status: 502, request: {}, response: { status: 502 } }),
            );
          if (options.failRef === 'no answer') return Promise.reject(new TypeError('fetch failed'));
          return Promise.resolve({ data: { object: { sha: SHA } } });
        },
      },
    },
  } as unknown as GitHubClient;
  return { github, sent };
}

function plan(steps: PlanStep[]): Plan {
  return { schema: 1, title: 'p', scope: { repository: 'acme/widgets' }, bounds: { max_steps: 10 }, steps };
}

const STEPS: PlanStep[] = [
  { id: 'c1', kind: 'issue.create', title: 'One' },
  { id: 'l1', kind: 'issue.labels', issue: 3, add: ['x'] },
  { id: 'e1', kind: 'external', target: 'farm' },
];

const settings = {
  repository: { owner: 'acme', repo: 'widgets' },
  apiUrl: API,
  policyPath: '.writ/policy.json',
  evidencePath: '.writ/probe-evidence.json',
  gate: GATE,
};

describe('readPreviewReadings', () => {
  it('reads the head of the default branch, then the policy and the evidence at that commit', async () => {
    const { github, sent } = fakeGitHub({});
    const readings = await readPreviewReadings({ github, clock }, plan(STEPS), settings);
    expect(sent).toEqual([
      'GET repo',
      'GET ref heads/trunk',
      `GET contents .writ/policy.json@${SHA}`,
      `GET contents .writ/probe-evidence.json@${SHA}`,
    ]);
    expect(readings.base).toEqual({ branch: 'trunk', sha: SHA });
    expect(readings.gate).toBe(GATE);
    // No policy: require-proof for every kind; no evidence: every used policy kind closed, external never.
    expect(readings.policy).toEqual({
      path: '.writ/policy.json',
      state: 'absent',
      closed: [
        { kind: 'issue.create', why: 'no probe evidence is committed' },
        { kind: 'issue.labels', why: 'no probe evidence is committed' },
      ],
    });
  });

  it('a best-effort kind is not closed; fresh positive evidence opens a require-proof kind', async () => {
    const policy = { ...defaultPolicy(), risk: { many_creates: 3 } };
    policy.kinds['issue.labels'] = 'best-effort';
    const { github } = fakeGitHub({ '.writ/policy.json': JSON.stringify(policy) });
    const closed = await readPreviewReadings({ github, clock }, plan(STEPS), settings);
    expect(closed.policy).toEqual({
      path: '.writ/policy.json',
      state: 'valid',
      policy,
      closed: [{ kind: 'issue.create', why: 'no probe evidence is committed' }],
    });
    const fresh = fakeGitHub({
      '.writ/policy.json': JSON.stringify(policy),
      '.writ/probe-evidence.json': JSON.stringify(evidence('2026-11-30T00:00:00Z')),
    });
    const open = await readPreviewReadings({ github: fresh.github, clock }, plan(STEPS), settings);
    expect(open.policy).toMatchObject({ state: 'valid', closed: [] });
  });

  it("judges the evidence's age on the server's clock (its Date header) before the runner's", async () => {
    const files = { '.writ/probe-evidence.json': JSON.stringify(evidence('2026-11-30T00:00:00Z')) };
    const late = fakeGitHub(files, { date: 'Sat, 30 Jan 2027 00:00:00 GMT' });
    const readings = await readPreviewReadings({ github: late.github, clock }, plan(STEPS), settings);
    expect(readings.policy).toMatchObject({
      state: 'absent',
      closed: ['issue.create', 'issue.labels'].map((kind) => ({
        kind,
        why: expect.stringMatching(/more than 30 days ago/),
      })),
    });
  });

  it('an invalid policy is read as invalid, and the evidence is not read', async () => {
    const { github, sent } = fakeGitHub({ '.writ/policy.json': '{"schema": 1, "kinds": {}}' });
    const readings = await readPreviewReadings({ github, clock }, plan(STEPS), settings);
    expect(readings.policy).toEqual({ path: '.writ/policy.json', state: 'invalid' });
    expect(sent.filter((line) => line.includes('probe-evidence'))).toEqual([]);
  });

  it('a failed read of the base is github-request-failed, and nothing else is read', async () => {
    const { github, sent } = fakeGitHub({});
    const failing = fakeGitHub({}, { failRef: 502 });
    await readPreviewReadings({ github, clock }, plan(STEPS), settings);
    const error = await readPreviewReadings({ github: failing.github, clock }, plan(STEPS), settings).catch(
      (thrown: unknown) => thrown,
    );
    expect(errorCode(error)).toBe('github-request-failed');
    expect(String(error)).toMatch(/with HTTP 502; nothing was proposed/);
    expect(failing.sent).toEqual(['GET repo', 'GET ref heads/trunk']);
    expect(sent).toHaveLength(4);
    const silent = fakeGitHub({}, { failRef: 'no answer' });
    const lost = await readPreviewReadings({ github: silent.github, clock }, plan(STEPS), settings).catch(
      (thrown: unknown) => thrown,
    );
    expect(errorCode(lost)).toBe('github-request-failed');
    expect(String(lost)).toMatch(/head of acme\/widgets failed; nothing was proposed/);
  });
});
