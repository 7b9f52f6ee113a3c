/**
 * A repository on the emulator with runs in every state a crashed job leaves, for the recovery core
 * run in-process with the real Octokit. The sweeper's token is the Writ app's with `actions: read`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { consumeApprovalComment } from '../../src/approval/consume-approval.js';
import type { GitHubClient } from '../../src/github/client.js';
import type { LedgerContext } from '../../src/ledger/cas.js';
import { claimStep, createLedgerContext, readRun } from '../../src/ledger/ledger.js';
import type { Holder, RunFile } from '../../src/ledger/types.js';
import type { Observation, StepObserver } from '../../src/persist/observation.js';
import { bindPlan } from '../../src/plan/binding.js';
import { loadPlanFile } from '../../src/plan/load.js';
import { deriveRunId } from '../../src/plan/run-id.js';
import { proposeAndPublishStatus } from '../../src/preview/propose.js';
import { renderPreview } from '../../src/preview/render.js';
import type { RecoveryReport, RecoverySettings } from '../../src/recovery/recover.js';
import { recoverRuns } from '../../src/recovery/recover.js';
import { silentLogger } from '../../src/redact.js';
import type { SliceWorld } from '../../../../test/support/world.js';
import {
  APP_SLUG,
  OWNER,
  PEOPLE,
  REPO,
  REPOSITORY,
  client,
  patOf,
  planVariant,
} from '../../../../test/support/world.js';

export const SWEEPER_TOKEN = 'ghs_WritRecoverySweeperToken000000001';
export const NO_ACTIONS_TOKEN = 'ghs_WritRecoveryNoActionsToken0000001';

/** Mints the sweeper's tokens (the Writ app's, with and without `actions: read`). */
export function mintSweeperTokens(world: SliceWorld): void {
  const permissions = {
    contents: 'write',
    issues: 'write',
    pull_requests: 'write',
    administration: 'write',
  } as const;
  world.emulator.admin.createToken({
    token: SWEEPER_TOKEN,
    kind: 'installation',
    app: APP_SLUG,
    permissions: { ...permissions, actions: 'read' },
  });
  world.emulator.admin.createToken({
    token: NO_ACTIONS_TOKEN,
    kind: 'installation',
    app: APP_SLUG,
    permissions,
  });
}

let seeds = 100;

export function sweeperLedger(
  world: SliceWorld,
  token = SWEEPER_TOKEN,
): { github: GitHubClient; ledger: LedgerContext } {
  const github = client(world.emulator, token);
  const ledger = createLedgerContext(
    { github },
    { repository: REPOSITORY, app: { slug: APP_SLUG, id: world.appId }, seed: (seeds += 1) },
  );
  return { github, ledger };
}

/**
 * A step observer for unit tests only: a TEST DOUBLE that answers what the test scripted for each step
 * ID (default `unknown`), standing in for persist/observe.ts. The stage never runs with it.
 */
export function scriptedObserverTestDouble(
  script: Record<string, Observation>,
): StepObserver & { asked: string[] } {
  const asked: string[] = [];
  const observer = (step: { id: string }): Promise<Observation> => {
    asked.push(step.id);
    return Promise.resolve(script[step.id] ?? { state: 'unknown', reason: 'not-scripted' });
  };
  return Object.assign(observer as StepObserver, { asked });
}

let sweeps = 7000;

export function sweepSettings(overrides: Partial<RecoverySettings> = {}): RecoverySettings {
  return {
    repository: { owner: OWNER, repo: REPO },
    serverUrl: 'https://github.com',
    holder: { workflow_run_id: (sweeps += 1), attempt: 1 },
    commandPrefix: 'writ',
    allowedRoles: ['admin', 'maintain', 'write'],
    requireDistinctApprover: false,
    appBotLogin: `${APP_SLUG}[bot]`,
    planFile: null,
    dryRun: false,
    ...overrides,
  };
}

/** An observer that can see nothing (every claimed step `unknown`, reason `observer-unavailable`). */
export const blindObserver: StepObserver = () =>
  Promise.resolve({ state: 'unknown', reason: 'observer-unavailable' });

export function sweep(
  world: SliceWorld,
  settings: Partial<RecoverySettings> = {},
  observe: StepObserver = blindObserver,
  token = SWEEPER_TOKEN,
): Promise<RecoveryReport> {
  const { github, ledger } = sweeperLedger(world, token);
  return recoverRuns({ github, ledger, logger: silentLogger, observe }, sweepSettings(settings));
}

/** A fresh plan file (another title: another digest and run ID) from a fixture. */
export function freshPlan(dir: string, name: string, fixture = 'examples/roadmap-plan.json'): string {
  return planVariant(dir, name, fixture, `Recovery ${name}`);
}

/** Proposes the plan in-process as preview does, with its status comment on a new issue. */
export async function proposeWithStatus(
  world: SliceWorld,
  planFile: string,
): Promise<{ runId: string; digest: string; issue: number; command: string }> {
  const plan = loadPlanFile(planFile);
  const binding = bindPlan(plan);
  const runId = deriveRunId(binding.digest);
  const { data: issue } = await client(world.emulator, patOf(PEOPLE.admin)).rest.issues.create({
    owner: OWNER,
    repo: REPO,
    title: `status of ${runId}`,
  });
  const { github, ledger } = sweeperLedger(world);
  await proposeAndPublishStatus(
    { github, ledger, ownLogin: `${APP_SLUG}[bot]`, logger: silentLogger },
    { repository: { owner: OWNER, repo: REPO, full: REPOSITORY }, actorId: world.ids[PEOPLE.admin] },
    {
      statusIssue: issue.number,
      plan,
      runId,
      markdown: renderPreview({ plan, planDigest: binding.digest, runId, commandPrefix: 'writ' }),
    },
  );
  return {
    runId,
    digest: binding.digest,
    issue: issue.number,
    command: `writ: approve ${runId} ${binding.digest.slice(7)}`,
  };
}

/** Proposes and approves (a writer's comment consumed by a holder whose workflow run is `holder`). */
export async function approvedRun(
  world: SliceWorld,
  planFile: string,
  holder: Omit<Holder, 'run_id'>,
): Promise<{ runId: string; issue: number; epoch: number }> {
  const proposed = await proposeWithStatus(world, planFile);
  const event = await world.comment({ login: PEOPLE.write }, proposed.command, proposed.issue);
  const { github, ledger } = sweeperLedger(world);
  const consumed = await consumeApprovalComment(
    { github, ledger, logger: silentLogger },
    {
      repository: { owner: OWNER, repo: REPO },
      commentId: (event.comment as { id: number }).id,
      commandPrefix: 'writ',
      allowedRoles: ['admin', 'maintain', 'write'],
      appBotLogin: `${APP_SLUG}[bot]`,
      planFile,
      holder,
      requireDistinctApprover: false,
    },
  );
  return { runId: proposed.runId, issue: proposed.issue, epoch: consumed.epoch };
}

/** Claims the next `count` steps in order (checkpointing none: a holder that died mid-step). */
export async function claimFirst(
  world: SliceWorld,
  runId: string,
  holder: Holder,
  epoch: number,
): Promise<void> {
  const { ledger } = sweeperLedger(world);
  const run = (await readRun(ledger, runId)).run as RunFile;
  const next = run.steps.find((step) => step.status === 'pending');
  if (next === undefined) throw new Error('no pending step');
  await claimStep(ledger, { runId, stepId: next.id, epoch, holder });
}

/** Past the default lease (10 min) and its grace (60 s), on the emulator's clock. */
export function expireLeases(world: SliceWorld): void {
  world.emulator.admin.clock({ advance_ms: 12 * 60_000 });
}

export function writePlan(dir: string, name: string, plan: unknown): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(plan));
  return path;
}
