/**
 * The recovery action's `tower-dir` as the runner starts it (INPUT_* in, outputs, summary and log out)
 * against the emulator: the site is written after the sweep, and a tower that cannot be written is one
 * `tower-build-failed` warning while the sweep's outputs stay exactly what they are without it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { run as runRecovery } from '../../src/stages/recovery.js';
import type { SliceWorld } from '../../../../test/support/world.js';
import { sliceWorld } from '../../../../test/support/world.js';
import { SWEEPER_TOKEN, approvedRun, freshPlan, mintSweeperTokens } from '../recovery/support.js';
import type { RunnerEnv } from '../stages/support/runner-env.js';
import { runnerEnv } from '../stages/support/runner-env.js';

let world: SliceWorld;
let runId: string;

beforeAll(async () => {
  world = await sliceWorld({ seed: 34 });
  mintSweeperTokens(world);
  const scratch = runnerEnv({});
  runId = (await approvedRun(world, freshPlan(scratch.dir, 'stage'), { workflow_run_id: 3401, attempt: 1 }))
    .runId;
  scratch.restore();
});
afterAll(async () => {
  await world.close();
});

async function recover(towerDir: string | null): Promise<RunnerEnv> {
  const env = runnerEnv(
    {
      ...world.ledgerInputs(),
      token: SWEEPER_TOKEN,
      'dry-run': 'true',
      ...(towerDir === null ? {} : { 'tower-dir': towerDir }),
    },
    { env: { GITHUB_API_URL: world.emulator.url } },
  );
  await runRecovery();
  return env;
}

describe('recovery with tower-dir', () => {
  it('writes the site into tower-dir after the sweep and says so in the summary', async () => {
    const env = await recover('site/tower');
    try {
      expect(env.outputs()).toMatchObject({ outcome: 'dry-run', scanned: '1', reason: '', tower: 'written' });
      expect(env.summary()).toContain('Control tower: index.html and tower.json written to `tower-dir`.');
      const html = readFileSync(join(env.dir, 'site/tower/index.html'), 'utf8');
      expect(html).toContain(runId);
      const data = JSON.parse(readFileSync(join(env.dir, 'site/tower/tower.json'), 'utf8')) as {
        health: { last_recovery_sweep: { scanned: number; dry_run: boolean } };
      };
      expect(data.health.last_recovery_sweep).toMatchObject({ scanned: 1, dry_run: true });
    } finally {
      env.restore();
    }
  });

  it('a tower-dir outside the workspace is one warning and tower: not-written; the sweep outcome and outputs are unchanged', async () => {
    const plain = await recover(null);
    const without = plain.outputs();
    plain.restore();
    const env = await recover('/proc/writ-tower');
    try {
      // The sweep's outputs are the same; `tower` says the site was not written.
      expect(without).not.toHaveProperty('tower');
      expect(env.outputs()).toEqual({ ...without, tower: 'not-written' });
      expect(env.summary()).toContain(
        'Control tower: not written (`tower-build-failed`: `invalid-input`); the sweep above stands.',
      );
      const warnings = env.stdout.filter((line) => line.startsWith('::warning::'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('tower-build-failed: the control tower was not written (invalid-input)');
      expect(existsSync('/proc/writ-tower')).toBe(false);
      expect(process.exitCode ?? 0).toBe(0);
    } finally {
      env.restore();
    }
  });
});
