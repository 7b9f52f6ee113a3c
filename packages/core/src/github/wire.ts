/**
 * The platform's HTTP client (node:http and node:https, already loaded with @actions/core) behind the
 * part of `fetch` that Octokit's request layer calls. Node's global `fetch` is the undici compiled into
 * Node, which Node evaluates the first time anything touches `fetch`, `Headers` or `Response`: about
 * 20 ms before a stage's first request, more than all of Writ's own work before it
 * (scripts/measure-startup.ts). This client costs none of that and keeps what Writ relies on:
 *
 * - the request as given (method, headers, a string or byte body with its `content-length`);
 * - `accept-encoding: gzip, deflate, br` unless the caller set one, and the answer decoded;
 * - redirects followed as fetch follows them (`redirect: 'follow'`, at most 20): 303, and 301/302 after
 *   a POST, turn into a GET without a body; leaving the origin drops `authorization`, `cookie` and
 *   `proxy-authorization`, so a token never follows a redirect to another host; `manual` answers the
 *   redirect itself and `error` fails;
 * - a failure with no answer as fetch reports it, `TypeError('fetch failed')` with the system error as
 *   its cause (Octokit turns it into its status-500 error without a response, request-failure.ts reads
 *   the code), and an abort as the signal's reason (an `AbortError`, which Octokit rethrows);
 * - undici's bound on a silent server: no byte for 300 s fails the request with `ETIMEDOUT`.
 *
 * One difference, on purpose: the answer's body is read in full before the promise settles, so a
 * connection lost or a body that cannot be decoded mid-answer is a failure with no answer (an outcome
 * to read back) rather than, as with fetch under Octokit, a success whose body is silently empty.
 * Behind a proxy, the agent transport.ts passes for the request's URL (@actions/http-client's tunnel)
 * carries it.
 */
import type { Agent, IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface WireInit {
  method?: string | undefined;
  /** Header names to values, as Octokit's request layer passes them. */
  headers?: Record<string, string> | undefined;
  body?: string | Uint8Array | ArrayBuffer | null | undefined;
  redirect?: 'follow' | 'manual' | 'error' | undefined;
  signal?: AbortSignal | null | undefined;
}

export interface WireOptions {
  /** How long a request may go without a byte before it fails (undici's default, 300 s). */
  idleTimeoutMs?: number;
  /** The agent for a request to `url`; undefined, Node's global agent (keep-alive). */
  agentFor?: (url: URL) => Agent | undefined;
}

const MAX_REDIRECTS = 20;
const IDLE_TIMEOUT_MS = 300_000;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** What fetch removes from a request that leaves its origin, and from one that loses its body. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
const BODY_HEADERS = [
  'content-encoding',
  'content-language',
  'content-location',
  'content-type',
  'content-length',
];

/** A response's headers as fetch's `Headers` reads them: lower-case names, repeated values joined. */
export class WireHeaders implements Iterable<[string, string]> {
  readonly #values = new Map<string, string>();

  constructor(raw: readonly string[]) {
    for (let at = 0; at + 1 < raw.length; at += 2) {
      const name = (raw[at] ?? '').toLowerCase();
      const value = raw[at + 1] ?? '';
      const before = this.#values.get(name);
      this.#values.set(name, before === undefined ? value : `${before}, ${value}`);
    }
  }

  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  /** Name order, as `Headers` iterates. */
  *entries(): IterableIterator<[string, string]> {
    yield* [...this.#values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  forEach(callback: (value: string, name: string) => void): void {
    for (const [name, value] of this.entries()) callback(value, name);
  }
}

/** An answer, its body already read and decoded. */
export class WireResponse {
  readonly ok: boolean;
  readonly #bytes: Buffer;
  #bodyUsed = false;

  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly url: string,
    readonly redirected: boolean,
    readonly headers: WireHeaders,
    bytes: Buffer,
  ) {
    this.ok = status >= 200 && status <= 299;
    this.#bytes = bytes;
  }

  get bodyUsed(): boolean {
    return this.#bodyUsed;
  }

  /** The body's bytes, once, as fetch allows (a second read is a TypeError). */
  #take(): Buffer {
    if (this.#bodyUsed) throw new TypeError('Body is unusable: Body has already been read');
    this.#bodyUsed = true;
    return this.#bytes;
  }

  /** UTF-8, a leading byte-order mark dropped, as fetch decodes. */
  // eslint-disable-next-line @typescript-eslint/require-await -- a read that fails rejects, as fetch's does
  async text(): Promise<string> {
    return new TextDecoder().decode(this.#take());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  /** A copy: the bytes may sit in a pooled buffer shared with others. */
  // eslint-disable-next-line @typescript-eslint/require-await -- a read that fails rejects, as fetch's does
  async arrayBuffer(): Promise<ArrayBuffer> {
    return new Uint8Array(this.#take()).buffer;
  }
}

export type WireFetch = (url: string | URL, init?: WireInit) => Promise<WireResponse>;

/** fetch's failure with no answer: the cause is what went wrong underneath. */
function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

/** What an aborted fetch rejects with: the signal's reason, or fetch's own `AbortError`. */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError');
}

function requestBody(body: WireInit['body']): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  throw new TypeError('the request body must be a string or bytes');
}

function zlibWrapped(bytes: Buffer): boolean {
  const [cmf = 0, flg = 0] = bytes;
  return (cmf & 0x0f) === 8 && ((cmf << 8) | flg) % 31 === 0;
}

/** Undoes the answer's content codings, last applied first; an unknown coding is left as it came. */
async function decoded(bytes: Buffer, contentEncoding: string | null): Promise<Buffer> {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0 || bytes.length === 0) return bytes;
  const zlib = await import('node:zlib');
  let out = bytes;
  for (const coding of codings.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') out = zlib.gunzipSync(out);
    else if (coding === 'br') out = zlib.brotliDecompressSync(out);
    // "deflate" is zlib-wrapped by the standard and raw in the wild; fetch accepts both. A zlib header
    // names method 8 and makes its first two bytes a multiple of 31 (RFC 1950).
    else if (coding === 'deflate') out = zlibWrapped(out) ? zlib.inflateSync(out) : zlib.inflateRawSync(out);
    else return out;
  }
  return out;
}

interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

/** One request and its whole answer. */
function exchange(
  hop: Hop,
  signal: AbortSignal | undefined,
  idleTimeoutMs: number,
  agent: Agent | undefined,
) {
  return new Promise<{ answer: IncomingMessage; bytes: Buffer }>((resolve, reject) => {
    const send = hop.url.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    };
    const onAbort = (): void => {
      if (signal !== undefined) fail(abortReason(signal));
      request.destroy();
    };
    let request: ReturnType<typeof send>;
    try {
      request = send(hop.url, {
        method: hop.method,
        headers: hop.headers,
        ...(agent === undefined ? {} : { agent }),
      });
    } catch (error: unknown) {
      // A header Node will not put on the wire (a line break in a value): nothing was sent.
      fail(fetchFailed(error));
      return;
    }
    request.setTimeout(idleTimeoutMs, () => {
      const error = Object.assign(new Error(`no data for ${idleTimeoutMs} ms from ${hop.url.host}`), {
        code: 'ETIMEDOUT',
      });
      fail(fetchFailed(error));
      request.destroy();
    });
    request.on('error', (error) => fail(fetchFailed(error)));
    request.on('response', (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('error', (error) => fail(fetchFailed(error)));
      answer.on('end', () => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        resolve({ answer, bytes: Buffer.concat(chunks) });
      });
      // A connection lost mid-answer closes it without an end (Node reports no error for it).
      answer.on('close', () => {
        if (!answer.complete)
          fail(
            fetchFailed(
              Object.assign(new Error('the connection closed before the answer ended'), {
                code: 'ECONNRESET',
              }),
            ),
          );
      });
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    request.end(hop.body);
  });
}

/** The hop a redirect leads to, or the reason it may not be followed. */
function redirected(hop: Hop, status: number, location: string): Hop {
  const url = new URL(location, hop.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw fetchFailed(new Error(`a redirect to a ${url.protocol} URL`));
  let { method, body } = hop;
  const dropped = new Set<string>();
  if (status === 303 ? method !== 'HEAD' : (status === 301 || status === 302) && method === 'POST') {
    method = 'GET';
    body = undefined;
    for (const name of BODY_HEADERS) dropped.add(name);
  }
  if (url.origin !== hop.url.origin) for (const name of CREDENTIAL_HEADERS) dropped.add(name);
  const headers = Object.fromEntries(Object.entries(hop.headers).filter(([name]) => !dropped.has(name)));
  url.hash = '';
  return { url, method, headers, body };
}

/** A `fetch` over the platform's HTTP client, for the calls Octokit's request layer makes. */
export function wireFetch(options: WireOptions = {}): WireFetch {
  const idleTimeoutMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  return async (target, init = {}) => {
    const signal = init.signal ?? undefined;
    if (signal?.aborted === true) throw abortReason(signal);
    let hop: Hop;
    try {
      const url = new URL(target);
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new Error(`${url.protocol} URLs are not fetched`);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = value;
      headers['accept-encoding'] ??= 'gzip, deflate, br';
      const body = requestBody(init.body);
      if (body !== undefined) headers['content-length'] = String(body.length);
      url.hash = '';
      hop = { url, method: (init.method ?? 'GET').toUpperCase(), headers, body };
    } catch (error: unknown) {
      throw error instanceof TypeError ? error : fetchFailed(error);
    }
    for (let hops = 0; ; hops += 1) {
      const { answer, bytes } = await exchange(hop, signal, idleTimeoutMs, options.agentFor?.(hop.url));
      const status = answer.statusCode ?? 0;
      const location = answer.headers.location;
      const redirect = init.redirect ?? 'follow';
      if (REDIRECTS.has(status) && location !== undefined && redirect !== 'manual') {
        if (redirect === 'error')
          throw fetchFailed(new Error(`unexpected redirect to ${new URL(location, hop.url).origin}`));
        if (hops >= MAX_REDIRECTS) throw fetchFailed(new Error('redirect count exceeded'));
        hop = redirected(hop, status, location);
        continue;
      }
      const headers = new WireHeaders(answer.rawHeaders);
      const body = await decoded(bytes, headers.get('content-encoding')).catch((error: unknown) => {
        throw fetchFailed(error);
      });
      return new WireResponse(status, answer.statusMessage ?? '', hop.url.href, hops > 0, headers, body);
    }
  };
}
