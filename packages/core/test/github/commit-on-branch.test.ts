/**
 * The one compare-and-set primitive's reading of GitHub's answers (the ledger and artifact suites prove
 * it against the emulator): committed, STALE_DATA, a refusal, and every answer that may have landed.
 */
import { describe, expect, it } from '@jest/globals';
import { WritError } from '../../src/errors.js';
import type { GitHubClient } from '../../src/github/client.js';
import { casExhausted, commitOnBranch, writeOutcome } from '../../src/github/commit-on-branch.js';

const COMMIT = {
  repository: 'acme/widgets',
  branch: 'bot/writ-artifact',
  expectedHeadOid: 'a'.repeat(40),
  headline: 'docs: refresh',
  body: 'Writ-Run: run-1',
  additions: [{ path: 'docs/x.md', contents: Buffer.from('x\n') }],
};

/** A client whose one request answers `answer` (or throws it). */
function answering(answer: { data?: unknown; headers?: Record<string, unknown> } | Error): {
  github: GitHubClient;
  sent: unknown[];
} {
  const sent: unknown[] = [];
  const github = {
    request: (_route: string, parameters: unknown) => {
      sent.push(parameters);
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve({ headers: {}, ...answer });
    },
  } as unknown as GitHubClient;
  return { github, sent };
}

function httpError(status: number): Error {
  return Object.assign(new Error(`HTTP ${status}`), { status });
}

describe('commitOnBranch', () => {
  it('sends one createCommitOnBranch with expectedHeadOid and base64 contents, and reads the commit and clock', async () => {
    const { github, sent } = answering({
      data: { data: { createCommitOnBranch: { commit: { oid: 'b'.repeat(40) } } } },
      headers: { date: 'Tue, 01 Dec 2026 10:00:00 GMT' },
    });
    expect(await commitOnBranch(github, COMMIT, 'artifact')).toEqual({
      kind: 'committed',
      oid: 'b'.repeat(40),
      serverTime: Date.parse('2026-12-01T10:00:00Z'),
    });
    expect(JSON.stringify(sent[0])).toContain('"expectedHeadOid":"' + 'a'.repeat(40));
    expect(JSON.stringify(sent[0])).toContain(Buffer.from('x\n').toString('base64'));
  });

  it('reads STALE_DATA as stale, and an answer without a commit or a clock as what it is', async () => {
    expect(
      await commitOnBranch(
        answering({ data: { errors: [{ type: 'STALE_DATA' }] } }).github,
        COMMIT,
        'ledger',
      ),
    ).toEqual({
      kind: 'stale',
    });
    expect(await commitOnBranch(answering({ data: { data: {} } }).github, COMMIT, 'ledger')).toMatchObject({
      kind: 'unknown',
    });
    const noClock = await commitOnBranch(
      answering({ data: { data: { createCommitOnBranch: { commit: { oid: 'c'.repeat(40) } } } } }).github,
      COMMIT,
      'ledger',
    );
    expect(noClock).toEqual({ kind: 'committed', oid: 'c'.repeat(40), serverTime: null });
  });

  it('refuses other GraphQL errors and a definite 4xx, naming the branch role; a 5xx or no status may have landed', async () => {
    for (const [answer, role] of [
      [{ data: { errors: [{ type: 'FORBIDDEN' }] } }, 'artifact'],
      [httpError(422), 'ledger'],
    ] as const) {
      const refused = commitOnBranch(answering(answer).github, COMMIT, role);
      await expect(refused).rejects.toBeInstanceOf(WritError);
      await expect(refused).rejects.toMatchObject({ code: 'github-request-failed' });
      await expect(refused).rejects.toThrow(`on the ${role} branch`);
    }
    expect(await commitOnBranch(answering(httpError(502)).github, COMMIT, 'ledger')).toEqual({
      kind: 'unknown',
      reason: 'HTTP 502',
    });
    expect(await commitOnBranch(answering(new Error('socket hang up')).github, COMMIT, 'ledger')).toEqual({
      kind: 'unknown',
      reason: 'no response',
    });
  });
});

describe('writeOutcome and casExhausted', () => {
  it('reads only a 4xx as a refusal', () => {
    expect(writeOutcome(httpError(404))).toBe('refused');
    expect(writeOutcome(httpError(500))).toBe('unknown');
    expect(writeOutcome(new Error('timeout'))).toBe('unknown');
  });

  it('codes an exhausted loop by the branch it was for', () => {
    expect(casExhausted('ledger', 'x', 3).code).toBe('ledger-cas-exhausted');
    expect(casExhausted('artifact', 'x', 3).code).toBe('artifact-cas-exhausted');
  });
});
