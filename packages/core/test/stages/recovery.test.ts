/**
 * The recovery stage in-process: its inputs through the real @actions/core reader, `recoveryStage(settings,
 * deps)` against the emulator with the real Octokit and persist's own step observer, and `main` as the
 * runner starts it (INPUT_* in, outputs and summary out).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WritError } from '../../src/errors.js';
import { stageIo } from '../../src/io/action-io.js';
import { silentLogger } from '../../src/redact.js';
import { connectRecovery } from '../../src/stages/recovery.js';
import type { RecoveryStageSettings } from '../../src/stages/recovery.js';
import { readRecoverySettings } from '../../src/stages/recovery.js';
import { readServerUrl } from '../../src/stages/context.js';
import type { RecoveryReport } from '../../src/recovery/recover.js';
import { renderRecoverySummary } from '../../src/stages/recovery.js';
import { run as runRecovery } from '../../src/stages/recovery.js';
import { recoveryStage } from '../../src/stages/recovery.js';
import type { SliceWorld } from '../../../../test/support/world.js';
import { APP_SLUG, OWNER, REPO, sliceWorld } from '../../../../test/support/world.js';
import {
  NO_ACTIONS_TOKEN,
  SWEEPER_TOKEN,
  approvedRun,
  claimFirst,
  expireLeases,
  freshPlan,
  mintSweeperTokens,
} from '../recovery/support.js';
import type { RunnerEnv } from './support/runner-env.js';
import { runnerEnv } from './support/runner-env.js';

let env: RunnerEnv | undefined;
let world: SliceWorld | undefined;
const dir = mkdtempSync(join(tmpdir(), 'writ-recovery-stage-'));
let plans = 0;
const HOLDER = { workflow_run_id: 4100, attempt: 1 };

afterEach(async () => {
  env?.restore();
  env = undefined;
  await world?.close();
  world = undefined;
});

function failure(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error: unknown) {
    if (error instanceof WritError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a coded failure');
}

const LEDGER = {
  token: 'ghs_stageInputsToken000000000000000000',
  'ledger-app-slug': 'writ',
  'ledger-app-id': '12',
};

describe('recovery inputs', () => {
  it('reads every input with its defaults, the holder from the runner and github.com as the server', () => {
    env = runnerEnv(LEDGER, { env: { GITHUB_SERVER_URL: undefined } });
    expect(readRecoverySettings(stageIo('recovery'))).toMatchObject({
      repository: { owner: 'acme', repo: 'widgets', full: 'acme/widgets' },
      serverUrl: 'https://github.com',
      dryRun: true,
      commandPrefix: 'writ',
      actionsToken: null,
      planFile: null,
      allowedRoles: ['admin', 'maintain', 'write'],
      requireDistinctApprover: false,
      holder: { workflow_run_id: 4242, attempt: 2 },
      ledger: { app: { slug: 'writ', id: 12 } },
    });
  });

  it('takes an actions token, a plan file, roles and a GHES server URL', () => {
    env = runnerEnv(
      {
        ...LEDGER,
        'actions-token': 'ghs_actionsReadToken00000000000000000000',
        'plan-file': 'plan.json',
        'allowed-roles': 'admin,maintain',
        'require-distinct-approver': 'true',
        'dry-run': 'false',
      },
      { env: { GITHUB_SERVER_URL: 'https://ghe.example.com/' } },
    );
    expect(readRecoverySettings(stageIo('recovery'))).toMatchObject({
      serverUrl: 'https://ghe.example.com',
      actionsToken: 'ghs_actionsReadToken00000000000000000000',
      planFile: 'plan.json',
      allowedRoles: ['admin', 'maintain'],
      requireDistinctApprover: true,
      dryRun: false,
    });
  });

  it.each([
    [
      'command-prefix',
      'Writ!',
      /input 'command-prefix' must be 1-32 of \[a-z0-9-\] starting with a letter \(got 5 characters\)/,
    ],
    ['dry-run', 'perhaps', /input 'dry-run' must be true or false/],
    ['require-distinct-approver', 'sometimes', /input 'require-distinct-approver' must be true or false/],
    ['allowed-roles', ' , ', /input 'allowed-roles' names no role/],
    ['ledger-app-id', 'twelve', /ledger-app-id/],
  ])('refuses %s %j as invalid-input, naming it', (input, value, message) => {
    env = runnerEnv({ ...LEDGER, [input]: value });
    const refused = failure(() => readRecoverySettings(stageIo('recovery')));
    expect(refused.code).toBe('invalid-input');
    expect(refused.message).toMatch(message);
  });

  it.each([
    'http://github.example.com',
    'https://ghe.example.com/path',
    'https://user@ghe.example.com',
    'ftp://x',
  ])('refuses GITHUB_SERVER_URL %j: https://<host> and nothing else', (value) => {
    expect(failure(() => readServerUrl(value))).toEqual({
      code: 'invalid-input',
      message: 'environment variable GITHUB_SERVER_URL must be https://<host>',
    });
  });
});

describe('recovery stage, in-process against the emulator', () => {
  beforeEach(async () => {
    world = await sliceWorld({ seed: 31 });
    mintSweeperTokens(world);
  });

  function settings(overrides: Partial<RecoveryStageSettings> = {}): RecoveryStageSettings {
    return {
      apiUrl: (world as SliceWorld).emulator.url,
      serverUrl: 'https://github.com',
      repository: { owner: OWNER, repo: REPO, full: `${OWNER}/${REPO}` },
      dryRun: false,
      commandPrefix: 'writ',
      ledger: {
        token: SWEEPER_TOKEN,
        branch: 'bot/writ-ledger',
        app: { slug: APP_SLUG, id: (world as SliceWorld).appId },
        leaseMs: 600_000,
      },
      actionsToken: null,
      planFile: null,
      planRoots: { workspace: dir, runnerTemp: dir },
      allowedRoles: ['admin', 'maintain', 'write'],
      requireDistinctApprover: false,
      holder: { workflow_run_id: 9100, attempt: 1 },
      ...overrides,
    };
  }

  function deps(current: RecoveryStageSettings, actionsToken: string | null = null) {
    return connectRecovery(
      { apiUrl: current.apiUrl, repository: current.repository.full },
      current.ledger,
      actionsToken,
      silentLogger,
    );
  }

  /** A run approved by a holder that died with its first step claimed, its lease expired. */
  async function crashed(): Promise<{ runId: string; planFile: string }> {
    plans += 1;
    const planFile = freshPlan(dir, `stage-${plans}`);
    const { runId, epoch } = await approvedRun(world as SliceWorld, planFile, HOLDER);
    await claimFirst(world as SliceWorld, runId, { run_id: runId, ...HOLDER }, epoch);
    expireLeases(world as SliceWorld);
    return { runId, planFile };
  }

  it('sweeps an empty ledger: nothing scanned, every count 0, no resumable run', async () => {
    const current = settings();
    const result = await recoveryStage(current, deps(current));
    expect(result.outputs).toEqual({
      scanned: 0,
      'taken-over': 0,
      reconciled: 0,
      'needs-reconciliation': 0,
      'resumable-runs': '[]',
      'approvals-recovered': 0,
      repaired: 0,
      outcome: 'swept',
      reason: '',
    });
    expect(result.summary).toMatch(
      /^## Writ recovery sweep\n\nLedger head `[0-9a-f]{40}`: 0 run\(s\) scanned/,
    );
    expect(result.summary).not.toContain('| run |');
  });

  it('a dry run reports the takeover it would make and writes nothing', async () => {
    const { runId, planFile } = await crashed();
    const current = settings({ dryRun: true, planFile });
    const before = (world as SliceWorld).emulator.admin
      .requests()
      .filter((entry) => entry.mutations.length > 0).length;
    const result = await recoveryStage(current, deps(current));
    // It counts the takeover it would make; the ledger is not written.
    expect(result.outputs).toMatchObject({ scanned: 1, outcome: 'dry-run', 'taken-over': 1 });
    expect(result.summary).toContain('## Writ recovery (dry run: nothing written)');
    expect(result.summary).toContain(`| \`${runId}\` | running |`);
    const after = (world as SliceWorld).emulator.admin
      .requests()
      .filter((entry) => entry.mutations.length > 0).length;
    expect(after).toBe(before);
  });

  it('takes the run over, observes its claimed step with persist’s observer and lists what needs a human', async () => {
    const { runId, planFile } = await crashed();
    const current = settings({ planFile });
    const result = await recoveryStage(current, deps(current));
    expect(result.outputs).toMatchObject({ scanned: 1, 'taken-over': 1, outcome: 'swept' });
    // The roadmap plan's first step expects milestone #12, which this repository does not have.
    expect(result.outputs['needs-reconciliation']).toBe(1);
    expect(result.summary).toContain('`milestone-v2-4` `conflict`');
    expect(JSON.parse(String(result.outputs['resumable-runs']))).toEqual([]);
    expect(runId).toMatch(/^[a-z]/);
  });

  it('says so in the summary when the plan file cannot be used, and consumes nothing from it', async () => {
    await crashed();
    const current = settings({ planFile: join(dir, 'missing.json') });
    const result = await recoveryStage(current, deps(current));
    expect(result.summary).toMatch(
      /The plan file could not be used \(`[a-z-]+`\): nothing was consumed from it\./,
    );
  });

  it('reads holder liveness with the actions token when one is given (a token without actions: read cannot)', async () => {
    await crashed();
    const current = settings({ ledger: { ...settings().ledger, token: NO_ACTIONS_TOKEN } });
    const withActions = await recoveryStage(current, deps(current, SWEEPER_TOKEN));
    expect(withActions.outputs['taken-over']).toBe(1);
  });
});

describe('recovery main, as the runner starts it', () => {
  it('sweeps and writes its outputs and summary', async () => {
    world = await sliceWorld({ seed: 32 });
    mintSweeperTokens(world);
    env = runnerEnv(
      { ...world.ledgerInputs(), token: SWEEPER_TOKEN, 'dry-run': 'false' },
      { env: { GITHUB_API_URL: world.emulator.url } },
    );
    await runRecovery();
    expect(env.outputs()).toMatchObject({
      scanned: '0',
      outcome: 'swept',
      reason: '',
      'resumable-runs': '[]',
    });
    expect(env.summary()).toContain('## Writ recovery sweep');
    expect(process.exitCode).toBeUndefined();
  });

  it('refuses a bad input with its code in reason and in the failure message', async () => {
    world = await sliceWorld({ seed: 33 });
    env = runnerEnv(
      { ...world.ledgerInputs(), 'command-prefix': 'NO' },
      { env: { GITHUB_API_URL: world.emulator.url } },
    );
    await runRecovery();
    expect(env.outputs()).toEqual({ outcome: 'refused', reason: 'invalid-input' });
    expect(process.exitCode).toBe(1);
    expect(env.stdout.join('')).toContain("::error::invalid-input: input 'command-prefix' must be");
  });
});

describe('the recovery summary of a frozen ledger', () => {
  const commit = 'a'.repeat(40);
  const report = (
    action: 'frozen' | 'already-frozen' | 'dry-run',
    refused: string | null,
  ): RecoveryReport => ({
    headOid: 'b'.repeat(40),
    ledger: {
      proven: false,
      announced: 2,
      freeze: {
        action,
        freeze: {
          commit: refused,
          code: 'ledger-provenance-unproven',
          frozen_at: '2026-12-02T00:00:00.000Z',
        },
        commitOid: action === 'frozen' ? 'c'.repeat(40) : null,
        headOid: 'b'.repeat(40),
      },
    },
    scanned: 0,
    takenOver: 0,
    reconciled: 0,
    needsReconciliation: 0,
    approvalsRecovered: 0,
    repaired: 0,
    resumable: [],
    runs: [],
    planProblem: null,
    dryRun: action === 'dry-run',
  });

  it.each([
    ['frozen', commit, `commit \`${commit}\``, `Writ froze the ledger with commit \`${'c'.repeat(40)}\``],
    ['already-frozen', commit, `commit \`${commit}\``, 'The ledger was already frozen'],
    [
      'dry-run',
      null,
      'its rulesets',
      'A sweep that writes would freeze the ledger (dry run: nothing written)',
    ],
  ] as const)('says what the sweep did (%s) and what the replay refused', (action, refused, what, done) => {
    const summary = renderRecoverySummary(report(action, refused));
    expect(summary).toContain('## Writ recovery: LEDGER FROZEN');
    expect(summary).toContain(`refused ${what} (\`ledger-provenance-unproven\`)`);
    expect(summary).toContain(`${done}: every gate`);
    expect(summary).toContain('2 open run(s) carry the notice');
  });
});
