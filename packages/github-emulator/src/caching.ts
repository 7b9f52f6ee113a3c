/**
 * GitHub's cache validators on REST responses and its conditional GETs. Every 2xx JSON response carries
 * a weak `ETag` computed from the representation (the same bytes → the same tag, any change → a new
 * one), as GitHub sends for JSON; a handler may set its own (raw contents: the blob's SHA, strong). Single
 * resources may carry `Last-Modified` (the handler sets it: repositories, issues, comments, milestones,
 * contents, refs lists, users). A GET or HEAD whose `If-None-Match` names the current tag (or, without
 * `If-None-Match`, whose `If-Modified-Since` is not older than `Last-Modified`) is answered 304 with no
 * body; GitHub documents that an authorized 304 does not count against the primary rate limit.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Reply } from './http.js';

/** The weak ETag of a JSON representation. */
export function jsonEtag(body: unknown): string {
  return `W/"${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 40)}"`;
}

/** `Last-Modified` from an ISO timestamp (or epoch ms), in HTTP-date form. */
export function lastModified(at: string | number): Record<string, string> {
  const time = typeof at === 'number' ? at : Date.parse(at);
  return Number.isFinite(time) ? { 'last-modified': new Date(time).toUTCString() } : {};
}

/** The latest of several ISO timestamps (for a resource whose change time is the newest of its parts). */
export function latest(...values: (string | null | undefined)[]): string {
  let best = 0;
  for (const value of values) {
    const time = value ? Date.parse(value) : NaN;
    if (Number.isFinite(time) && time > best) best = time;
  }
  return new Date(best).toISOString();
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** RFC 9110 weak comparison: `W/"x"` and `"x"` name the same representation. */
function weakMatch(list: string, tag: string): boolean {
  const bare = (value: string): string => value.trim().replace(/^W\//, '');
  return list.split(',').some((entry) => entry.trim() === '*' || bare(entry) === bare(tag));
}

/**
 * The cache headers GitHub adds to a successful response: `ETag` (unless the handler set one),
 * `Cache-Control` (private for an authenticated caller, public otherwise) and `Vary`.
 */
export function validators(reply: Reply, authenticated: boolean): Record<string, string> {
  const own = reply.headers ?? {};
  if (reply.status < 200 || reply.status >= 300 || reply.body === undefined) return {};
  const out: Record<string, string> = {
    'cache-control': `${authenticated ? 'private' : 'public'}, max-age=60, s-maxage=60`,
    vary: 'Accept, Authorization, Cookie, X-GitHub-OTP',
  };
  if (own.etag === undefined) out.etag = jsonEtag(reply.body);
  return out;
}

/** Whether a GET/HEAD's validators say the client's copy is current (→ 304). */
export function notModified(
  method: string,
  requestHeaders: IncomingHttpHeaders,
  status: number,
  responseHeaders: Record<string, string>,
): boolean {
  if ((method !== 'GET' && method !== 'HEAD') || status !== 200) return false;
  const ifNoneMatch = header(requestHeaders, 'if-none-match');
  const etag = responseHeaders.etag;
  if (ifNoneMatch !== undefined) return etag !== undefined && weakMatch(ifNoneMatch, etag);
  const since = header(requestHeaders, 'if-modified-since');
  const modified = responseHeaders['last-modified'];
  if (since === undefined || modified === undefined) return false;
  const sinceTime = Date.parse(since);
  return Number.isFinite(sinceTime) && Date.parse(modified) <= sinceTime;
}
