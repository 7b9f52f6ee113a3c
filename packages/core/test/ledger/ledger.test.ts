import { beforeEach, describe, expect, it } from '@jest/globals';
import { refusal, refusalError } from '../support/code-of.js';
import { bootstrapLedger, showLedger, verifyLedger } from '../../src/ledger/bootstrap.js';
import type { LedgerContext } from '../../src/ledger/cas.js';
import {
  checkpointStep,
  claimStep,
  completeRun,
  consumeApproval,
  createLedgerContext,
  reconcileStep,
  releaseLease,
  takeoverRun,
} from '../../src/ledger/ledger.js';
import { LEASE_PATH } from '../../src/ledger/paths.js';
import { rulesetDigest } from '../../src/ledger/rulesets.js';
import { APP, MemoryLedgerStore, holdersFinished, instantClock } from './support/memory-store.js';
import { HOLDER, approvalFor, planFor, proposePlanFor, recomputed } from './support/fixtures.js';

let store: MemoryLedgerStore;
let ledger: LedgerContext;
const policy = { leaseMs: 60_000, graceMs: 10_000 };

const proposed = (runId: string, seed = runId) => proposePlanFor(ledger, runId, seed);

beforeEach(async () => {
  store = new MemoryLedgerStore();
  ledger = createLedgerContext(
    { github: store, clock: instantClock, liveness: holdersFinished },
    { repository: 'acme/widgets', app: APP, policy, seed: 1 },
  );
  await bootstrapLedger(ledger, { apply: true });
});

describe('bootstrap', () => {
  it('prints the root payload without writing when not applied', async () => {
    const fresh = new MemoryLedgerStore();
    const context = createLedgerContext({ github: fresh }, { repository: 'acme/widgets', app: APP });
    const result = await bootstrapLedger(context, { apply: false });
    expect(result.dry_run).toBe(true);
    expect(result.files[0]?.path).toBe('ledger-root.json');
    expect(JSON.parse(result.files[0]!.contents)).toEqual({
      schema: 1,
      repository: 'acme/widgets',
      branch: 'bot/writ-ledger',
      // The two protecting rulesets, pinned as the check read them (rulesets.ts).
      rulesets: [1, 2].map((id) => ({
        id,
        updated_at: '2026-11-30T08:00:00.000Z',
        digest: rulesetDigest(fresh.rulesets.get(id)!),
      })),
    });
    expect(fresh.head).toBeNull();
  });

  it('refuses an existing branch', async () => {
    expect(await refusal(bootstrapLedger(ledger, { apply: true }))).toBe('ledger-branch-exists');
    expect(await refusal(bootstrapLedger(ledger, { apply: false }))).toBe('ledger-branch-exists');
  });

  it('pins an organization ruleset like a repository one: an edit after the root is unproven, an extra one is not', async () => {
    const org = new MemoryLedgerStore();
    const content = {
      target: 'branch',
      source_type: 'Organization',
      source: 'acme',
      enforcement: 'active',
      conditions: { ref_name: { include: ['refs/heads/bot/writ-ledger'], exclude: [] } },
      rules: [{ type: 'deletion' }, { type: 'non_fast_forward' }],
      bypass_actors: [],
    };
    org.rules = org.rules.map((rule) =>
      rule.rulesetId === 1 ? { ...rule, rulesetSourceType: 'Organization' } : rule,
    );
    org.rulesets.set(1, { ...org.rulesets.get(1)!, content });
    const context = createLedgerContext(
      { github: org, clock: instantClock },
      { repository: 'acme/widgets', app: APP, policy, seed: 1 },
    );
    await bootstrapLedger(context, { apply: true });
    // An extra organization ruleset after the root: not pinned, not read, not refused.
    org.rules.push({ type: 'update', rulesetId: 3, rulesetSourceType: 'Organization' });
    org.rulesets.set(3, { id: 3, enforcement: 'active', updatedAt: org.now, bypassActors: [] });
    await verifyLedger(context);
    // The pinned organization ruleset edited at the organization (same updated_at, other content).
    org.rulesets.set(1, {
      ...org.rulesets.get(1)!,
      content: { ...content, conditions: { ref_name: { include: ['~ALL'], exclude: [] } } },
    });
    const error = await refusalError(verifyLedger(context));
    expect(error.code).toBe('ledger-provenance-unproven');
    expect(error.message).toContain('Ruleset 1, pinned by the ledger root, changed');
  });

  it('creates a parentless root that passes the provenance check', async () => {
    const { report } = await verifyLedger(ledger);
    expect(report.totalCommits).toBe(1);
    expect(report.rootOid).toBe(store.head);
  });
});

describe('propose and consume', () => {
  it('refuses to re-propose a run (run files are never reset)', async () => {
    await proposed('run-1');
    expect(await refusal(proposed('run-1', 'other'))).toBe('run-exists');
  });

  it('records the approval and takes the lease at epoch 1 in one commit', async () => {
    const plan = await proposed('run-1');
    const before = store.commits.size;
    const outcome = await consumeApproval(ledger, {
      runId: 'run-1',
      approval: approvalFor(plan),
      plan: recomputed(plan),
      holder: HOLDER,
    });
    expect(store.commits.size).toBe(before + 1);
    expect(outcome.result.epoch).toBe(1);
    expect(outcome.result.run?.state).toBe('approved');
    expect(outcome.result.run?.approval?.comment_id).toBe(1001);
    expect(outcome.commit.additions.map((file) => file.path).sort()).toEqual([
      'lease.json',
      'provenance.json',
      'runs/acme--widgets/run-1.json',
    ]);
    expect(outcome.commit.body).toContain('Writ-Transition: consume');
    expect(outcome.commit.body).toContain('Writ-Comment: 1001');
  });

  it('refuses a replayed approval, a reused comment and a superseded digest', async () => {
    const plan = await proposed('run-1');
    await consumeApproval(ledger, {
      runId: 'run-1',
      approval: approvalFor(plan),
      plan: recomputed(plan),
      holder: HOLDER,
    });
    expect(
      await refusal(
        consumeApproval(ledger, {
          runId: 'run-1',
          approval: approvalFor(plan),
          plan: recomputed(plan),
          holder: HOLDER,
        }),
      ),
    ).toBe('approval-already-consumed');
    const plan2 = await proposed('run-2');
    // The same comment ID on another run: a tombstone.
    expect(
      await refusal(
        consumeApproval(ledger, {
          runId: 'run-2',
          approval: approvalFor(plan2),
          plan: recomputed(plan2),
          holder: HOLDER,
        }),
      ),
    ).toBe('approval-already-consumed');
  });

  it('refuses a changed digest, scope or bounds', async () => {
    const plan = await proposed('run-1');
    const base = { runId: 'run-1', approval: approvalFor(plan), plan: recomputed(plan), holder: HOLDER };
    const other = planFor('other');
    const cases = [
      { ...base, approval: approvalFor(other) },
      { ...base, plan: { ...base.plan, digest: other.digest } },
      { ...base, plan: { ...base.plan, scope: other.scope } },
      { ...base, plan: { ...base.plan, bounds: { ...plan.bounds, max_creates: 3 } } },
    ];
    for (const input of cases) {
      expect(await refusal(consumeApproval(ledger, input))).toBe('stale-or-mismatched-approval');
    }
  });

  it('refuses a consumption while another run holds the lease', async () => {
    const plan1 = await proposed('run-1');
    const plan2 = await proposed('run-2');
    await consumeApproval(ledger, {
      runId: 'run-1',
      approval: approvalFor(plan1, 1),
      plan: recomputed(plan1),
      holder: HOLDER,
    });
    expect(
      await refusal(
        consumeApproval(ledger, {
          runId: 'run-2',
          approval: approvalFor(plan2, 2),
          plan: recomputed(plan2),
          holder: { workflow_run_id: 2, attempt: 1 },
        }),
      ),
    ).toBe('repository-lease-held');
  });

  it('refuses a forged commit that puts the proposed file back: the approval is never consumed twice', async () => {
    const plan = await proposed('run-1');
    const proposedFile = (await store.read({
      paths: ['runs/acme--widgets/run-1.json'],
      historyFirst: 0,
    }))!.files.get('runs/acme--widgets/run-1.json')!;
    await consumeApproval(ledger, {
      runId: 'run-1',
      approval: approvalFor(plan),
      plan: recomputed(plan),
      holder: HOLDER,
    });
    // An app-authored commit that (wrongly) puts the proposed file back and frees the lease.
    store.append(
      {
        'runs/acme--widgets/run-1.json': proposedFile,
        [LEASE_PATH]: '{"schema":1,"epoch":1,"holder":null,"lease_expires_at":null}',
        'provenance.json':
          '{"schema":1,"root_oid":"' +
          '0'.repeat(40) +
          '","root_committed_at":"2026-11-30T00:00:00Z","verified_through":"' +
          '0'.repeat(40) +
          '","verified_commits":1,"consumed_run_ids":[],"consumed_comment_ids":[]}',
      },
      'writ ledger: manual',
    );
    // Replay catches the forgery before the run file is even looked at.
    const error = await refusalError(
      consumeApproval(ledger, {
        runId: 'run-1',
        approval: approvalFor(plan, 2002),
        plan: recomputed(plan),
        holder: HOLDER,
      }),
    );
    expect(error.code).toBe('ledger-provenance-unproven');
    expect(error.message).toContain('checkpoint names a commit that is not in the ledger history');
    expect(await refusal(verifyLedger(ledger))).toBe('ledger-provenance-unproven');
  });

  it('dry-runs a consumption: the commit it would make, nothing written', async () => {
    const plan = await proposed('run-1');
    const head = store.head;
    const outcome = await consumeApproval(
      ledger,
      { runId: 'run-1', approval: approvalFor(plan), plan: recomputed(plan), holder: HOLDER },
      { dryRun: true },
    );
    expect(outcome.dryRun).toBe(true);
    expect(outcome.committed).toBe(false);
    expect(outcome.commit.expectedHeadOid).toBe(head);
    expect(store.head).toBe(head);
  });
});

async function consumed(runId: string, commentId: number): Promise<void> {
  const plan = await proposed(runId);
  await consumeApproval(ledger, {
    runId,
    approval: approvalFor(plan, commentId),
    plan: recomputed(plan),
    holder: HOLDER,
  });
}

const me = { run_id: 'run-1', ...HOLDER };

describe('claims, checkpoints, takeover and fencing', () => {
  it('claims and checkpoints in order, renewing the lease on the server clock', async () => {
    await consumed('run-1', 11);
    store.now += 30_000;
    const claimed = await claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me });
    expect(claimed.result.lease?.lease_expires_at).toBe(new Date(store.now + policy.leaseMs).toISOString());
    expect(await refusal(claimStep(ledger, { runId: 'run-1', stepId: 'step-3', epoch: 1, holder: me }))).toBe(
      'invalid-transition',
    );
    await checkpointStep(ledger, {
      runId: 'run-1',
      stepId: 'step-1',
      epoch: 1,
      holder: me,
      outcome: 'done',
      evidence: { status_code: 201, error_code: null },
      resources: [42],
    });
    const overview = await showLedger(ledger);
    expect(overview.runs[0]?.steps[0]).toMatchObject({ status: 'done', epoch: 1, resources: [42] });
    expect(overview.runs[0]?.state).toBe('running');
  });

  it('proves no holder gone without an Actions reader: a store-backed ledger refuses every takeover', async () => {
    await consumed('run-1', 11);
    store.now += policy.leaseMs + policy.graceMs;
    const blind = createLedgerContext(
      { github: store, clock: instantClock },
      { repository: 'acme/widgets', app: APP, policy, seed: 1 },
    );
    const replacement = { workflow_run_id: 9001, attempt: 2 };
    expect(await refusal(takeoverRun(blind, { runId: 'run-1', holder: replacement }))).toBe(
      'holder-liveness-unproven',
    );
    // The holder taking over its own lease reads nothing.
    expect((await takeoverRun(blind, { runId: 'run-1', holder: HOLDER })).result.epoch).toBe(2);
  });

  it('consumes over an expired lease only from a holder proven gone (the takeover rule, not the clock)', async () => {
    await consumed('run-1', 11);
    const plan = await proposed('run-2');
    store.now += policy.leaseMs + policy.graceMs;
    const next = { workflow_run_id: 9002, attempt: 1 };
    const consume = (context: LedgerContext) =>
      consumeApproval(context, {
        runId: 'run-2',
        approval: approvalFor(plan, 12),
        plan: recomputed(plan),
        holder: next,
      });
    const read: unknown[] = [];
    const withLiveness = (state: 'in-progress' | 'unknown') =>
      createLedgerContext(
        {
          github: store,
          clock: instantClock,
          liveness: (holder) => {
            read.push(holder);
            return Promise.resolve(
              state === 'in-progress'
                ? { state, status: 'in_progress' }
                : { state, reason: 'liveness-forbidden' },
            );
          },
        },
        { repository: 'acme/widgets', app: APP, policy, seed: 1 },
      );
    const head = store.head;
    // run-1's job still runs after its lease expired: its lease is not taken by run-2's consume.
    expect(await refusal(consume(withLiveness('in-progress')))).toBe('repository-lease-held');
    // A holder Writ cannot read is never taken for gone.
    expect(await refusal(consume(withLiveness('unknown')))).toBe('holder-liveness-unproven');
    expect(read).toEqual([
      { run_id: 'run-1', ...HOLDER },
      { run_id: 'run-1', ...HOLDER },
    ]);
    expect(store.head).toBe(head);
    // Proven finished: the consume takes the lease at epoch + 1.
    expect((await consume(ledger)).result.epoch).toBe(2);
  });

  it('refuses a takeover before expiry plus grace on the server clock, then one wins at epoch + 1', async () => {
    await consumed('run-1', 11);
    const replacement = { workflow_run_id: 9001, attempt: 2 };
    store.now += policy.leaseMs + policy.graceMs - 1000;
    expect(await refusal(takeoverRun(ledger, { runId: 'run-1', holder: replacement }))).toBe(
      'repository-lease-held',
    );
    store.now += 1000;
    const outcome = await takeoverRun(ledger, { runId: 'run-1', holder: replacement });
    expect(outcome.result.epoch).toBe(2);
    expect(outcome.result.needsReconciliation).toBe(false);
    // The old holder is fenced.
    expect(await refusal(claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me }))).toBe(
      'fenced',
    );
  });

  it('stops a takeover of a claimed step at needs-reconciliation, and a writer reconciles it', async () => {
    await consumed('run-1', 11);
    await claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me });
    store.now += policy.leaseMs + policy.graceMs;
    const outcome = await takeoverRun(ledger, {
      runId: 'run-1',
      holder: { workflow_run_id: 9002, attempt: 1 },
    });
    expect(outcome.result.needsReconciliation).toBe(true);
    expect(outcome.result.run?.state).toBe('needs-reconciliation');
    expect(outcome.result.lease?.holder).toBeNull();
    expect(
      await refusal(
        checkpointStep(ledger, {
          runId: 'run-1',
          stepId: 'step-1',
          epoch: 1,
          holder: me,
          outcome: 'done',
          evidence: { status_code: 200, error_code: null },
        }),
      ),
    ).toBe('needs-reconciliation');
    const actor = { actor_login: 'bob', actor_id: 77, role_name: 'read' };
    expect(
      await refusal(
        reconcileStep(ledger, {
          runId: 'run-1',
          stepId: 'step-1',
          actor,
          outcome: 'done',
          evidence: { status_code: 201, error_code: null },
        }),
      ),
    ).toBe('insufficient-permission');
    const reconciled = await reconcileStep(ledger, {
      runId: 'run-1',
      stepId: 'step-1',
      actor: { ...actor, role_name: 'write' },
      outcome: 'done',
      evidence: { status_code: 201, error_code: null },
      resources: [5],
    });
    expect(reconciled.result.run?.state).toBe('running');
    expect(reconciled.result.run?.steps[0]?.reconciled_by?.actor_login).toBe('bob');
  });

  it('lets a lease held by another run block a claim', async () => {
    await consumed('run-1', 11);
    await releaseLease(ledger, { runId: 'run-1', epoch: 1, holder: me });
    await consumed('run-2', 12);
    expect(await refusal(claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me }))).toBe(
      'repository-lease-held',
    );
  });

  it('completes the run and frees the lease in the checkpoint of its last step', async () => {
    await consumed('run-1', 11);
    const before = store.calls.commit;
    for (const stepId of ['step-1', 'step-2', 'step-3']) {
      await claimStep(ledger, { runId: 'run-1', stepId, epoch: 1, holder: me });
      const checkpointed = await checkpointStep(ledger, {
        runId: 'run-1',
        stepId,
        epoch: 1,
        holder: me,
        outcome: 'done',
        evidence: { status_code: 200, error_code: null },
      });
      const last = stepId === 'step-3';
      expect(checkpointed.result.run?.state).toBe(last ? 'completed' : 'running');
      expect(checkpointed.result.lease?.holder ?? null).toEqual(last ? null : me);
    }
    // Three claims and three checkpoints: the completion needed no commit of its own.
    expect(store.calls.commit - before).toBe(6);
    const overview = await showLedger(ledger);
    expect(overview.runs[0]?.state).toBe('completed');
    expect(overview.lease).toEqual({ schema: 1, epoch: 1, holder: null, lease_expires_at: null });
    expect(
      await refusal(completeRun(ledger, { runId: 'run-1', epoch: 1, holder: me, state: 'completed' })),
    ).toBe('invalid-transition');
    expect(await refusal(claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me }))).toBe(
      'invalid-transition',
    );
    // The next approval takes the lease at once: the finished run does not hold it until it expires.
    await consumed('run-2', 12);
    expect((await showLedger(ledger)).lease.holder?.run_id).toBe('run-2');
  });

  it('keeps a run whose last step failed running, holding the lease until it is released', async () => {
    await consumed('run-1', 11);
    for (const [stepId, outcome] of [
      ['step-1', 'done'],
      ['step-2', 'done'],
      ['step-3', 'failed'],
    ] as const) {
      await claimStep(ledger, { runId: 'run-1', stepId, epoch: 1, holder: me });
      await checkpointStep(ledger, {
        runId: 'run-1',
        stepId,
        epoch: 1,
        holder: me,
        outcome,
        evidence: { status_code: 500, error_code: null },
      });
    }
    const overview = await showLedger(ledger);
    expect(overview.runs[0]?.state).toBe('running');
    expect(overview.lease.holder).toEqual(me);
    const done = await completeRun(ledger, { runId: 'run-1', epoch: 1, holder: me, state: 'failed' });
    expect(done.result.run?.state).toBe('failed');
    expect(done.result.lease?.holder).toBeNull();
  });

  it('names the holder, its epoch and its expiry when the repository lease is held', async () => {
    await consumed('run-1', 11);
    const plan = await proposed('run-2');
    const held = await refusalError(
      consumeApproval(ledger, {
        runId: 'run-2',
        approval: approvalFor(plan, 12),
        plan: recomputed(plan),
        holder: { workflow_run_id: 5, attempt: 1 },
      }),
    );
    expect(held.code).toBe('repository-lease-held');
    const expires = new Date(store.now + policy.leaseMs).toISOString();
    expect(held.message).toContain(
      `Run run-1 (workflow run ${HOLDER.workflow_run_id}, attempt ${HOLDER.attempt}) holds the repository lease at epoch 1 until ${expires}`,
    );
    expect(held.details).toMatchObject({
      epoch: 1,
      holder_run_id: 'run-1',
      holder_workflow_run_id: HOLDER.workflow_run_id,
      holder_attempt: HOLDER.attempt,
      lease_expires_at: expires,
    });
  });
});

describe('the compare-and-set loop', () => {
  it('re-reads and re-validates after a stale head, never overwriting', async () => {
    await consumed('run-1', 11);
    let interleaved = false;
    store.beforeCommit = async () => {
      if (interleaved) return;
      interleaved = true;
      // Another writer lands first: after the lease expired, a takeover moves it to epoch 2.
      store.now += policy.leaseMs + policy.graceMs + 1000;
      await takeoverRun(ledger, { runId: 'run-1', holder: { workflow_run_id: 1, attempt: 9 } });
    };
    expect(await refusal(claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me }))).toBe(
      'fenced',
    );
    // propose, consume, the claim attempt and the takeover: the stale head was re-read, not overwritten.
    expect(store.calls.commit).toBe(4);
  });

  it('recognises its own commit after a lost response (apply, then drop)', async () => {
    await consumed('run-1', 11);
    store.faults = ['apply-then-drop'];
    const outcome = await claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me });
    expect(outcome.recoveredLostResponse).toBe(true);
    expect(outcome.committed).toBe(true);
    expect(outcome.commitOid).toBe(store.head);
  });

  it('recognises its own commit when a retried POST reports STALE_DATA', async () => {
    await consumed('run-1', 11);
    store.faults = ['apply-then-stale'];
    const outcome = await claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me });
    expect(outcome.recoveredLostResponse).toBe(true);
    const overview = await showLedger(ledger);
    expect(overview.runs[0]?.steps[0]?.status).toBe('claimed');
  });

  it('retries a request dropped before it applied', async () => {
    await consumed('run-1', 11);
    store.faults = ['drop-before-apply'];
    const outcome = await claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me });
    expect(outcome.recoveredLostResponse).toBe(false);
    expect(outcome.attempts).toBe(2);
  });

  it('reports ledger-cas-exhausted when every attempt loses', async () => {
    await consumed('run-1', 11);
    // Before each attempt lands, another writer proposes a run (a legal commit) and moves the head.
    let noise = 0;
    let writing = false;
    store.beforeCommit = async () => {
      if (writing) return;
      writing = true;
      noise += 1;
      await proposePlanFor(ledger, `noise-${noise}`);
      writing = false;
    };
    const context = createLedgerContext(
      { github: store, clock: instantClock, liveness: holdersFinished },
      { repository: 'acme/widgets', app: APP, maxAttempts: 3 },
    );
    expect(
      await refusal(claimStep(context, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me })),
    ).toBe('ledger-cas-exhausted');
  });
});

describe('provenance', () => {
  it.each([
    ['a non-app commit', () => store.append({ 'x.json': '1' }, 'human edit', { as: 'human' })],
    ['an unverified commit', () => store.append({ 'x.json': '1' }, 'unsigned', { verified: false })],
    [
      'a second parentless commit',
      // As `git log` lists a merge of two roots: a parentless commit with older history after it.
      () => store.append({ 'x.json': '1' }, 'second root', { reportedParents: 0 }),
    ],
    ['a merge commit', () => store.append({ 'x.json': '1' }, 'merge', { reportedParents: 2 })],
    ['a missing ruleset', () => (store.rules = [])],
    [
      'a ruleset another actor can bypass',
      () =>
        store.rulesets.set(1, {
          ...store.rulesets.get(1)!,
          bypassActors: [{ actorId: 5, actorType: 'RepositoryRole', bypassMode: 'always' }],
        }),
    ],
    [
      'a ruleset changed after the root',
      () => store.rulesets.set(1, { ...store.rulesets.get(1)!, updatedAt: store.now + 3_600_000 }),
    ],
    [
      'the app as a bypass actor of the append-only ruleset',
      () =>
        store.rulesets.set(1, {
          ...store.rulesets.get(1)!,
          bypassActors: [{ actorId: APP.id, actorType: 'Integration', bypassMode: 'always' }],
        }),
    ],
    [
      'a second bypass actor on the writers ruleset',
      () =>
        store.rulesets.set(2, {
          ...store.rulesets.get(2)!,
          bypassActors: [
            { actorId: APP.id, actorType: 'Integration', bypassMode: 'always' },
            { actorId: 77, actorType: 'Integration', bypassMode: 'always' },
          ],
        }),
    ],
    [
      'the writers ruleset changed after the root',
      () => store.rulesets.set(2, { ...store.rulesets.get(2)!, updatedAt: store.now + 3_600_000 }),
    ],
    [
      'the append-only ruleset only evaluated, not enforced',
      () => store.rulesets.set(1, { ...store.rulesets.get(1)!, enforcement: 'evaluate' }),
    ],
    [
      'no update restriction at all',
      () => (store.rules = store.rules.filter((rule) => rule.type !== 'update')),
    ],
    [
      'non-fast-forward blocked only by a ruleset created after the root',
      () => {
        store.rules = [
          ...store.rules.filter((rule) => rule.type !== 'non_fast_forward'),
          { type: 'non_fast_forward', rulesetId: 3, rulesetSourceType: 'Repository' },
        ];
        store.rulesets.set(3, {
          id: 3,
          enforcement: 'active',
          updatedAt: store.now + 3_600_000,
          bypassActors: [],
        });
      },
    ],
  ])('rejects %s with ledger-provenance-unproven', async (_name, tamper) => {
    const plan = await proposed('run-1');
    tamper();
    expect(await refusal(verifyLedger(ledger))).toBe('ledger-provenance-unproven');
    expect(
      await refusal(
        consumeApproval(ledger, {
          runId: 'run-1',
          approval: approvalFor(plan),
          plan: recomputed(plan),
          holder: HOLDER,
        }),
      ),
    ).toBe('ledger-provenance-unproven');
  });

  it('refuses hidden bypass actors with ruleset-bypass-unreadable: the rulesets exist, the token cannot see them', async () => {
    const plan = await proposed('run-1');
    // GitHub omits bypass_actors for a token that cannot write rulesets (administration read only).
    store.rulesets.set(1, { ...store.rulesets.get(1)!, bypassActors: null });
    const verify = await refusalError(verifyLedger(ledger));
    expect(verify.code).toBe('ruleset-bypass-unreadable');
    expect(verify.message).toMatch(/grant the Writ app administration read and write/);
    expect(verify.message).toMatch(/do not recreate them/);
    expect(
      await refusal(
        consumeApproval(ledger, {
          runId: 'run-1',
          approval: approvalFor(plan),
          plan: recomputed(plan),
          holder: HOLDER,
        }),
      ),
    ).toBe('ruleset-bypass-unreadable');
  });

  it('rejects a rewritten history whose old commits are not the app’s', async () => {
    await consumed('run-1', 11);
    // Rewrite: a human-made root and history replace the app's.
    store.head = null;
    store.append(
      { 'ledger-root.json': '{"schema":1,"repository":"acme/widgets","branch":"bot/writ-ledger"}\n' },
      'forged root',
      {
        as: 'human',
        parentless: true,
      },
    );
    expect(await refusal(verifyLedger(ledger))).toBe('ledger-provenance-unproven');
  });

  it('starts from the checkpoint a consumption wrote, so the incremental check stays cheap', async () => {
    for (let index = 0; index < 250; index += 1) await proposePlanFor(ledger, `pad-${index}`);
    await consumed('run-1', 11);
    const full = await verifyLedger(ledger, { mode: 'full' });
    const incremental = await verifyLedger(ledger, { mode: 'incremental' });
    expect(full.report.usedCheckpoint).toBe(false);
    expect(incremental.report.usedCheckpoint).toBe(true);
    expect(incremental.report.totalCommits).toBe(full.report.totalCommits);
    expect([...incremental.report.consumedRunIds]).toEqual(['run-1']);
    expect(incremental.requests).toBeLessThan(full.requests);
  });
});
