/** Shared test setup: an emulator with a user, an app, tokens and a repository, plus real clients. */
import { createGitHubClient, loopbackTimings } from '@writ/core/github/client.js';
import type { GitHubClient } from '@writ/core/github/client.js';
import { startEmulator } from '@writ/github-emulator/index.js';
import type { Emulator } from '@writ/github-emulator/index.js';
import { Conformance } from './conformance.js';

let clientCounter = 0;

export function client(emulator: Emulator, token: string, options: { retries?: number } = {}): GitHubClient {
  clientCounter++;
  return createGitHubClient(token, {
    baseUrl: emulator.url,
    retries: options.retries ?? 3,
    ...loopbackTimings(5),
    throttleId: `emulator-test-${process.pid}-${clientCounter}`,
  });
}

let conformance: Conformance | undefined;

/** This test file's conformance checker (every emulator started through `start` reports to it). */
export function conformanceOf(file: string): Conformance {
  conformance ??= new Conformance(file);
  return conformance;
}

/** Starts an emulator whose every response and webhook is checked for conformance. */
export async function start(seed = 1): Promise<Emulator> {
  const checker = conformanceOf('unnamed');
  let seenEvents = 0;
  const emulator: Emulator = await startEmulator({
    seed,
    onExchange: (exchange) => {
      checker.observe(exchange);
      const events = emulator.world.events;
      if (events.length < seenEvents) seenEvents = 0;
      checker.observeEvents(events.slice(seenEvents));
      seenEvents = events.length;
    },
  });
  return emulator;
}

/** Asserts that everything this file's emulators answered conformed (call in afterAll). */
export function expectConformance(): void {
  const checker = conformanceOf('unnamed');
  checker.write();
  if (checker.report.failures.length > 0) {
    throw new Error(`Conformance failures:\n${checker.report.failures.join('\n')}`);
  }
}

export interface World {
  emulator: Emulator;
  head: string;
  appId: number;
  botId: number;
}

/** alice owns alice/repo; `app` is the writ-ledger app's installation token, `pat` alice's PAT. */
export async function setup(
  seed = 1,
  files: Record<string, string> = { 'README.md': 'hello\n' },
): Promise<World> {
  const emulator = await start(seed);
  const admin = emulator.admin;
  admin.createUser({ login: 'alice' });
  admin.createUser({ login: 'bob' });
  admin.createUser({ login: 'carol' });
  const app = admin.createApp({ slug: 'writ-ledger' });
  admin.createToken({ token: 'app-token', kind: 'installation', app: 'writ-ledger' });
  admin.createToken({ token: 'gh-token', kind: 'github_token' });
  admin.createToken({ token: 'alice-pat', kind: 'pat', login: 'alice' });
  admin.createToken({ token: 'bob-pat', kind: 'pat', login: 'bob' });
  admin.createToken({ token: 'carol-pat', kind: 'pat', login: 'carol' });
  const repo = admin.createRepo({ owner: 'alice', name: 'repo', files });
  admin.setCollaborator('alice', 'repo', 'bob', 'maintain');
  admin.setCollaborator('alice', 'repo', 'carol', 'triage');
  return { emulator, head: String(repo.head), appId: app.app_id, botId: app.bot_id };
}

export async function graphqlRaw(
  emulator: Emulator,
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<{ status: number; contentType: string | null; body: Record<string, unknown> }> {
  const response = await fetch(emulator.graphqlUrl, {
    method: 'POST',
    headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

export const COMMIT_MUTATION = `mutation Commit($input: CreateCommitOnBranchInput!) {
  createCommitOnBranch(input: $input) { commit { oid } }
}`;

export function commitInput(
  head: string,
  path: string,
  contents: string,
  branch = 'main',
): Record<string, unknown> {
  return {
    input: {
      branch: { repositoryNameWithOwner: 'alice/repo', branchName: branch },
      expectedHeadOid: head,
      message: { headline: `write ${path}` },
      fileChanges: { additions: [{ path, contents: Buffer.from(contents).toString('base64') }] },
    },
  };
}
