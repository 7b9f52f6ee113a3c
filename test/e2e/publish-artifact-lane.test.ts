/**
 * publish-artifact stays in its lane (issue 9 §3), tried as an attacker through the bundle and the
 * emulator: every refusal has its code in `reason` and the failure message, and writes nothing (no
 * write in the emulator's request log; the ledger head and every branch, the artifact branch included,
 * unchanged), and no untrusted character reaches the log, the summary or an output raw.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { takeoverRun } from '@writ/core/ledger/ledger.js';
import type { StageRun } from '../../packages/cli/src/run-stage.js';
import type { SliceWorld } from '../support/world.js';
import {
  APP_TOKEN,
  OWNER,
  PEOPLE,
  REPO,
  approveInProcess,
  client,
  patOf,
  planVariant,
  proposePlan,
  requestLog,
  sliceWorld,
} from '../support/world.js';

let world: SliceWorld;
/** The job's RUNNER_TEMP: content files live here. */
const temp = mkdtempSync(join(tmpdir(), 'writ-lane-temp-'));
/** Somewhere else on the runner: a credentials file an attacker wants published. */
const outside = mkdtempSync(join(tmpdir(), 'writ-lane-outside-'));
const CREDENTIALS = 'aws_secret_access_key=wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY\n';
const ARTIFACT_BRANCH = 'bot/writ-artifact';
const PATH = 'docs/reference/roadmap.md';
let counter = 0;
/** A run as consume-approval left it; `holder` is the workflow run that approved it (publish's job). */
interface ApprovedRun {
  planFile: string;
  runId: string;
  epoch: string;
  holder: number;
}
let approved: ApprovedRun;

const api = () => client(world.emulator, patOf(PEOPLE.admin));

/** A run proposed and approved by a writer; the epoch is consume-approval's output. */
async function approveRun(): Promise<ApprovedRun> {
  counter += 1;
  world.emulator.admin.clock({ advance_ms: 15 * 60_000 }); // the previous lease has expired
  const planFile = planVariant(temp, `lane-plan-${counter}`, undefined, `Lane roadmap ${counter}`);
  const { runId, command } = await proposePlan(world, planFile);
  const event = await world.comment({ login: PEOPLE.write }, command);
  await approveInProcess(world, planFile, event, { holder: 7000 + counter });
  return {
    planFile,
    runId,
    epoch: String((await world.runFile(runId))?.owner?.epoch ?? ''),
    holder: 7000 + counter,
  };
}

function file(text: string, name = `content-${(counter += 1)}.md`): string {
  const path = join(temp, name);
  writeFileSync(path, text);
  return path;
}

function publish(inputs: Record<string, string>, run: ApprovedRun = approved): Promise<StageRun> {
  return world.run(
    'publish-artifact',
    {
      'run-id': run.runId,
      epoch: run.epoch,
      'plan-file': run.planFile,
      path: PATH,
      'content-file': file('# Roadmap\n\n- v2.6\n'),
      branch: ARTIFACT_BRANCH,
      'dry-run': 'false',
      ...world.ledgerInputs(),
      ...inputs,
    },
    { env: { RUNNER_TEMP: temp, GITHUB_RUN_ID: String(run.holder), GITHUB_RUN_ATTEMPT: '1' } },
  );
}

interface Snapshot {
  seq: number;
  ledgerHead: string;
  refs: Record<string, string>;
}

async function snapshot(): Promise<Snapshot> {
  const all = world.emulator.admin.requests();
  const { data } = await api().rest.git.listMatchingRefs({ owner: OWNER, repo: REPO, ref: 'heads/' });
  return {
    seq: all.length === 0 ? 0 : all[all.length - 1]!.seq,
    ledgerHead: await world.head(),
    refs: Object.fromEntries(data.map((ref) => [ref.ref, ref.object.sha])),
  };
}

const { writesSince } = requestLog(() => world.emulator);

// Raw control (but newline/tab/CR of the runner's own files), bidi and zero-width characters.
const RAW_UNTRUSTED =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

function expectNoRawUntrusted(run: StageRun): void {
  expect(run.stdout).not.toMatch(RAW_UNTRUSTED);
  expect(run.summary).not.toMatch(RAW_UNTRUSTED);
  for (const value of Object.values(run.outputs)) expect(value).not.toMatch(RAW_UNTRUSTED);
  for (const error of run.commands.errors) expect(error).not.toMatch(/[\r\n]/);
}

/** The coded refusal, and nothing written anywhere. */
async function expectRefusedWithoutWrites(run: StageRun, before: Snapshot, code: string): Promise<void> {
  expect({ outcome: run.outputs.outcome, reason: run.outputs.reason }).toEqual({
    outcome: 'refused',
    reason: code,
  });
  expect(run.status).toBe(1);
  expect(run.commands.errors).toHaveLength(1);
  expect(run.commands.errors[0]?.startsWith(`${code}: `)).toBe(true);
  expect(writesSince(before.seq)).toEqual([]);
  const after = await snapshot();
  expect(after.ledgerHead).toBe(before.ledgerHead);
  expect(after.refs).toEqual(before.refs);
  expectNoRawUntrusted(run);
}

async function refusal(inputs: Record<string, string>, code = 'invalid-input'): Promise<StageRun> {
  const before = await snapshot();
  const run = await publish(inputs);
  await expectRefusedWithoutWrites(run, before, code);
  return run;
}

beforeAll(async () => {
  world = await sliceWorld({ seed: 19 });
  writeFileSync(join(outside, 'credentials'), CREDENTIALS);
  mkdirSync(join(outside, 'nested'));
  writeFileSync(join(outside, 'nested', 'credentials'), CREDENTIALS);
  symlinkSync('/proc/self/environ', join(temp, 'environ'));
  symlinkSync(join(outside, 'credentials'), join(temp, 'creds'));
  symlinkSync(join(temp, 'creds'), join(temp, 'chain-1'));
  symlinkSync(join(temp, 'chain-1'), join(temp, 'chain-2'));
  symlinkSync(join(temp, 'environ'), join(temp, 'chain-environ'));
  symlinkSync(outside, join(temp, 'linked-dir'));
  mkdirSync(join(temp, 'a-directory'));
  execFileSync('mkfifo', [join(temp, 'a-fifo')]);
  approved = await approveRun();
  // The artifact branch exists, so "unchanged" is a claim about a real branch.
  const first = await publish({});
  expect(first.outputs).toMatchObject({ outcome: 'created', reason: '' });
});

afterAll(async () => {
  await world.close();
});

describe('publish-artifact never writes the ledger branch or the default branch', () => {
  it.each([
    ['the ledger branch as branch', { branch: 'bot/writ-ledger' }],
    ['the ledger branch qualified as refs/heads/bot/writ-ledger', { branch: 'refs/heads/bot/writ-ledger' }],
    ['the ledger branch in another case', { branch: 'Bot/Writ-Ledger' }],
    ['the ledger branch upper-cased', { branch: 'BOT/WRIT-LEDGER' }],
    ['the ledger branch as heads/bot/writ-ledger', { branch: 'heads/bot/writ-ledger' }],
    [
      'the ledger branch given also as ledger-branch',
      { branch: 'bot/writ-ledger', 'ledger-branch': 'bot/writ-ledger' },
    ],
    ['the ledger branch as base', { base: 'bot/writ-ledger' }],
    ['the ledger branch qualified as base', { base: 'refs/heads/bot/writ-ledger' }],
    ['the ledger branch in another case as base', { base: 'bot/WRIT-ledger' }],
    ['the ledger branch as both', { branch: 'bot/writ-ledger', base: 'bot/writ-ledger' }],
    ['the default branch as branch', { branch: 'main' }],
    ['the default branch in another case', { branch: 'MAIN' }],
    ['the default branch qualified', { branch: 'refs/heads/main' }],
    ['HEAD as branch', { branch: 'HEAD' }],
    ['the base as branch', { branch: 'bot/same', base: 'bot/same' }],
    ['a branch with ..', { branch: 'bot/../writ-ledger' }],
    ['a branch with a bidi override', { branch: 'bot/writ-\u202eregdel' }],
    [
      "Writ's default ledger branch while ledger-branch names another",
      { branch: 'bot/writ-ledger', 'ledger-branch': 'bot/elsewhere' },
    ],
  ])('refuses %s with invalid-input and writes nothing', async (_name, inputs) => {
    await refusal(inputs);
  });

  it('refuses a branch or a base that holds a ledger under another name', async () => {
    const ledgerHead = await world.head();
    await api().rest.git.createRef({
      owner: OWNER,
      repo: REPO,
      ref: 'refs/heads/ops/ledger-copy',
      sha: ledgerHead,
    });
    for (const inputs of [{ branch: 'ops/ledger-copy' }, { base: 'ops/ledger-copy' }] as Record<
      string,
      string
    >[]) {
      const run = await refusal(inputs);
      expect(run.commands.errors[0]).toContain('holds a Writ ledger');
    }
  });
});

describe('publish-artifact reads only regular files inside the workspace or the runner temp directory', () => {
  it.each([
    ['content-file', 'a symlink to /proc/self/environ', () => join(temp, 'environ')],
    ['content-file', '/proc/self/environ itself', () => '/proc/self/environ'],
    ['content-file', 'a symlink to a credentials file', () => join(temp, 'creds')],
    ['content-file', 'a chain of symlinks to a credentials file', () => join(temp, 'chain-2')],
    ['content-file', 'a chain of symlinks to /proc/self/environ', () => join(temp, 'chain-environ')],
    [
      'content-file',
      'a file under a symlinked parent directory',
      () => join(temp, 'linked-dir', 'credentials'),
    ],
    [
      'content-file',
      'a deeper file under a symlinked parent',
      () => join(temp, 'linked-dir', 'nested', 'credentials'),
    ],
    [
      'content-file',
      '.. out of the temp directory',
      () => join(temp, '..', basename(outside), 'credentials'),
    ],
    ['content-file', '/etc/passwd', () => '/etc/passwd'],
    ['content-file', '/dev/zero', () => '/dev/zero'],
    ['content-file', 'a directory', () => join(temp, 'a-directory')],
    ['content-file', 'a FIFO', () => join(temp, 'a-fifo')],
    ['content-file', 'a missing file', () => join(temp, 'missing.md')],
    ['pr-body-file', 'a symlink to a credentials file', () => join(temp, 'creds')],
    ['pr-body-file', 'a symlink to /proc/self/environ', () => join(temp, 'environ')],
    [
      'pr-body-file',
      'a file under a symlinked parent directory',
      () => join(temp, 'linked-dir', 'credentials'),
    ],
    ['pr-body-file', 'a directory', () => join(temp, 'a-directory')],
    ['pr-body-file', 'a FIFO', () => join(temp, 'a-fifo')],
  ])('refuses %s as %s, publishing nothing', async (input, _name, path) => {
    const run = await refusal({ [input]: path() });
    expect(run.commands.errors[0]).toContain(`input '${input}'`);
    expect(run.stdout).not.toContain('wJalrXUtnFEMI');
  });

  it('publishes through a symlink whose target is inside the temp directory', async () => {
    const target = file('# Linked\n', 'linked-target.md');
    symlinkSync(target, join(temp, 'link-inside'));
    const run = await publish({ 'content-file': join(temp, 'link-inside'), branch: 'bot/lane-linked' });
    expect(run.outputs).toMatchObject({ outcome: 'created', reason: '' });
  });
});

describe('publish-artifact never publishes the token or a registered secret', () => {
  const percentAll = (text: string) =>
    Array.from(Buffer.from(text))
      .map((b) => `%${b.toString(16).padStart(2, '0')}`)
      .join('');

  it.each([
    ['content-file', 'the token raw', `# Roadmap\n\n${APP_TOKEN}\n`],
    ['content-file', 'the token base64-encoded', Buffer.from(APP_TOKEN).toString('base64')],
    [
      'content-file',
      'the token base64-encoded at offset 1',
      `x: ${Buffer.from(`a${APP_TOKEN}`).toString('base64')}`,
    ],
    [
      'content-file',
      'the token base64-encoded at offset 2',
      Buffer.from(`ab${APP_TOKEN}\n`).toString('base64'),
    ],
    ['content-file', 'the token URL-encoded byte by byte', `https://x.example/?t=${percentAll(APP_TOKEN)}`],
    ['content-file', 'the token hex-encoded', Buffer.from(APP_TOKEN).toString('hex')],
    ['content-file', "another person's token", `# Notes\n\n${patOf(PEOPLE.admin)}\n`],
    ['pr-body-file', 'the token raw', `Body ${APP_TOKEN}`],
    ['pr-body-file', 'the token base64-encoded', Buffer.from(APP_TOKEN).toString('base64')],
  ])('refuses %s holding %s', async (input, _name, text) => {
    const run = await refusal({ [input]: file(text) });
    expect(run.commands.errors[0]).toContain('never published');
  });

  it('refuses a pr-title holding the token', async () => {
    await refusal({ 'pr-title': `docs: ${APP_TOKEN}` });
  });
});

describe('publish-artifact writes only paths git accepts on every file system', () => {
  it.each([
    '.git/config',
    '.GIT/config',
    'docs/.Git/HEAD',
    '.git./config',
    '.git /config',
    '.git. ./hooks/pre-commit',
    'git~1/config',
    'GIT~1/config',
    '.g\u200cit/config',
    '.git\u200d/config',
    '.git\ufeff/config',
    '.git::$INDEX_ALLOCATION/config',
    '.ｇｉｔ/config',
    '..',
    '../escape.md',
    'docs/../../escape.md',
    './docs/x.md',
    'a//b.md',
    'docs/',
    '/etc/x.md',
    '//server/share/x.md',
    'C:/x.md',
    'C:x.md',
    'docs\\..\\x.md',
    '.git\\config',
    'docs/x\u0001.md',
    'docs/x\n.md',
    'docs/x\u001b[31m.md',
    'docs/x\u001b]8;;https://evil\u0007.md',
    'docs/\u202egpj.md',
    'docs/x\u2066.md',
    'docs/\u00a0x.md',
    'docs/nul',
    'docs/CON.md',
    '.github/workflows/evil.yml',
    '.GitHub/Workflows/evil.yml',
    '.github/workflows',
  ])('refuses path %j and never echoes it raw', async (path) => {
    const run = await refusal({ path });
    expect(run.commands.errors[0]).toContain("input 'path'");
  });

  it('refuses allow-workflow-files that is not a boolean', async () => {
    await refusal({ path: '.github/workflows/evil.yml', 'allow-workflow-files': 'yes' });
  });

  it('publishes a workflow file only when allow-workflow-files is true', async () => {
    const run = await publish({
      path: '.github/workflows/generated.yml',
      'allow-workflow-files': 'true',
      'content-file': file('name: generated\non: workflow_dispatch\n'),
      branch: 'bot/lane-workflow',
    });
    expect(run.outputs).toMatchObject({ outcome: 'created', reason: '' });
  });
});

describe('publish-artifact shows untrusted text only escaped', () => {
  it('publishes a title with control and bidi characters shown as U+FFFD', async () => {
    const run = await publish({
      'pr-title': 'docs: \u202egnp.exe\u001b[31m red\nsecond line',
      branch: 'bot/lane-title',
    });
    expect(run.outputs).toMatchObject({ outcome: 'created', reason: '' });
    const { data } = await api().rest.pulls.get({
      owner: OWNER,
      repo: REPO,
      pull_number: Number(run.outputs['pr-number']),
    });
    expect(data.title).toBe('docs: \ufffdgnp.exe\ufffd[31m red second line');
    const { data: commit } = await api().rest.repos.getCommit({
      owner: OWNER,
      repo: REPO,
      ref: run.outputs['commit-oid'] ?? '',
    });
    expect(commit.commit.message.split('\n')[0]).toBe(data.title);
    expectNoRawUntrusted(run);
  });

  it('dry run: the file cannot run workflow commands or close the diff fence', async () => {
    const before = await snapshot();
    const text =
      '# Page\n```\n<img src=x onerror=alert(1)>\n::error::pwned\n::add-mask::x\n\u001b[2J\u202eevil\n';
    const run = await publish({ 'content-file': file(text), 'dry-run': 'true', branch: 'bot/lane-dry' });
    expect(run.outputs).toMatchObject({ outcome: 'dry-run', reason: '' });
    const stop = /::stop-commands::([0-9a-f-]{36})\n([\s\S]*?)::\1::/.exec(run.stdout);
    expect(stop?.[2]).toContain('::error::pwned');
    expect(run.stdout.replace(stop?.[0] ?? '', '')).not.toContain('pwned');
    const fence = /\n(`{4,})diff\n[\s\S]*?\n\1\n/.exec(run.summary);
    expect(fence?.[0]).toContain('+```');
    expect(fence?.[0]).toContain('<img src=x');
    expectNoRawUntrusted(run);
    expect(writesSince(before.seq)).toEqual([]);
  });
});

describe('publish-artifact is fenced by the epoch consume-approval output', () => {
  it.each([
    ['missing', ''],
    ['zero', '0'],
    ['negative', '-1'],
    ['not a number', 'abc'],
    ['fractional', '1.5'],
  ])('refuses an epoch that is %s with invalid-input', async (_name, epoch) => {
    await refusal({ epoch });
  });

  it('refuses a run whose epoch is older than the lease, and an epoch not its own, with fenced', async () => {
    const older = await approveRun();
    const newer = await approveRun(); // takes the lease at a later epoch
    expect(Number(newer.epoch)).toBeGreaterThan(Number(older.epoch));
    for (const [run, epoch, dryRun] of [
      [older, older.epoch, 'false'],
      [older, older.epoch, 'true'],
      [older, newer.epoch, 'false'],
      [newer, older.epoch, 'false'],
      [newer, String(Number(newer.epoch) + 1), 'false'],
    ] as const) {
      const before = await snapshot();
      const result = await publish({ epoch, 'dry-run': dryRun, branch: 'bot/lane-fence' }, run);
      await expectRefusedWithoutWrites(result, before, 'fenced');
    }
    expect(await world.runFile(older.runId)).toMatchObject({ artifact: null });
    const ok = await publish({ branch: 'bot/lane-fence' }, newer);
    expect(ok.outputs).toMatchObject({ outcome: 'created', reason: '' });
  });

  it('refuses an epoch older than the run after a takeover and than its last artifact record', async () => {
    const run = await approveRun();
    const first = await publish({ branch: 'bot/lane-takeover' }, run);
    expect(first.outputs).toMatchObject({ outcome: 'created' });
    world.emulator.admin.clock({ advance_ms: 60 * 60_000 });
    await takeoverRun(world.ledger, { runId: run.runId, holder: { workflow_run_id: 8801, attempt: 1 } });
    const taken = {
      ...run,
      epoch: String((await world.runFile(run.runId))?.owner?.epoch ?? ''),
      holder: 8801,
    };
    expect(Number(taken.epoch)).toBe(Number(run.epoch) + 1);

    let before = await snapshot();
    const stale = await publish({ branch: 'bot/lane-takeover', 'content-file': file('stale\n') }, run);
    await expectRefusedWithoutWrites(stale, before, 'fenced');

    const current = await publish({ branch: 'bot/lane-takeover', 'content-file': file('current\n') }, taken);
    expect(current.outputs).toMatchObject({ outcome: 'updated', reason: '' });
    expect((await world.runFile(run.runId))?.artifact).toMatchObject({ epoch: Number(taken.epoch) });

    before = await snapshot();
    const again = await publish({ branch: 'bot/lane-takeover', 'content-file': file('stale again\n') }, run);
    await expectRefusedWithoutWrites(again, before, 'fenced');
  });
});
