/** `writ tower --github`: the control tower built from a repository's ledger over the API (the emulator). */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@writ/cli/cli.js';
import { serverUrlOf } from '@writ/cli/commands/tower.js';
import type { SliceWorld } from '../../../test/support/world.js';
import { REPOSITORY, sliceWorld } from '../../../test/support/world.js';
import {
  SWEEPER_TOKEN,
  approvedRun,
  freshPlan,
  mintSweeperTokens,
} from '../../core/test/recovery/support.js';

let world: SliceWorld;
let runId: string;
let env: Record<string, string>;
const dir = mkdtempSync(join(tmpdir(), 'writ-cli-tower-'));

beforeAll(async () => {
  world = await sliceWorld({ seed: 43 });
  mintSweeperTokens(world);
  runId = (await approvedRun(world, freshPlan(dir, 'tower'), { workflow_run_id: 4343, attempt: 1 })).runId;
  env = {
    GITHUB_TOKEN: SWEEPER_TOKEN,
    GITHUB_API_URL: world.emulator.url,
    GITHUB_REPOSITORY: REPOSITORY,
    GITHUB_SERVER_URL: 'https://github.com',
    PWD: dir,
  };
});
afterAll(async () => {
  await world.close();
  rmSync(dir, { recursive: true, force: true });
});

async function writ(
  argv: string[],
  extra: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(
    argv,
    { ...env, ...extra },
    {
      stdout: (text) => (out += text),
      stderr: (text) => (err += text),
    },
  );
  return { code, out, err };
}

describe('writ tower', () => {
  it('writes index.html and tower.json from the ledger into ./writ-tower by default', async () => {
    const result = await writ(['tower', '--github']);
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(result.out).toContain(`Control tower of ${REPOSITORY}`);
    expect(result.out).toContain('1 run(s), 1 active');
    const html = readFileSync(join(dir, 'writ-tower', 'index.html'), 'utf8');
    expect(html).toContain(runId);
    expect(html).toContain('<section id="provenance-timeline">');
    const data = JSON.parse(readFileSync(join(dir, 'writ-tower', 'tower.json'), 'utf8')) as {
      runs: { run_id: string; state: string }[];
      timeline: { link: string }[];
      health: { last_recovery_sweep: unknown };
    };
    expect(data.runs).toEqual([expect.objectContaining({ run_id: runId, state: 'approved' })]);
    expect(data.timeline[0]?.link).toMatch(/^https:\/\/github\.com\/acme\/widgets\/blob\/[0-9a-f]{40}\//);
    expect(data.health.last_recovery_sweep).toBeNull();
  });

  it('takes --out and --commits, and prints JSON with --json', async () => {
    const result = await writ(['tower', '--github', '--out', 'preview', '--commits', '2', '--json']);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.out) as {
      result: string;
      files: string[];
      tower: { timeline: unknown[] };
    };
    expect(printed.result).toBe('written');
    expect(printed.files).toEqual([join(dir, 'preview', 'index.html'), join(dir, 'preview', 'tower.json')]);
    expect(printed.tower.timeline).toHaveLength(2);
    expect(existsSync(join(dir, 'preview', 'index.html'))).toBe(true);
  });

  it('refuses without --github and with a bad --commits, naming both', async () => {
    const result = await writ(['tower', '--commits', '0']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^invalid-input: 2 problems with the arguments of writ tower/);
    expect(result.err).toContain('writ tower needs --github');
    expect(result.err).toContain('invalid --commits: expected an integer from 1 to 500');
  });

  it('says the ledger branch is missing for a repository without one', async () => {
    const result = await writ(['tower', '--github', '--branch', 'bot/other-ledger']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^ledger-branch-missing: /);
  });

  it('prints its help', async () => {
    const result = await writ(['tower', '--help']);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^Usage: writ tower --github/);
    expect((await writ(['--help'])).out).toContain('writ tower --github');
  });

  it.each([
    [{}, 'https://api.github.com', 'https://github.com'],
    [{}, 'https://api.acme.ghe.com', 'https://acme.ghe.com'],
    [{}, 'https://ghe.acme.test:8443/api/v3', 'https://ghe.acme.test'],
    [{ GITHUB_SERVER_URL: 'https://ghe.acme.test/' }, 'https://x.test/api/v3', 'https://ghe.acme.test'],
    [{ GITHUB_API_URL: 'https://api.github.com' }, null, 'https://github.com'],
  ])('links to the web origin of the API (%j, %s)', (extra, apiUrl, expected) => {
    expect(serverUrlOf(extra, { repository: REPOSITORY, source: '--repo', apiUrl })).toBe(expected);
  });
});
