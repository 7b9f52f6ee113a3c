/**
 * Measures provenance in API requests (counted by the emulator) at a given history length, where every
 * commit is a legal transition written through the ledger's own API (each writer replays the commits
 * above the head's checkpoint and records how far it proved the history):
 *  - `fullRequests`: `writ ledger verify` from the root (replays every commit, trusts no checkpoint);
 *  - `incrementalRequests`: the check a gate makes (replays only what came after the last writer);
 *  - `writerRequests`: one more transition (read, replay of the head, commit);
 *  - `incrementalAfterMoreRequests`: the gate's check again after 250 more transitions.
 *   node --import tsx packages/core/test/ledger/bench/provenance-cost.ts 10 1000 10000
 */
import { digest } from '../../../src/canonical-json.js';
import { verifyLedger } from '../../../src/ledger/bootstrap.js';
import type { LedgerContext } from '../../../src/ledger/cas.js';
import { consumeApproval, proposeRun, recordStatusComment } from '../../../src/ledger/ledger.js';
import { ledgerWorld } from '../support/emulator.js';
import { planFor, recomputed } from '../support/fixtures.js';

export interface ProvenanceCost {
  commits: number;
  fullRequests: number;
  incrementalRequests: number;
  writerRequests: number;
  incrementalAfterMoreRequests: number;
  consumeRequests: number;
}

/** `count` status-record transitions on run `bench` (legal commits that change one small file). */
async function pad(
  ledger: LedgerContext,
  world: Awaited<ReturnType<typeof ledgerWorld>>,
  count: number,
  from: number,
): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    // The installation's 5,000/hour GraphQL limit applies on the emulator as on GitHub.
    if (index > 0 && index % 1000 === 0) world.emulator.admin.clock({ advance_ms: 3_600_000 });
    await recordStatusComment(ledger, {
      runId: 'bench',
      statusComment: {
        issue_number: 1,
        comment_id: null,
        body_digest: null,
        pending_digest: digest({ pad: from + index }),
      },
    });
  }
  world.emulator.admin.clock({ advance_ms: 3_600_000 });
}

export async function measureProvenanceCost(commits: number, more = 100): Promise<ProvenanceCost> {
  const world = await ledgerWorld({ seed: 5 });
  try {
    const ledger = world.context();
    const log = world.emulator.admin;
    const count = async (run: () => Promise<unknown>): Promise<number> => {
      const before = log.requests().length;
      await run();
      return log.requests().length - before;
    };
    // Bootstrap made 1 commit and the proposal 1; pad to `commits - 1`; the consumption is last.
    const plan = planFor('bench');
    await proposeRun(ledger, {
      runId: 'bench',
      planDigest: plan.digest,
      evidenceDigest: null,
      scope: plan.scope,
      bounds: plan.bounds,
      steps: plan.steps,
    });
    await pad(ledger, world, Math.max(0, commits - 3), 0);
    const approval = await world.approve('bench', plan);
    const consumeRequests = await count(() =>
      consumeApproval(ledger, {
        runId: 'bench',
        approval,
        plan: recomputed(plan),
        holder: { workflow_run_id: 1, attempt: 1 },
      }),
    );
    const fullRequests = await count(() => verifyLedger(ledger, { mode: 'full' }));
    const incrementalRequests = await count(() => verifyLedger(ledger, { mode: 'incremental' }));
    const writerRequests = await count(() => pad(ledger, world, 1, commits));
    await pad(ledger, world, more - 1, commits + 1);
    const incrementalAfterMoreRequests = await count(() => verifyLedger(ledger, { mode: 'incremental' }));
    const { report } = await verifyLedger(ledger, { mode: 'full' });
    return {
      commits: report.totalCommits - more,
      fullRequests,
      incrementalRequests,
      writerRequests,
      incrementalAfterMoreRequests,
      consumeRequests,
    };
  } finally {
    await world.close();
  }
}

if (process.argv[1]?.endsWith('provenance-cost.ts') === true) {
  const sizes = process.argv.slice(2).map(Number);
  for (const size of sizes.length > 0 ? sizes : [10, 1000, 10000]) {
    const started = Date.now();
    const cost = await measureProvenanceCost(size);
    process.stdout.write(`${JSON.stringify({ ...cost, seconds: (Date.now() - started) / 1000 })}\n`);
  }
}
