/**
 * A repository on the emulator ready for persist: the ledger world (app, rulesets, root), an app token
 * that may also write issues, milestones v2.4 (#1) and v2.3 (#2), issues by the owner, a run proposed
 * and approved for a plan, and files on the default branch (policy, evidence) written the way an owner
 * commits them.
 */
import { CASE_IDS } from '../../src/probe/evidence.js';
import type { CaseId, Classification, ProbeEvidence } from '../../src/probe/evidence.js';
import { commitOnBranch } from '../../src/github/commit-on-branch.js';
import type { GitHubClient } from '../../src/github/client.js';
import { createGitHubClient, loopbackTimings } from '../../src/github/client.js';
import { consumeApproval, createLedgerContext, proposeRun } from '../../src/ledger/ledger.js';
import type { Clock, LedgerContext } from '../../src/ledger/cas.js';
import { bindPlan } from '../../src/plan/binding.js';
import type { Plan, PlanStep } from '../../src/plan/types.js';
import type { PersistDeps, PersistResult, PersistSettings } from '../../src/persist/persist.js';
import { persistPlan } from '../../src/persist/persist.js';
import { silentLogger } from '../../src/redact.js';
import type { LedgerWorld } from '../ledger/support/emulator.js';
import {
  BRANCH,
  OWNER,
  OWNER_TOKEN,
  POLICY,
  REPO,
  REPOSITORY,
  emulatorClient,
  ledgerWorld,
} from '../ledger/support/emulator.js';

export const WRITER_TOKEN = 'ghs_persistAppInstallationToken00000000';
export const READER = 'reid';
export const READER_TOKEN = 'ghp_reidReaderAccessToken000000000000000';
export const HOLDER = { workflow_run_id: 4242, attempt: 1 };

export interface PersistWorld {
  world: LedgerWorld;
  ledger: LedgerContext;
  app: GitHubClient;
  owner: GitHubClient;
  ownLogin: string;
  /** Commits files to the default branch as the owner (a merged pull request, in effect). */
  commitDefault(files: Record<string, string>): Promise<void>;
  /** Proposes and approves a run for `plan`; returns its run ID and the epoch it holds. */
  approve(plan: Plan, runId?: string): Promise<{ runId: string; epoch: number }>;
  persist(
    plan: Plan,
    runId: string,
    overrides?: Partial<PersistSettings>,
    deps?: Partial<PersistDeps>,
  ): Promise<PersistResult>;
  /** Writes (not GETs, not GraphQL queries, not ledger commits) since `seq`. */
  writesSince(seq: number): string[];
  seq(): number;
  close(): Promise<void>;
}

export function evidenceFile(
  apiUrl: string,
  classes: Partial<Record<CaseId, Classification>>,
  finishedAt: string,
): ProbeEvidence {
  return {
    schema: 1,
    sandbox: 'acme/sandbox',
    api_url: apiUrl,
    writ: { version: '0.1.0', commit: null },
    probe_run: 'p-1',
    started_at: finishedAt,
    finished_at: finishedAt,
    cases: CASE_IDS.filter((id) => classes[id] !== undefined).map((id) => ({
      id,
      classification: classes[id] as Classification,
      attempts: [
        {
          surface: 'PATCH /repos/{owner}/{repo}/milestones/{milestone_number}',
          classification: classes[id] as Classification,
          control_status: 200,
          status: 409,
          error_code: null,
          read_back: 'unchanged',
          reason: 'refused-unchanged',
          at: finishedAt,
        },
      ],
    })),
    primitives: [],
    cleanup: { removed: 0, left: [] },
  };
}

export const ALL_POSITIVE = Object.fromEntries(CASE_IDS.map((id) => [id, 'positive'])) as Record<
  CaseId,
  Classification
>;

export const BEST_EFFORT = {
  schema: 1,
  kinds: {
    'milestone.upsert': 'best-effort',
    'milestone.edit': 'best-effort',
    'issue.set-milestone': 'best-effort',
    'issue.labels': 'best-effort',
    'issue.create': 'best-effort',
    'comment.upsert': 'best-effort',
  },
};

export function planOf(
  steps: PlanStep[],
  bounds: Plan['bounds'] = { max_steps: 50 },
  title = 'persist test',
): Plan {
  return { schema: 1, title, scope: { repository: REPOSITORY }, bounds, steps };
}

let runs = 0;

export async function persistWorld(): Promise<PersistWorld> {
  const world = await ledgerWorld();
  const { admin } = world.emulator;
  admin.createToken({
    token: WRITER_TOKEN,
    kind: 'installation',
    app: 'writ-ledger',
    permissions: { contents: 'write', administration: 'write', issues: 'write' },
  });
  admin.createUser({ login: READER });
  admin.createToken({ token: READER_TOKEN, kind: 'pat', login: READER });
  admin.setCollaborator(OWNER, REPO, READER, 'read');
  const ledger = world.context({ token: WRITER_TOKEN });
  const app = emulatorClient(world.emulator, WRITER_TOKEN, 0);
  const owner = emulatorClient(world.emulator, OWNER_TOKEN);
  const base = { owner: OWNER, repo: REPO };
  await app.rest.issues.createMilestone({ ...base, title: 'v2.4' }); // #1
  await app.rest.issues.createMilestone({ ...base, title: 'v2.3', description: 'old notes' }); // #2
  const seq = (): number => {
    const all = world.emulator.admin.requests();
    return all.length === 0 ? 0 : (all[all.length - 1]?.seq ?? 0);
  };
  const result: PersistWorld = {
    world,
    ledger,
    app,
    owner,
    ownLogin: 'writ-ledger[bot]',
    async commitDefault(files) {
      const head = (await owner.rest.git.getRef({ ...base, ref: 'heads/main' })).data.object.sha;
      const outcome = await commitOnBranch(
        owner,
        {
          repository: REPOSITORY,
          branch: 'main',
          expectedHeadOid: head,
          headline: 'writ settings',
          body: '',
          additions: Object.entries(files).map(([path, contents]) => ({ path, contents })),
        },
        'artifact',
      );
      if (outcome.kind !== 'committed') throw new Error(`commit to main: ${outcome.kind}`);
    },
    async approve(plan, runId = `run-${(runs += 1)}`) {
      const binding = bindPlan(plan);
      await proposeRun(ledger, {
        runId,
        planDigest: binding.digest,
        evidenceDigest: null,
        scope: binding.scope,
        bounds: binding.bounds,
        steps: binding.steps,
      });
      const consumed = await consumeApproval(ledger, {
        runId,
        approval: await world.approve(runId, binding),
        plan: { digest: binding.digest, scope: binding.scope, bounds: binding.bounds },
        holder: HOLDER,
      });
      return { runId, epoch: consumed.result.epoch };
    },
    persist(plan, runId, overrides = {}, deps = {}) {
      return persistPlan(
        { github: app, ledger, logger: silentLogger, ownLogin: 'writ-ledger[bot]', ...deps },
        {
          repository: base,
          runId,
          plan,
          epoch: 1,
          holder: HOLDER,
          persistenceEnabled: true,
          policyPath: '.writ/policy.json',
          evidencePath: '.writ/probe-evidence.json',
          maxSteps: 100,
          timeBudgetMs: 300 * 60_000,
          claimWindow: 1,
          pageCap: 20,
          commandPrefix: 'writ',
          allowedRoles: ['admin', 'maintain', 'write'],
          apiUrl: world.emulator.url,
          dryRun: false,
          ...overrides,
        },
      );
    },
    seq,
    writesSince: (since) =>
      world.emulator.admin
        .requests()
        .filter((r) => r.seq > since && r.method !== 'GET' && r.path !== '/graphql')
        .map((r) => `${r.method} ${r.path.replace(/\?.*$/, '')}`),
    close: () => world.close(),
  };
  return result;
}

/**
 * The app's client and a ledger on it, paced (github/pacer.ts) on the emulator's clock: `now` reads it,
 * a wait advances it. The ledger writes through the same client, so its commits count against the same
 * secondary limit (the stages' `connect` does the same).
 */
export function pacedOnEmulatorClock(world: PersistWorld): { github: GitHubClient; ledger: LedgerContext } {
  const { emulator } = world.world;
  const clock = emulator.world.clock;
  const virtual: Clock = {
    now: () => clock.now(),
    sleep: (ms) => {
      clock.advance(ms);
      return Promise.resolve();
    },
  };
  pacedClients += 1;
  const github = createGitHubClient(WRITER_TOKEN, {
    baseUrl: emulator.url,
    ...loopbackTimings(5),
    pacing: virtual,
    throttleId: `paced-${process.pid}-${pacedClients}`,
  });
  const ledger = createLedgerContext(
    { github, clock: virtual },
    { repository: REPOSITORY, branch: BRANCH, app: world.world.app, policy: POLICY },
  );
  return { github, ledger };
}

let pacedClients = 0;
