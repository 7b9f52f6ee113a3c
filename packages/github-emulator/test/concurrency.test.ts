/**
 * Compare-and-set under contention: exactly one of several concurrent `createCommitOnBranch` calls with the
 * same `expectedHeadOid` wins.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { World } from './support/helpers.js';
import {
  client,
  COMMIT_MUTATION,
  commitInput,
  expectConformance,
  graphqlRaw,
  setup,
} from './support/helpers.js';

// A measurement over 3,600 requests: bound it explicitly.
jest.setTimeout(180_000);

const TRIALS = 200;
const WRITERS = 16;

let world: World;
beforeAll(async () => {
  world = await setup(20261130);
});
afterAll(async () => {
  await world.emulator.close();
  expectConformance();
});

interface CommitResult {
  createCommitOnBranch: { commit: { oid: string } };
}

describe('concurrency', () => {
  it(`lets exactly one of ${WRITERS} concurrent createCommitOnBranch calls with the same expectedHeadOid win, over ${TRIALS} seeded trials`, async () => {
    const admin = world.emulator.admin;
    // Seeded jitter reorders arrivals from trial to trial (the emulator's PRNG decides which requests wait).
    for (const ms of [1, 2, 3])
      admin.addFault({
        match: { operation: 'createCommitOnBranch' },
        fault: { type: 'latency', ms },
        probability: 0.25,
      });
    const setupClient = client(world.emulator, 'app-token');
    const outcomes: string[] = [];
    const winners = new Set<number>();
    for (let trial = 0; trial < TRIALS; trial++) {
      const branch = `trial-${trial}`;
      await setupClient.rest.git.createRef({
        owner: 'alice',
        repo: 'repo',
        ref: `refs/heads/${branch}`,
        sha: world.head,
      });
      // Raw concurrent HTTP (the client's write queue would serialise them); the client path is covered elsewhere.
      const results = await Promise.all(
        Array.from({ length: WRITERS }, (_, writer) =>
          graphqlRaw(
            world.emulator,
            'app-token',
            COMMIT_MUTATION,
            commitInput(world.head, 'lease.json', `{"writer":${writer}}`, branch),
          ),
        ),
      );
      const fulfilled = results.flatMap((result, writer) => {
        const data = result.body.data as CommitResult | { createCommitOnBranch: null };
        return data.createCommitOnBranch ? [{ writer, oid: data.createCommitOnBranch.commit.oid }] : [];
      });
      const stale = results.filter((result) => {
        const errors = result.body.errors as { type?: string }[] | undefined;
        return result.status === 200 && errors?.length === 1 && errors[0]?.type === 'STALE_DATA';
      });
      outcomes.push(`${fulfilled.length}/${stale.length}`);
      const { data: ref } = await setupClient.rest.git.getRef({
        owner: 'alice',
        repo: 'repo',
        ref: `heads/${branch}`,
      });
      if (fulfilled.length === 1 && fulfilled[0]) {
        expect(ref.object.sha).toBe(fulfilled[0].oid);
        winners.add(fulfilled[0].writer);
      }
    }
    admin.clearFaults();
    expect(outcomes.filter((outcome) => outcome !== `1/${WRITERS - 1}`)).toEqual([]);
    expect(outcomes).toHaveLength(TRIALS);
    // The jitter really changes who wins.
    expect(winners.size).toBeGreaterThan(1);
  });
});
