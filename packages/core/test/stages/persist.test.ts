/**
 * The persist stage in-process: its `inputs` through the real @actions/core reader (every value check:
 * code, input, value, expectation), its `stage` with settings straight in and the dependencies its own
 * `connect` builds (real Octokit and plugins against the emulator on loopback), every outcome and
 * refusal it reports (a crash point injected through its dependencies included), and its `main` through
 * the runner.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WritError, errorCode } from '../../src/errors.js';
import { commitOnBranch } from '../../src/github/commit-on-branch.js';
import { stageIo } from '../../src/io/action-io.js';
import { readRun } from '../../src/ledger/ledger.js';
import { loadPlanFile } from '../../src/plan/load.js';
import type { PlanStep } from '../../src/plan/types.js';
import { consumeApprovalStage } from '../../src/stages/consume-approval.js';
import type { PersistStageSettings } from '../../src/stages/persist.js';
import { readPersistSettings } from '../../src/stages/persist.js';
import { run as runPersist } from '../../src/stages/persist.js';
import { persistStage } from '../../src/stages/persist.js';
import { previewStage } from '../../src/stages/preview.js';
import { LEDGER_TOKEN, OWNER, REPO, REPOSITORY, emulatorClient } from '../ledger/support/emulator.js';
import type { RunnerEnv } from './support/runner-env.js';
import { runnerEnv } from './support/runner-env.js';
import type { StageWorld } from './support/stage-world.js';
import { recordingLogger, stageWorld } from './support/stage-world.js';

let env: RunnerEnv | undefined;
let world: StageWorld | undefined;
afterEach(async () => {
  env?.restore();
  env = undefined;
  await world?.close();
  world = undefined;
});

const base = { owner: OWNER, repo: REPO };
const HOLDER = { workflow_run_id: 77, attempt: 1 };
const BEST_EFFORT = {
  schema: 1,
  kinds: Object.fromEntries(
    [
      'milestone.upsert',
      'milestone.edit',
      'issue.set-milestone',
      'issue.labels',
      'issue.create',
      'comment.upsert',
    ].map((kind) => [kind, 'best-effort']),
  ),
};

/** The coded failure `fn` throws: its code and message. */
function failure(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error: unknown) {
    if (error instanceof WritError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a coded failure');
}

function writePlan(current: StageWorld, name: string, steps: PlanStep[], title = name): string {
  const path = join(current.workspace, `${name}.json`);
  writeFileSync(
    path,
    JSON.stringify({ schema: 1, title, scope: { repository: REPOSITORY }, bounds: { max_steps: 10 }, steps }),
  );
  return path;
}

/** Commits `.writ/policy.json` to the default branch as the owner (a merged pull request). */
async function commitPolicy(current: StageWorld, policy: unknown): Promise<void> {
  const head = (await current.owner.rest.git.getRef({ ...base, ref: 'heads/main' })).data.object.sha;
  const outcome = await commitOnBranch(
    current.owner,
    {
      repository: REPOSITORY,
      branch: 'main',
      expectedHeadOid: head,
      headline: 'Writ policy',
      body: '',
      additions: [{ path: '.writ/policy.json', contents: JSON.stringify(policy) }],
    },
    'artifact',
  );
  if (outcome.kind !== 'committed') throw new Error(`commit to main: ${outcome.kind}`);
}

/** Proposes `planFile` through the preview stage (status comment included) and approves it as a maintainer. */
async function approved(current: StageWorld, planFile: string) {
  const proposed = await previewStage(
    {
      dryRun: false,
      statusIssue: current.statusIssue,
      planFile,
      planRoots: { workspace: current.workspace, runnerTemp: undefined },
      runId: '',
      commandPrefix: 'writ',
      outputDir: current.workspace,
      write: () => ({
        apiUrl: current.ledgerWorld.emulator.url,
        repository: { owner: OWNER, repo: REPO, full: REPOSITORY },
        actorId: undefined,
        ledger: current.ledger,
      }),
    },
    { logger: recordingLogger(), connect: () => Promise.resolve(current.deps()) },
  );
  const commentId = await current.comment(String(proposed.outputs['approve-command']));
  const consumed = await consumeApprovalStage(
    {
      apiUrl: current.ledgerWorld.emulator.url,
      repository: { owner: OWNER, repo: REPO, full: REPOSITORY },
      commentId,
      dryRun: false,
      commandPrefix: 'writ',
      ledger: current.ledger,
      planFile,
      planRoots: { workspace: current.workspace, runnerTemp: undefined },
      allowedRoles: ['admin', 'maintain', 'write'],
      requireDistinctApprover: false,
      holder: HOLDER,
    },
    current.deps(),
  );
  return {
    runId: String(proposed.outputs['run-id']),
    epoch: Number(consumed.outputs.epoch),
    statusCommentId: Number(proposed.outputs['status-comment-id']),
  };
}

function settings(
  current: StageWorld,
  planFile: string,
  runId: string,
  overrides: Partial<PersistStageSettings> = {},
): PersistStageSettings {
  return {
    apiUrl: current.ledgerWorld.emulator.url,
    repository: { owner: OWNER, repo: REPO },
    runId,
    plan: loadPlanFile(planFile),
    epoch: 1,
    persistenceEnabled: true,
    policyPath: '.writ/policy.json',
    evidencePath: '.writ/probe-evidence.json',
    maxSteps: 100,
    timeBudgetMs: 300 * 60_000,
    claimWindow: 1,
    pageCap: 20,
    commandPrefix: 'writ',
    allowedRoles: ['admin', 'maintain', 'write'],
    dryRun: false,
    ledger: current.ledger,
    holder: HOLDER,
    ...overrides,
  };
}

async function labelsOf(current: StageWorld, issue: number): Promise<string[]> {
  const { data } = await current.owner.rest.issues.get({ ...base, issue_number: issue });
  return data.labels.map((label) => (typeof label === 'string' ? label : (label.name ?? ''))).sort();
}

describe('persist inputs', () => {
  const LEDGER = {
    token: 'ghs_persistInputsToken0000000000000000',
    'ledger-app-slug': 'writ',
    'ledger-app-id': '12',
  };

  function validInputs(dir: string): Record<string, string> {
    const plan = join(dir, 'plan.json');
    writeFileSync(
      plan,
      JSON.stringify({
        schema: 1,
        title: 'inputs',
        scope: { repository: REPOSITORY },
        bounds: { max_steps: 1 },
        steps: [{ id: 'labels', kind: 'issue.labels', issue: 1, add: ['x'] }],
      }),
    );
    return { 'run-id': 'run-1', 'plan-file': plan, epoch: '3', ...LEDGER };
  }

  function withInputs(inputs: (dir: string) => Record<string, string>): void {
    env = runnerEnv({});
    const dir = env.dir;
    env.restore();
    env = runnerEnv(inputs(dir), { env: { GITHUB_WORKSPACE: dir, RUNNER_TEMP: dir } });
  }

  it('reads every input with its default: dry run, gate flag off, a 300-minute budget, the auto window', () => {
    withInputs(validInputs);
    const read = readPersistSettings(stageIo('persist'));
    expect(read).toMatchObject({
      apiUrl: 'https://api.github.com',
      repository: { owner: 'acme', repo: 'widgets' },
      runId: 'run-1',
      epoch: 3,
      persistenceEnabled: false,
      policyPath: '.writ/policy.json',
      evidencePath: '.writ/probe-evidence.json',
      maxSteps: 1000,
      timeBudgetMs: 300 * 60_000,
      claimWindow: null,
      pageCap: 20,
      commandPrefix: 'writ',
      allowedRoles: ['admin', 'maintain', 'write'],
      dryRun: true,
      ledger: { branch: 'bot/writ-ledger', app: { slug: 'writ', id: 12 }, leaseMs: 600_000 },
      holder: { workflow_run_id: 4242, attempt: 2 },
    });
    expect(read.repository).toEqual({ owner: 'acme', repo: 'widgets' });
    expect(read.plan.steps.map((step) => step.id)).toEqual(['labels']);
  });

  it('takes every bound at its edges and named files', () => {
    withInputs((dir) => ({
      ...validInputs(dir),
      'persistence-enabled': 'true',
      'dry-run': 'false',
      'max-steps': '1',
      'time-budget-minutes': '340',
      'claim-window': '50',
      'precheck-page-cap': '1',
      'policy-file': 'config/writ.policy.json',
      'evidence-file': 'probe/evidence-1.json',
    }));
    expect(readPersistSettings(stageIo('persist'))).toMatchObject({
      persistenceEnabled: true,
      dryRun: false,
      maxSteps: 1,
      timeBudgetMs: 340 * 60_000,
      claimWindow: 50,
      pageCap: 1,
      policyPath: 'config/writ.policy.json',
      evidencePath: 'probe/evidence-1.json',
    });
  });

  it.each([
    ['run-id', 'a b', 'invalid-run-id', /run-id must be 1-64 characters/],
    ['epoch', '0', 'invalid-input', /^input 'epoch' must be a positive integer \(got "0"\)$/],
    ['epoch', 'one', 'invalid-input', /^input 'epoch' must be a positive integer \(got "one"\)$/],
    ['epoch', '', 'invalid-input', /^input 'epoch' is required and was not supplied$/],
    [
      'persistence-enabled',
      'yes',
      'invalid-input',
      /^input 'persistence-enabled' must be true or false \(got "yes"\)$/,
    ],
    [
      'policy-file',
      '../policy.json',
      'invalid-input',
      /^input 'policy-file' must be a repository-relative file path \(got "\.\.\/policy\.json"\)$/,
    ],
    [
      'policy-file',
      '/etc/passwd',
      'invalid-input',
      /^input 'policy-file' must be a repository-relative file path \(got "\/etc\/passwd"\)$/,
    ],
    [
      'evidence-file',
      '.writ//evidence.json',
      'invalid-input',
      /^input 'evidence-file' must be a repository-relative file path \(got "\.writ\/\/evidence\.json"\)$/,
    ],
    [
      'evidence-file',
      '.writ/',
      'invalid-input',
      /^input 'evidence-file' must be a repository-relative file path \(got "\.writ\/"\)$/,
    ],
    ['max-steps', '0', 'invalid-input', /^input 'max-steps' must be a positive integer \(got "0"\)$/],
    [
      'max-steps',
      '1001',
      'invalid-input',
      /^input 'max-steps' must be an integer from 1 to 1000 \(got 1001\)$/,
    ],
    ...['0', '51', '07', 'AUTO', 'adaptive', '2.5'].map(
      (value) =>
        [
          'claim-window',
          value,
          'invalid-input',
          new RegExp(
            `^input 'claim-window' must be auto or an integer from 1 to 50 \\(got "${value.replace('.', '\\.')}"\\)$`,
          ),
        ] as const,
    ),
    [
      'time-budget-minutes',
      '341',
      'invalid-input',
      /^input 'time-budget-minutes' must be an integer from 1 to 340 \(got 341\)$/,
    ],
    [
      'time-budget-minutes',
      '0',
      'invalid-input',
      /^input 'time-budget-minutes' must be a positive integer \(got "0"\)$/,
    ],
    [
      'time-budget-minutes',
      'auto',
      'invalid-input',
      /^input 'time-budget-minutes' must be a positive integer \(got "auto"\)$/,
    ],
    [
      'precheck-page-cap',
      '101',
      'invalid-input',
      /^input 'precheck-page-cap' must be an integer from 1 to 100 \(got 101\)$/,
    ],
    ['dry-run', 'maybe', 'invalid-input', /^input 'dry-run' must be true or false \(got "maybe"\)$/],
    ['allowed-roles', ',', 'invalid-input', /input 'allowed-roles' names no role/],
    ['ledger-app-id', '', 'invalid-input', /input 'ledger-app-id' is required/],
    ['plan-file', 'missing.json', 'plan-file-not-found', /does not exist or is not a regular file/],
  ])(
    'refuses %s=%j as %s, naming the input, the value and what is expected',
    (name, value, code, message) => {
      withInputs((dir) => ({ ...validInputs(dir), [name]: value }));
      const refused = failure(() => readPersistSettings(stageIo('persist')));
      expect(refused.code).toBe(code);
      expect(refused.message).toMatch(message);
    },
  );
});

describe('persist stage, in-process against the emulator', () => {
  it('keeps the gate closed with the flag off: gate-closed, its reason, no write, no status comment', async () => {
    world = await stageWorld();
    const planFile = writePlan(world, 'closed', [
      { id: 'labels', kind: 'issue.labels', issue: world.statusIssue, add: ['deferred'] },
    ]);
    const { runId } = await approved(world, planFile);
    const seq = world.lastSeq();
    const result = await persistStage(
      settings(world, planFile, runId, { persistenceEnabled: false }),
      world.deps(),
    );
    expect(result.outputs).toMatchObject({
      outcome: 'gate-closed',
      reason: 'live-writes-disabled',
      'steps-done': 0,
      'steps-total': 1,
      'next-step': 'labels',
      created: '{}',
    });
    expect(result.refusal?.code).toBe('live-writes-disabled');
    expect(result.refusal?.details.outcome).toBe('gate-closed');
    expect(result.summary).toContain('## Writ persist: gate-closed (`live-writes-disabled`)');
    expect(result.summary).toContain(
      '| `issue.labels` | require-proof | **closed** | persistence\\-enabled is false |',
    );
    expect(result.summary).not.toContain('Status comment');
    expect(world.writesSince(seq)).toEqual([]);
  });

  it('keeps the gate closed under require-proof without evidence: github-conditional-mutation-not-proven', async () => {
    world = await stageWorld();
    const planFile = writePlan(world, 'unproven', [
      { id: 'labels', kind: 'issue.labels', issue: world.statusIssue, add: ['deferred'] },
    ]);
    const { runId } = await approved(world, planFile);
    const result = await persistStage(settings(world, planFile, runId), world.deps());
    expect(result.outputs).toMatchObject({
      outcome: 'gate-closed',
      reason: 'github-conditional-mutation-not-proven',
    });
    expect(result.summary).toMatch(/no probe evidence is committed/);
  });

  it('a dry run under best-effort lists each write and the residual windows, and writes nothing', async () => {
    world = await stageWorld();
    await commitPolicy(world, BEST_EFFORT);
    const planFile = writePlan(world, 'dry', [
      { id: 'm-25', kind: 'milestone.upsert', key: 'roadmap:v2.5', title: 'v2.5' },
      { id: 'labels', kind: 'issue.labels', issue: world.statusIssue, add: ['deferred'] },
      { id: 'notify', kind: 'external', target: 'release-planner' },
    ]);
    const { runId } = await approved(world, planFile);
    const seq = world.lastSeq();
    const result = await persistStage(settings(world, planFile, runId, { dryRun: true }), world.deps());
    expect(result.outputs).toMatchObject({ outcome: 'dry-run', reason: '', 'steps-done': 0 });
    expect(result.refusal).toBeUndefined();
    expect(result.summary).toContain('(dry run: nothing written)');
    expect(result.summary).toContain(
      '| `m-25` | `milestone.upsert` | planned | `POST /repos/{owner}/{repo}/milestones` |',
    );
    expect(result.summary).toContain('| `notify` | `external` | waiting | — |');
    expect(result.summary).toMatch(/\*\*Best-effort\*\* .*residual windows stay open/);
    expect(result.summary).not.toContain('Status comment');
    expect(world.writesSince(seq)).toEqual([]);
  });

  it('completes a plan: outputs, the steps table with notes, the created map and the status comment moved on', async () => {
    world = await stageWorld();
    await commitPolicy(world, BEST_EFFORT);
    // Two milestones Writ's app created already carry the key: the oldest is the step's, the other is
    // reported (a marker counts only on what Writ's own app created, issue 26).
    const app = emulatorClient(world.ledgerWorld.emulator, LEDGER_TOKEN);
    const body = 'Plugins.\n\n<!-- writ-key: roadmap:v2.5 -->';
    const first = (await app.rest.issues.createMilestone({ ...base, title: 'v2.5', description: body })).data
      .number;
    await app.rest.issues.createMilestone({ ...base, title: 'v2.5 (copy)', description: body });
    const planFile = writePlan(world, 'complete', [
      {
        id: 'm-25',
        kind: 'milestone.upsert',
        key: 'roadmap:v2.5',
        title: 'v2.5',
        description: 'Plugins.',
      },
      { id: 'labels', kind: 'issue.labels', issue: world.statusIssue, add: ['deferred'] },
    ]);
    const { runId, statusCommentId } = await approved(world, planFile);
    const result = await persistStage(settings(world, planFile, runId), world.deps());
    expect(result.outputs).toMatchObject({
      outcome: 'completed',
      reason: '',
      'steps-done': 2,
      'steps-total': 2,
      'next-step': '',
    });
    expect(JSON.parse(String(result.outputs.created))).toEqual({ 'm-25': first });
    // The milestone Writ's app made earlier carries the key: its receipt is `exists` (nothing created).
    expect(JSON.parse(String(result.outputs.receipts))).toEqual([
      {
        step: 'm-25',
        kind: 'milestone.upsert',
        idempotency_key: 'roadmap:v2.5',
        key_scope: 'repository',
        outcome: 'exists',
        resource: first,
      },
    ]);
    expect(result.summary).toContain(
      `| \`m-25\` | \`milestone.upsert\` | roadmap\\:v2\\.5 | repository | exists | #${first} |`,
    );
    expect(result.refusal).toBeUndefined();
    expect(result.summary).toContain('| `m-25` | `milestone.upsert` | done | — | 0 | — | — |');
    expect(result.summary).toMatch(
      /\| `labels` \| `issue\.labels` \| done \| `PATCH [^|]*` \| 1 \| 200 \| — \|/,
    );
    expect(result.summary).toContain('Step `m-25` notes:');
    expect(result.summary).toMatch(/milestone #\d+ also carries the key `roadmap:v2\.5`/);
    expect(result.summary).toContain(`Status comment ${statusCommentId}: updated.`);
    expect(await labelsOf(world, world.statusIssue)).toEqual(['deferred']);
    expect((await readRun(world.ledgerWorld.context(), runId)).run?.state).toBe('completed');
  });

  it('waits at an external step: waiting-external, the step to perform named in outputs and summary', async () => {
    world = await stageWorld();
    await commitPolicy(world, BEST_EFFORT);
    const planFile = writePlan(world, 'external', [
      { id: 'labels', kind: 'issue.labels', issue: world.statusIssue, add: ['deferred'] },
      { id: 'notify', kind: 'external', target: 'release-planner' },
    ]);
    const { runId } = await approved(world, planFile);
    const result = await persistStage(settings(world, planFile, runId), world.deps());
    expect(result.outputs).toMatchObject({
      outcome: 'waiting-external',
      reason: '',
      'steps-done': 1,
      'next-step': 'notify',
    });
    expect(result.summary).toContain(
      'Waiting for the external step `notify`: perform it under claim-checkpoint, then run persist again.',
    );
  });

  it('hands over when its time budget is spent: outcome handover, no refusal, the step left named', async () => {
    world = await stageWorld();
    await commitPolicy(world, BEST_EFFORT);
    const other = (await world.owner.rest.issues.create({ ...base, title: 'other' })).data.number;
    const planFile = writePlan(world, 'handover', [
      { id: 'labels', kind: 'issue.labels', issue: world.statusIssue, add: ['deferred'] },
      { id: 'other', kind: 'issue.labels', issue: other, add: ['deferred'] },
    ]);
    const { runId, statusCommentId } = await approved(world, planFile);
    // A budget of 1 ms: the first window always runs (each invocation makes progress), the next does not.
    const result = await persistStage(
      { ...settings(world, planFile, runId), claimWindow: 1, timeBudgetMs: 1 },
      { ...world.deps(), afterWrite: () => new Promise((resolve) => setTimeout(resolve, 5)) },
    );
    expect(result.outputs).toMatchObject({
      outcome: 'handover',
      reason: '',
      'steps-done': 1,
      'next-step': 'other',
    });
    expect(result.refusal).toBeUndefined();
    expect(result.summary).toContain(
      'Time budget spent after 1 step; handed over to recovery: the workflow releases the lease and dispatches the recovery workflow, which resumes the run from `other` at once.',
    );
    expect(result.summary).toContain("Paced to GitHub's guidance");
    // The status comment says what the ledger says: the run still running, one step done, one left.
    const comment = (await world.owner.rest.issues.getComment({ ...base, comment_id: statusCommentId })).data;
    expect(comment.body).toContain('Running.');
    expect(comment.body).toMatch(/^Steps: 1 done, 1 pending \(of 2\)\.$/m);
  });

  it('stops at a conflict: outcome stopped, the refusal carrying it, the sanitized diff in the summary', async () => {
    world = await stageWorld();
    await commitPolicy(world, BEST_EFFORT);
    await world.owner.rest.issues.addLabels({
      ...base,
      issue_number: world.statusIssue,
      labels: ['<b>x</b>'],
    });
    const planFile = writePlan(world, 'conflict', [
      {
        id: 'labels',
        kind: 'issue.labels',
        issue: world.statusIssue,
        add: ['deferred'],
        expect: { labels: [] },
      },
    ]);
    const { runId } = await approved(world, planFile);
    const seq = world.lastSeq();
    const result = await persistStage(settings(world, planFile, runId), world.deps());
    expect(result.outputs).toMatchObject({ outcome: 'stopped', reason: 'conflict', 'next-step': 'labels' });
    expect(result.refusal?.code).toBe('conflict');
    expect(result.refusal?.details.outcome).toBe('stopped');
    expect(result.summary).toContain('Step `labels`:');
    expect(result.summary).toContain('expected labels none, found “&lt;b&gt;x&lt;/b&gt;”');
    expect(result.summary).not.toContain('<b>x</b>');
    // Only the ledger's claim and checkpoint and the status comment (once for the claim window, showing
    // the step claimed, once for the stop, showing the conflict): no write to the issue.
    expect(world.writesSince(seq).filter((w) => !w.startsWith('POST /graphql'))).toEqual([
      expect.stringMatching(/^PATCH \/repos\/acme\/widgets\/issues\/comments\/\d+$/),
      expect.stringMatching(/^PATCH \/repos\/acme\/widgets\/issues\/comments\/\d+$/),
    ]);
  });

  it('reports a status comment it could not update; the progress stands in the ledger', async () => {
    world = await stageWorld();
    await commitPolicy(world, BEST_EFFORT);
    const planFile = writePlan(world, 'status', [
      { id: 'labels', kind: 'issue.labels', issue: world.statusIssue, add: ['deferred'] },
    ]);
    const { runId } = await approved(world, planFile);
    world.ledgerWorld.emulator.admin.addFault({
      match: { method: 'PATCH', path: '/repos/acme/widgets/issues/comments/*' },
      fault: { type: 'status', status: 422 },
    });
    const result = await persistStage(settings(world, planFile, runId), world.deps());
    expect(result.outputs).toMatchObject({ outcome: 'completed' });
    expect(result.summary).toMatch(
      /Status comment not updated \([a-z-]+\); the run's progress stands in the ledger\./,
    );
  });

  it('refuses a recomputed plan with another digest, and a plan for another repository, with no write', async () => {
    world = await stageWorld();
    await commitPolicy(world, BEST_EFFORT);
    const steps: PlanStep[] = [
      { id: 'labels', kind: 'issue.labels', issue: world.statusIssue, add: ['deferred'] },
    ];
    const planFile = writePlan(world, 'approved', steps);
    const { runId } = await approved(world, planFile);
    const seq = world.lastSeq();
    const other = writePlan(world, 'other', steps, 'another title');
    const refused = await persistStage(settings(world, other, runId), world.deps()).catch((e: unknown) => e);
    expect(errorCode(refused)).toBe('stale-or-mismatched-approval');
    const elsewhere = settings(world, planFile, runId, {
      repository: { owner: 'acme', repo: 'gadgets' },
    });
    const wrongRepository = await persistStage(elsewhere, world.deps()).catch((e: unknown) => e);
    expect(errorCode(wrongRepository)).toBe('invalid-input');
    expect((wrongRepository as Error).message).toMatch(/writes to acme\/widgets, not to this repository/);
    expect(world.writesSince(seq)).toEqual([]);
  });

  it('stops where an injected crash point says: after the claim commit, the step stays claimed, nothing written', async () => {
    world = await stageWorld();
    await commitPolicy(world, BEST_EFFORT);
    const planFile = writePlan(world, 'claim-killed', [
      { id: 'labels', kind: 'issue.labels', issue: world.statusIssue, add: ['deferred'] },
    ]);
    const { runId } = await approved(world, planFile);
    // In-process, the crash is a throw from the hook where a crashed runner would stop.
    const claimed: string[][] = [];
    const crashed = persistStage(settings(world, planFile, runId), {
      ...world.deps(),
      afterClaim: (stepIds) => {
        claimed.push([...stepIds]);
        throw new Error('killed');
      },
    });
    await expect(crashed).rejects.toThrow('killed');
    expect(claimed).toEqual([['labels']]);
    expect((await readRun(world.ledgerWorld.context(), runId)).run?.steps[0]?.status).toBe('claimed');
    expect(await labelsOf(world, world.statusIssue)).toEqual([]);
  });
});

describe('persist main, through the runner', () => {
  function persistEnv(current: StageWorld, inputs: Record<string, string>): RunnerEnv {
    return runnerEnv(
      {
        token: LEDGER_TOKEN,
        'ledger-app-slug': current.ledger.app.slug,
        'ledger-app-id': String(current.ledger.app.id),
        ...inputs,
      },
      {
        env: {
          GITHUB_API_URL: current.ledgerWorld.emulator.url,
          GITHUB_WORKSPACE: current.workspace,
          RUNNER_TEMP: current.workspace,
          GITHUB_RUN_ID: String(HOLDER.workflow_run_id),
          GITHUB_RUN_ATTEMPT: String(HOLDER.attempt),
        },
      },
    );
  }

  it('completes a run: outputs through GITHUB_OUTPUT, the summary, no failure', async () => {
    world = await stageWorld();
    await commitPolicy(world, BEST_EFFORT);
    const planFile = writePlan(world, 'main', [
      { id: 'labels', kind: 'issue.labels', issue: world.statusIssue, add: ['deferred'] },
    ]);
    const { runId, epoch } = await approved(world, planFile);
    env = persistEnv(world, {
      'run-id': runId,
      'plan-file': planFile,
      epoch: String(epoch),
      'persistence-enabled': 'true',
      'dry-run': 'false',
    });
    await runPersist();
    expect(env.outputs()).toMatchObject({
      outcome: 'completed',
      reason: '',
      'steps-done': '1',
      'steps-total': '1',
      'next-step': '',
      created: '{}',
    });
    expect(env.summary()).toContain('## Writ persist: completed');
    expect(process.exitCode).toBeUndefined();
  });

  it('a closed gate fails the step with outcome gate-closed, not refused, and its code in the message', async () => {
    world = await stageWorld();
    const planFile = writePlan(world, 'main-closed', [
      { id: 'labels', kind: 'issue.labels', issue: world.statusIssue, add: ['deferred'] },
    ]);
    const { runId } = await approved(world, planFile);
    env = persistEnv(world, { 'run-id': runId, 'plan-file': planFile, epoch: '1', 'dry-run': 'false' });
    await runPersist();
    expect(env.outputs()).toMatchObject({ outcome: 'gate-closed', reason: 'live-writes-disabled' });
    expect(process.exitCode).toBe(1);
    expect(env.stdout.join('')).toContain('::error::live-writes-disabled: the persistence gate is closed');
  });

  it('a stopped run fails the step with outcome stopped; a fenced epoch is refused', async () => {
    world = await stageWorld();
    await commitPolicy(world, BEST_EFFORT);
    const planFile = writePlan(world, 'main-stopped', [
      {
        id: 'labels',
        kind: 'issue.labels',
        issue: world.statusIssue,
        add: ['deferred'],
        expect: { labels: ['missing'] },
      },
    ]);
    const { runId } = await approved(world, planFile);
    const inputs = {
      'run-id': runId,
      'plan-file': planFile,
      'persistence-enabled': 'true',
      'dry-run': 'false',
    };
    env = persistEnv(world, { ...inputs, epoch: '2' });
    await runPersist();
    expect(env.outputs()).toMatchObject({ outcome: 'refused', reason: 'fenced' });
    env.restore();
    env = persistEnv(world, { ...inputs, epoch: '1' });
    await runPersist();
    expect(env.outputs()).toMatchObject({ outcome: 'stopped', reason: 'conflict' });
    expect(process.exitCode).toBe(1);
  });

  it('a bad input fails the step as refused with its code, before any request', async () => {
    world = await stageWorld();
    const seq = world.lastSeq();
    env = persistEnv(world, { 'run-id': 'run-1', 'plan-file': 'plan.json', epoch: 'x' });
    await runPersist();
    expect(env.outputs()).toEqual({ outcome: 'refused', reason: 'invalid-input' });
    expect(process.exitCode).toBe(1);
    expect(world.lastSeq()).toBe(seq);
  });
});
