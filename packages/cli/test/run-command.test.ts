import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../src/cli.js';
import { REPO_ROOT } from '../src/run-stage.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) }, out, err };
}

describe('writ run', () => {
  it('runs a stage bundle with inputs and prints its outputs and summary', async () => {
    const { io, out } = capture();
    const status = await runCli(
      [
        'run',
        'preview',
        '--repo',
        'acme/widgets',
        '--input',
        `plan-file=${join(REPO_ROOT, 'examples/release-plan.json')}`,
      ],
      {},
      io,
    );
    expect(status).toBe(0);
    expect(out.join('')).toMatch(/outcome: previewed/);
    expect(out.join('')).toMatch(/--- job summary\n## Writ plan preview/);
  });

  it('reads an env file and reports a coded failure as JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'writ-run-'));
    const envFile = join(dir, '.env');
    writeFileSync(envFile, 'GITHUB_REPOSITORY=acme/widgets\n');
    const { io, out } = capture();
    const status = await runCli(
      ['run', 'preview', '--env-file', envFile, '--input', 'plan-file=/nope.json', '--json'],
      {},
      io,
    );
    expect(status).toBe(1);
    expect(JSON.parse(out.join(''))).toMatchObject({ status: 1, outputs: { reason: 'plan-file-not-found' } });
  });

  it('refuses malformed arguments with invalid-input', async () => {
    for (const argv of [
      ['run'],
      ['run', 'preview', '--input', 'novalue'],
      ['run', 'nope'],
      ['run', 'preview', '--event', '/nope.json'],
    ]) {
      const { io, err } = capture();
      expect(await runCli(argv, {}, io)).toBe(1);
      expect(err.join('')).toMatch(/^invalid-input: /);
    }
  });

  it('refuses a GITHUB_API_URL carrying credentials, from the environment or an env file, without printing them', async () => {
    const secret = 'ghp_NotARealTokenButSecret0000000000000000';
    const url = `https://x-access-token:${secret}@ghe.example.com/api/v3`;
    const dir = mkdtempSync(join(tmpdir(), 'writ-run-'));
    const envFile = join(dir, '.env');
    writeFileSync(envFile, `GITHUB_API_URL=${url}\n`);
    const plan = `plan-file=${join(REPO_ROOT, 'examples/release-plan.json')}`;
    for (const [argv, env] of [
      [['run', 'preview', '--repo', 'acme/widgets', '--input', plan], { GITHUB_API_URL: url }],
      [['run', 'preview', '--repo', 'acme/widgets', '--input', plan, '--env-file', envFile], {}],
      [['ledger', 'show', '--repo', 'acme/widgets'], { GITHUB_API_URL: url, GITHUB_TOKEN: 'ghs_x' }],
      [['bootstrap', '--repo', 'acme/widgets', '--json'], { GITHUB_API_URL: url, GITHUB_TOKEN: 'ghs_x' }],
    ] as [string[], Record<string, string>][]) {
      const { io, out, err } = capture();
      expect(await runCli(argv, env, io)).toBe(1);
      expect(err.join('')).toMatch(/^invalid-input: GITHUB_API_URL carries credentials/);
      expect(`${out.join('')}${err.join('')}`).not.toContain(secret);
      expect(`${out.join('')}${err.join('')}`).not.toContain('x-access-token');
    }
  });
});
