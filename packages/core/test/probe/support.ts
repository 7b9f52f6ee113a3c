/**
 * A probe world on the emulator: the running repository `acme/widgets` (its probe allow-list on the
 * default branch), the sandbox `acme/sandbox` with a few pre-existing resources that look like the
 * probe's (a similar title, another run's marker), a sandbox-only token (an installation of a probe app
 * that reaches only the sandbox) and the workflow's GITHUB_TOKEN (contents: read, the running
 * repository only). The emulator's clock is frozen, so identical runs give identical bytes.
 */
import { createGitHubClient } from '../../src/github/client.js';
import type { GitHubClient } from '../../src/github/client.js';
import type { ContractWorld, Emulator } from '@writ/github-emulator/index.js';
import { startEmulator } from '@writ/github-emulator/index.js';

export const CURRENT = 'acme/widgets';
export const SANDBOX = 'acme/sandbox';
export const SANDBOX_TOKEN = 'ghs_probeSandboxInstallationToken000000';
export const REPOSITORY_TOKEN = 'ghs_workflowGithubToken00000000000000000';
export const START = '2026-11-30T09:00:00Z';

let counter = 0;

export function probeClient(emulator: Emulator, token: string): GitHubClient {
  counter += 1;
  return createGitHubClient(token, {
    baseUrl: emulator.url,
    retryBaseMs: 5,
    rateLimitBaseMs: 5,
    rateLimitRetries: 0,
    pacing: false,
    throttleId: `probe-test-${process.pid}-${counter}`,
  });
}

export interface ProbeWorld {
  emulator: Emulator;
  sandbox: GitHubClient;
  repository: GitHubClient;
  /** Selects a contract world through the admin API, as a test outside the process would. */
  world(name: ContractWorld): Promise<void>;
  /** Every resource in the sandbox, as comparable text (issues, milestones, labels, refs). */
  listing(): string[];
  close(): Promise<void>;
}

export function allowlistText(repositories: string[]): string {
  return `${JSON.stringify({ schema: 1, repositories }, null, 2)}\n`;
}

export async function probeWorld(
  options: {
    allowlist?: string[] | null;
    sandboxAdmin?: boolean;
    seed?: number;
    port?: number;
    /** The running repository's visibility (default private: a public one is visible to every token). */
    currentPrivate?: boolean;
  } = {},
): Promise<ProbeWorld> {
  const emulator = await startEmulator({
    seed: options.seed ?? 1,
    startTime: Date.parse(START),
    ...(options.port === undefined ? {} : { port: options.port }),
  });
  emulator.admin.clock({ freeze: true });
  const { admin } = emulator;
  admin.createUser({ login: 'acme', type: 'Organization' });
  const allowlist = options.allowlist === undefined ? [SANDBOX] : options.allowlist;
  admin.createRepo({
    owner: 'acme',
    name: 'widgets',
    private: options.currentPrivate ?? true,
    files: {
      'README.md': '# widgets\n',
      ...(allowlist === null ? {} : { '.writ/probe-allowlist.json': allowlistText(allowlist) }),
    },
  });
  admin.createRepo({ owner: 'acme', name: 'sandbox', private: true, files: { 'README.md': '# sandbox\n' } });
  admin.createApp({ slug: 'writ-probe' });
  admin.createToken({
    token: SANDBOX_TOKEN,
    kind: 'installation',
    app: 'writ-probe',
    repositories: [SANDBOX],
    permissions: {
      contents: 'write',
      issues: 'write',
      ...(options.sandboxAdmin === false ? {} : { administration: 'write' }),
    },
  });
  admin.createToken({
    token: REPOSITORY_TOKEN,
    kind: 'github_token',
    repositories: [CURRENT],
    permissions: { contents: 'read' },
  });
  admin.createToken({ token: 'ghp_acmeOwner000000000000000000000000', kind: 'pat', login: 'acme' });
  const sandbox = probeClient(emulator, SANDBOX_TOKEN);
  const repository = probeClient(emulator, REPOSITORY_TOKEN);
  // Pre-existing look-alikes the probe must never touch.
  const owner = probeClient(emulator, 'ghp_acmeOwner000000000000000000000000');
  const repo = { owner: 'acme', repo: 'sandbox' };
  const { data: lookalike } = await owner.rest.issues.createMilestone({
    ...repo,
    title: 'writ-probe-gh-1-1 case 1 milestone (a person made this)',
    description: '<!-- writ-probe run=gh-0-1 --> another run',
  });
  await owner.rest.issues.create({
    ...repo,
    title: 'writ-probe case 2a item',
    body: 'mentions writ-probe run=gh-1-1 but carries no marker',
    milestone: lookalike.number,
  });
  await owner.rest.issues.createLabel({ ...repo, name: 'writ-probe-gh-0-1-pinned', color: 'ededed' });
  await owner.request('POST /repos/{owner}/{repo}/git/refs', {
    ...repo,
    ref: 'refs/heads/writ-probe-gh-0-1',
    sha: (await owner.rest.git.getRef({ ...repo, ref: 'heads/main' })).data.object.sha,
  });
  return {
    emulator,
    sandbox,
    repository,
    async world(name) {
      const response = await fetch(`${emulator.url}/_emulator/settings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ world: name }),
      });
      if (!response.ok) throw new Error(`world ${name}: HTTP ${response.status}`);
    },
    listing() {
      const state = emulator.world.repos.get('acme/sandbox');
      if (!state) throw new Error('no sandbox');
      return [
        ...[...state.issues.values()].map(
          (i) =>
            `issue #${i.number} ${i.state} ${i.title} m=${String(i.milestone)} l=${i.labels.join(',')} ${i.body ?? ''}`,
        ),
        ...[...state.milestones.values()].map(
          (m) => `milestone #${m.number} ${m.state} ${m.title} ${m.description ?? ''}`,
        ),
        ...[...state.labels.values()].map((l) => `label ${l.name}`),
        ...[...state.refs.entries()].map(([ref, sha]) => `ref ${ref} ${sha}`),
      ].sort();
    },
    close: () => emulator.close(),
  };
}
