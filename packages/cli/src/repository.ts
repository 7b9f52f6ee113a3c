/**
 * The repository a `writ` command acts on, found the one way every command shares: `--repo`, else
 * the Git remote named by `--remote`, else `GITHUB_REPOSITORY`, else the clone's one GitHub remote
 * (`--github-host <host>` admits a GitHub Enterprise Server host). `writ init` uses the same detection,
 * so a command run in the repository init set up finds the repository init found.
 */
import { execFileSync } from 'node:child_process';
import type { ErrorCode } from '@writ/core/errors.js';
import { WritError } from '@writ/core/errors.js';
import { parseRepository } from '@writ/core/ledger/paths.js';
import type { CliEnv } from './cli-io.js';

export interface GitHubRemote {
  remote: string;
  host: string;
  owner: string;
  repo: string;
  /** For an http(s) remote, its scheme, host and port (`https://git.acme.test:8443`): where GHES serves. */
  webOrigin?: string;
}

/** The options every command that needs a repository takes. */
export const REPOSITORY_OPTIONS = {
  repo: { type: 'string' },
  remote: { type: 'string' },
  'github-host': { type: 'string' },
} as const;

/** A GitHub remote URL (https, ssh, scp-like) → host, owner, repo; null for anything else. */
export function parseRemoteUrl(url: string): Omit<GitHubRemote, 'remote'> | null {
  const match =
    /^(?:(https?):\/\/(?:[^@/]+@)?|ssh:\/\/(?:[^@/]+@)?|git@)([A-Za-z0-9.-]+)(?::(\d+))?[:/]([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100}?)(?:\.git)?\/?$/.exec(
      url.trim(),
    );
  if (match === null) return null;
  const [, scheme, host = '', port, owner = '', repo = ''] = match;
  const lower = host.toLowerCase();
  // An ssh remote's port is the ssh daemon's; an http(s) remote's scheme and port are the web server's.
  const webOrigin =
    scheme === undefined ? undefined : `${scheme}://${lower}${port === undefined ? '' : `:${port}`}`;
  return { host: lower, owner, repo, ...(webOrigin === undefined ? {} : { webOrigin }) };
}

function isGitHubHost(host: string, extra: string | undefined): boolean {
  return (
    host === 'github.com' ||
    host.endsWith('.ghe.com') ||
    (extra !== undefined && host === extra.toLowerCase())
  );
}

/**
 * The REST base URL for a GitHub host: api.github.com, `api.<subdomain>.ghe.com`, or GHES's
 * `<origin>/api/v3` on the remote's own scheme and port when the remote is http(s) (https otherwise).
 */
export function apiUrlOf(host: string, webOrigin?: string): string {
  if (host === 'github.com') return 'https://api.github.com';
  if (host.endsWith('.ghe.com')) return `https://api.${host}`;
  return `${webOrigin ?? `https://${host}`}/api/v3`;
}

function git(cwd: string, args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

export interface RemoteQuery {
  remote?: string | undefined;
  githubHost?: string | undefined;
}

/** What `detectRemote` found: the clone's root and its GitHub remotes (every remote's name too). */
export interface RemoteScan {
  root: string | null;
  names: string[];
  remotes: GitHubRemote[];
}

/** The clone containing `dir` and its GitHub remotes; root null outside a Git repository. */
export function scanRemotes(dir: string, githubHost?: string): RemoteScan {
  const root = git(dir, ['rev-parse', '--show-toplevel']);
  if (root === null || root === '') return { root: null, names: [], remotes: [] };
  const names = (git(root, ['remote']) ?? '').split('\n').filter((name) => name !== '');
  const remotes: GitHubRemote[] = [];
  for (const name of names) {
    const parsed = parseRemoteUrl(git(root, ['remote', 'get-url', name]) ?? '');
    if (parsed !== null && isGitHubHost(parsed.host, githubHost)) remotes.push({ remote: name, ...parsed });
  }
  return { root, names, remotes };
}

/**
 * The one GitHub remote of a scanned clone: the one `--remote` names, else the only one. Refuses (with
 * `code`, and `suffix` appended to each message) a named remote that is not a GitHub remote, no GitHub
 * remote, or several.
 */
export function pickRemote(scan: RemoteScan, query: RemoteQuery, code: ErrorCode, suffix = ''): GitHubRemote {
  const { names, remotes } = scan;
  if (query.remote !== undefined) {
    const found = remotes.find((entry) => entry.remote === query.remote);
    if (found === undefined) {
      throw new WritError(
        code,
        `Remote ${JSON.stringify(query.remote)} is not a GitHub remote of this repository (GitHub remotes: ${remotes.map((entry) => entry.remote).join(', ') || 'none'}${query.githubHost === undefined ? '; pass --github-host <host> for GitHub Enterprise Server' : ''})${suffix}.`,
      );
    }
    return found;
  }
  const [only, ...more] = remotes;
  if (only === undefined) {
    throw new WritError(
      code,
      `No GitHub remote in this repository (${names.length === 0 ? 'no remotes at all' : `remotes: ${names.join(', ')}`}): add one (git remote add origin https://github.com/<owner>/<repo>.git), or pass --github-host <host> for GitHub Enterprise Server${suffix}.`,
    );
  }
  if (more.length > 0) {
    throw new WritError(
      code,
      `Several GitHub remotes (${remotes.map((entry) => `${entry.remote} → ${entry.owner}/${entry.repo}`).join(', ')}): pass --remote <name>${suffix}.`,
    );
  }
  return only;
}

/** The repository a command acts on, where it came from, and the API URL its remote implies. */
export interface RepositoryTarget {
  repository: string;
  /** `--repo`, `GITHUB_REPOSITORY`, or `remote <name>`. */
  source: string;
  /** The REST base URL of the remote's host, when the repository came from a remote. */
  apiUrl: string | null;
}

/**
 * `--repo`, else `--remote <name>`, else `GITHUB_REPOSITORY`, else the one GitHub remote of the clone
 * the command runs in (`env.PWD`, else the process's directory). Every refusal is `invalid-input`.
 */
export function repositoryTarget(
  values: { repo?: string | undefined; remote?: string | undefined; 'github-host'?: string | undefined },
  env: CliEnv,
): RepositoryTarget {
  const query: RemoteQuery = { remote: values.remote, githubHost: values['github-host'] };
  if (values.repo !== undefined) {
    if (values.remote !== undefined) {
      throw new WritError('invalid-input', 'pass --repo or --remote, not both');
    }
    parseRepository(values.repo, '--repo');
    return { repository: values.repo, source: '--repo', apiUrl: null };
  }
  const envRepository = env.GITHUB_REPOSITORY ?? '';
  if (values.remote === undefined && envRepository !== '') {
    parseRepository(envRepository, 'GITHUB_REPOSITORY');
    return { repository: envRepository, source: 'GITHUB_REPOSITORY', apiUrl: null };
  }
  const dir = env.PWD !== undefined && env.PWD !== '' ? env.PWD : process.cwd();
  const scan = scanRemotes(dir, query.githubHost);
  const none =
    'No repository: pass --repo <owner/repo> or set GITHUB_REPOSITORY, or run writ inside a clone with one GitHub remote';
  if (scan.root === null) {
    throw new WritError(
      'invalid-input',
      values.remote === undefined
        ? `${none} (${dir} is not inside a Git repository)`
        : `--remote ${JSON.stringify(values.remote)}: ${dir} is not inside a Git repository`,
    );
  }
  let remote: GitHubRemote;
  try {
    remote = pickRemote(scan, query, 'invalid-input');
  } catch (error: unknown) {
    if (!(error instanceof WritError) || values.remote !== undefined) throw error;
    throw new WritError('invalid-input', `${none} (${error.message.replace(/\.$/, '')})`);
  }
  const repository = `${remote.owner}/${remote.repo}`;
  parseRepository(repository, `remote ${remote.remote}`);
  return {
    repository,
    source: `remote ${remote.remote}`,
    apiUrl: apiUrlOf(remote.host, remote.webOrigin),
  };
}
