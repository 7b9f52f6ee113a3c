/**
 * The provenance check's request count grows with history only through the full check (one request per
 * 100 commits, plus the read and two ruleset reads); the incremental check a transition runs starts at
 * the checkpoint the last consumption or takeover wrote, so it stays at 3 requests. Counted by the
 * emulator's request log. (10,000 commits: `node --import tsx packages/core/test/ledger/bench/provenance-cost.ts 10000`.)
 */
import { expect, it } from '@jest/globals';
import { measureProvenanceCost } from './provenance-cost.js';

it.each([10, 1000])(
  'costs ceil(N/100) + 2 requests for a full check of %i commits and 3 incrementally',
  async (commits) => {
    const cost = await measureProvenanceCost(commits);
    process.stdout.write(`provenance cost: ${JSON.stringify(cost)}\n`);
    expect(cost.commits).toBe(commits);
    expect(cost.fullRequests).toBe(Math.ceil(commits / 100) + 2);
    expect(cost.incrementalRequests).toBe(3);
    // 250 commits above the checkpoint: the read's first page plus two more history pages.
    expect(cost.incrementalAfter250Requests).toBe(5);
  },
  180_000,
);
