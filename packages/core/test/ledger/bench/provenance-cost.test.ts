/**
 * Provenance cost stays flat in history length for every writer and every gate; only the full check
 * (`writ ledger verify`) grows, by one history page per 100 commits and one replay read per 25.
 * Counted by the emulator's request log. (10,000 commits:
 * `node --import tsx packages/core/test/ledger/bench/provenance-cost.ts 10000`.)
 */
import { expect, it } from '@jest/globals';
import { measureProvenanceCost } from './provenance-cost.js';

it.each([10, 300])(
  'proves %i legal commits: writers and gates flat, the full check linear',
  async (commits) => {
    const cost = await measureProvenanceCost(commits);
    process.stdout.write(`provenance cost: ${JSON.stringify(cost)}\n`);
    expect(cost.commits).toBe(commits);
    // The read (with the first 100 commits), further history pages, a replay read per 25 commits above
    // the root plus one for the root, the approval comment and GitHub's edit record of it, and the
    // rulesets (branch rules + two).
    expect(cost.fullRequests).toBe(
      1 + (Math.ceil(commits / 100) - 1) + Math.ceil((commits - 1) / 25) + 1 + 2 + 3,
    );
    // The read, the replay of the head (verify does not know the head's run before it reads), the
    // consume's approval comment and its edit record (no writer has replayed the consume yet), and the
    // rulesets.
    expect(cost.incrementalRequests).toBe(7);
    // A status record: the read (which carries the head to replay) and the commit, plus the first
    // writer after a consume re-reading its approval comment and its edit record.
    expect(cost.writerRequests).toBe(4);
    // 100 transitions later: the last writer proved all but the head, whatever the history's length.
    expect(cost.incrementalAfterMoreRequests).toBe(5);
  },
  180_000,
);
