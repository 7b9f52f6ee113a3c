/**
 * A maintainer's first hour with `writ`: help on every command and subcommand, the version, usage on
 * a bare `writ`, unknown options and several bad inputs reported together as `invalid-input`, and the
 * texts of the failures a first setup meets (no server, a rejected token, a 404, the wrong kind of
 * token, a malformed GITHUB_API_URL), each saying what was tried, on what, and the fix.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from '@jest/globals';
import { STAGES } from '@writ/core/io/registry.js';
import { ledgerRulesets } from '@writ/core/ledger/rulesets.js';
import { startEmulator } from '@writ/github-emulator/index.js';
import type { Emulator } from '@writ/github-emulator/index.js';
import { runCli } from '../src/cli.js';
import { REPO_ROOT } from '../src/run-stage.js';

const BIN = fileURLToPath(new URL('../bin/writ.js', import.meta.url));
/** A directory outside any Git clone: no command here finds a repository from a remote. */
const OUTSIDE = mkdtempSync(join(tmpdir(), 'writ-outside-'));
const APP_TOKEN = 'ghs_helpAndErrorsAppToken000000000000000';

async function writ(
  argv: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(
    argv,
    { PWD: OUTSIDE, ...env },
    { stdout: (text) => (out += text), stderr: (text) => (err += text) },
  );
  return { code, out, err };
}

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function world(): Promise<{ env: Record<string, string>; appId: number; url: string }> {
  emulator = await startEmulator({ seed: 5, startTime: Date.parse('2026-11-30T09:00:00Z') });
  const { admin } = emulator;
  admin.createUser({ login: 'acme' });
  admin.createUser({ login: 'ada' });
  const app = admin.createApp({ slug: 'writ-ledger' });
  admin.createToken({
    token: APP_TOKEN,
    kind: 'installation',
    app: 'writ-ledger',
    permissions: { contents: 'write', administration: 'write' },
  });
  admin.createRepo({ owner: 'acme', name: 'widgets', files: { 'README.md': 'x\n' } });
  admin.setCollaborator('acme', 'widgets', 'ada', 'admin');
  for (const ruleset of ledgerRulesets('bot/writ-ledger', app.app_id))
    admin.addRuleset('acme', 'widgets', ruleset);
  admin.clock({ advance_ms: 1000 });
  return {
    appId: app.app_id,
    url: emulator.url,
    env: {
      GITHUB_TOKEN: APP_TOKEN,
      GITHUB_API_URL: emulator.url,
      WRIT_APP_SLUG: 'writ-ledger',
      WRIT_APP_ID: String(app.app_id),
    },
  };
}

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('help, version and usage', () => {
  it('prints usage and exits 0 for a bare writ, and the version for --version', async () => {
    const bare = await writ([]);
    expect(bare.code).toBe(0);
    expect(bare.out).toMatch(/^Usage:\n {2}writ init/);
    expect(bare.out).toContain('--help');
    for (const flag of ['--version', '-V']) {
      const version = await writ([flag]);
      expect(version).toEqual({ code: 0, out: 'writ 0.2.0\n', err: '' });
    }
  });

  it.each([
    [['init', '--help'], /^Usage: writ init --github/],
    [['doctor', '--help'], /^Usage: writ doctor --github/],
    [['bootstrap', '--help'], /^Usage: writ bootstrap \[--repo/],
    [['bootstrap', '-h'], /^Usage: writ bootstrap \[--repo/],
    [['ledger', '--help'], /^Usage: writ ledger <show\|verify>/],
    [['ledger', 'show', '--help'], /^Usage: writ ledger show/],
    [['ledger', 'verify', '--help'], /^Usage: writ ledger verify/],
    [['run', '--help'], /^Usage: writ run <stage>/],
    [['run', 'claim-checkpoint', '--help'], /^Usage: writ run claim-checkpoint/],
    [['demo', '--help'], /^Usage: writ demo/],
    [['reconcile', '--help'], /^Usage: writ reconcile --run/],
    [['cancel', '--help'], /^Usage: writ cancel --run/],
    [['recover', '--help'], /^Usage: writ recover --app-slug/],
  ])('writ %j prints its help and exits 0 without touching GitHub', async (argv, usage) => {
    // No token, no repository, no API: help needs none of them.
    const result = await writ(argv);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(usage);
  });

  it('lists every input of a stage with its default, from the registry generated from action.yml', async () => {
    const { out, code } = await writ(['run', 'preview', '--help']);
    expect(code).toBe(0);
    for (const [name, input] of Object.entries(STAGES.preview.inputs)) {
      const spec: { required: boolean; default?: string } = input;
      const tag = spec.required
        ? 'required'
        : `default ${spec.default === undefined || spec.default === '' ? '(empty)' : JSON.stringify(spec.default)}`;
      expect(out).toContain(`  ${name} (${tag}`);
    }
    expect(out).toContain('command-prefix (default "writ")');
    for (const name of Object.keys(STAGES.preview.outputs)) expect(out).toContain(`  ${name}\n`);
  });
});

describe('bad arguments', () => {
  it.each([
    [['bootstrap', '--repo', 'acme/widgets', '--bogus'], '"--bogus"'],
    [['ledger', 'show', '--repo', 'acme/widgets', '--colour'], '"--colour"'],
    [['ledger', 'verify', '-x'], '"-x"'],
    [['doctor', '--github', '--repo', 'acme/widgets', '--verbose'], '"--verbose"'],
    [['init', '--github', '--frobnicate'], '"--frobnicate"'],
    [['run', 'preview', '--repo', 'acme/widgets', '--bogus'], '"--bogus"'],
    [['--bogus'], '"--bogus"'],
  ])('writ %j is invalid-input naming the option, never internal-error', async (argv, option) => {
    const { code, err } = await writ(argv, { GITHUB_TOKEN: 'ghs_x' });
    expect(code).toBe(1);
    expect(err).toMatch(/^invalid-input: /);
    expect(err).toContain(option);
    expect(err).not.toContain('internal-error');
  });

  it('reports every bad input of one command line together', async () => {
    const { code, err } = await writ(
      [
        'bootstrap',
        '--repo',
        'not a repo',
        '--bogus',
        '--app-slug',
        'Not_A_Slug',
        '--app-id',
        '0x1',
        '--branch',
      ],
      {},
    );
    expect(code).toBe(1);
    expect(err).toMatch(
      /^invalid-input: 5 problems with the arguments of writ bootstrap \(see writ bootstrap --help\)/,
    );
    for (const part of [
      '"--bogus"',
      '--branch needs a value',
      '--repo',
      'invalid --app-slug',
      'invalid --app-id',
    ]) {
      expect(err).toContain(part);
    }
  });

  it('names a flag given a value and an option whose value is another option', async () => {
    const { err } = await writ(['ledger', 'show', '--json=yes', '--repo', '--branch', 'x']);
    expect(err).toContain('option --json takes no value (got "yes")');
    expect(err).toContain('option --repo needs a value');
  });

  it('refuses an invalid GITHUB_API_URL as invalid-input, not a stack trace (the real bin)', async () => {
    const run = promisify(execFile);
    const failed = await run(process.execPath, [BIN, 'ledger', 'show', '--repo', 'acme/widgets'], {
      env: { PATH: process.env.PATH ?? '', GITHUB_TOKEN: 'ghs_x', GITHUB_API_URL: 'api.github.com' },
    }).catch((error: unknown) => error as { code: number; stdout: string; stderr: string });
    expect('code' in failed ? failed.code : 0).toBe(1);
    expect(failed.stderr).toMatch(/^invalid-input: GITHUB_API_URL is not a URL/);
    expect(failed.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('writ run', () => {
  it('needs GITHUB_REPOSITORY or --repo: it never assumes a repository', async () => {
    const plan = `plan-file=${join(REPO_ROOT, 'examples/release-plan.json')}`;
    const missing = await writ(['run', 'preview', '--input', plan]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(
      /^invalid-input: No repository: pass --repo <owner\/repo> or set GITHUB_REPOSITORY, or run writ inside a clone with one GitHub remote \(\/\S+ is not inside a Git repository\)/,
    );
    const named = await writ(['run', 'preview', '--repo', 'acme/widgets', '--input', plan]);
    expect(named.code).toBe(0);
    expect(named.out).toMatch(/outcome: previewed/);
  });

  it('removes the temporary runner folder it creates but the file its outputs name (the real bin, its own temp directory)', async () => {
    const temp = mkdtempSync(join(tmpdir(), 'writ-run-cleanup-'));
    const run = promisify(execFile);
    const { stdout } = await run(
      process.execPath,
      [
        BIN,
        'run',
        'preview',
        '--repo',
        'acme/widgets',
        '--input',
        `plan-file=${join(REPO_ROOT, 'examples/release-plan.json')}`,
      ],
      {
        env: {
          PATH: process.env.PATH ?? '',
          TMPDIR: temp,
          WRIT_BUNDLE_DIR: process.env.WRIT_BUNDLE_DIR ?? '',
        },
      },
    );
    expect(stdout).toMatch(/outcome: previewed/);
    // Only the runner folders are the command's (tsx keeps its own cache under TMPDIR): one is left,
    // holding only the preview file preview-path names, which the output lists as kept.
    const folders = readdirSync(temp).filter((name) => name.startsWith('writ-run-'));
    expect(folders).toHaveLength(1);
    const left = readdirSync(join(temp, folders[0] ?? ''));
    expect(left).toEqual([expect.stringMatching(/^writ-preview-run-[0-9a-f]+\.md$/)]);
    expect(stdout).toContain(
      `kept (the rest of the runner folder was removed):\n  preview-path: ${join(temp, folders[0] ?? '', left[0] ?? '')}\n`,
    );
  });
});

describe('failure texts: what was tried, on what, and the fix', () => {
  it('names the URL of a refused connection and invents no HTTP status', async () => {
    const port = await closedPort();
    const { code, err } = await writ(['ledger', 'show', '--repo', 'acme/widgets'], {
      GITHUB_TOKEN: 'ghs_x',
      GITHUB_API_URL: `http://127.0.0.1:${port}`,
    });
    expect(code).toBe(1);
    expect(err).toMatch(/^github-request-failed: /);
    expect(err).toContain(`Could not reach http://127.0.0.1:${port}/graphql (ECONNREFUSED)`);
    expect(err).toContain('GitHub Enterprise Server https://<host>/api/v3');
    expect(err).not.toMatch(/HTTP 500/);
  });

  it('says a 401 means the token was rejected', async () => {
    const { env } = await world();
    const { code, err } = await writ(['ledger', 'show', '--repo', 'acme/widgets'], {
      ...env,
      GITHUB_TOKEN: 'ghs_expiredOrRevokedToken0000000000000000',
    });
    expect(code).toBe(1);
    expect(err).toContain('failed with HTTP 401');
    expect(err).toContain('rejected the token (HTTP 401): GITHUB_TOKEN is expired, revoked, mistyped');
    expect(err).not.toContain('ghs_expiredOrRevokedToken');
  });

  it('names the repository and the base URL of a 404, with the GitHub Enterprise Server hint', async () => {
    const { env, url } = await world();
    // A GitHub Enterprise Server URL without /api/v3 answers 404 for every API path.
    const wrongBase = await writ(['ledger', 'show', '--repo', 'acme/widgets'], {
      ...env,
      GITHUB_API_URL: `${url}/nope`,
    });
    expect(wrongBase.code).toBe(1);
    expect(wrongBase.err).toContain(
      `GitHub at ${url}/nope answered 404 for ${url}/nope/graphql for acme/widgets`,
    );
    expect(wrongBase.err).toContain('GitHub Enterprise Server https://<host>/api/v3');
    // A repository that does not exist (GraphQL says NOT_FOUND with HTTP 200).
    const missing = await writ(['ledger', 'show', '--repo', 'acme/gadgets'], env);
    expect(missing.err).toMatch(
      /^github-request-failed: .*GitHub found no repository acme\/gadgets, or the token cannot see it/,
    );
  });

  it('refuses a personal access token for bootstrap --apply before any request', async () => {
    const { env } = await world();
    const before = emulator!.admin.requests().length;
    const { code, err } = await writ(['bootstrap', '--repo', 'acme/widgets', '--apply'], {
      ...env,
      GITHUB_TOKEN: 'ghp_aPersonalAccessToken00000000000000000',
    });
    expect(code).toBe(1);
    expect(err).toMatch(
      /^invalid-input: GITHUB_TOKEN is a personal access token .* use the app's installation token/,
    );
    expect(emulator!.admin.requests().length).toBe(before);
  });

  it("refuses the workflow's GITHUB_TOKEN for bootstrap --apply, naming it, and writes nothing", async () => {
    const { env } = await world();
    emulator!.admin.createToken({ token: 'ghs_theWorkflowsOwnGithubToken0000000000', kind: 'github_token' });
    const { code, err } = await writ(['bootstrap', '--repo', 'acme/widgets', '--apply'], {
      ...env,
      GITHUB_TOKEN: 'ghs_theWorkflowsOwnGithubToken0000000000',
    });
    expect(code).toBe(1);
    expect(err).toMatch(
      /^invalid-input: GITHUB_TOKEN is the workflow's own GITHUB_TOKEN \(it acts as github-actions\[bot\]\)/,
    );
    expect(err).toContain('nothing was written');
    // The branch was never created: bootstrap with the app's token still works.
    const applied = await writ(['bootstrap', '--repo', 'acme/widgets', '--apply'], env);
    expect(applied.code).toBe(0);
    expect(applied.out).toContain('Provenance: PASS');
  });
});
