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
  cancelRun,
  checkpointStep,
  claimStep,
  consumeApproval,
  reconcileStep,
  recordStatusComment,
  takeoverRun,
} from '@writ/core/ledger/ledger.js';
import { TRANSITIONS } from '@writ/core/ledger/message.js';
import {
  loadRelation,
  MODEL_DIR,
  RELATION_PML_PATH,
  relationPromela,
} from '../../scripts/checks/model-relation.mjs';
import { POLICY, ledgerWorld } from '../../packages/core/test/ledger/support/emulator.js';
import type { LedgerWorld } from '../../packages/core/test/ledger/support/emulator.js';
import { proposePlanFor, recomputed } from '../../packages/core/test/ledger/support/fixtures.js';
import type { RunFile } from '@writ/core/ledger/types.js';
import type { RecordedCommit } from './conformance.js';
import { conformanceMemory, conformanceProblems, recordHistory } from './conformance.js';

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
    // Not run transitions: the root, and the recovery sweep's freeze (ledger/freeze.ts), after which no
    // transition of any run is legal (the replay and every gate refuse the ledger).
    const ledgerOnly = ['bootstrap', 'freeze'];
    expect(TRANSITIONS.filter((name) => !ledgerOnly.includes(name) && !modelled.includes(name))).toEqual([]);
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
    // A claim window: the first claim made a claim-steps of steps 1 and 2 (each the very next one) is in
    // the model; one of steps 1 and 3, leaving step 2 pending before it, is not.
    const claimOf = (indexes: number[]): RecordedCommit[] => {
      const windowed = structuredClone(history);
      const claim = windowed[2]!;
      claim.transition = 'claim-steps';
      for (const index of indexes) claim.after.run!.steps[index]!.status = 'claimed';
      return windowed.slice(0, 3);
    };
    expect(conformanceProblems(relation, claimOf([0, 1]), POLICY.graceMs)).toEqual([]);
    expect(conformanceProblems(relation, claimOf([0, 2]), POLICY.graceMs).join('\n')).toMatch(
      /step step-3 was claimed before an earlier step was done/,
    );
  });
});

describe('recovery’s transitions, recorded and replayed against the model', () => {
  it('allows takeovers that settle claimed steps, a reconcile retry, a status re-reservation and cancels', async () => {
    world = await ledgerWorld({ seed: 13 });
    const ledger = world.context();
    const expire = (): void => {
      world!.emulator.admin.clock({ advance_ms: POLICY.leaseMs + POLICY.graceMs + 1000 });
    };
    const [D1, D2] = [`sha256:${'1'.repeat(64)}`, `sha256:${'2'.repeat(64)}`];
    const plan = await proposePlanFor(ledger, 'run-r');
    const first = (
      await consumeApproval(ledger, {
        runId: 'run-r',
        approval: await world.approve('run-r', plan, 'r'),
        plan: recomputed(plan),
        holder: { workflow_run_id: 300, attempt: 1 },
      })
    ).result.run!.owner!.holder;
    await recordStatusComment(ledger, {
      runId: 'run-r',
      statusComment: { issue_number: 7, comment_id: null, body_digest: null, pending_digest: D1 },
    });
    await recordStatusComment(ledger, {
      runId: 'run-r',
      statusComment: { issue_number: 7, comment_id: 424242, body_digest: D1, pending_digest: null },
    });
    await claimStep(ledger, { runId: 'run-r', stepId: 'step-1', epoch: 1, holder: first });
    // The holder dies; recovery observes step-1's desired state and settles it in its takeover.
    expire();
    const second = await takeoverRun(ledger, {
      runId: 'run-r',
      holder: { workflow_run_id: 301, attempt: 1 },
      resolutions: { 'step-1': { state: 'desired', resources: [12] } },
    });
    const holder = second.result.run!.owner!.holder;
    await claimStep(ledger, { runId: 'run-r', stepId: 'step-2', epoch: 2, holder });
    // Its persist job dies too; the next sweep cannot tell step-2's outcome: needs-reconciliation.
    expire();
    await takeoverRun(ledger, {
      runId: 'run-r',
      holder: { workflow_run_id: 302, attempt: 1 },
      resolutions: { 'step-2': { state: 'unknown', reason: 'external-step' } },
    });
    // A writer retries it (back to pending); the deleted status comment is re-reserved; then cancel.
    await reconcileStep(ledger, {
      runId: 'run-r',
      stepId: 'step-2',
      actor: { actor_login: 'alice', actor_id: 501, role_name: 'maintain' },
      outcome: 'pending',
      evidence: { status_code: null, error_code: null },
      commentId: 9001,
    });
    await recordStatusComment(ledger, {
      runId: 'run-r',
      statusComment: { issue_number: 7, comment_id: null, body_digest: null, pending_digest: D2 },
    });
    await cancelRun(ledger, {
      runId: 'run-r',
      actor: { actor_login: 'alice', actor_id: 501, role_name: 'maintain' },
      commentId: 9002,
    });
    // A second run: stopped at needs-reconciliation, then settled by a later sweep (pre-state: pending),
    // and cancelled while it holds the lease (epoch + 1, the lease freed).
    const other = await proposePlanFor(ledger, 'run-s');
    const owner = (
      await consumeApproval(ledger, {
        runId: 'run-s',
        approval: await world.approve('run-s', other, 's'),
        plan: recomputed(other),
        holder: { workflow_run_id: 400, attempt: 1 },
      })
    ).result.run!.owner!;
    await claimStep(ledger, { runId: 'run-s', stepId: 'step-1', epoch: owner.epoch, holder: owner.holder });
    expire();
    await takeoverRun(ledger, { runId: 'run-s', holder: { workflow_run_id: 401, attempt: 1 } });
    await takeoverRun(ledger, {
      runId: 'run-s',
      holder: { workflow_run_id: 402, attempt: 1 },
      resolutions: { 'step-1': { state: 'pre-state' } },
    });
    await cancelRun(ledger, {
      runId: 'run-s',
      actor: { actor_login: 'alice', actor_id: 501, role_name: 'maintain' },
      commentId: 9003,
    });

    const history = await recordHistory(ledger);
    expect(history.map((commit) => `${commit.transition}:${commit.after.run?.state ?? ''}`)).toEqual([
      'propose:proposed',
      'consume:approved',
      'status:approved',
      'status:approved',
      'claim:running',
      'takeover:running',
      'claim:running',
      'takeover:needs-reconciliation',
      'reconcile:running',
      'status:running',
      'cancel:cancelled',
      'propose:proposed',
      'consume:approved',
      'claim:running',
      'takeover:needs-reconciliation',
      'takeover:running',
      'cancel:cancelled',
    ]);
    // The first cancel found the lease free (epoch kept); the second freed its own (epoch + 1).
    expect([history[10]!.after.lease.epoch, history[16]!.after.lease.epoch]).toEqual([3, 7]);
    expect(history[16]!.after.lease.holder).toBeNull();
    expect(conformanceProblems(relation, history, POLICY.graceMs)).toEqual([]);
    // Recorded in two slices with one memory, the same verdict; a slice is the commits after a head.
    const memory = conformanceMemory();
    const tail = await recordHistory(ledger, { after: history[10]!.oid });
    expect(tail).toHaveLength(6);
    expect([
      ...conformanceProblems(relation, history.slice(0, 11), POLICY.graceMs, memory),
      ...conformanceProblems(relation, tail, POLICY.graceMs, memory),
    ]).toEqual([]);

    // What a bug would have written instead, commit by commit, is refused.
    const forged = (index: number, patch: (commit: RecordedCommit) => void): string => {
      const copy = structuredClone(history[index]!);
      patch(copy);
      return conformanceProblems(relation, [copy], POLICY.graceMs).join('\n');
    };
    // A takeover that settled nothing out of needs-reconciliation.
    expect(
      forged(15, (commit) => {
        commit.after.run!.steps[0] = structuredClone(commit.before.run!.steps[0]!);
        commit.after.run!.state = 'needs-reconciliation';
        commit.after.lease = { ...commit.after.lease, holder: null, lease_expires_at: null };
      }),
    ).toMatch(/without settling a claimed step/);
    // A takeover that kept a step claimed but let the run go on.
    expect(
      forged(7, (commit) => {
        commit.after.run!.state = 'running';
      }),
    ).toMatch(/needs-reconciliation does not match a step left claimed/);
    // A cancel that left its own lease held, and one that moved another run's epoch.
    expect(
      forged(16, (commit) => {
        commit.after.lease = { ...commit.before.lease, epoch: commit.after.lease.epoch };
      }),
    ).toMatch(/held the lease and it was not freed/);
    expect(
      forged(10, (commit) => {
        commit.after.lease = { ...commit.after.lease, epoch: commit.after.lease.epoch + 1 };
        commit.epoch += 1;
      }),
    ).toMatch(/epoch 3 → 4/);
    // A status record that swapped a live comment for another.
    expect(
      forged(3, (commit) => {
        commit.before.run!.status_comment = { ...commit.after.run!.status_comment!, comment_id: 111 };
      }),
    ).toMatch(/status comment 111 was replaced by 424242/);
    // The same reconcile comment landing twice.
    const replay = structuredClone(history[8]!);
    replay.transitionId = 'another';
    expect(conformanceProblems(relation, [history[8]!, replay], POLICY.graceMs).join('\n')).toMatch(
      /the comment was consumed twice/,
    );
  });

  it('refuses an artifact recorded for a cancelled run or under an epoch the lease has left', () => {
    const lease = { schema: 1 as const, epoch: 2, holder: null, lease_expires_at: null };
    const run = structuredClone(history0());
    const record = { commit_oid: 'a'.repeat(40), pr_number: 5, content_digest: 'sha256:x', epoch: 1 };
    const cancelled: RecordedCommit = {
      oid: 'artifact00000000',
      committedAt: 0,
      transition: 'artifact',
      runId: run.run_id,
      epoch: 2,
      transitionId: 'artifact-id',
      commentId: null,
      before: { lease, run: { ...run, state: 'cancelled' } },
      after: { lease, run: { ...run, state: 'cancelled', artifact: record } },
    };
    const problems = conformanceProblems(relation, [cancelled], POLICY.graceMs).join('\n');
    expect(problems).toMatch(/from cancelled is not allowed/);
    expect(problems).toMatch(/published under epoch 1 after the lease moved to 2/);
  });
});

/** An approved run file at epoch 1 (for hand-made commits). */
function history0(): NonNullable<RecordedCommit['before']['run']> {
  return {
    schema: 1,
    repository: 'acme/widgets',
    run_id: 'run-a',
    plan_digest: `sha256:${'0'.repeat(64)}`,
    evidence_digest: null,
    scope: { repository: 'acme/widgets', digest: `sha256:${'1'.repeat(64)}` },
    bounds: { max_steps: 1 },
    state: 'approved',
    approval: null,
    owner: { epoch: 1, holder: { run_id: 'run-a', workflow_run_id: 1, attempt: 1 } },
    steps: [],
    stop_reason: null,
    blockers: [],
    proposed_at: '2026-11-30T09:00:00.000Z',
    proposer: null,
    status_comment: null,
    artifact: null,
  };
}

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

  it('allows the status reservation a propose or a consume folds in, and no other status change', () => {
    const D1 = `sha256:${'1'.repeat(64)}`;
    const D2 = `sha256:${'2'.repeat(64)}`;
    const proposed = { ...history0(), state: 'proposed' as const, owner: null };
    const reservation = { issue_number: 7, comment_id: null, body_digest: null, pending_digest: D1 };
    const recorded = { issue_number: 7, comment_id: 42, body_digest: D1, pending_digest: null };
    const free = { schema: 1 as const, epoch: 1, holder: null, lease_expires_at: null };
    const held = {
      schema: 1 as const,
      epoch: 2,
      holder: { run_id: 'run-a', workflow_run_id: 1, attempt: 1 },
      lease_expires_at: null,
    };
    const propose = (statusComment: RunFile['status_comment']): RecordedCommit =>
      commit('propose', {
        runId: 'run-a',
        before: { lease: free, run: null },
        after: { lease: free, run: { ...proposed, steps: [], status_comment: statusComment } },
      });
    const consume = (before: RunFile['status_comment'], after: RunFile['status_comment']): RecordedCommit =>
      commit('consume', {
        runId: 'run-a',
        epoch: 2,
        commentId: 5,
        before: { lease: free, run: { ...proposed, status_comment: before } },
        after: {
          lease: held,
          run: { ...history0(), owner: { epoch: 2, holder: held.holder }, status_comment: after },
        },
      });
    const problems = (commits: RecordedCommit[]): string =>
      conformanceProblems(relation, commits, POLICY.graceMs).join('\n');
    expect(problems([propose(null)])).toBe('');
    expect(problems([propose(reservation)])).toBe('');
    expect(problems([consume(recorded, recorded)])).toBe('');
    expect(problems([consume(recorded, { ...recorded, pending_digest: D2 })])).toBe('');
    expect(problems([propose({ ...reservation, comment_id: 42 })])).toMatch(/not a first reservation/);
    expect(problems([propose({ ...reservation, pending_digest: null })])).toMatch(/not a first reservation/);
    expect(problems([consume(recorded, { ...recorded, comment_id: 43, pending_digest: D2 })])).toMatch(
      /not an update reservation/,
    );
    expect(problems([consume(recorded, { ...recorded, issue_number: 8, pending_digest: D2 })])).toMatch(
      /not an update reservation/,
    );
    expect(
      problems([consume({ ...recorded, pending_digest: D1 }, { ...recorded, pending_digest: D2 })]),
    ).toMatch(/not an update reservation/);
    expect(problems([consume(reservation, { ...reservation, pending_digest: D2 })])).toMatch(
      /not an update reservation/,
    );
    expect(problems([consume(recorded, null)])).toMatch(/changed the status record/);
    expect(problems([consume(null, reservation)])).toMatch(/changed the status record/);
    // Any other transition leaves the record as it was.
    const claim = commit('release', {
      runId: 'run-a',
      before: {
        lease: held,
        run: { ...history0(), owner: { epoch: 2, holder: held.holder }, status_comment: recorded },
      },
      after: {
        lease: { ...free, epoch: 2 },
        run: {
          ...history0(),
          owner: { epoch: 2, holder: held.holder },
          status_comment: { ...recorded, pending_digest: D2 },
        },
      },
      epoch: 2,
    });
    expect(problems([claim])).toMatch(/changed the status record/);
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
