/**
 * What a failed GitHub request tells the person who must fix it: what was tried, on what, and the fix.
 * Octokit reports a request that got no answer at all (a refused connection, an unknown host, a reset)
 * as an `HttpError` with status 500 and no response; that status is Octokit's invention, so it is never
 * shown as GitHub's answer (errors.ts `httpStatus` drops it). GitHub's own texts are not repeated:
 * only the status, the URL Writ called (its base URL is validated credential-free, api-url.ts) and
 * the repository it was about.
 */

/** The kind of token a string is, from GitHub's documented prefixes. */
export type TokenKind = 'installation' | 'personal' | 'oauth' | 'user-to-server' | 'unknown';

/** `ghs_` is an installation token: a GitHub App's, or the workflow's own GITHUB_TOKEN (the Actions app's). */
export function tokenKind(token: string): TokenKind {
  if (token.startsWith('ghs_')) return 'installation';
  if (token.startsWith('ghp_') || token.startsWith('github_pat_')) return 'personal';
  if (token.startsWith('gho_')) return 'oauth';
  if (token.startsWith('ghu_')) return 'user-to-server';
  return 'unknown';
}

export const TOKEN_KIND_LABEL: Record<TokenKind, string> = {
  installation: 'an installation token (ghs_…)',
  personal: 'a personal access token (ghp_… or github_pat_…)',
  oauth: 'an OAuth app token (gho_…)',
  'user-to-server': "a GitHub App's user-to-server token (ghu_…)",
  unknown: 'a token of unknown kind',
};

export interface RequestFailure {
  /** GitHub's HTTP status, or null when no answer came back. */
  status: number | null;
  /** The URL called, without query or fragment. */
  url: string | null;
  /** Why no answer came back (ECONNREFUSED, ENOTFOUND, …), when none did. */
  transport: string | null;
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function bareUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return `${url.origin}${url.pathname}`;
  } catch {
    return null;
  }
}

/** The transport's own codes (transport.ts, client.ts): a limit held, so no answer was taken. */
const LIMIT_CODES = new Set([
  'github-request-deadline',
  'github-response-too-large',
  'github-redirect-refused',
]);

/**
 * Why a fetch got no answer: the code of a limit Writ's transport held (transport.ts), or the system
 * error code under it (nested as undici nests it: TypeError → cause → code).
 */
function transportCode(error: unknown): string {
  let current: unknown = error;
  let innermost = 'no response';
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth += 1) {
    const code = field(current, 'code');
    if (typeof code === 'string' && (/^E[A-Z_]+$/.test(code) || LIMIT_CODES.has(code))) return code;
    const message = field(current, 'message');
    if (typeof message === 'string' && /^[A-Za-z0-9 .:_-]{1,80}$/.test(message)) innermost = message;
    current = field(current, 'cause');
  }
  return innermost;
}

/** The Octokit request failure in `error` or its causes; null when there is none. */
export function requestFailureOf(error: unknown): RequestFailure | null {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth += 1) {
    const request = field(current, 'request');
    const status = field(current, 'status');
    if (request !== undefined && typeof status === 'number') {
      const answered = field(current, 'response') !== undefined;
      return {
        status: answered ? status : null,
        url: bareUrl(field(request, 'url')),
        transport: answered ? null : transportCode(field(current, 'cause') ?? current),
      };
    }
    current = field(current, 'cause');
  }
  return null;
}

export interface RequestScene {
  /** The API base URL in use (GITHUB_API_URL or its default). */
  apiUrl: string;
  /** The repository the request was about, when there is one. */
  repository?: string | undefined;
  /** The token's kind, when known (it names the likely fix of a 401 or 403). */
  tokenKind?: TokenKind | undefined;
}

const LIMIT_SENTENCE: Record<string, string> = {
  'github-request-deadline': 'the request, its retries included, passed its deadline.',
  'github-response-too-large': 'the answer was larger than the bound Writ reads.',
  'github-redirect-refused': 'the answer redirected it to http, another scheme, or too many times.',
};

const BASE_URL_HINT =
  'github.com is https://api.github.com, GHE.com https://api.<subdomain>.ghe.com, GitHub Enterprise Server https://<host>/api/v3';

/** One or two sentences on a failed request: what was tried, on what, and the fix; null if none. */
export function explainRequestFailure(error: unknown, scene: RequestScene): string | null {
  const failure = requestFailureOf(error);
  if (failure === null) return null;
  const target = failure.url ?? scene.apiUrl;
  const about = scene.repository === undefined ? '' : ` for ${scene.repository}`;
  if (failure.status === null && failure.transport !== null && LIMIT_CODES.has(failure.transport)) {
    return `${target} gave no answer Writ accepts (${failure.transport}): ${LIMIT_SENTENCE[failure.transport] ?? ''} A write it was part of may or may not have happened; Writ reads it back before anything is retried.`;
  }
  if (failure.status === null) {
    return `Could not reach ${target} (${failure.transport ?? 'no response'}): no HTTP answer came back. Check GITHUB_API_URL (now ${scene.apiUrl}; ${BASE_URL_HINT}) and that the host is reachable from here.`;
  }
  switch (failure.status) {
    case 401:
      return `GitHub at ${scene.apiUrl} rejected the token (HTTP 401): GITHUB_TOKEN is expired, revoked, mistyped or for another GitHub host. Use a fresh token (an app installation token lasts one hour).`;
    case 403:
      return `GitHub refused ${target}${about} (HTTP 403): the token lacks a permission this needs, or a rate limit was hit.${
        scene.tokenKind === 'personal' || scene.tokenKind === 'oauth' || scene.tokenKind === 'user-to-server'
          ? ` GITHUB_TOKEN is ${TOKEN_KIND_LABEL[scene.tokenKind]}; Writ's writes need the Writ app's installation token.`
          : " If GITHUB_TOKEN is the workflow's own token, use the Writ app's installation token (actions/create-github-app-token) instead."
      }`;
    case 404:
      return `GitHub at ${scene.apiUrl} answered 404 for ${target}${about}: the repository does not exist, the token cannot see it (GitHub answers 404, not 403, for a private repository it cannot read), or the API base URL is wrong (${BASE_URL_HINT}).`;
    default:
      return failure.status >= 500
        ? `GitHub answered HTTP ${failure.status} for ${target}${about} after Writ's bounded retries: try again later (https://www.githubstatus.com).`
        : `GitHub answered HTTP ${failure.status} for ${target}${about}.`;
  }
}
