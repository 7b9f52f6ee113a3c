/**
 * Durable evidence links (ops spec §14.2): a link a status comment may call durable must name the
 * repository, an exact 40- or 64-hex commit and a non-traversing repository-relative file path, as
 *
 *   https://<server>/OWNER/REPO/blob/<commit>/<path>
 *   https://raw.githubusercontent.com/OWNER/REPO/<commit>/<path>        (github.com)
 *   https://<server>/OWNER/REPO/raw/<commit>/<path>                     (GitHub Enterprise Server)
 *
 * where <server> is GITHUB_SERVER_URL's host (github.com by default). Everything else is refused with
 * `evidence-link-not-durable`: a moving ref (branch, tag, `HEAD`, a short SHA), an Actions run,
 * artifact or cache URL, a commit landing page, a query string, a fragment, credentials, a port, plain
 * HTTP, non-canonical percent-encoding, an empty, `.` or `..` segment, a backslash, and another
 * repository than the one the surface is bound to. The check is structural only: it fetches nothing and
 * proves nothing about the file's contents or the commit's reachability.
 */
import { WritError } from '../errors.js';

export interface DurableEvidenceReference {
  owner: string;
  repo: string;
  commit: string;
  /** The repository-relative path, decoded. */
  path: string;
  form: 'blob' | 'raw';
}

export interface EvidenceLinkBinding {
  /** `owner/repo` the publishing surface is bound to (compared case-insensitively, as GitHub does). */
  repository?: string;
  /** GITHUB_SERVER_URL (default `https://github.com`). */
  serverUrl?: string;
}

const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const OWNER = /^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}$/;
const REPO = /^[A-Za-z0-9._-]{1,100}$/;

function refuse(why: string): never {
  throw new WritError('evidence-link-not-durable', `the evidence link is not durable: ${why}`);
}

/** The host of GITHUB_SERVER_URL: HTTPS, a bare host (no credentials, port, path, query or fragment). */
function serverHost(serverUrl: string): string {
  const match = /^https:\/\/([a-z0-9.-]+)\/?$/i.exec(serverUrl);
  if (match?.[1] === undefined) {
    throw new WritError('invalid-input', 'GITHUB_SERVER_URL must be https://<host> with nothing else');
  }
  return match[1].toLowerCase();
}

/** One path segment: percent-encoded exactly as encodeURIComponent encodes its decoded text. */
function decodeSegment(segment: string): string {
  if (segment === '') refuse('the path has an empty segment');
  if (segment.includes('\\')) refuse('the path has a backslash');
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    refuse('the path has a malformed percent-escape');
  }
  if (decoded === '.' || decoded === '..') refuse('the path has a dot segment');
  if (decoded.includes('/') || decoded.includes('\\')) refuse('the path hides a separator in an escape');
  if (/[\u0000-\u001f\u007f]/.test(decoded)) refuse('the path has a control character');
  if (encodeURIComponent(decoded) !== segment) refuse('the path is not canonically percent-encoded');
  return decoded;
}

/**
 * Validates a durable evidence link and returns what it names, or throws `evidence-link-not-durable`.
 * The message names the rule broken, never the link (it may carry a credential).
 */
export function validateDurableEvidenceUrl(
  url: string,
  binding: EvidenceLinkBinding = {},
): DurableEvidenceReference {
  const host = serverHost(binding.serverUrl ?? 'https://github.com');
  if (!/^[\x21-\x7e]+$/.test(url)) refuse('it has whitespace, control or non-ASCII characters');
  if (url.includes('?')) refuse('it has a query string');
  if (url.includes('#')) refuse('it has a fragment');
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/]*)(\/.*)?$/.exec(url);
  if (match === null) refuse('it is not an absolute URL');
  const [, scheme, authority, rawPath] = match as unknown as [string, string, string, string | undefined];
  if (scheme !== 'https') refuse('it is not HTTPS');
  if (authority.includes('@')) refuse('it embeds credentials');
  if (authority.includes(':')) refuse('it names a port');
  const linkHost = authority.toLowerCase();
  const raw = host === 'github.com' && linkHost === 'raw.githubusercontent.com';
  if (!raw && linkHost !== host) {
    refuse(
      /(^|\.)(actions\.githubusercontent\.com|blob\.core\.windows\.net)$/.test(linkHost)
        ? 'it is an Actions artifact or cache URL'
        : `it is not on ${host}`,
    );
  }
  const segments = (rawPath ?? '/').slice(1).split('/');
  const [owner, repo, ...rest] = segments;
  if (
    owner === undefined ||
    repo === undefined ||
    !OWNER.test(owner) ||
    !REPO.test(repo) ||
    repo === '.' ||
    repo === '..'
  ) {
    refuse('it does not name a repository as OWNER/REPO');
  }
  let form: 'blob' | 'raw';
  let commit: string | undefined;
  let pathSegments: string[];
  if (raw) {
    form = 'raw';
    [commit, ...pathSegments] = rest;
  } else {
    const [kind, ...after] = rest;
    if (kind === 'actions') refuse('it is an Actions run or artifact URL');
    if (kind === 'commit' || kind === 'commits' || kind === 'tree')
      refuse('it does not identify an evidence file');
    if (kind !== 'blob' && kind !== 'raw') refuse('it is not a blob or raw file link');
    if (kind === 'raw' && host === 'github.com')
      refuse('github.com serves raw files from raw.githubusercontent.com');
    form = kind;
    [commit, ...pathSegments] = after;
  }
  if (commit === undefined || !COMMIT.test(commit)) {
    refuse('it does not name an exact 40- or 64-hex commit (a branch, tag or short SHA moves)');
  }
  if (pathSegments.length === 0 || (pathSegments.length === 1 && pathSegments[0] === '')) {
    refuse('it does not identify an evidence file');
  }
  const path = pathSegments.map(decodeSegment).join('/');
  if (
    binding.repository !== undefined &&
    binding.repository.toLowerCase() !== `${owner}/${repo}`.toLowerCase()
  ) {
    refuse('it names another repository than the one this surface is bound to');
  }
  return { owner, repo, commit, path, form };
}

/** The blob permalink of `path` at `commit` in `repository`, validated like any other evidence link. */
export function evidencePermalink(
  serverUrl: string,
  repository: string,
  commit: string,
  path: string,
): string {
  const url = `https://${serverHost(serverUrl)}/${repository}/blob/${commit}/${path
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/')}`;
  validateDurableEvidenceUrl(url, { repository, serverUrl });
  return url;
}
