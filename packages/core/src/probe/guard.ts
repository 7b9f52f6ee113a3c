/**
 * The probe's guard, run before any request that writes: the sandbox must be confirmed (typed twice),
 * listed in the allow-list read from the *running* repository's default branch through the API (with
 * the workflow's own token, never from a checked-out ref a pull request could change), and must not be
 * the running repository — by name, case-insensitively, and by repository ID as the sandbox token sees
 * it (a renamed or redirected name is the same repository). An allow-list that names the running
 * repository is itself refused. Last, the sandbox token must not reach the running repository at all:
 * a 404 by name and by ID (requireCurrentUnreachable). Every failure is `probe-repository-refused`;
 * the guard only reads.
 */
import validateAllowlist from '../generated/writ-probe-allowlist-validator.js';
import { WritError, httpStatus } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import { parseRepository } from '../ledger/paths.js';

export interface GuardSettings {
  /** The sandbox, `owner/name` (input `repository`). */
  sandbox: string;
  /** Must equal `sandbox` exactly (input `confirm-sandbox`). */
  confirmSandbox: string;
  /** The repository the workflow runs in (GITHUB_REPOSITORY). */
  current: string;
  /** The allow-list's path in the running repository (input `allowlist-file`). */
  allowlistFile: string;
}

export interface GuardDeps {
  /** The workflow's own token on the running repository (`contents: read`): reads the allow-list. */
  repositoryGithub: GitHubClient;
  /** The sandbox-only token: reads the sandbox's identity. */
  sandboxGithub: GitHubClient;
}

export interface SandboxInfo {
  owner: string;
  repo: string;
  id: number;
  nodeId: string;
  defaultBranch: string;
  /** The server's time when the sandbox was read (ms), from its `Date` header. */
  serverTime: number | null;
}

/** A repository-relative path: no leading `/`, no `..` segment, no empty segment. */
const RELATIVE_PATH = /^(?!\/)(?!.*(?:^|\/)\.{1,2}(?:\/|$))(?!.*\/\/)[A-Za-z0-9._/-]{1,255}$/;

export function validateAllowlistFile(path: string): string {
  if (!RELATIVE_PATH.test(path)) {
    throw new WritError(
      'invalid-input',
      `input 'allowlist-file' must be a path inside the repository, like .writ/probe-allowlist.json (got ${path.length} characters)`,
    );
  }
  return path;
}

function refused(why: string, message: string): WritError {
  return new WritError('probe-repository-refused', message, { details: { why } });
}

function same(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function status(error: unknown): string {
  const code = httpStatus(error);
  return code === undefined ? 'no response' : `HTTP ${code}`;
}

/** The allow-list's repositories, read from the running repository's default branch. */
async function readAllowlist(
  github: GitHubClient,
  current: { owner: string; repo: string },
  path: string,
): Promise<{ repositories: string[]; id: number; defaultBranch: string }> {
  let repository;
  try {
    repository = (await github.request('GET /repos/{owner}/{repo}', { ...current })).data;
  } catch (error: unknown) {
    throw refused(
      'allowlist-unreadable',
      `cannot read the running repository ${current.owner}/${current.repo} with repository-token (${status(error)}), so its probe allow-list cannot be checked`,
    );
  }
  const defaultBranch = repository.default_branch;
  let text: string;
  try {
    const response = await github.request('GET /repos/{owner}/{repo}/contents/{path}', {
      ...current,
      path,
      ref: defaultBranch,
    });
    const data = record(response.data);
    if (Array.isArray(response.data) || data.type !== 'file' || typeof data.content !== 'string') {
      throw refused('allowlist-missing', `${path} on ${defaultBranch} is not a file`);
    }
    text = Buffer.from(data.content, 'base64').toString('utf8');
  } catch (error: unknown) {
    if (error instanceof WritError) throw error;
    if (httpStatus(error) === 404) {
      throw refused(
        'allowlist-missing',
        `no probe allow-list at ${path} on ${defaultBranch} of ${current.owner}/${current.repo}: the probe writes to no repository`,
      );
    }
    throw refused('allowlist-unreadable', `cannot read ${path} on ${defaultBranch} (${status(error)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw refused('allowlist-invalid', `${path} on ${defaultBranch} is not JSON`);
  }
  if (!validateAllowlist(value)) {
    throw refused(
      'allowlist-invalid',
      `${path} on ${defaultBranch} does not validate against schemas/writ/probe-allowlist.schema.json`,
    );
  }
  return {
    repositories: (value as { repositories: string[] }).repositories,
    id: Number(repository.id),
    defaultBranch,
  };
}

/**
 * The sandbox token must not reach the running repository: GitHub must answer 404 to it for the running
 * repository by name (`GET /repos/{owner}/{repo}`) and by ID (`GET /repositories/{id}`, which a rename
 * or a redirect does not escape). Only a 404 proves it: a 200 (any access, a pull-only collaborator, a
 * public repository — readable by every token, and a token's write access to it cannot be proven
 * absent from a read) is `running-repository-visible`; a 403, a 5xx or no answer is
 * `running-repository-unproven`. Both `probe-repository-refused`.
 */
async function requireCurrentUnreachable(
  sandboxGithub: GitHubClient,
  current: { owner: string; repo: string },
  id: number,
): Promise<void> {
  const name = `${current.owner}/${current.repo}`;
  const reads: [string, () => Promise<unknown>][] = [
    ['by name', () => sandboxGithub.request('GET /repos/{owner}/{repo}', { ...current })],
    ['by ID', () => sandboxGithub.request('GET /repositories/{id}', { id })],
  ];
  for (const [how, read] of reads) {
    let answer: number | undefined;
    try {
      await read();
      answer = 200;
    } catch (error: unknown) {
      answer = httpStatus(error);
    }
    if (answer === 404) continue;
    if (answer !== undefined && answer >= 200 && answer < 300) {
      throw refused(
        'running-repository-visible',
        `the sandbox token can see ${name}, the repository this workflow runs in (${how}): the probe runs only with a token that reaches the sandbox alone`,
      );
    }
    throw refused(
      'running-repository-unproven',
      `cannot show that the sandbox token does not reach ${name} (${how}: ${answer === undefined ? 'no response' : `HTTP ${answer}`}, not 404): the probe writes nothing`,
    );
  }
}

/** Refuses anything but a confirmed, allow-listed sandbox that is not the running repository. */
export async function guardSandbox(deps: GuardDeps, settings: GuardSettings): Promise<SandboxInfo> {
  const sandbox = parseRepository(settings.sandbox, "input 'repository'");
  const current = parseRepository(settings.current, 'GITHUB_REPOSITORY');
  if (settings.confirmSandbox !== settings.sandbox) {
    throw refused(
      'unconfirmed',
      `input 'confirm-sandbox' does not equal input 'repository' (${settings.sandbox}): type the sandbox's name in both`,
    );
  }
  if (same(settings.sandbox, settings.current)) {
    throw refused(
      'current-repository',
      `${settings.sandbox} is the repository this workflow runs in; the probe writes only to a separate sandbox`,
    );
  }
  const allowlist = await readAllowlist(deps.repositoryGithub, current, settings.allowlistFile);
  if (allowlist.repositories.some((entry) => same(entry, settings.current))) {
    throw refused(
      'allowlist-names-current',
      `${settings.allowlistFile} on ${allowlist.defaultBranch} lists ${settings.current}, the repository this workflow runs in: the allow-list itself is refused`,
    );
  }
  if (!allowlist.repositories.some((entry) => same(entry, settings.sandbox))) {
    throw refused(
      'not-allow-listed',
      `${settings.sandbox} is not listed in ${settings.allowlistFile} on ${allowlist.defaultBranch} of ${settings.current}`,
    );
  }
  let response;
  try {
    response = await deps.sandboxGithub.request('GET /repos/{owner}/{repo}', { ...sandbox });
  } catch (error: unknown) {
    throw refused(
      'sandbox-unreadable',
      `cannot read ${settings.sandbox} with the sandbox token (${status(error)})`,
    );
  }
  const data = response.data;
  if (!same(data.full_name, settings.sandbox)) {
    throw refused(
      'sandbox-renamed',
      `${settings.sandbox} answers as ${data.full_name} (renamed or redirected): confirm and allow-list its current name`,
    );
  }
  if (Number(data.id) === allowlist.id) {
    throw refused(
      'current-repository',
      `${settings.sandbox} is the repository this workflow runs in (same repository ID); the probe writes only to a separate sandbox`,
    );
  }
  await requireCurrentUnreachable(deps.sandboxGithub, current, allowlist.id);
  const date = record(response.headers).date;
  const serverTime = typeof date === 'string' ? Date.parse(date) : Number.NaN;
  return {
    owner: sandbox.owner,
    repo: sandbox.repo,
    id: Number(data.id),
    nodeId: data.node_id,
    defaultBranch: data.default_branch,
    serverTime: Number.isFinite(serverTime) ? serverTime : null,
  };
}
