/**
 * Every refusal is coded, case by case: what a workflow can get wrong (an input naming a thing that is
 * not there or not what it should be, an event file that is not a readable JSON file) ends each
 * stage's `main`, in-process against the emulator, as a coded refusal naming the input or the thing,
 * never `internal-error`, and before anything is written where the thing is checked up front.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { run as runClaimCheckpoint } from '../../src/stages/claim-checkpoint.js';
import { run as runConsumeApproval } from '../../src/stages/consume-approval.js';
import { run as runPreview } from '../../src/stages/preview.js';
import { run as runRecovery } from '../../src/stages/recovery.js';
import { runAction } from '../../src/stages/runner.js';
import { LEDGER_TOKEN, OWNER, REPO } from '../ledger/support/emulator.js';
import type { RunnerEnv } from './support/runner-env.js';
import { runnerEnv } from './support/runner-env.js';
import type { StageWorld } from './support/stage-world.js';
import { stageWorld } from './support/stage-world.js';

let env: RunnerEnv | undefined;
let world: StageWorld;
beforeEach(async () => {
  world = await stageWorld();
});
afterEach(async () => {
  env?.restore();
  env = undefined;
  await world.close();
});

function ledgerInputs(): Record<string, string> {
  return {
    token: LEDGER_TOKEN,
    'ledger-app-slug': world.ledger.app.slug,
    'ledger-app-id': String(world.ledger.app.id),
    'dry-run': 'false',
  };
}

function stageEnv(
  inputs: Record<string, string>,
  options: { event?: unknown; eventName?: string; env?: Record<string, string | undefined> } = {},
): RunnerEnv {
  return runnerEnv(inputs, {
    ...options,
    env: {
      GITHUB_API_URL: world.ledgerWorld.emulator.url,
      GITHUB_WORKSPACE: world.workspace,
      RUNNER_TEMP: world.workspace,
      ...options.env,
    },
  });
}

/** The failure annotation of the step (the runner's `::error::` line). */
function failureLine(current: RunnerEnv): string {
  return /^::error::(.*)$/m.exec(current.stdout.join(''))?.[1] ?? '';
}

/** A pull request on the world's repository (GitHub numbers issues and pull requests together). */
async function pullRequest(): Promise<number> {
  const repo = { owner: OWNER, repo: REPO };
  const main = (await world.owner.rest.repos.getBranch({ ...repo, branch: 'main' })).data.commit;
  const { data: tree } = await world.owner.rest.git.createTree({
    ...repo,
    base_tree: main.commit.tree.sha,
    tree: [{ path: 'change.md', mode: '100644', type: 'blob', content: 'change\n' }],
  });
  const { data: commit } = await world.owner.rest.git.createCommit({
    ...repo,
    message: 'a change',
    tree: tree.sha,
    parents: [main.sha],
  });
  await world.owner.rest.git.createRef({ ...repo, ref: 'refs/heads/change', sha: commit.sha });
  const { data: pull } = await world.owner.rest.pulls.create({
    ...repo,
    title: 'a change',
    head: 'change',
    base: 'main',
  });
  return pull.number;
}

describe('preview: the status issue is checked before the run is proposed', () => {
  it('refuses an issue that does not exist as invalid-input, naming the input, with nothing written', async () => {
    const before = world.lastSeq();
    env = stageEnv({ 'plan-file': world.planFile('plan'), 'status-issue': '999999', ...ledgerInputs() });
    await runPreview();
    expect(env.outputs()).toMatchObject({ outcome: 'refused', reason: 'invalid-input' });
    expect(failureLine(env)).toMatch(
      /^invalid-input: input 'status-issue' names #999999, which acme\/widgets does not hold \(HTTP 404/,
    );
    expect(world.writesSince(before)).toEqual([]);
  });

  it.each([
    ['an issue', () => Promise.resolve(world.statusIssue)],
    ['a pull request (action.yml: an issue or pull request number)', pullRequest],
  ])('proposes with %s that exists, its status comment on it', async (_what, numberOf) => {
    const number = await numberOf();
    env = stageEnv({
      'plan-file': world.planFile('plan'),
      'status-issue': String(number),
      ...ledgerInputs(),
    });
    await runPreview();
    const outputs = env.outputs();
    expect(outputs).toMatchObject({ outcome: 'proposed', reason: '' });
    const { data: comments } = await world.owner.rest.issues.listComments({
      owner: OWNER,
      repo: REPO,
      issue_number: number,
    });
    expect(comments.map((comment) => comment.id)).toContain(Number(outputs['status-comment-id']));
  });
});

describe('GitHub answers a workflow caused are coded refusals, never internal-error', () => {
  it('a repository that does not exist (GITHUB_REPOSITORY) is a coded refusal naming it', async () => {
    env = stageEnv({ ...ledgerInputs() }, { env: { GITHUB_REPOSITORY: `${OWNER}/missing-repo` } });
    await runRecovery();
    expect({ ...env.outputs(), line: failureLine(env) }).toMatchObject({
      outcome: 'refused',
      reason: 'github-request-failed',
      line: expect.stringContaining(`${OWNER}/missing-repo`),
    });
  });

  it('a plan for another repository than GITHUB_REPOSITORY is invalid-input naming both', async () => {
    env = stageEnv(
      { 'plan-file': world.planFile('plan'), ...ledgerInputs() },
      { env: { GITHUB_REPOSITORY: `${OWNER}/missing-repo` } },
    );
    await runPreview();
    expect(env.outputs()).toMatchObject({ outcome: 'refused', reason: 'invalid-input' });
    expect(failureLine(env)).toContain(`runs in ${OWNER}/missing-repo`);
  });

  it('a ledger branch that does not exist is ledger-branch-missing', async () => {
    env = stageEnv({
      'plan-file': world.planFile('plan'),
      ...ledgerInputs(),
      'ledger-branch': 'bot/no-ledger',
    });
    await runPreview();
    expect(env.outputs()).toMatchObject({ outcome: 'refused', reason: 'ledger-branch-missing' });
  });

  it('a run ID the ledger does not hold is run-not-found', async () => {
    env = stageEnv({
      operation: 'claim',
      'run-id': 'no-such-run',
      'step-id': 'a',
      epoch: '1',
      ...ledgerInputs(),
    });
    await runClaimCheckpoint();
    expect(env.outputs()).toMatchObject({ outcome: 'refused', reason: 'run-not-found' });
  });

  it('an approval event naming a comment that does not exist is a coded refusal', async () => {
    env = stageEnv(
      { 'plan-file': world.planFile('plan'), ...ledgerInputs() },
      { event: { action: 'created', comment: { id: 99_999_999 } }, eventName: 'issue_comment' },
    );
    await runConsumeApproval();
    const outputs = env.outputs();
    expect(outputs.outcome).toBe('refused');
    expect(outputs.reason).not.toBe('internal-error');
  });

  it('a token GitHub does not know is a coded refusal that never prints it', async () => {
    const token = 'ghs_unknownInstallationToken000000000000';
    env = stageEnv({ ...ledgerInputs(), token });
    await runRecovery();
    expect(env.outputs()).toMatchObject({ outcome: 'refused', reason: 'github-request-failed' });
    expect(env.stdout.join('').replace(/^::add-mask::.*$/gm, '')).not.toContain(token);
  });
});

describe('GITHUB_API_URL naming something that is not the GitHub API', () => {
  it.each([
    ['a web page (200, HTML)', 200, 'text/html', '<html>GitHub</html>'],
    ['a web 404 (HTML)', 404, 'text/html', '<html>Not Found</html>'],
    ['JSON that is not the answer asked for', 200, 'application/json', '{"data":null,"errors":"x"}'],
  ])('%s is a coded refusal for every stage that reads GitHub', async (_what, status, type, body) => {
    const server = createServer((_request, response) => {
      response.writeHead(status, { 'content-type': type });
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const cases: [() => Promise<void>, Record<string, string>][] = [
        [runPreview, { 'plan-file': world.planFile('plan'), 'status-issue': '1' }],
        [runClaimCheckpoint, { operation: 'claim', 'run-id': 'a-run', 'step-id': 'a', epoch: '1' }],
        [runRecovery, {}],
      ];
      for (const [main, inputs] of cases) {
        env = stageEnv({ ...ledgerInputs(), ...inputs }, { env: { GITHUB_API_URL: apiUrl } });
        await main();
        const outputs = env.outputs();
        env.restore();
        env = undefined;
        expect({ outputs, stage: main.name }).toMatchObject({ outputs: { outcome: 'refused' } });
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('a token is checked where every input is read', () => {
  it.each([
    ['a newline', `${LEDGER_TOKEN}\nsecond-line`],
    ['a space', `Bearer ${LEDGER_TOKEN}`],
    ['a NUL', `${LEDGER_TOKEN}\u0000`],
    ['non-ASCII', `${LEDGER_TOKEN}é`],
    ['an unexpanded expression', '${{ secrets.WRIT_TOKEN }}'],
  ])(
    'a token holding %s is invalid-input naming the input, never echoed, never sent',
    async (_what, token) => {
      const before = world.lastSeq();
      env = stageEnv({ ...ledgerInputs(), token, 'actions-token': token });
      await runRecovery();
      expect(env.outputs()).toMatchObject({ outcome: 'refused', reason: 'invalid-input' });
      const line = failureLine(env);
      expect(line).toMatch(
        /^invalid-input: input '(token|actions-token)' holds \d+ characters? no token has/,
      );
      expect(line).not.toContain('ledgerApp');
      expect(line).not.toContain('WRIT_TOKEN');
      expect(world.lastSeq()).toBe(before);
    },
  );
});

describe('the event file is read only as a bounded regular JSON file', () => {
  it.each([
    ['a FIFO (never waited on)', 'fifo', /is a FIFO, not a regular file/],
    ['a directory', 'directory', /is a directory, not a regular file/],
    ['missing', 'missing', /names no readable file \(ENOENT\)/],
    ['not UTF-8', 'binary', /is not JSON \(not UTF-8\)/],
    ['not JSON, without echoing it', 'text', /is not JSON \(a syntax error\)$/],
    ['larger than GitHub sends (25 MB)', 'huge', /is 26214401 bytes; the limit is 26214400$/],
  ])('%s is invalid-input naming GITHUB_EVENT_PATH', async (_what, kind, message) => {
    const path = join(world.workspace, `event-${kind}`);
    if (kind === 'fifo') execFileSync('mkfifo', [path]);
    if (kind === 'directory') mkdirSync(path);
    if (kind === 'binary') writeFileSync(path, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    if (kind === 'text') writeFileSync(path, 'secret-looking text ::warning::x');
    if (kind === 'huge') writeFileSync(path, Buffer.alloc(25 * 1024 * 1024 + 1, 0x20));
    env = stageEnv(
      { operation: 'claim', 'run-id': 'a-run', 'step-id': 'a', epoch: '1', ...ledgerInputs() },
      { env: { GITHUB_EVENT_PATH: path } },
    );
    await runClaimCheckpoint();
    expect(env.outputs()).toMatchObject({ outcome: 'refused', reason: 'invalid-input' });
    const line = failureLine(env);
    expect(line).toMatch(/^invalid-input: the event payload at GITHUB_EVENT_PATH is unreadable: it /);
    expect(line.replace(/ — https:.*$/, '')).toMatch(message);
    expect(line).not.toContain('secret-looking');
  });
});

describe('the runner maps what reaches it', () => {
  /** Runs a stage whose work is `work`, through the one runner every stage's main uses. */
  async function runWith(work: () => Promise<unknown>): Promise<RunnerEnv> {
    const current = stageEnv({});
    await runAction('recovery', {
      inputs: () => ({}),
      connect: () => ({}),
      stage: async () => {
        await work();
        return { outputs: { outcome: 'swept', reason: '' }, summary: '' };
      },
    });
    return current;
  }

  it('a GitHub answer no stage coded is github-request-failed, naming what was called, not its text', async () => {
    env = await runWith(() =>
      world.owner.rest.issues.get({ owner: OWNER, repo: REPO, issue_number: 424_242 }),
    );
    expect(env.outputs()).toEqual({ outcome: 'refused', reason: 'github-request-failed' });
    const line = failureLine(env);
    expect(line).toMatch(
      /^github-request-failed: GitHub at .* answered 404 for .*\/repos\/acme\/widgets\/issues\/424242/,
    );
    expect(line).not.toContain('Not Found');
    expect(process.exitCode).toBe(1);
  });

  it('anything else uncoded stays internal-error (a bug is never passed off as a refusal)', async () => {
    env = await runWith(() => Promise.reject(new TypeError('a bug')));
    expect(env.outputs()).toEqual({ outcome: 'failed', reason: 'internal-error' });
  });

  it('an unwritable GITHUB_OUTPUT is output-write-failed, and the step still fails', async () => {
    env = await runWith(() => Promise.resolve());
    env.restore();
    env = stageEnv({}, { env: { GITHUB_OUTPUT: world.workspace } });
    await runAction('recovery', {
      inputs: () => ({}),
      connect: () => ({}),
      stage: () => Promise.resolve({ outputs: { outcome: 'swept', reason: '' }, summary: '' }),
    });
    expect(failureLine(env)).toMatch(
      /^output-write-failed: could not write the step's outputs \(GITHUB_OUTPUT\) \(EISDIR\)/,
    );
    expect(process.exitCode).toBe(1);
  });
});
