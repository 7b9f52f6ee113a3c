/**
 * When a run's claimed steps were first claimed, on the server's clock, read from what the ledger
 * already records: the committed date of the commit that claimed them. No ledger file stores a claim
 * time, and none needs to: steps are claimed in order, and a step is claimed only while no earlier
 * step is pending or claimed (transitions.ts `claim`, `claimSteps`), and a claimed step only ever
 * leaves `claimed` (nothing is reset). So while a step stays claimed, no later claim of its run can
 * exist, and the run's newest `claim` / `claim-steps` commit is the one that claimed it: its first
 * and only claim. persist bounds a create's marker pre-check with it (`since=`, minus a skew).
 */
import type { LedgerContext } from './cas.js';
import { parseTrailers } from './message.js';
import { LEASE_PATH } from './paths.js';

/** The most commits read back from the head looking for the claim (three pages of 100). */
export const CLAIM_SEARCH_COMMITS = 300;

/**
 * The committed date (ms, server clock) of the newest commit claiming steps of `runId`, or null when
 * none is found before this run's `consume` commit or within `maxCommits` (the caller then keeps a
 * looser bound). Only meaningful while the run has a claimed step (see the module comment).
 */
export async function claimCommittedAt(
  context: LedgerContext,
  runId: string,
  maxCommits = CLAIM_SEARCH_COMMITS,
): Promise<number | null> {
  const first = await context.store.read({ paths: [LEASE_PATH], historyFirst: Math.min(100, maxCommits) });
  if (first === null) return null;
  let page = first.history;
  let read = 0;
  for (;;) {
    for (const commit of page.commits) {
      read += 1;
      const trailers = parseTrailers(commit.message);
      if (trailers?.runId !== runId) continue;
      if (trailers.transition === 'claim' || trailers.transition === 'claim-steps') return commit.committedAt;
      if (trailers.transition === 'consume') return null;
    }
    if (!page.hasNextPage || page.endCursor === null || read >= maxCommits) return null;
    page = await context.store.readHistory(first.headOid, page.endCursor, Math.min(100, maxCommits - read));
  }
}
