import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateArtifactBranch } from '@writ/core/artifact/lane.js';
import { publishArtifact } from '@writ/core/artifact/publish.js';
import { validateArtifactPath } from '@writ/core/artifact/safe-path.js';
import { silentLogger } from '@writ/core/redact.js';
import type { SliceWorld } from '../support/world.js';
import {
  APP_TOKEN,
  PEOPLE,
  approveInProcess,
  client,
  patOf,
  planVariant,
  proposePlan,
  requestLog,
  sliceWorld,
} from '../support/world.js';

let world: SliceWorld;
const dir = mkdtempSync(join(tmpdir(), 'writ-publish-'));
let variant = 0;
const PATH = 'docs/reference/roadmap.md';

beforeAll(async () => {
  world = await sliceWorld({ seed: 4 });
});

afterAll(async () => {
  await world.close();
});

beforeEach(() => {
  world.emulator.admin.clock({ advance_ms: 15 * 60_000 }); // every test starts with a free lease
});

const owner = 'acme';
const repo = 'widgets';

/** A run proposed and approved by a writer, as preview and consume-approval would leave it. */
async function approvedRun(): Promise<{ planFile: string; runId: string; epoch: string }> {
  variant += 1;
  const planFile = planVariant(dir, `p${variant}`, undefined, `Roadmap page ${variant}`);
  const { runId, command } = await proposePlan(world, planFile);
  const event = await world.comment({ login: PEOPLE.write }, command);
  await approveInProcess(world, planFile, event, { holder: 9000 + variant });
  const epoch = String((await world.runFile(runId))?.owner?.epoch ?? '');
  epochs.set(runId, epoch);
  holders.set(runId, 9000 + variant);
  return { planFile, runId, epoch };
}

function contentFile(text: string): string {
  variant += 1;
  const file = join(dir, `content-${variant}.md`);
  writeFileSync(file, text);
  return file;
}

/** The epoch each run was approved at, so a test passes the one consume-approval output. */
const epochs = new Map<string, string>();
/** The workflow run that approved each run: publish runs as a later job of that same workflow run. */
const holders = new Map<string, number>();

/** Runs the bundle as the runner would, with the content file in the job's temp directory. */
function publish(runId: string, planFile: string, text: string, extra: Record<string, string> = {}) {
  return world.run(
    'publish-artifact',
    {
      'run-id': runId,
      epoch: epochs.get(runId) ?? '1',
      'plan-file': planFile,
      path: PATH,
      'content-file': contentFile(text),
      'dry-run': 'false',
      ...world.ledgerInputs(),
      ...extra,
    },
    { env: { RUNNER_TEMP: dir, GITHUB_RUN_ID: String(holders.get(runId) ?? 1), GITHUB_RUN_ATTEMPT: '1' } },
  );
}

const { lastSeq, writesSince } = requestLog(() => world.emulator);

const api = () => client(world.emulator, patOf(PEOPLE.admin));

async function refOid(name: string): Promise<string | null> {
  try {
    return (await api().rest.git.getRef({ owner, repo, ref: `heads/${name}` })).data.object.sha;
  } catch {
    return null;
  }
}

async function fileOn(branch: string, path = PATH): Promise<string | null> {
  try {
    const { data } = await api().rest.repos.getContent({ owner, repo, path, ref: branch });
    return Array.isArray(data) || !('content' in data)
      ? null
      : Buffer.from(data.content, 'base64').toString('utf8');
  } catch {
    return null;
  }
}

async function openPulls(branch: string): Promise<number[]> {
  const { data } = await api().rest.pulls.list({
    owner,
    repo,
    head: `${owner}:${branch}`,
    state: 'open',
    per_page: 100,
  });
  return data.map((p) => p.number);
}

async function history(branch: string): Promise<{ sha: string; parents: number; message: string }[]> {
  const { data } = await api().rest.repos.listCommits({ owner, repo, sha: branch, per_page: 100 });
  return data.map((c) => ({ sha: c.sha, parents: c.parents.length, message: c.commit.message }));
}

describe('publish-artifact through writ run', () => {
  it('creates the branch, commits the file and opens one PR; re-publishing identical bytes makes zero writes', async () => {
    const { planFile, runId } = await approvedRun();
    const main = await refOid('main');
    const first = await publish(runId, planFile, '# Roadmap\n\n- v2.4\n', { branch: 'bot/roadmap-a' });
    expect(first.outputs).toMatchObject({ outcome: 'created', reason: '', branch: 'bot/roadmap-a' });
    expect(await fileOn('bot/roadmap-a')).toBe('# Roadmap\n\n- v2.4\n');
    expect(await openPulls('bot/roadmap-a')).toEqual([Number(first.outputs['pr-number'])]);
    expect(first.summary).toMatch(/Diff stat: \+3 −0 lines/);
    expect((await world.runFile(runId))?.artifact).toMatchObject({
      commit_oid: first.outputs['commit-oid'],
      pr_number: Number(first.outputs['pr-number']),
    });

    const seq = lastSeq();
    const again = await publish(runId, planFile, '# Roadmap\n\n- v2.4\n', { branch: 'bot/roadmap-a' });
    expect(again.outputs).toMatchObject({ outcome: 'unchanged', 'pr-number': first.outputs['pr-number'] });
    expect(writesSince(seq)).toEqual([]);
    // The lane (default branch, both heads, the file, the ledger-root checks, the pull requests) rides
    // in the gate's one ledger read: no REST read of refs, contents, pulls or the repository remains;
    // so does the ledger branch's rule list (Ref.rules), each ruleset's bypass actors read by REST.
    const reads = world.emulator.admin
      .requests()
      .filter((r) => r.seq > seq)
      .map((r) => `${r.method} ${r.path.replace(`/repos/${owner}/${repo}`, '')}`.replace(/\?.*$/, ''));
    expect(reads).toEqual([
      'POST /graphql',
      expect.stringMatching(/^GET \/rulesets\/\d+$/),
      expect.stringMatching(/^GET \/rulesets\/\d+$/),
      expect.stringMatching(/^GET \/issues\/comments\/\d+$/),
      // The approval comment's edit record (command/comment.ts): an edited comment approves nothing.
      'POST /graphql',
      expect.stringMatching(/^GET \/collaborators\/[^/]+\/permission$/),
    ]);
    expect(await refOid('main')).toBe(main);
  });

  it('updates the file and the same PR on a change, and updates the title only when it differs', async () => {
    const { planFile, runId } = await approvedRun();
    const first = await publish(runId, planFile, 'one\n', { branch: 'bot/roadmap-b' });
    const second = await publish(runId, planFile, 'two\n', {
      branch: 'bot/roadmap-b',
      'pr-title': 'docs: roadmap for v2.5',
    });
    expect(second.outputs).toMatchObject({ outcome: 'updated', 'pr-number': first.outputs['pr-number'] });
    const { data } = await api().rest.pulls.get({
      owner,
      repo,
      pull_number: Number(first.outputs['pr-number']),
    });
    expect(data.title).toBe('docs: roadmap for v2.5');
    expect(await fileOn('bot/roadmap-b')).toBe('two\n');
  });

  it('survives apply-then-drop on its commit with exactly one commit after the retry', async () => {
    const { planFile, runId } = await approvedRun();
    await publish(runId, planFile, 'before\n', { branch: 'bot/roadmap-c' });
    world.emulator.admin.addFault({
      match: { operation: 'WritCommitOnBranch' },
      fault: { type: 'apply-then-drop' },
      times: 1,
    });
    const before = (await history('bot/roadmap-c')).length;
    const seq = world.emulator.admin.requests().at(-1)?.seq ?? 0;
    const run = await publish(runId, planFile, 'after\n', { branch: 'bot/roadmap-c' });
    expect(run.outputs).toMatchObject({ outcome: 'updated' });
    // The fault fired on the artifact commit (its answer dropped after it applied).
    const dropped = world.emulator.admin
      .requests()
      .filter((r) => r.seq > seq && r.fault === 'apply-then-drop');
    expect(dropped.map((r) => r.mutations)).toEqual([['createCommitOnBranch']]);
    expect((await history('bot/roadmap-c')).length).toBe(before + 1);
    expect(await fileOn('bot/roadmap-c')).toBe('after\n');
  });

  it('4 concurrent publishers: one PR, a linear history, the final content from one of them', async () => {
    const { planFile, runId } = await approvedRun();
    const texts = ['alpha\n', 'beta\n', 'gamma\n', 'delta\n'];
    const runs = await Promise.all(
      texts.map((text) => publish(runId, planFile, text, { branch: 'bot/roadmap-d' })),
    );
    for (const run of runs) expect(['created', 'updated', 'unchanged']).toContain(run.outputs.outcome);
    expect(await openPulls('bot/roadmap-d')).toHaveLength(1);
    const commits = await history('bot/roadmap-d');
    expect(commits.filter((c) => c.parents > 1).map((c) => c.message)).toEqual([]);
    expect(texts).toContain(await fileOn('bot/roadmap-d'));
  });

  it('merges a moved base into the branch: the PR stays open and a human commit survives', async () => {
    const { planFile, runId } = await approvedRun();
    const first = await publish(runId, planFile, 'v1\n', { branch: 'bot/roadmap-e' });
    const human = client(world.emulator, patOf(PEOPLE.maintain));
    const branchHead = (await refOid('bot/roadmap-e'))!;
    await human.graphql(
      `mutation($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }`,
      {
        input: {
          branch: { repositoryNameWithOwner: 'acme/widgets', branchName: 'bot/roadmap-e' },
          expectedHeadOid: branchHead,
          message: { headline: 'docs: a human note' },
          fileChanges: {
            additions: [{ path: 'docs/NOTE.md', contents: Buffer.from('kept\n').toString('base64') }],
          },
        },
      },
    );
    const mainHead = (await refOid('main'))!;
    await human.graphql(
      `mutation($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }`,
      {
        input: {
          branch: { repositoryNameWithOwner: 'acme/widgets', branchName: 'main' },
          expectedHeadOid: mainHead,
          message: { headline: 'feat: base moves on' },
          fileChanges: {
            additions: [{ path: 'src/new.txt', contents: Buffer.from('new\n').toString('base64') }],
          },
        },
      },
    );
    const movedMain = await refOid('main');
    const second = await publish(runId, planFile, 'v2\n', { branch: 'bot/roadmap-e' });
    expect(second.outputs).toMatchObject({ outcome: 'updated', 'pr-number': first.outputs['pr-number'] });
    expect(await fileOn('bot/roadmap-e', 'docs/NOTE.md')).toBe('kept\n');
    expect(await fileOn('bot/roadmap-e', 'src/new.txt')).toBe('new\n');
    expect(await openPulls('bot/roadmap-e')).toEqual([Number(first.outputs['pr-number'])]);
    expect((await history('bot/roadmap-e')).some((c) => c.parents === 2)).toBe(true);
    expect(await refOid('main')).toBe(movedMain);
  });

  it('reports a closed, unmerged PR and does not reopen it or open another until told to', async () => {
    const { planFile, runId } = await approvedRun();
    const first = await publish(runId, planFile, 'x\n', { branch: 'bot/roadmap-f' });
    await api().rest.pulls.update({
      owner,
      repo,
      pull_number: Number(first.outputs['pr-number']),
      state: 'closed',
    });
    const seq = lastSeq();
    const refused = await publish(runId, planFile, 'y\n', { branch: 'bot/roadmap-f' });
    expect(refused.outputs).toMatchObject({
      outcome: 'refused',
      reason: 'artifact-pr-closed',
      'pr-url': first.outputs['pr-url'],
    });
    expect(writesSince(seq)).toEqual([]);
    expect(await openPulls('bot/roadmap-f')).toEqual([]);
    const reopened = await publish(runId, planFile, 'y\n', {
      branch: 'bot/roadmap-f',
      'on-closed-pr': 'open-new',
    });
    expect(reopened.outputs.outcome).toBe('updated');
    expect(await openPulls('bot/roadmap-f')).toHaveLength(1);
    expect(reopened.outputs['pr-number']).not.toBe(first.outputs['pr-number']);
  });

  it('writes nothing without a consumed approval for exactly this run and digest', async () => {
    const main = await refOid('main');
    // proposed, never approved
    variant += 1;
    const unapproved = planVariant(dir, `u${variant}`, undefined, 'Never approved');
    const { runId: unapprovedRun } = await proposePlan(world, unapproved);
    const { planFile, runId } = await approvedRun();
    const changedPlan = planVariant(dir, 'changed', undefined, 'A different plan');
    const seq = lastSeq();
    const cases = [
      await publish(unapprovedRun, unapproved, 'nope\n', { branch: 'bot/roadmap-g' }),
      await publish(runId, changedPlan, 'nope\n', { branch: 'bot/roadmap-g' }),
      await publish('run-doesnotexist', planFile, 'nope\n', { branch: 'bot/roadmap-g' }),
    ];
    for (const run of cases)
      expect(run.outputs).toMatchObject({ outcome: 'refused', reason: 'stale-or-mismatched-approval' });
    // The approval comment edited after consumption no longer re-verifies.
    const run = await world.runFile(runId);
    world.emulator.admin.clock({ advance_ms: 1000 });
    await client(world.emulator, patOf(PEOPLE.write)).rest.issues.updateComment({
      owner,
      repo,
      comment_id: run!.approval!.comment_id,
      body: 'edited',
    });
    const edited = await publish(runId, planFile, 'nope\n', { branch: 'bot/roadmap-g' });
    expect(edited.outputs).toMatchObject({ outcome: 'refused', reason: 'stale-or-mismatched-approval' });
    expect(writesSince(seq).filter((w) => !w.includes('/issues/comments/'))).toEqual([]);
    expect(await refOid('bot/roadmap-g')).toBeNull();
    expect(await refOid('main')).toBe(main);
  });

  it('dry run prints the file, its diff and the requests it would make, and writes nothing', async () => {
    const { planFile, runId } = await approvedRun();
    const seq = lastSeq();
    const dry = await publish(runId, planFile, '# Hello\n', { branch: 'bot/roadmap-h', 'dry-run': 'true' });
    expect(dry.outputs).toMatchObject({ outcome: 'dry-run' });
    expect(dry.summary).toMatch(/Requests it would make/);
    expect(dry.summary).toMatch(/\+# Hello/);
    expect(dry.stdout).toMatch(/rendered docs\/reference\/roadmap.md:\n# Hello/);
    expect(writesSince(seq)).toEqual([]);
  });
});

/** What the stage passes publishArtifact, for calling it in-process with a hooked client. */
function directSettings(runId: string, epoch: string, planFile: string, branch: string) {
  return {
    repository: { owner, repo },
    runId,
    epoch: Number(epoch),
    holder: { workflow_run_id: holders.get(runId) ?? 1, attempt: 1 },
    planFile,
    commandPrefix: 'writ',
    allowedRoles: ['admin', 'maintain', 'write'],
    path: validateArtifactPath(PATH, { allowWorkflowFiles: false }),
    content: Buffer.from('mine\n'),
    branch: validateArtifactBranch(branch, 'branch'),
    base: null,
    prTitle: `docs: refresh ${PATH}`,
    prBody: '',
    onClosedPr: 'report' as const,
    dryRun: false,
  };
}

describe('publishArtifact against a concurrent writer (real client, emulator)', () => {
  it('re-reads a head moved between its read and its commit and loses no commit', async () => {
    const { planFile, runId, epoch } = await approvedRun();
    await publish(runId, planFile, 'base\n', { branch: 'bot/roadmap-i' });
    const github = client(world.emulator, APP_TOKEN);
    const human = client(world.emulator, patOf(PEOPLE.maintain));
    let injected = false;
    // After the read that shows the branch (the lane rides in the gate's ledger read, before the
    // approver's permission is re-read) and before the commit.
    github.hook.after('request', async (_response, options) => {
      if (injected || !options.url.includes('/collaborators/')) return;
      injected = true;
      const head = (await human.rest.git.getRef({ owner, repo, ref: 'heads/bot/roadmap-i' })).data.object.sha;
      await human.graphql(
        `mutation($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }`,
        {
          input: {
            branch: { repositoryNameWithOwner: 'acme/widgets', branchName: 'bot/roadmap-i' },
            expectedHeadOid: head,
            message: { headline: 'docs: concurrent human edit' },
            fileChanges: {
              additions: [{ path: 'docs/other.md', contents: Buffer.from('human\n').toString('base64') }],
            },
          },
        },
      );
    });
    const result = await publishArtifact(
      { github, ledger: world.ledger, logger: silentLogger },
      directSettings(runId, epoch, planFile, 'bot/roadmap-i'),
    );
    expect(injected).toBe(true);
    expect(result.outcome).toBe('updated');
    expect(result.writes.filter((w) => w.startsWith('commit')).length).toBeGreaterThanOrEqual(2);
    expect(await fileOn('bot/roadmap-i')).toBe('mine\n');
    expect(await fileOn('bot/roadmap-i', 'docs/other.md')).toBe('human\n');
  });

  it('uses a branch created concurrently and finds a pull request opened concurrently, never a second', async () => {
    const { planFile, runId, epoch } = await approvedRun();
    const github = client(world.emulator, APP_TOKEN);
    const human = client(world.emulator, patOf(PEOPLE.maintain));
    const branch = 'bot/roadmap-k';
    let humanPull = 0;
    // Between the lane read and each write, a human makes the same write first.
    github.hook.before('request', async (options) => {
      if (options.method !== 'POST') return;
      if (options.url.endsWith('/git/refs') && (await refOid(branch)) === null) {
        const main = (await human.rest.git.getRef({ owner, repo, ref: 'heads/main' })).data.object.sha;
        await human.rest.git.createRef({ owner, repo, ref: `refs/heads/${branch}`, sha: main });
      }
      if (options.url.endsWith('/pulls') && humanPull === 0) {
        const { data } = await human.rest.pulls.create({
          owner,
          repo,
          head: branch,
          base: 'main',
          title: 'human',
        });
        humanPull = data.number;
      }
    });
    const result = await publishArtifact(
      { github, ledger: world.ledger, logger: silentLogger },
      directSettings(runId, epoch, planFile, branch),
    );
    expect(humanPull).toBeGreaterThan(0);
    expect(result).toMatchObject({ outcome: 'created', prNumber: humanPull });
    expect(result.writes).toEqual([
      'create branch',
      `commit ${PATH}`,
      'open pull request',
      `update pull request #${humanPull}`,
    ]);
    expect(await openPulls(branch)).toEqual([humanPull]);
    expect(await fileOn(branch)).toBe('mine\n');
    const { data: pull } = await api().rest.pulls.get({ owner, repo, pull_number: humanPull });
    expect(pull.title).toBe(`docs: refresh ${PATH}`);
    expect((await world.runFile(runId))?.artifact).toMatchObject({ pr_number: humanPull });
  });

  it('publishes into a named base, merges it in once it moves on, and proposes into it alone', async () => {
    const { planFile, runId, epoch } = await approvedRun();
    const github = client(world.emulator, APP_TOKEN);
    const human = client(world.emulator, patOf(PEOPLE.admin));
    const mainHead = (await refOid('main'))!;
    await human.rest.git.createRef({ owner, repo, ref: 'refs/heads/release/2', sha: mainHead });
    const settings = {
      ...directSettings(runId, epoch, planFile, 'bot/roadmap-l'),
      base: validateArtifactBranch('release/2', 'base'),
    };
    const deps = { github, ledger: world.ledger, logger: silentLogger };
    const first = await publishArtifact(deps, settings);
    expect(first).toMatchObject({ outcome: 'created', base: 'release/2' });
    const { data: pull } = await api().rest.pulls.get({ owner, repo, pull_number: first.prNumber ?? 0 });
    expect(pull.base.ref).toBe('release/2');
    await human.graphql(
      `mutation($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }`,
      {
        input: {
          branch: { repositoryNameWithOwner: 'acme/widgets', branchName: 'release/2' },
          expectedHeadOid: mainHead,
          message: { headline: 'fix: the release moves on' },
          fileChanges: {
            additions: [{ path: 'src/release.txt', contents: Buffer.from('r\n').toString('base64') }],
          },
        },
      },
    );
    const released = (await refOid('release/2'))!;
    const second = await publishArtifact(deps, { ...settings, content: Buffer.from('mine, again\n') });
    expect(second).toMatchObject({ outcome: 'updated', prNumber: first.prNumber });
    expect(second.writes).toEqual(['merge release/2 into bot/roadmap-l', `commit ${PATH}`]);
    expect(await fileOn('bot/roadmap-l', 'src/release.txt')).toBe('r\n');
    expect(await fileOn('bot/roadmap-l')).toBe('mine, again\n');
    expect(await refOid('release/2')).toBe(released);
    expect(await refOid('main')).toBe(mainHead);
  });

  it('names the artifact branch, not the ledger, when every attempt meets a moved head', async () => {
    const { planFile, runId, epoch } = await approvedRun();
    await publish(runId, planFile, 'base\n', { branch: 'bot/roadmap-j' });
    const github = client(world.emulator, APP_TOKEN);
    const human = client(world.emulator, patOf(PEOPLE.maintain));
    let edits = 0;
    // Before every artifact commit reaches GitHub, a human commit moves the branch head.
    github.hook.before('request', async (options) => {
      if (
        options.url !== '/graphql' ||
        !String((options as { query?: unknown }).query).includes('WritCommitOnBranch')
      )
        return;
      const input = (options as { variables?: { input?: { branch?: { branchName?: string } } } }).variables
        ?.input;
      if (input?.branch?.branchName !== 'bot/roadmap-j') return;
      edits += 1;
      const head = (await human.rest.git.getRef({ owner, repo, ref: 'heads/bot/roadmap-j' })).data.object.sha;
      await human.graphql(
        `mutation($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }`,
        {
          input: {
            branch: { repositoryNameWithOwner: 'acme/widgets', branchName: 'bot/roadmap-j' },
            expectedHeadOid: head,
            message: { headline: `docs: human edit ${edits}` },
            fileChanges: {
              additions: [
                { path: 'docs/other.md', contents: Buffer.from(`human ${edits}\n`).toString('base64') },
              ],
            },
          },
        },
      );
    });
    const refused = publishArtifact(
      { github, ledger: world.ledger, logger: silentLogger },
      {
        ...directSettings(runId, epoch, planFile, 'bot/roadmap-j'),
        maxAttempts: 3,
      },
    );
    await expect(refused).rejects.toMatchObject({ code: 'artifact-cas-exhausted' });
    expect(edits).toBe(3);
    expect(await fileOn('bot/roadmap-j')).toBe('base\n');
  });
});
