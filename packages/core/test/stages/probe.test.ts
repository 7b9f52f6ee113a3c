/**
 * The probe stage in-process: its `inputs` through the real @actions/core reader (every value check:
 * code, input, value or its length, expectation), its `stage` with settings straight in and the two
 * clients (sandbox, running repository) on the emulator over loopback, each outcome it reports (the
 * dry run, a full probe with its evidence file, a guard refusal), and its `main` through the runner.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WritError, errorCode } from '../../src/errors.js';
import { stageIo } from '../../src/io/action-io.js';
import { evidenceProblems } from '../../src/probe/evidence.js';
import { silentLogger } from '../../src/redact.js';
import type { ProbeStageSettings } from '../../src/stages/probe.js';
import { readProbeSettings } from '../../src/stages/probe.js';
import { run as runProbe } from '../../src/stages/probe.js';
import { probeStage } from '../../src/stages/probe.js';
import type { ProbeWorld } from '../probe/support.js';
import { CURRENT, REPOSITORY_TOKEN, SANDBOX, SANDBOX_TOKEN, probeWorld } from '../probe/support.js';
import type { RunnerEnv } from './support/runner-env.js';
import { runnerEnv } from './support/runner-env.js';

let env: RunnerEnv | undefined;
let world: ProbeWorld | undefined;
afterEach(async () => {
  env?.restore();
  env = undefined;
  await world?.close();
  world = undefined;
});

const INPUTS = {
  repository: SANDBOX,
  'confirm-sandbox': SANDBOX,
  token: SANDBOX_TOKEN,
  'repository-token': REPOSITORY_TOKEN,
};

/** The coded failure `fn` throws: its code and message. */
function failure(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error: unknown) {
    if (error instanceof WritError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a coded failure');
}

/** Writes made since `seq`: not a GET, not a GraphQL query without mutations. */
function writesSince(current: ProbeWorld, seq: number): string[] {
  return current.emulator.admin
    .requests()
    .filter((r) => r.seq > seq && r.method !== 'GET' && !(r.path === '/graphql' && r.mutations.length === 0))
    .map((r) => `${r.method} ${r.path}`);
}

function lastSeq(current: ProbeWorld): number {
  return current.emulator.admin.requests().at(-1)?.seq ?? 0;
}

function settings(current: ProbeWorld, workspace: string, overrides: Partial<ProbeStageSettings> = {}) {
  const value: ProbeStageSettings = {
    apiUrl: current.emulator.url,
    current: CURRENT,
    sandbox: SANDBOX,
    confirmSandbox: SANDBOX,
    allowlistFile: '.writ/probe-allowlist.json',
    evidenceFile: '.writ/probe-evidence.json',
    workspace,
    cases: ['1', '2a', '2b', '3a', '3b', '4'],
    primitives: [
      'stale-expected-head-oid',
      'create-ref-existing',
      'update-refs-stale-before-oid',
      'update-ref-non-fast-forward',
    ],
    token: SANDBOX_TOKEN,
    repositoryToken: REPOSITORY_TOKEN,
    dryRun: false,
    probeRun: 'gh-42-1',
    writ: { version: '0.1.0', commit: null },
    ...overrides,
  };
  return value;
}

function deps(current: ProbeWorld) {
  return { sandboxGithub: current.sandbox, repositoryGithub: current.repository, logger: silentLogger };
}

describe('probe inputs', () => {
  it('reads every input with its default: a dry run of every case and primitive', () => {
    env = runnerEnv(INPUTS);
    expect(readProbeSettings(stageIo('probe'))).toMatchObject({
      apiUrl: 'https://api.github.com',
      current: 'acme/widgets',
      sandbox: SANDBOX,
      confirmSandbox: SANDBOX,
      allowlistFile: '.writ/probe-allowlist.json',
      evidenceFile: '.writ/probe-evidence.json',
      workspace: env.dir,
      cases: ['1', '2a', '2b', '3a', '3b', '4'],
      primitives: [
        'stale-expected-head-oid',
        'create-ref-existing',
        'update-refs-stale-before-oid',
        'update-ref-non-fast-forward',
      ],
      token: SANDBOX_TOKEN,
      repositoryToken: REPOSITORY_TOKEN,
      dryRun: true,
      probeRun: 'gh-4242-2',
      writ: { commit: null },
    });
  });

  it('takes a chosen set of cases, and the Writ commit from a full-SHA action ref only', () => {
    const sha = 'a'.repeat(40);
    env = runnerEnv(
      { ...INPUTS, cases: '4, create-ref-existing,1', 'dry-run': 'false' },
      { env: { GITHUB_ACTION_REF: sha } },
    );
    expect(readProbeSettings(stageIo('probe'))).toMatchObject({
      cases: ['1', '4'],
      primitives: ['create-ref-existing'],
      dryRun: false,
      writ: { commit: sha },
    });
    env.restore();
    env = runnerEnv(INPUTS, { env: { GITHUB_ACTION_REF: 'v1' } });
    expect(readProbeSettings(stageIo('probe')).writ.commit).toBeNull();
  });

  it.each([
    ['repository', 'sandbox', /input 'repository'.*format \{owner\}\/\{repo\}/],
    ['repository', 'acme/sand box', /input 'repository'.*format \{owner\}\/\{repo\}/],
    [
      'allowlist-file',
      '../allow.json',
      /^input 'allowlist-file' must be a path inside the repository, like \.writ\/probe-allowlist\.json \(got 13 characters\)$/,
    ],
    [
      'evidence-file',
      '/tmp/evidence.json',
      /^input 'evidence-file' must be a relative path inside the workspace, like \.writ\/probe-evidence\.json \(got 18 characters\)$/,
    ],
    [
      'evidence-file',
      'a/../../evidence.json',
      /^input 'evidence-file' must be a relative path inside the workspace.*\(got 21 characters\)$/,
    ],
    [
      'cases',
      '1,5,x',
      /^input 'cases' must be all or a comma-separated list of 1, 2a, .* \(got 2 unknown\)$/,
    ],
    ['dry-run', 'nope', /^input 'dry-run' must be true or false \(got "nope"\)$/],
    ['token', '', /^input 'token' is required and was not supplied$/],
    ['repository-token', '', /^input 'repository-token' \(the workflow's token, .*\) is required$/],
    ['repository-token', '${{ github.token }}', /^input 'repository-token' .* is required$/],
  ])('refuses %s=%j as invalid-input, naming the input and what is expected', (name, value, message) => {
    env = runnerEnv({ ...INPUTS, [name]: value });
    const refused = failure(() => readProbeSettings(stageIo('probe')));
    expect(refused.code).toBe('invalid-input');
    expect(refused.message).toMatch(message);
    expect(refused.message).not.toContain(SANDBOX_TOKEN);
  });
});

describe('probe stage, in-process against the emulator', () => {
  it('a dry run passes the guard, lists what it would create and run, and writes nothing', async () => {
    world = await probeWorld();
    env = runnerEnv({});
    const seq = lastSeq(world);
    const result = await probeStage(settings(world, env.dir, { dryRun: true }), deps(world));
    expect(result.outputs).toEqual({ outcome: 'dry-run', reason: '' });
    expect(result.summary).toContain(`## Writ probe: \`${SANDBOX}\` (dry run: nothing written)`);
    expect(result.summary).toContain(
      `The guard passed: ${SANDBOX} is confirmed, allow-listed in .writ/probe-allowlist.json of ${CURRENT}, and not this repository.`,
    );
    expect(result.summary).toMatch(/\n- .*case 1/);
    expect(writesSince(world, seq)).toEqual([]);
  });

  it('probes the realistic world: evidence written in the workspace, outputs per case, nothing opened', async () => {
    world = await probeWorld();
    env = runnerEnv({});
    const before = world.listing();
    const result = await probeStage(settings(world, env.dir), deps(world));
    const path = join(env.dir, '.writ/probe-evidence.json');
    expect(result.outputs).toMatchObject({
      outcome: 'probed',
      reason: '',
      'evidence-file': path,
      cases: '1=negative,2a=negative,2b=negative,3a=negative,3b=negative,4=negative',
      primitives:
        'stale-expected-head-oid=positive,create-ref-existing=positive,update-refs-stale-before-oid=positive,update-ref-non-fast-forward=positive',
      opens: '',
      'cleanup-left': 0,
    });
    expect(Number(result.outputs.requests)).toBeGreaterThan(0);
    const bytes = readFileSync(path, 'utf8');
    expect(evidenceProblems(JSON.parse(bytes))).toEqual([]);
    // The summary carries the evidence itself, for the owner to commit through a pull request.
    expect(result.summary).toContain('<details><summary>.writ/probe-evidence.json</summary>');
    expect(result.summary).toContain(bytes);
    expect(world.listing()).toEqual(before);
  });

  it('names the kinds conditional-honoured evidence opens', async () => {
    world = await probeWorld();
    await world.world('conditional-honoured');
    env = runnerEnv({});
    const result = await probeStage(settings(world, env.dir), deps(world));
    expect(result.outputs.outcome).toBe('probed');
    expect(String(result.outputs.opens).split(',')).toEqual(
      expect.arrayContaining(['milestone.edit', 'issue.create']),
    );
    expect(String(result.outputs.opens)).not.toContain('issue.set-milestone');
  });

  it('refuses a sandbox that is the running repository before any write (probe-repository-refused)', async () => {
    world = await probeWorld();
    env = runnerEnv({});
    const seq = lastSeq(world);
    const refused = await probeStage(
      settings(world, env.dir, { sandbox: CURRENT, confirmSandbox: CURRENT }),
      deps(world),
    ).catch((error: unknown) => error);
    expect(errorCode(refused)).toBe('probe-repository-refused');
    expect(writesSince(world, seq)).toEqual([]);
  });

  it('refuses to write the evidence through a symlink out of the workspace', async () => {
    world = await probeWorld();
    env = runnerEnv({});
    symlinkSync(mkdtempSync(join(tmpdir(), 'writ-outside-')), join(env.dir, '.writ'));
    const refused = await probeStage(
      settings(world, env.dir, { cases: ['1'], primitives: [] }),
      deps(world),
    ).catch((error: unknown) => error);
    expect(errorCode(refused)).toBe('output-write-failed');
    expect((refused as Error).message).toMatch(/leads out of the workspace/);
  });
});

describe('probe main, through the runner', () => {
  function probeEnv(current: ProbeWorld, inputs: Record<string, string>): RunnerEnv {
    return runnerEnv(
      { ...INPUTS, ...inputs },
      { env: { GITHUB_API_URL: current.emulator.url, GITHUB_RUN_ID: '42' } },
    );
  }

  it('runs the chosen cases: outputs, the summary table, no failure', async () => {
    world = await probeWorld();
    env = probeEnv(world, { 'dry-run': 'false', cases: '1,create-ref-existing' });
    await runProbe();
    expect(env.outputs()).toMatchObject({
      outcome: 'probed',
      reason: '',
      cases: '1=negative',
      primitives: 'create-ref-existing=positive',
      'cleanup-left': '0',
    });
    expect(env.summary()).toContain('.writ/probe-evidence.json');
    expect(process.exitCode).toBeUndefined();
  });

  it('an unconfirmed sandbox fails the step as refused with its code, writing nothing', async () => {
    world = await probeWorld();
    const seq = lastSeq(world);
    env = probeEnv(world, { 'dry-run': 'false', 'confirm-sandbox': 'acme/other' });
    await runProbe();
    expect(env.outputs()).toEqual({ outcome: 'refused', reason: 'probe-repository-refused' });
    expect(process.exitCode).toBe(1);
    expect(env.stdout.join('')).toContain('::error::probe-repository-refused: ');
    expect(writesSince(world, seq)).toEqual([]);
  });

  it('a bad input fails the step as refused before any request', async () => {
    world = await probeWorld();
    const seq = lastSeq(world);
    env = probeEnv(world, { cases: 'everything' });
    await runProbe();
    expect(env.outputs()).toEqual({ outcome: 'refused', reason: 'invalid-input' });
    expect(lastSeq(world)).toBe(seq);
  });
});
