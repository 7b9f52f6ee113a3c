/**
 * The client's one rule for writes: a mutative request is sent once. It is never retried blindly (a
 * 5xx, a dropped connection or a timeout after a write may mean it landed; the caller reads back),
 * unless the call is marked as a compare-and-set commit whose outcome the caller reads back anyway.
 *
 * - Mutative: every REST method but GET, HEAD and OPTIONS, and every POST to a GraphQL endpoint whose
 *   document is not plainly a query (a `mutation`, a `subscription`, no readable document at all).
 * - Protected: `request: CAS_WRITE` (`{ writ: 'cas' }`), and nothing else: a misspelt or unknown
 *   marker, or a caller's own `retries`, leaves the write unretried.
 * - A secondary-limit answer (403 or 429 naming the secondary rate limit or carrying `retry-after`, or a
 *   GraphQL answer whose errors name it) to a write is never resent by the client: the write fails with
 *   the coded `secondary-rate-limit` (`secondaryLimitRefusal`, `details.retryAfterSeconds` and
 *   `details.status`; the Octokit error is its `cause`), so the caller reads back before anything is
 *   written again. The pacer (pacer.ts) holds every request of the client for the wait it asks for.
 *   A read or a CAS write may still be waited out and resent by plugin-throttling, after the hold.
 * - A primary-limit refusal (403 or 429 with `x-ratelimit-remaining: 0`, or a GraphQL answer that is
 *   nothing but RATE_LIMITED errors) is one GitHub refuses before it runs anything, so
 *   plugin-throttling may wait it out (bounded by the client's `maxRateLimitWaitSeconds`) and send the
 *   write again; after any other answer, or none, the write is never sent a second time, whichever
 *   plugin asks.
 *
 * `writeRetry` is installed innermost in `createGitHubClient` (first in its plugin list), so it sees
 * every attempt the retry and throttling plugins make of one call (they pass the same options object
 * down each time); `secondaryLimitRefusal` outermost, so it sees what the caller would.
 */
import type { Octokit } from '@octokit/core';
import { WritError } from '../errors.js';
import { redact } from '../redact.js';

/** The one marker of a protected write: `request: CAS_WRITE` on a compare-and-set commit. */
export const CAS_WRITE: { readonly writ: 'cas' } = Object.freeze({ writ: 'cas' });

export type RequestKind = 'read' | 'write' | 'cas-write';

interface HookOptions {
  method?: unknown;
  url?: unknown;
  query?: unknown;
  request?: unknown;
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function isGraphqlUrl(url: unknown): boolean {
  if (typeof url !== 'string') return false;
  try {
    return /\/graphql\/?$/.test(new URL(url, 'https://github.invalid').pathname);
  } catch {
    return false;
  }
}

/**
 * Whether a GraphQL document only reads: once comments and strings are removed it names no
 * `mutation` or `subscription` anywhere. Anything it cannot tell (no document, odd syntax) is a write.
 */
export function isGraphqlQueryOnly(document: unknown): boolean {
  if (typeof document !== 'string' || document.trim() === '') return false;
  const bare = document
    .replace(/"""[\s\S]*?"""/g, ' ')
    .replace(/"(?:[^"\\\n]|\\.)*"/g, ' ')
    .replace(/#[^\n\r]*/g, ' ');
  if (bare.includes('"')) return false;
  return !/(?:^|[^_0-9A-Za-z])(?:mutation|subscription)(?![_0-9A-Za-z])/i.test(bare);
}

/** How the client treats a request: a read (may retry), a write (sent once) or a CAS write (may retry). */
export function classifyRequest(options: HookOptions): RequestKind {
  const method = typeof options.method === 'string' ? options.method.toUpperCase() : '';
  if (READ_METHODS.has(method)) return 'read';
  if (method === 'POST' && isGraphqlUrl(options.url) && isGraphqlQueryOnly(options.query)) return 'read';
  return record(options.request).writ === CAS_WRITE.writ ? 'cas-write' : 'write';
}

/** What the last attempt of a write ended in: whether GitHub refused it outright (so it may be resent). */
interface Attempt {
  resendable: boolean;
  /** The error it ended in (thrown again, unsent, if asked to send it once more); none after an answer. */
  error: Error | undefined;
}

const attempts = new WeakMap<object, Attempt>();

function status(error: unknown): number | undefined {
  const value = record(error).status;
  return typeof value === 'number' ? value : undefined;
}

/** GitHub's wording of a secondary-limit answer, as plugin-throttling also reads it. */
const SECONDARY = /\bsecondary rate\b/i;
/** GitHub's advice without `retry-after` or a spent primary window: wait at least a minute. */
const SECONDARY_FALLBACK_SECONDS = 60;

function header(headers: unknown, name: string): string | undefined {
  const value = record(headers)[name];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function errorMessages(data: unknown): string[] {
  const errors = record(data).errors;
  return Array.isArray(errors) ? errors.map((error) => text(record(error).message)) : [];
}

/**
 * Whether a failed request (Octokit's error) or an answer (a GraphQL 200) is GitHub's secondary rate
 * limit, and the wait it asks for: `retry-after` seconds, else until `x-ratelimit-reset` (epoch
 * seconds, read against `nowMs`) when `x-ratelimit-remaining` is 0, else a minute; at least a second.
 * A 403 or 429 counts when its message names the secondary rate limit or it carries `retry-after`; a
 * GraphQL answer when one of its errors names it. Null for anything else.
 */
export function secondaryLimitOf(
  thrown: unknown,
  nowMs: number,
): { status: number; retryAfterSeconds: number } | null {
  const failure = record(thrown);
  // An Octokit error carries the answer as `response`; an answer is its own.
  const answer = failure.response === undefined ? failure : record(failure.response);
  const statusValue = typeof failure.status === 'number' ? failure.status : answer.status;
  if (typeof statusValue !== 'number') return null;
  const headers = answer.headers;
  const texts = [
    text(failure.message),
    text(record(answer.data).message),
    ...errorMessages(answer.data),
    ...errorMessages(failure.data),
  ];
  const named = texts.some((text) => SECONDARY.test(text));
  const retryAfter = header(headers, 'retry-after');
  const limited =
    statusValue === 403 || statusValue === 429
      ? named || retryAfter !== undefined
      : statusValue < 300 && named;
  if (!limited) return null;
  let seconds = SECONDARY_FALLBACK_SECONDS;
  const asked = Number(retryAfter);
  const reset = Number(header(headers, 'x-ratelimit-reset'));
  if (retryAfter !== undefined && Number.isFinite(asked) && asked >= 0) seconds = asked;
  else if (header(headers, 'x-ratelimit-remaining') === '0' && Number.isFinite(reset))
    seconds = Math.ceil(reset - nowMs / 1000);
  return { status: statusValue, retryAfterSeconds: Math.max(1, Math.ceil(seconds)) };
}

/** A GraphQL answer holding errors, every one a rate limit: GitHub ran nothing. */
function rateLimitedAnswer(data: unknown): boolean {
  const errors = record(data).errors;
  return (
    Array.isArray(errors) &&
    errors.length > 0 &&
    errors.every((error) => ['RATE_LIMITED', 'RATE_LIMIT'].includes(String(record(error).type)))
  );
}

/**
 * Whether a request may be sent again: a read or a CAS write always, a write only while each attempt
 * so far was refused by a rate limit. The throttling plugin's limit handlers ask before waiting.
 */
export function mayResend(options: unknown): boolean {
  if (typeof options !== 'object' || options === null) return false;
  if (classifyRequest(options) !== 'write') return true;
  return attempts.get(options)?.resendable ?? true;
}

/** The plugin: every unprotected write with the retry plugin's retries off, and never sent twice. */
export function writeRetry(octokit: Octokit): Record<string, never> {
  octokit.hook.wrap('request', async (request, options) => {
    if (classifyRequest(options) !== 'write') return request(options);
    // A copy: the options' `request` may be the client's defaults, shared by every call.
    options.request = { ...options.request, retries: 0 };
    const previous = attempts.get(options);
    if (previous !== undefined && !previous.resendable) {
      throw previous.error ?? new Error(`${options.method} ${options.url} was sent once already`);
    }
    try {
      const response = await request(options);
      attempts.set(options, {
        resendable: rateLimitedAnswer(response.data) && secondaryLimitOf(response, 0) === null,
        error: undefined,
      });
      return response;
    } catch (error: unknown) {
      const code = status(error);
      attempts.set(options, {
        resendable: (code === 403 || code === 429) && secondaryLimitOf(error, 0) === null,
        error: error instanceof Error ? error : new Error(String(error)),
      });
      throw error;
    }
  });
  return {};
}

function refusal(
  options: { method?: unknown; url?: unknown },
  limit: { status: number; retryAfterSeconds: number },
  cause: unknown,
): WritError {
  const what = `${String(options.method)} ${redact(String(options.url))}`;
  return new WritError(
    'secondary-rate-limit',
    `GitHub refused ${what} with its secondary limit on content creation (HTTP ${limit.status}); it asks for ${limit.retryAfterSeconds} s before the next request. The write was not sent again: read back what it would have written first.`,
    { cause, details: { retryAfterSeconds: limit.retryAfterSeconds, status: limit.status } },
  );
}

/**
 * The plugin, outermost: a write (not a read, not a CAS write) that ended in a secondary-limit answer
 * fails with the coded `secondary-rate-limit` instead of Octokit's error or the GraphQL answer, so no
 * caller mistakes it for a refusal of what was asked (it is read back, then sent again). `now` is the
 * clock `x-ratelimit-reset` is read against (the pacer's).
 */
export function secondaryLimitRefusal(now: () => number) {
  return function refusals(octokit: Octokit): Record<string, never> {
    octokit.hook.wrap('request', async (request, options) => {
      if (classifyRequest(options) !== 'write') return request(options);
      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(options);
      } catch (error: unknown) {
        const limit = secondaryLimitOf(error, now());
        throw limit === null ? error : refusal(options, limit, error);
      }
      const limit = secondaryLimitOf(response, now());
      if (limit !== null) throw refusal(options, limit, response);
      return response;
    });
    return {};
  };
}
