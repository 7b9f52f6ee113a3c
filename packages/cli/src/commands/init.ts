/** `writ init --github`: detect the repository, render `.writ/` and the workflows, never overwrite edits. */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { WritError, errorLink } from '@writ/core/errors.js';
import { planInit } from '@writ/core/setup/init.js';
import type { FileOperation, PathState } from '@writ/core/setup/init.js';
import { ownerSteps, renderOwnerSteps } from '@writ/core/setup/owner-steps.js';
import { PENDING_STAGES } from '@writ/core/setup/templates.js';
import { Problems, parseOptionsInto } from '../args.js';
import type { CliEnv, CliIo } from '../cli.js';
import { INIT_HELP, WRIT_VERSION } from '../help.js';
import type { GitHubRemote, RemoteQuery } from '../repository.js';
import { apiUrlOf, pickRemote, scanRemotes } from '../repository.js';

export type { GitHubRemote } from '../repository.js';
export { apiUrlOf, parseRemoteUrl } from '../repository.js';

function git(cwd: string, args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** The clone and its one GitHub remote, found as every `writ` command finds it (repository.ts). */
function detect(
  dir: string,
  options: RemoteQuery,
): { root: string; remote: GitHubRemote; defaultBranch: string | null } {
  const scan = scanRemotes(dir, options.githubHost);
  const root = scan.root;
  if (root === null) {
    throw new WritError('init-refused', `${dir} is not inside a Git repository; nothing was written.`);
  }
  const remote = pickRemote(scan, options, 'init-refused', '; nothing was written');
  const head = git(root, ['symbolic-ref', '--short', `refs/remotes/${remote.remote}/HEAD`]);
  const defaultBranch = head === null ? null : head.slice(remote.remote.length + 1) || null;
  return { root, remote, defaultBranch };
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

function apply(root: string, operations: readonly FileOperation[]): void {
  for (const operation of operations) {
    let target: string | null = null;
    if (operation.action === 'create' || operation.action === 'update') target = operation.path;
    if (operation.action === 'conflict' && operation.written_beside !== undefined)
      target = operation.written_beside;
    if (target === null) continue;
    const absolute = join(root, target);
    mkdirSync(dirname(absolute), { recursive: true });
    writeFileSync(absolute, operation.contents);
  }
}

const OPTIONS = {
  github: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  ref: { type: 'string' },
  'ref-version': { type: 'string' },
  'writ-repo': { type: 'string' },
  remote: { type: 'string' },
  'github-host': { type: 'string' },
  'app-slug': { type: 'string' },
  'app-id': { type: 'string' },
  'write-conflicts': { type: 'boolean' },
  dir: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function runInit(args: readonly string[], env: CliEnv, io: CliIo): number {
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
  problems.done();
  const dir = values.dir ?? env.PWD ?? process.cwd();
  const { root, remote, defaultBranch } = detect(dir, {
    ...(values.remote === undefined ? {} : { remote: values.remote }),
    ...(values['github-host'] === undefined ? {} : { githubHost: values['github-host'] }),
  });
  const plan = planInit({
    ...(values.ref === undefined ? {} : { ref: values.ref }),
    ...(values['ref-version'] === undefined ? {} : { version: values['ref-version'] }),
    ...(values['writ-repo'] === undefined ? {} : { writRepository: values['writ-repo'] }),
    ...(appSlug === undefined ? {} : { appSlug }),
    ...(appIdText === undefined ? {} : { appId: Number(appIdText) }),
    defaultVersion: `v${WRIT_VERSION}`,
    defaultWritRepository: 'writ-actions/writ',
    writeConflicts: values['write-conflicts'] === true,
    stateOf: (path) => stateOf(root, path),
  });
  const dryRun = values['dry-run'] === true;
  if (!dryRun) apply(root, plan.operations);
  const conflicts = plan.operations.filter((operation) => operation.action === 'conflict');
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
      repository: {
        owner: remote.owner,
        repo: remote.repo,
        host: remote.host,
        remote: remote.remote,
        default_branch: defaultBranch,
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
    const verb = dryRun ? 'would ' : '';
    const lines = [
      `writ init --github${dryRun ? ' (dry run: nothing written)' : ''}: ${full} on ${remote.host} (remote ${remote.remote}, default branch ${defaultBranch ?? 'unknown locally'})`,
      `Writ actions pinned to ${plan.pin.repository}@${plan.pin.ref} # ${plan.pin.version}`,
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
            : `; new render ${verb}written to ${operation.written_beside}`;
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
      `init-conflict: ${conflicts.length} file(s) not overwritten (${conflicts.map((operation) => operation.path).join(', ')}): merge the new render by hand${values['write-conflicts'] === true ? ' from the .writ-new files' : ' (--write-conflicts writes it beside each as <file>.writ-new)'}, or delete the file and re-run — ${errorLink('init-conflict')}\n`,
    );
    return 1;
  }
  return 0;
}
