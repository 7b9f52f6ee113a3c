/**
 * What every request of a Writ client goes through: the toolkit's own transport (@actions/github's
 * `getProxyFetch`, the undici `fetch` with the proxy dispatcher @actions/http-client picks for the API
 * URL from HTTPS_PROXY/https_proxy/HTTP_PROXY/NO_PROXY, as github-script gets it), inside limits that
 * hold whatever answers:
 *
 * - every answer's body is read here, counted while it streams (after undici undid gzip, deflate or
 *   br, so a compression bomb counts what it grows to) and refused past `maxResponseBytes` before more
 *   is read (`github-response-too-large`); a `content-length` above the bound is refused before any
 *   of it is read. The body is read in full before the promise settles: Octokit reads a body that fails
 *   mid-way as an empty success, so a failure must come before it sees the response.
 * - redirects are followed here, not by undici (`redirect: 'manual'` below): never from https to http
 *   nor to another scheme, at most `MAX_REDIRECTS`, and a hop to another origin (scheme, host or port)
 *   loses `authorization`, `cookie` and `proxy-authorization` (`github-redirect-refused` otherwise).
 * - the deadline is the request's `signal` (client.ts sets one per request, retries included); an
 *   abort while the body streams ends the read at once, so a slow drip ends at the deadline.
 *
 * Why a `fetch` wrapper rather than Octokit hooks: a hook sees the response after Octokit has read
 * the body (unbounded, errors swallowed) and after undici followed the redirects; only the `fetch`
 * Octokit calls sees the bytes and the hops. Every failure here is thrown from `fetch`, so Octokit
 * reports it as a request with no answer (an `HttpError` with status 500 and no response, its cause
 * the coded WritError): an outcome that may or may not have happened, which callers read back.
 */
import { HttpClient } from '@actions/http-client';
import { fetch as undiciFetch } from 'undici';
import { WritError } from '../errors.js';

/** The headers of an answer as Octokit reads them: iterable pairs and `get`. */
export interface FetchHeaders extends Iterable<[string, string]> {
  get(name: string): string | null;
}

/** The part of a fetch `Response` Octokit's request layer reads. */
export interface FetchResponse {
  readonly status: number;
  readonly statusText: string;
  readonly url: string;
  readonly headers: FetchHeaders;
  readonly body: ReadableStream<Uint8Array> | null;
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** What Octokit's request layer passes to `fetch`. */
export interface FetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  redirect?: 'follow' | 'manual' | 'error';
  signal?: AbortSignal | null;
  [other: string]: unknown;
}

/** The `fetch` Octokit's request layer calls, as `fetch(url, init)`. */
export type Fetch = (url: string, init?: FetchInit) => Promise<FetchResponse>;

export interface TransportLimits {
  /** The largest answer body accepted, decoded, in bytes. Default `MAX_RESPONSE_BYTES`. */
  maxResponseBytes?: number;
}

/**
 * 8 MiB. The largest answer Writ needs is a page of 100 issue comments. Measured against the emulator
 * (scripts/bench/measure-response-size.ts): a page of 100 comments of 1 KB is 0.25 MB, a
 * page of 100 comments at GitHub's 65,536-character maximum 6.70 MB, so a page anyone can fill on
 * a public issue still fits, and nothing larger is ever buffered.
 */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** Redirects followed for one request (fetch allows 20; GitHub's API redirects once, for a move). */
export const MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** What leaves a request that goes to another origin. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);
/** What leaves a request that loses its body (a 303, or a 301/302 after a POST). */
const BODY_HEADERS = new Set(['content-encoding', 'content-language', 'content-location', 'content-type']);

function refusedRedirect(why: string): WritError {
  return new WritError('github-redirect-refused', `A GitHub API answer redirected ${why}; not followed.`);
}

function tooLarge(limit: number): WritError {
  return new WritError(
    'github-response-too-large',
    `A GitHub API answer was larger than ${limit} bytes; it was refused before it was read whole.`,
    { details: { limitBytes: limit } },
  );
}

/** What an aborted read rejects with: the signal's reason (the deadline's WritError) when it is one. */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError');
}

/** Lets the answer's body go without reading it (a redirect's, a refused one's). */
async function discard(response: FetchResponse): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

/** The answer's body, read chunk by chunk and refused as soon as it passes `limit`. */
async function readBounded(
  response: FetchResponse,
  limit: number,
  signal: AbortSignal | null | undefined,
): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await discard(response);
    throw tooLarge(limit);
  }
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(limit);
      }
      chunks.push(value);
    }
  } catch (error: unknown) {
    if (signal?.aborted === true) throw abortReason(signal);
    throw error;
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/** An answer whose body is already read (within the bound). */
class ReadResponse implements FetchResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: FetchHeaders;
  readonly ok: boolean;
  readonly #bytes: Uint8Array;

  constructor(
    answer: FetchResponse,
    readonly url: string,
    readonly redirected: boolean,
    bytes: Uint8Array,
  ) {
    this.status = answer.status;
    this.statusText = answer.statusText;
    this.headers = answer.headers;
    this.ok = answer.status >= 200 && answer.status <= 299;
    this.#bytes = bytes;
  }

  get body(): ReadableStream<Uint8Array> {
    const bytes = this.#bytes;
    return new ReadableStream({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
  }

  // eslint-disable-next-line @typescript-eslint/require-await -- fetch's reads are asynchronous
  async text(): Promise<string> {
    return new TextDecoder().decode(this.#bytes);
  }

  // eslint-disable-next-line @typescript-eslint/require-await -- fetch's reads are asynchronous
  async arrayBuffer(): Promise<ArrayBuffer> {
    return this.#bytes.slice().buffer;
  }
}

/** A body that can be sent again on a 307 or 308 (Octokit sends strings; anything else is not resent). */
function replayable(body: unknown): boolean {
  return body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
}

/**
 * `inner` (the toolkit's fetch, or a test's) inside the limits above: redirects followed here under
 * the rules above, and every answer's body read within `maxResponseBytes`.
 */
export function limitedFetch(inner: Fetch, limits: TransportLimits = {}): Fetch {
  const maxBytes = limits.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  return async (url, init = {}) => {
    const signal = init.signal ?? undefined;
    let target = new URL(url);
    let method = (init.method ?? 'GET').toUpperCase();
    let body = init.body;
    let headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = value;
    for (let hops = 0; ; hops += 1) {
      const sent: FetchInit = { ...init, method, headers, body, redirect: 'manual' };
      if (body === undefined || body === null) {
        delete sent.body;
        delete sent.duplex;
      }
      const answer = await inner(target.href, sent);
      const location = answer.headers.get('location');
      if (REDIRECTS.has(answer.status) && location !== null && init.redirect !== 'manual') {
        await discard(answer);
        if (init.redirect === 'error') throw refusedRedirect('where the request allows none');
        if (hops >= MAX_REDIRECTS) throw refusedRedirect(`more than ${MAX_REDIRECTS} times`);
        let next: URL;
        try {
          next = new URL(location, target);
        } catch {
          throw refusedRedirect('to a location that is not a URL');
        }
        if (next.protocol !== 'https:' && next.protocol !== 'http:')
          throw refusedRedirect('to a URL that is neither https nor http');
        if (target.protocol === 'https:' && next.protocol !== 'https:')
          throw refusedRedirect('from https to http');
        const dropped = new Set<string>();
        const toGet =
          answer.status === 303
            ? method !== 'HEAD'
            : (answer.status === 301 || answer.status === 302) && method === 'POST';
        if (toGet) {
          method = 'GET';
          body = undefined;
          for (const name of BODY_HEADERS) dropped.add(name);
          dropped.add('content-length');
        } else if (!replayable(body)) {
          throw refusedRedirect('a request whose body cannot be sent again');
        }
        if (next.origin !== target.origin) for (const name of CREDENTIAL_HEADERS) dropped.add(name);
        headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !dropped.has(name)));
        next.hash = '';
        target = next;
        continue;
      }
      const bytes = await readBounded(answer, maxBytes, signal);
      return new ReadResponse(answer, target.href, hops > 0, bytes);
    }
  };
}

/**
 * @actions/github's own fetch for `baseUrl` (its internal `getProxyFetch`, which its package does not
 * export, line for line): undici's `fetch` with the dispatcher @actions/http-client picks for that URL,
 * a ProxyAgent where HTTPS_PROXY/HTTP_PROXY applies and NO_PROXY does not except it, else undici's
 * default. @actions/github builds its default once, for GITHUB_API_URL at import; this is built per
 * client, for the base URL it was given, when it is created.
 */
export function toolkitFetch(baseUrl: string): Fetch {
  const dispatcher = new HttpClient().getAgentDispatcher(baseUrl);
  return ((url: string, init: FetchInit) =>
    undiciFetch(url, { ...init, dispatcher } as Parameters<typeof undiciFetch>[1])) as unknown as Fetch;
}

/**
 * The fetch a client's requests go through: `transport` (a test's) or the toolkit's for `baseUrl`,
 * inside the limits.
 */
export function clientFetch(baseUrl: string, transport?: Fetch, limits: TransportLimits = {}): Fetch {
  return limitedFetch(transport ?? toolkitFetch(baseUrl), limits);
}
