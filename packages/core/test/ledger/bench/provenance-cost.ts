/**
 * Measures the provenance check's cost in API requests (counted by the emulator) at a given history
 * length: the full check on demand, and the incremental check right after a consumption wrote its
 * checkpoint, then again after K more commits on top of it.
 *   node --import tsx packages/core/test/ledger/bench/provenance-cost.ts 10 1000 10000
 */
import { verifyLedger } from '@writ/core/ledger/bootstrap.js';
import { consumeApproval, proposeRun } from '@writ/core/ledger/ledger.js';
import { BRANCH, LEDGER_TOKEN, REPOSITORY, emulatorClient, ledgerWorld } from '../support/emulator.js';
import { approvalFor, planFor, recomputed } from '../support/fixtures.js';

export interface ProvenanceCost {
  commits: number;
  fullRequests: number;
  incrementalRequests: number;
  incrementalAfter250Requests: number;
  consumeRequests: number;
}

const PAD = `mutation WritBenchPad($input: CreateCommitOnBranchInput!) {
  createCommitOnBranch(input: $input) { commit { oid } }
}`;

/** Appends `count` app-authored commits through createCommitOnBranch, chaining on each returned OID. */
async function pad(
  world: Awaited<ReturnType<typeof ledgerWorld>>,
  head: string,
  count: number,
): Promise<string> {
  const github = emulatorClient(world.emulator, LEDGER_TOKEN);
  let oid = head;
  for (let index = 0; index < count; index += 1) {
    // The installation's 5,000/hour GraphQL limit applies on the emulator as on GitHub.
    if (index > 0 && index % 4000 === 0) world.emulator.admin.clock({ advance_ms: 3_600_000 });
    const answer: { createCommitOnBranch: { commit: { oid: string } } } = await github.graphql(PAD, {
      input: {
        branch: { repositoryNameWithOwner: REPOSITORY, branchName: BRANCH },
        expectedHeadOid: oid,
        message: { headline: `writ ledger: pad ${index}`, body: 'Writ-Transition: release\nWrit-Epoch: 0' },
        fileChanges: {
          additions: [{ path: 'pad.json', contents: Buffer.from(`${index}\n`).toString('base64') }],
        },
      },
    });
    oid = answer.createCommitOnBranch.commit.oid;
  }
  world.emulator.admin.clock({ advance_ms: 3_600_000 });
  return oid;
}

export async function measureProvenanceCost(commits: number): Promise<ProvenanceCost> {
  const world = await ledgerWorld({ seed: 5 });
  try {
    const ledger = world.context();
    const log = world.emulator.admin;
    const count = async (run: () => Promise<unknown>): Promise<number> => {
      const before = log.requests().length;
      await run();
      return log.requests().length - before;
    };
    // Bootstrap made 1 commit; a proposal makes 1; pad to `commits - 2`, then the consumption is last.
    const plan = planFor('bench');
    await proposeRun(ledger, {
      runId: 'bench',
      planDigest: plan.digest,
      evidenceDigest: null,
      scope: plan.scope,
      bounds: plan.bounds,
      steps: plan.steps,
    });
    const head = (await ledger.store.read({ paths: [], historyFirst: 0 }))?.headOid ?? '';
    await pad(world, head, Math.max(0, commits - 3));
    // The first consumption on this ledger has no checkpoint yet: it walks the whole history.
    const consumeRequests = await count(() =>
      consumeApproval(ledger, {
        runId: 'bench',
        approval: approvalFor(plan, 1),
        plan: recomputed(plan),
        holder: { workflow_run_id: 1, attempt: 1 },
      }),
    );
    const fullRequests = await count(() => verifyLedger(ledger, { mode: 'full' }));
    const incrementalRequests = await count(() => verifyLedger(ledger, { mode: 'incremental' }));
    const tip = (await ledger.store.read({ paths: [], historyFirst: 0 }))?.headOid ?? '';
    await pad(world, tip, 250);
    const incrementalAfter250Requests = await count(() => verifyLedger(ledger, { mode: 'incremental' }));
    const { report } = await verifyLedger(ledger, { mode: 'full' });
    return {
      commits: report.totalCommits - 250,
      fullRequests,
      incrementalRequests,
      incrementalAfter250Requests,
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
