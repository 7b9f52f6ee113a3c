/**
 * The one compare-and-set retry loop, for every branch Writ commits on (the ledger's transitions and
 * the artifact publisher's file): read, decide, commit, landed.
 *
 *  - Each attempt reads the branch and decides from what it read: done (the wanted state is already
 *    there, or an earlier attempt is found to have landed) or one commit with `expectedHeadOid`.
 *  - A commit GitHub answered ends the loop. A stale head (someone, maybe our own earlier attempt,
 *    moved it) or an unknown outcome (a 5xx, a dropped connection: it may have landed) is never
 *    overwritten and never resent as is: the next attempt reads the branch again and decides anew,
 *    accepting a landed attempt only when its content is what that attempt sent.
 *  - Bounded: `maxAttempts` attempts with full-jitter backoff between them (the policy's random
 *    source and clock), then one last read for an attempt that landed, else the branch's
 *    `…-cas-exhausted` failure.
 */

/** How many attempts a compare-and-set commit gets unless its caller says otherwise. */
export const CAS_MAX_ATTEMPTS = 8;

/** The loop's bounds and pacing; a `LedgerContext` is one. */
export interface CasPolicy {
  maxAttempts: number;
  /** Full-jitter backoff: a random wait below min(cap, base × 2^(attempt − 1)) ms. */
  backoffBaseMs: number;
  backoffCapMs: number;
  random: () => number;
  clock: { sleep(ms: number): Promise<void> };
}

export type CasDecision<T, C> = { kind: 'done'; value: T } | { kind: 'commit'; commit: C };

export type CasCommitOutcome<T> =
  /** GitHub answered with the commit. */
  | { kind: 'done'; value: T }
  /** A stale head or an unknown outcome: read again before anything else. */
  | { kind: 'again' };

export interface CasRound<T, C> {
  /** Reads the branch (attempt 1 may start from a read the caller made) and decides. */
  decide(attempt: number): Promise<CasDecision<T, C>>;
  /** Makes the one commit decided on. */
  commit(commit: C, attempt: number): Promise<CasCommitOutcome<T>>;
  /** After the last attempt: one more read for an attempt that landed; null when none did. */
  landed(): Promise<T | null>;
  /** The failure when every attempt lost. */
  exhausted(attempts: number): Error;
}

/** The wait after a lost attempt: full jitter below an exponential ceiling. */
export function casBackoff(policy: CasPolicy, attempt: number): number {
  const ceiling = Math.min(policy.backoffCapMs, policy.backoffBaseMs * 2 ** (attempt - 1));
  return Math.floor(policy.random() * ceiling);
}

export async function runCasLoop<T, C>(policy: CasPolicy, round: CasRound<T, C>): Promise<T> {
  for (let attempt = 1; attempt <= policy.maxAttempts; attempt += 1) {
    const decision = await round.decide(attempt);
    if (decision.kind === 'done') return decision.value;
    const outcome = await round.commit(decision.commit, attempt);
    if (outcome.kind === 'done') return outcome.value;
    await policy.clock.sleep(casBackoff(policy, attempt));
  }
  const landed = await round.landed();
  if (landed !== null) return landed;
  throw round.exhausted(policy.maxAttempts);
}
