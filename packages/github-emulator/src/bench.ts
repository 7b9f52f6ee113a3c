/**
 * Measures the emulator's startup time (the `writ-emulator` bin, from spawn to its JSON line) and the
 * time for 1,000 simple REST requests over loopback. Run: `npx tsx packages/github-emulator/src/bench.ts`.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { startEmulator } from './server.js';

async function measureStartup(): Promise<number> {
  const bin = fileURLToPath(new URL('../bin/writ-emulator.js', import.meta.url));
  const started = performance.now();
  const child = spawn(process.execPath, [bin, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.setEncoding('utf8');
  let output = '';
  while (!output.includes('\n')) {
    const [chunk] = (await once(child.stdout, 'data')) as [string];
    output += chunk;
  }
  const elapsed = performance.now() - started;
  child.kill('SIGTERM');
  await once(child, 'exit');
  return elapsed;
}

async function measureRequests(
  count: number,
  concurrency: number,
): Promise<{ sequential: number; concurrent: number; writes: number }> {
  const emulator = await startEmulator({ seed: 1 });
  try {
    emulator.admin.createUser({ login: 'alice' });
    emulator.admin.createApp({ slug: 'bench' });
    emulator.admin.createToken({ token: 't', kind: 'installation', app: 'bench' });
    emulator.admin.createRepo({ owner: 'alice', name: 'repo', files: { 'README.md': 'x' } });
    const headers = { authorization: 'token t' };
    const get = async (): Promise<void> => {
      const response = await fetch(`${emulator.url}/repos/alice/repo/git/ref/heads/main`, { headers });
      if (response.status !== 200) throw new Error(`status ${response.status}`);
      await response.arrayBuffer();
    };
    let started = performance.now();
    for (let index = 0; index < count; index++) await get();
    const sequential = performance.now() - started;
    started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next++ < count) await get();
      }),
    );
    const concurrent = performance.now() - started;
    started = performance.now();
    for (let index = 0; index < count; index++) {
      const response = await fetch(`${emulator.url}/repos/alice/repo/issues`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `issue ${index}` }),
      });
      if (response.status !== 201) throw new Error(`status ${response.status}`);
      await response.arrayBuffer();
    }
    const writes = performance.now() - started;
    return { sequential, concurrent, writes };
  } finally {
    await emulator.close();
  }
}

const startup = await measureStartup();
const requests = await measureRequests(1000, 10);
process.stdout.write(
  `${JSON.stringify({
    startup_ms: Math.round(startup),
    get_ref_1000_sequential_ms: Math.round(requests.sequential),
    get_ref_1000_concurrency10_ms: Math.round(requests.concurrent),
    create_issue_1000_sequential_ms: Math.round(requests.writes),
  })}\n`,
);
