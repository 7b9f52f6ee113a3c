/** The `writ-emulator` bin: its one JSON line, its admin API, SIGTERM, and refusing an unknown argument. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const bin = fileURLToPath(new URL('../bin/writ-emulator.js', import.meta.url));

describe('writ-emulator bin', () => {
  it('prints one JSON line with its URLs, serves the admin API and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [bin, '--port', '0', '--seed', '7'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      child.stdout.setEncoding('utf8');
      while (!output.includes('\n')) {
        const [chunk] = (await once(child.stdout, 'data')) as [string];
        output += chunk;
      }
      const line = JSON.parse(output.split('\n')[0] ?? '') as {
        url: string;
        graphqlUrl: string;
        adminUrl: string;
      };
      expect(line.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(line.graphqlUrl).toBe(`${line.url}/graphql`);
      expect(line.adminUrl).toBe(`${line.url}/_emulator`);
      const info = (await (await fetch(line.adminUrl)).json()) as { seed: number };
      expect(info.seed).toBe(7);
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  it('--secondary-limits switches on GitHub’s secondary limit on content creation (off without it)', async () => {
    for (const [args, expected] of [
      [['--secondary-limits'], { perMinute: 80, perHour: 500 }],
      [[], null],
    ] as const) {
      const child = spawn(process.execPath, [bin, '--port', '0', ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        let output = '';
        child.stdout.setEncoding('utf8');
        while (!output.includes('\n')) {
          const [chunk] = (await once(child.stdout, 'data')) as [string];
          output += chunk;
        }
        const { adminUrl } = JSON.parse(output.split('\n')[0] ?? '') as { adminUrl: string };
        const settings = (await (
          await fetch(`${adminUrl}/settings`, { method: 'POST', body: '{}' })
        ).json()) as { secondary_limits: unknown };
        expect(settings.secondary_limits).toEqual(expected);
      } finally {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
    }
  });

  it('refuses an unknown argument with a message naming it', async () => {
    const child = spawn(process.execPath, [bin, '--bogus'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(stderr).toContain("Unknown argument '--bogus'");
  });
});
