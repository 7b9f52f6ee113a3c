/**
 * The one place Writ builds a GitHub client: `@actions/github`'s `getOctokit` with the retry and
 * throttling plugins passed as trailing arguments. (Passing plugins inside the options object, as one
 * well-known action does, silently installs neither.) Its requests go through the toolkit's own
 * transport (@actions/github's undici fetch and proxy dispatcher) inside Writ's limits on answers and
 * redirects (transport.ts), each under a deadline that covers its retries (`requestDeadline`), and every
 * one waits its turn at the client's pacer (pacer.ts; `pacerOf(client)`), which paces content-creating
 * requests to GitHub's secondary limits and holds the client after a secondary-limit answer.
 */
import { getOctokit } from '@actions/github';
import type { Octokit } from '@octokit/core';
import { RequestError } from '@octokit/request-error';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import Bottleneck from 'bottleneck/light.js';
import type { Logger } from '../redact.js';
import { validateApiUrl } from './api-url.js';
import { redact, registerSecret, silentLogger } from '../redact.js';
import { redactOutbound } from './outbound.js';
import { WritError } from '../errors.js';
import type { Fetch } from './transport.js';
import { clientFetch } from './transport.js';
import type { PacingOptions } from './pacer.js';
import { Pacer, pacing } from './pacer.js';
import { mayResend, secondaryLimitRefusal, writeRetry } from './write-retry.js';

export type GitHubClient = ReturnType<typeof getOctokit>;

export interface GitHubClientOptions {
  /**
   * REST base URL (GraphQL goes to `${baseUrl}/graphql`, or for GHES's `https://<host>/api/v3` to
   * `https://<host>/api/graphql`). Defaults to GITHUB_API_URL or api.github.com.
   */
  baseUrl?: string;
  userAgent?: string;
  logger?: Logger;
  /** Retries of a read or a CAS write after a 5xx or network failure (plugin-retry; a write is sent once, write-retry.ts). Default 3. */
  retries?: number;
  /** Milliseconds per unit of plugin-retry's quadratic backoff (1, 4, 9 × base). Default 1000. */
  retryBaseMs?: number;
  /** How many times a rate-limited request is waited out and retried. Default 2. */
  rateLimitRetries?: number;
  /** The longest rate-limit wait Writ accepts before giving up, in seconds. Default 300. */
  maxRateLimitWaitSeconds?: number;
  /** Milliseconds per second of a `retry-after` (tests shrink it). Default 1000. */
  rateLimitBaseMs?: number;
  /**
   * The pacer's clock and figures (pacer.ts): content-creating requests at least `minSpacingMs` (1000)
   * apart, at most 80 in any 60 s and `hourlyBudget` (480) in any 3600 s, and every request held after a
   * secondary-limit answer. Default: on, with `Date.now` and a timer. A test or bench passes a virtual
   * clock (`now` reads it, `sleep` advances it); `false` turns pacing off (nothing waits; the figures
   * are still counted).
   */
  pacing?: PacingOptions | false;
  /** Keys the plugin's process-wide global, auth and search queues; write and notification queues are per client. */
  throttleId?: string;
  /**
   * Conditional re-reads of the polling listings (`conditionalReads`). Default false: measured on the
   * roadmap-shaped persist run (scripts/bench/measure-conditional-reads.ts) no stage on main re-reads an
   * unchanged listing within one process, so it saves nothing there yet; a reader that polls (a sweep)
   * turns it on.
   */
  conditionalReads?: boolean;
  /**
   * The `fetch` under Writ's limits, in place of the toolkit's (transport.ts), for a test that records
   * or breaks the calls. The limits stay around it.
   */
  transport?: Fetch;
  /**
   * Milliseconds a request may take, its retries after failures included, before it fails with
   * `github-request-deadline` (an outcome to read back). Default 60 000; a stage whose requests need
   * longer sets more.
   */
  deadlineMs?: number;
  /** The largest answer body read, decoded, in bytes (transport.ts). Default 8 MiB. */
  maxResponseBytes?: number;
}

/** The default deadline of one request, its retries included. */
export const REQUEST_DEADLINE_MS = 60_000;

/**
 * Timings for a GitHub emulator on loopback (tests, the demo): no pacing (GitHub asks for a second
 * between writes; a test that wants pacing passes `pacing` with a virtual clock after these) and retry
 * and rate-limit waits of `waitBaseMs` per unit instead of a second.
 */
export function loopbackTimings(waitBaseMs = 50): GitHubClientOptions {
  return {
    pacing: false,
    retryBaseMs: waitBaseMs,
    rateLimitBaseMs: waitBaseMs,
  };
}

const pacers = new WeakMap<object, Pacer>();

/**
 * The pacer of a client `createGitHubClient` built (undefined for any other object): `expect(n)` to
 * hint how many content-creating requests are coming, `figures()` for what it did, `plannedMs(n)` for
 * what `n` more cost at GitHub's limits.
 */
export function pacerOf(client: object): Pacer | undefined {
  return pacers.get(client);
}

/** Statuses plugin-retry must leave alone: client errors, and 429, which throttling waits out properly. */
export const DO_NOT_RETRY = [400, 401, 403, 404, 409, 410, 422, 429, 451];

/**
 * GitHub now reports GraphQL rate limiting as `type: "RATE_LIMIT"`, while plugin-throttling still looks
 * for `RATE_LIMITED`. This plugin sits innermost (it is installed first) and renames the type, so the
 * throttling plugin waits the limit out instead of handing Writ an unexplained failure.
 */
export function graphqlRateLimitCompat(octokit: Octokit): Record<string, never> {
  octokit.hook.wrap('request', async (request, options) => {
    const response = await request(options);
    const data = response.data as { errors?: { type?: string }[] } | null | undefined;
    if (options.url.endsWith('/graphql') && Array.isArray(data?.errors)) {
      for (const error of data.errors) if (error.type === 'RATE_LIMIT') error.type = 'RATE_LIMITED';
    }
    return response;
  });
  return {};
}

/** A GitHub Enterprise Server REST base URL (`https://<host>/api/v3`). */
const GHES_REST_BASE = /\/api\/v3\/?$/;

/**
 * GitHub Enterprise Server serves GraphQL at `https://<host>/api/graphql`, not under the REST base
 * (`/api/v3/graphql` is no endpoint there). `octokit.graphql` knows this; `request('POST /graphql')`,
 * which Writ uses for its GraphQL calls, does not. This plugin sits innermost, so the retry and
 * throttling plugins still see `/graphql` (and treat it as GraphQL) and only the request sent is redirected.
 */
export function ghesGraphqlUrl(octokit: Octokit): Record<string, never> {
  octokit.hook.before('request', (options) => {
    const baseUrl = typeof options.baseUrl === 'string' ? options.baseUrl : '';
    if (options.url === '/graphql' && GHES_REST_BASE.test(baseUrl)) {
      options.url = baseUrl.replace(GHES_REST_BASE, '/api/graphql');
    }
  });
  return {};
}

/**
 * The listings Writ re-reads while a stage runs (the idempotency pre-check's issue listing and the
 * comment listing the pre-check and the status comment search), worth a conditional request.
 */
const CONDITIONAL_ROUTES = new Set([
  'GET /repos/{owner}/{repo}/issues',
  'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
]);
const CONDITIONAL_CACHE_SIZE = 64;

/**
 * Re-reads of the listings above send the ETag of the last answer as `If-None-Match`; a 304 (which
 * GitHub does not count against the primary rate limit) is answered with that last response. GitHub
 * confirmed it unchanged, so nothing stale is ever returned, unlike a max-age cache. One cache per
 * client (so per token), keyed by the full URL and media type, the newest 64 entries.
 */
export function conditionalReads(octokit: Octokit): Record<string, never> {
  const cache = new Map<string, { etag: string; response: Awaited<ReturnType<Octokit['request']>> }>();
  octokit.hook.wrap('request', async (request, options) => {
    if (!CONDITIONAL_ROUTES.has(`${options.method} ${options.url}`)) return request(options);
    const endpoint = octokit.request.endpoint.parse(options);
    const accept = (endpoint.headers as Record<string, unknown>).accept;
    const key = `${endpoint.url} ${typeof accept === 'string' ? accept : ''}`;
    const cached = cache.get(key);
    if (cached) options.headers = { ...options.headers, 'if-none-match': cached.etag };
    try {
      const response = await request(options);
      const etag = response.headers.etag;
      cache.delete(key);
      if (typeof etag === 'string') {
        cache.set(key, { etag, response });
        if (cache.size > CONDITIONAL_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      return response;
    } catch (error) {
      // A copy: a caller that changes what it was given must not change what the next 304 answers.
      if (cached && (error as { status?: unknown }).status === 304)
        return { ...cached.response, data: structuredClone<unknown>(cached.response.data) };
      throw error;
    }
  });
  return {};
}

/**
 * Each request under a deadline of `ms`, its retries included: installed right after plugin-retry, so
 * it wraps the first attempt, every retry and the waits between them; the pacer and plugin-throttling
 * stay outside, so a rate-limit wait (GitHub's definite "not done", bounded by `maxRateLimitWaitSeconds`)
 * and the pacer's waits (spacing, windows, a hold) are not counted, and each rate-limited attempt gets a deadline of its own.
 * The deadline is the request's `signal` (every `fetch` attempt and its body read end when it fires,
 * transport.ts), and the request is failed at once even while plugin-retry waits to retry (that retry,
 * when its timer fires, finds the signal aborted and sends nothing, and none follows it). The
 * failure is Octokit's shape for a request with no answer (status 500, no response) with the coded
 * `github-request-deadline` as its cause, so callers treat it as an outcome to read back.
 */
export function requestDeadline(ms: number) {
  return function deadline(octokit: Octokit): Record<string, never> {
    octokit.hook.wrap('request', async (request, options) => {
      const controller = new AbortController();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const expired = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => {
          const cause = new WritError(
            'github-request-deadline',
            `A GitHub API request got no whole answer within ${ms} ms, its retries included.`,
            { details: { deadlineMs: ms } },
          );
          // No retry after the deadline: one plugin-retry already scheduled finds the signal aborted
          // and fails before anything is sent, and schedules none after it.
          options.request.retries = 0;
          controller.abort(cause);
          const failed = new RequestError(cause.message, 500, {
            request: octokit.request.endpoint.parse(options),
          });
          failed.cause = cause;
          reject(failed);
        }, ms);
      });
      const given: unknown = options.request.signal;
      options.request = {
        ...options.request,
        signal:
          given instanceof AbortSignal ? AbortSignal.any([given, controller.signal]) : controller.signal,
      };
      try {
        return await Promise.race([request(options), expired]);
      } finally {
        clearTimeout(timer);
      }
    });
    return {};
  };
}

function noPlugin(): Record<string, never> {
  return {};
}

export function createGitHubClient(token: string, options: GitHubClientOptions = {}): GitHubClient {
  registerSecret(token);
  const logger = options.logger ?? silentLogger;
  const rateLimitRetries = options.rateLimitRetries ?? 2;
  const maxWait = options.maxRateLimitWaitSeconds ?? 300;
  const onLimit =
    (kind: string) =>
    (
      retryAfter: number,
      request: { method?: string; url?: string },
      _octokit: unknown,
      retryCount: number,
    ): boolean => {
      const what = `${request.method ?? 'request'} ${redact(request.url ?? '')}`;
      // A write is waited out only after a rate-limit refusal, never after an answer that may have applied.
      if (!mayResend(request)) return false;
      if (retryCount < rateLimitRetries && retryAfter <= maxWait) {
        logger.warning(
          `${kind} rate limit on ${what}; retrying after ${retryAfter}s (retry ${retryCount + 1})`,
        );
        return true;
      }
      logger.warning(`${kind} rate limit on ${what}; giving up after ${retryCount} retries`);
      return false;
    };
  const pacer = new Pacer(options.pacing);
  // Refused before the token is ever sent: a base URL with credentials in it is never used.
  const baseUrl = validateApiUrl(
    options.baseUrl ?? process.env.GITHUB_API_URL ?? 'https://api.github.com',
    options.baseUrl === undefined ? 'GITHUB_API_URL' : 'the GitHub API base URL',
  );
  const client = getOctokit(
    token,
    {
      baseUrl,
      userAgent: options.userAgent ?? 'writ',
      // Replaces @actions/github's default `request` (getOctokit merges options shallowly): its own
      // proxy-aware fetch for this base URL, inside Writ's limits (transport.ts).
      request: {
        fetch: clientFetch(baseUrl, options.transport, { maxResponseBytes: options.maxResponseBytes }),
      },
      log: {
        debug: (message: string) => logger.debug(redact(message)),
        info: (message: string) => logger.debug(redact(message)),
        warn: (message: string) => logger.warning(redact(message)),
        error: (message: string) => logger.warning(redact(message)),
      },
      retry: {
        retries: options.retries ?? 3,
        doNotRetry: DO_NOT_RETRY,
        retryAfterBaseValue: options.retryBaseMs ?? 1000,
      },
      throttle: {
        id: options.throttleId ?? 'writ',
        retryAfterBaseValue: options.rateLimitBaseMs ?? 1000,
        onRateLimit: onLimit('primary'),
        onSecondaryRateLimit: onLimit('secondary'),
        // Own groups, not shared with other clients in the process, with no spacing of their own: the
        // pacer spaces content-creating requests on its clock (Bottleneck would wait real time, and would
        // space GraphQL queries a second apart too). Notification-triggering writes (issue and comment
        // creates) get no more than GitHub's documented second either: the plugin's 3 s is its own
        // choice, not GitHub's guidance, and the hourly budget, not the spacing, bounds a long plan.
        write: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }),
        notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }),
      },
    },
    writeRetry,
    ghesGraphqlUrl,
    redactOutbound,
    options.conditionalReads === true ? conditionalReads : noPlugin,
    graphqlRateLimitCompat,
    retry,
    requestDeadline(options.deadlineMs ?? REQUEST_DEADLINE_MS),
    pacing(pacer),
    throttling,
    secondaryLimitRefusal(() => pacer.now()),
  );
  pacers.set(client, pacer);
  return client;
}
