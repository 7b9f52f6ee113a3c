/**
 * The client's one rule for writes: a mutative request is sent once. It is never retried blindly (a
 * 5xx, a dropped connection or a timeout after a write may mean it landed; the caller reads back),
 * unless the call is marked as a compare-and-set commit whose outcome the caller reads back anyway.
 *
 * - Mutative: every REST method but GET, HEAD and OPTIONS, and every POST to a GraphQL endpoint whose
 *   document is not plainly a query (a `mutation`, a `subscription`, no readable document at all).
 * - Protected: `request: CAS_WRITE` (`{ writ: 'cas' }`), and nothing else: a misspelt or unknown
 *   marker, or a caller's own `retries`, leaves the write unretried.
 * - A rate-limit refusal (403 or 429, or a GraphQL answer that is nothing but RATE_LIMITED errors) is
 *   one GitHub did not apply, so plugin-throttling may wait it out and send the write again; after any
 *   other answer, or none, the write is never sent a second time, whichever plugin asks.
 *
 * Installed innermost in `createGitHubClient` (first in its plugin list), so it sees every attempt the
 * retry and throttling plugins make of one call (they pass the same options object down each time).
 */
import type { Octokit } from '@octokit/core';

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
      attempts.set(options, { resendable: rateLimitedAnswer(response.data), error: undefined });
      return response;
    } catch (error: unknown) {
      const code = status(error);
      attempts.set(options, {
        resendable: code === 403 || code === 429,
        error: error instanceof Error ? error : new Error(String(error)),
      });
      throw error;
    }
  });
  return {};
}
