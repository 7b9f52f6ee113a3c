/**
 * A ledger on the real emulator, reached with Writ's real client (retry and throttling installed, with
 * test-sized waits): an owner, a writer, the ledger app with an installation token, a repository, the
 * ledger ruleset (deletion, non_fast_forward, update; only the app bypasses), and a bootstrapped root.
 */
import { createGitHubClient } from '@writ/core/github/client.js';
import type { GitHubClient } from '@writ/core/github/client.js';
import { bootstrapLedger } from '@writ/core/ledger/bootstrap.js';
import type { Clock, LedgerContext } from '@writ/core/ledger/cas.js';
import { createLedgerContext } from '@writ/core/ledger/ledger.js';
import type { LedgerApp } from '@writ/core/ledger/types.js';
import { startEmulator } from '@writ/github-emulator/index.js';
import type { Emulator, Ruleset } from '@writ/github-emulator/index.js';

export const OWNER = 'acme';
export const REPO = 'widgets';
export const REPOSITORY = `${OWNER}/${REPO}`;
export const BRANCH = 'bot/writ-ledger';
export const LEDGER_TOKEN = 'ghs_ledgerAppInstallationToken000000000';
export const OWNER_TOKEN = 'ghp_ownerPersonalAccessToken00000000000';

let counter = 0;

export function emulatorClient(emulator: Emulator, token: string, retries = 3): GitHubClient {
  counter += 1;
  return createGitHubClient(token, {
    baseUrl: emulator.url,
    retries,
    retryBaseMs: 5,
    rateLimitBaseMs: 5,
    writeSpacingMs: 0,
    notificationSpacingMs: 0,
    throttleId: `ledger-test-${process.pid}-${counter}`,
  });
}

export interface LedgerWorld {
  emulator: Emulator;
  app: LedgerApp;
  ruleset: Ruleset | null;
  context(options?: { clock?: Clock; seed?: number; maxAttempts?: number; token?: string }): LedgerContext;
  close(): Promise<void>;
}

export const POLICY = { leaseMs: 10 * 60_000, graceMs: 60_000 };

export const instantClock: Clock = { now: () => Date.now(), sleep: () => Promise.resolve() };

export async function ledgerWorld(
  options: { seed?: number; ruleset?: boolean; bootstrap?: boolean; port?: number } = {},
): Promise<LedgerWorld> {
  const emulator = await startEmulator({
    seed: options.seed ?? 1,
    startTime: Date.parse('2026-11-30T09:00:00Z'),
    ...(options.port === undefined ? {} : { port: options.port }),
  });
  const { admin } = emulator;
  admin.createUser({ login: OWNER });
  admin.createUser({ login: 'mallory' });
  const created = admin.createApp({ slug: 'writ-ledger' });
  const app: LedgerApp = { slug: created.slug, id: created.app_id };
  // Administration write lets the app read the ruleset's bypass actors (GitHub shows them only to
  // callers with write access to the ruleset).
  admin.createToken({
    token: LEDGER_TOKEN,
    kind: 'installation',
    app: 'writ-ledger',
    permissions: { contents: 'write', administration: 'write' },
  });
  admin.createToken({ token: OWNER_TOKEN, kind: 'pat', login: OWNER });
  admin.createRepo({ owner: OWNER, name: REPO, files: { 'README.md': 'widgets\n' } });
  admin.setCollaborator(OWNER, REPO, 'mallory', 'write');
  const ruleset =
    options.ruleset === false
      ? null
      : admin.addRuleset(OWNER, REPO, {
          name: 'writ-ledger',
          target: 'branch',
          enforcement: 'active',
          conditions: { ref_name: { include: [`refs/heads/${BRANCH}`], exclude: [] } },
          rules: [{ type: 'deletion' }, { type: 'non_fast_forward' }, { type: 'update' }],
          bypass_actors: [{ actor_id: app.id, actor_type: 'Integration', bypass_mode: 'always' }],
        });
  emulator.admin.clock({ advance_ms: 1000 });
  const world: LedgerWorld = {
    emulator,
    app,
    ruleset,
    context: (contextOptions = {}) =>
      createLedgerContext(
        {
          github: emulatorClient(emulator, contextOptions.token ?? LEDGER_TOKEN),
          clock: contextOptions.clock ?? instantClock,
        },
        {
          repository: REPOSITORY,
          branch: BRANCH,
          app,
          policy: POLICY,
          seed: contextOptions.seed ?? 7,
          maxAttempts: contextOptions.maxAttempts ?? 8,
        },
      ),
    close: () => emulator.close(),
  };
  if (options.bootstrap !== false) await bootstrapLedger(world.context(), { apply: true });
  return world;
}
