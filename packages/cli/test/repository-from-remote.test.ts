/**
 * Every `writ` command that needs a repository finds it the way `writ init` does: `--repo`, else
 * `--remote <name>`, else GITHUB_REPOSITORY, else the clone's one GitHub remote (`--github-host` for
 * GHES). Run in the repository init just set up, doctor needs no --repo; a missing token is refused
 * naming GITHUB_TOKEN, the repository and the API URL the command would use.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { startEmulator } from '@writ/github-emulator/index.js';
import type { Emulator } from '@writ/github-emulator/index.js';
import { ledgerRulesets } from '@writ/core/ledger/rulesets.js';
import { runCli } from '@writ/cli/cli.js';
import { repositoryTarget } from '@writ/cli/repository.js';
import { REPO_ROOT } from '../src/run-stage.js';

const TOKEN = 'ghs_remoteLedgerAppToken00000000000000000';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** A fresh clone with these remotes, as `writ init` would be run in. */
function clone(remotes: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'writ-remote-'));
  dirs.push(dir);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  for (const [name, url] of Object.entries(remotes))
    execFileSync('git', ['remote', 'add', name, url], { cwd: dir });
  return dir;
}

async function writ(
  argv: string[],
  env: Record<string, string>,
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, env, { stdout: (text) => (out += text), stderr: (text) => (err += text) });
  return { code, out, err };
}

async function world(): Promise<{ url: string; appId: number }> {
  emulator = await startEmulator({ seed: 27, startTime: Date.parse('2026-12-01T09:00:00Z') });
  const { admin } = emulator;
  admin.createUser({ login: 'acme' });
  const app = admin.createApp({ slug: 'writ-ledger' });
  admin.createToken({
    token: TOKEN,
    kind: 'installation',
    app: 'writ-ledger',
    permissions: { contents: 'write', issues: 'write', administration: 'write' },
  });
  admin.createRepo({ owner: 'acme', name: 'widgets', files: { 'README.md': 'x\n' } });
  for (const ruleset of ledgerRulesets('bot/writ-ledger', app.app_id))
    admin.addRuleset('acme', 'widgets', ruleset);
  admin.clock({ advance_ms: 1000 });
  return { url: emulator.url, appId: app.app_id };
}

describe('the repository a command acts on', () => {
  it('is --repo, else --remote, else GITHUB_REPOSITORY, else the one GitHub remote (as init finds it)', () => {
    const dir = clone({
      origin: 'git@github.com:acme/widgets.git',
      upstream: 'https://github.com/writ-org/widgets.git',
      mirror: 'https://gitlab.example/acme/widgets.git',
    });
    const single = clone({ origin: 'https://github.com/acme/widgets.git' });
    const ghes = clone({ origin: 'https://git.acme.test:8443/platform/tools.git' });
    expect(repositoryTarget({ repo: 'acme/other' }, { PWD: dir })).toEqual({
      repository: 'acme/other',
      source: '--repo',
      apiUrl: null,
    });
    expect(repositoryTarget({ remote: 'upstream' }, { PWD: dir, GITHUB_REPOSITORY: 'x/y' })).toEqual({
      repository: 'writ-org/widgets',
      source: 'remote upstream',
      apiUrl: 'https://api.github.com',
    });
    expect(repositoryTarget({}, { PWD: dir, GITHUB_REPOSITORY: 'x/y' })).toMatchObject({
      repository: 'x/y',
      source: 'GITHUB_REPOSITORY',
    });
    expect(repositoryTarget({}, { PWD: single })).toEqual({
      repository: 'acme/widgets',
      source: 'remote origin',
      apiUrl: 'https://api.github.com',
    });
    expect(repositoryTarget({ 'github-host': 'git.acme.test' }, { PWD: ghes })).toEqual({
      repository: 'platform/tools',
      source: 'remote origin',
      apiUrl: 'https://git.acme.test:8443/api/v3',
    });
    expect(() => repositoryTarget({}, { PWD: dir })).toThrow(
      'No repository: pass --repo <owner/repo> or set GITHUB_REPOSITORY, or run writ inside a clone with one GitHub remote (Several GitHub remotes (origin → acme/widgets, upstream → writ-org/widgets): pass --remote <name>)',
    );
    expect(() => repositoryTarget({ remote: 'mirror' }, { PWD: dir })).toThrow(
      'Remote "mirror" is not a GitHub remote of this repository (GitHub remotes: origin, upstream; pass --github-host <host> for GitHub Enterprise Server).',
    );
    expect(() => repositoryTarget({}, { PWD: ghes })).toThrow(
      /No GitHub remote in this repository \(remotes: origin\)/,
    );
    expect(() => repositoryTarget({ repo: 'acme/widgets', remote: 'origin' }, { PWD: dir })).toThrow(
      'pass --repo or --remote, not both',
    );
  });

  it('lets doctor, in the clone init set up, find the repository from the Git remote with no --repo', async () => {
    const { url, appId } = await world();
    const dir = clone({ origin: 'https://github.com/acme/widgets.git' });
    // The repository init set up: it names acme/widgets from the same remote.
    // init pins a commit the Writ clone has (init-ref-unknown otherwise): this clone's own HEAD.
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const init = await writ(['init', '--github', '--dir', dir, '--ref', head, '--json', '--offline'], {});
    expect(JSON.parse(init.out)).toMatchObject({
      repository: { owner: 'acme', repo: 'widgets', api_url: 'https://api.github.com' },
    });
    const env = {
      PWD: dir,
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: url,
      WRIT_APP_SLUG: 'writ-ledger',
      WRIT_APP_ID: String(appId),
    };
    const doctor = await writ(['doctor', '--github', '--json'], env);
    expect(doctor.err).not.toMatch(/No repository/);
    const report = JSON.parse(doctor.out) as { repository: string; checks: { id: string; status: string }[] };
    expect(report.repository).toBe('acme/widgets');
    expect(report.checks.find((entry) => entry.id === 'ledger-rulesets')?.status).toBe('PASS');
    // bootstrap and ledger show find it too.
    const bootstrap = await writ(['bootstrap', '--apply'], env);
    expect(bootstrap.err).toBe('');
    expect(bootstrap.out).toMatch(
      /^Created the ledger root [0-9a-f]{40} on bot\/writ-ledger in acme\/widgets\./,
    );
    const show = await writ(['ledger', 'show', '--json'], env);
    expect(show.code).toBe(0);
    expect(JSON.parse(show.out)).toMatchObject({ repository: 'acme/widgets' });
    const verify = await writ(['ledger', 'verify', '--json'], env);
    expect(JSON.parse(verify.out)).toMatchObject({ result: 'PASS' });
    // Several GitHub remotes: --remote picks one; without it the refusal says how.
    const two = clone({
      origin: 'https://github.com/acme/widgets.git',
      fork: 'https://github.com/someone/widgets.git',
    });
    const ambiguous = await writ(['doctor', '--github'], { ...env, PWD: two });
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.err).toMatch(
      /^invalid-input: No repository: .*Several GitHub remotes \(fork → someone\/widgets, origin → acme\/widgets\): pass --remote <name>/,
    );
    const picked = await writ(['ledger', 'show', '--json', '--remote', 'origin'], { ...env, PWD: two });
    expect(JSON.parse(picked.out)).toMatchObject({ repository: 'acme/widgets' });
  });

  const commands: [string, string[], Record<string, string>][] = [
    ['doctor', ['doctor', '--github'], {}],
    ['bootstrap', ['bootstrap'], {}],
    ['ledger show', ['ledger', 'show'], {}],
    ['ledger verify', ['ledger', 'verify', '--app-slug', 'writ-ledger', '--app-id', '7'], {}],
    ['reconcile', ['reconcile', '--run', 'r1'], {}],
    ['cancel', ['cancel', '--run', 'r1'], {}],
    ['recover', ['recover'], { WRIT_APP_SLUG: 'writ-ledger', WRIT_APP_ID: '7' }],
  ];

  it.each(commands)(
    '%s takes the repository from the remote and, with no token, names GITHUB_TOKEN and the API URL',
    async (_name, argv, extra) => {
      const dir = clone({ origin: 'https://github.com/acme/widgets.git' });
      const missing = await writ(argv, { PWD: dir, ...extra });
      expect(missing.code).toBe(1);
      expect(missing.err).toMatch(
        /^invalid-input: GITHUB_TOKEN is not set: export GITHUB_TOKEN=<token> for acme\/widgets \(from remote origin\), a token that can read the repository \(a write needs the Writ app's installation token\); the API is https:\/\/api\.github\.com, from the remote's host; set GITHUB_API_URL for another host/,
      );
      // A GHES remote: its own API URL is named (and used), found with --github-host as init finds it.
      const ghes = clone({ origin: 'https://git.acme.test/platform/tools.git' });
      const onGhes = await writ([...argv, '--github-host', 'git.acme.test'], { PWD: ghes, ...extra });
      expect(onGhes.err).toMatch(
        /^invalid-input: GITHUB_TOKEN is not set: export GITHUB_TOKEN=<token> for platform\/tools \(from remote origin\).*; the API is https:\/\/git\.acme\.test\/api\/v3, from the remote's host/,
      );
      // GITHUB_API_URL, when set, is the one named.
      const named = await writ(argv, { PWD: dir, GITHUB_API_URL: 'http://127.0.0.1:9/api', ...extra });
      expect(named.err).toMatch(/; GITHUB_API_URL is http:\/\/127\.0\.0\.1:9\/api\./);
    },
  );

  it("writ run acts on the remote's repository when neither --repo nor GITHUB_REPOSITORY is given", async () => {
    const dir = clone({ origin: 'https://github.com/acme/widgets.git' });
    const plan = `plan-file=${join(REPO_ROOT, 'examples/release-plan.json')}`;
    const run = await writ(['run', 'preview', '--input', plan, '--json'], { PWD: dir });
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out)).toMatchObject({ outputs: { outcome: 'previewed' } });
  });
});
