import { describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCli } from '../src/cli.js';
import { REPO_ROOT, outputFilesIn } from '../src/run-stage.js';

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

  it('keeps the file preview-path names, removes the rest of the temporary runner folder, and says where', async () => {
    const { io, out } = capture();
    const plan = `plan-file=${join(REPO_ROOT, 'examples/release-plan.json')}`;
    expect(await runCli(['run', 'preview', '--repo', 'acme/widgets', '--input', plan], {}, io)).toBe(0);
    const text = out.join('');
    const path = /^ {2}preview-path: (.+)$/m.exec(text)?.[1] ?? '';
    const kept = /\nkept \(the rest of the runner folder was removed\):\n {2}preview-path: (.+)\n/.exec(
      text,
    )?.[1];
    expect(kept).toBe(path.trim());
    try {
      expect(readFileSync(path.trim(), 'utf8')).toMatch(/^## Writ plan preview/m);
      // Only the named file is left: no output, state, summary or event file.
      expect(readdirSync(dirname(path.trim()))).toEqual([path.trim().slice(dirname(path.trim()).length + 1)]);
      // The kept list comes before the job summary, where it is seen.
      expect(text.indexOf('kept (')).toBeLessThan(text.indexOf('--- job summary'));
    } finally {
      rmSync(dirname(path.trim()), { recursive: true, force: true });
    }
  });

  it('with --keep <dir> runs in that folder and keeps all of it, in text and JSON', async () => {
    const base = mkdtempSync(join(tmpdir(), 'writ-keep-'));
    try {
      const keep = join(base, 'runner');
      const plan = `plan-file=${join(REPO_ROOT, 'examples/release-plan.json')}`;
      const { io, out } = capture();
      expect(
        await runCli(
          ['run', 'preview', '--repo', 'acme/widgets', '--input', plan, '--keep', keep, '--json'],
          {},
          io,
        ),
      ).toBe(0);
      const result = JSON.parse(out.join('')) as {
        outputs: Record<string, string>;
        kept: { dir: string; whole: boolean; files: Record<string, string> };
      };
      const previewPath = result.outputs['preview-path'] ?? '';
      expect(dirname(previewPath)).toBe(keep);
      expect(result.kept).toEqual({ dir: keep, whole: true, files: { 'preview-path': previewPath } });
      expect(readdirSync(keep).sort()).toEqual(
        ['event.json', 'output', 'state', 'summary.md', previewPath.slice(keep.length + 1)].sort(),
      );
      expect(readFileSync(join(keep, 'output'), 'utf8')).toContain(previewPath);
      const text = capture();
      expect(
        await runCli(
          ['run', 'preview', '--repo', 'acme/widgets', '--input', plan, '--keep', keep],
          {},
          text.io,
        ),
      ).toBe(0);
      expect(text.out.join('')).toContain(
        `runner folder kept: ${keep} (RUNNER_TEMP, output, state, summary.md, event.json)\nfiles the outputs name:\n  preview-path: ${previewPath}\n`,
      );
      const file = join(base, 'file');
      writeFileSync(file, '');
      const refused = capture();
      expect(
        await runCli(
          ['run', 'preview', '--repo', 'acme/widgets', '--input', plan, '--keep', file],
          {},
          refused.io,
        ),
      ).toBe(1);
      expect(refused.err.join('')).toMatch(/^invalid-input: .*--keep .* exists and is not a directory/);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('names as output files only regular files inside the runner folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'writ-outputs-'));
    try {
      writeFileSync(join(dir, 'a.md'), 'a');
      const outside = mkdtempSync(join(tmpdir(), 'writ-outside-'));
      writeFileSync(join(outside, 'b.md'), 'b');
      expect(
        outputFilesIn(dir, {
          inside: join(dir, 'a.md'),
          relative: 'a.md',
          outside: join(outside, 'b.md'),
          escape: `${dir}/../${outside.slice(tmpdir().length + 1)}/b.md`,
          folder: dir,
          missing: join(dir, 'nope.md'),
          text: 'previewed',
        }),
      ).toEqual({ inside: join(dir, 'a.md'), relative: join(dir, 'a.md') });
      rmSync(outside, { recursive: true, force: true });
      expect(existsSync(join(dir, 'a.md'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
