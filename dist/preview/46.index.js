export const id = 46;
export const ids = [46];
export const modules = {

/***/ 7046:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  connect: () => (/* binding */ connect)
});

// UNUSED EXPORTS: clientTimingFor

// EXTERNAL MODULE: ./packages/core/src/github/api-url.ts
var api_url = __webpack_require__(6993);
// EXTERNAL MODULE: ./node_modules/@actions/github/lib/github.js + 21 modules
var github = __webpack_require__(1758);
// EXTERNAL MODULE: ./node_modules/@octokit/request-error/dist-src/index.js
var dist_src = __webpack_require__(1015);
// EXTERNAL MODULE: ./node_modules/@octokit/plugin-retry/dist-bundle/index.js
var dist_bundle = __webpack_require__(9735);
// EXTERNAL MODULE: ./node_modules/@octokit/plugin-throttling/dist-bundle/index.js
var plugin_throttling_dist_bundle = __webpack_require__(6856);
// EXTERNAL MODULE: ./node_modules/bottleneck/light.js
var light = __webpack_require__(3251);
var light_default = /*#__PURE__*/__webpack_require__.n(light);
// EXTERNAL MODULE: ./packages/core/src/redact.ts
var redact = __webpack_require__(796);
;// CONCATENATED MODULE: ./packages/core/src/github/outbound.ts

/** Request options that are not parameters sent to GitHub. */
const NOT_PARAMETERS = new Set(['method', 'url', 'baseUrl', 'headers', 'request', 'mediaType']);
function redacted(value) {
    if (typeof value === 'string')
        return (0,redact/* redactSecrets */.fp)(value);
    if (Array.isArray(value))
        return value.map(redacted);
    if (value !== null && typeof value === 'object') {
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redacted(v)]));
    }
    return value;
}
function redactOutbound(octokit) {
    octokit.hook.before('request', (options) => {
        const method = options.method.toUpperCase();
        if (method === 'GET' || method === 'HEAD' || options.url.endsWith('/graphql'))
            return;
        const parameters = options;
        for (const [name, value] of Object.entries(parameters)) {
            if (!NOT_PARAMETERS.has(name))
                parameters[name] = redacted(value);
        }
    });
    return {};
}

// EXTERNAL MODULE: ./packages/core/src/errors.ts
var errors = __webpack_require__(7638);
// EXTERNAL MODULE: ./node_modules/@actions/http-client/lib/index.js + 1 modules
var lib = __webpack_require__(4942);
// EXTERNAL MODULE: ./node_modules/undici/index.js
var undici = __webpack_require__(6752);
;// CONCATENATED MODULE: ./packages/core/src/github/transport.ts
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



/**
 * 8 MiB. The largest answer Writ needs is a page of 100 issue comments. Measured against the emulator
 * (scripts/bench/measure-response-size.ts): a page of 100 comments of 1 KB is 0.25 MB, a
 * page of 100 comments at GitHub's 65,536-character maximum 6.70 MB, so a page anyone can fill on
 * a public issue still fits, and nothing larger is ever buffered.
 */
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** Redirects followed for one request (fetch allows 20; GitHub's API redirects once, for a move). */
const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** What leaves a request that goes to another origin. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);
/** What leaves a request that loses its body (a 303, or a 301/302 after a POST). */
const BODY_HEADERS = new Set(['content-encoding', 'content-language', 'content-location', 'content-type']);
function refusedRedirect(why) {
    return new errors/* WritError */.b9('github-redirect-refused', `A GitHub API answer redirected ${why}; not followed.`);
}
function tooLarge(limit) {
    return new errors/* WritError */.b9('github-response-too-large', `A GitHub API answer was larger than ${limit} bytes; it was refused before it was read whole.`, { details: { limitBytes: limit } });
}
/** What an aborted read rejects with: the signal's reason (the deadline's WritError) when it is one. */
function abortReason(signal) {
    const reason = signal.reason;
    return reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError');
}
/** Lets the answer's body go without reading it (a redirect's, a refused one's). */
async function discard(response) {
    await response.body?.cancel().catch(() => undefined);
}
/** The answer's body, read chunk by chunk and refused as soon as it passes `limit`. */
async function readBounded(response, limit, signal) {
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (Number.isFinite(declared) && declared > limit) {
        await discard(response);
        throw tooLarge(limit);
    }
    if (response.body === null)
        return new Uint8Array(0);
    const reader = response.body.getReader();
    const chunks = [];
    let total = 0;
    try {
        for (;;) {
            const { done, value } = await reader.read();
            if (done)
                break;
            total += value.byteLength;
            if (total > limit) {
                await reader.cancel().catch(() => undefined);
                throw tooLarge(limit);
            }
            chunks.push(value);
        }
    }
    catch (error) {
        if (signal?.aborted === true)
            throw abortReason(signal);
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
class ReadResponse {
    url;
    redirected;
    status;
    statusText;
    headers;
    ok;
    #bytes;
    constructor(answer, url, redirected, bytes) {
        this.url = url;
        this.redirected = redirected;
        this.status = answer.status;
        this.statusText = answer.statusText;
        this.headers = answer.headers;
        this.ok = answer.status >= 200 && answer.status <= 299;
        this.#bytes = bytes;
    }
    get body() {
        const bytes = this.#bytes;
        return new ReadableStream({
            start(controller) {
                controller.enqueue(bytes);
                controller.close();
            },
        });
    }
    // eslint-disable-next-line @typescript-eslint/require-await -- fetch's reads are asynchronous
    async text() {
        return new TextDecoder().decode(this.#bytes);
    }
    // eslint-disable-next-line @typescript-eslint/require-await -- fetch's reads are asynchronous
    async arrayBuffer() {
        return this.#bytes.slice().buffer;
    }
}
/** A body that can be sent again on a 307 or 308 (Octokit sends strings; anything else is not resent). */
function replayable(body) {
    return body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
}
/**
 * `inner` (the toolkit's fetch, or a test's) inside the limits above: redirects followed here under
 * the rules above, and every answer's body read within `maxResponseBytes`.
 */
function limitedFetch(inner, limits = {}) {
    const maxBytes = limits.maxResponseBytes ?? MAX_RESPONSE_BYTES;
    return async (url, init = {}) => {
        const signal = init.signal ?? undefined;
        let target = new URL(url);
        let method = (init.method ?? 'GET').toUpperCase();
        let body = init.body;
        let headers = {};
        for (const [name, value] of Object.entries(init.headers ?? {}))
            headers[name.toLowerCase()] = value;
        for (let hops = 0;; hops += 1) {
            const sent = { ...init, method, headers, body, redirect: 'manual' };
            if (body === undefined || body === null) {
                delete sent.body;
                delete sent.duplex;
            }
            const answer = await inner(target.href, sent);
            const location = answer.headers.get('location');
            if (REDIRECTS.has(answer.status) && location !== null && init.redirect !== 'manual') {
                await discard(answer);
                if (init.redirect === 'error')
                    throw refusedRedirect('where the request allows none');
                if (hops >= MAX_REDIRECTS)
                    throw refusedRedirect(`more than ${MAX_REDIRECTS} times`);
                let next;
                try {
                    next = new URL(location, target);
                }
                catch {
                    throw refusedRedirect('to a location that is not a URL');
                }
                if (next.protocol !== 'https:' && next.protocol !== 'http:')
                    throw refusedRedirect('to a URL that is neither https nor http');
                if (target.protocol === 'https:' && next.protocol !== 'https:')
                    throw refusedRedirect('from https to http');
                const dropped = new Set();
                const toGet = answer.status === 303
                    ? method !== 'HEAD'
                    : (answer.status === 301 || answer.status === 302) && method === 'POST';
                if (toGet) {
                    method = 'GET';
                    body = undefined;
                    for (const name of BODY_HEADERS)
                        dropped.add(name);
                    dropped.add('content-length');
                }
                else if (!replayable(body)) {
                    throw refusedRedirect('a request whose body cannot be sent again');
                }
                if (next.origin !== target.origin)
                    for (const name of CREDENTIAL_HEADERS)
                        dropped.add(name);
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
function toolkitFetch(baseUrl) {
    const dispatcher = new lib/* HttpClient */.Qq().getAgentDispatcher(baseUrl);
    return ((url, init) => (0,undici/* fetch */.hd)(url, { ...init, dispatcher }));
}
/**
 * The fetch a client's requests go through: `transport` (a test's) or the toolkit's for `baseUrl`,
 * inside the limits.
 */
function clientFetch(baseUrl, transport, limits = {}) {
    return limitedFetch(transport ?? toolkitFetch(baseUrl), limits);
}

// EXTERNAL MODULE: ./packages/core/src/github/write-retry.ts
var write_retry = __webpack_require__(1850);
;// CONCATENATED MODULE: ./packages/core/src/github/pacer.ts

/** GitHub's documented ceiling on content-generating requests in any minute. */
const CONTENT_CREATION_PER_MINUTE = 80;
const DEFAULT_HOURLY_BUDGET = 480;
const DEFAULT_MIN_SPACING_MS = 1000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const systemPacingClock = {
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
/** How many of `sends` (ascending) are later than `after`. */
function countAfter(sends, after) {
    let low = 0;
    let high = sends.length;
    while (low < high) {
        const middle = (low + high) >> 1;
        if ((sends[middle] ?? 0) > after)
            high = middle;
        else
            low = middle + 1;
    }
    return sends.length - low;
}
class Pacer {
    enabled;
    hourlyBudget;
    minSpacingMs;
    clock;
    /** Content-creating sends, ascending, the last hour's (older ones are dropped as new ones come). */
    sends = [];
    /** No request before this instant (a secondary-limit answer's wait). */
    holdUntil = 0;
    /** Content-creating requests the caller still expects to make (`expect`), this one included. */
    expected = 0;
    /** Content-creating requests take their turns one at a time. */
    queue = Promise.resolve();
    counts = {
        contentCreating: 0,
        paced: 0,
        waitedMs: 0,
        largestWaitMs: 0,
        refusals: 0,
    };
    constructor(options) {
        this.enabled = options !== false;
        const given = options === false || options === undefined ? undefined : options;
        this.clock = given ?? systemPacingClock;
        this.hourlyBudget = given?.hourlyBudget ?? DEFAULT_HOURLY_BUDGET;
        this.minSpacingMs = given?.minSpacingMs ?? DEFAULT_MIN_SPACING_MS;
        if (!Number.isInteger(this.hourlyBudget) || this.hourlyBudget < 1) {
            throw new RangeError(`hourlyBudget must be a positive integer, not ${String(this.hourlyBudget)}`);
        }
        if (!Number.isFinite(this.minSpacingMs) || this.minSpacingMs < 0) {
            throw new RangeError(`minSpacingMs must be 0 or more, not ${String(this.minSpacingMs)}`);
        }
    }
    now() {
        return this.clock.now();
    }
    /**
     * The caller's estimate of the content-creating requests it is about to make (replacing any earlier
     * one; each send counts it down). More than what is left of the hour's budget: even spacing.
     */
    expect(count) {
        this.expected = Number.isFinite(count) ? Math.max(0, Math.floor(count)) : 0;
    }
    /** Whether the next content-creating request is spaced evenly (the hint exceeds the hour's room). */
    smooth(at = this.clock.now()) {
        return this.smoothAt(this.sends, this.expected, at);
    }
    /**
     * How long, in ms from now, `count` more content-creating requests take at this pacing (the sends so
     * far, the hold, and `count` as the hint), until the last of them is sent: what a plan's writes cost
     * at GitHub's limits, before any reading or answer time.
     */
    plannedMs(count) {
        const start = this.clock.now();
        const sends = [...this.sends];
        let at = start;
        for (let left = Math.max(0, Math.floor(count)); left > 0; left -= 1) {
            at = this.slot(sends, left, at);
            sends.push(at);
        }
        return at - start;
    }
    /**
     * How long every request still waits for a secondary-limit answer's hold, in ms (0: none): a caller
     * that cannot wait that long (a lease about to run out) hands over instead of sending.
     */
    heldForMs() {
        return this.enabled ? Math.max(0, this.holdUntil - this.clock.now()) : 0;
    }
    figures() {
        return { ...this.counts };
    }
    /**
     * A secondary-limit answer was seen: every request waits `holdMs` from now (a longer hold already
     * running stands).
     */
    refused(holdMs) {
        this.counts.refusals += 1;
        if (this.enabled)
            this.holdUntil = Math.max(this.holdUntil, this.clock.now() + holdMs);
    }
    /** Waits for a request's turn: a content-creating one for its slot, any for a hold to pass. */
    async admit(contentCreating) {
        if (!this.enabled) {
            if (contentCreating)
                this.record(this.clock.now());
            return;
        }
        const start = this.clock.now();
        if (contentCreating) {
            const turn = this.queue.then(() => this.takeSlot());
            this.queue = turn.catch(() => undefined);
            await turn;
        }
        else {
            await this.waitUntil(() => this.holdUntil);
        }
        const waited = this.clock.now() - start;
        if (waited > 0) {
            this.counts.paced += 1;
            this.counts.waitedMs += waited;
            this.counts.largestWaitMs = Math.max(this.counts.largestWaitMs, waited);
        }
    }
    async waitUntil(target) {
        for (;;) {
            const now = this.clock.now();
            const at = target();
            if (at <= now)
                return;
            await this.clock.sleep(at - now);
        }
    }
    async takeSlot() {
        await this.waitUntil(() => this.slot(this.sends, this.expected, this.clock.now()));
        this.record(this.clock.now());
        if (this.expected > 0)
            this.expected -= 1;
    }
    record(at) {
        this.counts.contentCreating += 1;
        const from = this.sends.length - countAfter(this.sends, at - HOUR_MS);
        if (from > 0)
            this.sends = this.sends.slice(from);
        this.sends.push(at);
    }
    smoothAt(sends, expected, at) {
        return expected > this.hourlyBudget - countAfter(sends, at - HOUR_MS);
    }
    /** The earliest instant, not before `now`, one more content-creating request may be sent. */
    slot(sends, expected, now) {
        let at = Math.max(now, this.holdUntil);
        const last = sends[sends.length - 1];
        if (last !== undefined) {
            const spacing = this.smoothAt(sends, expected, now)
                ? Math.max(this.minSpacingMs, HOUR_MS / this.hourlyBudget)
                : this.minSpacingMs;
            at = Math.max(at, last + spacing);
        }
        // The send that must leave each window before one more fits in it.
        const minuteLeaving = sends[sends.length - CONTENT_CREATION_PER_MINUTE];
        if (minuteLeaving !== undefined)
            at = Math.max(at, minuteLeaving + MINUTE_MS);
        const hourLeaving = sends[sends.length - this.hourlyBudget];
        if (hourLeaving !== undefined)
            at = Math.max(at, hourLeaving + HOUR_MS);
        return at;
    }
}
/**
 * The plugin: every request waits its turn at `pacer` before it is sent, and every answer that is a
 * secondary limit holds the client. Installed between the request deadline and plugin-throttling
 * (client.ts), so the deadline covers the send and not the wait, and throttling's resend of a read or
 * a CAS write waits its turn again.
 */
function pacing(pacer) {
    return function pacingPlugin(octokit) {
        octokit.hook.wrap('request', async (request, options) => {
            await pacer.admit((0,write_retry/* classifyRequest */.mE)(options) !== 'read');
            let response;
            try {
                response = await request(options);
            }
            catch (error) {
                const limit = (0,write_retry/* secondaryLimitOf */.Dr)(error, pacer.now());
                if (limit !== null)
                    pacer.refused(limit.retryAfterSeconds * 1000);
                throw error;
            }
            const limit = (0,write_retry/* secondaryLimitOf */.Dr)(response, pacer.now());
            if (limit !== null)
                pacer.refused(limit.retryAfterSeconds * 1000);
            return response;
        });
        return {};
    };
}

;// CONCATENATED MODULE: ./packages/core/src/github/client.ts
/**
 * The one place Writ builds a GitHub client: `@actions/github`'s `getOctokit` with the retry and
 * throttling plugins passed as trailing arguments. (Passing plugins inside the options object, as one
 * well-known action does, silently installs neither.) Its requests go through the toolkit's own
 * transport (@actions/github's undici fetch and proxy dispatcher) inside Writ's limits on answers and
 * redirects (transport.ts), each under a deadline that covers its retries (`requestDeadline`), and every
 * one waits its turn at the client's pacer (pacer.ts; `pacerOf(client)`), which paces content-creating
 * requests to GitHub's secondary limits and holds the client after a secondary-limit answer.
 */












/** The default deadline of one request, its retries included. */
const REQUEST_DEADLINE_MS = 60_000;
/**
 * Timings for a GitHub emulator on loopback (tests, the demo): no pacing (GitHub asks for a second
 * between writes; a test that wants pacing passes `pacing` with a virtual clock after these) and retry
 * and rate-limit waits of `waitBaseMs` per unit instead of a second.
 */
function loopbackTimings(waitBaseMs = 50) {
    return {
        pacing: false,
        retryBaseMs: waitBaseMs,
        rateLimitBaseMs: waitBaseMs,
    };
}
const pacers = new WeakMap();
/**
 * The pacer of a client `createGitHubClient` built (undefined for any other object): `expect(n)` to
 * hint how many content-creating requests are coming, `figures()` for what it did, `plannedMs(n)` for
 * what `n` more cost at GitHub's limits.
 */
function pacerOf(client) {
    return pacers.get(client);
}
/** Statuses plugin-retry must leave alone: client errors, and 429, which throttling waits out properly. */
const DO_NOT_RETRY = [400, 401, 403, 404, 409, 410, 422, 429, 451];
/**
 * GitHub now reports GraphQL rate limiting as `type: "RATE_LIMIT"`, while plugin-throttling still looks
 * for `RATE_LIMITED`. This plugin sits innermost (it is installed first) and renames the type, so the
 * throttling plugin waits the limit out instead of handing Writ an unexplained failure.
 */
function graphqlRateLimitCompat(octokit) {
    octokit.hook.wrap('request', async (request, options) => {
        const response = await request(options);
        const data = response.data;
        if (options.url.endsWith('/graphql') && Array.isArray(data?.errors)) {
            for (const error of data.errors)
                if (error.type === 'RATE_LIMIT')
                    error.type = 'RATE_LIMITED';
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
function ghesGraphqlUrl(octokit) {
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
function conditionalReads(octokit) {
    const cache = new Map();
    octokit.hook.wrap('request', async (request, options) => {
        if (!CONDITIONAL_ROUTES.has(`${options.method} ${options.url}`))
            return request(options);
        const endpoint = octokit.request.endpoint.parse(options);
        const accept = endpoint.headers.accept;
        const key = `${endpoint.url} ${typeof accept === 'string' ? accept : ''}`;
        const cached = cache.get(key);
        if (cached)
            options.headers = { ...options.headers, 'if-none-match': cached.etag };
        try {
            const response = await request(options);
            const etag = response.headers.etag;
            cache.delete(key);
            if (typeof etag === 'string') {
                cache.set(key, { etag, response });
                if (cache.size > CONDITIONAL_CACHE_SIZE)
                    cache.delete(cache.keys().next().value);
            }
            return response;
        }
        catch (error) {
            // A copy: a caller that changes what it was given must not change what the next 304 answers.
            if (cached && error.status === 304)
                return { ...cached.response, data: structuredClone(cached.response.data) };
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
function requestDeadline(ms) {
    return function deadline(octokit) {
        octokit.hook.wrap('request', async (request, options) => {
            const controller = new AbortController();
            let timer;
            const expired = new Promise((_resolve, reject) => {
                timer = setTimeout(() => {
                    const cause = new errors/* WritError */.b9('github-request-deadline', `A GitHub API request got no whole answer within ${ms} ms, its retries included.`, { details: { deadlineMs: ms } });
                    // No retry after the deadline: one plugin-retry already scheduled finds the signal aborted
                    // and fails before anything is sent, and schedules none after it.
                    options.request.retries = 0;
                    controller.abort(cause);
                    const failed = new dist_src/* RequestError */.G(cause.message, 500, {
                        request: octokit.request.endpoint.parse(options),
                    });
                    failed.cause = cause;
                    reject(failed);
                }, ms);
            });
            const given = options.request.signal;
            options.request = {
                ...options.request,
                signal: given instanceof AbortSignal ? AbortSignal.any([given, controller.signal]) : controller.signal,
            };
            try {
                return await Promise.race([request(options), expired]);
            }
            finally {
                clearTimeout(timer);
            }
        });
        return {};
    };
}
function noPlugin() {
    return {};
}
function createGitHubClient(token, options = {}) {
    (0,redact/* registerSecret */.cl)(token);
    const logger = options.logger ?? redact/* silentLogger */.qq;
    const rateLimitRetries = options.rateLimitRetries ?? 2;
    const maxWait = options.maxRateLimitWaitSeconds ?? 300;
    const onLimit = (kind) => (retryAfter, request, _octokit, retryCount) => {
        const what = `${request.method ?? 'request'} ${(0,redact/* redact */.E$)(request.url ?? '')}`;
        // A write is waited out only after a rate-limit refusal, never after an answer that may have applied.
        if (!(0,write_retry/* mayResend */.NO)(request))
            return false;
        if (retryCount < rateLimitRetries && retryAfter <= maxWait) {
            logger.warning(`${kind} rate limit on ${what}; retrying after ${retryAfter}s (retry ${retryCount + 1})`);
            return true;
        }
        logger.warning(`${kind} rate limit on ${what}; giving up after ${retryCount} retries`);
        return false;
    };
    const pacer = new Pacer(options.pacing);
    // Refused before the token is ever sent: a base URL with credentials in it is never used.
    const baseUrl = (0,api_url/* validateApiUrl */.G)(options.baseUrl ?? process.env.GITHUB_API_URL ?? 'https://api.github.com', options.baseUrl === undefined ? 'GITHUB_API_URL' : 'the GitHub API base URL');
    const client = (0,github/* getOctokit */.Q)(token, {
        baseUrl,
        userAgent: options.userAgent ?? 'writ',
        // Replaces @actions/github's default `request` (getOctokit merges options shallowly): its own
        // proxy-aware fetch for this base URL, inside Writ's limits (transport.ts).
        request: {
            fetch: clientFetch(baseUrl, options.transport, { maxResponseBytes: options.maxResponseBytes }),
        },
        log: {
            debug: (message) => logger.debug((0,redact/* redact */.E$)(message)),
            info: (message) => logger.debug((0,redact/* redact */.E$)(message)),
            warn: (message) => logger.warning((0,redact/* redact */.E$)(message)),
            error: (message) => logger.warning((0,redact/* redact */.E$)(message)),
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
            write: new (light_default()).Group({ maxConcurrent: 1, minTime: 0 }),
            notifications: new (light_default()).Group({ maxConcurrent: 1, minTime: 0 }),
        },
    }, write_retry/* writeRetry */.K9, ghesGraphqlUrl, redactOutbound, options.conditionalReads === true ? conditionalReads : noPlugin, graphqlRateLimitCompat, dist_bundle/* retry */.L, requestDeadline(options.deadlineMs ?? REQUEST_DEADLINE_MS), pacing(pacer), plugin_throttling_dist_bundle/* throttling */.A, (0,write_retry/* secondaryLimitRefusal */.s$)(() => pacer.now()));
    pacers.set(client, pacer);
    return client;
}

// EXTERNAL MODULE: ./packages/core/src/ledger/cas.ts
var cas = __webpack_require__(7070);
// EXTERNAL MODULE: ./packages/core/src/ledger/ledger.ts + 3 modules
var ledger_ledger = __webpack_require__(7388);
// EXTERNAL MODULE: ./packages/core/src/ledger/paths.ts
var paths = __webpack_require__(7111);
// EXTERNAL MODULE: ./packages/core/src/ledger/liveness.ts
var liveness = __webpack_require__(8162);
;// CONCATENATED MODULE: ./packages/core/src/stages/connect.ts
/** Builds what a writing stage runs with, from validated settings: the GitHub client and the ledger. */






/**
 * GitHub asks for a second between mutative requests; a local emulator on loopback needs no spacing,
 * so stages run against it (tests, the demo) at full speed. Real GitHub is never a loopback address.
 */
function clientTimingFor(apiUrl) {
    const host = new URL((0,api_url/* validateApiUrl */.G)(apiUrl, 'GITHUB_API_URL')).hostname;
    const loopback = host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
    return loopback ? loopbackTimings() : {};
}
/**
 * `actionsToken`: the token that reads holder liveness (`actions: read`) before a takeover; null or
 * absent: the ledger token's client reads it.
 */
function connect(target, settings, logger, options = {}) {
    const clock = options.clock ?? cas/* systemClock */.ml;
    const github = createGitHubClient(settings.token, {
        baseUrl: target.apiUrl,
        logger,
        ...clientTimingFor(target.apiUrl),
    });
    const actionsToken = options.actionsToken ?? null;
    const actions = actionsToken === null
        ? github
        : createGitHubClient(actionsToken, {
            baseUrl: target.apiUrl,
            logger,
            ...clientTimingFor(target.apiUrl),
        });
    const ledger = (0,ledger_ledger/* createLedgerContext */.ro)({ github, logger, clock, liveness: (0,liveness/* actionsLiveness */.JY)(actions, (0,paths/* parseRepository */.SU)(target.repository)) }, {
        repository: target.repository,
        branch: settings.branch,
        app: settings.app,
        policy: { leaseMs: settings.leaseMs },
    });
    return { github, ledger, clock, logger, ownLogin: `${settings.app.slug}[bot]`, actions };
}


/***/ })

};

//# sourceMappingURL=46.index.js.map