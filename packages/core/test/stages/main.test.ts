/**
 * Each stage's `main` in-process, as the runner starts it but without a child process: `INPUT_*` and
 * the runner's variables in, outputs, summary and workflow commands out through @actions/core, the
 * GitHub API the emulator on loopback. This is where the one refused/failed mapping is held.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { run as runClaimCheckpoint } from '../../src/stages/claim-checkpoint.js';
import { run as runConsumeApproval } from '../../src/stages/consume-approval.js';
import { run as runPreview } from '../../src/stages/preview.js';
import { run as runPublishArtifact } from '../../src/stages/publish-artifact.js';
import { outcomeOf, printable } from '../../src/stages/runner.js';
import { WritError } from '../../src/errors.js';
import { LEDGER_TOKEN, OWNER, REPO } from '../ledger/support/emulator.js';
import type { RunnerEnv } from './support/runner-env.js';
import { runnerEnv } from './support/runner-env.js';
import type { StageWorld } from './support/stage-world.js';
import { stageWorld } from './support/stage-world.js';

let env: RunnerEnv | undefined;
let world: StageWorld | undefined;
afterEach(async () => {
  env?.restore();
  env = undefined;
  await world?.close();
  world = undefined;
});

function ledgerInputs(current: StageWorld): Record<string, string> {
  return {
    token: LEDGER_TOKEN,
    'ledger-app-slug': current.ledger.app.slug,
    'ledger-app-id': String(current.ledger.app.id),
  };
}

/** The runner's environment for a stage of `current`: its API, its workspace. */
function stageEnv(
  current: StageWorld,
  inputs: Record<string, string>,
  options: { event?: unknown; eventName?: string } = {},
): RunnerEnv {
  return runnerEnv(inputs, {
    ...options,
    env: {
      GITHUB_API_URL: current.ledgerWorld.emulator.url,
      GITHUB_WORKSPACE: current.workspace,
      RUNNER_TEMP: current.workspace,
    },
  });
}

/** Runs the preview's main to propose `planFile`; returns its outputs. */
async function propose(current: StageWorld, planFile: string): Promise<Record<string, string>> {
  const runner = stageEnv(current, {
    'plan-file': planFile,
    'dry-run': 'false',
    'status-issue': String(current.statusIssue),
    ...ledgerInputs(current),
  });
  try {
    await runPreview();
    return runner.outputs();
  } finally {
    runner.restore();
  }
}

describe('the one outcome mapping', () => {
  it('a coded error is refused, anything else failed', () => {
    expect(outcomeOf(new WritError('invalid-input', 'x'))).toBe('refused');
    expect(outcomeOf(new Error('x'))).toBe('failed');
    expect(outcomeOf('a string')).toBe('failed');
  });

  it('shows untrusted text with every unprintable character escaped', () => {
    expect(printable('a\u001b[31mb\u202e\tc\n')).toBe('a\\u{1b}[31mb\\u{202e}\tc\n');
  });
});

describe('stage mains, in-process', () => {
  it('preview (dry run): outputs, the summary and no failure', async () => {
    world = await stageWorld();
    env = stageEnv(world, { 'plan-file': world.planFile('plan') });
    await runPreview();
    expect(env.outputs()).toMatchObject({ outcome: 'previewed', reason: '' });
    expect(env.summary()).toContain('Dispatch two release jobs');
    expect(process.exitCode).toBeUndefined();
  });

  it('preview: a bad input fails the step as refused, with its code in reason and in the message', async () => {
    world = await stageWorld();
    env = stageEnv(world, { 'plan-file': world.planFile('plan'), 'dry-run': 'perhaps' });
    await runPreview();
    expect(env.outputs()).toEqual({ outcome: 'refused', reason: 'invalid-input' });
    expect(process.exitCode).toBe(1);
    expect(env.stdout.join('')).toContain("::error::invalid-input: input 'dry-run' must be true or false");
  });

  it('preview, consume-approval, claim-checkpoint: proposed, approved, claimed', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const proposed = await propose(world, planFile);
    expect(proposed).toMatchObject({ outcome: 'proposed', reason: '' });
    const commentId = await world.comment(proposed['approve-command']!);

    env = stageEnv(
      world,
      { 'plan-file': planFile, 'dry-run': 'false', ...ledgerInputs(world) },
      { event: { action: 'created', comment: { id: commentId } }, eventName: 'issue_comment' },
    );
    await runConsumeApproval();
    const approved = env.outputs();
    expect(approved).toMatchObject({ outcome: 'approved', 'run-id': proposed['run-id'], epoch: '1' });
    expect(env.summary()).toContain('## Writ approval consumed');
    env.restore();

    env = stageEnv(world, {
      operation: 'claim',
      'run-id': proposed['run-id']!,
      'step-id': 'build-artifacts',
      epoch: approved.epoch!,
      'dry-run': 'false',
      ...ledgerInputs(world),
    });
    await runClaimCheckpoint();
    expect(env.outputs()).toMatchObject({ outcome: 'claimed', 'step-status': 'claimed' });
    expect(process.exitCode).toBeUndefined();
  });

  it('claim-checkpoint: a refusal after the work was recorded keeps the outputs and fails the step', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const proposed = await propose(world, planFile);
    const commentId = await world.comment(proposed['approve-command']!);
    env = stageEnv(
      world,
      { 'plan-file': planFile, 'dry-run': 'false', ...ledgerInputs(world) },
      { event: { action: 'created', comment: { id: commentId } }, eventName: 'issue_comment' },
    );
    await runConsumeApproval();
    env.restore();
    env = stageEnv(world, {
      operation: 'claim',
      'run-id': proposed['run-id']!,
      'step-id': 'build-artifacts',
      epoch: '1',
      'dry-run': 'false',
      ...ledgerInputs(world),
    });
    await runClaimCheckpoint();
    env.restore();
    world.ledgerWorld.emulator.admin.clock({ advance_ms: 20 * 60_000 });
    env = stageEnv(world, {
      operation: 'takeover',
      'run-id': proposed['run-id']!,
      'dry-run': 'false',
      ...ledgerInputs(world),
    });
    await runClaimCheckpoint();
    expect(env.outputs()).toMatchObject({ epoch: '2', outcome: 'refused', reason: 'needs-reconciliation' });
    expect(process.exitCode).toBe(1);
  });

  it('publish-artifact: a dry run logs the file inside a command-free group; a closed PR names its URL', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    const proposed = await propose(world, planFile);
    const commentId = await world.comment(proposed['approve-command']!);
    env = stageEnv(
      world,
      { 'plan-file': planFile, 'dry-run': 'false', ...ledgerInputs(world) },
      { event: { action: 'created', comment: { id: commentId } }, eventName: 'issue_comment' },
    );
    await runConsumeApproval();
    env.restore();
    const content = `${world.workspace}/roadmap.md`;
    writeFileSync(content, '# Roadmap\n::warning::not a command\n');
    const publishInputs = {
      'run-id': proposed['run-id']!,
      epoch: '1',
      'plan-file': planFile,
      path: 'docs/roadmap.md',
      'content-file': content,
      ...ledgerInputs(world),
    };

    env = stageEnv(world, publishInputs);
    await runPublishArtifact();
    expect(env.outputs()).toMatchObject({ outcome: 'dry-run' });
    const log = env.stdout.join('');
    const token = /::stop-commands::([0-9a-f-]+)/.exec(log)?.[1];
    expect(token).toBeDefined();
    expect(log.indexOf('::warning::not a command')).toBeGreaterThan(log.indexOf(`::stop-commands::${token}`));
    expect(log.indexOf(`::${token}::`)).toBeGreaterThan(log.indexOf('::warning::not a command'));
    env.restore();

    env = stageEnv(world, { ...publishInputs, 'dry-run': 'false' });
    await runPublishArtifact();
    const created = env.outputs();
    expect(created).toMatchObject({ outcome: 'created' });
    env.restore();
    await world.owner.rest.pulls.update({
      owner: OWNER,
      repo: REPO,
      pull_number: Number(created['pr-number']),
      state: 'closed',
    });
    writeFileSync(content, '# Roadmap v2\n');
    env = stageEnv(world, { ...publishInputs, 'dry-run': 'false' });
    await runPublishArtifact();
    expect(env.outputs()).toEqual({
      outcome: 'refused',
      reason: 'artifact-pr-closed',
      'pr-url': created['pr-url'],
    });
  });

  it('a GitHub failure under the ledger read fails the step with its code, never as internal-error', async () => {
    world = await stageWorld();
    env = stageEnv(world, {
      operation: 'release',
      'run-id': 'run-1',
      epoch: '1',
      'dry-run': 'false',
      ...ledgerInputs(world),
    });
    // Every GraphQL request answered 400: the ledger cannot be read.
    world.ledgerWorld.emulator.admin.addFault({
      match: { path: '/graphql' },
      fault: { type: 'status', status: 400 },
    });
    await runClaimCheckpoint();
    expect(env.outputs()).toEqual({ outcome: 'refused', reason: 'github-request-failed' });
    expect(env.stdout.join('')).toContain('::error::github-request-failed: Reading the ledger branch failed');
    expect(env.stdout.join('')).not.toContain(`::error::${LEDGER_TOKEN}`);
    expect(process.exitCode).toBe(1);
  });
});
