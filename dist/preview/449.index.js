export const id = 449;
export const ids = [449];
export const modules = {

/***/ 9449:
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
;// CONCATENATED MODULE: ./packages/core/src/github/client.ts
/**
 * The one place Writ builds a GitHub client: `@actions/github`'s `getOctokit` with the retry and
 * throttling plugins passed as trailing arguments. (Passing plugins inside the options object, as one
 * well-known action does, silently installs neither.) Its requests go through the toolkit's own
 * transport (@actions/github's undici fetch and proxy dispatcher) inside Writ's limits on answers and
 * redirects (transport.ts), each under a deadline that covers its retries (`requestDeadline`).
 */











/** The default deadline of one request, its retries included. */
const REQUEST_DEADLINE_MS = 60_000;
/**
 * Timings for a GitHub emulator on loopback (tests, the demo): no spacing between writes (GitHub asks
 * for a second) and retry and rate-limit waits of `waitBaseMs` per unit instead of a second.
 */
function loopbackTimings(waitBaseMs = 50) {
    return {
        writeSpacingMs: 0,
        notificationSpacingMs: 0,
        retryBaseMs: waitBaseMs,
        rateLimitBaseMs: waitBaseMs,
    };
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
 * it wraps the first attempt, every retry and the waits between them; plugin-throttling stays outside,
 * so a rate-limit wait (GitHub's definite "not done", bounded by `maxRateLimitWaitSeconds`) and the
 * queueing for write spacing are not counted, and each rate-limited attempt gets a deadline of its own.
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
    const writeSpacing = options.writeSpacingMs ?? 1000;
    const notificationSpacing = options.notificationSpacingMs ?? 3000;
    // Refused before the token is ever sent: a base URL with credentials in it is never used.
    const baseUrl = (0,api_url/* validateApiUrl */.G)(options.baseUrl ?? process.env.GITHUB_API_URL ?? 'https://api.github.com', options.baseUrl === undefined ? 'GITHUB_API_URL' : 'the GitHub API base URL');
    return (0,github/* getOctokit */.Q)(token, {
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
            // Own groups, so the spacing is configurable (and not shared with other clients in the process).
            write: new (light_default()).Group({ maxConcurrent: 1, minTime: writeSpacing }),
            notifications: new (light_default()).Group({ maxConcurrent: 1, minTime: notificationSpacing }),
        },
    }, write_retry/* writeRetry */.K9, ghesGraphqlUrl, redactOutbound, options.conditionalReads === true ? conditionalReads : noPlugin, graphqlRateLimitCompat, dist_bundle/* retry */.L, requestDeadline(options.deadlineMs ?? REQUEST_DEADLINE_MS), plugin_throttling_dist_bundle/* throttling */.A);
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

//# sourceMappingURL=449.index.js.map