/**
 * A repository on the GitHub emulator set up the way a Writ user sets up theirs: human accounts with
 * personal access tokens and repository roles, the Writ GitHub App with an installation token, the
 * repository, the two ledger rulesets (created before the ledger root) and a ledger context written by
 * the app. The one builder behind `writ demo`, the end-to-end tests and the measuring scripts; the
 * ledger is left unbootstrapped, so a caller can show (or count) that step itself.
 */
import { createGitHubClient, loopbackTimings } from '@writ/core/github/client.js';
import type { GitHubClient } from '@writ/core/github/client.js';
import type { LedgerContext } from '@writ/core/ledger/cas.js';
import { createLedgerContext } from '@writ/core/ledger/ledger.js';
import { ledgerRulesets } from '@writ/core/ledger/rulesets.js';
import { startEmulator } from '@writ/github-emulator/index.js';
import type { Emulator } from '@writ/github-emulator/index.js';

export const OWNER = 'acme';
export const REPO = 'widgets';
export const REPOSITORY = `${OWNER}/${REPO}`;
export const LEDGER_BRANCH = 'bot/writ-ledger';

/** What the Writ app may do: write the ledger, its status comments and the artifact's pull request. */
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
  const emulator = await startEmulator({ seed: spec.seed });
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
  admin.createRepo({ owner: OWNER, name: REPO, private: false, files: { 'README.md': '# widgets\n' } });
  for (const [login, role] of Object.entries(spec.people)) {
    if (role !== null) admin.setCollaborator(OWNER, REPO, login, role);
  }
  for (const ruleset of ledgerRulesets(LEDGER_BRANCH, app.app_id)) admin.addRuleset(OWNER, REPO, ruleset);
  const ledger = createLedgerContext(
    { github: emulatorClient(emulator, spec.app.token) },
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
