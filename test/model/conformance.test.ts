/**
 * The SPIN model and the code cannot drift apart silently: a ledger lifecycle run against the emulator
 * with the real Octokit (concurrent consumers and sweepers, an apply-then-drop fault, a takeover of a
 * claimed step, a fenced holder, a reconcile, a completion) is recorded from the branch and every
 * commit checked against model/relation.json, the table model/relation.pml is generated from.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { WritError } from '@writ/core/errors.js';
import {
  checkpointStep,
  claimStep,
  consumeApproval,
  reconcileStep,
  takeoverRun,
} from '@writ/core/ledger/ledger.js';
import { TRANSITIONS } from '@writ/core/ledger/message.js';
import {
  loadRelation,
  MODEL_DIR,
  RELATION_PML_PATH,
  relationPromela,
} from '../../scripts/model-relation.mjs';
import { POLICY, ledgerWorld } from '../../packages/core/test/ledger/support/emulator.js';
import type { LedgerWorld } from '../../packages/core/test/ledger/support/emulator.js';
import { proposePlanFor, recomputed } from '../../packages/core/test/ledger/support/fixtures.js';
import type { RecordedCommit } from './conformance.js';
import { conformanceProblems, recordHistory } from './conformance.js';

const relation = loadRelation();
let world: LedgerWorld | undefined;

afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'none';
  } catch (error: unknown) {
    return (error as WritError).code;
  }
}

describe('the model’s transition relation', () => {
  it('names every ledger transition the code can commit', () => {
    const modelled = Object.keys(relation.transitions);
    expect(TRANSITIONS.filter((name) => name !== 'bootstrap' && !modelled.includes(name))).toEqual([]);
    // A transition the code does not have yet must say which issue brings it.
    const ahead = modelled.filter((name) => !(TRANSITIONS as readonly string[]).includes(name));
    expect(ahead.filter((name) => relation.transitions[name]?.awaiting === undefined)).toEqual([]);
  });

  it('is what model/relation.pml was generated from, and the model uses its guards', () => {
    expect(readFileSync(RELATION_PML_PATH, 'utf8')).toBe(relationPromela(relation));
    const model = readFileSync(`${MODEL_DIR}/writ.pml`, 'utf8');
    for (const name of [
      'propose',
      'consume',
      'claim',
      'checkpoint',
      'takeover',
      'complete',
      'reconcile',
      'cancel',
    ]) {
      expect(model).toContain(`MAY_${name.toUpperCase()}(`);
    }
  });
});

describe('a recorded ledger history, replayed against the model', () => {
  it('allows every commit of a lifecycle with races, a lost response, a takeover and a reconcile', async () => {
    world = await ledgerWorld({ seed: 18 });
    const ledger = world.context();
    const plan = await proposePlanFor(ledger, 'run-1');
    const approval = await world.approve('run-1', plan, 'first');
    // Four workflow runs consume the same approval at once; the first commit's response is dropped.
    world.emulator.admin.addFault({
      match: { operation: 'createCommitOnBranch' },
      fault: { type: 'apply-then-drop' },
      times: 1,
    });
    const consumers = await Promise.allSettled(
      [1, 2, 3, 4].map((index) =>
        consumeApproval(world!.context({ seed: index }), {
          runId: 'run-1',
          approval,
          plan: recomputed(plan),
          holder: { workflow_run_id: 100 + index, attempt: 1 },
        }),
      ),
    );
    const won = consumers.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    expect(won).toHaveLength(1);
    const commits = world.emulator.admin
      .requests()
      .filter((r) => r.mutations.includes('createCommitOnBranch'));
    expect(commits.some((r) => r.status === 'dropped')).toBe(true);
    const first = won[0]!.result.run!.owner!.holder;
    const step = (id: string, epoch: number, holder: typeof first) => ({
      runId: 'run-1',
      stepId: id,
      epoch,
      holder,
    });
    const done = { outcome: 'done' as const, evidence: { status_code: 201, error_code: null } };
    await claimStep(ledger, step('step-1', 1, first));
    await checkpointStep(ledger, { ...step('step-1', 1, first), ...done });
    await claimStep(ledger, step('step-2', 1, first));
    // The holder dies with step-2 claimed; three sweepers race for the expired lease.
    world.emulator.admin.clock({ advance_ms: POLICY.leaseMs + POLICY.graceMs + 1000 });
    const sweepers = await Promise.allSettled(
      [2, 3, 4].map((attempt, index) =>
        takeoverRun(world!.context({ seed: 20 + index }), {
          runId: 'run-1',
          holder: { workflow_run_id: 900, attempt },
        }),
      ),
    );
    expect(sweepers.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    // The old holder's checkpoint is refused (the run now waits for a human) and leaves no commit.
    expect(await codeOf(checkpointStep(ledger, { ...step('step-2', 1, first), ...done }))).toBe(
      'needs-reconciliation',
    );
    await reconcileStep(ledger, {
      runId: 'run-1',
      stepId: 'step-2',
      actor: { actor_login: 'alice', actor_id: 501, role_name: 'maintain' },
      ...done,
    });
    const resumed = await takeoverRun(ledger, {
      runId: 'run-1',
      holder: { workflow_run_id: 901, attempt: 1 },
    });
    const second = { run_id: 'run-1', workflow_run_id: 901, attempt: 1 };
    const epoch = resumed.result.epoch;
    await claimStep(ledger, step('step-3', epoch, second));
    // The last step's checkpoint completes the run and frees the lease in the same commit.
    await checkpointStep(ledger, { ...step('step-3', epoch, second), ...done });
    // A replay of the consumed comment is refused and leaves no commit.
    expect(
      await codeOf(
        consumeApproval(ledger, {
          runId: 'run-1',
          approval,
          plan: recomputed(plan),
          holder: { workflow_run_id: 999, attempt: 1 },
        }),
      ),
    ).toBe('approval-already-consumed');

    const history = await recordHistory(ledger);
    expect(history.map((commit) => commit.transition)).toEqual([
      'propose',
      'consume',
      'claim',
      'checkpoint',
      'claim',
      'takeover',
      'reconcile',
      'takeover',
      'claim',
      'checkpoint',
    ]);
    expect(history[5]!.after.run?.state).toBe('needs-reconciliation');
    expect(history[9]!.after.run?.state).toBe('completed');
    expect(history[9]!.after.lease.holder).toBeNull();
    expect(conformanceProblems(relation, history, POLICY.graceMs)).toEqual([]);
    // The same history with one commit replaced by what a bug would write is refused by the relation.
    const forged = structuredClone(history);
    const checkpoint = forged[3]!;
    checkpoint.before.lease = { ...checkpoint.before.lease, epoch: 2 };
    expect(conformanceProblems(relation, forged, POLICY.graceMs).join('\n')).toMatch(/fenced holder/);
  });
});

describe('the relation refuses what the model forbids', () => {
  function commit(transition: string, patch: Partial<RecordedCommit> = {}): RecordedCommit {
    const lease = { schema: 1 as const, epoch: 1, holder: null, lease_expires_at: null };
    return {
      oid: `${transition}000000000000`,
      committedAt: 0,
      transition,
      runId: 'run-1',
      epoch: 1,
      transitionId: `${transition}-id`,
      commentId: null,
      before: { lease, run: null },
      after: { lease, run: null },
      ...patch,
    };
  }

  it('names a transition the model does not have and a transition ID that landed twice', () => {
    const problems = conformanceProblems(
      relation,
      [commit('rewind'), commit('propose', { epoch: 1 }), commit('propose', { transitionId: 'propose-id' })],
      POLICY.graceMs,
    );
    expect(problems.join('\n')).toMatch(/rewind: no such transition/);
    expect(problems.join('\n')).toMatch(/transition ID landed twice/);
  });

  it('names an epoch granted twice and an epoch that goes back', () => {
    const at = (epoch: number) => ({ schema: 1 as const, epoch, holder: null, lease_expires_at: null });
    const problems = conformanceProblems(
      relation,
      [
        commit('status', {
          epoch: 3,
          before: { lease: at(3), run: null },
          after: { lease: at(3), run: null },
        }),
        commit('status', {
          epoch: 2,
          before: { lease: at(2), run: null },
          after: { lease: at(2), run: null },
        }),
      ],
      POLICY.graceMs,
    );
    expect(problems.join('\n')).toMatch(/epoch went back from 3 to 2/);
  });
});
