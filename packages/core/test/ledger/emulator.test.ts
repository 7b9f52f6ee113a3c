/**
 * The ledger against the GitHub emulator over loopback, with Writ's real client (retry + throttling).
 * The reference's ledger list: stale head, concurrent consumption, lost-response replay, replayed and
 * superseded approvals, re-propose, tombstone reuse, provenance failures, changed digest/scope/bounds,
 * concurrent takeover, fencing, claimed-step takeover, lease held; plus clock faults.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { WritError } from '../../src/errors.js';
import { refusal, refusalError } from '../support/code-of.js';
import { bootstrapLedger, showLedger, verifyLedger } from '../../src/ledger/bootstrap.js';
import type { Clock, LedgerContext } from '../../src/ledger/cas.js';
import {
  checkpointStep,
  claimStep,
  consumeApproval,
  createLedgerContext,
  proposeRun,
  readVerifiedRun,
  recordStatusComment,
  releaseLease,
  takeoverRun,
} from '../../src/ledger/ledger.js';
import { parseTrailers } from '../../src/ledger/message.js';
import { checkRulesets } from '../../src/ledger/rulesets.js';
import type { LedgerStore } from '../../src/ledger/store.js';
import type { LedgerWorld } from './support/emulator.js';
import {
  BRANCH,
  OWNER,
  OWNER_TOKEN,
  POLICY,
  REPO,
  REPOSITORY,
  emulatorClient,
  instantClock,
  ledgerWorld,
} from './support/emulator.js';
import { planFor, proposalOf, proposePlanFor, recomputed } from './support/fixtures.js';

let world: LedgerWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const propose = proposePlanFor;

function holder(workflowRunId: number, attempt = 1): { workflow_run_id: number; attempt: number } {
  return { workflow_run_id: workflowRunId, attempt };
}

async function consumeAs(
  ledger: LedgerContext,
  runId: string,
  plan: ReturnType<typeof planFor>,
  commentKey: number,
  workflowRunId: number,
): Promise<void> {
  await consumeApproval(ledger, {
    runId,
    approval: await world!.approve(runId, plan, commentKey),
    plan: recomputed(plan),
    holder: holder(workflowRunId),
  });
}

/** Every consume commit for a run in the branch history (full walk). */
async function consumeCommits(ledger: LedgerContext, runId: string): Promise<string[]> {
  const store = ledger.store;
  const snapshot = await store.read({ paths: [], historyFirst: 100 });
  const found: string[] = [];
  let page = snapshot!.history;
  for (;;) {
    for (const commit of page.commits) {
      const trailers = parseTrailers(commit.message);
      if (trailers?.transition === 'consume' && trailers.runId === runId) found.push(commit.oid);
    }
    if (!page.hasNextPage || page.endCursor === null) return found;
    page = await store.readHistory(snapshot!.headOid, page.endCursor, 100);
  }
}

function advance(ms: number): void {
  world!.emulator.admin.clock({ advance_ms: ms });
}

describe('compare-and-set on the emulator', () => {
  it('rejects a commit on a stale head with STALE_DATA and leaves the branch unchanged', async () => {
    world = await ledgerWorld();
    const ledger = world.context();
    const plan = await propose(ledger, 'run-1');
    const dry = await consumeApproval(
      ledger,
      {
        runId: 'run-1',
        approval: await world.approve('run-1', plan),
        plan: recomputed(plan),
        holder: holder(1),
      },
      { dryRun: true },
    );
    await propose(ledger, 'run-2');
    const head = (await ledger.store.read({ paths: [], historyFirst: 0 }))!.headOid;
    const outcome = await ledger.store.commit(dry.commit);
    expect(outcome.kind).toBe('stale');
    expect((await ledger.store.read({ paths: [], historyFirst: 0 }))!.headOid).toBe(head);
    // The loop re-reads, re-validates and commits on the new head.
    const real = await consumeApproval(ledger, {
      runId: 'run-1',
      approval: await world.approve('run-1', plan),
      plan: recomputed(plan),
      holder: holder(1),
    });
    expect(real.commit.expectedHeadOid).toBe(head);
  });

  it('lets exactly one of eight concurrent consumers win; the others are refused with a code', async () => {
    world = await ledgerWorld();
    const plan = await propose(world.context(), 'run-1');
    const contexts = Array.from({ length: 8 }, (_, index) => world!.context({ seed: index + 1 }));
    const results = await Promise.allSettled(
      contexts.map((ledger, index) => consumeAs(ledger, 'run-1', plan, 4242, 100 + index)),
    );
    const winners = results.filter((result) => result.status === 'fulfilled');
    const codes = results.flatMap((result) =>
      result.status === 'rejected' ? [(result.reason as WritError).code] : [],
    );
    expect(winners).toHaveLength(1);
    expect(codes).toEqual(Array.from({ length: 7 }, () => 'approval-already-consumed'));
    expect(await consumeCommits(world.context(), 'run-1')).toHaveLength(1);
  });

  it('recognises its own commit after apply-then-drop and the client retry’s STALE_DATA', async () => {
    world = await ledgerWorld();
    const ledger = world.context();
    const plan = await propose(ledger, 'run-1');
    world.emulator.admin.addFault({
      match: { operation: 'createCommitOnBranch' },
      fault: { type: 'apply-then-drop' },
      times: 1,
    });
    const approval = await world.approve('run-1', plan);
    const outcome = await consumeApproval(ledger, {
      runId: 'run-1',
      approval,
      plan: recomputed(plan),
      holder: holder(1),
    });
    expect(outcome.recoveredLostResponse).toBe(true);
    const log = world.emulator.admin
      .requests()
      .filter((entry) => entry.mutations.includes('createCommitOnBranch'));
    // The dropped POST, plugin-retry's retry of it (STALE_DATA): no third commit attempt.
    expect(log.slice(-2).map((entry) => entry.status)).toEqual(['dropped', 200]);
    expect(await consumeCommits(ledger, 'run-1')).toHaveLength(1);
    const overview = await showLedger(ledger);
    expect(overview.lease.epoch).toBe(1);
    expect(overview.runs[0]?.approval?.comment_id).toBe(approval.comment_id);
  });
  it('re-reads and commits once after every client retry of a commit met a 5xx', async () => {
    world = await ledgerWorld();
    const ledger = world.context();
    const plan = await propose(ledger, 'run-1');
    // plugin-retry sends the POST 4 times (1 + 3 retries); all four answer 502 without applying.
    world.emulator.admin.addFault({
      match: { operation: 'createCommitOnBranch' },
      fault: { type: 'status', status: 502 },
      times: 4,
    });
    const outcome = await consumeApproval(ledger, {
      runId: 'run-1',
      approval: await world.approve('run-1', plan),
      plan: recomputed(plan),
      holder: holder(1),
    });
    expect(outcome.attempts).toBe(2);
    expect(outcome.recoveredLostResponse).toBe(false);
    expect(await consumeCommits(ledger, 'run-1')).toHaveLength(1);
  });

  it('retries a commit dropped before it applied, without mistaking it for a landed one', async () => {
    world = await ledgerWorld();
    const ledger = world.context({ maxAttempts: 3 });
    await propose(ledger, 'run-1');
    world.emulator.admin.addFault({
      match: { operation: 'createCommitOnBranch' },
      fault: { type: 'drop-before-apply' },
      times: 4,
    });
    const plan2 = planFor('run-2');
    const outcome = await proposeRun(ledger, proposalOf(plan2, 'run-2'));
    expect(outcome.recoveredLostResponse).toBe(false);
    expect(outcome.attempts).toBe(2);
    expect((await showLedger(ledger)).runs.map((run) => run.run_id)).toEqual(['run-1', 'run-2']);
  });

  it('fails with a code when the repository is not there', async () => {
    world = await ledgerWorld();
    const ledger = createLedgerContext(
      { github: emulatorClient(world.emulator, OWNER_TOKEN), clock: instantClock },
      { repository: 'acme/missing', branch: BRANCH, app: world.app, policy: POLICY },
    );
    expect(await refusal(showLedger(ledger))).toBe('github-request-failed');
  });
});

describe('approvals on the emulator', () => {
  it('refuses a re-proposal, a replayed approval, a reused comment and a superseded digest', async () => {
    world = await ledgerWorld();
    const ledger = world.context();
    const plan = await propose(ledger, 'run-1');
    expect(await refusal(propose(ledger, 'run-1', 'changed plan'))).toBe('run-exists');
    await consumeAs(ledger, 'run-1', plan, 500, 1);
    expect(await refusal(consumeAs(ledger, 'run-1', plan, 500, 2))).toBe('approval-already-consumed');
    expect(await refusal(consumeAs(ledger, 'run-1', plan, 501, 2))).toBe('approval-already-consumed');
    await releaseLease(ledger, { runId: 'run-1', epoch: 1, holder: { run_id: 'run-1', ...holder(1) } });
    const plan2 = await propose(ledger, 'run-2');
    // The tombstone of comment 500 blocks its reuse on another run.
    expect(await refusal(consumeAs(ledger, 'run-2', plan2, 500, 3))).toBe('approval-already-consumed');
    // An approval of a superseded plan (another digest) is stale.
    const superseded = planFor('run-2 before the re-plan');
    expect(
      await refusal(
        consumeApproval(ledger, {
          runId: 'run-2',
          approval: await world.approve('run-2', superseded),
          plan: recomputed(plan2),
          holder: holder(3),
        }),
      ),
    ).toBe('stale-or-mismatched-approval');
  });

  it('refuses a changed digest, scope or bounds in the recomputed plan', async () => {
    world = await ledgerWorld();
    const ledger = world.context();
    const plan = await propose(ledger, 'run-1');
    const other = planFor('other');
    const base = {
      runId: 'run-1',
      approval: await world.approve('run-1', plan),
      plan: recomputed(plan),
      holder: holder(1),
    };
    for (const changed of [
      { ...base.plan, digest: other.digest },
      { ...base.plan, scope: other.scope },
      { ...base.plan, bounds: { ...plan.bounds, max_steps: 11 } },
    ]) {
      expect(await refusal(consumeApproval(ledger, { ...base, plan: changed }))).toBe(
        'stale-or-mismatched-approval',
      );
    }
    expect((await showLedger(ledger)).runs[0]?.approval).toBeNull();
  });

  it('lets a lease held by another run block both consume and claim', async () => {
    world = await ledgerWorld();
    const ledger = world.context();
    const plan1 = await propose(ledger, 'run-1');
    const plan2 = await propose(ledger, 'run-2');
    await consumeAs(ledger, 'run-1', plan1, 1, 1);
    expect(await refusal(consumeAs(ledger, 'run-2', plan2, 2, 2))).toBe('repository-lease-held');
    await releaseLease(ledger, { runId: 'run-1', epoch: 1, holder: { run_id: 'run-1', ...holder(1) } });
    await consumeAs(ledger, 'run-2', plan2, 2, 2);
    expect(
      await refusal(
        claimStep(ledger, {
          runId: 'run-1',
          stepId: 'step-1',
          epoch: 1,
          holder: { run_id: 'run-1', ...holder(1) },
        }),
      ),
    ).toBe('repository-lease-held');
  });
});

describe('leases, takeover and fencing on the emulator', () => {
  const first = { run_id: 'run-1', ...holder(1) };

  it('lets exactly one of four concurrent takeovers win at epoch + 1 and fences the old holder', async () => {
    world = await ledgerWorld();
    const ledger = world.context();
    const plan = await propose(ledger, 'run-1');
    await consumeAs(ledger, 'run-1', plan, 1, 1);
    advance(POLICY.leaseMs + POLICY.graceMs + 1000);
    const results = await Promise.allSettled(
      [2, 3, 4, 5].map((attempt, index) =>
        takeoverRun(world!.context({ seed: index + 10 }), { runId: 'run-1', holder: holder(1, attempt) }),
      ),
    );
    const won = results.filter((result) => result.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect(
      results.flatMap((result) => (result.status === 'rejected' ? [(result.reason as WritError).code] : [])),
    ).toEqual(['repository-lease-held', 'repository-lease-held', 'repository-lease-held']);
    const overview = await showLedger(ledger);
    expect(overview.lease.epoch).toBe(2);
    expect(
      await refusal(claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: first })),
    ).toBe('fenced');
  });

  it('stops a takeover of a claimed step at needs-reconciliation', async () => {
    world = await ledgerWorld();
    const ledger = world.context();
    const plan = await propose(ledger, 'run-1');
    await consumeAs(ledger, 'run-1', plan, 1, 1);
    await claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: first });
    advance(POLICY.leaseMs + POLICY.graceMs);
    const outcome = await takeoverRun(ledger, { runId: 'run-1', holder: holder(1, 2) });
    expect(outcome.result.needsReconciliation).toBe(true);
    const overview = await showLedger(ledger);
    expect(overview.runs[0]?.state).toBe('needs-reconciliation');
    expect(overview.runs[0]?.steps[0]?.status).toBe('claimed');
    expect(
      await refusal(
        checkpointStep(ledger, {
          runId: 'run-1',
          stepId: 'step-1',
          epoch: 1,
          holder: first,
          outcome: 'done',
          evidence: { status_code: 201, error_code: null },
        }),
      ),
    ).toBe('needs-reconciliation');
  });

  it('ignores runner clock offsets of ±10 minutes: the server clock decides expiry', async () => {
    world = await ledgerWorld();
    const plan = await propose(world.context(), 'run-1');
    await consumeAs(world.context(), 'run-1', plan, 1, 1);
    for (const offset of [10 * 60_000, -10 * 60_000]) {
      const skewed: Clock = { now: () => Date.now() + offset, sleep: () => Promise.resolve() };
      const ledger = world.context({ clock: skewed });
      expect(await refusal(takeoverRun(ledger, { runId: 'run-1', holder: holder(1, 2) }))).toBe(
        'repository-lease-held',
      );
    }
    // Expiry passed but not the grace period: still refused.
    advance(POLICY.leaseMs + POLICY.graceMs / 2);
    expect(await refusal(takeoverRun(world.context(), { runId: 'run-1', holder: holder(1, 2) }))).toBe(
      'repository-lease-held',
    );
    advance(POLICY.graceMs);
    const outcome = await takeoverRun(world.context(), { runId: 'run-1', holder: holder(1, 2) });
    expect(outcome.result.epoch).toBe(2);
  });

  it('fences a holder paused for twice the lease length inside a claim', async () => {
    world = await ledgerWorld();
    const setup = world.context();
    const plan = await propose(setup, 'run-1');
    await consumeAs(setup, 'run-1', plan, 1, 1);
    const real = setup.store;
    let paused = false;
    // The holder has read and evaluated its claim; before its commit reaches GitHub it is paused for
    // 2x the lease, during which a replacement takes over (on the server's clock).
    const pausing: LedgerStore = {
      location: real.location,
      read: (request) => real.read(request),
      readFilesAt: (oid, paths) => real.readFilesAt(oid, paths),
      readHistory: (head, cursor, first) => real.readHistory(head, cursor, first),
      readCommits: (requests) => real.readCommits(requests),
      comment: (repository, id) => real.comment(repository, id),
      branchRules: () => real.branchRules(),
      ruleset: (id) => real.ruleset(id),
      createRoot: (files, message) => real.createRoot(files, message),
      commit: async (request) => {
        if (!paused) {
          paused = true;
          advance(2 * POLICY.leaseMs);
          await takeoverRun(world!.context({ seed: 99 }), { runId: 'run-1', holder: holder(1, 2) });
        }
        return real.commit(request);
      },
    };
    const holderLedger = createLedgerContext(
      { github: pausing, clock: instantClock },
      { repository: REPOSITORY, branch: BRANCH, app: world.app, policy: POLICY, seed: 3 },
    );
    expect(
      await refusal(claimStep(holderLedger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: first })),
    ).toBe('fenced');
    const overview = await showLedger(setup);
    expect(overview.lease.epoch).toBe(2);
    expect(overview.runs[0]?.steps[0]?.status).toBe('pending');
  });
});

describe('provenance on the emulator', () => {
  async function tamperWhileRulesetOff(tamper: () => Promise<void>): Promise<void> {
    // The rulesets are switched off in the emulator's state without touching their updated_at, so the
    // history rules (not the ruleset check) are what must catch the tampering.
    const rulesets = world!.rulesets!;
    for (const ruleset of rulesets) ruleset.enforcement = 'disabled';
    try {
      await tamper();
    } finally {
      for (const ruleset of rulesets) ruleset.enforcement = 'active';
    }
  }

  async function head(): Promise<string> {
    return (await world!.context().store.read({ paths: [], historyFirst: 0 }))!.headOid;
  }

  it('passes a freshly bootstrapped ledger and refuses to bootstrap it again', async () => {
    world = await ledgerWorld();
    const { report } = await verifyLedger(world.context());
    expect(report.totalCommits).toBe(1);
    expect(await refusal(bootstrapLedger(world.context(), { apply: true }))).toBe('ledger-branch-exists');
  });

  it('refuses to bootstrap without the two rulesets, before writing anything', async () => {
    world = await ledgerWorld({ ruleset: false, bootstrap: false });
    const before = world.emulator.admin.requests().length;
    expect(await refusal(bootstrapLedger(world.context(), { apply: true }))).toBe(
      'ledger-provenance-unproven',
    );
    const sent = world.emulator.admin.requests().slice(before);
    expect(sent.filter((request) => request.method !== 'GET' && request.path !== '/graphql')).toEqual([]);
    expect(await refusal(verifyLedger(world.context()))).toBe('ledger-branch-missing');
  });

  it('refuses to bootstrap under the old single ruleset the app could bypass', async () => {
    world = await ledgerWorld({ ruleset: false, bootstrap: false });
    world.emulator.admin.addRuleset(OWNER, REPO, {
      name: 'writ-ledger',
      conditions: { ref_name: { include: [`refs/heads/${BRANCH}`], exclude: [] } },
      rules: [{ type: 'deletion' }, { type: 'non_fast_forward' }, { type: 'update' }],
      bypass_actors: [{ actor_id: world.app.id, actor_type: 'Integration', bypass_mode: 'always' }],
    });
    const error = await refusalError(bootstrapLedger(world.context(), { apply: true }));
    expect(error.message).toMatch(/lacks an active ruleset with no bypass actors blocking deletion/);
    expect(await refusal(verifyLedger(world.context()))).toBe('ledger-branch-missing');
  });

  it('rejects a non-app commit', async () => {
    world = await ledgerWorld();
    const plan = await propose(world.context(), 'run-1');
    await tamperWhileRulesetOff(async () => {
      const owner = emulatorClient(world!.emulator, OWNER_TOKEN);
      await owner.graphql(
        `mutation($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }`,
        {
          input: {
            branch: { repositoryNameWithOwner: REPOSITORY, branchName: BRANCH },
            expectedHeadOid: await head(),
            message: { headline: 'human edit' },
            fileChanges: {
              additions: [{ path: 'lease.json', contents: Buffer.from('{}').toString('base64') }],
            },
          },
        },
      );
    });
    const error = await refusalError(verifyLedger(world.context()));
    expect(error.code).toBe('ledger-provenance-unproven');
    expect(error.message).toContain('is not authored by the ledger app writ-ledger[bot]');
    expect(await refusal(consumeAs(world.context(), 'run-1', plan, 1, 1))).toBe('ledger-provenance-unproven');
    // The takeover's unproven first read (whom to read for liveness) does not pre-empt the proof either.
    expect(await refusal(takeoverRun(world.context(), { runId: 'run-1', holder: holder(1, 2) }))).toBe(
      'ledger-provenance-unproven',
    );
  });

  it('rejects an unverified commit carrying the app’s name', async () => {
    world = await ledgerWorld();
    const bot = world.app;
    await tamperWhileRulesetOff(async () => {
      const owner = emulatorClient(world!.emulator, OWNER_TOKEN);
      const parent = await head();
      const base = await owner.rest.git.getCommit({ owner: OWNER, repo: REPO, commit_sha: parent });
      const commit = await owner.rest.git.createCommit({
        owner: OWNER,
        repo: REPO,
        message: 'looks like the app',
        tree: base.data.tree.sha,
        parents: [parent],
        author: { name: `${bot.slug}[bot]`, email: `1+${bot.slug}[bot]@users.noreply.github.com` },
      });
      await owner.rest.git.updateRef({
        owner: OWNER,
        repo: REPO,
        ref: `heads/${BRANCH}`,
        sha: commit.data.sha,
      });
    });
    const error = await refusalError(verifyLedger(world.context()));
    expect(error.code).toBe('ledger-provenance-unproven');
    expect(error.message).toMatch(/is not verified \(signature (missing|UNSIGNED)\)/);
  });

  it('rejects a second parentless commit merged into the history, even one the app made', async () => {
    world = await ledgerWorld();
    await tamperWhileRulesetOff(async () => {
      const app = emulatorClient(world!.emulator, 'ghs_ledgerAppInstallationToken000000000');
      const parent = await head();
      const tree = await app.rest.git.createTree({
        owner: OWNER,
        repo: REPO,
        tree: [{ path: 'ledger-root.json', mode: '100644', type: 'blob', content: '{}' }],
      });
      const orphan = await app.rest.git.createCommit({
        owner: OWNER,
        repo: REPO,
        message: 'orphan',
        tree: tree.data.sha,
        parents: [],
      });
      const base = await app.rest.git.getCommit({ owner: OWNER, repo: REPO, commit_sha: parent });
      const merge = await app.rest.git.createCommit({
        owner: OWNER,
        repo: REPO,
        message: 'merge',
        tree: base.data.tree.sha,
        parents: [parent, orphan.data.sha],
      });
      await app.rest.git.updateRef({ owner: OWNER, repo: REPO, ref: `heads/${BRANCH}`, sha: merge.data.sha });
    });
    const error = await refusalError(verifyLedger(world.context()));
    expect(error.code).toBe('ledger-provenance-unproven');
    expect(error.message).toMatch(/merge commit|second parentless/);
  });

  it('rejects a rewritten history (a force-update to a human-made root)', async () => {
    world = await ledgerWorld();
    await propose(world.context(), 'run-1');
    const owner = emulatorClient(world.emulator, OWNER_TOKEN);
    const snapshot = await world.context().store.read({ paths: ['ledger-root.json'], historyFirst: 0 });
    const tree = await owner.rest.git.createTree({
      owner: OWNER,
      repo: REPO,
      tree: [
        {
          path: 'ledger-root.json',
          mode: '100644',
          type: 'blob',
          content: snapshot!.files.get('ledger-root.json')!,
        },
      ],
    });
    const root = await owner.rest.git.createCommit({
      owner: OWNER,
      repo: REPO,
      message: 'rewritten',
      tree: tree.data.sha,
      parents: [],
    });
    const forceUpdate = () =>
      owner.rest.git.updateRef({
        owner: OWNER,
        repo: REPO,
        ref: `heads/${BRANCH}`,
        sha: root.data.sha,
        force: true,
      });
    // While the ruleset is on, GitHub itself refuses the force-update.
    await expect(forceUpdate()).rejects.toMatchObject({ status: 422 });
    await tamperWhileRulesetOff(async () => {
      await forceUpdate();
    });
    const error = await refusalError(verifyLedger(world.context()));
    expect(error.code).toBe('ledger-provenance-unproven');
    expect(error.message).toContain('is not authored by the ledger app');
  });

  it('rejects a writers ruleset that lets another actor bypass it', async () => {
    world = await ledgerWorld();
    world.rulesets![1].bypass_actors.push({
      actor_id: 5,
      actor_type: 'RepositoryRole',
      bypass_mode: 'always',
    });
    expect(await refusal(verifyLedger(world.context()))).toBe('ledger-provenance-unproven');
  });

  it('proves the rulesets from the rules the one read returned, holding them to the same rules', async () => {
    world = await ledgerWorld();
    await propose(world.context(), 'run-1');
    const before = world.emulator.admin.requests().length;
    await readVerifiedRun(world.context(), 'run-1');
    const sent = world.emulator.admin
      .requests()
      .slice(before)
      .map((request) => request.operation ?? request.path);
    expect(sent.filter((path) => path.includes('/rules/branches/'))).toEqual([]);
    expect(sent.filter((path) => path.includes('/rulesets/'))).toHaveLength(2);
    world.rulesets![0].bypass_actors.push({
      actor_id: 5,
      actor_type: 'RepositoryRole',
      bypass_mode: 'always',
    });
    expect(await refusal(readVerifiedRun(world.context(), 'run-1'))).toBe('ledger-provenance-unproven');
  });

  it('rejects an append-only ruleset that the app (or anyone) may bypass', async () => {
    world = await ledgerWorld();
    world.rulesets![0].bypass_actors.push({
      actor_id: world.app.id,
      actor_type: 'Integration',
      bypass_mode: 'always',
    });
    const error = await refusalError(verifyLedger(world.context()));
    expect(error.code).toBe('ledger-provenance-unproven');
    // The root pinned the ruleset without bypass actors: any change to it is refused as a change.
    expect(error.message).toContain('changed since the root commit (its content differs)');
    // Judged as it is (what bootstrap and doctor's ruleset check do, with no root to pin against), it
    // is refused for what it now allows.
    const now = await refusalError(checkRulesets(world.context().store, world.app, null));
    expect(now.code).toBe('ledger-provenance-unproven');
    expect(now.message).toContain('no bypass actors');
  });

  describe('a head the process wrote itself', () => {
    const reservation = {
      issue_number: 7,
      comment_id: null,
      body_digest: null,
      pending_digest: `sha256:${'a'.repeat(64)}`,
    };

    it('commits the next transition on it without reading the branch, and the result proves', async () => {
      world = await ledgerWorld();
      const ledger = world.context();
      const plan = planFor('run-1');
      const proposed = await proposeRun(ledger, proposalOf(plan, 'run-1'));
      expect(proposed.held?.headOid).toBe(proposed.commitOid);
      const before = world.emulator.admin.requests().length;
      const recorded = await recordStatusComment(
        ledger,
        { runId: 'run-1', statusComment: reservation },
        { from: proposed.held! },
      );
      const sent = world.emulator.admin.requests().slice(before);
      expect(sent.map((request) => request.operation)).toEqual(['WritCommitOnBranch']);
      expect(recorded.committed).toBe(true);
      // A full walk from the root (trusting no checkpoint) replays both commits as legal transitions.
      const report = await verifyLedger(world.context());
      expect(report.headOid).toBe(recorded.commitOid);
      expect(report.report.totalCommits).toBe(3);
    });

    it('re-reads and re-proves when another writer moved the head after it', async () => {
      world = await ledgerWorld();
      const ledger = world.context();
      const plan = planFor('run-1');
      const proposed = await proposeRun(ledger, proposalOf(plan, 'run-1'));
      // Another job writes in between: the held head is stale, so its commit is refused and re-read.
      const other = await proposePlanFor(world.context(), 'run-2');
      expect(other.digest).not.toBe(plan.digest);
      const recorded = await recordStatusComment(
        ledger,
        { runId: 'run-1', statusComment: reservation },
        { from: proposed.held! },
      );
      expect(recorded.attempts).toBe(2);
      const report = await verifyLedger(world.context());
      expect(report.headOid).toBe(recorded.commitOid);
      expect(report.report.totalCommits).toBe(4);
    });

    it('is not used by a transition that grants authority: a consume reads and proves the rulesets', async () => {
      world = await ledgerWorld();
      const ledger = world.context();
      const plan = planFor('run-1');
      const proposed = await proposeRun(ledger, proposalOf(plan, 'run-1'));
      const approval = await world.approve('run-1', plan, 1);
      const before = world.emulator.admin.requests().length;
      await consumeApproval(
        ledger,
        { runId: 'run-1', approval, plan: recomputed(plan), holder: holder(1) },
        { from: proposed.held! },
      );
      const paths = world.emulator.admin
        .requests()
        .slice(before)
        .map((request) => request.operation ?? request.path);
      expect(paths[0]).toBe('WritLedgerRead');
      expect(paths.filter((path) => path.includes('/rulesets/'))).toHaveLength(2);
    });
  });

  it('makes one read and one commit per transition, plus the replay and ruleset reads where needed', async () => {
    world = await ledgerWorld();
    const ledger = world.context();
    const log = world.emulator.admin;
    const measure = async (run: () => Promise<unknown>): Promise<number> => {
      const before = log.requests().length;
      await run();
      return log.requests().length - before;
    };
    const me = { run_id: 'run-1', ...holder(1) };
    const plan = planFor('run-1');
    await world.approve('run-1', plan, 1);
    const counts = {
      propose: await measure(() => propose(ledger, 'run-1')),
      consume: await measure(() => consumeAs(ledger, 'run-1', plan, 1, 1)),
      claim: await measure(() =>
        claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me }),
      ),
      checkpoint: await measure(() =>
        checkpointStep(ledger, {
          runId: 'run-1',
          stepId: 'step-1',
          epoch: 1,
          holder: me,
          outcome: 'done',
          evidence: { status_code: 200, error_code: null },
        }),
      ),
      release: await measure(() => releaseLease(ledger, { runId: 'run-1', epoch: 1, holder: me })),
      takeover: await measure(() => takeoverRun(ledger, { runId: 'run-1', holder: holder(1, 2) })),
    };
    // The first commit above the root anchors on the root the one read returned as its head; the second
    // reads the root to anchor on it (+1). Consume and takeover prove the two rulesets (+2: each
    // ruleset; the branch's rules come with the one read); the first writer after a consume re-reads
    // its approval comment (+2: the comment by ID and GitHub's edit record of it). Every other writer
    // replays the head from the one read's own answer. A takeover of a lease its owner released at its
    // own epoch reads no holder's liveness: the owner gave it up and is fenced from every further claim.
    expect(counts).toEqual({ propose: 2, consume: 5, claim: 4, checkpoint: 2, release: 2, takeover: 4 });
  });
});
