/**
 * A repository on the GitHub emulator set up the way a Writ user sets up theirs: human accounts with
 * personal access tokens and repository roles, the Writ GitHub App with an installation token, the
 * repository, the two ledger rulesets (created before the ledger root) and a ledger context written by
 * the app. The one builder behind `writ demo`, the end-to-end tests and the measuring scripts; the
 * ledger is left unbootstrapped, so a caller can show (or count) that step itself. Dev-only: it lives
 * beside the demo, outside the `writ` CLI's source.
 */
import { createGitHubClient, loopbackTimings } from '@writ/core/github/client.js';
import type { GitHubClient } from '@writ/core/github/client.js';
import type { LedgerContext } from '@writ/core/ledger/cas.js';
import { createLedgerContext } from '@writ/core/ledger/ledger.js';
import { actionsLiveness } from '@writ/core/ledger/liveness.js';
import { withMarker } from '@writ/core/idempotency/key.js';
import { keyMarker } from '@writ/core/persist/steps.js';
import { ledgerRulesets } from '@writ/core/ledger/rulesets.js';
import { startEmulator } from '@writ/github-emulator/index.js';
import type { Emulator, EmulatorOptions } from '@writ/github-emulator/index.js';

export const OWNER = 'acme';
export const REPO = 'widgets';
export const REPOSITORY = `${OWNER}/${REPO}`;
export const LEDGER_BRANCH = 'bot/writ-ledger';

/** What the Writ app may do: write the ledger, its status comments and the artifact's pull request. */
/** GITHUB_TOKEN with `actions: read`, as the templates give the stages that take a lease over. */
export const DEMO_ACTIONS_TOKEN = 'ghs_demoGithubTokenActionsRead000000000';

const APP_PERMISSIONS = {
  contents: 'write',
  issues: 'write',
  pull_requests: 'write',
  administration: 'write',
} as const;

/** A person's personal access token in the emulator, derived from the login. */
export function patOf(login: string): string {
  return `ghp_${login.padEnd(36, '0')}`;
}

let clients = 0;

/** Writ's real client (retry and throttling installed) against the emulator, with loopback timings. */
export function emulatorClient(emulator: Emulator, token: string): GitHubClient {
  clients += 1;
  return createGitHubClient(token, {
    baseUrl: emulator.url,
    ...loopbackTimings(5),
    throttleId: `emulator-${process.pid}-${clients}`,
  });
}

export interface DemoWorldSpec {
  seed: number;
  app: { slug: string; token: string };
  /** Each login and its repository role (null: an account with no access). */
  people: Readonly<Record<string, 'admin' | 'maintain' | 'write' | 'triage' | 'read' | null>>;
  /** The repository owner as an organization account (else it is only the repository's namespace). */
  organization?: boolean;
  /** Seeds the ledger's retry jitter. */
  ledgerSeed?: number;
  /** More files on the default branch's first commit (path → text). */
  files?: Readonly<Record<string, string>>;
  /** Sees each request before the emulator answers it (kill-point harnesses and crash points act there). */
  onRequest?: EmulatorOptions['onRequest'];
  /** A private repository (default public). The probe refuses a public running repository. */
  private?: boolean;
}

export interface DemoWorld {
  emulator: Emulator;
  app: { slug: string; id: number; botId: number; token: string };
  /** Numeric account IDs by login (the app's bot as `<slug>[bot]`). */
  ids: Record<string, number>;
  /** The ledger as the app writes it (not yet bootstrapped). */
  ledger: LedgerContext;
}

export async function startDemoWorld(spec: DemoWorldSpec): Promise<DemoWorld> {
  const emulator = await startEmulator({
    seed: spec.seed,
    ...(spec.onRequest === undefined ? {} : { onRequest: spec.onRequest }),
  });
  const { admin } = emulator;
  const ids: Record<string, number> = {};
  if (spec.organization === true) admin.createUser({ login: OWNER, type: 'Organization' });
  for (const login of Object.keys(spec.people)) {
    ids[login] = admin.createUser({ login }).id as number;
    admin.createToken({ token: patOf(login), kind: 'pat', login });
  }
  const app = admin.createApp({ slug: spec.app.slug });
  ids[`${spec.app.slug}[bot]`] = app.bot_id;
  admin.createToken({
    token: spec.app.token,
    kind: 'installation',
    app: spec.app.slug,
    permissions: APP_PERMISSIONS,
  });
  admin.createRepo({
    owner: OWNER,
    name: REPO,
    private: spec.private ?? false,
    files: { 'README.md': '# widgets\n', ...spec.files },
  });
  for (const [login, role] of Object.entries(spec.people)) {
    if (role !== null) admin.setCollaborator(OWNER, REPO, login, role);
  }
  for (const ruleset of ledgerRulesets(LEDGER_BRANCH, app.app_id)) admin.addRuleset(OWNER, REPO, ruleset);
  // The job's GITHUB_TOKEN, with `actions: read` only: a takeover reads holder liveness with it.
  admin.createToken({ token: DEMO_ACTIONS_TOKEN, kind: 'github_token', permissions: { actions: 'read' } });
  const ledger = createLedgerContext(
    {
      github: emulatorClient(emulator, spec.app.token),
      liveness: actionsLiveness(emulatorClient(emulator, DEMO_ACTIONS_TOKEN), { owner: OWNER, repo: REPO }),
    },
    {
      repository: REPOSITORY,
      app: { slug: spec.app.slug, id: app.app_id },
      ...(spec.ledgerSeed === undefined ? {} : { seed: spec.ledgerSeed }),
    },
  );
  return {
    emulator,
    app: { slug: spec.app.slug, id: app.app_id, botId: app.bot_id, token: spec.app.token },
    ids,
    ledger,
  };
}

/** The description of v2.3 (#9) that `examples/roadmap-plan.json`'s `close-v2-3` step observed. */
export const V2_3_DESCRIPTION = 'Export API and the bulk editor.';

/**
 * The repository `examples/roadmap-plan.json` was planned against, as it stands before the plan runs:
 * milestones #1–#12 (v2.3 is #9, open; v2.4 is #12, managed by Writ under `roadmap:v2.4`), the labels,
 * issues #1–#117 (the tracking issue #90, the importer #101 with no milestone, the plugin API #117 in
 * v2.4) and Writ's roadmap summary comment 4501 on #90 from an earlier refresh. Humans file the issues
 * and milestones; the app wrote #12 and the comment.
 */
export async function seedRoadmapRepository(
  emulator: Emulator,
  tokens: { person: string; app: string },
): Promise<void> {
  const person = emulatorClient(emulator, tokens.person);
  const app = emulatorClient(emulator, tokens.app);
  const base = { owner: OWNER, repo: REPO };
  for (const name of ['roadmap', 'importer', 'plugins', 'needs-triage', 'deferred', 'epic'])
    await person.rest.issues.createLabel({ ...base, name, color: 'ededed' });
  const shipped = ['v1.0', 'v1.1', 'v1.2', 'v1.3', 'v1.4', 'v2.0', 'v2.1', 'v2.2'];
  for (const title of shipped) {
    const { data } = await person.rest.issues.createMilestone({ ...base, title });
    await person.rest.issues.updateMilestone({ ...base, milestone_number: data.number, state: 'closed' });
  }
  await person.rest.issues.createMilestone({ ...base, title: 'v2.3', description: V2_3_DESCRIPTION }); // #9
  await person.rest.issues.createMilestone({ ...base, title: 'Backlog' }); // #10
  await person.rest.issues.createMilestone({ ...base, title: 'Docs sprint' }); // #11
  await app.rest.issues.createMilestone({
    ...base,
    title: 'v2.4',
    description: withMarker('Search speed-ups.', keyMarker('roadmap:v2.4')),
  }); // #12
  const special: Record<number, { title: string; labels?: string[]; milestone?: number }> = {
    90: { title: 'Roadmap tracking', labels: ['roadmap'] },
    101: { title: 'Importer: CSV and JSON sources', labels: ['roadmap', 'importer'] },
    117: { title: 'Plugin API', labels: ['roadmap', 'plugins', 'needs-triage'], milestone: 12 },
  };
  for (let number = 1; number <= 117; number++) {
    const { data } = await person.rest.issues.create({
      ...base,
      ...(special[number] ?? { title: `Widget bug ${number}` }),
    });
    if (data.number !== number)
      throw new Error(`the roadmap world expected issue #${number}, got #${data.number}`);
  }
  // GitHub's comment IDs are global; the emulator's count from 1000 per world: advance them to the
  // ID the plan observed, as if the rest of GitHub had been busy.
  while (emulator.world.id() < 4500);
  const { data: summary } = await app.rest.issues.createComment({
    ...base,
    issue_number: 90,
    body: withMarker('Roadmap refreshed: v2.4 (1 issue).', keyMarker('roadmap:summary')),
  });
  if (summary.id !== 4501) throw new Error(`the roadmap world expected comment 4501, got ${summary.id}`);
}
