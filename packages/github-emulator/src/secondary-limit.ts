/**
 * GitHub's secondary rate limit on content-creating requests, on the emulator's clock.
 *
 * GitHub documents it (docs.github.com, "Rate limits for the REST API" › "About secondary rate limits",
 * the same text on the GraphQL page): "no more than 80 content-generating requests per minute and no
 * more than 500 content-generating requests per hour" for a caller, answered with 403 or 429 (REST)
 * or 200 or 403 (GraphQL), a message naming the secondary rate limit and, when present, `retry-after`
 * in seconds. Content-creating here is what GitHub's points table charges 5 for: a REST POST, PATCH,
 * PUT or DELETE, and a GraphQL document holding a mutation.
 *
 * The model: per caller (a user for a personal token, an installation for an app's, each GITHUB_TOKEN on
 * its own), the caller's admitted content-creating requests in sliding windows; one more than
 * `perMinute` in any 60 s or `perHour` in any 3600 s is refused — not applied and not counted — with
 * 403, GitHub's message and `retry-after`, the seconds until one more would be admitted (at least 1).
 * Reads are never counted. Off unless switched on (the World option, `POST /_emulator/settings
 * {secondary_limits}`, `writ-emulator --secondary-limits`).
 */
import type { Reply } from './http.js';
import type { SecondaryLimits } from './secondary-limit-settings.js';
import type { Token, World } from './state.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

export const SECONDARY_LIMIT_MESSAGE =
  'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.';
const SECONDARY_LIMIT_DOCS =
  'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits';

/** Whether a request creates content, as GitHub's secondary limit counts it. */
export function isContentCreating(method: string, isGraphQL: boolean, mutations: readonly string[]): boolean {
  if (isGraphQL) return method === 'POST' && mutations.length > 0;
  return method === 'POST' || method === 'PATCH' || method === 'PUT' || method === 'DELETE';
}

/** Whose windows a request counts in: the user, the installation, or the one GITHUB_TOKEN. */
function callerKey(token: Token | null): string {
  if (!token) return 'anonymous';
  if (token.kind === 'pat') return `user:${token.account.id}`;
  if (token.kind === 'installation') return `installation:${token.app?.installation_id ?? token.token}`;
  return `token:${token.token}`;
}

/** The caller's admitted sends still inside the hour at `now`, oldest first (older ones are dropped). */
function windowOf(world: World, key: string, now: number): number[] {
  const sends = (world.secondaryWindows.get(key) ?? []).filter((at) => at > now - HOUR_MS);
  world.secondaryWindows.set(key, sends);
  return sends;
}

/** Milliseconds until one more send fits `limit` in `spanMs`, given sends oldest first; 0 if it fits now. */
function waitFor(
  sends: readonly number[],
  inside: number,
  limit: number,
  spanMs: number,
  now: number,
): number {
  if (inside < limit) return 0;
  // The oldest send that must leave the window for one more to fit.
  const leaving = sends[sends.length - limit] ?? now;
  return Math.max(0, leaving + spanMs - now);
}

/**
 * Admits a content-creating request (counting it) or refuses it: null when admitted, else GitHub's
 * 403 with `retry-after`. Only call for content-creating requests while the limit is on.
 */
export function admitContentCreating(
  world: World,
  limits: SecondaryLimits,
  token: Token | null,
): Reply | null {
  const now = world.clock.now();
  const key = callerKey(token);
  const sends = windowOf(world, key, now);
  const inMinute = sends.filter((at) => at > now - MINUTE_MS).length;
  const waitMs = Math.max(
    waitFor(sends, inMinute, limits.perMinute, MINUTE_MS, now),
    waitFor(sends, sends.length, limits.perHour, HOUR_MS, now),
  );
  if (waitMs === 0) {
    sends.push(now);
    return null;
  }
  return {
    status: 403,
    body: { message: SECONDARY_LIMIT_MESSAGE, documentation_url: SECONDARY_LIMIT_DOCS },
    headers: { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) },
  };
}
