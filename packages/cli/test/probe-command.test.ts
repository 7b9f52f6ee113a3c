import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { runCli } from '@writ/cli/cli.js';
import type { ProbeEvidence } from '@writ/core/probe/evidence.js';
import { evidenceProblems } from '@writ/core/probe/evidence.js';
import type { ProbeWorld } from '../../core/test/probe/support.js';
import {
  CURRENT,
  REPOSITORY_TOKEN,
  SANDBOX,
  SANDBOX_TOKEN,
  probeWorld,
} from '../../core/test/probe/support.js';

let world: ProbeWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function writ(
  argv: string[],
  env: Record<string, string>,
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, env, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { code, out, err };
}

describe('writ probe', () => {
  it('runs the same core as the stage: a dry run, then --apply writes the evidence, then --explain reads it', async () => {
    world = await probeWorld();
    const env = {
      GITHUB_API_URL: world.emulator.url,
      GITHUB_TOKEN: SANDBOX_TOKEN,
      WRIT_REPOSITORY_TOKEN: REPOSITORY_TOKEN,
      GITHUB_REPOSITORY: CURRENT,
    };
    const args = ['probe', '--repo', SANDBOX, '--confirm-sandbox', SANDBOX, '--probe-run', 'cli-1'];
    const before = world.emulator.admin.requests().length;
    const dry = await writ(args, env);
    expect(dry.code).toBe(0);
    expect(dry.out).toMatch(/dry run: nothing written/);
    expect(
      world.emulator.admin
        .requests()
        .slice(before)
        .every((r) => r.method === 'GET'),
    ).toBe(true);

    const dir = mkdtempSync(join(tmpdir(), 'writ-probe-cli-'));
    const evidencePath = join(dir, 'evidence.json');
    const cwd = process.cwd();
    process.chdir(dir);
    let applied;
    try {
      applied = await writ([...args, '--apply', '--evidence-file', 'evidence.json'], env);
    } finally {
      process.chdir(cwd);
    }
    expect(applied.err).toBe('');
    expect(applied.out).toContain(
      '| 1 | milestone description edit after an external description edit | **negative** |',
    );
    const evidence = JSON.parse(readFileSync(evidencePath, 'utf8')) as ProbeEvidence;
    expect(evidenceProblems(evidence)).toEqual([]);

    const explained = await writ(['probe', '--explain', evidencePath, '--now', '2026-12-01T00:00:00Z'], {});
    expect(explained.code).toBe(0);
    expect(explained.out).toContain(
      '- issue.set-milestone: stays closed: case 2a negative, case 2b negative, case 3a negative, case 3b negative',
    );
    const stale = await writ(['probe', '--explain', evidencePath, '--now', '2027-01-15T00:00:00Z'], {});
    expect(stale.out).toMatch(
      /issue\.create: stays closed: the evidence finished at .* more than 30 days ago/,
    );
  });

  it('refuses an unconfirmed sandbox and an invalid evidence file with their codes', async () => {
    world = await probeWorld();
    const env = {
      GITHUB_API_URL: world.emulator.url,
      GITHUB_TOKEN: SANDBOX_TOKEN,
      WRIT_REPOSITORY_TOKEN: REPOSITORY_TOKEN,
    };
    const refused = await writ(['probe', '--repo', SANDBOX, '--from', CURRENT, '--apply'], env);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^probe-repository-refused: /);
    const bad = join(mkdtempSync(join(tmpdir(), 'writ-probe-cli-')), 'bad.json');
    writeFileSync(bad, '{"schema":1}');
    const invalid = await writ(['probe', '--explain', bad], {});
    expect(invalid.err).toMatch(/^invalid-input: the evidence file does not validate/);
    const help = await writ(['probe', '--help'], {});
    expect(help.out).toMatch(/^Usage: writ probe --repo/);
  });
});
