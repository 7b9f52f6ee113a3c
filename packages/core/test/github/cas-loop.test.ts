import { describe, expect, it } from '@jest/globals';
import type { CasCommitOutcome, CasDecision, CasPolicy } from '../../src/github/cas-loop.js';
import { CAS_MAX_ATTEMPTS, casBackoff, runCasLoop } from '../../src/github/cas-loop.js';

/** A policy whose sleeps are recorded, not waited, and whose random source is fixed. */
function policy(maxAttempts = 4, random = 0.5): CasPolicy & { slept: number[] } {
  const slept: number[] = [];
  return {
    maxAttempts,
    backoffBaseMs: 10,
    backoffCapMs: 50,
    random: () => random,
    clock: { sleep: (ms) => (slept.push(ms), Promise.resolve()) },
    slept,
  };
}

/** A round scripted per attempt; every call is logged. */
function scripted(options: {
  decide: (attempt: number) => CasDecision<string, string>;
  commit: (commit: string, attempt: number) => CasCommitOutcome<string>;
  landed?: () => string | null;
}) {
  const calls: string[] = [];
  return {
    calls,
    round: {
      decide: (attempt: number) => (calls.push(`read ${attempt}`), Promise.resolve(options.decide(attempt))),
      commit: (commit: string, attempt: number) => (
        calls.push(`commit ${commit}`),
        Promise.resolve(options.commit(commit, attempt))
      ),
      landed: () => (calls.push('landed'), Promise.resolve(options.landed?.() ?? null)),
      exhausted: (attempts: number) => new Error(`lost all ${attempts}`),
    },
  };
}

describe('runCasLoop (read, decide, commit, landed)', () => {
  it('stops at a read that finds the wanted state: no commit, no wait', async () => {
    const p = policy();
    const { round, calls } = scripted({
      decide: () => ({ kind: 'done', value: 'there' }),
      commit: () => ({ kind: 'again' }),
    });
    await expect(runCasLoop(p, round)).resolves.toBe('there');
    expect(calls).toEqual(['read 1']);
    expect(p.slept).toEqual([]);
  });

  it('re-reads and decides again after a lost attempt, never committing the same decision twice unread', async () => {
    const p = policy();
    const { round, calls } = scripted({
      decide: (attempt) => ({ kind: 'commit', commit: `on-head-${attempt}` }),
      commit: (_commit, attempt) => (attempt < 3 ? { kind: 'again' } : { kind: 'done', value: 'committed' }),
    });
    await expect(runCasLoop(p, round)).resolves.toBe('committed');
    expect(calls).toEqual([
      'read 1',
      'commit on-head-1',
      'read 2',
      'commit on-head-2',
      'read 3',
      'commit on-head-3',
    ]);
    // Full jitter: random × min(cap, base × 2^(attempt − 1)).
    expect(p.slept).toEqual([5, 10]);
  });

  it('accepts what a later read shows landed (a lost answer whose commit is there)', async () => {
    const { round, calls } = scripted({
      decide: (attempt) =>
        attempt === 1 ? { kind: 'commit', commit: 'c' } : { kind: 'done', value: 'landed' },
      commit: () => ({ kind: 'again' }),
    });
    await expect(runCasLoop(policy(), round)).resolves.toBe('landed');
    expect(calls).toEqual(['read 1', 'commit c', 'read 2']);
  });

  it('is bounded: after the last attempt one more read for a landed attempt, else the exhausted failure', async () => {
    const p = policy(3);
    const { round, calls } = scripted({
      decide: () => ({ kind: 'commit', commit: 'c' }),
      commit: () => ({ kind: 'again' }),
    });
    await expect(runCasLoop(p, round)).rejects.toThrow('lost all 3');
    expect(calls.filter((call) => call.startsWith('commit'))).toHaveLength(3);
    expect(calls.at(-1)).toBe('landed');
    expect(p.slept).toEqual([5, 10, 20]);
  });

  it('returns an attempt found landed by the last read', async () => {
    const { round } = scripted({
      decide: () => ({ kind: 'commit', commit: 'c' }),
      commit: () => ({ kind: 'again' }),
      landed: () => 'found',
    });
    await expect(runCasLoop(policy(2), round)).resolves.toBe('found');
  });

  it('caps the backoff and draws it below the ceiling', () => {
    const p = policy(CAS_MAX_ATTEMPTS, 0.999);
    expect([1, 2, 3, 4, 5, 6].map((attempt) => casBackoff(p, attempt))).toEqual([9, 19, 39, 49, 49, 49]);
    expect(casBackoff(policy(8, 0), 5)).toBe(0);
  });
});
