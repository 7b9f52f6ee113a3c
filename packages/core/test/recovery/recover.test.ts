/**
 * The recovery sweep, in-process against the emulator with the real Octokit: holder liveness, takeover
 * (and its races), every reconciliation branch, lost approvals, status comment repair and dry runs.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { readRun, readVerifiedRun } from '../../src/ledger/ledger.js';
import { observeStep } from '../../src/persist/observe.js';
import { assessStep } from '../../src/persist/steps.js';
import type { WritableStep } from '../../src/persist/steps.js';
import type { RunFile } from '../../src/ledger/types.js';
import type { RecoveryReport, RunRecovery } from '../../src/recovery/recover.js';
import type { SliceWorld } from '../../../../test/support/world.js';
import { APP_SLUG, OWNER, PEOPLE, REPO, client, patOf, sliceWorld } from '../../../../test/support/world.js';
import {
  NO_ACTIONS_TOKEN,
  approvedRun,
  claimFirst,
  expireLeases,
  freshPlan,
  mintSweeperTokens,
  writePlan,
  proposeWithStatus,
  scriptedObserverTestDouble,
  sweep,
  sweeperLedger,
} from './support.js';

let world: SliceWorld;
const dir = mkdtempSync(join(tmpdir(), 'writ-recover-'));
const HOLDER = { workflow_run_id: 4242, attempt: 1 };
let plans = 0;

beforeEach(async () => {
  world = await sliceWorld({ seed: 21 });
  mintSweeperTokens(world);
});

afterEach(async () => {
  await world.close();
});

function entry(report: RecoveryReport, runId: string): RunRecovery {
  const found = report.runs.find((run) => run.runId === runId);
  if (found === undefined) throw new Error(`run ${runId} was not scanned`);
  return found;
}

async function runFile(runId: string): Promise<RunFile> {
  return (await readRun(sweeperLedger(world).ledger, runId)).run as RunFile;
}

function plan(fixture = 'examples/roadmap-plan.json'): string {
  plans += 1;
  return freshPlan(dir, `plan-${plans}`, fixture);
}

async function comments(issue: number): Promise<{ id: number; body?: string }[]> {
  const { data } = await client(world.emulator, patOf(PEOPLE.admin)).rest.issues.listComments({
    owner: OWNER,
    repo: REPO,
    issue_number: issue,
    per_page: 100,
  });
  return data;
}

describe('holder liveness', () => {
  it('leaves a run alone while its holder is in progress, whatever the lease says', async () => {
    const { runId } = await approvedRun(world, plan(), HOLDER);
    world.emulator.admin.setRun(OWNER, REPO, { id: HOLDER.workflow_run_id, status: 'in_progress' });
    expireLeases(world);
    const report = await sweep(world);
    expect(entry(report, runId)).toMatchObject({ action: 'left-alone', reason: 'holder-in-progress' });
    expect(report.takenOver).toBe(0);
    expect((await runFile(runId)).owner?.epoch).toBe(1);
  });

  it.each([
    ['completed', { status: 'completed', conclusion: 'success' }],
    ['cancelled', { status: 'completed', conclusion: 'cancelled' }],
  ])(
    'takes over an expired run whose holder %s at epoch + 1, never re-consuming the approval',
    async (_name, state) => {
      const { runId } = await approvedRun(world, plan(), HOLDER);
      world.emulator.admin.setRun(OWNER, REPO, { id: HOLDER.workflow_run_id, ...state });
      expireLeases(world);
      const before = await runFile(runId);
      const report = await sweep(world);
      expect(entry(report, runId)).toMatchObject({ action: 'taken-over', reason: 'resumable' });
      const after = await runFile(runId);
      expect(after.owner?.epoch).toBe(2);
      expect(after.approval).toEqual(before.approval);
      expect(report.resumable).toEqual([{ run_id: runId, epoch: 2 }]);
    },
  );

  it('takes over an expired run whose holder workflow run GitHub does not know (404)', async () => {
    const { runId } = await approvedRun(world, plan(), HOLDER);
    expireLeases(world);
    const report = await sweep(world);
    expect(entry(report, runId).action).toBe('taken-over');
  });

  it('leaves a finished holder alone while its lease plus grace has not expired on the server clock', async () => {
    const { runId } = await approvedRun(world, plan(), HOLDER);
    world.emulator.admin.setRun(OWNER, REPO, {
      id: HOLDER.workflow_run_id,
      status: 'completed',
      conclusion: 'failure',
    });
    world.emulator.admin.clock({ advance_ms: 10 * 60_000 + 30_000 }); // expired, but inside the 60 s grace
    const report = await sweep(world);
    expect(entry(report, runId)).toMatchObject({ action: 'left-alone', reason: 'lease-unexpired' });
  });

  it('leaves the run alone when the token cannot read Actions (403 is not "finished")', async () => {
    const { runId } = await approvedRun(world, plan(), HOLDER);
    expireLeases(world);
    const report = await sweep(world, {}, undefined, NO_ACTIONS_TOKEN);
    expect(entry(report, runId)).toMatchObject({ action: 'left-alone', reason: 'liveness-forbidden' });
  });
});

describe('takeover races', () => {
  it('lets exactly one of four concurrent sweepers take the run over', async () => {
    const { runId } = await approvedRun(world, plan(), HOLDER);
    expireLeases(world);
    const reports = await Promise.all([0, 1, 2, 3].map(() => sweep(world)));
    const actions = reports.map((report) => entry(report, runId).action);
    expect(actions.filter((action) => action === 'taken-over')).toHaveLength(1);
    expect(
      actions.filter((action) => action !== 'taken-over').every((a) => a === 'waiting' || a === 'left-alone'),
    ).toBe(true);
    expect((await runFile(runId)).owner?.epoch).toBe(2);
  });
});

describe('reconciling claimed steps', () => {
  async function crashedMidStep(fixture?: string): Promise<{ runId: string; planFile: string }> {
    const planFile = plan(fixture);
    const { runId, epoch } = await approvedRun(world, planFile, HOLDER);
    await claimFirst(world, runId, { run_id: runId, ...HOLDER }, epoch);
    expireLeases(world);
    return { runId, planFile };
  }

  it('marks a step done with its resources when its desired state is observed', async () => {
    const { runId, planFile } = await crashedMidStep();
    const observer = scriptedObserverTestDouble({ 'milestone-v2-4': { state: 'desired', resources: [12] } });
    const report = await sweep(world, { planFile }, observer);
    expect(observer.asked).toEqual(['milestone-v2-4']);
    expect(entry(report, runId)).toMatchObject({ action: 'taken-over', reconciled: 1, reason: 'resumable' });
    expect((await runFile(runId)).steps[0]).toMatchObject({ status: 'done', resources: [12] });
    expect(report.reconciled).toBe(1);
  });

  it('puts a step back to pending when its pre-state is observed unchanged', async () => {
    const { runId, planFile } = await crashedMidStep();
    const report = await sweep(
      world,
      { planFile },
      scriptedObserverTestDouble({ 'milestone-v2-4': { state: 'pre-state' } }),
    );
    expect((await runFile(runId)).steps[0]).toMatchObject({ status: 'pending', epoch: null });
    expect(report.resumable.map((run) => run.run_id)).toEqual([runId]);
  });

  it('stops an ambiguous step at needs-reconciliation with the observer’s reason', async () => {
    const { runId, planFile } = await crashedMidStep();
    const report = await sweep(
      world,
      { planFile },
      scriptedObserverTestDouble({ 'milestone-v2-4': { state: 'unknown', reason: 'precheck-inconclusive' } }),
    );
    expect(entry(report, runId)).toMatchObject({
      after: 'needs-reconciliation',
      needsReconciliation: [{ stepId: 'milestone-v2-4', reason: 'precheck-inconclusive' }],
    });
    expect(report.needsReconciliation).toBe(1);
    expect(report.resumable).toEqual([]);
  });

  it('stops an external step at needs-reconciliation without asking the observer', async () => {
    const { runId, planFile } = await crashedMidStep('examples/release-plan.json');
    const observer = scriptedObserverTestDouble({});
    const report = await sweep(world, { planFile }, observer);
    expect(observer.asked).toEqual([]);
    expect(entry(report, runId).needsReconciliation).toEqual([
      { stepId: 'build-artifacts', reason: 'external-step' },
    ]);
  });

  it('stops every claimed step at needs-reconciliation while no observer is wired (observer-unavailable)', async () => {
    const { runId, planFile } = await crashedMidStep();
    const report = await sweep(world, { planFile });
    expect(entry(report, runId).needsReconciliation).toEqual([
      { stepId: 'milestone-v2-4', reason: 'observer-unavailable' },
    ]);
    expect((await runFile(runId)).steps[0]?.evidence?.error_code).toBe('observer-unavailable');
  });

  it('stops a claimed step at needs-reconciliation when the plan recomputed now is another (plan-unavailable)', async () => {
    const { runId } = await crashedMidStep();
    const observer = scriptedObserverTestDouble({ 'milestone-v2-4': { state: 'desired', resources: [1] } });
    const report = await sweep(world, { planFile: plan() }, observer);
    expect(observer.asked).toEqual([]);
    expect(entry(report, runId).needsReconciliation).toEqual([
      { stepId: 'milestone-v2-4', reason: 'plan-unavailable' },
    ]);
  });

  it('settles a stopped run on a later sweep once the outcome is observable', async () => {
    const { runId, planFile } = await crashedMidStep();
    await sweep(world, { planFile });
    expect((await runFile(runId)).state).toBe('needs-reconciliation');
    const report = await sweep(
      world,
      { planFile },
      scriptedObserverTestDouble({ 'milestone-v2-4': { state: 'desired', resources: [5] } }),
    );
    expect(entry(report, runId)).toMatchObject({
      before: 'needs-reconciliation',
      action: 'taken-over',
      after: 'running',
    });
    expect((await runFile(runId)).owner?.epoch).toBe(3);
  });

  it('completes a run whose every step has an outcome but whose holder died before completing it (persist checkpoints with completeRun: false and finishes last)', async () => {
    const planFile = plan('examples/release-plan.json');
    const { runId, epoch } = await approvedRun(world, planFile, HOLDER);
    const { ledger } = sweeperLedger(world);
    const { checkpointStep, claimStep } = await import('../../src/ledger/ledger.js');
    const holder = { run_id: runId, ...HOLDER };
    for (const stepId of ['build-artifacts', 'notify-packagers']) {
      await claimStep(ledger, { runId, stepId, epoch, holder });
      await checkpointStep(ledger, {
        runId,
        stepId,
        epoch,
        holder,
        outcome: 'done',
        evidence: { status_code: 200, error_code: null },
        completeRun: false,
      });
    }
    expireLeases(world);
    const report = await sweep(world, { planFile });
    expect(entry(report, runId)).toMatchObject({ action: 'taken-over-and-completed', after: 'completed' });
    expect(report.scanned).toBe(1);
    expect((await sweep(world)).scanned).toBe(0);
  });
});

describe('reconciling claimed steps with persist’s own observer (no test double)', () => {
  const STEP: WritableStep = {
    id: 'milestone-v9',
    kind: 'milestone.upsert',
    summary: 'A v9 milestone',
    key: 'recovery:v9',
    title: 'v9',
    description: 'Everything for v9.',
    state: 'open',
    expect: { exists: false },
  };
  let made = 0;

  /** A one-step plan whose milestone does not exist yet, approved and claimed by a holder that died. */
  async function crashedMilestone(): Promise<{ runId: string; planFile: string }> {
    const base = JSON.parse(readFileSync('examples/roadmap-plan.json', 'utf8')) as Record<string, unknown>;
    made += 1;
    const planFile = writePlan(dir, `milestone-${made}`, {
      ...base,
      title: `Recovery with the real observer ${made}`,
      steps: [STEP],
    });
    const { runId, epoch } = await approvedRun(world, planFile, HOLDER);
    await claimFirst(world, runId, { run_id: runId, ...HOLDER }, epoch);
    return { runId, planFile };
  }

  function realObserver() {
    const { github } = sweeperLedger(world);
    return observeStep({ github, ownLogin: `${APP_SLUG}[bot]` });
  }

  async function milestones(): Promise<{ number: number; title: string }[]> {
    const { data } = await client(world.emulator, patOf(PEOPLE.admin)).rest.issues.listMilestones({
      owner: OWNER,
      repo: REPO,
      state: 'all',
    });
    return data;
  }

  it('marks the step done with the milestone persist created before it died', async () => {
    const { runId, planFile } = await crashedMilestone();
    // The holder's write landed (persist's own write for the step), then the job died before its checkpoint.
    const { github } = sweeperLedger(world);
    const assessment = await assessStep(
      github,
      {
        owner: OWNER,
        repo: REPO,
        ownLogin: `${APP_SLUG}[bot]`,
        pageCap: 20,
        createdAfter: null,
        milestoneKeys: new Map(),
        precheck: true,
        runId,
      },
      STEP,
    );
    const written = await assessment.write?.send();
    expireLeases(world);
    const report = await sweep(world, { planFile }, realObserver());
    expect(entry(report, runId)).toMatchObject({ action: 'taken-over-and-completed', reconciled: 1 });
    expect((await runFile(runId)).steps[0]).toMatchObject({ status: 'done', resources: [written?.resource] });
    expect(await milestones()).toHaveLength(1);
  });

  it('puts the step back to pending when GitHub shows nothing was written', async () => {
    const { runId, planFile } = await crashedMilestone();
    expireLeases(world);
    const report = await sweep(world, { planFile }, realObserver());
    expect((await runFile(runId)).steps[0]).toMatchObject({ status: 'pending', epoch: null });
    expect(report.resumable.map((run) => run.run_id)).toEqual([runId]);
    expect(await milestones()).toEqual([]);
  });

  it('stops the run for a human when someone else made a milestone with the title but not the key', async () => {
    const { runId, planFile } = await crashedMilestone();
    await client(world.emulator, patOf(PEOPLE.admin)).rest.issues.createMilestone({
      owner: OWNER,
      repo: REPO,
      title: 'v9',
    });
    expireLeases(world);
    const report = await sweep(world, { planFile }, realObserver());
    expect(entry(report, runId)).toMatchObject({
      after: 'needs-reconciliation',
      needsReconciliation: [{ stepId: 'milestone-v9', reason: 'conflict' }],
    });
    expect(report.resumable).toEqual([]);
  });

  it('stops the run for a human when a milestone carries the key but not the desired state', async () => {
    const { runId, planFile } = await crashedMilestone();
    // A milestone.upsert is idempotent: only the desired state itself counts as done, whoever made it.
    await client(world.emulator, patOf(PEOPLE.admin)).rest.issues.createMilestone({
      owner: OWNER,
      repo: REPO,
      title: 'v9',
      description: 'Something else.\n\n<!-- writ-key: recovery:v9 -->',
    });
    expireLeases(world);
    const report = await sweep(world, { planFile }, realObserver());
    expect(entry(report, runId)).toMatchObject({
      reconciled: 0,
      needsReconciliation: [{ stepId: 'milestone-v9', reason: 'conflict' }],
    });
    expect((await runFile(runId)).steps[0]?.status).toBe('claimed');
  });
});

describe('lost approvals', () => {
  it('consumes an exact approve command whose workflow run never consumed it', async () => {
    const planFile = plan();
    const { runId, issue, command } = await proposeWithStatus(world, planFile);
    const posted = await world.comment({ login: PEOPLE.write }, command, issue);
    const report = await sweep(world, { planFile });
    expect(entry(report, runId)).toMatchObject({ action: 'approval-recovered', after: 'approved' });
    expect(report.approvalsRecovered).toBe(1);
    // Acknowledged like a consumed command: Writ's `rocket` on the comment (command/reactions.ts).
    const { data: reactions } = await client(
      world.emulator,
      patOf(PEOPLE.write),
    ).rest.reactions.listForIssueComment({
      owner: OWNER,
      repo: REPO,
      comment_id: (posted.comment as { id: number }).id,
    });
    expect(reactions.map((entry) => `${entry.user?.type ?? ''} ${entry.content}`)).toEqual(['Bot rocket']);
    const run = await runFile(runId);
    expect(run.approval?.actor_login).toBe(PEOPLE.write);
    expect(report.resumable).toEqual([{ run_id: runId, epoch: run.owner?.epoch }]);
    // Consumed once: the next sweep finds the run approved and its lease held by the first sweep.
    expect(entry(await sweep(world, { planFile }), runId).action).not.toBe('approval-recovered');
  });

  it('never consumes a lost command that fails a rule: a reader, the app, an edited comment', async () => {
    const planFile = plan();
    const { runId, issue, command } = await proposeWithStatus(world, planFile);
    await world.comment({ login: PEOPLE.read }, command, issue);
    await world.comment({ login: PEOPLE.triage }, command, issue);
    await world.comment({ app: 'helpful-bot' }, command, issue);
    const edited = await world.comment({ login: PEOPLE.maintain }, command, issue);
    world.emulator.admin.clock({ advance_ms: 5_000 });
    await client(world.emulator, patOf(PEOPLE.maintain)).rest.issues.updateComment({
      owner: OWNER,
      repo: REPO,
      comment_id: (edited.comment as { id: number }).id,
      body: command,
    });
    const report = await sweep(world, { planFile });
    expect(entry(report, runId)).toMatchObject({ action: 'approval-refused', after: 'proposed' });
    expect((await runFile(runId)).approval).toBeNull();
    expect(report.approvalsRecovered).toBe(0);
  });

  it('reports an approval whose plan does not match on the status comment and consumes nothing', async () => {
    const planFile = plan();
    const { runId, issue, command } = await proposeWithStatus(world, planFile);
    const posted = await world.comment({ login: PEOPLE.write }, command, issue);
    const report = await sweep(world, { planFile: plan() });
    expect(entry(report, runId)).toMatchObject({
      action: 'approval-refused',
      reason: 'stale-or-mismatched-approval',
      status: 'updated',
    });
    expect((await runFile(runId)).approval).toBeNull();
    const status = (await comments(issue)).find((comment) => comment.body?.includes('writ-status'));
    expect(status?.body).toContain(
      `the approve command in comment ${(posted.comment as { id: number }).id} does not match the plan recomputed now`,
    );
    // The preview the comment keeps is the one Writ wrote for the run's own plan.
    expect(status?.body).toContain(command);
  });

  it('does nothing in a dry run', async () => {
    const planFile = plan();
    const { runId, issue, command } = await proposeWithStatus(world, planFile);
    await world.comment({ login: PEOPLE.write }, command, issue);
    const head = await world.head();
    const report = await sweep(world, { planFile, dryRun: true });
    expect(entry(report, runId).action).toBe('approval-recovered');
    expect(report.resumable).toEqual([]);
    expect(await world.head()).toBe(head);
  });
});

describe('status comment repair', () => {
  it('re-posts a deleted status comment, once', async () => {
    const planFile = plan();
    const { runId, issue } = await proposeWithStatus(world, planFile);
    const [original] = await comments(issue);
    await client(world.emulator, patOf(PEOPLE.admin)).rest.issues.deleteComment({
      owner: OWNER,
      repo: REPO,
      comment_id: original!.id,
    });
    const report = await sweep(world, { planFile });
    expect(entry(report, runId).status).toBe('repaired');
    expect(report.repaired).toBe(1);
    const after = await comments(issue);
    expect(after).toHaveLength(1);
    expect(after[0]?.body).toContain(`<!-- writ-status run=${runId} -->`);
    expect(after[0]?.body).toContain('/blob/');
    const again = await sweep(world, { planFile });
    expect(entry(again, runId).status).toBe('unchanged');
    expect(await comments(issue)).toHaveLength(1);
  });

  it('restores a hand-edited status comment', async () => {
    const planFile = plan();
    const { runId, issue } = await proposeWithStatus(world, planFile);
    await sweep(world, { planFile });
    const [status] = await comments(issue);
    world.emulator.admin.clock({ advance_ms: 2_000 });
    await client(world.emulator, patOf(PEOPLE.admin)).rest.issues.updateComment({
      owner: OWNER,
      repo: REPO,
      comment_id: status!.id,
      body: 'hand edited',
    });
    const report = await sweep(world, { planFile });
    expect(entry(report, runId).status).toBe('repaired');
    const [restored] = await comments(issue);
    expect(restored?.id).toBe(status!.id);
    expect(restored?.body).toBe(status?.body);
  });
});

describe('a ledger the full replay refuses', () => {
  it('is frozen by the sweep, which says so on the open runs’ status comments (once) and sweeps nothing', async () => {
    const planFile = plan();
    const { runId, issue } = await proposeWithStatus(world, planFile);
    // The app token misused: a commit no legal transition writes (a file outside any transition).
    const { ledger } = sweeperLedger(world);
    const head = (await ledger.store.read({ paths: [], historyFirst: 0 }))!.headOid;
    const forged = await ledger.store.commit({
      expectedHeadOid: head,
      headline: `writ ledger: status ${runId} (epoch 0)`,
      body: [
        'Writ-Transition: status',
        `Writ-Run: ${runId}`,
        `Writ-Repository: ${OWNER}/${REPO}`,
        'Writ-Epoch: 0',
        `Writ-Transition-Id: ${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}.1`,
      ].join('\n'),
      additions: [{ path: 'notes.txt', contents: 'forged\n' }],
    });
    if (forged.kind !== 'committed') throw new Error('the forged commit did not land');
    const report = await sweep(world, { planFile });
    if (report.ledger.proven) throw new Error('expected a freeze');
    expect(report.ledger.freeze.action).toBe('frozen');
    expect(report.ledger.freeze.freeze.commit).toBe(forged.oid);
    expect(report.ledger.announced).toBe(1);
    expect(report.scanned).toBe(0);
    const [status] = await comments(issue);
    expect(status?.body?.startsWith('> **Writ ledger frozen.**')).toBe(true);
    expect(status?.body).toContain(forged.oid);
    expect(status?.body).toContain(`<!-- writ-status run=${runId} -->`);
    // Every proven gate refuses now, naming the forged commit.
    const error = await readVerifiedRun(ledger, runId).then(
      () => null,
      (failure: unknown) => failure as { code?: string; message?: string },
    );
    expect(error?.code).toBe('ledger-frozen');
    expect(error?.message).toContain(forged.oid);
    // The next sweep finds it frozen and does not repeat the notice.
    const again = await sweep(world, { planFile });
    if (again.ledger.proven) throw new Error('expected a freeze');
    expect(again.ledger.freeze.action).toBe('already-frozen');
    const [after] = await comments(issue);
    expect(after?.body).toBe(status?.body);
  });
});
