/**
 * A ledger on the real emulator, reached with Writ's real client (retry and throttling installed, with
 * test-sized waits): an owner, a writer, the ledger app with an installation token, a repository, the
 * two ledger rulesets (deletion + non_fast_forward with no bypass; update with only the app bypassing),
 * and a bootstrapped root.
 */
import { createGitHubClient, loopbackTimings } from '../../../src/github/client.js';
import type { GitHubClient } from '../../../src/github/client.js';
import { bootstrapLedger } from '../../../src/ledger/bootstrap.js';
import type { Clock, LedgerContext } from '../../../src/ledger/cas.js';
import { createLedgerContext } from '../../../src/ledger/ledger.js';
import { ledgerRulesets } from '../../../src/ledger/rulesets.js';
import type { ApprovalInput } from '../../../src/ledger/transitions.js';
import type { LedgerApp } from '../../../src/ledger/types.js';
import { actionsLiveness } from '../../../src/ledger/liveness.js';
import { startEmulator } from '@writ/github-emulator/index.js';
import type { Emulator, Ruleset } from '@writ/github-emulator/index.js';

export const OWNER = 'acme';
export const REPO = 'widgets';
export const REPOSITORY = `${OWNER}/${REPO}`;
export const BRANCH = 'bot/writ-ledger';
export const LEDGER_TOKEN = 'ghs_ledgerAppInstallationToken000000000';
export const OWNER_TOKEN = 'ghp_ownerPersonalAccessToken00000000000';
/** GITHUB_TOKEN with `actions: read` only: every takeover reads holder liveness with it. */
export const ACTIONS_TOKEN = 'ghs_githubTokenActionsRead0000000000000';

let counter = 0;

export function emulatorClient(emulator: Emulator, token: string, retries = 3): GitHubClient {
  counter += 1;
  return createGitHubClient(token, {
    baseUrl: emulator.url,
    retries,
    ...loopbackTimings(5),
    throttleId: `ledger-test-${process.pid}-${counter}`,
  });
}

export interface LedgerWorld {
  emulator: Emulator;
  app: LedgerApp;
  /** The append-only ruleset (no bypass) and the writers ruleset (the app bypasses), unless disabled. */
  rulesets: [Ruleset, Ruleset] | null;
  context(options?: { clock?: Clock; seed?: number; maxAttempts?: number; token?: string }): LedgerContext;
  /**
   * A real approval: the maintainer alice posts the approve command for `runId` on issue #1 and the
   * approval names that comment (the replay of the consume re-verifies it). The same `key` reuses the
   * comment already posted under it (a replayed approval), with `plan`'s digest.
   */
  approve(runId: string, plan: { digest: string }, key?: string | number): Promise<ApprovalInput>;
  close(): Promise<void>;
}

export const APPROVER = 'alice';
export const APPROVER_TOKEN = 'ghp_aliceApproverAccessToken0000000000';

export const POLICY = { leaseMs: 10 * 60_000, graceMs: 60_000 };

export const instantClock: Clock = { now: () => Date.now(), sleep: () => Promise.resolve() };

export async function ledgerWorld(
  options: {
    seed?: number;
    ruleset?: boolean;
    bootstrap?: boolean;
    port?: number;
    /** The ledger app's installation permissions, in place of the ledger's own (stages need more). */
    appPermissions?: Record<string, 'read' | 'write'>;
  } = {},
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
    // Issues read: the replay of a consume re-reads its approval comment.
    permissions: options.appPermissions ?? { contents: 'write', administration: 'write', issues: 'read' },
  });
  admin.createToken({ token: OWNER_TOKEN, kind: 'pat', login: OWNER });
  admin.createToken({ token: ACTIONS_TOKEN, kind: 'github_token', permissions: { actions: 'read' } });
  admin.createRepo({ owner: OWNER, name: REPO, files: { 'README.md': 'widgets\n' } });
  admin.setCollaborator(OWNER, REPO, 'mallory', 'write');
  admin.createUser({ login: APPROVER });
  admin.createToken({ token: APPROVER_TOKEN, kind: 'pat', login: APPROVER });
  admin.setCollaborator(OWNER, REPO, APPROVER, 'maintain');
  const approverClient = emulatorClient(emulator, APPROVER_TOKEN);
  let issueNumber: number | null = null;
  const comments = new Map<string | number, { id: number; url: string; userId: number }>();
  const [appendOnly, writers] = ledgerRulesets(BRANCH, app.id);
  const rulesets: [Ruleset, Ruleset] | null =
    options.ruleset === false
      ? null
      : [admin.addRuleset(OWNER, REPO, appendOnly), admin.addRuleset(OWNER, REPO, writers)];
  emulator.admin.clock({ advance_ms: 1000 });
  const world: LedgerWorld = {
    emulator,
    app,
    rulesets,
    context: (contextOptions = {}) =>
      createLedgerContext(
        {
          github: emulatorClient(emulator, contextOptions.token ?? LEDGER_TOKEN),
          clock: contextOptions.clock ?? instantClock,
          liveness: actionsLiveness(emulatorClient(emulator, ACTIONS_TOKEN), { owner: OWNER, repo: REPO }),
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
    approve: async (runId, plan, key) => {
      let comment = key === undefined ? undefined : comments.get(key);
      if (comment === undefined) {
        issueNumber ??= (
          await approverClient.rest.issues.create({ owner: OWNER, repo: REPO, title: 'Approvals' })
        ).data.number;
        const { data } = await approverClient.rest.issues.createComment({
          owner: OWNER,
          repo: REPO,
          issue_number: issueNumber,
          body: `writ: approve ${runId} ${plan.digest.slice('sha256:'.length)}`,
        });
        comment = { id: data.id, url: data.html_url, userId: data.user?.id ?? 0 };
        if (key !== undefined) comments.set(key, comment);
      }
      return {
        actor_login: APPROVER,
        actor_id: comment.userId,
        role_name: 'maintain',
        comment_id: comment.id,
        comment_url: comment.url,
        digest: plan.digest,
      };
    },
    close: () => emulator.close(),
  };
  if (options.bootstrap !== false) await bootstrapLedger(world.context(), { apply: true });
  return world;
}
