import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { startEmulator } from '@writ/github-emulator/index.js';
import type { Emulator } from '@writ/github-emulator/index.js';
import { ledgerRulesets } from '@writ/core/ledger/rulesets.js';
import { runCli } from '@writ/cli/cli.js';

const BIN = fileURLToPath(new URL('../bin/writ.js', import.meta.url));
const TOKEN = 'ghs_cliLedgerAppToken0000000000000000000';

let emulator: Emulator | undefined;
const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function world(
  withRuleset = true,
): Promise<{ env: Record<string, string>; appId: number; rulesetIds: number[] }> {
  emulator = await startEmulator({ seed: 3, startTime: Date.parse('2026-11-30T09:00:00Z') });
  const { admin } = emulator;
  admin.createUser({ login: 'acme' });
  const app = admin.createApp({ slug: 'writ-ledger' });
  admin.createToken({
    token: TOKEN,
    kind: 'installation',
    app: 'writ-ledger',
    permissions: { contents: 'write', administration: 'write' },
  });
  admin.createRepo({ owner: 'acme', name: 'widgets', files: { 'README.md': 'x\n' } });
  const rulesetIds: number[] = [];
  if (withRuleset) {
    for (const ruleset of ledgerRulesets('bot/writ-ledger', app.app_id))
      rulesetIds.push(admin.addRuleset('acme', 'widgets', ruleset).id);
  }
  admin.clock({ advance_ms: 1000 });
  return {
    appId: app.app_id,
    rulesetIds,
    env: {
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: emulator.url,
      GITHUB_REPOSITORY: 'acme/widgets',
      WRIT_APP_SLUG: 'writ-ledger',
      WRIT_APP_ID: String(app.app_id),
    },
  };
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

describe('writ bootstrap', () => {
  it('prints the proposed payload and writes nothing without --apply', async () => {
    const { env } = await world();
    const result = await writ(['bootstrap', '--repo', 'acme/widgets', '--json'], env);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out)).toEqual({
      dry_run: true,
      create_root: true,
      repository: 'acme/widgets',
      branch: 'bot/writ-ledger',
      files: [
        {
          path: 'ledger-root.json',
          contents: {
            schema: 1,
            repository: 'acme/widgets',
            branch: 'bot/writ-ledger',
            // The two protecting rulesets, pinned (ID, updated_at, content digest).
            rulesets: [0, 1].map(() => ({
              id: expect.any(Number),
              updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
              digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
            })),
          },
        },
      ],
      checks: [
        { check: 'branch-absent', status: 'PASS', detail: 'bot/writ-ledger does not exist yet' },
        {
          check: 'app-identity',
          status: 'PASS',
          detail: expect.stringMatching(/^writ-ledger\[bot\], app ID \d+$/),
        },
        {
          check: 'rulesets',
          status: 'PASS',
          detail: expect.stringMatching(/^rulesets \d+, \d+ protect bot\/writ-ledger$/),
        },
      ],
      rulesets: ledgerRulesets('bot/writ-ledger', Number(env.WRIT_APP_ID)),
    });
    const show = await writ(['ledger', 'show'], env);
    expect(show.code).toBe(1);
    expect(show.err).toMatch(/^ledger-branch-missing: /);
  });

  it('creates the root with --apply, re-runs provenance, and refuses a second bootstrap', async () => {
    const { env } = await world();
    const applied = await writ(['bootstrap', '--repo', 'acme/widgets', '--apply'], env);
    expect(applied.err).toBe('');
    expect(applied.out).toContain('Provenance: PASS');
    const again = await writ(['bootstrap', '--repo', 'acme/widgets'], env);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/^ledger-branch-exists: /);
    const verify = await writ(['ledger', 'verify', '--json'], env);
    expect(verify.code).toBe(0);
    expect(JSON.parse(verify.out)).toMatchObject({ result: 'PASS', mode: 'full', commits: 1 });
    const show = await writ(['ledger', 'show'], env);
    expect(show.out).toContain('Lease: free (epoch 0)');
    expect(show.out).toContain('Runs: 0');
  });

  it('refuses --apply without the rulesets before writing anything; the dry run reports the same check', async () => {
    const { env } = await world(false);
    const dry = await writ(['bootstrap', '--json'], env);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.out)).toMatchObject({
      dry_run: true,
      checks: [
        { check: 'branch-absent', status: 'PASS' },
        { check: 'app-identity', status: 'PASS' },
        { check: 'rulesets', status: 'FAIL' },
      ],
      rulesets: [
        { name: 'writ-ledger-append-only', bypass_actors: [] },
        { name: 'writ-ledger-writers', rules: [{ type: 'update' }] },
      ],
    });
    const applied = await writ(['bootstrap', '--apply'], env);
    expect(applied.code).toBe(1);
    expect(applied.err).toMatch(
      /^ledger-provenance-unproven: Bootstrap refused before writing anything: The ledger branch bot\/writ-ledger lacks an active ruleset with no bypass actors blocking deletion/,
    );
    // Nothing was left behind: the branch does not exist, so a bootstrap can run again once fixed.
    const verify = await writ(['ledger', 'verify', '--json'], env);
    expect(verify.code).toBe(1);
    expect(JSON.parse(verify.out)).toMatchObject({ result: 'FAIL', code: 'ledger-branch-missing' });
  });

  it.each([
    [['bootstrap', '--repo', 'acme'], 'invalid-input: Invalid --repo'],
    [['bootstrap', '--apply'], 'invalid-input: bootstrap --apply needs the ledger app identity'],
    [['ledger', 'verify'], 'invalid-input: ledger verify needs the ledger app identity'],
    [['ledger', 'frobnicate'], 'invalid-input: Unknown ledger command'],
    [['deploy'], 'invalid-input: Unknown command'],
    [['bootstrap', '--nope'], 'invalid-input: '],
  ])('refuses %j with a coded message', async (argv, expected) => {
    const env = {
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: 'http://127.0.0.1:9',
      GITHUB_REPOSITORY: 'acme/widgets',
    };
    const result = await writ(argv, env);
    expect(result.code).toBe(1);
    expect(result.err.startsWith(expected)).toBe(true);
  });

  it('refuses a bootstrap whose app has administration read only, saying exactly that; accepts it with read and write', async () => {
    // The repository comes from the clone's Git remote, as writ init found it: no --repo, no GITHUB_REPOSITORY.
    const { env, rulesetIds } = await world();
    const clone = mkdtempSync(join(tmpdir(), 'writ-bootstrap-'));
    scratch.push(clone);
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: clone });
    execFileSync('git', ['remote', 'add', 'origin', 'https://github.com/acme/widgets.git'], { cwd: clone });
    const here: Record<string, string> = { ...env, PWD: clone };
    delete here.GITHUB_REPOSITORY;
    const readOnly = 'ghs_cliLedgerAppTokenAdminRead000000000';
    emulator?.admin.createToken({
      token: readOnly,
      kind: 'installation',
      app: 'writ-ledger',
      permissions: { contents: 'write', administration: 'read' },
    });
    const first = Math.min(...rulesetIds);
    const refusal =
      `Ruleset ${first} applies to bot/writ-ledger, but its bypass actors are not visible to this token ` +
      '(GitHub shows bypass_actors only to a token that can write rulesets), so the ledger branch cannot ' +
      'be proven append-only: grant the Writ app administration read and write, then run it again (the ' +
      'rulesets exist; do not recreate them).';
    // Before: the dry run marks the rulesets UNKNOWN (not FAIL: they exist), and --apply refuses.
    const dry = await writ(['bootstrap', '--json'], { ...here, GITHUB_TOKEN: readOnly });
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.out)).toMatchObject({
      repository: 'acme/widgets',
      checks: [
        { check: 'branch-absent', status: 'PASS' },
        { check: 'app-identity', status: 'PASS' },
        { check: 'rulesets', status: 'UNKNOWN', detail: refusal },
      ],
    });
    const before = await writ(['bootstrap', '--apply'], { ...here, GITHUB_TOKEN: readOnly });
    expect(before.code).toBe(1);
    expect(before.err).toBe(
      `ruleset-bypass-unreadable: Bootstrap refused before writing anything: ${refusal} — ` +
        'https://github.com/writ-actions/writ/blob/main/docs/errors.md#ruleset-bypass-unreadable\n',
    );
    expect(before.err).not.toMatch(/Create the two rulesets/);
    // A read-only check says the same, with the same code.
    const verifyBefore = await writ(['ledger', 'verify', '--json'], { ...here, GITHUB_TOKEN: readOnly });
    expect(JSON.parse(verifyBefore.out)).toMatchObject({ result: 'FAIL', code: 'ledger-branch-missing' });
    // After: the same app, granted administration read and write (a new installation token).
    const after = await writ(['bootstrap', '--apply'], here);
    expect(after.err).toBe('');
    expect(after.code).toBe(0);
    expect(after.out).toMatch(
      /^Created the ledger root [0-9a-f]{40} on bot\/writ-ledger in acme\/widgets\.\nProvenance: PASS\n$/,
    );
    // Once the root exists, a read-only token's verify refuses with the same code and cause.
    const verify = await writ(['ledger', 'verify'], { ...here, GITHUB_TOKEN: readOnly });
    expect(verify.code).toBe(1);
    expect(verify.err).toContain(`ruleset-bypass-unreadable: Ruleset `);
    expect(verify.err).toContain('do not recreate them');
  });

  it('runs as the `writ` bin in a child process', async () => {
    const { env } = await world();
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, 'bootstrap', '--apply', '--json'], {
      env: { ...process.env, ...env },
    });
    expect(JSON.parse(stdout)).toMatchObject({ dry_run: false, provenance: 'PASS' });
  });
});
