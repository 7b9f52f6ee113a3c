/**
 * Every identifier that becomes a ledger path is validated here: no traversal, no separators, bounded
 * length. Messages never echo a rejected value (it may be untrusted text); they give its length.
 */
import { WritError } from '../errors.js';
import { validateRunId } from '../plan/run-id.js';
import type { LedgerLocation } from './types.js';

/** GitHub owners: 1-39 alphanumerics with single inner hyphens (so `--` can separate owner and repo). */
export const OWNER_PATTERN = /^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}$/;
/** GitHub repository names: 1-100 of [A-Za-z0-9._-], never `.` or `..`. */
export const REPO_PATTERN = /^[A-Za-z0-9._-]{1,100}$/;
/** Branch names Writ accepts for its ledger: plain segments, no `..`, no `//`, no trailing `/` or `.lock`. */
export const BRANCH_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*(?:\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

export const LEDGER_ROOT_PATH = 'ledger-root.json';
export const LEASE_PATH = 'lease.json';
export const PROVENANCE_PATH = 'provenance.json';

export interface RepositoryName {
  owner: string;
  repo: string;
}

function invalid(what: string, value: string, expected: string): WritError {
  return new WritError(
    'invalid-input',
    `Invalid ${what} (${value.length} characters). Expected ${expected}.`,
  );
}

/** Parses `owner/repo`, refusing anything that could not be a GitHub repository or a safe path segment. */
export function parseRepository(value: string, what = 'repository'): RepositoryName {
  const parts = value.split('/');
  const [owner, repo] = parts;
  if (
    parts.length !== 2 ||
    owner === undefined ||
    repo === undefined ||
    !OWNER_PATTERN.test(owner) ||
    !REPO_PATTERN.test(repo) ||
    repo === '.' ||
    repo === '..'
  ) {
    throw invalid(what, value, 'format {owner}/{repo}');
  }
  return { owner, repo };
}

export function validateBranch(value: string): string {
  if (
    value.length > 200 ||
    !BRANCH_PATTERN.test(value) ||
    value.includes('..') ||
    value.endsWith('.lock') ||
    value.endsWith('.')
  ) {
    throw invalid('ledger branch', value, 'a branch name of plain segments such as bot/writ-ledger');
  }
  if (value === 'main' || value === 'master') {
    throw new WritError(
      'invalid-input',
      'The ledger branch must be a dedicated bot branch, never main/master.',
    );
  }
  return value;
}

export function ledgerLocation(repository: string, branch: string): LedgerLocation {
  const { owner, repo } = parseRepository(repository);
  return { owner, repo, branch: validateBranch(branch) };
}

/** `runs/<owner>--<repo>` for the repository a run belongs to. */
export function runsDirectory(repository: string): string {
  const { owner, repo } = parseRepository(repository, 'run repository');
  return `runs/${owner}--${repo}`;
}

/** `runs/<owner>--<repo>/<run_id>.json`; the run ID is validated (no traversal, no separators, ≤ 64). */
export function runFilePath(repository: string, runId: string): string {
  return `${runsDirectory(repository)}/${validateRunId(runId)}.json`;
}

/** True for the only paths Writ ever writes on its ledger branch. */
export function isLedgerPath(path: string): boolean {
  if (path === LEDGER_ROOT_PATH || path === LEASE_PATH || path === PROVENANCE_PATH) return true;
  const match = /^runs\/([^/]+?)--([^/]+)\/([^/]+)\.json$/.exec(path);
  if (match === null) return false;
  const [, owner = '', repo = '', runId = ''] = match;
  try {
    return runFilePath(`${owner}/${repo}`, runId) === path;
  } catch {
    return false;
  }
}
