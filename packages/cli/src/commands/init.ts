/** `writ init --github`: detect the repository, render `.writ/` and the workflows, never overwrite edits. */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { WritError, errorLink, errorMessage } from '@writ/core/errors.js';
import { ENVIRONMENT_NAME } from '@writ/core/setup/environment-name.js';
import { planInit } from '@writ/core/setup/init.js';
import type { FileOperation, PathState } from '@writ/core/setup/init.js';
import { ownerSteps, renderOwnerSteps } from '@writ/core/setup/owner-steps.js';
import { PENDING_STAGES } from '@writ/core/setup/templates.js';
import { Problems, parseOptionsInto } from '../args.js';
import type { CliEnv, CliIo } from '../cli-io.js';
import { INIT_HELP } from '../help.js';
import { githubFromEnv } from '../github-env.js';
import type { GitHubRemote, RemoteQuery } from '../repository.js';
import { apiUrlOf, pickRemote, scanRemotes } from '../repository.js';
import { REPO_ROOT } from '../run-stage.js';

export type { GitHubRemote } from '../repository.js';
export { apiUrlOf, parseRemoteUrl } from '../repository.js';

function git(cwd: string, args: string[], timeout?: number): string | null {
  try {
    return execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      // Asking a remote never prompts for credentials (the user's credential helpers still answer).
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
      ...(timeout === undefined ? {} : { timeout }),
    }).trim();
  } catch {
    return null;
  }
}

/** The clone and its one GitHub remote, found as every `writ` command finds it (repository.ts). */
function detect(dir: string, options: RemoteQuery): { root: string; remote: GitHubRemote } {
  const scan = scanRemotes(dir, options.githubHost);
  const root = scan.root;
  if (root === null) {
    throw new WritError('init-refused', `${dir} is not inside a Git repository; nothing was written.`);
  }
  const remote = pickRemote(scan, options, 'init-refused', '; nothing was written');
  return { root, remote };
}

type DefaultBranchSource = 'api' | 'remote' | 'local';

const BRANCH = /^[A-Za-z0-9._/-]{1,255}$/;

/**
 * The repository's default branch, asked of the remote: its `default_branch` over the API when
 * GITHUB_TOKEN is set, else `git ls-remote --symref <remote> HEAD` (the user's own Git access), else
 * what the clone recorded of the remote's HEAD (`refs/remotes/<remote>/HEAD`, from the clone or the last
 * `git remote set-head`). `offline` skips both questions to the remote. Null when nothing answers.
 */
async function detectDefaultBranch(
  root: string,
  remote: GitHubRemote,
  env: CliEnv,
  offline: boolean,
): Promise<{ branch: string; source: DefaultBranchSource } | null> {
  if (!offline && (env.GITHUB_TOKEN ?? '') !== '') {
    try {
      const github = githubFromEnv(env, {
        repository: `${remote.owner}/${remote.repo}`,
        source: `remote ${remote.remote}`,
        apiUrl: apiUrlOf(remote.host, remote.webOrigin),
      });
      const response = await github.request('GET /repos/{owner}/{repo}', {
        owner: remote.owner,
        repo: remote.repo,
      });
      const branch = response.data.default_branch;
      if (BRANCH.test(branch)) return { branch, source: 'api' };
    } catch {
      // Not answered (no access, no network): ask Git instead.
    }
  }
  if (!offline) {
    const listed = git(root, ['ls-remote', '--symref', remote.remote, 'HEAD'], 30_000);
    const match = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(listed ?? '');
    if (match?.[1] !== undefined && BRANCH.test(match[1])) return { branch: match[1], source: 'remote' };
  }
  const head = git(root, ['symbolic-ref', '--short', `refs/remotes/${remote.remote}/HEAD`]);
  const local = head === null ? '' : head.slice(remote.remote.length + 1);
  return BRANCH.test(local) ? { branch: local, source: 'local' } : null;
}

function stateOf(root: string, path: string): PathState {
  // Every parent directory must be a real directory too (a symlinked .github would write elsewhere).
  const parts = path.split('/');
  for (let index = 1; index < parts.length; index += 1) {
    const parent = join(root, ...parts.slice(0, index));
    try {
      const stat = lstatSync(parent);
      if (!stat.isDirectory())
        return { kind: 'other', what: stat.isSymbolicLink() ? 'path under a symlink' : 'path under a file' };
    } catch {
      return { kind: 'missing' };
    }
  }
  try {
    const stat = lstatSync(join(root, path));
    if (stat.isSymbolicLink()) return { kind: 'other', what: 'symlink' };
    if (stat.isDirectory()) return { kind: 'other', what: 'directory' };
    if (!stat.isFile()) return { kind: 'other', what: 'special file' };
    return { kind: 'file', text: readFileSync(join(root, path), 'utf8') };
  } catch {
    return { kind: 'missing' };
  }
}

/**
 * The version comment for a pinned commit, read from the Writ clone: the highest `vX.Y.Z` tag pointing
 * at it, else its 7-hex short SHA. A commit the clone does not have is init-ref-unknown.
 */
export function versionInClone(clone: string, ref: string): string {
  const fetch = `git -C ${clone} fetch origin ${ref}`;
  if (git(clone, ['rev-parse', '--git-dir']) === null) {
    throw new WritError(
      'init-ref-unknown',
      `The Writ clone ${clone} is not a Git repository, so ${ref} cannot be checked in it: run writ from a Git clone of Writ (git clone https://github.com/writ-actions/writ.git) that has the commit you reviewed; nothing was written.`,
    );
  }
  if (git(clone, ['cat-file', '-e', `${ref}^{commit}`]) === null) {
    throw new WritError(
      'init-ref-unknown',
      `Commit ${ref} is not in the Writ clone ${clone}: fetch it (${fetch}, and git -C ${clone} fetch --tags origin for its release tag), review it, and run writ init again; nothing was written.`,
    );
  }
  const tags = (git(clone, ['tag', '--points-at', ref]) ?? '')
    .split('\n')
    .map((tag) => /^v(\d{1,9})\.(\d{1,9})\.(\d{1,9})$/.exec(tag.trim()))
    .filter((match) => match !== null)
    .map((match) => ({ tag: match[0], parts: match.slice(1, 4).map(Number) }))
    .sort((a, b) => {
      for (let index = 0; index < 3; index += 1) {
        const diff = (b.parts[index] ?? 0) - (a.parts[index] ?? 0);
        if (diff !== 0) return diff;
      }
      return 0;
    });
  return tags[0]?.tag ?? ref.slice(0, 7);
}

/**
 * The commit a release tag points at in the Writ clone, an annotated tag peeled to its commit (only
 * `refs/tags/`, never a branch of that name). A tag the clone lacks is init-tag-unknown.
 */
function tagInClone(clone: string, tag: string): string {
  if (git(clone, ['rev-parse', '--git-dir']) === null) {
    throw new WritError(
      'init-ref-unknown',
      `The Writ clone ${clone} is not a Git repository, so the tag ${tag} cannot be resolved in it: run writ from a Git clone of Writ (git clone https://github.com/writ-actions/writ.git) that has the release you reviewed; nothing was written.`,
    );
  }
  const commit = git(clone, ['rev-parse', '--verify', '--quiet', `refs/tags/${tag}^{commit}`]);
  if (commit === null || !/^[0-9a-f]{40}$/.test(commit)) {
    throw new WritError(
      'init-tag-unknown',
      `The release tag ${tag} is not in the Writ clone ${clone}: fetch the tags (git -C ${clone} fetch --tags origin), review the commit ${tag} points at, and run writ init again; nothing was written.`,
    );
  }
  return commit;
}

/**
 * All or nothing. With a conflict, no target file changes (only the `.writ-new` renders beside each
 * conflict are written, with --write-conflicts); otherwise every create and update is first written
 * to a temporary file beside its target, and only when all of them are written are they renamed into
 * place, so a failed write (a full disk, a permission) leaves every target as it was.
 */
function apply(root: string, operations: readonly FileOperation[], conflicted: boolean): void {
  const writes: { target: string; contents: string }[] = [];
  for (const operation of operations) {
    if (conflicted) {
      if (operation.action === 'conflict' && operation.written_beside !== undefined)
        writes.push({ target: join(root, operation.written_beside), contents: operation.contents });
    } else if (operation.action === 'create' || operation.action === 'update') {
      writes.push({ target: join(root, operation.path), contents: operation.contents });
    }
  }
  const staged: { temporary: string; target: string }[] = [];
  const created: string[] = [];
  try {
    for (const write of writes) {
      const made = mkdirSync(dirname(write.target), { recursive: true });
      if (made !== undefined) created.push(made);
      const temporary = `${write.target}.writ-tmp-${process.pid}`;
      writeFileSync(temporary, write.contents, { flag: 'wx' });
      staged.push({ temporary, target: write.target });
    }
  } catch (error: unknown) {
    for (const entry of staged) rmSync(entry.temporary, { force: true });
    for (const made of created.reverse()) rmSync(made, { recursive: true, force: true });
    throw new WritError(
      'init-refused',
      `Could not write ${writes[staged.length]?.target ?? 'a file'} (${errorMessage(error)}); no file was changed.`,
    );
  }
  for (const entry of staged) renameSync(entry.temporary, entry.target);
}

const OPTIONS = {
  github: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  ref: { type: 'string' },
  'writ-repo': { type: 'string' },
  'writ-clone': { type: 'string' },
  remote: { type: 'string' },
  'github-host': { type: 'string' },
  'app-slug': { type: 'string' },
  'app-id': { type: 'string' },
  environment: { type: 'string' },
  pages: { type: 'boolean' },
  project: { type: 'string' },
  offline: { type: 'boolean' },
  'write-conflicts': { type: 'boolean' },
  dir: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function runInit(args: readonly string[], env: CliEnv, io: CliIo): Promise<number> {
  const problems = new Problems('writ init');
  const { values } = parseOptionsInto(args, OPTIONS, problems);
  if (values.help === true) {
    io.stdout(INIT_HELP);
    return 0;
  }
  if (values.github !== true) problems.add('writ init needs --github (the only platform Writ sets up)');
  const appIdText = values['app-id'];
  if (appIdText !== undefined && !/^[1-9][0-9]{0,15}$/.test(appIdText)) {
    problems.add('invalid --app-id: expected the numeric GitHub App ID');
  }
  const appSlug = values['app-slug'];
  if (appSlug !== undefined && !/^[a-z0-9](?:[a-z0-9-]{0,33}[a-z0-9])?$/.test(appSlug)) {
    problems.add('invalid --app-slug: expected the GitHub App slug, e.g. acme-writ');
  }
  const environment = values.environment;
  if (environment !== undefined && !ENVIRONMENT_NAME.test(environment)) {
    problems.add('invalid --environment: expected letters, digits, ".", "_" and "-" (at most 255)');
  }
  problems.done();
  const dir = values.dir ?? env.PWD ?? process.cwd();
  const { root, remote } = detect(dir, {
    ...(values.remote === undefined ? {} : { remote: values.remote }),
    ...(values['github-host'] === undefined ? {} : { githubHost: values['github-host'] }),
  });
  const detected = await detectDefaultBranch(root, remote, env, values.offline === true);
  const defaultBranch = detected?.branch ?? null;
  // The Writ clone this command runs from: the pinned commit must be one it has (the one reviewed).
  const clone = resolve(values['writ-clone'] ?? REPO_ROOT);
  const plan = planInit({
    ...(values.ref === undefined ? {} : { ref: values.ref }),
    ...(values['writ-repo'] === undefined ? {} : { writRepository: values['writ-repo'] }),
    ...(appSlug === undefined ? {} : { appSlug }),
    ...(appIdText === undefined ? {} : { appId: Number(appIdText) }),
    versionOf: (ref) => versionInClone(clone, ref),
    resolveTag: (tag) => tagInClone(clone, tag),
    ...(environment === undefined ? {} : { environment }),
    ...(values.pages === true ? { pages: true } : {}),
    ...(values.project === undefined ? {} : { project: values.project }),
    defaultBranch,
    defaultWritRepository: 'writ-actions/writ',
    writeConflicts: values['write-conflicts'] === true,
    stateOf: (path) => stateOf(root, path),
  });
  const dryRun = values['dry-run'] === true;
  const conflicts = plan.operations.filter((operation) => operation.action === 'conflict');
  if (!dryRun) apply(root, plan.operations, conflicts.length > 0);
  const changed = plan.operations.some(
    (operation) => operation.action === 'create' || operation.action === 'update',
  );
  const result = dryRun ? 'dry-run' : conflicts.length > 0 ? 'conflict' : changed ? 'written' : 'unchanged';
  const steps = ownerSteps(remote, plan.config);
  const full = `${remote.owner}/${remote.repo}`;
  if (values.json === true) {
    const document = {
      schema: 1,
      result,
      ...(conflicts.length > 0 ? { code: 'init-conflict' } : {}),
      dry_run: dryRun,
      environment: plan.config.environment ?? null,
      repository: {
        owner: remote.owner,
        repo: remote.repo,
        host: remote.host,
        remote: remote.remote,
        default_branch: defaultBranch,
        ...(detected === null ? {} : { default_branch_source: detected.source }),
        api_url: apiUrlOf(remote.host, remote.webOrigin),
      },
      writ: plan.pin,
      files: plan.operations.map((operation) => ({
        path: operation.path,
        action: operation.action,
        sha256: operation.sha256,
        ...(operation.reason === undefined ? {} : { reason: operation.reason }),
        ...(operation.written_beside === undefined ? {} : { written_beside: operation.written_beside }),
      })),
      pending: PENDING_STAGES.map((entry) => ({ ...entry })),
      owner_steps: steps,
    };
    io.stdout(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    // A conflict holds every create and update back, as a dry run does: they are what a re-run will do.
    const held = !dryRun && conflicts.length > 0;
    const verb = dryRun || held ? 'would ' : '';
    const note = dryRun
      ? ' (dry run: nothing written)'
      : held
        ? ` (conflict: no file changed${values['write-conflicts'] === true ? ' but the .writ-new renders' : ''})`
        : '';
    const lines = [
      `writ init --github${note}: ${full} on ${remote.host} (remote ${remote.remote}, default branch ${detected === null ? 'unknown' : `${detected.branch}, from ${{ api: 'the API', remote: 'the remote', local: "the clone's record" }[detected.source]}`})`,
      `Writ actions pinned to ${plan.pin.repository}@${plan.pin.ref} # ${plan.pin.version}`,
      ...(plan.config.environment === undefined
        ? []
        : [
            `The jobs that write run in the GitHub Environment ${plan.config.environment} (check it: writ doctor --github)`,
          ]),
      ...(plan.config.pages === true
        ? [
            'The recovery workflow publishes the read-only control tower to GitHub Pages (Settings → Pages → Source: GitHub Actions; docs/pages.md)',
          ]
        : []),
      '',
      ...plan.operations.map((operation) => {
        const what = {
          create: `${verb}create`,
          update: `${verb}update`,
          unchanged: 'unchanged',
          conflict: 'CONFLICT',
        }[operation.action];
        const beside =
          operation.written_beside === undefined
            ? ''
            : `; new render ${dryRun ? 'would be ' : ''}written to ${operation.written_beside}`;
        return `  ${what.padEnd(12)} ${operation.path}${operation.reason === undefined ? '' : ` (${operation.reason}, left untouched${beside})`}`;
      }),
      '',
      ...(PENDING_STAGES.length === 0
        ? ['']
        : [
            'Pending (rendered when the stage is released; re-run writ init then):',
            ...PENDING_STAGES.map((entry) => `  ${entry.stage}: ${entry.what}`),
            '',
          ]),
    ];
    io.stdout(`${lines.join('\n')}${renderOwnerSteps(steps, full, apiUrlOf(remote.host, remote.webOrigin))}`);
  }
  if (conflicts.length > 0) {
    io.stderr(
      `init-conflict: ${conflicts.length} file(s) not overwritten (${conflicts.map((operation) => operation.path).join(', ')}), and no other file changed${dryRun ? '' : ' (init writes all of its files or none)'}: merge the new render by hand${values['write-conflicts'] === true ? ' from the .writ-new files' : ' (--write-conflicts writes it beside each as <file>.writ-new)'}, or delete the file and re-run — ${errorLink('init-conflict')}\n`,
    );
    return 1;
  }
  return 0;
}
