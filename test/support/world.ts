/**
 * A repository on the GitHub emulator, set up the way a Writ user sets up theirs: a Writ GitHub App
 * with an installation token, human collaborators in every role, the two ledger rulesets (no deletion
 * or force-push, with no bypass actor; updates only by the app) and a bootstrapped ledger. Stages run as
 * child processes through `writ run`'s engine with GITHUB_API_URL pointing at the emulator.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { consumeApprovalComment } from '@writ/core/approval/consume-approval.js';
import type { ConsumedApproval } from '@writ/core/approval/consume-approval.js';
import { bootstrapLedger } from '@writ/core/ledger/bootstrap.js';
import { proposeRun, readRun } from '@writ/core/ledger/ledger.js';
import { bindPlan } from '@writ/core/plan/binding.js';
import { silentLogger } from '@writ/core/redact.js';
import { loadPlanFile } from '@writ/core/plan/load.js';
import { deriveRunId } from '@writ/core/plan/run-id.js';
import type { LedgerContext } from '@writ/core/ledger/cas.js';
import type { RunFile } from '@writ/core/ledger/types.js';
import type { Emulator, EmulatorOptions } from '@writ/github-emulator/index.js';
import type { DemoWorldSpec } from '../../packages/cli/demo/world.js';
import {
  DEMO_ACTIONS_TOKEN,
  OWNER,
  REPO,
  REPOSITORY,
  emulatorClient,
  patOf,
  startDemoWorld,
} from '../../packages/cli/demo/world.js';
import { REPO_ROOT, runStage } from '../../packages/cli/src/run-stage.js';
import type { RunStageOptions, StageRun } from '../../packages/cli/src/run-stage.js';
import { TEST_RUNNER_TEMP } from './run-action.js';

export { OWNER, REPO, REPOSITORY, patOf };
export const APP_SLUG = 'writ';
export const APP_TOKEN = 'ghs_WritAppInstallationToken0000000001';
export const PEOPLE = {
  admin: 'ada',
  maintain: 'max',
  write: 'wren',
  triage: 'tria',
  read: 'reid',
  none: 'nora',
} as const;
export const OTHER_APP = 'helpful-bot';

/** Writ's real client against the emulator, with test timings. */
export const client = emulatorClient;

export interface SliceWorld {
  emulator: Emulator;
  appId: number;
  statusIssue: number;
  ledger: LedgerContext;
  ids: Record<string, number>;
  /** Environment for stages: the emulator, the repository, a workflow run identity. */
  env(extra?: Record<string, string>): Record<string, string>;
  ledgerInputs(): Record<string, string>;
  /** Posts a comment as `login` (a PAT) or as an app (an installation token) and returns the webhook payload GitHub would deliver. */
  comment(
    author: { login: string } | { app: string },
    body: string,
    issue?: number,
  ): Promise<Record<string, unknown>>;
  run(
    stage: string,
    inputs: Record<string, string>,
    options?: {
      event?: unknown;
      eventName?: string;
      env?: Record<string, string>;
      timeoutMs?: number;
      onSpawn?: RunStageOptions['onSpawn'];
    },
  ): Promise<StageRun>;
  runFile(runId: string): Promise<RunFile | null>;
  head(): Promise<string>;
  close(): Promise<void>;
}

let runCounter = 1000;

/** The stages that take an `actions-token` (they may move the lease away from another holder). */
const LIVENESS_STAGES: ReadonlySet<string> = new Set(['consume-approval', 'claim-checkpoint', 'recovery']);

export async function sliceWorld(
  options: { seed?: number; onRequest?: EmulatorOptions['onRequest'] } = {},
): Promise<SliceWorld> {
  const { emulator, app, ids, ledger } = await startDemoWorld({
    seed: options.seed ?? 1,
    ...(options.onRequest === undefined ? {} : { onRequest: options.onRequest }),
    app: { slug: APP_SLUG, token: APP_TOKEN },
    people: Object.fromEntries(
      Object.entries(PEOPLE).map(([role, login]) => [
        login,
        role === 'none' ? null : (role as DemoWorldSpec['people'][string]),
      ]),
    ),
    organization: true,
    ledgerSeed: 3,
  });
  const { admin } = emulator;
  const other = admin.createApp({ slug: OTHER_APP });
  ids[`${OTHER_APP}[bot]`] = other.bot_id;
  admin.createToken({
    token: `ghs_${OTHER_APP}Token0000000000000000000`,
    kind: 'installation',
    app: OTHER_APP,
    permissions: { issues: 'write' },
  });
  await bootstrapLedger(ledger, { apply: true });
  const { data: issue } = await client(emulator, patOf(PEOPLE.admin)).rest.issues.create({
    owner: OWNER,
    repo: REPO,
    title: 'Roadmap: release planning',
  });

  const world: SliceWorld = {
    emulator,
    appId: app.id,
    statusIssue: issue.number,
    ledger,
    ids,
    env: (extra = {}) => ({
      GITHUB_API_URL: emulator.url,
      GITHUB_REPOSITORY: REPOSITORY,
      GITHUB_RUN_ID: String((runCounter += 1)),
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_ACTOR_ID: String(ids[PEOPLE.admin]),
      RUNNER_TEMP: TEST_RUNNER_TEMP,
      ...extra,
    }),
    ledgerInputs: () => ({
      token: APP_TOKEN,
      'ledger-app-slug': APP_SLUG,
      'ledger-app-id': String(app.id),
    }),
    async comment(author, body, issueNumber = issue.number) {
      const token =
        'login' in author
          ? patOf(author.login)
          : author.app === APP_SLUG
            ? APP_TOKEN
            : `ghs_${author.app}Token0000000000000000000`;
      const { data } = await client(emulator, token).rest.issues.createComment({
        owner: OWNER,
        repo: REPO,
        issue_number: issueNumber,
        body,
      });
      const event = admin
        .events()
        .filter((e) => e.event === 'issue_comment' && e.action === 'created')
        .find((e) => (e.payload.comment as { id: number }).id === data.id);
      if (!event) throw new Error(`no issue_comment event recorded for comment ${data.id}`);
      return event.payload;
    },
    run: (stage, inputs, runOptions = {}) =>
      runStage({
        stage,
        // As the templates wire them: the stages that may move the lease read holder liveness with the
        // job's GITHUB_TOKEN (`actions: read`) unless a test gives its own.
        inputs: LIVENESS_STAGES.has(stage) ? { 'actions-token': DEMO_ACTIONS_TOKEN, ...inputs } : inputs,
        ...(runOptions.event === undefined ? {} : { event: runOptions.event }),
        eventName:
          runOptions.eventName ?? (runOptions.event === undefined ? 'workflow_dispatch' : 'issue_comment'),
        env: world.env(runOptions.env),
        ...(runOptions.timeoutMs === undefined ? {} : { timeoutMs: runOptions.timeoutMs }),
        ...(runOptions.onSpawn === undefined ? {} : { onSpawn: runOptions.onSpawn }),
      }),
    runFile: async (runId) => (await readRun(ledger, runId)).run,
    head: async () => (await readRun(ledger, 'head-probe')).headOid,
    close: () => emulator.close(),
  };
  return world;
}

/** Writes a variant of a fixture plan (a changed title gives another digest and run ID). */
export function planVariant(
  dir: string,
  name: string,
  fixture = 'examples/release-plan.json',
  title?: string,
): string {
  const plan = JSON.parse(readFileSync(join(REPO_ROOT, fixture), 'utf8')) as Record<string, unknown>;
  if (title !== undefined) plan.title = title;
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(plan));
  return path;
}

/** Proposes a plan file's run in the ledger in-process (as preview does) and returns its approve command. */
export async function proposePlan(
  world: SliceWorld,
  planFile: string,
  proposer?: number,
): Promise<{ runId: string; digest: string; command: string }> {
  const binding = bindPlan(loadPlanFile(planFile));
  const runId = deriveRunId(binding.digest);
  await proposeRun(world.ledger, {
    runId,
    planDigest: binding.digest,
    evidenceDigest: null,
    scope: binding.scope,
    bounds: binding.bounds,
    steps: binding.steps,
    ...(proposer === undefined ? {} : { proposer: { actor_id: proposer } }),
  });
  return { runId, digest: binding.digest, command: `writ: approve ${runId} ${binding.digest.slice(7)}` };
}

/**
 * Consumes the approval comment `event` carries in-process (as consume-approval does) as the app, for
 * the run `planFile` binds, held by workflow run `holder`; `allowedRoles` defaults to the action's.
 */
export async function approveInProcess(
  world: SliceWorld,
  planFile: string,
  event: Record<string, unknown>,
  options: { holder: number; allowedRoles?: readonly string[] },
): Promise<ConsumedApproval> {
  return consumeApprovalComment(
    { github: client(world.emulator, APP_TOKEN), ledger: world.ledger, logger: silentLogger },
    {
      repository: { owner: OWNER, repo: REPO },
      commentId: (event.comment as { id: number }).id,
      commandPrefix: 'writ',
      allowedRoles: options.allowedRoles ?? ['admin', 'maintain', 'write'],
      appBotLogin: `${APP_SLUG}[bot]`,
      planFile,
      holder: { workflow_run_id: options.holder, attempt: 1 },
      requireDistinctApprover: false,
    },
  );
}

/** The emulator's request log as the attacker tests read it: where it ends, and the writes since. */
export function requestLog(emulator: () => Emulator): {
  lastSeq: () => number;
  writesSince: (seq: number) => string[];
} {
  const lastSeq = (): number => {
    const all = emulator().admin.requests();
    return all.length === 0 ? 0 : all[all.length - 1]!.seq;
  };
  /** Every request since `seq` that could write: not a GET, not a GraphQL query without mutations. */
  const writesSince = (seq: number): string[] =>
    emulator()
      .admin.requests()
      .filter(
        (r) => r.seq > seq && r.method !== 'GET' && !(r.path === '/graphql' && r.mutations.length === 0),
      )
      .map((r) => `${r.method} ${r.path} ${r.mutations.join(',')}`);
  return { lastSeq, writesSince };
}
