export const id = 388;
export const ids = [388];
export const modules = {

/***/ 2755:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   DN: () => (/* binding */ runCasLoop),
/* harmony export */   y9: () => (/* binding */ CAS_MAX_ATTEMPTS)
/* harmony export */ });
/* unused harmony export casBackoff */
/**
 * The one compare-and-set retry loop, for every branch Writ commits on (the ledger's transitions and
 * the artifact publisher's file): read, decide, commit, landed.
 *
 *  - Each attempt reads the branch and decides from what it read: done (the wanted state is already
 *    there, or an earlier attempt is found to have landed) or one commit with `expectedHeadOid`.
 *  - A commit GitHub answered ends the loop. A stale head (someone, maybe our own earlier attempt,
 *    moved it) or an unknown outcome (a 5xx, a dropped connection: it may have landed) is never
 *    overwritten and never resent as is: the next attempt reads the branch again and decides anew,
 *    accepting a landed attempt only when its content is what that attempt sent.
 *  - Bounded: `maxAttempts` attempts with full-jitter backoff between them (the policy's random
 *    source and clock), then one last read for an attempt that landed, else the branch's
 *    `…-cas-exhausted` failure.
 */
/** How many attempts a compare-and-set commit gets unless its caller says otherwise. */
const CAS_MAX_ATTEMPTS = 8;
/** The wait after a lost attempt: full jitter below an exponential ceiling. */
function casBackoff(policy, attempt) {
    const ceiling = Math.min(policy.backoffCapMs, policy.backoffBaseMs * 2 ** (attempt - 1));
    return Math.floor(policy.random() * ceiling);
}
async function runCasLoop(policy, round) {
    for (let attempt = 1; attempt <= policy.maxAttempts; attempt += 1) {
        const decision = await round.decide(attempt);
        if (decision.kind === 'done')
            return decision.value;
        const outcome = await round.commit(decision.commit, attempt);
        if (outcome.kind === 'done')
            return outcome.value;
        await policy.clock.sleep(casBackoff(policy, attempt));
    }
    const landed = await round.landed();
    if (landed !== null)
        return landed;
    throw round.exhausted(policy.maxAttempts);
}


/***/ }),

/***/ 149:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $h: () => (/* binding */ commitOnBranch),
/* harmony export */   T9: () => (/* binding */ casExhausted),
/* harmony export */   gZ: () => (/* binding */ writeOutcome)
/* harmony export */ });
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7638);
/* harmony import */ var _write_retry_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1850);


/** What a failed write tells: `refused` (GitHub said no; nothing happened) or `unknown` (read back). */
function writeOutcome(error) {
    const status = (0,_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .httpStatus */ .nG)(error);
    return status !== undefined && status >= 400 && status < 500 ? 'refused' : 'unknown';
}
const EXHAUSTED = {
    ledger: 'ledger-cas-exhausted',
    artifact: 'artifact-cas-exhausted',
};
/** The failure of a compare-and-set loop that lost every bounded attempt, coded for the branch's role. */
function casExhausted(role, what, attempts) {
    return new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .WritError */ .b9(EXHAUSTED[role], `${what} lost all ${attempts} attempts to concurrent writers`, {
        details: { attempts },
    });
}
const COMMIT_MUTATION = `mutation WritCommitOnBranch($input: CreateCommitOnBranchInput!) {
  createCommitOnBranch(input: $input) { commit { oid } }
}`;
function record(value) {
    return typeof value === 'object' && value !== null ? value : {};
}
/** One `createCommitOnBranch` with `expectedHeadOid`; a definite refusal throws `github-request-failed`. */
async function commitOnBranch(github, commit, role) {
    let response;
    try {
        response = await github.request('POST /graphql', {
            request: _write_retry_js__WEBPACK_IMPORTED_MODULE_1__/* .CAS_WRITE */ .MI,
            query: COMMIT_MUTATION,
            variables: {
                input: {
                    branch: { repositoryNameWithOwner: commit.repository, branchName: commit.branch },
                    expectedHeadOid: commit.expectedHeadOid,
                    message: { headline: commit.headline, body: commit.body },
                    fileChanges: {
                        additions: commit.additions.map((file) => ({
                            path: file.path,
                            contents: Buffer.from(file.contents).toString('base64'),
                        })),
                    },
                },
            },
        });
    }
    catch (error) {
        if (writeOutcome(error) === 'unknown') {
            const status = (0,_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .httpStatus */ .nG)(error);
            return { kind: 'unknown', reason: status === undefined ? 'no response' : `HTTP ${status}` };
        }
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .WritError */ .b9('github-request-failed', `createCommitOnBranch on the ${role} branch was refused with HTTP ${(0,_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .httpStatus */ .nG)(error) ?? '?'}: ${(0,_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .errorMessage */ .gJ)(error)}`, { cause: error });
    }
    const body = record(response.data);
    const errors = Array.isArray(body.errors) ? body.errors : [];
    if (errors.some((error) => error.type === 'STALE_DATA'))
        return { kind: 'stale' };
    if (errors.length > 0) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .WritError */ .b9('github-request-failed', `createCommitOnBranch on the ${role} branch returned GraphQL errors (${errors.map((e) => e.type ?? 'error').join(', ')})`);
    }
    const oid = record(record(record(body.data).createCommitOnBranch).commit).oid;
    if (typeof oid !== 'string')
        return { kind: 'unknown', reason: 'createCommitOnBranch answered without a commit' };
    const date = response.headers.date;
    const serverTime = typeof date === 'string' ? Date.parse(date) : Number.NaN;
    return { kind: 'committed', oid, serverTime: Number.isFinite(serverTime) ? serverTime : null };
}


/***/ }),

/***/ 1850:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Dr: () => (/* binding */ secondaryLimitOf),
/* harmony export */   K9: () => (/* binding */ writeRetry),
/* harmony export */   MI: () => (/* binding */ CAS_WRITE),
/* harmony export */   NO: () => (/* binding */ mayResend),
/* harmony export */   mE: () => (/* binding */ classifyRequest),
/* harmony export */   s$: () => (/* binding */ secondaryLimitRefusal)
/* harmony export */ });
/* unused harmony export isGraphqlQueryOnly */
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7638);
/* harmony import */ var _redact_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(796);


/** The one marker of a protected write: `request: CAS_WRITE` on a compare-and-set commit. */
const CAS_WRITE = Object.freeze({ writ: 'cas' });
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
function record(value) {
    return typeof value === 'object' && value !== null ? value : {};
}
function isGraphqlUrl(url) {
    if (typeof url !== 'string')
        return false;
    try {
        return /\/graphql\/?$/.test(new URL(url, 'https://github.invalid').pathname);
    }
    catch {
        return false;
    }
}
/**
 * Whether a GraphQL document only reads: once comments and strings are removed it names no
 * `mutation` or `subscription` anywhere. Anything it cannot tell (no document, odd syntax) is a write.
 */
function isGraphqlQueryOnly(document) {
    if (typeof document !== 'string' || document.trim() === '')
        return false;
    const bare = document
        .replace(/"""[\s\S]*?"""/g, ' ')
        .replace(/"(?:[^"\\\n]|\\.)*"/g, ' ')
        .replace(/#[^\n\r]*/g, ' ');
    if (bare.includes('"'))
        return false;
    return !/(?:^|[^_0-9A-Za-z])(?:mutation|subscription)(?![_0-9A-Za-z])/i.test(bare);
}
/** How the client treats a request: a read (may retry), a write (sent once) or a CAS write (may retry). */
function classifyRequest(options) {
    const method = typeof options.method === 'string' ? options.method.toUpperCase() : '';
    if (READ_METHODS.has(method))
        return 'read';
    if (method === 'POST' && isGraphqlUrl(options.url) && isGraphqlQueryOnly(options.query))
        return 'read';
    return record(options.request).writ === CAS_WRITE.writ ? 'cas-write' : 'write';
}
const attempts = new WeakMap();
function status(error) {
    const value = record(error).status;
    return typeof value === 'number' ? value : undefined;
}
/** GitHub's wording of a secondary-limit answer, as plugin-throttling also reads it. */
const SECONDARY = /\bsecondary rate\b/i;
/** GitHub's advice without `retry-after` or a spent primary window: wait at least a minute. */
const SECONDARY_FALLBACK_SECONDS = 60;
function header(headers, name) {
    const value = record(headers)[name];
    return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}
function text(value) {
    return typeof value === 'string' ? value : '';
}
function errorMessages(data) {
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
function secondaryLimitOf(thrown, nowMs) {
    const failure = record(thrown);
    // An Octokit error carries the answer as `response`; an answer is its own.
    const answer = failure.response === undefined ? failure : record(failure.response);
    const statusValue = typeof failure.status === 'number' ? failure.status : answer.status;
    if (typeof statusValue !== 'number')
        return null;
    const headers = answer.headers;
    const texts = [
        text(failure.message),
        text(record(answer.data).message),
        ...errorMessages(answer.data),
        ...errorMessages(failure.data),
    ];
    const named = texts.some((text) => SECONDARY.test(text));
    const retryAfter = header(headers, 'retry-after');
    const limited = statusValue === 403 || statusValue === 429
        ? named || retryAfter !== undefined
        : statusValue < 300 && named;
    if (!limited)
        return null;
    let seconds = SECONDARY_FALLBACK_SECONDS;
    const asked = Number(retryAfter);
    const reset = Number(header(headers, 'x-ratelimit-reset'));
    if (retryAfter !== undefined && Number.isFinite(asked) && asked >= 0)
        seconds = asked;
    else if (header(headers, 'x-ratelimit-remaining') === '0' && Number.isFinite(reset))
        seconds = Math.ceil(reset - nowMs / 1000);
    return { status: statusValue, retryAfterSeconds: Math.max(1, Math.ceil(seconds)) };
}
/** A GraphQL answer holding errors, every one a rate limit: GitHub ran nothing. */
function rateLimitedAnswer(data) {
    const errors = record(data).errors;
    return (Array.isArray(errors) &&
        errors.length > 0 &&
        errors.every((error) => ['RATE_LIMITED', 'RATE_LIMIT'].includes(String(record(error).type))));
}
/**
 * Whether a request may be sent again: a read or a CAS write always, a write only while each attempt
 * so far was refused by a rate limit. The throttling plugin's limit handlers ask before waiting.
 */
function mayResend(options) {
    if (typeof options !== 'object' || options === null)
        return false;
    if (classifyRequest(options) !== 'write')
        return true;
    return attempts.get(options)?.resendable ?? true;
}
/** The plugin: every unprotected write with the retry plugin's retries off, and never sent twice. */
function writeRetry(octokit) {
    octokit.hook.wrap('request', async (request, options) => {
        if (classifyRequest(options) !== 'write')
            return request(options);
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
        }
        catch (error) {
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
function refusal(options, limit, cause) {
    const what = `${String(options.method)} ${(0,_redact_js__WEBPACK_IMPORTED_MODULE_1__/* .redact */ .E$)(String(options.url))}`;
    return new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .WritError */ .b9('secondary-rate-limit', `GitHub refused ${what} with its secondary limit on content creation (HTTP ${limit.status}); it asks for ${limit.retryAfterSeconds} s before the next request. The write was not sent again: read back what it would have written first.`, { cause, details: { retryAfterSeconds: limit.retryAfterSeconds, status: limit.status } });
}
/**
 * The plugin, outermost: a write (not a read, not a CAS write) that ended in a secondary-limit answer
 * fails with the coded `secondary-rate-limit` instead of Octokit's error or the GraphQL answer, so no
 * caller mistakes it for a refusal of what was asked (it is read back, then sent again). `now` is the
 * clock `x-ratelimit-reset` is read against (the pacer's).
 */
function secondaryLimitRefusal(now) {
    return function refusals(octokit) {
        octokit.hook.wrap('request', async (request, options) => {
            if (classifyRequest(options) !== 'write')
                return request(options);
            let response;
            try {
                response = await request(options);
            }
            catch (error) {
                const limit = secondaryLimitOf(error, now());
                throw limit === null ? error : refusal(options, limit, error);
            }
            const limit = secondaryLimitOf(response, now());
            if (limit !== null)
                throw refusal(options, limit, response);
            return response;
        });
        return {};
    };
}


/***/ }),

/***/ 7070:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   E$: () => (/* binding */ parseSnapshot),
/* harmony export */   ZC: () => (/* binding */ runTransition),
/* harmony export */   ml: () => (/* binding */ systemClock)
/* harmony export */ });
/* unused harmony exports countingStore, readCheckpoint, transitionRead, transitionPaths */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7638);
/* harmony import */ var _github_cas_loop_js__WEBPACK_IMPORTED_MODULE_9__ = __webpack_require__(2755);
/* harmony import */ var _github_commit_on_branch_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(149);
/* harmony import */ var _message_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(3512);
/* harmony import */ var _paths_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(7111);
/* harmony import */ var _provenance_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(9174);
/* harmony import */ var _schemas_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(3310);
/* harmony import */ var _replay_js__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(5580);
/* harmony import */ var _transitions_js__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(3927);
/**
 * The compare-and-set loop, the ledger's only concurrency primitive: read the head (one query), evaluate
 * the pure transition against it, commit with `createCommitOnBranch(expectedHeadOid)`.
 *
 * - STALE_DATA: re-read and re-evaluate from scratch (the approval may now be consumed, the epoch may
 *   have moved); never overwrite.
 * - A lost response or a 5xx (the client retries this one CAS write on a 5xx, so a STALE_DATA can be
 *   caused by our own earlier attempt landing): every attempt carries its own transition ID trailer; the next
 *   read looks for it in the history above that attempt's base and accepts it only when the files at
 *   that commit are byte-identical to what the attempt sent. Otherwise the transition is re-evaluated.
 * - Bounded attempts with seeded full jitter (the one loop, github/cas-loop.ts, the artifact branch's
 *   too); the outcome (attempts, recovery, requests) is reported.
 */










const systemClock = {
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
/** Wraps a store so every call is counted. */
function countingStore(store) {
    let calls = 0;
    const counted = {
        location: store.location,
        read: (request) => ((calls += 1), store.read(request)),
        readFilesAt: (oid, paths) => ((calls += 1), store.readFilesAt(oid, paths)),
        readHistory: (head, cursor, first) => ((calls += 1), store.readHistory(head, cursor, first)),
        readCommits: (requests) => ((calls += requests.length > 0 ? 1 : 0), store.readCommits(requests)),
        comment: (repository, id) => ((calls += 1), store.comment(repository, id)),
        commit: (request) => ((calls += 1), store.commit(request)),
        branchRules: () => ((calls += 1), store.branchRules()),
        ruleset: (id) => ((calls += 1), store.ruleset(id)),
        createRoot: (files, message) => ((calls += 4), store.createRoot(files, message)),
    };
    return { store: counted, count: () => calls };
}
/** Parses and validates the files of a snapshot; a missing or foreign root fails closed. */
function parseSnapshot(store, snapshot, runPath) {
    const rootText = snapshot.files.get(_paths_js__WEBPACK_IMPORTED_MODULE_4__/* .LEDGER_ROOT_PATH */ .$r) ?? null;
    if (rootText === null) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .WritError */ .b9('ledger-provenance-unproven', `The ledger branch has no ${_paths_js__WEBPACK_IMPORTED_MODULE_4__/* .LEDGER_ROOT_PATH */ .$r}.`);
    }
    const root = (0,_schemas_js__WEBPACK_IMPORTED_MODULE_6__/* .parseLedgerFile */ .zy)(_schemas_js__WEBPACK_IMPORTED_MODULE_6__/* .LEDGER_ROOT_FILE */ .aE, _paths_js__WEBPACK_IMPORTED_MODULE_4__/* .LEDGER_ROOT_PATH */ .$r, rootText);
    const { owner, repo, branch } = store.location;
    if (root.repository.toLowerCase() !== `${owner}/${repo}`.toLowerCase() || root.branch !== branch) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .WritError */ .b9('ledger-provenance-unproven', `${_paths_js__WEBPACK_IMPORTED_MODULE_4__/* .LEDGER_ROOT_PATH */ .$r} names ${root.repository}@${root.branch}, not ${owner}/${repo}@${branch}.`);
    }
    const leaseText = snapshot.files.get(_paths_js__WEBPACK_IMPORTED_MODULE_4__/* .LEASE_PATH */ .B0) ?? null;
    const runText = runPath === null ? null : (snapshot.files.get(runPath) ?? null);
    const checkpointText = snapshot.files.get(_paths_js__WEBPACK_IMPORTED_MODULE_4__/* .PROVENANCE_PATH */ .U7) ?? null;
    return {
        root,
        lease: leaseText === null ? _transitions_js__WEBPACK_IMPORTED_MODULE_8__/* .FREE_LEASE */ .sA : (0,_schemas_js__WEBPACK_IMPORTED_MODULE_6__/* .parseLedgerFile */ .zy)(_schemas_js__WEBPACK_IMPORTED_MODULE_6__/* .LEASE_FILE */ .wX, _paths_js__WEBPACK_IMPORTED_MODULE_4__/* .LEASE_PATH */ .B0, leaseText),
        run: runText === null || runPath === null ? null : (0,_schemas_js__WEBPACK_IMPORTED_MODULE_6__/* .parseLedgerFile */ .zy)(_schemas_js__WEBPACK_IMPORTED_MODULE_6__/* .RUN_FILE */ .zF, runPath, runText),
        checkpoint: checkpointText === null ? null : (0,_schemas_js__WEBPACK_IMPORTED_MODULE_6__/* .parseLedgerFile */ .zy)(_schemas_js__WEBPACK_IMPORTED_MODULE_6__/* .PROVENANCE_FILE */ .LP, _paths_js__WEBPACK_IMPORTED_MODULE_4__/* .PROVENANCE_PATH */ .U7, checkpointText),
    };
}
/** The head's checkpoint, or null (a full walk) when it is absent or unreadable. */
function readCheckpoint(snapshot) {
    const text = snapshot.files.get(_paths_js__WEBPACK_IMPORTED_MODULE_4__/* .PROVENANCE_PATH */ .U7) ?? null;
    if (text === null)
        return null;
    try {
        return (0,_schemas_js__WEBPACK_IMPORTED_MODULE_6__/* .parseLedgerFile */ .zy)(_schemas_js__WEBPACK_IMPORTED_MODULE_6__/* .PROVENANCE_FILE */ .LP, _paths_js__WEBPACK_IMPORTED_MODULE_4__/* .PROVENANCE_PATH */ .U7, text);
    }
    catch {
        return null;
    }
}
function additionsFor(result, runPath, report) {
    const additions = [];
    if (result.lease !== null) {
        additions.push({ path: _paths_js__WEBPACK_IMPORTED_MODULE_4__/* .LEASE_PATH */ .B0, contents: (0,_schemas_js__WEBPACK_IMPORTED_MODULE_6__/* .serializeLedgerFile */ .wA)(_schemas_js__WEBPACK_IMPORTED_MODULE_6__/* .LEASE_FILE */ .wX, _paths_js__WEBPACK_IMPORTED_MODULE_4__/* .LEASE_PATH */ .B0, result.lease) });
    }
    if (result.run !== null) {
        additions.push({ path: runPath, contents: (0,_schemas_js__WEBPACK_IMPORTED_MODULE_6__/* .serializeLedgerFile */ .wA)(_schemas_js__WEBPACK_IMPORTED_MODULE_6__/* .RUN_FILE */ .zF, runPath, result.run) });
    }
    additions.push({
        path: _paths_js__WEBPACK_IMPORTED_MODULE_4__/* .PROVENANCE_PATH */ .U7,
        contents: (0,_schemas_js__WEBPACK_IMPORTED_MODULE_6__/* .serializeLedgerFile */ .wA)(_schemas_js__WEBPACK_IMPORTED_MODULE_6__/* .PROVENANCE_FILE */ .LP, _paths_js__WEBPACK_IMPORTED_MODULE_4__/* .PROVENANCE_PATH */ .U7, (0,_provenance_js__WEBPACK_IMPORTED_MODULE_5__/* .checkpointFrom */ .Zz)(report)),
    });
    return additions;
}
/**
 * Looks for a pending attempt's commit above its base. Walks the history of the head until every
 * pending base has been seen (usually inside the page the read already returned).
 */
async function findLanded(store, snapshot, pending) {
    if (pending.length === 0)
        return null;
    const byId = new Map(pending.map((attempt) => [attempt.transitionId, attempt]));
    const bases = new Set(pending.map((attempt) => attempt.base));
    let page = snapshot.history;
    if (page.commits.length === 0)
        page = await store.readHistory(snapshot.headOid, null, 100);
    for (;;) {
        for (const commit of page.commits) {
            const trailers = (0,_message_js__WEBPACK_IMPORTED_MODULE_3__/* .parseTrailers */ .aw)(commit.message);
            const attempt = trailers === null ? undefined : byId.get(trailers.transitionId);
            if (attempt !== undefined) {
                const files = await store.readFilesAt(commit.oid, attempt.additions.map((file) => file.path));
                const identical = attempt.additions.every((file) => files.get(file.path) === file.contents);
                if (identical)
                    return { attempt, oid: commit.oid };
                return null;
            }
            bases.delete(commit.oid);
            if (bases.size === 0)
                return null;
        }
        if (!page.hasNextPage || page.endCursor === null)
            return null;
        page = await store.readHistory(snapshot.headOid, page.endCursor, 100);
    }
}
/** Runs one transition through the compare-and-set loop (or, with dryRun, evaluates it and stops). */
async function runTransition(context, spec, options = {}) {
    const { store, count } = countingStore(context.store);
    const paths = transitionPaths(spec.runRepository, spec.runId);
    const app = context.app;
    if (app === null) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .WritError */ .b9('invalid-input', 'The ledger app identity (slug and app ID) is required to write the ledger: every commit replays the history above the last checkpoint.');
    }
    const run = {
        context,
        spec,
        app,
        store,
        count,
        runPath: (0,_paths_js__WEBPACK_IMPORTED_MODULE_4__/* .runFilePath */ .N3)(spec.runRepository, spec.runId),
        paths,
        dryRun: options.dryRun === true,
        transitionBase: (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomUUID)(),
        pending: [],
        proven: null,
        // A head this process wrote itself needs no read: its first attempt commits on it (see HeldHead). A
        // transition that grants authority (spec.provenance) always reads, to prove the rulesets now.
        held: spec.provenance ? null : usableHead(options.from, paths),
        // A read the caller made already (transitionRead, for this run): the first attempt proves it as usual.
        first: options.first !== undefined && paths.every((path) => options.first?.files.has(path))
            ? options.first
            : null,
    };
    return (0,_github_cas_loop_js__WEBPACK_IMPORTED_MODULE_9__/* .runCasLoop */ .DN)(context, {
        decide: (attempt) => decideAttempt(run, attempt),
        commit: (decided, attempt) => commitAttempt(run, decided, attempt),
        // Before giving up, one last look for an attempt that landed.
        landed: async () => {
            const snapshot = await store.read({ paths, historyFirst: 100 });
            if (snapshot === null)
                return null;
            const landed = await findLanded(store, snapshot, run.pending);
            return landed === null ? null : recovered(landed, snapshot, context.maxAttempts, count());
        },
        exhausted: (attempts) => (0,_github_commit_on_branch_js__WEBPACK_IMPORTED_MODULE_2__/* .casExhausted */ .T9)('ledger', `The ledger commit for run ${spec.runId}`, attempts),
    });
}
/**
 * One attempt's read and decision: done when an earlier attempt is found to have landed (or in a dry
 * run), else the commit to make, evaluated on the proven head.
 */
async function decideAttempt(run, attempt) {
    const snapshot = await attemptSnapshot(run);
    const landed = await findLanded(run.store, snapshot, run.pending);
    if (landed !== null) {
        run.context.logger.info(`ledger: attempt ${landed.attempt.transitionId} had landed as ${landed.oid}`);
        return { kind: 'done', value: recovered(landed, snapshot, attempt, run.count()) };
    }
    // Authority first: no file content is judged before the history that wrote it is proven.
    const report = await proveAttempt(run, snapshot);
    const decided = planCommit(run, snapshot, report, attempt);
    if (run.dryRun) {
        return {
            kind: 'done',
            value: outcomeOf(run, decided, attempt, { committed: false, serverTime: snapshot.serverTime }),
        };
    }
    return { kind: 'commit', commit: decided };
}
/**
 * What an attempt starts from: the held head (unread), the caller's read (first attempt only), or a
 * read of the branch (two commits of history: the head to replay and its parent, where its checkpoint
 * usually ends; a hundred when an earlier attempt may have landed).
 */
async function attemptSnapshot(run) {
    const { held, store, spec } = run;
    if (held !== null)
        run.proven = heldReport(held);
    const snapshot = held !== null
        ? heldSnapshot(held)
        : (run.first ??
            (await store.read(transitionRead(run.paths, run.pending.length > 0 ? 100 : 2, spec.provenance))));
    run.first = null;
    if (snapshot === null) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .WritError */ .b9('ledger-branch-missing', `The ledger branch ${store.location.branch} does not exist in ${store.location.owner}/${store.location.repo}.`);
    }
    return snapshot;
}
/** The provenance of the snapshot's head: a held head's own, else proven above the checkpoint (or what this run proved). */
async function proveAttempt(run, snapshot) {
    const { held, proven } = run;
    const report = held !== null && proven !== null
        ? proven
        : await (0,_provenance_js__WEBPACK_IMPORTED_MODULE_5__/* .verifyProvenance */ .Tu)(run.store, run.app, snapshot.headOid, {
            mode: 'incremental',
            ...(proven === null ? { checkpoint: readCheckpoint(snapshot) } : { trusted: proven.state }),
            firstPage: snapshot.history,
            ...(snapshot.head === undefined ? {} : { head: snapshot.head }),
            rulesets: run.spec.provenance,
            ...(snapshot.rules === undefined ? {} : { rules: snapshot.rules }),
        });
    run.held = null;
    run.proven = report;
    return report;
}
/** Evaluates the transition on the proven snapshot and plans its commit on that head. */
function planCommit(run, snapshot, report, attempt) {
    const { spec } = run;
    const parsed = parseSnapshot(run.store, snapshot, run.runPath);
    const view = {
        serverTime: snapshot.serverTime,
        lease: parsed.lease,
        run: parsed.run,
        tombstones: { runIds: report.consumedRunIds, commentIds: report.consumedCommentIds },
    };
    const result = spec.evaluate(view);
    const transitionId = `${run.transitionBase}.${attempt}`;
    const message = (0,_message_js__WEBPACK_IMPORTED_MODULE_3__/* .formatMessage */ .hw)({
        transition: result.transition,
        runId: result.runId,
        repository: spec.runRepository,
        epoch: result.epoch,
        transitionId,
        commentId: result.commentId,
    });
    const commit = {
        expectedHeadOid: snapshot.headOid,
        headline: message.headline,
        body: message.body,
        additions: additionsFor(result, run.runPath, report),
    };
    return { snapshot, commit, result, report, transitionId };
}
/** Makes the attempt's commit: done when GitHub answered it, else remembered as pending for the next read. */
async function commitAttempt(run, decided, attempt) {
    const { snapshot, commit, result, report, transitionId } = decided;
    const outcome = await run.store.commit(commit);
    if (outcome.kind === 'committed') {
        return {
            kind: 'done',
            value: {
                ...(outcome.serverTime === null
                    ? {}
                    : { held: headAfter(snapshot, commit, outcome.oid, outcome.serverTime, result, report) }),
                ...outcomeOf(run, decided, attempt, {
                    committed: true,
                    commitOid: outcome.oid,
                    serverTime: outcome.serverTime ?? snapshot.serverTime,
                }),
            },
        };
    }
    // STALE_DATA may be our own earlier attempt landing (the client retries this CAS write); an
    // unknown outcome may have landed too. Either way the next read looks for this attempt's
    // transition ID before re-evaluating.
    run.pending.push({
        transitionId,
        base: snapshot.headOid,
        additions: commit.additions,
        commit,
        result,
        report,
    });
    run.context.logger.debug(`ledger: ${result.transition} ${run.spec.runId} attempt ${attempt} ${outcome.kind === 'stale' ? 'met a stale head' : `has an unknown outcome (${outcome.reason})`}`);
    return { kind: 'again' };
}
/** The outcome of a decided commit: made (`commitOid`), or planned in a dry run. */
function outcomeOf(run, decided, attempt, made) {
    return {
        result: decided.result,
        dryRun: !made.committed,
        committed: made.committed,
        commitOid: made.commitOid ?? null,
        commit: decided.commit,
        attempts: attempt,
        recoveredLostResponse: false,
        requests: run.count(),
        provenance: decided.report,
        serverTime: made.serverTime,
    };
}
/** The read a transition attempt starts from: its files with the head and its parent, and history. */
function transitionRead(paths, historyFirst = 2, withRules = false) {
    return { paths, historyFirst, withParent: true, ...(withRules ? { withRules } : {}) };
}
/** The paths a transition of this run reads. */
function transitionPaths(runRepository, runId) {
    return [_paths_js__WEBPACK_IMPORTED_MODULE_4__/* .LEDGER_ROOT_PATH */ .$r, _paths_js__WEBPACK_IMPORTED_MODULE_4__/* .LEASE_PATH */ .B0, (0,_paths_js__WEBPACK_IMPORTED_MODULE_4__/* .runFilePath */ .N3)(runRepository, runId), _paths_js__WEBPACK_IMPORTED_MODULE_4__/* .PROVENANCE_PATH */ .U7];
}
/** `from` when it holds every path this transition reads (the same run), else null. */
function usableHead(from, paths) {
    if (from === undefined)
        return null;
    return paths.every((path) => from.files.has(path)) ? from : null;
}
function heldSnapshot(held) {
    return {
        headOid: held.headOid,
        serverTime: held.serverTime,
        files: held.files,
        history: { commits: [], hasNextPage: true, endCursor: null },
    };
}
/** The provenance of a held head: the state this process proved through it (no ruleset read). */
function heldReport(held) {
    const { state } = held;
    return {
        headOid: held.headOid,
        rootOid: state.rootOid,
        rootCommittedAt: state.rootCommittedAt,
        commitsChecked: 0,
        totalCommits: state.commits,
        requests: 0,
        usedCheckpoint: true,
        rulesetIds: [],
        consumedRunIds: state.consumedRunIds,
        consumedCommentIds: state.consumedCommentIds,
        state,
    };
}
/** The ledger as `commit` (evaluated on `snapshot`, proven by `report`) left it, committed as `oid`. */
function headAfter(snapshot, commit, oid, serverTime, result, report) {
    const files = new Map(snapshot.files);
    for (const addition of commit.additions)
        files.set(addition.path, addition.contents);
    return { headOid: oid, serverTime, files, state: (0,_replay_js__WEBPACK_IMPORTED_MODULE_7__/* .stateThroughOwnCommit */ .qy)(report.state, result, oid) };
}
function recovered(landed, snapshot, attempts, requests) {
    return {
        result: landed.attempt.result,
        dryRun: false,
        committed: true,
        commitOid: landed.oid,
        commit: landed.attempt.commit,
        attempts,
        recoveredLostResponse: true,
        requests,
        provenance: landed.attempt.report,
        serverTime: snapshot.serverTime,
    };
}


/***/ }),

/***/ 7388:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  ro: () => (/* binding */ createLedgerContext),
  QE: () => (/* binding */ proposeRun),
  cI: () => (/* binding */ readRun),
  Rj: () => (/* binding */ recordStatusComment)
});

// UNUSED EXPORTS: cancelRun, checkpointStep, checkpointSteps, claimStep, claimSteps, completeRun, consumeApproval, readBeforeConsume, readVerifiedRun, readVerifiedRuns, reconcileStep, recordArtifactPublish, releaseLease, takeoverRun

// EXTERNAL MODULE: ./packages/core/src/errors.ts
var errors = __webpack_require__(7638);
// EXTERNAL MODULE: ./packages/core/src/github/cas-loop.ts
var cas_loop = __webpack_require__(2755);
// EXTERNAL MODULE: ./packages/core/src/plan/run-id.ts
var run_id = __webpack_require__(720);
// EXTERNAL MODULE: ./packages/core/src/redact.ts
var redact = __webpack_require__(796);
;// CONCATENATED MODULE: ./packages/core/src/seeded-random.ts
/**
 * mulberry32, a small seeded PRNG: the ledger's retry jitter and the emulator's fault draws replay
 * identically for a given seed. Not for anything secret.
 */
function seededRandom(seed) {
    let state = seed >>> 0;
    return () => {
        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

// EXTERNAL MODULE: ./packages/core/src/ledger/cas.ts
var cas = __webpack_require__(7070);
// EXTERNAL MODULE: ./packages/core/src/ledger/paths.ts
var paths = __webpack_require__(7111);
// EXTERNAL MODULE: ./packages/core/src/ledger/schemas.ts + 4 modules
var schemas = __webpack_require__(3310);
// EXTERNAL MODULE: ./packages/core/src/ledger/provenance.ts + 1 modules
var provenance = __webpack_require__(9174);
;// CONCATENATED MODULE: ./packages/core/src/command/comment.ts
/**
 * A command comment as GitHub holds it now: read server-side by ID (REST, never from a payload) with
 * GitHub's own record of its edits (GraphQL `IssueComment.lastEditedAt`, `includesCreatedEdit` and
 * `userContentEdits`). "Unedited" is that record, not a timestamp comparison: REST `updated_at` has
 * one-second resolution, so a comment edited within the second it was posted has `updated_at ===
 * created_at`. Every reader of a command comment asks here: the live verification every command passes
 * (approval/verify.ts: approve, cancel, reconcile, recovery's lost-approval scan) and the ledger's
 * replay (ledger/read.ts).
 *
 * Fail safe: the comment counts as unedited only when GitHub's answer says so positively — the node is
 * this comment, `lastEditedAt` is null, `includesCreatedEdit` is false, and `userContentEdits` is
 * present with a total of 0 — and REST's two timestamps agree. A missing or unknown record (a null node,
 * another type or ID, a null connection, an unexpected shape) counts as edited. A request that fails
 * (a transport failure, an HTTP error, GraphQL errors) is `github-request-failed`: nothing is judged,
 * the comment is never accepted on it.
 *
 * Imports nothing from approval/ or ledger/, so both can use it.
 */

/** The GraphQL document: the comment by its node ID, with the fields of GitHub's edit record. */
const COMMENT_EDITS_QUERY = `query WritCommentEdits($id: ID!) {
  node(id: $id) {
    __typename
    ... on IssueComment {
      databaseId
      lastEditedAt
      includesCreatedEdit
      userContentEdits(first: 1) {
        totalCount
      }
    }
  }
}`;
function failed(what, error) {
    const status = (0,errors/* httpStatus */.nG)(error);
    return new errors/* WritError */.b9('github-request-failed', `${what} failed${status === undefined ? '' : ` with HTTP ${status}`}; the comment was not judged, retry the job`, { cause: error, ...(status === undefined ? {} : { details: { status } }) });
}
function record(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? value
        : null;
}
/** Judges a GraphQL `data` answer for comment `commentId` (exported for its tests). */
function judgeEditRecord(data, commentId) {
    const node = record(record(data)?.node);
    const edited = (why) => ({ edited: true, why: `comment ${commentId} ${why}` });
    if (node === null)
        return edited('has no edit record on GitHub (no comment node): treated as edited');
    if (node.__typename !== 'IssueComment' || node.databaseId !== commentId) {
        return edited('has no edit record on GitHub (the node is not this comment): treated as edited');
    }
    if (node.lastEditedAt !== null) {
        return edited(typeof node.lastEditedAt === 'string'
            ? 'was edited after it was created (GitHub records an edit)'
            : 'has an unreadable edit record on GitHub: treated as edited');
    }
    if (node.includesCreatedEdit !== false) {
        return edited(node.includesCreatedEdit === true
            ? 'was edited after it was created (GitHub records its created revision)'
            : 'has an unreadable edit record on GitHub: treated as edited');
    }
    const total = record(node.userContentEdits)?.totalCount;
    if (total !== 0) {
        return edited(typeof total === 'number' && Number.isSafeInteger(total) && total > 0
            ? `was edited after it was created (GitHub records ${total} revisions)`
            : 'has no readable list of edits on GitHub: treated as edited');
    }
    return { edited: false };
}
/** GitHub's edit record of `comment`, judged. Throws `github-request-failed` when it cannot be read. */
async function readEditRecord(github, comment) {
    const what = `Reading the edit record of comment ${comment.id}`;
    if (typeof comment.node_id !== 'string' || comment.node_id.length === 0) {
        return {
            edited: true,
            why: `comment ${comment.id} has no node ID to read its edit record: treated as edited`,
        };
    }
    let answer;
    try {
        const response = await github.request('POST /graphql', {
            query: COMMENT_EDITS_QUERY,
            variables: { id: comment.node_id },
        });
        answer = response.data;
    }
    catch (error) {
        throw failed(what, error);
    }
    const errors = record(answer)?.errors;
    if (Array.isArray(errors) && errors.length > 0) {
        const types = errors.map((error) => {
            const type = record(error)?.type;
            return typeof type === 'string' && /^[A-Z_]{1,40}$/.test(type) ? type : 'error';
        });
        throw failed(`${what} (GraphQL errors: ${types.join(', ')})`, undefined);
    }
    const verdict = judgeEditRecord(record(answer)?.data, comment.id);
    if (!verdict.edited && comment.updated_at !== comment.created_at) {
        return { edited: true, why: `comment ${comment.id} was edited after it was created (updated_at)` };
    }
    return verdict;
}
/**
 * Reads comment `commentId` by ID with GitHub's edit record; null when GitHub answers 404 (deleted, or
 * not in this repository). Any other failure is `github-request-failed`.
 */
async function readCommentWithEdits(github, repository, commentId) {
    let comment;
    try {
        ({ data: comment } = await github.rest.issues.getComment({
            owner: repository.owner,
            repo: repository.repo,
            comment_id: commentId,
        }));
    }
    catch (error) {
        if ((0,errors/* httpStatus */.nG)(error) === 404)
            return null;
        throw failed(`Reading comment ${commentId}`, error);
    }
    return { comment, edits: await readEditRecord(github, comment) };
}

// EXTERNAL MODULE: ./packages/core/src/github/commit-on-branch.ts
var commit_on_branch = __webpack_require__(149);
;// CONCATENATED MODULE: ./packages/core/src/ledger/read.ts
/**
 * The GitHub side of the ledger: the ONE GraphQL read (head OID + the files a transition needs + the
 * newest page of history, with the server's `Date`), history paging, createCommitOnBranch with
 * expectedHeadOid, the ruleset reads and the bootstrap's Git data calls. Field names follow GitHub's
 * published GraphQL schema.
 */



const COMMIT_FIELDS = `oid
            parents(first: 2) { totalCount nodes { oid } }
            author { name email user { login } }
            committer { name email date user { login } }
            signature { isValid state wasSignedByGitHub signer { login } }
            message`;
const BLOB_TEXT = '{ object { ... on Blob { text } } }';
function serverTimeOf(headers) {
    const header = headers.date;
    const time = typeof header === 'string' ? Date.parse(header) : Number.NaN;
    if (!Number.isFinite(time)) {
        throw new errors/* WritError */.b9('github-request-failed', 'GitHub answered without a usable Date header.');
    }
    return time;
}
function requestFailed(what, error) {
    const status = (0,errors/* httpStatus */.nG)(error);
    return new errors/* WritError */.b9('github-request-failed', `${what} failed${status === undefined ? '' : ` with HTTP ${status}`}.`, status === undefined ? { cause: error } : { cause: error, details: { status } });
}
function read_record(value) {
    return typeof value === 'object' && value !== null ? value : {};
}
function stringOrNull(value) {
    return typeof value === 'string' ? value : null;
}
function timeOrNull(value) {
    const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
    return Number.isFinite(time) ? time : null;
}
function blobText(entry) {
    const object = read_record(read_record(entry).object);
    return typeof object.text === 'string' ? object.text : null;
}
function parseCommit(node) {
    const n = read_record(node);
    const author = read_record(n.author);
    const committer = read_record(n.committer);
    const signature = n.signature === null || n.signature === undefined ? null : read_record(n.signature);
    return {
        oid: String(n.oid),
        parentCount: Number(read_record(n.parents).totalCount),
        parentOid: (() => {
            const nodes = read_record(n.parents).nodes;
            const first = Array.isArray(nodes) && nodes.length > 0 ? read_record(nodes[0]).oid : null;
            return typeof first === 'string' ? first : null;
        })(),
        authorName: stringOrNull(author.name),
        authorEmail: stringOrNull(author.email),
        authorLogin: stringOrNull(read_record(author.user).login),
        committerName: stringOrNull(committer.name),
        committerEmail: stringOrNull(committer.email),
        committedAt: timeOrNull(committer.date),
        signature: signature === null
            ? null
            : {
                isValid: signature.isValid === true,
                state: String(signature.state),
                wasSignedByGitHub: signature.wasSignedByGitHub === true,
                signerLogin: stringOrNull(read_record(signature.signer).login),
            },
        message: typeof n.message === 'string' ? n.message : '',
    };
}
function parseHistory(history) {
    const h = read_record(history);
    const pageInfo = read_record(h.pageInfo);
    const nodes = Array.isArray(h.nodes) ? h.nodes : [];
    return {
        commits: nodes.map(parseCommit),
        hasNextPage: pageInfo.hasNextPage === true,
        endCursor: stringOrNull(pageInfo.endCursor),
    };
}
function fileAliases(paths) {
    return paths.map((path, index) => `f${index}: file(path: ${JSON.stringify(path)}) ${BLOB_TEXT}`).join('\n');
}
function collectFiles(target, paths) {
    const files = new Map();
    paths.forEach((path, index) => files.set(path, blobText(target[`f${index}`])));
    return files;
}
/** A commit's changed-file count and its first parent's copies of `paths` (for replay). */
function parentFields(paths) {
    return `changedFilesIfAvailable
          parents(first: 1) { nodes { oid committedDate ${fileAliases(paths)} } }`;
}
function commitFiles(target, paths) {
    const nodes = read_record(target.parents).nodes;
    const parent = Array.isArray(nodes) && nodes.length > 0 ? read_record(nodes[0]) : null;
    const changed = target.changedFilesIfAvailable;
    return {
        oid: String(target.oid),
        parentOid: parent === null ? null : String(parent.oid),
        parentCommittedAt: parent === null ? null : timeOrNull(parent.committedDate),
        changedFiles: typeof changed === 'number' ? changed : null,
        files: collectFiles(target, paths),
        parentFiles: parent === null ? new Map(paths.map((path) => [path, null])) : collectFiles(parent, paths),
    };
}
const OID = /^[0-9a-f]{40}$/;
/** The GraphQL document of the one read (exported for the request-count report and tests). */
function readQuery(request) {
    const history = request.historyFirst > 0
        ? `history(first: ${Math.min(100, Math.floor(request.historyFirst))}) {
            pageInfo { hasNextPage endCursor }
            nodes { ${COMMIT_FIELDS} }
          }`
        : '';
    const parent = request.withParent === true ? parentFields(request.paths) : '';
    const runs = request.listRuns
        ? `runs: file(path: "runs") { object { ... on Tree { entries { name object { ... on Tree { entries { name object { ... on Blob { text } } } } } } } } }`
        : '';
    const rules = request.withRules === true
        ? 'rules(first: 100) { pageInfo { hasNextPage } nodes { type repositoryRuleset { databaseId } } }'
        : '';
    return `query WritLedgerRead($owner: String!, $name: String!, $qualifiedName: String!) {
  repository(owner: $owner, name: $name) {
    ref(qualifiedName: $qualifiedName) {
      ${rules}
      target {
        ... on Commit {
          oid
          ${fileAliases(request.paths)}
          ${parent}
          ${history}
          ${runs}
        }
      }
    }
    ${request.alongside ?? ''}
  }
}`;
}
const HISTORY_QUERY = `query WritLedgerHistory($owner: String!, $name: String!, $oid: GitObjectID!, $first: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    object(oid: $oid) {
      ... on Commit {
        history(first: $first, after: $after) {
          pageInfo { hasNextPage endCursor }
          nodes { ${COMMIT_FIELDS} }
        }
      }
    }
  }
}`;
/**
 * The branch's rules from `Ref.rules`, or null unless the answer is complete and exact: one page, and
 * every rule with its type and its ruleset's numeric ID. Types come as GraphQL's RepositoryRuleType
 * (`NON_FAST_FORWARD`), the REST names lower-cased; the source type is not in the GraphQL answer and
 * is not part of the check.
 */
function parseRules(connection) {
    const c = read_record(connection);
    if (connection === null || connection === undefined || read_record(c.pageInfo).hasNextPage !== false)
        return null;
    if (!Array.isArray(c.nodes))
        return null;
    const rules = [];
    for (const node of c.nodes) {
        const n = read_record(node);
        const id = read_record(n.repositoryRuleset).databaseId;
        if (typeof n.type !== 'string' || typeof id !== 'number' || !Number.isSafeInteger(id))
            return null;
        rules.push({ type: n.type.toLowerCase(), rulesetId: id, rulesetSourceType: 'unknown' });
    }
    return rules;
}
function listRunFiles(target) {
    const out = new Map();
    const directories = read_record(read_record(target.runs).object).entries;
    if (!Array.isArray(directories))
        return out;
    for (const directory of directories) {
        const d = read_record(directory);
        const entries = read_record(d.object).entries;
        if (!Array.isArray(entries))
            continue;
        for (const entry of entries) {
            const e = read_record(entry);
            const text = blobText(e);
            if (text !== null)
                out.set(`runs/${String(d.name)}/${String(e.name)}`, text);
        }
    }
    return out;
}
/** The ledger store over the real client. Counts its own requests (`requests`) for reports. */
class GitHubLedgerStore {
    github;
    location;
    /** API requests this store has sent (each client-side retry by plugin-retry is not counted here). */
    requests = 0;
    constructor(github, location) {
        this.github = github;
        this.location = location;
    }
    get qualifiedName() {
        return `refs/heads/${this.location.branch}`;
    }
    async graphql(query, variables) {
        this.requests += 1;
        const response = await this.github.request('POST /graphql', { query, variables });
        const body = read_record(response.data);
        return {
            data: body.data ?? null,
            errors: Array.isArray(body.errors) ? body.errors : [],
            serverTime: serverTimeOf(response.headers),
        };
    }
    async query(what, query, variables, 
    /** Errors under these field paths leave them null (their caller falls back), not failing the read. */
    tolerated = []) {
        let answer;
        try {
            answer = await this.graphql(query, variables);
        }
        catch (error) {
            throw requestFailed(what, error);
        }
        const fatal = answer.errors.filter((error) => !tolerated.some((prefix) => prefix.every((field, index) => String(error.path?.[index]) === field)));
        if (fatal.length < answer.errors.length)
            answer.tolerated = true;
        if (fatal.length > 0) {
            const types = answer.errors.map((error) => error.type ?? 'error').join(', ');
            const repository = `${this.location.owner}/${this.location.repo}`;
            throw new errors/* WritError */.b9('github-request-failed', answer.errors.some((error) => error.type === 'NOT_FOUND')
                ? `${what} returned GraphQL errors (${types}): GitHub found no repository ${repository}, or the token cannot see it (a private repository it cannot read is not found). Check the repository name and the token's repository access.`
                : `${what} returned GraphQL errors (${types}).`, { details: { repository } });
        }
        return answer;
    }
    async read(request) {
        const answer = await this.query('Reading the ledger branch', readQuery(request), { owner: this.location.owner, name: this.location.repo, qualifiedName: this.qualifiedName }, 
        // The rules are an optimisation of the ruleset check: an error there leaves it to the REST list.
        request.withRules === true ? [['repository', 'ref', 'rules']] : []);
        const repository = read_record(read_record(answer.data).repository);
        if (read_record(answer.data).repository === null || read_record(answer.data).repository === undefined) {
            throw new errors/* WritError */.b9('github-request-failed', `Repository ${this.location.owner}/${this.location.repo} was not found or is not accessible.`);
        }
        if (repository.ref === null || repository.ref === undefined)
            return null;
        const target = read_record(read_record(repository.ref).target);
        const snapshot = {
            headOid: String(target.oid),
            serverTime: answer.serverTime,
            files: collectFiles(target, request.paths),
            history: request.historyFirst > 0
                ? parseHistory(target.history)
                : { commits: [], hasNextPage: true, endCursor: null },
        };
        if (request.listRuns)
            snapshot.runFiles = listRunFiles(target);
        if (request.withRules === true) {
            snapshot.rules = answer.tolerated === true ? null : parseRules(read_record(repository.ref).rules);
        }
        if (request.withParent === true)
            snapshot.head = commitFiles(target, request.paths);
        if (request.alongside !== undefined)
            snapshot.alongside = repository;
        return snapshot;
    }
    async readFilesAt(oid, paths) {
        const query = `query WritLedgerFilesAt($owner: String!, $name: String!, $oid: GitObjectID!) {
  repository(owner: $owner, name: $name) {
    object(oid: $oid) { ... on Commit { oid ${fileAliases(paths)} } }
  }
}`;
        const answer = await this.query('Reading ledger files at a commit', query, {
            owner: this.location.owner,
            name: this.location.repo,
            oid,
        });
        return collectFiles(read_record(read_record(read_record(answer.data).repository).object), paths);
    }
    async readCommits(requests) {
        if (requests.length === 0)
            return [];
        const objects = requests.map((request, index) => {
            if (!OID.test(request.oid))
                throw new errors/* WritError */.b9('github-request-failed', 'A ledger commit ID is malformed.');
            return `c${index}: object(oid: "${request.oid}") { ... on Commit { oid ${fileAliases(request.paths)} ${parentFields(request.paths)} } }`;
        });
        const query = `query WritLedgerCommits($owner: String!, $name: String!) {
  repository(owner: $owner, name: $name) {
    ${objects.join('\n    ')}
  }
}`;
        const answer = await this.query('Reading ledger commits to replay', query, {
            owner: this.location.owner,
            name: this.location.repo,
        });
        const repository = read_record(read_record(answer.data).repository);
        return requests.map((request, index) => {
            const target = read_record(repository[`c${index}`]);
            if (typeof target.oid !== 'string') {
                throw new errors/* WritError */.b9('ledger-provenance-unproven', `Ledger commit ${request.oid} could not be read.`);
            }
            return commitFiles(target, request.paths);
        });
    }
    async comment(repository, commentId) {
        const [owner = '', repo = ''] = repository.split('/');
        this.requests += 2;
        const read = await readCommentWithEdits(this.github, { owner, repo }, commentId);
        if (read === null)
            return null;
        return {
            userId: typeof read.comment.user?.id === 'number' ? read.comment.user.id : null,
            body: read.comment.body ?? '',
            htmlUrl: read.comment.html_url,
            edited: read.edits.edited,
        };
    }
    async readHistory(headOid, cursor, first) {
        const answer = await this.query('Reading the ledger history', HISTORY_QUERY, {
            owner: this.location.owner,
            name: this.location.repo,
            oid: headOid,
            first: Math.min(100, Math.max(1, Math.floor(first))),
            after: cursor,
        });
        return parseHistory(read_record(read_record(read_record(answer.data).repository).object).history);
    }
    async commit(request) {
        this.requests += 1;
        return (0,commit_on_branch/* commitOnBranch */.$h)(this.github, {
            repository: `${this.location.owner}/${this.location.repo}`,
            branch: this.location.branch,
            expectedHeadOid: request.expectedHeadOid,
            headline: request.headline,
            body: request.body,
            additions: request.additions,
        }, 'ledger');
    }
    async branchRules() {
        const rules = [];
        try {
            for (let page = 1; page <= 10; page += 1) {
                this.requests += 1;
                const response = await this.github.request('GET /repos/{owner}/{repo}/rules/branches/{branch}', {
                    owner: this.location.owner,
                    repo: this.location.repo,
                    branch: this.location.branch,
                    per_page: 100,
                    page,
                });
                for (const rule of response.data) {
                    rules.push({
                        type: rule.type,
                        rulesetId: rule.ruleset_id ?? 0,
                        rulesetSourceType: rule.ruleset_source_type ?? 'unknown',
                    });
                }
                if (response.data.length < 100)
                    break;
            }
        }
        catch (error) {
            throw requestFailed('Reading the rules on the ledger branch', error);
        }
        return rules;
    }
    async ruleset(id) {
        try {
            this.requests += 1;
            const response = await this.github.request('GET /repos/{owner}/{repo}/rulesets/{ruleset_id}', {
                owner: this.location.owner,
                repo: this.location.repo,
                ruleset_id: id,
            });
            const data = response.data;
            return {
                id: data.id,
                enforcement: data.enforcement,
                updatedAt: timeOrNull(data.updated_at),
                bypassActors: data.bypass_actors === undefined
                    ? null
                    : data.bypass_actors.map((actor) => ({
                        actorId: actor.actor_id ?? null,
                        actorType: actor.actor_type,
                        bypassMode: actor.bypass_mode ?? 'always',
                    })),
                content: {
                    target: data.target ?? null,
                    source_type: data.source_type ?? null,
                    source: data.source,
                    enforcement: data.enforcement,
                    conditions: data.conditions ?? null,
                    rules: data.rules ?? null,
                    bypass_actors: data.bypass_actors ?? null,
                },
            };
        }
        catch (error) {
            throw requestFailed(`Reading ruleset ${id}`, error);
        }
    }
    async createRoot(files, message) {
        const { owner, repo, branch } = this.location;
        try {
            this.requests += 1;
            await this.github.request('GET /repos/{owner}/{repo}/git/ref/{ref}', {
                owner,
                repo,
                ref: `heads/${branch}`,
            });
            throw new errors/* WritError */.b9('ledger-branch-exists', `Branch ${branch} already exists in ${owner}/${repo}.`);
        }
        catch (error) {
            if (error instanceof errors/* WritError */.b9)
                throw error;
            if ((0,errors/* httpStatus */.nG)(error) !== 404)
                throw requestFailed(`Reading ref heads/${branch}`, error);
        }
        try {
            this.requests += 3;
            const tree = await this.github.request('POST /repos/{owner}/{repo}/git/trees', {
                owner,
                repo,
                tree: files.map((file) => ({
                    path: file.path,
                    mode: '100644',
                    type: 'blob',
                    content: file.contents,
                })),
            });
            // No parents (a root commit) and no author/committer/signature, so GitHub signs it as the app.
            const commit = await this.github.request('POST /repos/{owner}/{repo}/git/commits', {
                owner,
                repo,
                message,
                tree: tree.data.sha,
                parents: [],
            });
            try {
                await this.github.request('POST /repos/{owner}/{repo}/git/refs', {
                    owner,
                    repo,
                    ref: `refs/heads/${branch}`,
                    sha: commit.data.sha,
                });
            }
            catch (error) {
                if ((0,errors/* httpStatus */.nG)(error) === 422) {
                    throw new errors/* WritError */.b9('ledger-branch-exists', `Branch ${branch} was created concurrently in ${owner}/${repo}.`);
                }
                throw error;
            }
            return { oid: commit.data.sha, verified: commit.data.verification.verified };
        }
        catch (error) {
            if (error instanceof errors/* WritError */.b9)
                throw error;
            throw requestFailed('Creating the ledger root commit', error);
        }
    }
}
function githubLedgerStore(github, location) {
    return new GitHubLedgerStore(github, location);
}

// EXTERNAL MODULE: ./packages/core/src/ledger/transitions.ts
var ledger_transitions = __webpack_require__(3927);
// EXTERNAL MODULE: ./packages/core/src/ledger/liveness.ts
var liveness = __webpack_require__(8162);
// EXTERNAL MODULE: ./packages/core/src/ledger/types.ts
var types = __webpack_require__(7253);
;// CONCATENATED MODULE: ./packages/core/src/ledger/ledger.ts
/**
 * The ledger's public functions. Each builds one transition spec and runs it through the
 * compare-and-set loop; every one can be dry-run (`{ dryRun: true }`), returning the commit it would make.
 *
 *   const ledger = createLedgerContext({ github, clock, logger }, { repository, branch, app });
 *   await consumeApproval(ledger, { runId, approval, plan, holder });
 */














function isStore(github) {
    return !('request' in github);
}
function createLedgerContext(deps, config) {
    const location = (0,paths/* ledgerLocation */.ju)(config.repository, config.branch ?? types/* DEFAULT_LEDGER_BRANCH */.V);
    const policy = { ...ledger_transitions/* DEFAULT_LEASE_POLICY */.Gz, ...config.policy };
    if (!(policy.leaseMs > 0) || !(policy.graceMs >= 0)) {
        throw new errors/* WritError */.b9('invalid-input', 'The lease length must be positive and the grace period non-negative.');
    }
    const maxAttempts = config.maxAttempts ?? cas_loop/* CAS_MAX_ATTEMPTS */.y9;
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 100) {
        throw new errors/* WritError */.b9('invalid-input', `Invalid maxAttempts ${maxAttempts}. Expected an integer 1-100.`);
    }
    return {
        store: isStore(deps.github) ? deps.github : githubLedgerStore(deps.github, location),
        app: config.app ?? null,
        policy,
        clock: deps.clock ?? cas/* systemClock */.ml,
        logger: deps.logger ?? redact/* silentLogger */.qq,
        random: deps.random ?? seededRandom(config.seed ?? Math.floor(Math.random() * 2 ** 32)),
        maxAttempts,
        backoffBaseMs: config.backoffBaseMs ?? 25,
        backoffCapMs: config.backoffCapMs ?? 1000,
        liveness: deps.liveness ??
            (isStore(deps.github)
                ? liveness/* unprovenLiveness */.RX
                : (0,liveness/* actionsLiveness */.JY)(deps.github, { owner: location.owner, repo: location.repo })),
    };
}
function runRepositoryOf(context, repository) {
    if (repository !== undefined) {
        (0,paths/* parseRepository */.SU)(repository, 'run repository');
        return repository;
    }
    return `${context.store.location.owner}/${context.store.location.repo}`;
}
/** One transition of one run: validates the run ID, then runs `evaluate` through the compare-and-set loop. */
function transitionOf(context, input, provenance, evaluate, options) {
    (0,run_id/* validateRunId */.NQ)(input.runId);
    return (0,cas/* runTransition */.ZC)(context, { runRepository: runRepositoryOf(context, input.repository), runId: input.runId, provenance, evaluate }, options);
}
/** `evaluate` without a status record, then (when `fold` gives one for its run) with it. */
function withFold(evaluate, fold) {
    const plain = evaluate(null);
    const statusComment = fold === undefined || plain.run === null ? null : fold(plain.run);
    return statusComment === null ? plain : evaluate(statusComment);
}
/**
 * `propose`: a new run file with approval null; `run-exists` if the run ID was ever proposed. With
 * `statusFold`, the status comment's first reservation is made in the same commit.
 */
function proposeRun(context, input, options = {}) {
    (0,run_id/* validateRunId */.NQ)(input.runId);
    const repository = runRepositoryOf(context, input.repository);
    const { statusFold, ...propose } = input;
    return (0,cas/* runTransition */.ZC)(context, {
        runRepository: repository,
        runId: input.runId,
        provenance: false,
        evaluate: (view) => withFold((statusComment) => ledger_transitions/* propose */.BM(view, { ...propose, repository, statusComment }), statusFold),
    }, options);
}
/**
 * `consume`: after proving provenance (tombstones from the full history), records the approval and takes
 * the repository lease at epoch + 1 in one compare-and-set commit. Refuses `approval-already-consumed`,
 * `stale-or-mismatched-approval`, `repository-lease-held`, `ledger-provenance-unproven`.
 */
function consumeApproval(context, input, options = {}) {
    // A lease whose holder's time ran out is taken only from a holder proven gone (an expired lease is not
    // a finished job): the same rule and read as a takeover's.
    const displaced = (view) => leaseIsLive(view.lease, view.serverTime, context.policy) ? [] : [view.lease.holder];
    return displacingTransition(context, input, `run ${input.runId}'s approval is not consumed`, displaced, (view) => withFold((statusComment) => transitions.consume(view, { ...input, statusComment }, context.policy), input.statusFold), options);
}
/**
 * The first read of a consume, made before the approver's live role is read. A run whose approval is
 * already consumed (its run file, or the tombstones of the head's own checkpoint) is refused
 * `approval-already-consumed` from this read alone: a refusal writes nothing and grants nothing, so it
 * needs no proof of the ledger. Anything else (no branch, a file that does not parse, no such run) is
 * left to the consume itself; the read is returned for its first attempt, which proves it (history and
 * rulesets) before judging anything it allows.
 */
async function readBeforeConsume(context, input) {
    validateRunId(input.runId);
    const runRepository = runRepositoryOf(context, input.repository);
    const snapshot = await context.store.read(transitionRead(transitionPaths(runRepository, input.runId), 2, true));
    if (snapshot === null)
        return undefined;
    let parsed;
    try {
        parsed = parseSnapshot(context.store, snapshot, runFilePath(runRepository, input.runId));
    }
    catch {
        return snapshot;
    }
    if (parsed.run !== null) {
        const checkpoint = parsed.checkpoint;
        transitions.refuseConsumed({
            serverTime: snapshot.serverTime,
            lease: parsed.lease,
            run: parsed.run,
            tombstones: {
                runIds: new Set(checkpoint?.consumed_run_ids ?? []),
                commentIds: new Set(checkpoint?.consumed_comment_ids ?? []),
            },
        }, parsed.run, input.commentId);
    }
    return snapshot;
}
function claimStep(context, input, options = {}) {
    return transitionOf(context, input, false, (view) => transitions.claim(view, input, context.policy), options);
}
function checkpointStep(context, input, options = {}) {
    return transitionOf(context, input, false, (view) => transitions.checkpoint(view, input, context.policy), options);
}
/** `claim-steps`: several consecutive steps claimed at the holder's epoch in one commit (persist). */
function claimSteps(context, input, options = {}) {
    return transitionOf(context, input, false, (view) => transitions.claimSteps(view, input, context.policy), options);
}
/** `checkpoint-steps`: several claimed steps checkpointed, and optionally the run finished, in one commit. */
function checkpointSteps(context, input, options = {}) {
    return transitionOf(context, input, false, (view) => transitions.checkpointSteps(view, input, context.policy), options);
}
/**
 * `takeover`: epoch + 1 after the lease's expiry plus grace on the server clock; claimed →
 * needs-reconciliation. It moves the lease (and the run) only away from holders that are gone: the
 * lease's holder and the run's owner are proven gone first (displacingTransition).
 */
function takeoverRun(context, input, options = {}) {
    // The transition's own refusals (state, unexpired lease) come first, as they always did: holders are
    // read only for a takeover that would be made.
    // An owner that released the lease at its own epoch (a handover) is fenced already: it displaces no one.
    const displaced = (view) => wouldTakeOver(view, input, context.policy)
        ? [
            view.lease.holder,
            transitions.releasedByOwner(view.lease, view.run) ? null : view.run?.owner?.holder,
        ]
        : [];
    return displacingTransition(context, input, `run ${input.runId} is not taken over`, displaced, (view) => transitions.takeover(view, input, context.policy), options);
}
/**
 * A transition that moves the lease (or a run) away from other holders: `displaced` names them on a
 * view. They are read on the Actions API (`context.liveness`, ledger/liveness.ts) before the commit,
 * and the commit is evaluated only if the head it lands on displaces no holder other than those proven
 * gone (or the taker itself). A live attempt is `repository-lease-held` whatever the lease's expiry; one
 * Writ cannot read is `holder-liveness-unproven`. The one path for `takeover` and for a `consume` that
 * finds an expired lease.
 */
async function displacingTransition(context, input, consequence, displaced, evaluate, options) {
    validateRunId(input.runId);
    const repository = runRepositoryOf(context, input.repository);
    const paths = transitionPaths(repository, input.runId);
    const first = options.first ?? (await context.store.read(transitionRead(paths, 2, true))) ?? undefined;
    let gone = [];
    const view = first === undefined ? null : unprovenView(context, first, repository, input.runId);
    // An unproven read names only whom to read: a head that does not parse reads no one, and the
    // transition below refuses it with the proven read's own code (a holder left unread keeps the lease).
    if (view !== null) {
        gone = await requireHoldersGone(context.liveness, displaced(view), input.holder, consequence);
    }
    return transitionOf(context, input, true, (view) => {
        const result = evaluate(view);
        const unread = displaced(view).find((holder) => !provenGone(holder, input.holder, gone));
        if (unread !== undefined && unread !== null) {
            // The lease or the run moved to another holder since its liveness was read: read again later.
            throw transitions.leaseHeld(view.lease, `${consequence}: its holder changed since it was read`);
        }
        return result;
    }, first === undefined ? options : { ...options, first });
}
function unprovenView(context, snapshot, repository, runId) {
    try {
        const parsed = parseSnapshot(context.store, snapshot, runFilePath(repository, runId));
        return { serverTime: snapshot.serverTime, lease: parsed.lease, run: parsed.run };
    }
    catch {
        return null;
    }
}
function wouldTakeOver(view, input, policy) {
    try {
        transitions.takeover(view, input, policy);
        return true;
    }
    catch {
        return false;
    }
}
function releaseLease(context, input, options = {}) {
    return transitionOf(context, input, false, (view) => transitions.release(view, input), options);
}
function completeRun(context, input, options = {}) {
    return transitionOf(context, input, false, (view) => transitions.complete(view, input), options);
}
function reconcileStep(context, input, options = {}) {
    return transitionOf(context, input, true, (view) => transitions.reconcile(view, input), options);
}
/** `cancel`: a repository writer's one-time cancel command; a cancelled run makes no further write. */
function cancelRun(context, input, options = {}) {
    return transitionOf(context, input, true, (view) => transitions.cancel(view, input), options);
}
/** `status`: records the run's status comment reservation or result (see status-comment/). */
function recordStatusComment(context, input, options = {}) {
    return transitionOf(context, input, false, (view) => ledger_transitions/* recordStatus */.Ms(view, input), options);
}
/** `artifact`: records a published artifact (commit and PR) on an approved run. */
function recordArtifactPublish(context, input, options = {}) {
    return transitionOf(context, input, false, (view) => transitions.recordArtifact(view, input), options);
}
/**
 * One read of a run file and the lease at the ledger head, with the history up to that head proven
 * (replay above the checkpoint, and the two rulesets): what a gate reads before any write it allows.
 */
async function readVerifiedRun(context, runId, repository, options = {}) {
    validateRunId(runId);
    if (context.app === null) {
        throw new WritError('invalid-input', 'The ledger app identity (slug and app ID) is required to prove the ledger.');
    }
    const runPath = runFilePath(runRepositoryOf(context, repository), runId);
    const snapshot = await context.store.read({
        paths: [LEDGER_ROOT_PATH, LEASE_PATH, runPath, PROVENANCE_PATH],
        historyFirst: 2,
        withParent: true,
        withRules: true,
        ...(options.alongside === undefined ? {} : { alongside: options.alongside }),
    });
    if (snapshot === null) {
        throw new WritError('ledger-branch-missing', `The ledger branch ${context.store.location.branch} does not exist.`);
    }
    const provenance = await verifyProvenance(context.store, context.app, snapshot.headOid, {
        mode: 'incremental',
        checkpoint: readCheckpoint(snapshot),
        firstPage: snapshot.history,
        ...(snapshot.head === undefined ? {} : { head: snapshot.head }),
        ...(snapshot.rules === undefined ? {} : { rules: snapshot.rules }),
    });
    const parsed = parseSnapshot(context.store, snapshot, runPath);
    return {
        headOid: snapshot.headOid,
        serverTime: snapshot.serverTime,
        lease: parsed.lease,
        run: parsed.run,
        provenance,
        ...(snapshot.alongside === undefined ? {} : { alongside: snapshot.alongside }),
    };
}
/** One read of a run file and the lease at the ledger head (validated, like every ledger read). */
async function readRun(context, runId, repository) {
    (0,run_id/* validateRunId */.NQ)(runId);
    const runPath = (0,paths/* runFilePath */.N3)(runRepositoryOf(context, repository), runId);
    const snapshot = await context.store.read({
        paths: [paths/* LEDGER_ROOT_PATH */.$r, paths/* LEASE_PATH */.B0, runPath],
        historyFirst: 0,
    });
    if (snapshot === null) {
        throw new errors/* WritError */.b9('ledger-branch-missing', `The ledger branch ${context.store.location.branch} does not exist.`);
    }
    const parsed = (0,cas/* parseSnapshot */.E$)(context.store, snapshot, runPath);
    return { headOid: snapshot.headOid, serverTime: snapshot.serverTime, lease: parsed.lease, run: parsed.run };
}
/**
 * One read of the lease and every run file at the ledger head, with the history up to that head proven
 * (rulesets included): what a recovery sweep scans.
 */
async function readVerifiedRuns(context) {
    if (context.app === null) {
        throw new WritError('invalid-input', 'The ledger app identity (slug and app ID) is required to prove the ledger.');
    }
    const snapshot = await context.store.read({
        paths: [LEDGER_ROOT_PATH, LEASE_PATH, PROVENANCE_PATH],
        historyFirst: 2,
        withParent: true,
        withRules: true,
        listRuns: true,
    });
    if (snapshot === null) {
        throw new WritError('ledger-branch-missing', `The ledger branch ${context.store.location.branch} does not exist.`);
    }
    const provenance = await verifyProvenance(context.store, context.app, snapshot.headOid, {
        mode: 'incremental',
        checkpoint: readCheckpoint(snapshot),
        firstPage: snapshot.history,
        ...(snapshot.head === undefined ? {} : { head: snapshot.head }),
        ...(snapshot.rules === undefined ? {} : { rules: snapshot.rules }),
    });
    const parsed = parseSnapshot(context.store, snapshot, null);
    const runs = [...(snapshot.runFiles ?? new Map())]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([path, text]) => parseLedgerFile(RUN_FILE, path, text));
    return {
        headOid: snapshot.headOid,
        serverTime: snapshot.serverTime,
        lease: parsed.lease,
        runs,
        provenance,
    };
}


/***/ }),

/***/ 8162:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   JY: () => (/* binding */ actionsLiveness),
/* harmony export */   RX: () => (/* binding */ unprovenLiveness)
/* harmony export */ });
/* unused harmony exports holderLiveness, isGone, sameAttempt, holderNotGone, requireHoldersGone, provenGone */
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7638);
/**
 * Whether a lease holder's job may still be running, from the Actions API (the holder's workflow run
 * and attempt, `GET …/actions/runs/{id}/attempts/{n}`, which needs `actions: read`). Only GitHub's
 * definite answers count: a completed attempt is `finished`, a 404 is `missing`, anything GitHub says is
 * not completed (queued, in_progress, waiting, requested, pending, or a status Writ does not know) is
 * `in-progress`. A 403 (no `actions: read`), a 5xx or a dropped connection is `unknown`, and an unknown
 * holder is left alone exactly like a running one.
 *
 * `requireHoldersGone` is the one rule every path that moves the lease passes through (the ledger's
 * `takeoverRun`, which recovery, claim-checkpoint's `takeover` and the CLI all call): a holder is taken
 * over only when it is gone (`finished` or `missing`), whatever the lease's expiry and whichever run the
 * takeover is for.
 *
 * - The holder is the attempt it recorded (`workflow_run_id` + `attempt`). A re-run of the same
 *   workflow run is a newer attempt: GitHub starts one only after every job of the previous attempt has
 *   completed, so the recorded attempt is `finished` and the re-run is exactly the replacement that
 *   takes over (SPEC: "a replacement run or attempt becomes holder at epoch + 1"). A live newer attempt
 *   therefore does not keep the old holder alive.
 * - A 404 is `missing` and counts as gone: GitHub refuses to delete a workflow run that is not
 *   completed, and a run removed by retention ended long before. A token that cannot read Actions gets
 *   a 403 (`liveness-forbidden`), never taken for gone.
 */

async function holderLiveness(github, repository, holder) {
    if (holder.workflow_run_id <= 0)
        return { state: 'missing' };
    try {
        const { data } = await github.rest.actions.getWorkflowRunAttempt({
            ...repository,
            run_id: holder.workflow_run_id,
            attempt_number: holder.attempt,
            exclude_pull_requests: true,
        });
        const status = data.status ?? '';
        if (status === 'completed')
            return { state: 'finished', conclusion: data.conclusion ?? null };
        return { state: 'in-progress', status: status === '' ? 'unknown' : status };
    }
    catch (error) {
        const status = (0,_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .httpStatus */ .nG)(error);
        if (status === 404)
            return { state: 'missing' };
        if (status === 403)
            return { state: 'unknown', reason: 'liveness-forbidden' };
        return { state: 'unknown', reason: 'liveness-unreadable' };
    }
}
/** The Actions API of `repository`, read with `github` (a token with `actions: read`). */
function actionsLiveness(github, repository) {
    return (holder) => holderLiveness(github, repository, holder);
}
/** A ledger without an Actions reader (an in-memory store): no holder is ever proven gone. */
const unprovenLiveness = () => Promise.resolve({ state: 'unknown', reason: 'liveness-unreadable' });
/** Gone: GitHub says the attempt completed, or that it does not exist. Nothing else. */
function isGone(liveness) {
    return liveness.state === 'finished' || liveness.state === 'missing';
}
function sameAttempt(a, b) {
    return a.workflow_run_id === b.workflow_run_id && a.attempt === b.attempt;
}
function describe(holder) {
    return `workflow run ${holder.workflow_run_id} attempt ${holder.attempt}`;
}
/** The refusal for a holder that is not proven gone: `repository-lease-held` or `holder-liveness-unproven`. */
function holderNotGone(holder, liveness, consequence) {
    const details = {
        holder_workflow_run_id: holder.workflow_run_id,
        holder_attempt: holder.attempt,
    };
    if (liveness.state === 'unknown') {
        return new WritError('holder-liveness-unproven', `Writ could not read whether ${describe(holder)} has finished (${liveness.reason}); ${consequence}.`, { details: { ...details, reason: liveness.reason } });
    }
    const status = liveness.state === 'in-progress' ? liveness.status : 'not gone';
    return new WritError('repository-lease-held', `${describe(holder)} holds the lease and is ${status} on GitHub, whatever the lease's expiry; ${consequence}. Wait for that run to complete.`, { details: { ...details, holder_status: status } });
}
/**
 * Reads every holder in `holders` (null and the taker itself skipped; each attempt read once) and
 * throws unless each is gone. Returns the attempts proven gone, for the commit to re-check against the
 * state it is evaluated on.
 */
async function requireHoldersGone(liveness, holders, taker, consequence) {
    const gone = [];
    for (const holder of holders) {
        if (holder === null || holder === undefined || sameAttempt(holder, taker))
            continue;
        if (gone.some((known) => sameAttempt(known, holder)))
            continue;
        const state = await liveness(holder);
        if (!isGone(state))
            throw holderNotGone(holder, state, consequence);
        gone.push({ workflow_run_id: holder.workflow_run_id, attempt: holder.attempt });
    }
    return gone;
}
/** True when `holder` is null, the taker, or among the attempts `requireHoldersGone` proved gone. */
function provenGone(holder, taker, gone) {
    return (holder === null ||
        holder === undefined ||
        sameAttempt(holder, taker) ||
        gone.some((known) => sameAttempt(known, holder)));
}


/***/ }),

/***/ 3512:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   aw: () => (/* binding */ parseTrailers),
/* harmony export */   hw: () => (/* binding */ formatMessage)
/* harmony export */ });
/* unused harmony exports TRANSITIONS, fullMessage */
/* harmony import */ var _plan_run_id_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(720);
/* harmony import */ var _paths_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7111);
/**
 * Ledger commit messages carry structured trailers naming the transition, run, epoch and a transition
 * ID. The provenance scan reads consumed run and comment IDs from them across the whole history, and a
 * writer whose response was lost finds its own commit again by its transition ID.
 */


const TRANSITIONS = [
    'bootstrap',
    'propose',
    'consume',
    'claim',
    'checkpoint',
    'takeover',
    'release',
    'complete',
    'reconcile',
    'status',
    'artifact',
    // persist: several steps claimed, or checkpointed (and the run finished), in one commit.
    'claim-steps',
    'checkpoint-steps',
    'cancel',
    // The recovery sweep's freeze (ledger/freeze.ts): terminal, no transition follows it.
    'freeze',
];
function isRepository(value) {
    try {
        (0,_paths_js__WEBPACK_IMPORTED_MODULE_1__/* .parseRepository */ .SU)(value);
        return true;
    }
    catch {
        return false;
    }
}
function formatMessage(trailers) {
    const run = trailers.runId === null ? '' : ` ${trailers.runId}`;
    const lines = [
        `Writ-Transition: ${trailers.transition}`,
        ...(trailers.runId === null ? [] : [`Writ-Run: ${trailers.runId}`]),
        ...(trailers.repository === null ? [] : [`Writ-Repository: ${trailers.repository}`]),
        `Writ-Epoch: ${trailers.epoch}`,
        ...(trailers.commentId === null ? [] : [`Writ-Comment: ${trailers.commentId}`]),
        `Writ-Transition-Id: ${trailers.transitionId}`,
    ];
    return {
        headline: `writ ledger: ${trailers.transition}${run} (epoch ${trailers.epoch})`,
        body: lines.join('\n'),
    };
}
/** The full commit message as git stores it (headline, blank line, body). */
function fullMessage(message) {
    return `${message.headline}\n\n${message.body}`;
}
/** Parses the trailers of a ledger commit message; null when it is not a well-formed Writ message. */
function parseTrailers(message) {
    const values = new Map();
    for (const line of message.split('\n')) {
        const match = /^(Writ-[A-Za-z-]+): (\S+)$/.exec(line.trimEnd());
        if (match?.[1] !== undefined && match[2] !== undefined) {
            if (values.has(match[1]))
                return null;
            values.set(match[1], match[2]);
        }
    }
    const transition = values.get('Writ-Transition');
    const epoch = Number(values.get('Writ-Epoch'));
    const transitionId = values.get('Writ-Transition-Id');
    const runId = values.get('Writ-Run') ?? null;
    const repository = values.get('Writ-Repository') ?? null;
    const comment = values.get('Writ-Comment');
    if (transition === undefined ||
        !TRANSITIONS.includes(transition) ||
        !Number.isSafeInteger(epoch) ||
        epoch < 0 ||
        transitionId === undefined ||
        (runId !== null && !(0,_plan_run_id_js__WEBPACK_IMPORTED_MODULE_0__/* .isValidRunId */ .LU)(runId)) ||
        (repository !== null && (runId === null || !isRepository(repository))) ||
        (comment !== undefined && !/^[1-9][0-9]{0,15}$/.test(comment))) {
        return null;
    }
    return {
        transition: transition,
        runId,
        repository,
        epoch,
        transitionId,
        commentId: comment === undefined ? null : Number(comment),
    };
}


/***/ }),

/***/ 9174:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  Zz: () => (/* binding */ checkpointFrom),
  Tu: () => (/* binding */ verifyProvenance)
});

// UNUSED EXPORTS: commitProblem

// EXTERNAL MODULE: ./packages/core/src/errors.ts
var errors = __webpack_require__(7638);
// EXTERNAL MODULE: ./packages/core/src/ledger/message.ts
var message = __webpack_require__(3512);
// EXTERNAL MODULE: ./packages/core/src/ledger/replay.ts
var replay = __webpack_require__(5580);
// EXTERNAL MODULE: ./packages/core/src/canonical-json.ts
var canonical_json = __webpack_require__(2962);
;// CONCATENATED MODULE: ./packages/core/src/ledger/rulesets.ts
/**
 * The two rulesets that make the ledger branch append-only even for the Writ app's own token.
 *
 * A bypass actor is exempt from every rule of its ruleset, so the app (which must bypass the update
 * restriction to write at all) must not sit in the ruleset that blocks deletion and non-fast-forward:
 *  - `writ-ledger-append-only`: deletion + non_fast_forward, with NO bypass actors at all;
 *  - `writ-ledger-writers`: update, with the Writ app as its only bypass actor.
 * Both must exist, be active, and be unchanged since the ledger root commit. `ledgerRulesets` is the
 * one definition bootstrap prints, the emulator worlds install and doctor compares against.
 *
 * Pinned at the root: bootstrap records in ledger-root.json each protecting ruleset's ID, `updated_at`
 * and a digest of its content (`rulesetDigest`), and every later check holds the branch to exactly
 * those rulesets. Rules of several rulesets aggregate (a ref change must pass each), and a bypass actor
 * is exempt only from its own ruleset, so a ruleset that is NOT pinned can only add restrictions: it is
 * not read and never refuses the ledger. A pinned ruleset that is gone, no longer applies to the branch
 * (deleted, enforcement `evaluate` or `disabled`, conditions narrowed: GitHub lists only active rules
 * that cover the branch), or whose `updated_at` or content differs (a bypass actor added, a rule
 * removed, anything else) makes the ledger `ledger-provenance-unproven`: the history may have been
 * rewritten while it was relaxed, whatever it says now. The same holds for an organization ruleset
 * (read through the repository endpoint, whose `includes_parents` defaults to true; its `source_type`
 * and `source` are part of the digest).
 */


/** The two rulesets the ledger branch needs, in the REST API's create format. */
function ledgerRulesets(branch, appId) {
    const conditions = { ref_name: { include: [`refs/heads/${branch}`], exclude: [] } };
    return [
        {
            name: 'writ-ledger-append-only',
            target: 'branch',
            enforcement: 'active',
            conditions,
            rules: [{ type: 'deletion' }, { type: 'non_fast_forward' }],
            bypass_actors: [],
        },
        {
            name: 'writ-ledger-writers',
            target: 'branch',
            enforcement: 'active',
            conditions,
            rules: [{ type: 'update' }],
            bypass_actors: [{ actor_id: appId, actor_type: 'Integration', bypass_mode: 'always' }],
        },
    ];
}
function unproven(rule, details = {}) {
    return new errors/* WritError */.b9('ledger-provenance-unproven', rule, { details });
}
/** Which of the three rules a ruleset can stand for, given who may bypass it. */
function standsFor(ruleset, types, app) {
    const actors = ruleset.bypassActors ?? [];
    if (actors.length === 0)
        return ['deletion', 'non_fast_forward', 'update'].filter((t) => types.has(t));
    const onlyApp = actors.every((actor) => actor.actorType === 'Integration' && actor.actorId === app.id);
    return onlyApp && types.has('update') ? ['update'] : [];
}
function sortedBy(values) {
    return [...values].sort((a, b) => {
        const x = (0,canonical_json/* digest */.br)(a);
        const y = (0,canonical_json/* digest */.br)(b);
        return x < y ? -1 : x > y ? 1 : 0;
    });
}
/**
 * The digest of what a ruleset says: its target, source, enforcement, conditions, rules and bypass
 * actors, in canonical JSON with the order-free lists sorted (GitHub may list them in any order).
 * Names, links, node IDs, dates and `current_user_can_bypass` are left out; `updated_at` is pinned apart.
 */
function rulesetDigest(ruleset) {
    const content = ruleset.content ?? {
        enforcement: ruleset.enforcement,
        bypass_actors: (ruleset.bypassActors ?? []).map((actor) => ({
            actor_id: actor.actorId,
            actor_type: actor.actorType,
            bypass_mode: actor.bypassMode,
        })),
    };
    const normal = {};
    for (const [key, value] of Object.entries(content)) {
        if (value === undefined)
            continue;
        normal[key] =
            (key === 'rules' || key === 'bypass_actors') && Array.isArray(value) ? sortedBy(value) : value;
    }
    return (0,canonical_json/* digest */.br)(normal);
}
function pinOf(ruleset) {
    return {
        id: ruleset.id,
        updated_at: ruleset.updatedAt === null ? null : new Date(ruleset.updatedAt).toISOString(),
        digest: rulesetDigest(ruleset),
    };
}
/**
 * Proves the branch's rules: deletion and non_fast_forward each come from an active ruleset with no
 * bypass actor; update from an active ruleset whose only bypass actor is the ledger app; and every
 * ruleset relied on is unchanged since the root commit. Anything short of that fails closed.
 */
async function checkRulesets(store, app, rootCommittedAt, 
/** The branch's rules as the ledger read already returned them (`Ref.rules`), complete; else listed here. */
listed, 
/**
 * The rulesets the ledger root pinned: only these are relied on, and each must still apply to the
 * branch, unchanged. Absent (a root made before pins, or before any root): the rulesets on the
 * branch are judged as they are, and one changed after `rootCommittedAt` is not relied on.
 */
pins) {
    let requests = listed == null ? 1 : 0;
    const rules = listed ?? (await store.branchRules());
    const typesById = ruleTypesByRuleset(rules);
    const relevant = [...typesById]
        .filter(([, types]) => types.has('deletion') || types.has('non_fast_forward') || types.has('update'))
        .sort(([a], [b]) => a - b);
    const covered = new Map();
    const problems = [];
    const used = new Map();
    const pinned = pins == null ? null : new Map(pins.map((pin) => [pin.id, pin]));
    if (pinned !== null)
        refuseUnappliedPins(store, pinned, typesById);
    for (const [id, types] of relevant) {
        // A ruleset the root did not pin only adds restrictions: it is neither read nor relied on.
        if (pinned !== null && !pinned.has(id))
            continue;
        requests += 1;
        const ruleset = await store.ruleset(id);
        refuseUnreadableOrChanged(store, ruleset, pinned?.get(id));
        if (ruleset.enforcement !== 'active')
            continue;
        const stands = standsFor(ruleset, types, app);
        if (stands.length === 0) {
            problems.push(`ruleset ${id} has bypass actors, so its ${[...types].sort().join('/')} rules bind nobody who matters`);
            continue;
        }
        // Without pins, a ruleset created or changed after the root is not relied on (an extra one is
        // harmless; a protecting one changed leaves its rule uncovered below). Compared in whole seconds:
        // git commit dates have no milliseconds.
        if (pinned === null &&
            rootCommittedAt !== null &&
            ruleset.updatedAt !== null &&
            Math.floor(ruleset.updatedAt / 1000) > Math.floor(rootCommittedAt / 1000)) {
            problems.push(`ruleset ${id} was created or changed after the ledger root commit`);
            continue;
        }
        used.set(id, pinOf(ruleset));
        for (const type of stands)
            if (!covered.has(type))
                covered.set(type, id);
    }
    requireCoverage(store, covered, problems);
    const rulesetIds = [...new Set(covered.values())].sort((a, b) => a - b);
    return {
        rulesetIds,
        requests,
        pins: rulesetIds.map((id) => used.get(id)).filter((pin) => pin !== undefined),
    };
}
/** The rule types each ruleset applies to the branch. */
function ruleTypesByRuleset(rules) {
    const typesById = new Map();
    for (const rule of rules) {
        const types = typesById.get(rule.rulesetId) ?? new Set();
        types.add(rule.type);
        typesById.set(rule.rulesetId, types);
    }
    return typesById;
}
/** Every ruleset the root pinned must still apply to the branch. */
function refuseUnappliedPins(store, pinned, typesById) {
    for (const pin of pinned.values()) {
        if (!typesById.has(pin.id)) {
            throw unproven(`Ruleset ${pin.id}, pinned by the ledger root as protecting ${store.location.branch}, no longer applies to it (deleted, set to evaluate or disabled, or its conditions no longer cover the branch); the owner must re-provision the ledger (writ bootstrap on a new branch).`, { ruleset: pin.id });
        }
    }
}
/** A ruleset this token cannot see the bypass actors of, or (pinned) one changed since the root, fails closed. */
function refuseUnreadableOrChanged(store, ruleset, pin) {
    const { id } = ruleset;
    // Before the pin comparison too: a pin's digest covers the bypass actors, so a token that cannot
    // see them would find every pinned ruleset "changed" and send the owner to re-provision for nothing.
    if (ruleset.bypassActors === null && (pin !== undefined || ruleset.enforcement === 'active')) {
        // GitHub returns bypass_actors only to a caller with write access to the ruleset (OpenAPI
        // `repository-ruleset`; github-api-facts.md §5): administration read is not enough.
        throw new errors/* WritError */.b9('ruleset-bypass-unreadable', `Ruleset ${id} applies to ${store.location.branch}, but its bypass actors are not visible to this token (GitHub shows bypass_actors only to a token that can write rulesets), so the ledger branch cannot be proven append-only: grant the Writ app administration read and write, then run it again (the rulesets exist; do not recreate them).`, { details: { ruleset: id } });
    }
    if (pin === undefined)
        return;
    const now = pinOf(ruleset);
    if (now.digest !== pin.digest || now.updated_at !== pin.updated_at) {
        throw unproven(`Ruleset ${id}, pinned by the ledger root, changed since the root commit (${now.digest !== pin.digest ? 'its content differs' : 'its updated_at moved'}); the owner must re-provision the ledger (writ bootstrap on a new branch).`, { ruleset: id });
    }
}
/** Each of the three rule types is covered by a ruleset that binds, else the branch is not proven. */
function requireCoverage(store, covered, problems) {
    for (const [type, needs] of [
        ['deletion', 'an active ruleset with no bypass actors blocking deletion'],
        ['non_fast_forward', 'an active ruleset with no bypass actors blocking non-fast-forward updates'],
        ['update', 'an active ruleset restricting updates with the ledger app as its only bypass actor'],
    ]) {
        if (!covered.has(type)) {
            throw unproven(`The ledger branch ${store.location.branch} lacks ${needs}${problems.length > 0 ? ` (${problems.join('; ')})` : ''}; see writ bootstrap for the two rulesets.`, { rule: type });
        }
    }
}

// EXTERNAL MODULE: ./packages/core/src/ledger/paths.ts
var paths = __webpack_require__(7111);
// EXTERNAL MODULE: ./packages/core/src/ledger/schemas.ts + 4 modules
var schemas = __webpack_require__(3310);
;// CONCATENATED MODULE: ./packages/core/src/ledger/provenance.ts
/**
 * Provenance: the ledger is authority only if its history proves app-only, append-only, legal writes.
 * Fails closed with `ledger-provenance-unproven` naming the first rule that does not hold:
 *  - the two rulesets of rulesets.ts protect the branch and are unchanged since the root commit;
 *  - the oldest commit is a parentless bootstrap holding only ledger-root.json, and no other commit is
 *    parentless (no merges either);
 *  - every commit is authored by the configured app (`<slug>[bot]`) and carries a valid GitHub signature;
 *  - every commit above the root is exactly the transition its trailers name, replayed from its
 *    parent's files (replay.ts), and carries the checkpoint of the proven state through its parent.
 *
 * Incremental by induction: every writer replays the commits above the head's checkpoint before it
 * commits and records in its own commit how far the history is proven, so a check replays only the
 * commits written since the last writer (usually one: the head), flat in history length. The full
 * check (`writ ledger verify`) replays from the root and trusts no checkpoint: it is the one that also
 * catches a forger who writes two commits, the second claiming the first was proven.
 */






function provenance_unproven(rule, details = {}) {
    return new errors/* WritError */.b9('ledger-provenance-unproven', rule, { details });
}
const BOT_EMAIL = (slug) => new RegExp(`^[0-9]+\\+${slug.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\[bot\\]@users\\.noreply\\.github\\.com$`);
/** Why a commit fails the authorship/signature rules, or null if it passes. */
function commitProblem(commit, app) {
    const botLogin = `${app.slug}[bot]`;
    if (commit.authorName !== botLogin ||
        commit.authorEmail === null ||
        !BOT_EMAIL(app.slug).test(commit.authorEmail) ||
        (commit.authorLogin !== null && commit.authorLogin !== botLogin)) {
        return `commit ${commit.oid} is not authored by the ledger app ${botLogin}`;
    }
    const signature = commit.signature;
    if (signature === null ||
        !signature.isValid ||
        signature.state !== 'VALID' ||
        !signature.wasSignedByGitHub) {
        return `commit ${commit.oid} is not verified (signature ${signature === null ? 'missing' : signature.state})`;
    }
    if (commit.parentCount > 1)
        return `commit ${commit.oid} is a merge commit`;
    return null;
}
/** Commits replayed per GraphQL request. */
const REPLAY_BATCH = 25;
/**
 * Proves the ledger history of `headOid`. Throws `ledger-provenance-unproven` on the first rule that
 * fails; returns the proven state (tombstones included) on success.
 */
async function verifyProvenance(store, app, headOid, options) {
    const incremental = options.mode === 'incremental';
    // The O(1) freeze gate: a head whose checkpoint carries the sweep's freeze is refused before anything
    // else (ledger/freeze.ts explains why it cannot be removed unnoticed).
    const frozen = options.checkpoint?.frozen;
    if (frozen !== undefined)
        throw (0,replay/* frozenError */.Nh)(frozen, null);
    const trusted = incremental ? (options.trusted ?? null) : null;
    // Where the walk down the history stops: a state this process proved itself, or the commit the
    // head's checkpoint names (its own claim, checked below, never taken as proof).
    const stopAt = trusted?.throughOid ?? (incremental ? (options.checkpoint?.verified_through ?? null) : null);
    const check = { store, app, headOid, options, requests: 0, rootText: undefined };
    const walked = await walkHistory(check, stopAt);
    if (stopAt !== null && walked.anchor === null) {
        throw provenance_unproven("The head's provenance checkpoint names a commit that is not in the ledger history.");
    }
    const pending = walked.above.reverse();
    const start = trusted ?? (await startState(check, walked, pending));
    let state = await replayAbove(check, walked.anchor, pending, start);
    if (state === null)
        throw provenance_unproven('The ledger history could not be proven.');
    state = withRulesetPins(check, state);
    let rulesetIds = [];
    if (options.rulesets !== false) {
        const rulesets = await checkRulesets(store, app, state.rootCommittedAt, options.rules, state.rulesetPins);
        check.requests += rulesets.requests;
        rulesetIds = rulesets.rulesetIds;
    }
    return {
        headOid,
        rootOid: state.rootOid,
        rootCommittedAt: state.rootCommittedAt,
        commitsChecked: pending.length + (walked.anchor === null ? 1 : 0),
        totalCommits: state.commits,
        requests: check.requests,
        usedCheckpoint: walked.anchor !== null,
        rulesetIds,
        consumedRunIds: state.consumedRunIds,
        consumedCommentIds: state.consumedCommentIds,
        state,
    };
}
/**
 * Walks the history down from the head (starting from the page the one read returned, when it starts
 * at the head) to `stopAt` or, without one, to the root, checking each commit's author and signature.
 */
async function walkHistory(check, stopAt) {
    const { store, app, headOid } = check;
    let page = check.options.firstPage;
    if (page === undefined || page.commits.length === 0 || page.commits[0]?.oid !== headOid) {
        check.requests += 1;
        page = await store.readHistory(headOid, null, 100);
    }
    const above = [];
    for (;;) {
        for (const commit of page.commits) {
            if (stopAt !== null && commit.oid === stopAt)
                return { above, anchor: commit, root: null };
            const problem = commitProblem(commit, app);
            if (problem !== null)
                throw provenance_unproven(`Ledger history rule failed: ${problem}.`, { commit: commit.oid });
            if (commit.parentCount === 0)
                return { above, anchor: null, root: commit };
            above.push(commit);
        }
        if (!page.hasNextPage || page.endCursor === null)
            return { above, anchor: null, root: null };
        check.requests += 1;
        page = await store.readHistory(headOid, page.endCursor, 100);
    }
}
/**
 * The proven state the replay starts from: the root's, when the walk reached it or stopped at it; null
 * when the anchor is a commit above the root (its state comes from its child's files, see replayAbove).
 */
async function startState(check, walked, pending) {
    const { anchor, root } = walked;
    if (anchor === null) {
        if (root === null)
            throw provenance_unproven('The ledger history has no parentless root commit.');
        return replayRootOf(check, root);
    }
    if (anchor.parentCount === 0)
        return replayRootOf(check, anchor);
    if (pending.length === 0)
        throw provenance_unproven("The head's provenance checkpoint names the head itself.");
    return null;
}
async function replayRootOf(check, commit) {
    const { head } = check.options;
    // A root at the head came with the one read (its files and changed-file count): no second request.
    if (head?.oid === commit.oid && (0,replay/* replayPaths */.Sr)(null).every((path) => head.files.has(path))) {
        noteRootFile(check, head.files);
        return (0,replay/* replayRoot */.U_)(commit, head, check.store.location);
    }
    check.requests += 1;
    const [data] = await check.store.readCommits([{ oid: commit.oid, paths: (0,replay/* replayPaths */.Sr)(null) }]);
    if (data === undefined)
        throw provenance_unproven(`Ledger root ${commit.oid} could not be read.`);
    noteRootFile(check, data.files);
    return (0,replay/* replayRoot */.U_)(commit, data, check.store.location);
}
function noteRootFile(check, files) {
    if (files.has(paths/* LEDGER_ROOT_PATH */.$r))
        check.rootText = files.get(paths/* LEDGER_ROOT_PATH */.$r) ?? null;
}
/**
 * Replays `pending` (oldest first) on `state`, REPLAY_BATCH commits per request. A null `state` is the
 * anchor's: what its own checkpoint (as its child carries it) and trailers give.
 */
async function replayAbove(check, anchor, pending, start) {
    const replayDeps = {
        comment: (repository, id) => ((check.requests += 1), check.store.comment(repository, id)),
    };
    let state = start;
    for (let index = 0; index < pending.length; index += REPLAY_BATCH) {
        const batch = pending.slice(index, index + REPLAY_BATCH);
        const data = await readBatch(check, batch);
        for (const [offset, commit] of batch.entries()) {
            const files = data[offset];
            if (files === undefined || files.oid !== commit.oid)
                throw provenance_unproven(`Ledger commit ${commit.oid} could not be read.`);
            state ??= (0,replay/* stateAfter */.W_)(anchor, files.parentFiles.get(paths/* PROVENANCE_PATH */.U7) ?? null);
            state = await (0,replay/* replayCommit */.Nz)(commit, files, state, replayDeps);
            noteRootFile(check, files.files);
        }
    }
    return state;
}
/** The files a batch's replay reads, in one request; the head's came with the one read when it holds them all. */
async function readBatch(check, batch) {
    const reads = batch.map((commit) => ({
        oid: commit.oid,
        paths: (0,replay/* replayPaths */.Sr)((0,message/* parseTrailers */.aw)(commit.message)),
    }));
    const last = batch.length - 1;
    const { head: given } = check.options;
    const head = given !== undefined &&
        batch[last]?.oid === given.oid &&
        (reads[last]?.paths ?? []).every((path) => given.files.has(path))
        ? given
        : null;
    const fetched = reads.slice(0, head === null ? undefined : last);
    if (fetched.length > 0)
        check.requests += 1;
    const data = await check.store.readCommits(fetched);
    if (head !== null)
        data.push(head);
    return data;
}
/** `state` with the ruleset pins of the ledger-root.json the replay read (none read: unchanged). */
function withRulesetPins(check, state) {
    const { rootText } = check;
    if (rootText === undefined)
        return state;
    if (rootText === null)
        throw provenance_unproven(`The ledger history has no ${paths/* LEDGER_ROOT_PATH */.$r}.`);
    return {
        ...state,
        rulesetPins: (0,schemas/* parseLedgerFile */.zy)(schemas/* LEDGER_ROOT_FILE */.aE, paths/* LEDGER_ROOT_PATH */.$r, rootText).rulesets ?? null,
    };
}
/** The checkpoint a transition commit records after proving the history through `report.headOid`. */
function checkpointFrom(report) {
    return (0,replay/* checkpointOf */.S$)(report.state);
}


/***/ }),

/***/ 5580:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Nh: () => (/* binding */ frozenError),
/* harmony export */   Nz: () => (/* binding */ replayCommit),
/* harmony export */   S$: () => (/* binding */ checkpointOf),
/* harmony export */   Sr: () => (/* binding */ replayPaths),
/* harmony export */   U_: () => (/* binding */ replayRoot),
/* harmony export */   W_: () => (/* binding */ stateAfter),
/* harmony export */   qy: () => (/* binding */ stateThroughOwnCommit)
/* harmony export */ });
/* unused harmony exports stateFromCheckpoint, checkApprovalComment, checkCommandComment */
/* harmony import */ var _command_grammar_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1866);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7638);
/* harmony import */ var _message_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(3512);
/* harmony import */ var _paths_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(7111);
/* harmony import */ var _schemas_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(3310);
/* harmony import */ var _transitions_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(3927);
/**
 * Replay: a ledger commit is authority only if its files are exactly what the transition its trailers
 * name produces from its parent's files. The app token is in every Writ job, so "authored by the app"
 * proves only who held the token; replay proves the commit is a legal step of the protocol.
 *
 * The inputs a transition takes that the trailers do not carry (which step, the outcome, the approver)
 * are read from the commit's own files, the server time from its dates, and the transition function
 * itself (transitions.ts, the same code every writer runs) is evaluated on the parent's state. The
 * commit is legal only if that output is byte-identical to what it holds, its checkpoint is exactly the
 * verified state through its parent, and it changed no other file. A consume is legal only if its
 * approval comment, where it can still be read unedited, is by the recorded approver at the recorded
 * URL and holds the approve command for this run and digest.
 */







/** Run dates may lead or trail the commit dates by this much (two server clocks, whole seconds). */
const CLOCK_TOLERANCE_MS = 60_000;
function stateFromCheckpoint(checkpoint) {
    return {
        rootOid: checkpoint.root_oid,
        rootCommittedAt: Date.parse(checkpoint.root_committed_at),
        throughOid: checkpoint.verified_through,
        commits: checkpoint.verified_commits,
        consumedRunIds: new Set(checkpoint.consumed_run_ids),
        consumedCommentIds: new Set(checkpoint.consumed_comment_ids),
        unverifiableApprovals: 0,
    };
}
function checkpointOf(state) {
    return {
        schema: 1,
        root_oid: state.rootOid,
        root_committed_at: new Date(state.rootCommittedAt).toISOString(),
        verified_through: state.throughOid,
        verified_commits: state.commits,
        consumed_run_ids: [...state.consumedRunIds].sort(),
        consumed_comment_ids: [...state.consumedCommentIds].sort((a, b) => a - b),
    };
}
/**
 * The refusal of a frozen ledger, naming the commit the recovery sweep's full replay refused (and the
 * freeze commit). Every walk that meets a freeze ends here: the O(1) gate on the head's checkpoint
 * (provenance.ts), a replay that reaches the freeze commit, an anchor on it.
 */
function frozenError(freeze, freezeCommit) {
    const offending = freeze?.commit ?? null;
    const details = { code: freeze?.code ?? 'ledger-provenance-unproven' };
    if (offending !== null)
        details.commit = offending;
    if (freezeCommit !== null)
        details.freeze_commit = freezeCommit;
    return new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .WritError */ .b9('ledger-frozen', `The ledger is frozen${freezeCommit === null ? '' : ` by commit ${freezeCommit}`}: the recovery sweep's full replay refused ${offending === null ? 'its rulesets' : `commit ${offending}`} (${details.code}${freeze === null ? '' : `, ${freeze.frozen_at}`}). Every gate refuses until the owner re-provisions the ledger.`, { details });
}
/** The freeze record a freeze commit's checkpoint carries, or null when it does not parse. */
function freezeOf(checkpointText) {
    if (checkpointText === null)
        return null;
    try {
        return (0,_schemas_js__WEBPACK_IMPORTED_MODULE_4__/* .parseLedgerFile */ .zy)(_schemas_js__WEBPACK_IMPORTED_MODULE_4__/* .PROVENANCE_FILE */ .LP, _paths_js__WEBPACK_IMPORTED_MODULE_3__/* .PROVENANCE_PATH */ .U7, checkpointText).frozen ?? null;
    }
    catch {
        return null;
    }
}
function illegal(commit, why) {
    return new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .WritError */ .b9('ledger-provenance-unproven', `Ledger commit ${commit} is not a legal transition: ${why}.`, { details: { commit } });
}
/**
 * The state through `commit` from the checkpoint its own commit carries (the state through its parent)
 * and its trailers, without replaying its files. An incremental check anchors here, one commit below
 * the commits it replays: the head's own checkpoint is then checked, not trusted.
 */
function stateAfter(commit, checkpointText) {
    // Nothing is anchored on a freeze: whatever follows it cannot be proven from it.
    if ((0,_message_js__WEBPACK_IMPORTED_MODULE_2__/* .parseTrailers */ .aw)(commit.message)?.transition === 'freeze') {
        throw frozenError(freezeOf(checkpointText), commit.oid);
    }
    if (checkpointText === null)
        throw illegal(commit.oid, 'it carries no provenance checkpoint');
    let checkpoint;
    try {
        checkpoint = (0,_schemas_js__WEBPACK_IMPORTED_MODULE_4__/* .parseLedgerFile */ .zy)(_schemas_js__WEBPACK_IMPORTED_MODULE_4__/* .PROVENANCE_FILE */ .LP, _paths_js__WEBPACK_IMPORTED_MODULE_3__/* .PROVENANCE_PATH */ .U7, checkpointText);
    }
    catch (error) {
        throw illegal(commit.oid, error instanceof _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .WritError */ .b9 ? error.message : 'its checkpoint does not parse');
    }
    if (checkpoint.verified_through !== commit.parentOid) {
        throw illegal(commit.oid, 'its checkpoint does not end at its parent');
    }
    const trailers = (0,_message_js__WEBPACK_IMPORTED_MODULE_2__/* .parseTrailers */ .aw)(commit.message);
    if (trailers === null)
        throw illegal(commit.oid, 'its message carries no well-formed Writ trailers');
    const state = stateFromCheckpoint(checkpoint);
    state.throughOid = commit.oid;
    state.commits += 1;
    if (trailers.transition === 'consume') {
        state.consumedRunIds.add(need(trailers.runId, commit.oid, 'the Writ-Run trailer'));
        state.consumedCommentIds.add(need(trailers.commentId, commit.oid, 'the Writ-Comment trailer'));
    }
    if (isCommandTransition(trailers.transition) && trailers.commentId !== null) {
        state.consumedCommentIds.add(trailers.commentId);
    }
    return state;
}
/** Transitions a human's one-time comment command may make; its comment ID is tombstoned like an approval's. */
function isCommandTransition(transition) {
    return transition === 'reconcile' || transition === 'cancel';
}
/** The paths a commit with these trailers may change (and replay must read). */
function replayPaths(trailers) {
    const paths = [_paths_js__WEBPACK_IMPORTED_MODULE_3__/* .LEDGER_ROOT_PATH */ .$r, _paths_js__WEBPACK_IMPORTED_MODULE_3__/* .LEASE_PATH */ .B0, _paths_js__WEBPACK_IMPORTED_MODULE_3__/* .PROVENANCE_PATH */ .U7];
    if (trailers?.runId != null && trailers.repository !== null) {
        paths.push((0,_paths_js__WEBPACK_IMPORTED_MODULE_3__/* .runFilePath */ .N3)(trailers.repository, trailers.runId));
    }
    return paths;
}
/** The root commit: exactly `ledger-root.json`, naming this repository and branch. */
function replayRoot(commit, data, location) {
    const trailers = (0,_message_js__WEBPACK_IMPORTED_MODULE_2__/* .parseTrailers */ .aw)(commit.message);
    if (trailers?.transition !== 'bootstrap')
        throw illegal(commit.oid, 'the root is not a bootstrap commit');
    const text = data.files.get(_paths_js__WEBPACK_IMPORTED_MODULE_3__/* .LEDGER_ROOT_PATH */ .$r) ?? null;
    if (text === null || data.changedFiles !== 1) {
        throw illegal(commit.oid, 'the root commit must hold exactly ledger-root.json');
    }
    const root = (0,_schemas_js__WEBPACK_IMPORTED_MODULE_4__/* .parseLedgerFile */ .zy)(_schemas_js__WEBPACK_IMPORTED_MODULE_4__/* .LEDGER_ROOT_FILE */ .aE, _paths_js__WEBPACK_IMPORTED_MODULE_3__/* .LEDGER_ROOT_PATH */ .$r, text);
    const repository = `${location.owner}/${location.repo}`;
    if (root.repository.toLowerCase() !== repository.toLowerCase() || root.branch !== location.branch) {
        throw illegal(commit.oid, 'the root names another ledger');
    }
    if (commit.committedAt === null)
        throw illegal(commit.oid, 'the root has no commit date');
    return {
        rootOid: commit.oid,
        rootCommittedAt: commit.committedAt,
        throughOid: commit.oid,
        commits: 1,
        consumedRunIds: new Set(),
        consumedCommentIds: new Set(),
        unverifiableApprovals: 0,
    };
}
function parsed(files, runPath, oid) {
    try {
        const leaseText = files.get(_paths_js__WEBPACK_IMPORTED_MODULE_3__/* .LEASE_PATH */ .B0) ?? null;
        const runText = runPath === null ? null : (files.get(runPath) ?? null);
        return {
            lease: leaseText === null ? _transitions_js__WEBPACK_IMPORTED_MODULE_5__/* .FREE_LEASE */ .sA : (0,_schemas_js__WEBPACK_IMPORTED_MODULE_4__/* .parseLedgerFile */ .zy)(_schemas_js__WEBPACK_IMPORTED_MODULE_4__/* .LEASE_FILE */ .wX, _paths_js__WEBPACK_IMPORTED_MODULE_3__/* .LEASE_PATH */ .B0, leaseText),
            run: runText === null || runPath === null ? null : (0,_schemas_js__WEBPACK_IMPORTED_MODULE_4__/* .parseLedgerFile */ .zy)(_schemas_js__WEBPACK_IMPORTED_MODULE_4__/* .RUN_FILE */ .zF, runPath, runText),
        };
    }
    catch (error) {
        throw illegal(oid, error instanceof _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .WritError */ .b9 ? error.message : 'a file does not parse');
    }
}
/** The one step whose record differs between the two run files (transitions change at most one). */
function changedStep(before, after, oid) {
    if (before.steps.length !== after.steps.length)
        throw illegal(oid, 'the steps changed in number');
    const changed = before.steps
        .map((step, index) => ({ before: step, after: after.steps[index] }))
        .filter((pair) => JSON.stringify(pair.before) !== JSON.stringify(pair.after));
    const [only, ...rest] = changed;
    if (only === undefined || rest.length > 0)
        throw illegal(oid, `${changed.length} steps changed, not one`);
    if (only.before.id !== only.after.id)
        throw illegal(oid, 'a step changed its ID');
    return only;
}
/** Every step whose record differs between the two run files, in order (at least one unless `allowNone`). */
function changedSteps(before, after, oid, allowNone = false) {
    if (before.steps.length !== after.steps.length)
        throw illegal(oid, 'the steps changed in number');
    const changed = before.steps
        .map((step, index) => ({ before: step, after: after.steps[index] }))
        .filter((pair) => JSON.stringify(pair.before) !== JSON.stringify(pair.after));
    if (changed.length === 0 && !allowNone)
        throw illegal(oid, 'no step changed');
    if (changed.some((pair) => pair.before.id !== pair.after.id))
        throw illegal(oid, 'a step changed its ID');
    return changed;
}
function outcomeOf(step, oid) {
    if (step.status === 'done' || step.status === 'conflict' || step.status === 'failed')
        return step.status;
    throw illegal(oid, `step ${step.id} is ${step.status}, not an outcome`);
}
function reconcileOutcomeOf(step, oid) {
    return step.status === 'pending' ? 'pending' : outcomeOf(step, oid);
}
function need(value, oid, what) {
    if (value === null || value === undefined)
        throw illegal(oid, `${what} is missing`);
    return value;
}
function expiryMs(lease, oid) {
    return Date.parse(need(lease.lease_expires_at, oid, 'the lease expiry'));
}
function within(time, low, high, oid, what) {
    if (!Number.isFinite(time) ||
        (low !== null && time < low - CLOCK_TOLERANCE_MS) ||
        (high !== null && time > high + CLOCK_TOLERANCE_MS)) {
        throw illegal(oid, `${what} is outside the commit's time`);
    }
}
/** The resolutions a takeover applied, read back from what it did to each claimed step. */
function resolutionsOf(parent, child) {
    const resolutions = {};
    parent.steps.forEach((before, index) => {
        const after = child.steps[index];
        if (before.status !== 'claimed' || after === undefined || after.id !== before.id)
            return;
        if (after.status === 'done')
            resolutions[before.id] = { state: 'desired', resources: after.resources };
        else if (after.status === 'pending')
            resolutions[before.id] = { state: 'pre-state' };
        else if (after.status === 'claimed' && JSON.stringify(after) !== JSON.stringify(before)) {
            resolutions[before.id] = { state: 'unknown', reason: after.evidence?.error_code ?? '' };
        }
    });
    return resolutions;
}
/** The parent's ledger as the transition saw it at `serverTime`, with the proven tombstones if asked. */
function viewAt(replayed, serverTime, tombstones = false) {
    const { parent, state } = replayed;
    return {
        serverTime,
        lease: parent.lease,
        run: parent.run,
        ...(tombstones
            ? { tombstones: { runIds: state.consumedRunIds, commentIds: state.consumedCommentIds } }
            : {}),
    };
}
/** The policy that reproduces the child's lease expiry from `serverTime` (any lease length is legal). */
function renewing(replayed, serverTime) {
    const lease = replayed.child.lease;
    return {
        leaseMs: lease.lease_expires_at === null ? 1 : expiryMs(lease, replayed.oid) - serverTime,
        graceMs: 0,
    };
}
function holderOf(replayed) {
    return need(replayed.parent.lease.holder, replayed.oid, "the parent lease's holder");
}
function parentRunOf(replayed) {
    return need(replayed.parent.run, replayed.oid, "the parent's run file");
}
/** A run's end a commit records (complete, or a checkpoint that finishes the run), or null. */
function finalState(run) {
    const final = run.state;
    return final === 'completed' || final === 'failed' || final === 'cancelled' ? final : null;
}
function replayPropose(replayed) {
    const { childRun, oid } = replayed;
    const proposedAt = Date.parse(childRun.proposed_at);
    within(proposedAt, replayed.parentCommittedAt, replayed.at, oid, 'proposed_at');
    return _transitions_js__WEBPACK_IMPORTED_MODULE_5__/* .propose */ .BM(viewAt(replayed, proposedAt), {
        repository: need(replayed.trailers.repository, oid, 'the run repository'),
        runId: replayed.runId,
        planDigest: childRun.plan_digest,
        evidenceDigest: childRun.evidence_digest,
        scope: childRun.scope,
        bounds: childRun.bounds,
        steps: childRun.steps.map((step) => ({ id: step.id, kind: step.kind })),
        proposer: childRun.proposer ?? null,
        ...(childRun.preview === undefined ? {} : { preview: childRun.preview }),
        // A first status reservation folded into the propose commit (legal only as one).
        statusComment: childRun.status_comment ?? null,
    });
}
function replayConsume(replayed) {
    const { childRun, oid } = replayed;
    const approval = need(childRun.approval, oid, 'the approval');
    const parentRun = parentRunOf(replayed);
    const consumedAt = Date.parse(approval.consumed_at);
    within(consumedAt, replayed.parentCommittedAt, replayed.at, oid, 'consumed_at');
    const lease = need(replayed.child.lease.holder, oid, 'the new holder');
    return _transitions_js__WEBPACK_IMPORTED_MODULE_5__/* .consume */ .Fg(viewAt(replayed, consumedAt, true), {
        runId: replayed.runId,
        approval: {
            actor_login: approval.actor_login,
            actor_id: approval.actor_id,
            role_name: approval.role_name,
            comment_id: approval.comment_id,
            comment_url: approval.comment_url,
            digest: approval.digest,
        },
        plan: { digest: parentRun.plan_digest, scope: parentRun.scope, bounds: parentRun.bounds },
        holder: { workflow_run_id: lease.workflow_run_id, attempt: lease.attempt },
        // A status update reservation folded into the consume commit (legal only as one).
        ...(JSON.stringify(childRun.status_comment ?? null) === JSON.stringify(parentRun.status_comment ?? null)
            ? {}
            : { statusComment: childRun.status_comment ?? null }),
    }, renewing(replayed, consumedAt));
}
function replayClaim(replayed) {
    const { oid, at } = replayed;
    const step = changedStep(parentRunOf(replayed), replayed.childRun, oid);
    return _transitions_js__WEBPACK_IMPORTED_MODULE_5__/* .claim */ .B7(viewAt(replayed, at), {
        runId: replayed.runId,
        stepId: step.after.id,
        epoch: replayed.trailers.epoch,
        holder: holderOf(replayed),
        preStateDigest: step.after.pre_state_digest,
        receipt: step.after.receipt ?? null,
    }, renewing(replayed, at));
}
function replayCheckpoint(replayed) {
    const { oid, at, childRun } = replayed;
    const step = changedStep(parentRunOf(replayed), childRun, oid);
    return _transitions_js__WEBPACK_IMPORTED_MODULE_5__/* .checkpoint */ .Fn(viewAt(replayed, at), {
        runId: replayed.runId,
        stepId: step.after.id,
        epoch: replayed.trailers.epoch,
        holder: holderOf(replayed),
        outcome: outcomeOf(step.after, oid),
        evidence: need(step.after.evidence, oid, 'the step evidence'),
        resources: step.after.resources,
        receipt: step.after.receipt ?? null,
        // A last checkpoint completes the run in the same commit; one written before that rule did
        // not (a separate complete followed). Both are legal; which one is read from the commit.
        completeRun: childRun.state === 'completed',
    }, renewing(replayed, at));
}
function replayClaimSteps(replayed) {
    const { oid, at } = replayed;
    const steps = changedSteps(parentRunOf(replayed), replayed.childRun, oid);
    return _transitions_js__WEBPACK_IMPORTED_MODULE_5__/* .claimSteps */ .oq(viewAt(replayed, at), {
        runId: replayed.runId,
        stepIds: steps.map((step) => step.after.id),
        epoch: replayed.trailers.epoch,
        holder: holderOf(replayed),
        preStateDigests: Object.fromEntries(steps.map((step) => [step.after.id, step.after.pre_state_digest ?? null])),
        receipts: Object.fromEntries(steps.map((step) => [step.after.id, step.after.receipt ?? null])),
    }, renewing(replayed, at));
}
function replayCheckpointSteps(replayed) {
    const { oid, at, childRun } = replayed;
    const final = finalState(childRun);
    const steps = changedSteps(parentRunOf(replayed), childRun, oid, final !== null);
    return _transitions_js__WEBPACK_IMPORTED_MODULE_5__/* .checkpointSteps */ .qL(viewAt(replayed, at), {
        runId: replayed.runId,
        epoch: replayed.trailers.epoch,
        holder: holderOf(replayed),
        steps: steps.map((step) => ({
            stepId: step.after.id,
            outcome: outcomeOf(step.after, oid),
            evidence: need(step.after.evidence, oid, 'the step evidence'),
            resources: step.after.resources,
            receipt: step.after.receipt ?? null,
        })),
        finish: final === null ? null : { state: final, stopReason: childRun.stop_reason },
    }, renewing(replayed, at));
}
function replayTakeover(replayed) {
    const { oid, at, childRun } = replayed;
    const owner = need(childRun.owner, oid, 'the new owner');
    return _transitions_js__WEBPACK_IMPORTED_MODULE_5__/* .takeover */ .Ww(viewAt(replayed, at), {
        runId: replayed.runId,
        holder: { workflow_run_id: owner.holder.workflow_run_id, attempt: owner.holder.attempt },
        resolutions: resolutionsOf(parentRunOf(replayed), childRun),
    }, renewing(replayed, at));
}
function replayCancel(replayed) {
    const actor = need(replayed.childRun.cancelled_by, replayed.oid, 'the canceller');
    // The role was checked live against the configured roles when the command was consumed; replay
    // cannot know that configuration, so it checks the transition, not the role list.
    return _transitions_js__WEBPACK_IMPORTED_MODULE_5__/* .cancel */ .ZT(viewAt(replayed, replayed.at, true), {
        runId: replayed.runId,
        actor,
        commentId: replayed.trailers.commentId,
        allowedRoles: [actor.role_name],
    });
}
function replayRelease(replayed) {
    return _transitions_js__WEBPACK_IMPORTED_MODULE_5__/* .release */ ._r(viewAt(replayed, replayed.at), {
        runId: replayed.runId,
        epoch: replayed.trailers.epoch,
        holder: holderOf(replayed),
    });
}
function replayComplete(replayed) {
    const { childRun } = replayed;
    const final = finalState(childRun);
    if (final === null)
        throw illegal(replayed.oid, `a complete commit left the run ${childRun.state}`);
    return _transitions_js__WEBPACK_IMPORTED_MODULE_5__/* .complete */ .My(viewAt(replayed, replayed.at), {
        runId: replayed.runId,
        epoch: replayed.trailers.epoch,
        holder: holderOf(replayed),
        state: final,
        stopReason: childRun.stop_reason,
    });
}
function replayReconcile(replayed) {
    const { oid, childRun, trailers } = replayed;
    const step = changedStep(parentRunOf(replayed), childRun, oid);
    const actor = need(step.after.reconciled_by, oid, 'the reconciler');
    return _transitions_js__WEBPACK_IMPORTED_MODULE_5__/* .reconcile */ .Lq(viewAt(replayed, replayed.at, true), {
        runId: replayed.runId,
        stepId: step.after.id,
        actor,
        outcome: reconcileOutcomeOf(step.after, oid),
        evidence: need(step.after.evidence, oid, 'the step evidence'),
        resources: step.after.resources,
        resume: childRun.state !== 'failed',
        commentId: trailers.commentId,
        ...(trailers.commentId === null ? {} : { allowedRoles: [actor.role_name] }),
    });
}
function replayStatus(replayed) {
    const { oid, at } = replayed;
    const statusComment = need(replayed.childRun.status_comment, oid, 'the status comment record');
    // A reservation's time is the server's at the read before the commit: within the commit's window.
    const reservedAt = statusComment.reserved_at == null ? at : Date.parse(statusComment.reserved_at);
    within(reservedAt, replayed.parentCommittedAt, at, oid, 'reserved_at');
    return _transitions_js__WEBPACK_IMPORTED_MODULE_5__/* .recordStatus */ .Ms(viewAt(replayed, reservedAt), {
        runId: replayed.runId,
        statusComment,
        stampReservation: statusComment.reserved_at != null,
    });
}
function replayArtifact(replayed) {
    const { oid } = replayed;
    return _transitions_js__WEBPACK_IMPORTED_MODULE_5__/* .recordArtifact */ .wY(viewAt(replayed, replayed.at), {
        runId: replayed.runId,
        artifact: need(replayed.childRun.artifact, oid, 'the artifact record'),
        // The record names no holder: the run's owner then is the only one that may have made it.
        holder: need(replayed.parent.run?.owner, oid, "the parent run's owner").holder,
    });
}
/**
 * How each transition is re-evaluated from a commit: the free inputs read from the child's files, the
 * transition function (transitions.ts) run on the parent's.
 */
const REPLAYERS = {
    propose: replayPropose,
    consume: replayConsume,
    claim: replayClaim,
    checkpoint: replayCheckpoint,
    'claim-steps': replayClaimSteps,
    'checkpoint-steps': replayCheckpointSteps,
    takeover: replayTakeover,
    cancel: replayCancel,
    release: replayRelease,
    complete: replayComplete,
    reconcile: replayReconcile,
    status: replayStatus,
    artifact: replayArtifact,
    bootstrap: (replayed) => {
        throw illegal(replayed.oid, 'a bootstrap commit above the root');
    },
    // replayCommit stops at a freeze before evaluating anything; reaching here is a bug, so refuse.
    freeze: (replayed) => {
        throw illegal(replayed.oid, 'a freeze is not a transition');
    },
};
/**
 * Re-evaluates the named transition on the parent's state with the free inputs read from the commit.
 * Returns what the transition produces; a coded refusal of the transition becomes the commit's
 * `ledger-provenance-unproven` (the step was illegal from its parent's state).
 */
function evaluate(trailers, runId, parent, child, times, state, oid) {
    const replayed = {
        trailers,
        runId,
        parent,
        child,
        childRun: need(child.run, oid, 'the run file'),
        at: times.committedAt,
        parentCommittedAt: times.parentCommittedAt,
        state,
        oid,
    };
    try {
        return REPLAYERS[trailers.transition](replayed);
    }
    catch (error) {
        if (error instanceof _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .WritError */ .b9 && error.code !== 'ledger-provenance-unproven') {
            throw illegal(oid, `${trailers.transition} is refused from its parent's state (${error.code}: ${error.message})`);
        }
        throw error;
    }
}
function checkApprovalComment(comment, approval, runId) {
    const problem = approvalCommentProblem(comment, approval, runId);
    if (problem === null)
        return { backs: true };
    return {
        backs: false,
        unverifiable: comment === null || comment.edited,
        why: problem,
    };
}
function approvalCommentProblem(comment, approval, runId) {
    if (comment === null)
        return `approval comment ${approval.comment_id} no longer exists`;
    if (comment.edited)
        return `approval comment ${approval.comment_id} was edited`;
    if (comment.userId !== approval.actor_id)
        return `approval comment ${approval.comment_id} is not by the approver`;
    if (comment.htmlUrl !== approval.comment_url)
        return `approval comment ${approval.comment_id} is not at the recorded URL`;
    const command = (0,_command_grammar_js__WEBPACK_IMPORTED_MODULE_0__/* .parseCommandOrNull */ .HR)(comment.body, null);
    if (command?.kind !== 'approve' ||
        command.runId !== runId ||
        `sha256:${command.digestHex}` !== approval.digest) {
        return `approval comment ${approval.comment_id} does not hold the approve command for this run and digest`;
    }
    return null;
}
/** `state` one commit further, through `oid`, with copies of its tombstone sets to add to. */
function successorState(state, oid) {
    return {
        ...state,
        throughOid: oid,
        commits: state.commits + 1,
        consumedRunIds: new Set(state.consumedRunIds),
        consumedCommentIds: new Set(state.consumedCommentIds),
    };
}
/**
 * The state through a commit this process made itself: `result` evaluated on `state` (the proven state
 * through its parent) and committed as `oid`. The same bookkeeping replayCommit does after proving a
 * commit (one more commit; a consume or a human command tombstones its comment, a consume its run).
 */
function stateThroughOwnCommit(state, result, oid) {
    const next = successorState(state, oid);
    if (result.transition === 'consume') {
        next.consumedRunIds.add(result.runId);
        if (result.commentId !== null)
            next.consumedCommentIds.add(result.commentId);
    }
    if (isCommandTransition(result.transition) && result.commentId !== null) {
        next.consumedCommentIds.add(result.commentId);
    }
    return next;
}
/**
 * Replays one non-root commit on top of `state` (the proven history through its parent). Returns the
 * state through this commit, or throws `ledger-provenance-unproven` naming what is illegal.
 */
async function replayCommit(commit, data, state, deps) {
    const oid = commit.oid;
    const trailers = (0,_message_js__WEBPACK_IMPORTED_MODULE_2__/* .parseTrailers */ .aw)(commit.message);
    if (trailers === null)
        throw illegal(oid, 'its message carries no well-formed Writ trailers');
    // A freeze is terminal: a replay that reaches one refuses the ledger (and so does any history above).
    if (trailers.transition === 'freeze') {
        throw frozenError(freezeOf(data.files.get(_paths_js__WEBPACK_IMPORTED_MODULE_3__/* .PROVENANCE_PATH */ .U7) ?? null), oid);
    }
    if (data.parentOid !== state.throughOid)
        throw illegal(oid, 'its parent is not the proven head');
    const runId = need(trailers.runId, oid, 'the Writ-Run trailer');
    const runPath = (0,_paths_js__WEBPACK_IMPORTED_MODULE_3__/* .runFilePath */ .N3)(need(trailers.repository, oid, 'the Writ-Repository trailer'), runId);
    const committedAt = need(commit.committedAt, oid, 'the commit date');
    checkUnchangedFrame(data, state, oid);
    const parent = parsed(data.parentFiles, runPath, oid);
    const child = parsed(data.files, runPath, oid);
    const times = { committedAt, parentCommittedAt: data.parentCommittedAt };
    const result = evaluate(trailers, runId, parent, child, times, state, oid);
    checkWrites(result, trailers, runId, runPath, data, oid);
    const next = successorState(state, oid);
    if (trailers.transition === 'consume')
        await checkConsumedApproval(next, result, runId, oid, deps);
    const run = need(result.run ?? parent.run, oid, 'the run');
    if (isCommandTransition(trailers.transition) && trailers.commentId !== null) {
        await checkConsumedCommand(next, trailers.transition, trailers.commentId, parent.run, run, oid, deps);
    }
    if (trailers.transition === 'status')
        await checkStatusReReservation(parent.run, run, oid, deps);
    return next;
}
/** What no transition changes: ledger-root.json, and the checkpoint, which is the parent's proven state. */
function checkUnchangedFrame(data, state, oid) {
    if (data.files.get(_paths_js__WEBPACK_IMPORTED_MODULE_3__/* .LEDGER_ROOT_PATH */ .$r) !== data.parentFiles.get(_paths_js__WEBPACK_IMPORTED_MODULE_3__/* .LEDGER_ROOT_PATH */ .$r)) {
        throw illegal(oid, 'it changed ledger-root.json');
    }
    const checkpoint = data.files.get(_paths_js__WEBPACK_IMPORTED_MODULE_3__/* .PROVENANCE_PATH */ .U7) ?? null;
    if (checkpoint !== (0,_schemas_js__WEBPACK_IMPORTED_MODULE_4__/* .serializeLedgerFile */ .wA)(_schemas_js__WEBPACK_IMPORTED_MODULE_4__/* .PROVENANCE_FILE */ .LP, _paths_js__WEBPACK_IMPORTED_MODULE_3__/* .PROVENANCE_PATH */ .U7, checkpointOf(state))) {
        throw illegal(oid, 'its provenance checkpoint is not the proven state of its parent');
    }
}
/** The commit's trailers name `result`, and its files are exactly what `result` writes (nothing else). */
function checkWrites(result, trailers, runId, runPath, data, oid) {
    if (result.transition !== trailers.transition ||
        result.runId !== runId ||
        result.epoch !== trailers.epoch ||
        result.commentId !== trailers.commentId) {
        throw illegal(oid, 'its trailers do not match the transition');
    }
    const expectedLease = result.lease === null
        ? (data.parentFiles.get(_paths_js__WEBPACK_IMPORTED_MODULE_3__/* .LEASE_PATH */ .B0) ?? null)
        : (0,_schemas_js__WEBPACK_IMPORTED_MODULE_4__/* .serializeLedgerFile */ .wA)(_schemas_js__WEBPACK_IMPORTED_MODULE_4__/* .LEASE_FILE */ .wX, _paths_js__WEBPACK_IMPORTED_MODULE_3__/* .LEASE_PATH */ .B0, result.lease);
    const expectedRun = result.run === null
        ? (data.parentFiles.get(runPath) ?? null)
        : (0,_schemas_js__WEBPACK_IMPORTED_MODULE_4__/* .serializeLedgerFile */ .wA)(_schemas_js__WEBPACK_IMPORTED_MODULE_4__/* .RUN_FILE */ .zF, runPath, result.run);
    if ((data.files.get(_paths_js__WEBPACK_IMPORTED_MODULE_3__/* .LEASE_PATH */ .B0) ?? null) !== expectedLease)
        throw illegal(oid, `lease.json is not what ${trailers.transition} writes`);
    if ((data.files.get(runPath) ?? null) !== expectedRun)
        throw illegal(oid, `the run file is not what ${trailers.transition} writes`);
    const changed = replayPaths(trailers).filter((path) => (data.files.get(path) ?? null) !== (data.parentFiles.get(path) ?? null)).length;
    if (data.changedFiles === null)
        throw illegal(oid, 'GitHub could not count the files it changed');
    if (data.changedFiles !== changed)
        throw illegal(oid, 'it changed files outside its transition');
}
/** A consume: its approval comment backs it (or can no longer be read), and its run and comment are tombstoned. */
async function checkConsumedApproval(next, result, runId, oid, deps) {
    const approval = need(result.run?.approval, oid, 'the approval');
    const verdict = checkApprovalComment(await deps.comment(need(result.run, oid, 'the run').repository, approval.comment_id), approval, runId);
    if (!verdict.backs) {
        if (!verdict.unverifiable)
            throw illegal(oid, verdict.why);
        next.unverifiableApprovals += 1;
    }
    next.consumedRunIds.add(runId);
    next.consumedCommentIds.add(approval.comment_id);
}
/** A reconcile or cancel by comment: the comment holds that command (or can no longer be read), and is tombstoned. */
async function checkConsumedCommand(next, transition, commentId, parentRun, run, oid, deps) {
    const verdict = checkCommandComment(await deps.comment(run.repository, commentId), commentId, commandOf(transition, parentRun, run, oid));
    if (!verdict.backs) {
        if (!verdict.unverifiable)
            throw illegal(oid, verdict.why);
        next.unverifiableApprovals += 1;
    }
    next.consumedCommentIds.add(commentId);
}
/** A re-reservation (a recorded comment ID back to null) is legal only for a status comment that no longer exists on GitHub. */
async function checkStatusReReservation(parentRun, run, oid, deps) {
    const before = parentRun?.status_comment?.comment_id ?? null;
    const after = run.status_comment?.comment_id ?? null;
    if (before !== null && after === null && (await deps.comment(run.repository, before)) !== null) {
        throw illegal(oid, `it re-reserves the status comment while comment ${before} still exists`);
    }
}
function commandOf(transition, parent, child, oid) {
    if (transition === 'cancel') {
        const actor = need(child.cancelled_by, oid, 'the canceller');
        return { actorId: actor.actor_id, verb: 'cancel', args: [child.run_id] };
    }
    const step = changedStep(need(parent, oid, "the parent's run file"), child, oid).after;
    const actor = need(step.reconciled_by, oid, 'the reconciler');
    const word = step.status === 'pending' ? 'retry' : step.status;
    return { actorId: actor.actor_id, verb: 'reconcile', args: [child.run_id, step.id, word] };
}
/** Like checkApprovalComment, for a reconcile or cancel command comment. */
function checkCommandComment(comment, commentId, expected) {
    let why = null;
    if (comment === null)
        why = `command comment ${commentId} no longer exists`;
    else if (comment.edited)
        why = `command comment ${commentId} was edited`;
    else if (comment.userId !== expected.actorId)
        why = `command comment ${commentId} is not by the recorded writer`;
    else {
        const parsed = (0,_command_grammar_js__WEBPACK_IMPORTED_MODULE_0__/* .parseCommandOrNull */ .HR)(comment.body, null);
        const args = parsed?.kind === 'reconcile'
            ? [parsed.runId, parsed.stepId, parsed.decision]
            : parsed?.kind === 'cancel'
                ? [parsed.runId]
                : null;
        if (parsed?.kind !== expected.verb || JSON.stringify(args) !== JSON.stringify(expected.args)) {
            why = `command comment ${commentId} does not hold the ${expected.verb} command this commit records`;
        }
    }
    if (why === null)
        return { backs: true };
    return { backs: false, unverifiable: comment === null || comment.edited, why };
}


/***/ }),

/***/ 3310:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  wX: () => (/* binding */ LEASE_FILE),
  aE: () => (/* binding */ LEDGER_ROOT_FILE),
  LP: () => (/* binding */ PROVENANCE_FILE),
  zF: () => (/* binding */ RUN_FILE),
  zy: () => (/* binding */ parseLedgerFile),
  wA: () => (/* binding */ serializeLedgerFile)
});

// UNUSED EXPORTS: checkLedgerFile

// EXTERNAL MODULE: ./packages/core/src/errors.ts
var errors = __webpack_require__(7638);
;// CONCATENATED MODULE: ./packages/core/src/generated/lease-validator.js
// Generated by scripts/build/generate-validators.mjs from the schema named below. Do not edit.
// Schema: schemas/ledger/lease.schema.json

const validate = (/* unused pure expression or super */ null && (validate20));/* harmony default export */ const lease_validator = (validate20);const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://writ.dev/schemas/ledger/lease.schema.json","type":"object","additionalProperties":false,"required":["schema","epoch","holder","lease_expires_at"],"properties":{"schema":{"const":1},"epoch":{"type":"integer","minimum":0,"maximum":9007199254740991},"holder":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/holder"}]},"lease_expires_at":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/timestamp"}]}},"$defs":{"holder":{"type":"object","additionalProperties":false,"required":["run_id","workflow_run_id","attempt"],"properties":{"run_id":{"type":"string","pattern":"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"},"workflow_run_id":{"type":"integer","minimum":0,"maximum":9007199254740991},"attempt":{"type":"integer","minimum":1,"maximum":1000000}}},"timestamp":{"type":"string","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"}}};const schema32 = {"type":"object","additionalProperties":false,"required":["run_id","workflow_run_id","attempt"],"properties":{"run_id":{"type":"string","pattern":"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"},"workflow_run_id":{"type":"integer","minimum":0,"maximum":9007199254740991},"attempt":{"type":"integer","minimum":1,"maximum":1000000}}};const schema33 = {"type":"string","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"};const pattern4 = new RegExp("^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$", "u");const pattern5 = new RegExp("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$", "u");function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){/*# sourceURL="https://writ.dev/schemas/ledger/lease.schema.json" */;let vErrors = null;let errors = 0;const evaluated0 = validate20.evaluated;if(evaluated0.dynamicProps){evaluated0.props = undefined;}if(evaluated0.dynamicItems){evaluated0.items = undefined;}if(data && typeof data == "object" && !Array.isArray(data)){if(data.schema === undefined){const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "schema"},message:"must have required property '"+"schema"+"'"};if(vErrors === null){vErrors = [err0];}else {vErrors.push(err0);}errors++;}if(data.epoch === undefined){const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "epoch"},message:"must have required property '"+"epoch"+"'"};if(vErrors === null){vErrors = [err1];}else {vErrors.push(err1);}errors++;}if(data.holder === undefined){const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "holder"},message:"must have required property '"+"holder"+"'"};if(vErrors === null){vErrors = [err2];}else {vErrors.push(err2);}errors++;}if(data.lease_expires_at === undefined){const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "lease_expires_at"},message:"must have required property '"+"lease_expires_at"+"'"};if(vErrors === null){vErrors = [err3];}else {vErrors.push(err3);}errors++;}for(const key0 in data){if(!((((key0 === "schema") || (key0 === "epoch")) || (key0 === "holder")) || (key0 === "lease_expires_at"))){const err4 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err4];}else {vErrors.push(err4);}errors++;}}if(data.schema !== undefined){if(1 !== data.schema){const err5 = {instancePath:instancePath+"/schema",schemaPath:"#/properties/schema/const",keyword:"const",params:{allowedValue: 1},message:"must be equal to constant"};if(vErrors === null){vErrors = [err5];}else {vErrors.push(err5);}errors++;}}if(data.epoch !== undefined){let data1 = data.epoch;if(!(((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1))) && (isFinite(data1)))){const err6 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err6];}else {vErrors.push(err6);}errors++;}if((typeof data1 == "number") && (isFinite(data1))){if(data1 > 9007199254740991 || isNaN(data1)){const err7 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err7];}else {vErrors.push(err7);}errors++;}if(data1 < 0 || isNaN(data1)){const err8 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};if(vErrors === null){vErrors = [err8];}else {vErrors.push(err8);}errors++;}}}if(data.holder !== undefined){let data2 = data.holder;const _errs6 = errors;let valid1 = false;let passing0 = null;const _errs7 = errors;if(data2 !== null){const err9 = {instancePath:instancePath+"/holder",schemaPath:"#/properties/holder/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err9];}else {vErrors.push(err9);}errors++;}var _valid0 = _errs7 === errors;if(_valid0){valid1 = true;passing0 = 0;}const _errs9 = errors;if(data2 && typeof data2 == "object" && !Array.isArray(data2)){if(data2.run_id === undefined){const err10 = {instancePath:instancePath+"/holder",schemaPath:"#/$defs/holder/required",keyword:"required",params:{missingProperty: "run_id"},message:"must have required property '"+"run_id"+"'"};if(vErrors === null){vErrors = [err10];}else {vErrors.push(err10);}errors++;}if(data2.workflow_run_id === undefined){const err11 = {instancePath:instancePath+"/holder",schemaPath:"#/$defs/holder/required",keyword:"required",params:{missingProperty: "workflow_run_id"},message:"must have required property '"+"workflow_run_id"+"'"};if(vErrors === null){vErrors = [err11];}else {vErrors.push(err11);}errors++;}if(data2.attempt === undefined){const err12 = {instancePath:instancePath+"/holder",schemaPath:"#/$defs/holder/required",keyword:"required",params:{missingProperty: "attempt"},message:"must have required property '"+"attempt"+"'"};if(vErrors === null){vErrors = [err12];}else {vErrors.push(err12);}errors++;}for(const key1 in data2){if(!(((key1 === "run_id") || (key1 === "workflow_run_id")) || (key1 === "attempt"))){const err13 = {instancePath:instancePath+"/holder",schemaPath:"#/$defs/holder/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err13];}else {vErrors.push(err13);}errors++;}}if(data2.run_id !== undefined){let data3 = data2.run_id;if(typeof data3 === "string"){if(!pattern4.test(data3)){const err14 = {instancePath:instancePath+"/holder/run_id",schemaPath:"#/$defs/holder/properties/run_id/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"},message:"must match pattern \""+"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"+"\""};if(vErrors === null){vErrors = [err14];}else {vErrors.push(err14);}errors++;}}else {const err15 = {instancePath:instancePath+"/holder/run_id",schemaPath:"#/$defs/holder/properties/run_id/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err15];}else {vErrors.push(err15);}errors++;}}if(data2.workflow_run_id !== undefined){let data4 = data2.workflow_run_id;if(!(((typeof data4 == "number") && (!(data4 % 1) && !isNaN(data4))) && (isFinite(data4)))){const err16 = {instancePath:instancePath+"/holder/workflow_run_id",schemaPath:"#/$defs/holder/properties/workflow_run_id/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err16];}else {vErrors.push(err16);}errors++;}if((typeof data4 == "number") && (isFinite(data4))){if(data4 > 9007199254740991 || isNaN(data4)){const err17 = {instancePath:instancePath+"/holder/workflow_run_id",schemaPath:"#/$defs/holder/properties/workflow_run_id/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err17];}else {vErrors.push(err17);}errors++;}if(data4 < 0 || isNaN(data4)){const err18 = {instancePath:instancePath+"/holder/workflow_run_id",schemaPath:"#/$defs/holder/properties/workflow_run_id/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};if(vErrors === null){vErrors = [err18];}else {vErrors.push(err18);}errors++;}}}if(data2.attempt !== undefined){let data5 = data2.attempt;if(!(((typeof data5 == "number") && (!(data5 % 1) && !isNaN(data5))) && (isFinite(data5)))){const err19 = {instancePath:instancePath+"/holder/attempt",schemaPath:"#/$defs/holder/properties/attempt/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err19];}else {vErrors.push(err19);}errors++;}if((typeof data5 == "number") && (isFinite(data5))){if(data5 > 1000000 || isNaN(data5)){const err20 = {instancePath:instancePath+"/holder/attempt",schemaPath:"#/$defs/holder/properties/attempt/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000000},message:"must be <= 1000000"};if(vErrors === null){vErrors = [err20];}else {vErrors.push(err20);}errors++;}if(data5 < 1 || isNaN(data5)){const err21 = {instancePath:instancePath+"/holder/attempt",schemaPath:"#/$defs/holder/properties/attempt/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err21];}else {vErrors.push(err21);}errors++;}}}}else {const err22 = {instancePath:instancePath+"/holder",schemaPath:"#/$defs/holder/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err22];}else {vErrors.push(err22);}errors++;}var _valid0 = _errs9 === errors;if(_valid0 && valid1){valid1 = false;passing0 = [passing0, 1];}else {if(_valid0){valid1 = true;passing0 = 1;}}if(!valid1){const err23 = {instancePath:instancePath+"/holder",schemaPath:"#/properties/holder/oneOf",keyword:"oneOf",params:{passingSchemas: passing0},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err23];}else {vErrors.push(err23);}errors++;}else {errors = _errs6;if(vErrors !== null){if(_errs6){vErrors.length = _errs6;}else {vErrors = null;}}}}if(data.lease_expires_at !== undefined){let data6 = data.lease_expires_at;const _errs20 = errors;let valid4 = false;let passing1 = null;const _errs21 = errors;if(data6 !== null){const err24 = {instancePath:instancePath+"/lease_expires_at",schemaPath:"#/properties/lease_expires_at/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err24];}else {vErrors.push(err24);}errors++;}var _valid1 = _errs21 === errors;if(_valid1){valid4 = true;passing1 = 0;}const _errs23 = errors;if(typeof data6 === "string"){if(!pattern5.test(data6)){const err25 = {instancePath:instancePath+"/lease_expires_at",schemaPath:"#/$defs/timestamp/pattern",keyword:"pattern",params:{pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"},message:"must match pattern \""+"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"+"\""};if(vErrors === null){vErrors = [err25];}else {vErrors.push(err25);}errors++;}}else {const err26 = {instancePath:instancePath+"/lease_expires_at",schemaPath:"#/$defs/timestamp/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err26];}else {vErrors.push(err26);}errors++;}var _valid1 = _errs23 === errors;if(_valid1 && valid4){valid4 = false;passing1 = [passing1, 1];}else {if(_valid1){valid4 = true;passing1 = 1;}}if(!valid4){const err27 = {instancePath:instancePath+"/lease_expires_at",schemaPath:"#/properties/lease_expires_at/oneOf",keyword:"oneOf",params:{passingSchemas: passing1},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err27];}else {vErrors.push(err27);}errors++;}else {errors = _errs20;if(vErrors !== null){if(_errs20){vErrors.length = _errs20;}else {vErrors = null;}}}}}else {const err28 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err28];}else {vErrors.push(err28);}errors++;}validate20.errors = vErrors;return errors === 0;}validate20.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

// EXTERNAL MODULE: ./node_modules/ajv/dist/runtime/ucs2length.js
var ucs2length = __webpack_require__(6214);
;// CONCATENATED MODULE: ./packages/core/src/generated/ledger-root-validator.js
// Generated by scripts/build/generate-validators.mjs from the schema named below. Do not edit.
// Schema: schemas/ledger/ledger-root.schema.json

"use strict";const ledger_root_validator_validate = (/* unused pure expression or super */ null && (ledger_root_validator_validate20));/* harmony default export */ const ledger_root_validator = (ledger_root_validator_validate20);const ledger_root_validator_schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://writ.dev/schemas/ledger/ledger-root.schema.json","type":"object","additionalProperties":false,"required":["schema","repository","branch"],"properties":{"schema":{"const":1},"repository":{"type":"string","maxLength":140,"pattern":"^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$"},"branch":{"type":"string","minLength":1,"maxLength":200,"pattern":"^[A-Za-z0-9][A-Za-z0-9._/-]*$"},"rulesets":{"type":"array","minItems":1,"maxItems":10,"items":{"type":"object","additionalProperties":false,"required":["id","updated_at","digest"],"properties":{"id":{"type":"integer","minimum":1},"updated_at":{"type":["string","null"],"maxLength":40},"digest":{"type":"string","pattern":"^sha256:[0-9a-f]{64}$"}}}}}};const func1 = ucs2length/* default */.A;const ledger_root_validator_pattern4 = new RegExp("^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$", "u");const ledger_root_validator_pattern5 = new RegExp("^[A-Za-z0-9][A-Za-z0-9._/-]*$", "u");const pattern6 = new RegExp("^sha256:[0-9a-f]{64}$", "u");function ledger_root_validator_validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){/*# sourceURL="https://writ.dev/schemas/ledger/ledger-root.schema.json" */;let vErrors = null;let errors = 0;const evaluated0 = ledger_root_validator_validate20.evaluated;if(evaluated0.dynamicProps){evaluated0.props = undefined;}if(evaluated0.dynamicItems){evaluated0.items = undefined;}if(data && typeof data == "object" && !Array.isArray(data)){if(data.schema === undefined){const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "schema"},message:"must have required property '"+"schema"+"'"};if(vErrors === null){vErrors = [err0];}else {vErrors.push(err0);}errors++;}if(data.repository === undefined){const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "repository"},message:"must have required property '"+"repository"+"'"};if(vErrors === null){vErrors = [err1];}else {vErrors.push(err1);}errors++;}if(data.branch === undefined){const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "branch"},message:"must have required property '"+"branch"+"'"};if(vErrors === null){vErrors = [err2];}else {vErrors.push(err2);}errors++;}for(const key0 in data){if(!((((key0 === "schema") || (key0 === "repository")) || (key0 === "branch")) || (key0 === "rulesets"))){const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err3];}else {vErrors.push(err3);}errors++;}}if(data.schema !== undefined){if(1 !== data.schema){const err4 = {instancePath:instancePath+"/schema",schemaPath:"#/properties/schema/const",keyword:"const",params:{allowedValue: 1},message:"must be equal to constant"};if(vErrors === null){vErrors = [err4];}else {vErrors.push(err4);}errors++;}}if(data.repository !== undefined){let data1 = data.repository;if(typeof data1 === "string"){if(func1(data1) > 140){const err5 = {instancePath:instancePath+"/repository",schemaPath:"#/properties/repository/maxLength",keyword:"maxLength",params:{limit: 140},message:"must NOT have more than 140 characters"};if(vErrors === null){vErrors = [err5];}else {vErrors.push(err5);}errors++;}if(!ledger_root_validator_pattern4.test(data1)){const err6 = {instancePath:instancePath+"/repository",schemaPath:"#/properties/repository/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$"},message:"must match pattern \""+"^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$"+"\""};if(vErrors === null){vErrors = [err6];}else {vErrors.push(err6);}errors++;}}else {const err7 = {instancePath:instancePath+"/repository",schemaPath:"#/properties/repository/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err7];}else {vErrors.push(err7);}errors++;}}if(data.branch !== undefined){let data2 = data.branch;if(typeof data2 === "string"){if(func1(data2) > 200){const err8 = {instancePath:instancePath+"/branch",schemaPath:"#/properties/branch/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters"};if(vErrors === null){vErrors = [err8];}else {vErrors.push(err8);}errors++;}if(func1(data2) < 1){const err9 = {instancePath:instancePath+"/branch",schemaPath:"#/properties/branch/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};if(vErrors === null){vErrors = [err9];}else {vErrors.push(err9);}errors++;}if(!ledger_root_validator_pattern5.test(data2)){const err10 = {instancePath:instancePath+"/branch",schemaPath:"#/properties/branch/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9][A-Za-z0-9._/-]*$"},message:"must match pattern \""+"^[A-Za-z0-9][A-Za-z0-9._/-]*$"+"\""};if(vErrors === null){vErrors = [err10];}else {vErrors.push(err10);}errors++;}}else {const err11 = {instancePath:instancePath+"/branch",schemaPath:"#/properties/branch/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err11];}else {vErrors.push(err11);}errors++;}}if(data.rulesets !== undefined){let data3 = data.rulesets;if(Array.isArray(data3)){if(data3.length > 10){const err12 = {instancePath:instancePath+"/rulesets",schemaPath:"#/properties/rulesets/maxItems",keyword:"maxItems",params:{limit: 10},message:"must NOT have more than 10 items"};if(vErrors === null){vErrors = [err12];}else {vErrors.push(err12);}errors++;}if(data3.length < 1){const err13 = {instancePath:instancePath+"/rulesets",schemaPath:"#/properties/rulesets/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};if(vErrors === null){vErrors = [err13];}else {vErrors.push(err13);}errors++;}const len0 = data3.length;for(let i0=0; i0<len0; i0++){let data4 = data3[i0];if(data4 && typeof data4 == "object" && !Array.isArray(data4)){if(data4.id === undefined){const err14 = {instancePath:instancePath+"/rulesets/" + i0,schemaPath:"#/properties/rulesets/items/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};if(vErrors === null){vErrors = [err14];}else {vErrors.push(err14);}errors++;}if(data4.updated_at === undefined){const err15 = {instancePath:instancePath+"/rulesets/" + i0,schemaPath:"#/properties/rulesets/items/required",keyword:"required",params:{missingProperty: "updated_at"},message:"must have required property '"+"updated_at"+"'"};if(vErrors === null){vErrors = [err15];}else {vErrors.push(err15);}errors++;}if(data4.digest === undefined){const err16 = {instancePath:instancePath+"/rulesets/" + i0,schemaPath:"#/properties/rulesets/items/required",keyword:"required",params:{missingProperty: "digest"},message:"must have required property '"+"digest"+"'"};if(vErrors === null){vErrors = [err16];}else {vErrors.push(err16);}errors++;}for(const key1 in data4){if(!(((key1 === "id") || (key1 === "updated_at")) || (key1 === "digest"))){const err17 = {instancePath:instancePath+"/rulesets/" + i0,schemaPath:"#/properties/rulesets/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err17];}else {vErrors.push(err17);}errors++;}}if(data4.id !== undefined){let data5 = data4.id;if(!(((typeof data5 == "number") && (!(data5 % 1) && !isNaN(data5))) && (isFinite(data5)))){const err18 = {instancePath:instancePath+"/rulesets/" + i0+"/id",schemaPath:"#/properties/rulesets/items/properties/id/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err18];}else {vErrors.push(err18);}errors++;}if((typeof data5 == "number") && (isFinite(data5))){if(data5 < 1 || isNaN(data5)){const err19 = {instancePath:instancePath+"/rulesets/" + i0+"/id",schemaPath:"#/properties/rulesets/items/properties/id/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err19];}else {vErrors.push(err19);}errors++;}}}if(data4.updated_at !== undefined){let data6 = data4.updated_at;if((typeof data6 !== "string") && (data6 !== null)){const err20 = {instancePath:instancePath+"/rulesets/" + i0+"/updated_at",schemaPath:"#/properties/rulesets/items/properties/updated_at/type",keyword:"type",params:{type: ledger_root_validator_schema31.properties.rulesets.items.properties.updated_at.type},message:"must be string,null"};if(vErrors === null){vErrors = [err20];}else {vErrors.push(err20);}errors++;}if(typeof data6 === "string"){if(func1(data6) > 40){const err21 = {instancePath:instancePath+"/rulesets/" + i0+"/updated_at",schemaPath:"#/properties/rulesets/items/properties/updated_at/maxLength",keyword:"maxLength",params:{limit: 40},message:"must NOT have more than 40 characters"};if(vErrors === null){vErrors = [err21];}else {vErrors.push(err21);}errors++;}}}if(data4.digest !== undefined){let data7 = data4.digest;if(typeof data7 === "string"){if(!pattern6.test(data7)){const err22 = {instancePath:instancePath+"/rulesets/" + i0+"/digest",schemaPath:"#/properties/rulesets/items/properties/digest/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""};if(vErrors === null){vErrors = [err22];}else {vErrors.push(err22);}errors++;}}else {const err23 = {instancePath:instancePath+"/rulesets/" + i0+"/digest",schemaPath:"#/properties/rulesets/items/properties/digest/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err23];}else {vErrors.push(err23);}errors++;}}}else {const err24 = {instancePath:instancePath+"/rulesets/" + i0,schemaPath:"#/properties/rulesets/items/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err24];}else {vErrors.push(err24);}errors++;}}}else {const err25 = {instancePath:instancePath+"/rulesets",schemaPath:"#/properties/rulesets/type",keyword:"type",params:{type: "array"},message:"must be array"};if(vErrors === null){vErrors = [err25];}else {vErrors.push(err25);}errors++;}}}else {const err26 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err26];}else {vErrors.push(err26);}errors++;}ledger_root_validator_validate20.errors = vErrors;return errors === 0;}ledger_root_validator_validate20.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

;// CONCATENATED MODULE: ./packages/core/src/generated/provenance-validator.js
// Generated by scripts/build/generate-validators.mjs from the schema named below. Do not edit.
// Schema: schemas/ledger/provenance.schema.json

const provenance_validator_validate = (/* unused pure expression or super */ null && (provenance_validator_validate20));/* harmony default export */ const provenance_validator = (provenance_validator_validate20);const provenance_validator_schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://writ.dev/schemas/ledger/provenance.schema.json","type":"object","additionalProperties":false,"required":["schema","root_oid","root_committed_at","verified_through","verified_commits","consumed_run_ids","consumed_comment_ids"],"properties":{"schema":{"const":1},"root_oid":{"$ref":"#/$defs/oid"},"root_committed_at":{"type":"string","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"},"verified_through":{"$ref":"#/$defs/oid"},"verified_commits":{"type":"integer","minimum":1,"maximum":9007199254740991},"consumed_run_ids":{"type":"array","uniqueItems":true,"maxItems":1000000,"items":{"type":"string","pattern":"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"}},"consumed_comment_ids":{"type":"array","uniqueItems":true,"maxItems":1000000,"items":{"type":"integer","minimum":1,"maximum":9007199254740991}},"frozen":{"type":"object","additionalProperties":false,"required":["commit","code","frozen_at"],"properties":{"commit":{"anyOf":[{"$ref":"#/$defs/oid"},{"type":"null"}]},"code":{"type":"string","pattern":"^[a-z][a-z0-9-]{0,63}$"},"frozen_at":{"type":"string","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"}}}},"$defs":{"oid":{"type":"string","pattern":"^[0-9a-f]{40}$"}}};const provenance_validator_schema32 = {"type":"string","pattern":"^[0-9a-f]{40}$"};const provenance_validator_pattern4 = new RegExp("^[0-9a-f]{40}$", "u");const provenance_validator_pattern5 = new RegExp("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$", "u");const pattern7 = new RegExp("^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$", "u");const pattern9 = new RegExp("^[a-z][a-z0-9-]{0,63}$", "u");function provenance_validator_validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){/*# sourceURL="https://writ.dev/schemas/ledger/provenance.schema.json" */;let vErrors = null;let errors = 0;const evaluated0 = provenance_validator_validate20.evaluated;if(evaluated0.dynamicProps){evaluated0.props = undefined;}if(evaluated0.dynamicItems){evaluated0.items = undefined;}if(data && typeof data == "object" && !Array.isArray(data)){if(data.schema === undefined){const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "schema"},message:"must have required property '"+"schema"+"'"};if(vErrors === null){vErrors = [err0];}else {vErrors.push(err0);}errors++;}if(data.root_oid === undefined){const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "root_oid"},message:"must have required property '"+"root_oid"+"'"};if(vErrors === null){vErrors = [err1];}else {vErrors.push(err1);}errors++;}if(data.root_committed_at === undefined){const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "root_committed_at"},message:"must have required property '"+"root_committed_at"+"'"};if(vErrors === null){vErrors = [err2];}else {vErrors.push(err2);}errors++;}if(data.verified_through === undefined){const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "verified_through"},message:"must have required property '"+"verified_through"+"'"};if(vErrors === null){vErrors = [err3];}else {vErrors.push(err3);}errors++;}if(data.verified_commits === undefined){const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "verified_commits"},message:"must have required property '"+"verified_commits"+"'"};if(vErrors === null){vErrors = [err4];}else {vErrors.push(err4);}errors++;}if(data.consumed_run_ids === undefined){const err5 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "consumed_run_ids"},message:"must have required property '"+"consumed_run_ids"+"'"};if(vErrors === null){vErrors = [err5];}else {vErrors.push(err5);}errors++;}if(data.consumed_comment_ids === undefined){const err6 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "consumed_comment_ids"},message:"must have required property '"+"consumed_comment_ids"+"'"};if(vErrors === null){vErrors = [err6];}else {vErrors.push(err6);}errors++;}for(const key0 in data){if(!((((((((key0 === "schema") || (key0 === "root_oid")) || (key0 === "root_committed_at")) || (key0 === "verified_through")) || (key0 === "verified_commits")) || (key0 === "consumed_run_ids")) || (key0 === "consumed_comment_ids")) || (key0 === "frozen"))){const err7 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err7];}else {vErrors.push(err7);}errors++;}}if(data.schema !== undefined){if(1 !== data.schema){const err8 = {instancePath:instancePath+"/schema",schemaPath:"#/properties/schema/const",keyword:"const",params:{allowedValue: 1},message:"must be equal to constant"};if(vErrors === null){vErrors = [err8];}else {vErrors.push(err8);}errors++;}}if(data.root_oid !== undefined){let data1 = data.root_oid;if(typeof data1 === "string"){if(!provenance_validator_pattern4.test(data1)){const err9 = {instancePath:instancePath+"/root_oid",schemaPath:"#/$defs/oid/pattern",keyword:"pattern",params:{pattern: "^[0-9a-f]{40}$"},message:"must match pattern \""+"^[0-9a-f]{40}$"+"\""};if(vErrors === null){vErrors = [err9];}else {vErrors.push(err9);}errors++;}}else {const err10 = {instancePath:instancePath+"/root_oid",schemaPath:"#/$defs/oid/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err10];}else {vErrors.push(err10);}errors++;}}if(data.root_committed_at !== undefined){let data2 = data.root_committed_at;if(typeof data2 === "string"){if(!provenance_validator_pattern5.test(data2)){const err11 = {instancePath:instancePath+"/root_committed_at",schemaPath:"#/properties/root_committed_at/pattern",keyword:"pattern",params:{pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"},message:"must match pattern \""+"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"+"\""};if(vErrors === null){vErrors = [err11];}else {vErrors.push(err11);}errors++;}}else {const err12 = {instancePath:instancePath+"/root_committed_at",schemaPath:"#/properties/root_committed_at/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err12];}else {vErrors.push(err12);}errors++;}}if(data.verified_through !== undefined){let data3 = data.verified_through;if(typeof data3 === "string"){if(!provenance_validator_pattern4.test(data3)){const err13 = {instancePath:instancePath+"/verified_through",schemaPath:"#/$defs/oid/pattern",keyword:"pattern",params:{pattern: "^[0-9a-f]{40}$"},message:"must match pattern \""+"^[0-9a-f]{40}$"+"\""};if(vErrors === null){vErrors = [err13];}else {vErrors.push(err13);}errors++;}}else {const err14 = {instancePath:instancePath+"/verified_through",schemaPath:"#/$defs/oid/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err14];}else {vErrors.push(err14);}errors++;}}if(data.verified_commits !== undefined){let data4 = data.verified_commits;if(!(((typeof data4 == "number") && (!(data4 % 1) && !isNaN(data4))) && (isFinite(data4)))){const err15 = {instancePath:instancePath+"/verified_commits",schemaPath:"#/properties/verified_commits/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err15];}else {vErrors.push(err15);}errors++;}if((typeof data4 == "number") && (isFinite(data4))){if(data4 > 9007199254740991 || isNaN(data4)){const err16 = {instancePath:instancePath+"/verified_commits",schemaPath:"#/properties/verified_commits/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err16];}else {vErrors.push(err16);}errors++;}if(data4 < 1 || isNaN(data4)){const err17 = {instancePath:instancePath+"/verified_commits",schemaPath:"#/properties/verified_commits/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err17];}else {vErrors.push(err17);}errors++;}}}if(data.consumed_run_ids !== undefined){let data5 = data.consumed_run_ids;if(Array.isArray(data5)){if(data5.length > 1000000){const err18 = {instancePath:instancePath+"/consumed_run_ids",schemaPath:"#/properties/consumed_run_ids/maxItems",keyword:"maxItems",params:{limit: 1000000},message:"must NOT have more than 1000000 items"};if(vErrors === null){vErrors = [err18];}else {vErrors.push(err18);}errors++;}const len0 = data5.length;for(let i0=0; i0<len0; i0++){let data6 = data5[i0];if(typeof data6 === "string"){if(!pattern7.test(data6)){const err19 = {instancePath:instancePath+"/consumed_run_ids/" + i0,schemaPath:"#/properties/consumed_run_ids/items/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"},message:"must match pattern \""+"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"+"\""};if(vErrors === null){vErrors = [err19];}else {vErrors.push(err19);}errors++;}}else {const err20 = {instancePath:instancePath+"/consumed_run_ids/" + i0,schemaPath:"#/properties/consumed_run_ids/items/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err20];}else {vErrors.push(err20);}errors++;}}let i1 = data5.length;let j0;if(i1 > 1){const indices0 = {};for(;i1--;){let item0 = data5[i1];if(typeof item0 !== "string"){continue;}if(typeof indices0[item0] == "number"){j0 = indices0[item0];const err21 = {instancePath:instancePath+"/consumed_run_ids",schemaPath:"#/properties/consumed_run_ids/uniqueItems",keyword:"uniqueItems",params:{i: i1, j: j0},message:"must NOT have duplicate items (items ## "+j0+" and "+i1+" are identical)"};if(vErrors === null){vErrors = [err21];}else {vErrors.push(err21);}errors++;break;}indices0[item0] = i1;}}}else {const err22 = {instancePath:instancePath+"/consumed_run_ids",schemaPath:"#/properties/consumed_run_ids/type",keyword:"type",params:{type: "array"},message:"must be array"};if(vErrors === null){vErrors = [err22];}else {vErrors.push(err22);}errors++;}}if(data.consumed_comment_ids !== undefined){let data7 = data.consumed_comment_ids;if(Array.isArray(data7)){if(data7.length > 1000000){const err23 = {instancePath:instancePath+"/consumed_comment_ids",schemaPath:"#/properties/consumed_comment_ids/maxItems",keyword:"maxItems",params:{limit: 1000000},message:"must NOT have more than 1000000 items"};if(vErrors === null){vErrors = [err23];}else {vErrors.push(err23);}errors++;}const len1 = data7.length;for(let i2=0; i2<len1; i2++){let data8 = data7[i2];if(!(((typeof data8 == "number") && (!(data8 % 1) && !isNaN(data8))) && (isFinite(data8)))){const err24 = {instancePath:instancePath+"/consumed_comment_ids/" + i2,schemaPath:"#/properties/consumed_comment_ids/items/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err24];}else {vErrors.push(err24);}errors++;}if((typeof data8 == "number") && (isFinite(data8))){if(data8 > 9007199254740991 || isNaN(data8)){const err25 = {instancePath:instancePath+"/consumed_comment_ids/" + i2,schemaPath:"#/properties/consumed_comment_ids/items/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err25];}else {vErrors.push(err25);}errors++;}if(data8 < 1 || isNaN(data8)){const err26 = {instancePath:instancePath+"/consumed_comment_ids/" + i2,schemaPath:"#/properties/consumed_comment_ids/items/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err26];}else {vErrors.push(err26);}errors++;}}}let i3 = data7.length;let j1;if(i3 > 1){const indices1 = {};for(;i3--;){let item1 = data7[i3];if(!(((typeof item1 == "number") && (!(item1 % 1) && !isNaN(item1))) && (isFinite(item1)))){continue;}if(typeof indices1[item1] == "number"){j1 = indices1[item1];const err27 = {instancePath:instancePath+"/consumed_comment_ids",schemaPath:"#/properties/consumed_comment_ids/uniqueItems",keyword:"uniqueItems",params:{i: i3, j: j1},message:"must NOT have duplicate items (items ## "+j1+" and "+i3+" are identical)"};if(vErrors === null){vErrors = [err27];}else {vErrors.push(err27);}errors++;break;}indices1[item1] = i3;}}}else {const err28 = {instancePath:instancePath+"/consumed_comment_ids",schemaPath:"#/properties/consumed_comment_ids/type",keyword:"type",params:{type: "array"},message:"must be array"};if(vErrors === null){vErrors = [err28];}else {vErrors.push(err28);}errors++;}}if(data.frozen !== undefined){let data9 = data.frozen;if(data9 && typeof data9 == "object" && !Array.isArray(data9)){if(data9.commit === undefined){const err29 = {instancePath:instancePath+"/frozen",schemaPath:"#/properties/frozen/required",keyword:"required",params:{missingProperty: "commit"},message:"must have required property '"+"commit"+"'"};if(vErrors === null){vErrors = [err29];}else {vErrors.push(err29);}errors++;}if(data9.code === undefined){const err30 = {instancePath:instancePath+"/frozen",schemaPath:"#/properties/frozen/required",keyword:"required",params:{missingProperty: "code"},message:"must have required property '"+"code"+"'"};if(vErrors === null){vErrors = [err30];}else {vErrors.push(err30);}errors++;}if(data9.frozen_at === undefined){const err31 = {instancePath:instancePath+"/frozen",schemaPath:"#/properties/frozen/required",keyword:"required",params:{missingProperty: "frozen_at"},message:"must have required property '"+"frozen_at"+"'"};if(vErrors === null){vErrors = [err31];}else {vErrors.push(err31);}errors++;}for(const key1 in data9){if(!(((key1 === "commit") || (key1 === "code")) || (key1 === "frozen_at"))){const err32 = {instancePath:instancePath+"/frozen",schemaPath:"#/properties/frozen/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err32];}else {vErrors.push(err32);}errors++;}}if(data9.commit !== undefined){let data10 = data9.commit;const _errs25 = errors;let valid10 = false;const _errs26 = errors;if(typeof data10 === "string"){if(!provenance_validator_pattern4.test(data10)){const err33 = {instancePath:instancePath+"/frozen/commit",schemaPath:"#/$defs/oid/pattern",keyword:"pattern",params:{pattern: "^[0-9a-f]{40}$"},message:"must match pattern \""+"^[0-9a-f]{40}$"+"\""};if(vErrors === null){vErrors = [err33];}else {vErrors.push(err33);}errors++;}}else {const err34 = {instancePath:instancePath+"/frozen/commit",schemaPath:"#/$defs/oid/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err34];}else {vErrors.push(err34);}errors++;}var _valid0 = _errs26 === errors;valid10 = valid10 || _valid0;const _errs29 = errors;if(data10 !== null){const err35 = {instancePath:instancePath+"/frozen/commit",schemaPath:"#/properties/frozen/properties/commit/anyOf/1/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err35];}else {vErrors.push(err35);}errors++;}var _valid0 = _errs29 === errors;valid10 = valid10 || _valid0;if(!valid10){const err36 = {instancePath:instancePath+"/frozen/commit",schemaPath:"#/properties/frozen/properties/commit/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf"};if(vErrors === null){vErrors = [err36];}else {vErrors.push(err36);}errors++;}else {errors = _errs25;if(vErrors !== null){if(_errs25){vErrors.length = _errs25;}else {vErrors = null;}}}}if(data9.code !== undefined){let data11 = data9.code;if(typeof data11 === "string"){if(!pattern9.test(data11)){const err37 = {instancePath:instancePath+"/frozen/code",schemaPath:"#/properties/frozen/properties/code/pattern",keyword:"pattern",params:{pattern: "^[a-z][a-z0-9-]{0,63}$"},message:"must match pattern \""+"^[a-z][a-z0-9-]{0,63}$"+"\""};if(vErrors === null){vErrors = [err37];}else {vErrors.push(err37);}errors++;}}else {const err38 = {instancePath:instancePath+"/frozen/code",schemaPath:"#/properties/frozen/properties/code/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err38];}else {vErrors.push(err38);}errors++;}}if(data9.frozen_at !== undefined){let data12 = data9.frozen_at;if(typeof data12 === "string"){if(!provenance_validator_pattern5.test(data12)){const err39 = {instancePath:instancePath+"/frozen/frozen_at",schemaPath:"#/properties/frozen/properties/frozen_at/pattern",keyword:"pattern",params:{pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"},message:"must match pattern \""+"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"+"\""};if(vErrors === null){vErrors = [err39];}else {vErrors.push(err39);}errors++;}}else {const err40 = {instancePath:instancePath+"/frozen/frozen_at",schemaPath:"#/properties/frozen/properties/frozen_at/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err40];}else {vErrors.push(err40);}errors++;}}}else {const err41 = {instancePath:instancePath+"/frozen",schemaPath:"#/properties/frozen/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err41];}else {vErrors.push(err41);}errors++;}}}else {const err42 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err42];}else {vErrors.push(err42);}errors++;}provenance_validator_validate20.errors = vErrors;return errors === 0;}provenance_validator_validate20.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

;// CONCATENATED MODULE: ./packages/core/src/generated/run-validator.js
// Generated by scripts/build/generate-validators.mjs from the schema named below. Do not edit.
// Schema: schemas/ledger/run.schema.json

"use strict";const run_validator_validate = (/* unused pure expression or super */ null && (run_validator_validate20));/* harmony default export */ const run_validator = (run_validator_validate20);const run_validator_schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://writ.dev/schemas/ledger/run.schema.json","type":"object","additionalProperties":false,"required":["schema","repository","run_id","plan_digest","evidence_digest","scope","bounds","state","approval","owner","steps","stop_reason","blockers","proposed_at"],"properties":{"schema":{"const":1},"repository":{"$ref":"#/$defs/repository"},"run_id":{"$ref":"#/$defs/runId"},"plan_digest":{"$ref":"#/$defs/digest"},"evidence_digest":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/digest"}]},"scope":{"type":"object","additionalProperties":false,"required":["repository","digest"],"properties":{"repository":{"$ref":"#/$defs/repository"},"digest":{"$ref":"#/$defs/digest"}}},"bounds":{"type":"object","additionalProperties":false,"required":["max_steps"],"properties":{"max_steps":{"type":"integer","minimum":1,"maximum":1000},"max_creates":{"type":"integer","minimum":0,"maximum":1000},"max_issues_touched":{"type":"integer","minimum":0,"maximum":10000}}},"state":{"enum":["proposed","approved","running","completed","failed","cancelled","needs-reconciliation"]},"approval":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/approval"}]},"owner":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/owner"}]},"steps":{"type":"array","minItems":1,"maxItems":1000,"items":{"$ref":"#/$defs/step"}},"stop_reason":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/code"}]},"blockers":{"type":"array","maxItems":100,"items":{"$ref":"#/$defs/code"}},"proposed_at":{"$ref":"#/$defs/timestamp"},"proposer":{"oneOf":[{"type":"null"},{"type":"object","additionalProperties":false,"required":["actor_id"],"properties":{"actor_id":{"$ref":"#/$defs/id"}}}]},"status_comment":{"oneOf":[{"type":"null"},{"type":"object","additionalProperties":false,"required":["issue_number","comment_id","body_digest","pending_digest"],"properties":{"issue_number":{"$ref":"#/$defs/id"},"comment_id":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/id"}]},"body_digest":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/digest"}]},"pending_digest":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/digest"}]},"reserved_at":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/timestamp"}]}}}]},"preview":{"type":"object","additionalProperties":false,"required":["base_sha","risk","warnings"],"properties":{"base_sha":{"type":"string","pattern":"^[0-9a-f]{40}([0-9a-f]{24})?$"},"risk":{"enum":["low","medium","high"]},"warnings":{"type":"array","maxItems":5000,"items":{"type":"object","additionalProperties":false,"required":["code","step"],"properties":{"code":{"enum":["policy-invalid","base-moved","write-outside-scope","many-creates","kind-closed-by-policy"]},"step":{"oneOf":[{"type":"null"},{"type":"string","minLength":1,"maxLength":64,"pattern":"^[a-z0-9][a-z0-9._-]*$"}]}}}}}},"cancelled_by":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/actor"}]},"artifact":{"oneOf":[{"type":"null"},{"type":"object","additionalProperties":false,"required":["commit_oid","pr_number","content_digest","epoch"],"properties":{"epoch":{"type":"integer","minimum":1},"commit_oid":{"type":"string","pattern":"^[0-9a-f]{40}$"},"pr_number":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/id"}]},"content_digest":{"$ref":"#/$defs/digest"}}}]}},"$defs":{"receipt":{"type":"object","additionalProperties":false,"required":["idempotency_key","key_scope","outcome"],"properties":{"idempotency_key":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[a-z0-9][a-z0-9._:-]*$"},"key_scope":{"enum":["repository","run"]},"outcome":{"enum":["created","exists","inconclusive",null]}}},"repository":{"type":"string","maxLength":140,"pattern":"^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$"},"runId":{"type":"string","pattern":"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"},"digest":{"type":"string","pattern":"^sha256:[0-9a-f]{64}$"},"timestamp":{"type":"string","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"},"id":{"type":"integer","minimum":1,"maximum":9007199254740991},"login":{"type":"string","pattern":"^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}(?:\\[bot\\])?$"},"code":{"type":"string","maxLength":64,"pattern":"^[a-z0-9]+(?:-[a-z0-9]+)*$"},"holder":{"type":"object","additionalProperties":false,"required":["run_id","workflow_run_id","attempt"],"properties":{"run_id":{"$ref":"#/$defs/runId"},"workflow_run_id":{"type":"integer","minimum":0,"maximum":9007199254740991},"attempt":{"type":"integer","minimum":1,"maximum":1000000}}},"owner":{"type":"object","additionalProperties":false,"required":["epoch","holder"],"properties":{"epoch":{"type":"integer","minimum":1,"maximum":9007199254740991},"holder":{"$ref":"#/$defs/holder"}}},"approval":{"type":"object","additionalProperties":false,"required":["actor_login","actor_id","role_name","comment_id","comment_url","digest","consumed_at","epoch"],"properties":{"actor_login":{"$ref":"#/$defs/login"},"actor_id":{"$ref":"#/$defs/id"},"role_name":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[A-Za-z0-9][A-Za-z0-9 _.-]*$"},"comment_id":{"$ref":"#/$defs/id"},"comment_url":{"type":"string","maxLength":400,"pattern":"^https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?/[A-Za-z0-9._/-]{1,300}#issuecomment-[0-9]{1,20}$"},"digest":{"$ref":"#/$defs/digest"},"consumed_at":{"$ref":"#/$defs/timestamp"},"epoch":{"type":"integer","minimum":1,"maximum":9007199254740991}}},"actor":{"type":"object","additionalProperties":false,"required":["actor_login","actor_id","role_name"],"properties":{"actor_login":{"$ref":"#/$defs/login"},"actor_id":{"$ref":"#/$defs/id"},"role_name":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[A-Za-z0-9][A-Za-z0-9 _.-]*$"}}},"step":{"type":"object","additionalProperties":false,"required":["id","kind","status","epoch","pre_state_digest","evidence","resources","reconciled_by"],"properties":{"receipt":{"$ref":"#/$defs/receipt"},"id":{"type":"string","minLength":1,"maxLength":64,"pattern":"^[a-z0-9][a-z0-9._-]*$"},"kind":{"enum":["milestone.upsert","milestone.edit","issue.set-milestone","issue.labels","issue.create","comment.upsert","external"]},"status":{"enum":["pending","claimed","done","conflict","failed"]},"epoch":{"oneOf":[{"type":"null"},{"type":"integer","minimum":1,"maximum":9007199254740991}]},"pre_state_digest":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/digest"}]},"evidence":{"oneOf":[{"type":"null"},{"type":"object","additionalProperties":false,"required":["status_code","error_code"],"properties":{"status_code":{"oneOf":[{"type":"null"},{"type":"integer","minimum":100,"maximum":599}]},"error_code":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/code"}]}}}]},"resources":{"type":"array","maxItems":100,"items":{"$ref":"#/$defs/id"}},"reconciled_by":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/actor"}]}}}}};const run_validator_schema32 = {"type":"string","maxLength":140,"pattern":"^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$"};const run_validator_schema33 = {"type":"string","pattern":"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"};const schema34 = {"type":"string","pattern":"^sha256:[0-9a-f]{64}$"};const schema50 = {"type":"string","maxLength":64,"pattern":"^[a-z0-9]+(?:-[a-z0-9]+)*$"};const schema43 = {"type":"string","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"};const schema40 = {"type":"integer","minimum":1,"maximum":9007199254740991};const run_validator_func1 = Object.prototype.hasOwnProperty;const func2 = ucs2length/* default */.A;const run_validator_pattern4 = new RegExp("^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$", "u");const run_validator_pattern5 = new RegExp("^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$", "u");const run_validator_pattern6 = new RegExp("^sha256:[0-9a-f]{64}$", "u");const pattern19 = new RegExp("^[a-z0-9]+(?:-[a-z0-9]+)*$", "u");const pattern14 = new RegExp("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$", "u");const pattern28 = new RegExp("^[0-9a-f]{40}([0-9a-f]{24})?$", "u");const pattern17 = new RegExp("^[a-z0-9][a-z0-9._-]*$", "u");const pattern30 = new RegExp("^[0-9a-f]{40}$", "u");const schema38 = {"type":"object","additionalProperties":false,"required":["actor_login","actor_id","role_name","comment_id","comment_url","digest","consumed_at","epoch"],"properties":{"actor_login":{"$ref":"#/$defs/login"},"actor_id":{"$ref":"#/$defs/id"},"role_name":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[A-Za-z0-9][A-Za-z0-9 _.-]*$"},"comment_id":{"$ref":"#/$defs/id"},"comment_url":{"type":"string","maxLength":400,"pattern":"^https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?/[A-Za-z0-9._/-]{1,300}#issuecomment-[0-9]{1,20}$"},"digest":{"$ref":"#/$defs/digest"},"consumed_at":{"$ref":"#/$defs/timestamp"},"epoch":{"type":"integer","minimum":1,"maximum":9007199254740991}}};const schema39 = {"type":"string","pattern":"^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}(?:\\[bot\\])?$"};const pattern10 = new RegExp("^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}(?:\\[bot\\])?$", "u");const pattern11 = new RegExp("^[A-Za-z0-9][A-Za-z0-9 _.-]*$", "u");const pattern12 = new RegExp("^https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?/[A-Za-z0-9._/-]{1,300}#issuecomment-[0-9]{1,20}$", "u");function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){let vErrors = null;let errors = 0;const evaluated0 = validate21.evaluated;if(evaluated0.dynamicProps){evaluated0.props = undefined;}if(evaluated0.dynamicItems){evaluated0.items = undefined;}if(data && typeof data == "object" && !Array.isArray(data)){if(data.actor_login === undefined){const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "actor_login"},message:"must have required property '"+"actor_login"+"'"};if(vErrors === null){vErrors = [err0];}else {vErrors.push(err0);}errors++;}if(data.actor_id === undefined){const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "actor_id"},message:"must have required property '"+"actor_id"+"'"};if(vErrors === null){vErrors = [err1];}else {vErrors.push(err1);}errors++;}if(data.role_name === undefined){const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "role_name"},message:"must have required property '"+"role_name"+"'"};if(vErrors === null){vErrors = [err2];}else {vErrors.push(err2);}errors++;}if(data.comment_id === undefined){const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "comment_id"},message:"must have required property '"+"comment_id"+"'"};if(vErrors === null){vErrors = [err3];}else {vErrors.push(err3);}errors++;}if(data.comment_url === undefined){const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "comment_url"},message:"must have required property '"+"comment_url"+"'"};if(vErrors === null){vErrors = [err4];}else {vErrors.push(err4);}errors++;}if(data.digest === undefined){const err5 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "digest"},message:"must have required property '"+"digest"+"'"};if(vErrors === null){vErrors = [err5];}else {vErrors.push(err5);}errors++;}if(data.consumed_at === undefined){const err6 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "consumed_at"},message:"must have required property '"+"consumed_at"+"'"};if(vErrors === null){vErrors = [err6];}else {vErrors.push(err6);}errors++;}if(data.epoch === undefined){const err7 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "epoch"},message:"must have required property '"+"epoch"+"'"};if(vErrors === null){vErrors = [err7];}else {vErrors.push(err7);}errors++;}for(const key0 in data){if(!((((((((key0 === "actor_login") || (key0 === "actor_id")) || (key0 === "role_name")) || (key0 === "comment_id")) || (key0 === "comment_url")) || (key0 === "digest")) || (key0 === "consumed_at")) || (key0 === "epoch"))){const err8 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err8];}else {vErrors.push(err8);}errors++;}}if(data.actor_login !== undefined){let data0 = data.actor_login;if(typeof data0 === "string"){if(!pattern10.test(data0)){const err9 = {instancePath:instancePath+"/actor_login",schemaPath:"#/$defs/login/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}(?:\\[bot\\])?$"},message:"must match pattern \""+"^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}(?:\\[bot\\])?$"+"\""};if(vErrors === null){vErrors = [err9];}else {vErrors.push(err9);}errors++;}}else {const err10 = {instancePath:instancePath+"/actor_login",schemaPath:"#/$defs/login/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err10];}else {vErrors.push(err10);}errors++;}}if(data.actor_id !== undefined){let data1 = data.actor_id;if(!(((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1))) && (isFinite(data1)))){const err11 = {instancePath:instancePath+"/actor_id",schemaPath:"#/$defs/id/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err11];}else {vErrors.push(err11);}errors++;}if((typeof data1 == "number") && (isFinite(data1))){if(data1 > 9007199254740991 || isNaN(data1)){const err12 = {instancePath:instancePath+"/actor_id",schemaPath:"#/$defs/id/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err12];}else {vErrors.push(err12);}errors++;}if(data1 < 1 || isNaN(data1)){const err13 = {instancePath:instancePath+"/actor_id",schemaPath:"#/$defs/id/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err13];}else {vErrors.push(err13);}errors++;}}}if(data.role_name !== undefined){let data2 = data.role_name;if(typeof data2 === "string"){if(func2(data2) > 100){const err14 = {instancePath:instancePath+"/role_name",schemaPath:"#/properties/role_name/maxLength",keyword:"maxLength",params:{limit: 100},message:"must NOT have more than 100 characters"};if(vErrors === null){vErrors = [err14];}else {vErrors.push(err14);}errors++;}if(func2(data2) < 1){const err15 = {instancePath:instancePath+"/role_name",schemaPath:"#/properties/role_name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};if(vErrors === null){vErrors = [err15];}else {vErrors.push(err15);}errors++;}if(!pattern11.test(data2)){const err16 = {instancePath:instancePath+"/role_name",schemaPath:"#/properties/role_name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9][A-Za-z0-9 _.-]*$"},message:"must match pattern \""+"^[A-Za-z0-9][A-Za-z0-9 _.-]*$"+"\""};if(vErrors === null){vErrors = [err16];}else {vErrors.push(err16);}errors++;}}else {const err17 = {instancePath:instancePath+"/role_name",schemaPath:"#/properties/role_name/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err17];}else {vErrors.push(err17);}errors++;}}if(data.comment_id !== undefined){let data3 = data.comment_id;if(!(((typeof data3 == "number") && (!(data3 % 1) && !isNaN(data3))) && (isFinite(data3)))){const err18 = {instancePath:instancePath+"/comment_id",schemaPath:"#/$defs/id/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err18];}else {vErrors.push(err18);}errors++;}if((typeof data3 == "number") && (isFinite(data3))){if(data3 > 9007199254740991 || isNaN(data3)){const err19 = {instancePath:instancePath+"/comment_id",schemaPath:"#/$defs/id/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err19];}else {vErrors.push(err19);}errors++;}if(data3 < 1 || isNaN(data3)){const err20 = {instancePath:instancePath+"/comment_id",schemaPath:"#/$defs/id/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err20];}else {vErrors.push(err20);}errors++;}}}if(data.comment_url !== undefined){let data4 = data.comment_url;if(typeof data4 === "string"){if(func2(data4) > 400){const err21 = {instancePath:instancePath+"/comment_url",schemaPath:"#/properties/comment_url/maxLength",keyword:"maxLength",params:{limit: 400},message:"must NOT have more than 400 characters"};if(vErrors === null){vErrors = [err21];}else {vErrors.push(err21);}errors++;}if(!pattern12.test(data4)){const err22 = {instancePath:instancePath+"/comment_url",schemaPath:"#/properties/comment_url/pattern",keyword:"pattern",params:{pattern: "^https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?/[A-Za-z0-9._/-]{1,300}#issuecomment-[0-9]{1,20}$"},message:"must match pattern \""+"^https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?/[A-Za-z0-9._/-]{1,300}#issuecomment-[0-9]{1,20}$"+"\""};if(vErrors === null){vErrors = [err22];}else {vErrors.push(err22);}errors++;}}else {const err23 = {instancePath:instancePath+"/comment_url",schemaPath:"#/properties/comment_url/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err23];}else {vErrors.push(err23);}errors++;}}if(data.digest !== undefined){let data5 = data.digest;if(typeof data5 === "string"){if(!run_validator_pattern6.test(data5)){const err24 = {instancePath:instancePath+"/digest",schemaPath:"#/$defs/digest/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""};if(vErrors === null){vErrors = [err24];}else {vErrors.push(err24);}errors++;}}else {const err25 = {instancePath:instancePath+"/digest",schemaPath:"#/$defs/digest/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err25];}else {vErrors.push(err25);}errors++;}}if(data.consumed_at !== undefined){let data6 = data.consumed_at;if(typeof data6 === "string"){if(!pattern14.test(data6)){const err26 = {instancePath:instancePath+"/consumed_at",schemaPath:"#/$defs/timestamp/pattern",keyword:"pattern",params:{pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"},message:"must match pattern \""+"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"+"\""};if(vErrors === null){vErrors = [err26];}else {vErrors.push(err26);}errors++;}}else {const err27 = {instancePath:instancePath+"/consumed_at",schemaPath:"#/$defs/timestamp/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err27];}else {vErrors.push(err27);}errors++;}}if(data.epoch !== undefined){let data7 = data.epoch;if(!(((typeof data7 == "number") && (!(data7 % 1) && !isNaN(data7))) && (isFinite(data7)))){const err28 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err28];}else {vErrors.push(err28);}errors++;}if((typeof data7 == "number") && (isFinite(data7))){if(data7 > 9007199254740991 || isNaN(data7)){const err29 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err29];}else {vErrors.push(err29);}errors++;}if(data7 < 1 || isNaN(data7)){const err30 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err30];}else {vErrors.push(err30);}errors++;}}}}else {const err31 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err31];}else {vErrors.push(err31);}errors++;}validate21.errors = vErrors;return errors === 0;}validate21.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};const schema44 = {"type":"object","additionalProperties":false,"required":["epoch","holder"],"properties":{"epoch":{"type":"integer","minimum":1,"maximum":9007199254740991},"holder":{"$ref":"#/$defs/holder"}}};const schema45 = {"type":"object","additionalProperties":false,"required":["run_id","workflow_run_id","attempt"],"properties":{"run_id":{"$ref":"#/$defs/runId"},"workflow_run_id":{"type":"integer","minimum":0,"maximum":9007199254740991},"attempt":{"type":"integer","minimum":1,"maximum":1000000}}};function validate24(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){let vErrors = null;let errors = 0;const evaluated0 = validate24.evaluated;if(evaluated0.dynamicProps){evaluated0.props = undefined;}if(evaluated0.dynamicItems){evaluated0.items = undefined;}if(data && typeof data == "object" && !Array.isArray(data)){if(data.run_id === undefined){const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "run_id"},message:"must have required property '"+"run_id"+"'"};if(vErrors === null){vErrors = [err0];}else {vErrors.push(err0);}errors++;}if(data.workflow_run_id === undefined){const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "workflow_run_id"},message:"must have required property '"+"workflow_run_id"+"'"};if(vErrors === null){vErrors = [err1];}else {vErrors.push(err1);}errors++;}if(data.attempt === undefined){const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "attempt"},message:"must have required property '"+"attempt"+"'"};if(vErrors === null){vErrors = [err2];}else {vErrors.push(err2);}errors++;}for(const key0 in data){if(!(((key0 === "run_id") || (key0 === "workflow_run_id")) || (key0 === "attempt"))){const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err3];}else {vErrors.push(err3);}errors++;}}if(data.run_id !== undefined){let data0 = data.run_id;if(typeof data0 === "string"){if(!run_validator_pattern5.test(data0)){const err4 = {instancePath:instancePath+"/run_id",schemaPath:"#/$defs/runId/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"},message:"must match pattern \""+"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"+"\""};if(vErrors === null){vErrors = [err4];}else {vErrors.push(err4);}errors++;}}else {const err5 = {instancePath:instancePath+"/run_id",schemaPath:"#/$defs/runId/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err5];}else {vErrors.push(err5);}errors++;}}if(data.workflow_run_id !== undefined){let data1 = data.workflow_run_id;if(!(((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1))) && (isFinite(data1)))){const err6 = {instancePath:instancePath+"/workflow_run_id",schemaPath:"#/properties/workflow_run_id/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err6];}else {vErrors.push(err6);}errors++;}if((typeof data1 == "number") && (isFinite(data1))){if(data1 > 9007199254740991 || isNaN(data1)){const err7 = {instancePath:instancePath+"/workflow_run_id",schemaPath:"#/properties/workflow_run_id/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err7];}else {vErrors.push(err7);}errors++;}if(data1 < 0 || isNaN(data1)){const err8 = {instancePath:instancePath+"/workflow_run_id",schemaPath:"#/properties/workflow_run_id/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};if(vErrors === null){vErrors = [err8];}else {vErrors.push(err8);}errors++;}}}if(data.attempt !== undefined){let data2 = data.attempt;if(!(((typeof data2 == "number") && (!(data2 % 1) && !isNaN(data2))) && (isFinite(data2)))){const err9 = {instancePath:instancePath+"/attempt",schemaPath:"#/properties/attempt/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err9];}else {vErrors.push(err9);}errors++;}if((typeof data2 == "number") && (isFinite(data2))){if(data2 > 1000000 || isNaN(data2)){const err10 = {instancePath:instancePath+"/attempt",schemaPath:"#/properties/attempt/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000000},message:"must be <= 1000000"};if(vErrors === null){vErrors = [err10];}else {vErrors.push(err10);}errors++;}if(data2 < 1 || isNaN(data2)){const err11 = {instancePath:instancePath+"/attempt",schemaPath:"#/properties/attempt/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err11];}else {vErrors.push(err11);}errors++;}}}}else {const err12 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err12];}else {vErrors.push(err12);}errors++;}validate24.errors = vErrors;return errors === 0;}validate24.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};function validate23(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){let vErrors = null;let errors = 0;const evaluated0 = validate23.evaluated;if(evaluated0.dynamicProps){evaluated0.props = undefined;}if(evaluated0.dynamicItems){evaluated0.items = undefined;}if(data && typeof data == "object" && !Array.isArray(data)){if(data.epoch === undefined){const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "epoch"},message:"must have required property '"+"epoch"+"'"};if(vErrors === null){vErrors = [err0];}else {vErrors.push(err0);}errors++;}if(data.holder === undefined){const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "holder"},message:"must have required property '"+"holder"+"'"};if(vErrors === null){vErrors = [err1];}else {vErrors.push(err1);}errors++;}for(const key0 in data){if(!((key0 === "epoch") || (key0 === "holder"))){const err2 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err2];}else {vErrors.push(err2);}errors++;}}if(data.epoch !== undefined){let data0 = data.epoch;if(!(((typeof data0 == "number") && (!(data0 % 1) && !isNaN(data0))) && (isFinite(data0)))){const err3 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err3];}else {vErrors.push(err3);}errors++;}if((typeof data0 == "number") && (isFinite(data0))){if(data0 > 9007199254740991 || isNaN(data0)){const err4 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err4];}else {vErrors.push(err4);}errors++;}if(data0 < 1 || isNaN(data0)){const err5 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err5];}else {vErrors.push(err5);}errors++;}}}if(data.holder !== undefined){if(!(validate24(data.holder, {instancePath:instancePath+"/holder",parentData:data,parentDataProperty:"holder",rootData,dynamicAnchors}))){vErrors = vErrors === null ? validate24.errors : vErrors.concat(validate24.errors);errors = vErrors.length;}}}else {const err6 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err6];}else {vErrors.push(err6);}errors++;}validate23.errors = vErrors;return errors === 0;}validate23.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};const schema47 = {"type":"object","additionalProperties":false,"required":["id","kind","status","epoch","pre_state_digest","evidence","resources","reconciled_by"],"properties":{"receipt":{"$ref":"#/$defs/receipt"},"id":{"type":"string","minLength":1,"maxLength":64,"pattern":"^[a-z0-9][a-z0-9._-]*$"},"kind":{"enum":["milestone.upsert","milestone.edit","issue.set-milestone","issue.labels","issue.create","comment.upsert","external"]},"status":{"enum":["pending","claimed","done","conflict","failed"]},"epoch":{"oneOf":[{"type":"null"},{"type":"integer","minimum":1,"maximum":9007199254740991}]},"pre_state_digest":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/digest"}]},"evidence":{"oneOf":[{"type":"null"},{"type":"object","additionalProperties":false,"required":["status_code","error_code"],"properties":{"status_code":{"oneOf":[{"type":"null"},{"type":"integer","minimum":100,"maximum":599}]},"error_code":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/code"}]}}}]},"resources":{"type":"array","maxItems":100,"items":{"$ref":"#/$defs/id"}},"reconciled_by":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/actor"}]}}};const schema48 = {"type":"object","additionalProperties":false,"required":["idempotency_key","key_scope","outcome"],"properties":{"idempotency_key":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[a-z0-9][a-z0-9._:-]*$"},"key_scope":{"enum":["repository","run"]},"outcome":{"enum":["created","exists","inconclusive",null]}}};const pattern16 = new RegExp("^[a-z0-9][a-z0-9._:-]*$", "u");const schema52 = {"type":"object","additionalProperties":false,"required":["actor_login","actor_id","role_name"],"properties":{"actor_login":{"$ref":"#/$defs/login"},"actor_id":{"$ref":"#/$defs/id"},"role_name":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[A-Za-z0-9][A-Za-z0-9 _.-]*$"}}};function validate28(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){let vErrors = null;let errors = 0;const evaluated0 = validate28.evaluated;if(evaluated0.dynamicProps){evaluated0.props = undefined;}if(evaluated0.dynamicItems){evaluated0.items = undefined;}if(data && typeof data == "object" && !Array.isArray(data)){if(data.actor_login === undefined){const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "actor_login"},message:"must have required property '"+"actor_login"+"'"};if(vErrors === null){vErrors = [err0];}else {vErrors.push(err0);}errors++;}if(data.actor_id === undefined){const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "actor_id"},message:"must have required property '"+"actor_id"+"'"};if(vErrors === null){vErrors = [err1];}else {vErrors.push(err1);}errors++;}if(data.role_name === undefined){const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "role_name"},message:"must have required property '"+"role_name"+"'"};if(vErrors === null){vErrors = [err2];}else {vErrors.push(err2);}errors++;}for(const key0 in data){if(!(((key0 === "actor_login") || (key0 === "actor_id")) || (key0 === "role_name"))){const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err3];}else {vErrors.push(err3);}errors++;}}if(data.actor_login !== undefined){let data0 = data.actor_login;if(typeof data0 === "string"){if(!pattern10.test(data0)){const err4 = {instancePath:instancePath+"/actor_login",schemaPath:"#/$defs/login/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}(?:\\[bot\\])?$"},message:"must match pattern \""+"^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}(?:\\[bot\\])?$"+"\""};if(vErrors === null){vErrors = [err4];}else {vErrors.push(err4);}errors++;}}else {const err5 = {instancePath:instancePath+"/actor_login",schemaPath:"#/$defs/login/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err5];}else {vErrors.push(err5);}errors++;}}if(data.actor_id !== undefined){let data1 = data.actor_id;if(!(((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1))) && (isFinite(data1)))){const err6 = {instancePath:instancePath+"/actor_id",schemaPath:"#/$defs/id/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err6];}else {vErrors.push(err6);}errors++;}if((typeof data1 == "number") && (isFinite(data1))){if(data1 > 9007199254740991 || isNaN(data1)){const err7 = {instancePath:instancePath+"/actor_id",schemaPath:"#/$defs/id/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err7];}else {vErrors.push(err7);}errors++;}if(data1 < 1 || isNaN(data1)){const err8 = {instancePath:instancePath+"/actor_id",schemaPath:"#/$defs/id/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err8];}else {vErrors.push(err8);}errors++;}}}if(data.role_name !== undefined){let data2 = data.role_name;if(typeof data2 === "string"){if(func2(data2) > 100){const err9 = {instancePath:instancePath+"/role_name",schemaPath:"#/properties/role_name/maxLength",keyword:"maxLength",params:{limit: 100},message:"must NOT have more than 100 characters"};if(vErrors === null){vErrors = [err9];}else {vErrors.push(err9);}errors++;}if(func2(data2) < 1){const err10 = {instancePath:instancePath+"/role_name",schemaPath:"#/properties/role_name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};if(vErrors === null){vErrors = [err10];}else {vErrors.push(err10);}errors++;}if(!pattern11.test(data2)){const err11 = {instancePath:instancePath+"/role_name",schemaPath:"#/properties/role_name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9][A-Za-z0-9 _.-]*$"},message:"must match pattern \""+"^[A-Za-z0-9][A-Za-z0-9 _.-]*$"+"\""};if(vErrors === null){vErrors = [err11];}else {vErrors.push(err11);}errors++;}}else {const err12 = {instancePath:instancePath+"/role_name",schemaPath:"#/properties/role_name/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err12];}else {vErrors.push(err12);}errors++;}}}else {const err13 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err13];}else {vErrors.push(err13);}errors++;}validate28.errors = vErrors;return errors === 0;}validate28.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};function validate27(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){let vErrors = null;let errors = 0;const evaluated0 = validate27.evaluated;if(evaluated0.dynamicProps){evaluated0.props = undefined;}if(evaluated0.dynamicItems){evaluated0.items = undefined;}if(data && typeof data == "object" && !Array.isArray(data)){if(data.id === undefined){const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};if(vErrors === null){vErrors = [err0];}else {vErrors.push(err0);}errors++;}if(data.kind === undefined){const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "kind"},message:"must have required property '"+"kind"+"'"};if(vErrors === null){vErrors = [err1];}else {vErrors.push(err1);}errors++;}if(data.status === undefined){const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "status"},message:"must have required property '"+"status"+"'"};if(vErrors === null){vErrors = [err2];}else {vErrors.push(err2);}errors++;}if(data.epoch === undefined){const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "epoch"},message:"must have required property '"+"epoch"+"'"};if(vErrors === null){vErrors = [err3];}else {vErrors.push(err3);}errors++;}if(data.pre_state_digest === undefined){const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "pre_state_digest"},message:"must have required property '"+"pre_state_digest"+"'"};if(vErrors === null){vErrors = [err4];}else {vErrors.push(err4);}errors++;}if(data.evidence === undefined){const err5 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "evidence"},message:"must have required property '"+"evidence"+"'"};if(vErrors === null){vErrors = [err5];}else {vErrors.push(err5);}errors++;}if(data.resources === undefined){const err6 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "resources"},message:"must have required property '"+"resources"+"'"};if(vErrors === null){vErrors = [err6];}else {vErrors.push(err6);}errors++;}if(data.reconciled_by === undefined){const err7 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "reconciled_by"},message:"must have required property '"+"reconciled_by"+"'"};if(vErrors === null){vErrors = [err7];}else {vErrors.push(err7);}errors++;}for(const key0 in data){if(!(run_validator_func1.call(schema47.properties, key0))){const err8 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err8];}else {vErrors.push(err8);}errors++;}}if(data.receipt !== undefined){let data0 = data.receipt;if(data0 && typeof data0 == "object" && !Array.isArray(data0)){if(data0.idempotency_key === undefined){const err9 = {instancePath:instancePath+"/receipt",schemaPath:"#/$defs/receipt/required",keyword:"required",params:{missingProperty: "idempotency_key"},message:"must have required property '"+"idempotency_key"+"'"};if(vErrors === null){vErrors = [err9];}else {vErrors.push(err9);}errors++;}if(data0.key_scope === undefined){const err10 = {instancePath:instancePath+"/receipt",schemaPath:"#/$defs/receipt/required",keyword:"required",params:{missingProperty: "key_scope"},message:"must have required property '"+"key_scope"+"'"};if(vErrors === null){vErrors = [err10];}else {vErrors.push(err10);}errors++;}if(data0.outcome === undefined){const err11 = {instancePath:instancePath+"/receipt",schemaPath:"#/$defs/receipt/required",keyword:"required",params:{missingProperty: "outcome"},message:"must have required property '"+"outcome"+"'"};if(vErrors === null){vErrors = [err11];}else {vErrors.push(err11);}errors++;}for(const key1 in data0){if(!(((key1 === "idempotency_key") || (key1 === "key_scope")) || (key1 === "outcome"))){const err12 = {instancePath:instancePath+"/receipt",schemaPath:"#/$defs/receipt/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err12];}else {vErrors.push(err12);}errors++;}}if(data0.idempotency_key !== undefined){let data1 = data0.idempotency_key;if(typeof data1 === "string"){if(func2(data1) > 100){const err13 = {instancePath:instancePath+"/receipt/idempotency_key",schemaPath:"#/$defs/receipt/properties/idempotency_key/maxLength",keyword:"maxLength",params:{limit: 100},message:"must NOT have more than 100 characters"};if(vErrors === null){vErrors = [err13];}else {vErrors.push(err13);}errors++;}if(func2(data1) < 1){const err14 = {instancePath:instancePath+"/receipt/idempotency_key",schemaPath:"#/$defs/receipt/properties/idempotency_key/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};if(vErrors === null){vErrors = [err14];}else {vErrors.push(err14);}errors++;}if(!pattern16.test(data1)){const err15 = {instancePath:instancePath+"/receipt/idempotency_key",schemaPath:"#/$defs/receipt/properties/idempotency_key/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9][a-z0-9._:-]*$"},message:"must match pattern \""+"^[a-z0-9][a-z0-9._:-]*$"+"\""};if(vErrors === null){vErrors = [err15];}else {vErrors.push(err15);}errors++;}}else {const err16 = {instancePath:instancePath+"/receipt/idempotency_key",schemaPath:"#/$defs/receipt/properties/idempotency_key/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err16];}else {vErrors.push(err16);}errors++;}}if(data0.key_scope !== undefined){let data2 = data0.key_scope;if(!((data2 === "repository") || (data2 === "run"))){const err17 = {instancePath:instancePath+"/receipt/key_scope",schemaPath:"#/$defs/receipt/properties/key_scope/enum",keyword:"enum",params:{allowedValues: schema48.properties.key_scope.enum},message:"must be equal to one of the allowed values"};if(vErrors === null){vErrors = [err17];}else {vErrors.push(err17);}errors++;}}if(data0.outcome !== undefined){let data3 = data0.outcome;if(!((((data3 === "created") || (data3 === "exists")) || (data3 === "inconclusive")) || (data3 === null))){const err18 = {instancePath:instancePath+"/receipt/outcome",schemaPath:"#/$defs/receipt/properties/outcome/enum",keyword:"enum",params:{allowedValues: schema48.properties.outcome.enum},message:"must be equal to one of the allowed values"};if(vErrors === null){vErrors = [err18];}else {vErrors.push(err18);}errors++;}}}else {const err19 = {instancePath:instancePath+"/receipt",schemaPath:"#/$defs/receipt/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err19];}else {vErrors.push(err19);}errors++;}}if(data.id !== undefined){let data4 = data.id;if(typeof data4 === "string"){if(func2(data4) > 64){const err20 = {instancePath:instancePath+"/id",schemaPath:"#/properties/id/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters"};if(vErrors === null){vErrors = [err20];}else {vErrors.push(err20);}errors++;}if(func2(data4) < 1){const err21 = {instancePath:instancePath+"/id",schemaPath:"#/properties/id/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};if(vErrors === null){vErrors = [err21];}else {vErrors.push(err21);}errors++;}if(!pattern17.test(data4)){const err22 = {instancePath:instancePath+"/id",schemaPath:"#/properties/id/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9][a-z0-9._-]*$"},message:"must match pattern \""+"^[a-z0-9][a-z0-9._-]*$"+"\""};if(vErrors === null){vErrors = [err22];}else {vErrors.push(err22);}errors++;}}else {const err23 = {instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err23];}else {vErrors.push(err23);}errors++;}}if(data.kind !== undefined){let data5 = data.kind;if(!(((((((data5 === "milestone.upsert") || (data5 === "milestone.edit")) || (data5 === "issue.set-milestone")) || (data5 === "issue.labels")) || (data5 === "issue.create")) || (data5 === "comment.upsert")) || (data5 === "external"))){const err24 = {instancePath:instancePath+"/kind",schemaPath:"#/properties/kind/enum",keyword:"enum",params:{allowedValues: schema47.properties.kind.enum},message:"must be equal to one of the allowed values"};if(vErrors === null){vErrors = [err24];}else {vErrors.push(err24);}errors++;}}if(data.status !== undefined){let data6 = data.status;if(!(((((data6 === "pending") || (data6 === "claimed")) || (data6 === "done")) || (data6 === "conflict")) || (data6 === "failed"))){const err25 = {instancePath:instancePath+"/status",schemaPath:"#/properties/status/enum",keyword:"enum",params:{allowedValues: schema47.properties.status.enum},message:"must be equal to one of the allowed values"};if(vErrors === null){vErrors = [err25];}else {vErrors.push(err25);}errors++;}}if(data.epoch !== undefined){let data7 = data.epoch;const _errs15 = errors;let valid3 = false;let passing0 = null;const _errs16 = errors;if(data7 !== null){const err26 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err26];}else {vErrors.push(err26);}errors++;}var _valid0 = _errs16 === errors;if(_valid0){valid3 = true;passing0 = 0;}const _errs18 = errors;if(!(((typeof data7 == "number") && (!(data7 % 1) && !isNaN(data7))) && (isFinite(data7)))){const err27 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/oneOf/1/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err27];}else {vErrors.push(err27);}errors++;}if((typeof data7 == "number") && (isFinite(data7))){if(data7 > 9007199254740991 || isNaN(data7)){const err28 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/oneOf/1/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err28];}else {vErrors.push(err28);}errors++;}if(data7 < 1 || isNaN(data7)){const err29 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/oneOf/1/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err29];}else {vErrors.push(err29);}errors++;}}var _valid0 = _errs18 === errors;if(_valid0 && valid3){valid3 = false;passing0 = [passing0, 1];}else {if(_valid0){valid3 = true;passing0 = 1;}}if(!valid3){const err30 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/oneOf",keyword:"oneOf",params:{passingSchemas: passing0},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err30];}else {vErrors.push(err30);}errors++;}else {errors = _errs15;if(vErrors !== null){if(_errs15){vErrors.length = _errs15;}else {vErrors = null;}}}}if(data.pre_state_digest !== undefined){let data8 = data.pre_state_digest;const _errs21 = errors;let valid4 = false;let passing1 = null;const _errs22 = errors;if(data8 !== null){const err31 = {instancePath:instancePath+"/pre_state_digest",schemaPath:"#/properties/pre_state_digest/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err31];}else {vErrors.push(err31);}errors++;}var _valid1 = _errs22 === errors;if(_valid1){valid4 = true;passing1 = 0;}const _errs24 = errors;if(typeof data8 === "string"){if(!run_validator_pattern6.test(data8)){const err32 = {instancePath:instancePath+"/pre_state_digest",schemaPath:"#/$defs/digest/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""};if(vErrors === null){vErrors = [err32];}else {vErrors.push(err32);}errors++;}}else {const err33 = {instancePath:instancePath+"/pre_state_digest",schemaPath:"#/$defs/digest/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err33];}else {vErrors.push(err33);}errors++;}var _valid1 = _errs24 === errors;if(_valid1 && valid4){valid4 = false;passing1 = [passing1, 1];}else {if(_valid1){valid4 = true;passing1 = 1;}}if(!valid4){const err34 = {instancePath:instancePath+"/pre_state_digest",schemaPath:"#/properties/pre_state_digest/oneOf",keyword:"oneOf",params:{passingSchemas: passing1},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err34];}else {vErrors.push(err34);}errors++;}else {errors = _errs21;if(vErrors !== null){if(_errs21){vErrors.length = _errs21;}else {vErrors = null;}}}}if(data.evidence !== undefined){let data9 = data.evidence;const _errs28 = errors;let valid6 = false;let passing2 = null;const _errs29 = errors;if(data9 !== null){const err35 = {instancePath:instancePath+"/evidence",schemaPath:"#/properties/evidence/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err35];}else {vErrors.push(err35);}errors++;}var _valid2 = _errs29 === errors;if(_valid2){valid6 = true;passing2 = 0;}const _errs31 = errors;if(data9 && typeof data9 == "object" && !Array.isArray(data9)){if(data9.status_code === undefined){const err36 = {instancePath:instancePath+"/evidence",schemaPath:"#/properties/evidence/oneOf/1/required",keyword:"required",params:{missingProperty: "status_code"},message:"must have required property '"+"status_code"+"'"};if(vErrors === null){vErrors = [err36];}else {vErrors.push(err36);}errors++;}if(data9.error_code === undefined){const err37 = {instancePath:instancePath+"/evidence",schemaPath:"#/properties/evidence/oneOf/1/required",keyword:"required",params:{missingProperty: "error_code"},message:"must have required property '"+"error_code"+"'"};if(vErrors === null){vErrors = [err37];}else {vErrors.push(err37);}errors++;}for(const key2 in data9){if(!((key2 === "status_code") || (key2 === "error_code"))){const err38 = {instancePath:instancePath+"/evidence",schemaPath:"#/properties/evidence/oneOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err38];}else {vErrors.push(err38);}errors++;}}if(data9.status_code !== undefined){let data10 = data9.status_code;const _errs35 = errors;let valid8 = false;let passing3 = null;const _errs36 = errors;if(data10 !== null){const err39 = {instancePath:instancePath+"/evidence/status_code",schemaPath:"#/properties/evidence/oneOf/1/properties/status_code/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err39];}else {vErrors.push(err39);}errors++;}var _valid3 = _errs36 === errors;if(_valid3){valid8 = true;passing3 = 0;}const _errs38 = errors;if(!(((typeof data10 == "number") && (!(data10 % 1) && !isNaN(data10))) && (isFinite(data10)))){const err40 = {instancePath:instancePath+"/evidence/status_code",schemaPath:"#/properties/evidence/oneOf/1/properties/status_code/oneOf/1/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err40];}else {vErrors.push(err40);}errors++;}if((typeof data10 == "number") && (isFinite(data10))){if(data10 > 599 || isNaN(data10)){const err41 = {instancePath:instancePath+"/evidence/status_code",schemaPath:"#/properties/evidence/oneOf/1/properties/status_code/oneOf/1/maximum",keyword:"maximum",params:{comparison: "<=", limit: 599},message:"must be <= 599"};if(vErrors === null){vErrors = [err41];}else {vErrors.push(err41);}errors++;}if(data10 < 100 || isNaN(data10)){const err42 = {instancePath:instancePath+"/evidence/status_code",schemaPath:"#/properties/evidence/oneOf/1/properties/status_code/oneOf/1/minimum",keyword:"minimum",params:{comparison: ">=", limit: 100},message:"must be >= 100"};if(vErrors === null){vErrors = [err42];}else {vErrors.push(err42);}errors++;}}var _valid3 = _errs38 === errors;if(_valid3 && valid8){valid8 = false;passing3 = [passing3, 1];}else {if(_valid3){valid8 = true;passing3 = 1;}}if(!valid8){const err43 = {instancePath:instancePath+"/evidence/status_code",schemaPath:"#/properties/evidence/oneOf/1/properties/status_code/oneOf",keyword:"oneOf",params:{passingSchemas: passing3},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err43];}else {vErrors.push(err43);}errors++;}else {errors = _errs35;if(vErrors !== null){if(_errs35){vErrors.length = _errs35;}else {vErrors = null;}}}}if(data9.error_code !== undefined){let data11 = data9.error_code;const _errs41 = errors;let valid9 = false;let passing4 = null;const _errs42 = errors;if(data11 !== null){const err44 = {instancePath:instancePath+"/evidence/error_code",schemaPath:"#/properties/evidence/oneOf/1/properties/error_code/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err44];}else {vErrors.push(err44);}errors++;}var _valid4 = _errs42 === errors;if(_valid4){valid9 = true;passing4 = 0;}const _errs44 = errors;if(typeof data11 === "string"){if(func2(data11) > 64){const err45 = {instancePath:instancePath+"/evidence/error_code",schemaPath:"#/$defs/code/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters"};if(vErrors === null){vErrors = [err45];}else {vErrors.push(err45);}errors++;}if(!pattern19.test(data11)){const err46 = {instancePath:instancePath+"/evidence/error_code",schemaPath:"#/$defs/code/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$"},message:"must match pattern \""+"^[a-z0-9]+(?:-[a-z0-9]+)*$"+"\""};if(vErrors === null){vErrors = [err46];}else {vErrors.push(err46);}errors++;}}else {const err47 = {instancePath:instancePath+"/evidence/error_code",schemaPath:"#/$defs/code/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err47];}else {vErrors.push(err47);}errors++;}var _valid4 = _errs44 === errors;if(_valid4 && valid9){valid9 = false;passing4 = [passing4, 1];}else {if(_valid4){valid9 = true;passing4 = 1;}}if(!valid9){const err48 = {instancePath:instancePath+"/evidence/error_code",schemaPath:"#/properties/evidence/oneOf/1/properties/error_code/oneOf",keyword:"oneOf",params:{passingSchemas: passing4},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err48];}else {vErrors.push(err48);}errors++;}else {errors = _errs41;if(vErrors !== null){if(_errs41){vErrors.length = _errs41;}else {vErrors = null;}}}}}else {const err49 = {instancePath:instancePath+"/evidence",schemaPath:"#/properties/evidence/oneOf/1/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err49];}else {vErrors.push(err49);}errors++;}var _valid2 = _errs31 === errors;if(_valid2 && valid6){valid6 = false;passing2 = [passing2, 1];}else {if(_valid2){valid6 = true;passing2 = 1;}}if(!valid6){const err50 = {instancePath:instancePath+"/evidence",schemaPath:"#/properties/evidence/oneOf",keyword:"oneOf",params:{passingSchemas: passing2},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err50];}else {vErrors.push(err50);}errors++;}else {errors = _errs28;if(vErrors !== null){if(_errs28){vErrors.length = _errs28;}else {vErrors = null;}}}}if(data.resources !== undefined){let data12 = data.resources;if(Array.isArray(data12)){if(data12.length > 100){const err51 = {instancePath:instancePath+"/resources",schemaPath:"#/properties/resources/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"};if(vErrors === null){vErrors = [err51];}else {vErrors.push(err51);}errors++;}const len0 = data12.length;for(let i0=0; i0<len0; i0++){let data13 = data12[i0];if(!(((typeof data13 == "number") && (!(data13 % 1) && !isNaN(data13))) && (isFinite(data13)))){const err52 = {instancePath:instancePath+"/resources/" + i0,schemaPath:"#/$defs/id/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err52];}else {vErrors.push(err52);}errors++;}if((typeof data13 == "number") && (isFinite(data13))){if(data13 > 9007199254740991 || isNaN(data13)){const err53 = {instancePath:instancePath+"/resources/" + i0,schemaPath:"#/$defs/id/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err53];}else {vErrors.push(err53);}errors++;}if(data13 < 1 || isNaN(data13)){const err54 = {instancePath:instancePath+"/resources/" + i0,schemaPath:"#/$defs/id/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err54];}else {vErrors.push(err54);}errors++;}}}}else {const err55 = {instancePath:instancePath+"/resources",schemaPath:"#/properties/resources/type",keyword:"type",params:{type: "array"},message:"must be array"};if(vErrors === null){vErrors = [err55];}else {vErrors.push(err55);}errors++;}}if(data.reconciled_by !== undefined){let data14 = data.reconciled_by;const _errs53 = errors;let valid14 = false;let passing5 = null;const _errs54 = errors;if(data14 !== null){const err56 = {instancePath:instancePath+"/reconciled_by",schemaPath:"#/properties/reconciled_by/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err56];}else {vErrors.push(err56);}errors++;}var _valid5 = _errs54 === errors;if(_valid5){valid14 = true;passing5 = 0;}const _errs56 = errors;if(!(validate28(data14, {instancePath:instancePath+"/reconciled_by",parentData:data,parentDataProperty:"reconciled_by",rootData,dynamicAnchors}))){vErrors = vErrors === null ? validate28.errors : vErrors.concat(validate28.errors);errors = vErrors.length;}var _valid5 = _errs56 === errors;if(_valid5 && valid14){valid14 = false;passing5 = [passing5, 1];}else {if(_valid5){valid14 = true;passing5 = 1;}}if(!valid14){const err57 = {instancePath:instancePath+"/reconciled_by",schemaPath:"#/properties/reconciled_by/oneOf",keyword:"oneOf",params:{passingSchemas: passing5},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err57];}else {vErrors.push(err57);}errors++;}else {errors = _errs53;if(vErrors !== null){if(_errs53){vErrors.length = _errs53;}else {vErrors = null;}}}}}else {const err58 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err58];}else {vErrors.push(err58);}errors++;}validate27.errors = vErrors;return errors === 0;}validate27.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};function run_validator_validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){/*# sourceURL="https://writ.dev/schemas/ledger/run.schema.json" */;let vErrors = null;let errors = 0;const evaluated0 = run_validator_validate20.evaluated;if(evaluated0.dynamicProps){evaluated0.props = undefined;}if(evaluated0.dynamicItems){evaluated0.items = undefined;}if(data && typeof data == "object" && !Array.isArray(data)){if(data.schema === undefined){const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "schema"},message:"must have required property '"+"schema"+"'"};if(vErrors === null){vErrors = [err0];}else {vErrors.push(err0);}errors++;}if(data.repository === undefined){const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "repository"},message:"must have required property '"+"repository"+"'"};if(vErrors === null){vErrors = [err1];}else {vErrors.push(err1);}errors++;}if(data.run_id === undefined){const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "run_id"},message:"must have required property '"+"run_id"+"'"};if(vErrors === null){vErrors = [err2];}else {vErrors.push(err2);}errors++;}if(data.plan_digest === undefined){const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "plan_digest"},message:"must have required property '"+"plan_digest"+"'"};if(vErrors === null){vErrors = [err3];}else {vErrors.push(err3);}errors++;}if(data.evidence_digest === undefined){const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "evidence_digest"},message:"must have required property '"+"evidence_digest"+"'"};if(vErrors === null){vErrors = [err4];}else {vErrors.push(err4);}errors++;}if(data.scope === undefined){const err5 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "scope"},message:"must have required property '"+"scope"+"'"};if(vErrors === null){vErrors = [err5];}else {vErrors.push(err5);}errors++;}if(data.bounds === undefined){const err6 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "bounds"},message:"must have required property '"+"bounds"+"'"};if(vErrors === null){vErrors = [err6];}else {vErrors.push(err6);}errors++;}if(data.state === undefined){const err7 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "state"},message:"must have required property '"+"state"+"'"};if(vErrors === null){vErrors = [err7];}else {vErrors.push(err7);}errors++;}if(data.approval === undefined){const err8 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "approval"},message:"must have required property '"+"approval"+"'"};if(vErrors === null){vErrors = [err8];}else {vErrors.push(err8);}errors++;}if(data.owner === undefined){const err9 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "owner"},message:"must have required property '"+"owner"+"'"};if(vErrors === null){vErrors = [err9];}else {vErrors.push(err9);}errors++;}if(data.steps === undefined){const err10 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "steps"},message:"must have required property '"+"steps"+"'"};if(vErrors === null){vErrors = [err10];}else {vErrors.push(err10);}errors++;}if(data.stop_reason === undefined){const err11 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "stop_reason"},message:"must have required property '"+"stop_reason"+"'"};if(vErrors === null){vErrors = [err11];}else {vErrors.push(err11);}errors++;}if(data.blockers === undefined){const err12 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "blockers"},message:"must have required property '"+"blockers"+"'"};if(vErrors === null){vErrors = [err12];}else {vErrors.push(err12);}errors++;}if(data.proposed_at === undefined){const err13 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "proposed_at"},message:"must have required property '"+"proposed_at"+"'"};if(vErrors === null){vErrors = [err13];}else {vErrors.push(err13);}errors++;}for(const key0 in data){if(!(run_validator_func1.call(run_validator_schema31.properties, key0))){const err14 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err14];}else {vErrors.push(err14);}errors++;}}if(data.schema !== undefined){if(1 !== data.schema){const err15 = {instancePath:instancePath+"/schema",schemaPath:"#/properties/schema/const",keyword:"const",params:{allowedValue: 1},message:"must be equal to constant"};if(vErrors === null){vErrors = [err15];}else {vErrors.push(err15);}errors++;}}if(data.repository !== undefined){let data1 = data.repository;if(typeof data1 === "string"){if(func2(data1) > 140){const err16 = {instancePath:instancePath+"/repository",schemaPath:"#/$defs/repository/maxLength",keyword:"maxLength",params:{limit: 140},message:"must NOT have more than 140 characters"};if(vErrors === null){vErrors = [err16];}else {vErrors.push(err16);}errors++;}if(!run_validator_pattern4.test(data1)){const err17 = {instancePath:instancePath+"/repository",schemaPath:"#/$defs/repository/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$"},message:"must match pattern \""+"^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$"+"\""};if(vErrors === null){vErrors = [err17];}else {vErrors.push(err17);}errors++;}}else {const err18 = {instancePath:instancePath+"/repository",schemaPath:"#/$defs/repository/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err18];}else {vErrors.push(err18);}errors++;}}if(data.run_id !== undefined){let data2 = data.run_id;if(typeof data2 === "string"){if(!run_validator_pattern5.test(data2)){const err19 = {instancePath:instancePath+"/run_id",schemaPath:"#/$defs/runId/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"},message:"must match pattern \""+"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"+"\""};if(vErrors === null){vErrors = [err19];}else {vErrors.push(err19);}errors++;}}else {const err20 = {instancePath:instancePath+"/run_id",schemaPath:"#/$defs/runId/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err20];}else {vErrors.push(err20);}errors++;}}if(data.plan_digest !== undefined){let data3 = data.plan_digest;if(typeof data3 === "string"){if(!run_validator_pattern6.test(data3)){const err21 = {instancePath:instancePath+"/plan_digest",schemaPath:"#/$defs/digest/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""};if(vErrors === null){vErrors = [err21];}else {vErrors.push(err21);}errors++;}}else {const err22 = {instancePath:instancePath+"/plan_digest",schemaPath:"#/$defs/digest/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err22];}else {vErrors.push(err22);}errors++;}}if(data.evidence_digest !== undefined){let data4 = data.evidence_digest;const _errs13 = errors;let valid4 = false;let passing0 = null;const _errs14 = errors;if(data4 !== null){const err23 = {instancePath:instancePath+"/evidence_digest",schemaPath:"#/properties/evidence_digest/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err23];}else {vErrors.push(err23);}errors++;}var _valid0 = _errs14 === errors;if(_valid0){valid4 = true;passing0 = 0;}const _errs16 = errors;if(typeof data4 === "string"){if(!run_validator_pattern6.test(data4)){const err24 = {instancePath:instancePath+"/evidence_digest",schemaPath:"#/$defs/digest/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""};if(vErrors === null){vErrors = [err24];}else {vErrors.push(err24);}errors++;}}else {const err25 = {instancePath:instancePath+"/evidence_digest",schemaPath:"#/$defs/digest/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err25];}else {vErrors.push(err25);}errors++;}var _valid0 = _errs16 === errors;if(_valid0 && valid4){valid4 = false;passing0 = [passing0, 1];}else {if(_valid0){valid4 = true;passing0 = 1;}}if(!valid4){const err26 = {instancePath:instancePath+"/evidence_digest",schemaPath:"#/properties/evidence_digest/oneOf",keyword:"oneOf",params:{passingSchemas: passing0},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err26];}else {vErrors.push(err26);}errors++;}else {errors = _errs13;if(vErrors !== null){if(_errs13){vErrors.length = _errs13;}else {vErrors = null;}}}}if(data.scope !== undefined){let data5 = data.scope;if(data5 && typeof data5 == "object" && !Array.isArray(data5)){if(data5.repository === undefined){const err27 = {instancePath:instancePath+"/scope",schemaPath:"#/properties/scope/required",keyword:"required",params:{missingProperty: "repository"},message:"must have required property '"+"repository"+"'"};if(vErrors === null){vErrors = [err27];}else {vErrors.push(err27);}errors++;}if(data5.digest === undefined){const err28 = {instancePath:instancePath+"/scope",schemaPath:"#/properties/scope/required",keyword:"required",params:{missingProperty: "digest"},message:"must have required property '"+"digest"+"'"};if(vErrors === null){vErrors = [err28];}else {vErrors.push(err28);}errors++;}for(const key1 in data5){if(!((key1 === "repository") || (key1 === "digest"))){const err29 = {instancePath:instancePath+"/scope",schemaPath:"#/properties/scope/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err29];}else {vErrors.push(err29);}errors++;}}if(data5.repository !== undefined){let data6 = data5.repository;if(typeof data6 === "string"){if(func2(data6) > 140){const err30 = {instancePath:instancePath+"/scope/repository",schemaPath:"#/$defs/repository/maxLength",keyword:"maxLength",params:{limit: 140},message:"must NOT have more than 140 characters"};if(vErrors === null){vErrors = [err30];}else {vErrors.push(err30);}errors++;}if(!run_validator_pattern4.test(data6)){const err31 = {instancePath:instancePath+"/scope/repository",schemaPath:"#/$defs/repository/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$"},message:"must match pattern \""+"^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$"+"\""};if(vErrors === null){vErrors = [err31];}else {vErrors.push(err31);}errors++;}}else {const err32 = {instancePath:instancePath+"/scope/repository",schemaPath:"#/$defs/repository/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err32];}else {vErrors.push(err32);}errors++;}}if(data5.digest !== undefined){let data7 = data5.digest;if(typeof data7 === "string"){if(!run_validator_pattern6.test(data7)){const err33 = {instancePath:instancePath+"/scope/digest",schemaPath:"#/$defs/digest/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""};if(vErrors === null){vErrors = [err33];}else {vErrors.push(err33);}errors++;}}else {const err34 = {instancePath:instancePath+"/scope/digest",schemaPath:"#/$defs/digest/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err34];}else {vErrors.push(err34);}errors++;}}}else {const err35 = {instancePath:instancePath+"/scope",schemaPath:"#/properties/scope/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err35];}else {vErrors.push(err35);}errors++;}}if(data.bounds !== undefined){let data8 = data.bounds;if(data8 && typeof data8 == "object" && !Array.isArray(data8)){if(data8.max_steps === undefined){const err36 = {instancePath:instancePath+"/bounds",schemaPath:"#/properties/bounds/required",keyword:"required",params:{missingProperty: "max_steps"},message:"must have required property '"+"max_steps"+"'"};if(vErrors === null){vErrors = [err36];}else {vErrors.push(err36);}errors++;}for(const key2 in data8){if(!(((key2 === "max_steps") || (key2 === "max_creates")) || (key2 === "max_issues_touched"))){const err37 = {instancePath:instancePath+"/bounds",schemaPath:"#/properties/bounds/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err37];}else {vErrors.push(err37);}errors++;}}if(data8.max_steps !== undefined){let data9 = data8.max_steps;if(!(((typeof data9 == "number") && (!(data9 % 1) && !isNaN(data9))) && (isFinite(data9)))){const err38 = {instancePath:instancePath+"/bounds/max_steps",schemaPath:"#/properties/bounds/properties/max_steps/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err38];}else {vErrors.push(err38);}errors++;}if((typeof data9 == "number") && (isFinite(data9))){if(data9 > 1000 || isNaN(data9)){const err39 = {instancePath:instancePath+"/bounds/max_steps",schemaPath:"#/properties/bounds/properties/max_steps/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000},message:"must be <= 1000"};if(vErrors === null){vErrors = [err39];}else {vErrors.push(err39);}errors++;}if(data9 < 1 || isNaN(data9)){const err40 = {instancePath:instancePath+"/bounds/max_steps",schemaPath:"#/properties/bounds/properties/max_steps/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err40];}else {vErrors.push(err40);}errors++;}}}if(data8.max_creates !== undefined){let data10 = data8.max_creates;if(!(((typeof data10 == "number") && (!(data10 % 1) && !isNaN(data10))) && (isFinite(data10)))){const err41 = {instancePath:instancePath+"/bounds/max_creates",schemaPath:"#/properties/bounds/properties/max_creates/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err41];}else {vErrors.push(err41);}errors++;}if((typeof data10 == "number") && (isFinite(data10))){if(data10 > 1000 || isNaN(data10)){const err42 = {instancePath:instancePath+"/bounds/max_creates",schemaPath:"#/properties/bounds/properties/max_creates/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000},message:"must be <= 1000"};if(vErrors === null){vErrors = [err42];}else {vErrors.push(err42);}errors++;}if(data10 < 0 || isNaN(data10)){const err43 = {instancePath:instancePath+"/bounds/max_creates",schemaPath:"#/properties/bounds/properties/max_creates/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};if(vErrors === null){vErrors = [err43];}else {vErrors.push(err43);}errors++;}}}if(data8.max_issues_touched !== undefined){let data11 = data8.max_issues_touched;if(!(((typeof data11 == "number") && (!(data11 % 1) && !isNaN(data11))) && (isFinite(data11)))){const err44 = {instancePath:instancePath+"/bounds/max_issues_touched",schemaPath:"#/properties/bounds/properties/max_issues_touched/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err44];}else {vErrors.push(err44);}errors++;}if((typeof data11 == "number") && (isFinite(data11))){if(data11 > 10000 || isNaN(data11)){const err45 = {instancePath:instancePath+"/bounds/max_issues_touched",schemaPath:"#/properties/bounds/properties/max_issues_touched/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10000},message:"must be <= 10000"};if(vErrors === null){vErrors = [err45];}else {vErrors.push(err45);}errors++;}if(data11 < 0 || isNaN(data11)){const err46 = {instancePath:instancePath+"/bounds/max_issues_touched",schemaPath:"#/properties/bounds/properties/max_issues_touched/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};if(vErrors === null){vErrors = [err46];}else {vErrors.push(err46);}errors++;}}}}else {const err47 = {instancePath:instancePath+"/bounds",schemaPath:"#/properties/bounds/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err47];}else {vErrors.push(err47);}errors++;}}if(data.state !== undefined){let data12 = data.state;if(!(((((((data12 === "proposed") || (data12 === "approved")) || (data12 === "running")) || (data12 === "completed")) || (data12 === "failed")) || (data12 === "cancelled")) || (data12 === "needs-reconciliation"))){const err48 = {instancePath:instancePath+"/state",schemaPath:"#/properties/state/enum",keyword:"enum",params:{allowedValues: run_validator_schema31.properties.state.enum},message:"must be equal to one of the allowed values"};if(vErrors === null){vErrors = [err48];}else {vErrors.push(err48);}errors++;}}if(data.approval !== undefined){let data13 = data.approval;const _errs39 = errors;let valid10 = false;let passing1 = null;const _errs40 = errors;if(data13 !== null){const err49 = {instancePath:instancePath+"/approval",schemaPath:"#/properties/approval/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err49];}else {vErrors.push(err49);}errors++;}var _valid1 = _errs40 === errors;if(_valid1){valid10 = true;passing1 = 0;}const _errs42 = errors;if(!(validate21(data13, {instancePath:instancePath+"/approval",parentData:data,parentDataProperty:"approval",rootData,dynamicAnchors}))){vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);errors = vErrors.length;}var _valid1 = _errs42 === errors;if(_valid1 && valid10){valid10 = false;passing1 = [passing1, 1];}else {if(_valid1){valid10 = true;passing1 = 1;}}if(!valid10){const err50 = {instancePath:instancePath+"/approval",schemaPath:"#/properties/approval/oneOf",keyword:"oneOf",params:{passingSchemas: passing1},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err50];}else {vErrors.push(err50);}errors++;}else {errors = _errs39;if(vErrors !== null){if(_errs39){vErrors.length = _errs39;}else {vErrors = null;}}}}if(data.owner !== undefined){let data14 = data.owner;const _errs44 = errors;let valid11 = false;let passing2 = null;const _errs45 = errors;if(data14 !== null){const err51 = {instancePath:instancePath+"/owner",schemaPath:"#/properties/owner/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err51];}else {vErrors.push(err51);}errors++;}var _valid2 = _errs45 === errors;if(_valid2){valid11 = true;passing2 = 0;}const _errs47 = errors;if(!(validate23(data14, {instancePath:instancePath+"/owner",parentData:data,parentDataProperty:"owner",rootData,dynamicAnchors}))){vErrors = vErrors === null ? validate23.errors : vErrors.concat(validate23.errors);errors = vErrors.length;}var _valid2 = _errs47 === errors;if(_valid2 && valid11){valid11 = false;passing2 = [passing2, 1];}else {if(_valid2){valid11 = true;passing2 = 1;}}if(!valid11){const err52 = {instancePath:instancePath+"/owner",schemaPath:"#/properties/owner/oneOf",keyword:"oneOf",params:{passingSchemas: passing2},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err52];}else {vErrors.push(err52);}errors++;}else {errors = _errs44;if(vErrors !== null){if(_errs44){vErrors.length = _errs44;}else {vErrors = null;}}}}if(data.steps !== undefined){let data15 = data.steps;if(Array.isArray(data15)){if(data15.length > 1000){const err53 = {instancePath:instancePath+"/steps",schemaPath:"#/properties/steps/maxItems",keyword:"maxItems",params:{limit: 1000},message:"must NOT have more than 1000 items"};if(vErrors === null){vErrors = [err53];}else {vErrors.push(err53);}errors++;}if(data15.length < 1){const err54 = {instancePath:instancePath+"/steps",schemaPath:"#/properties/steps/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};if(vErrors === null){vErrors = [err54];}else {vErrors.push(err54);}errors++;}const len0 = data15.length;for(let i0=0; i0<len0; i0++){if(!(validate27(data15[i0], {instancePath:instancePath+"/steps/" + i0,parentData:data15,parentDataProperty:i0,rootData,dynamicAnchors}))){vErrors = vErrors === null ? validate27.errors : vErrors.concat(validate27.errors);errors = vErrors.length;}}}else {const err55 = {instancePath:instancePath+"/steps",schemaPath:"#/properties/steps/type",keyword:"type",params:{type: "array"},message:"must be array"};if(vErrors === null){vErrors = [err55];}else {vErrors.push(err55);}errors++;}}if(data.stop_reason !== undefined){let data17 = data.stop_reason;const _errs52 = errors;let valid14 = false;let passing3 = null;const _errs53 = errors;if(data17 !== null){const err56 = {instancePath:instancePath+"/stop_reason",schemaPath:"#/properties/stop_reason/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err56];}else {vErrors.push(err56);}errors++;}var _valid3 = _errs53 === errors;if(_valid3){valid14 = true;passing3 = 0;}const _errs55 = errors;if(typeof data17 === "string"){if(func2(data17) > 64){const err57 = {instancePath:instancePath+"/stop_reason",schemaPath:"#/$defs/code/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters"};if(vErrors === null){vErrors = [err57];}else {vErrors.push(err57);}errors++;}if(!pattern19.test(data17)){const err58 = {instancePath:instancePath+"/stop_reason",schemaPath:"#/$defs/code/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$"},message:"must match pattern \""+"^[a-z0-9]+(?:-[a-z0-9]+)*$"+"\""};if(vErrors === null){vErrors = [err58];}else {vErrors.push(err58);}errors++;}}else {const err59 = {instancePath:instancePath+"/stop_reason",schemaPath:"#/$defs/code/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err59];}else {vErrors.push(err59);}errors++;}var _valid3 = _errs55 === errors;if(_valid3 && valid14){valid14 = false;passing3 = [passing3, 1];}else {if(_valid3){valid14 = true;passing3 = 1;}}if(!valid14){const err60 = {instancePath:instancePath+"/stop_reason",schemaPath:"#/properties/stop_reason/oneOf",keyword:"oneOf",params:{passingSchemas: passing3},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err60];}else {vErrors.push(err60);}errors++;}else {errors = _errs52;if(vErrors !== null){if(_errs52){vErrors.length = _errs52;}else {vErrors = null;}}}}if(data.blockers !== undefined){let data18 = data.blockers;if(Array.isArray(data18)){if(data18.length > 100){const err61 = {instancePath:instancePath+"/blockers",schemaPath:"#/properties/blockers/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"};if(vErrors === null){vErrors = [err61];}else {vErrors.push(err61);}errors++;}const len1 = data18.length;for(let i1=0; i1<len1; i1++){let data19 = data18[i1];if(typeof data19 === "string"){if(func2(data19) > 64){const err62 = {instancePath:instancePath+"/blockers/" + i1,schemaPath:"#/$defs/code/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters"};if(vErrors === null){vErrors = [err62];}else {vErrors.push(err62);}errors++;}if(!pattern19.test(data19)){const err63 = {instancePath:instancePath+"/blockers/" + i1,schemaPath:"#/$defs/code/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$"},message:"must match pattern \""+"^[a-z0-9]+(?:-[a-z0-9]+)*$"+"\""};if(vErrors === null){vErrors = [err63];}else {vErrors.push(err63);}errors++;}}else {const err64 = {instancePath:instancePath+"/blockers/" + i1,schemaPath:"#/$defs/code/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err64];}else {vErrors.push(err64);}errors++;}}}else {const err65 = {instancePath:instancePath+"/blockers",schemaPath:"#/properties/blockers/type",keyword:"type",params:{type: "array"},message:"must be array"};if(vErrors === null){vErrors = [err65];}else {vErrors.push(err65);}errors++;}}if(data.proposed_at !== undefined){let data20 = data.proposed_at;if(typeof data20 === "string"){if(!pattern14.test(data20)){const err66 = {instancePath:instancePath+"/proposed_at",schemaPath:"#/$defs/timestamp/pattern",keyword:"pattern",params:{pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"},message:"must match pattern \""+"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"+"\""};if(vErrors === null){vErrors = [err66];}else {vErrors.push(err66);}errors++;}}else {const err67 = {instancePath:instancePath+"/proposed_at",schemaPath:"#/$defs/timestamp/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err67];}else {vErrors.push(err67);}errors++;}}if(data.proposer !== undefined){let data21 = data.proposer;const _errs67 = errors;let valid20 = false;let passing4 = null;const _errs68 = errors;if(data21 !== null){const err68 = {instancePath:instancePath+"/proposer",schemaPath:"#/properties/proposer/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err68];}else {vErrors.push(err68);}errors++;}var _valid4 = _errs68 === errors;if(_valid4){valid20 = true;passing4 = 0;}const _errs70 = errors;if(data21 && typeof data21 == "object" && !Array.isArray(data21)){if(data21.actor_id === undefined){const err69 = {instancePath:instancePath+"/proposer",schemaPath:"#/properties/proposer/oneOf/1/required",keyword:"required",params:{missingProperty: "actor_id"},message:"must have required property '"+"actor_id"+"'"};if(vErrors === null){vErrors = [err69];}else {vErrors.push(err69);}errors++;}for(const key3 in data21){if(!(key3 === "actor_id")){const err70 = {instancePath:instancePath+"/proposer",schemaPath:"#/properties/proposer/oneOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key3},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err70];}else {vErrors.push(err70);}errors++;}}if(data21.actor_id !== undefined){let data22 = data21.actor_id;if(!(((typeof data22 == "number") && (!(data22 % 1) && !isNaN(data22))) && (isFinite(data22)))){const err71 = {instancePath:instancePath+"/proposer/actor_id",schemaPath:"#/$defs/id/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err71];}else {vErrors.push(err71);}errors++;}if((typeof data22 == "number") && (isFinite(data22))){if(data22 > 9007199254740991 || isNaN(data22)){const err72 = {instancePath:instancePath+"/proposer/actor_id",schemaPath:"#/$defs/id/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err72];}else {vErrors.push(err72);}errors++;}if(data22 < 1 || isNaN(data22)){const err73 = {instancePath:instancePath+"/proposer/actor_id",schemaPath:"#/$defs/id/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err73];}else {vErrors.push(err73);}errors++;}}}}else {const err74 = {instancePath:instancePath+"/proposer",schemaPath:"#/properties/proposer/oneOf/1/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err74];}else {vErrors.push(err74);}errors++;}var _valid4 = _errs70 === errors;if(_valid4 && valid20){valid20 = false;passing4 = [passing4, 1];}else {if(_valid4){valid20 = true;passing4 = 1;}}if(!valid20){const err75 = {instancePath:instancePath+"/proposer",schemaPath:"#/properties/proposer/oneOf",keyword:"oneOf",params:{passingSchemas: passing4},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err75];}else {vErrors.push(err75);}errors++;}else {errors = _errs67;if(vErrors !== null){if(_errs67){vErrors.length = _errs67;}else {vErrors = null;}}}}if(data.status_comment !== undefined){let data23 = data.status_comment;const _errs77 = errors;let valid23 = false;let passing5 = null;const _errs78 = errors;if(data23 !== null){const err76 = {instancePath:instancePath+"/status_comment",schemaPath:"#/properties/status_comment/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err76];}else {vErrors.push(err76);}errors++;}var _valid5 = _errs78 === errors;if(_valid5){valid23 = true;passing5 = 0;}const _errs80 = errors;if(data23 && typeof data23 == "object" && !Array.isArray(data23)){if(data23.issue_number === undefined){const err77 = {instancePath:instancePath+"/status_comment",schemaPath:"#/properties/status_comment/oneOf/1/required",keyword:"required",params:{missingProperty: "issue_number"},message:"must have required property '"+"issue_number"+"'"};if(vErrors === null){vErrors = [err77];}else {vErrors.push(err77);}errors++;}if(data23.comment_id === undefined){const err78 = {instancePath:instancePath+"/status_comment",schemaPath:"#/properties/status_comment/oneOf/1/required",keyword:"required",params:{missingProperty: "comment_id"},message:"must have required property '"+"comment_id"+"'"};if(vErrors === null){vErrors = [err78];}else {vErrors.push(err78);}errors++;}if(data23.body_digest === undefined){const err79 = {instancePath:instancePath+"/status_comment",schemaPath:"#/properties/status_comment/oneOf/1/required",keyword:"required",params:{missingProperty: "body_digest"},message:"must have required property '"+"body_digest"+"'"};if(vErrors === null){vErrors = [err79];}else {vErrors.push(err79);}errors++;}if(data23.pending_digest === undefined){const err80 = {instancePath:instancePath+"/status_comment",schemaPath:"#/properties/status_comment/oneOf/1/required",keyword:"required",params:{missingProperty: "pending_digest"},message:"must have required property '"+"pending_digest"+"'"};if(vErrors === null){vErrors = [err80];}else {vErrors.push(err80);}errors++;}for(const key4 in data23){if(!(((((key4 === "issue_number") || (key4 === "comment_id")) || (key4 === "body_digest")) || (key4 === "pending_digest")) || (key4 === "reserved_at"))){const err81 = {instancePath:instancePath+"/status_comment",schemaPath:"#/properties/status_comment/oneOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key4},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err81];}else {vErrors.push(err81);}errors++;}}if(data23.issue_number !== undefined){let data24 = data23.issue_number;if(!(((typeof data24 == "number") && (!(data24 % 1) && !isNaN(data24))) && (isFinite(data24)))){const err82 = {instancePath:instancePath+"/status_comment/issue_number",schemaPath:"#/$defs/id/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err82];}else {vErrors.push(err82);}errors++;}if((typeof data24 == "number") && (isFinite(data24))){if(data24 > 9007199254740991 || isNaN(data24)){const err83 = {instancePath:instancePath+"/status_comment/issue_number",schemaPath:"#/$defs/id/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err83];}else {vErrors.push(err83);}errors++;}if(data24 < 1 || isNaN(data24)){const err84 = {instancePath:instancePath+"/status_comment/issue_number",schemaPath:"#/$defs/id/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err84];}else {vErrors.push(err84);}errors++;}}}if(data23.comment_id !== undefined){let data25 = data23.comment_id;const _errs87 = errors;let valid26 = false;let passing6 = null;const _errs88 = errors;if(data25 !== null){const err85 = {instancePath:instancePath+"/status_comment/comment_id",schemaPath:"#/properties/status_comment/oneOf/1/properties/comment_id/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err85];}else {vErrors.push(err85);}errors++;}var _valid6 = _errs88 === errors;if(_valid6){valid26 = true;passing6 = 0;}const _errs90 = errors;if(!(((typeof data25 == "number") && (!(data25 % 1) && !isNaN(data25))) && (isFinite(data25)))){const err86 = {instancePath:instancePath+"/status_comment/comment_id",schemaPath:"#/$defs/id/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err86];}else {vErrors.push(err86);}errors++;}if((typeof data25 == "number") && (isFinite(data25))){if(data25 > 9007199254740991 || isNaN(data25)){const err87 = {instancePath:instancePath+"/status_comment/comment_id",schemaPath:"#/$defs/id/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err87];}else {vErrors.push(err87);}errors++;}if(data25 < 1 || isNaN(data25)){const err88 = {instancePath:instancePath+"/status_comment/comment_id",schemaPath:"#/$defs/id/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err88];}else {vErrors.push(err88);}errors++;}}var _valid6 = _errs90 === errors;if(_valid6 && valid26){valid26 = false;passing6 = [passing6, 1];}else {if(_valid6){valid26 = true;passing6 = 1;}}if(!valid26){const err89 = {instancePath:instancePath+"/status_comment/comment_id",schemaPath:"#/properties/status_comment/oneOf/1/properties/comment_id/oneOf",keyword:"oneOf",params:{passingSchemas: passing6},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err89];}else {vErrors.push(err89);}errors++;}else {errors = _errs87;if(vErrors !== null){if(_errs87){vErrors.length = _errs87;}else {vErrors = null;}}}}if(data23.body_digest !== undefined){let data26 = data23.body_digest;const _errs94 = errors;let valid28 = false;let passing7 = null;const _errs95 = errors;if(data26 !== null){const err90 = {instancePath:instancePath+"/status_comment/body_digest",schemaPath:"#/properties/status_comment/oneOf/1/properties/body_digest/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err90];}else {vErrors.push(err90);}errors++;}var _valid7 = _errs95 === errors;if(_valid7){valid28 = true;passing7 = 0;}const _errs97 = errors;if(typeof data26 === "string"){if(!run_validator_pattern6.test(data26)){const err91 = {instancePath:instancePath+"/status_comment/body_digest",schemaPath:"#/$defs/digest/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""};if(vErrors === null){vErrors = [err91];}else {vErrors.push(err91);}errors++;}}else {const err92 = {instancePath:instancePath+"/status_comment/body_digest",schemaPath:"#/$defs/digest/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err92];}else {vErrors.push(err92);}errors++;}var _valid7 = _errs97 === errors;if(_valid7 && valid28){valid28 = false;passing7 = [passing7, 1];}else {if(_valid7){valid28 = true;passing7 = 1;}}if(!valid28){const err93 = {instancePath:instancePath+"/status_comment/body_digest",schemaPath:"#/properties/status_comment/oneOf/1/properties/body_digest/oneOf",keyword:"oneOf",params:{passingSchemas: passing7},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err93];}else {vErrors.push(err93);}errors++;}else {errors = _errs94;if(vErrors !== null){if(_errs94){vErrors.length = _errs94;}else {vErrors = null;}}}}if(data23.pending_digest !== undefined){let data27 = data23.pending_digest;const _errs101 = errors;let valid30 = false;let passing8 = null;const _errs102 = errors;if(data27 !== null){const err94 = {instancePath:instancePath+"/status_comment/pending_digest",schemaPath:"#/properties/status_comment/oneOf/1/properties/pending_digest/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err94];}else {vErrors.push(err94);}errors++;}var _valid8 = _errs102 === errors;if(_valid8){valid30 = true;passing8 = 0;}const _errs104 = errors;if(typeof data27 === "string"){if(!run_validator_pattern6.test(data27)){const err95 = {instancePath:instancePath+"/status_comment/pending_digest",schemaPath:"#/$defs/digest/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""};if(vErrors === null){vErrors = [err95];}else {vErrors.push(err95);}errors++;}}else {const err96 = {instancePath:instancePath+"/status_comment/pending_digest",schemaPath:"#/$defs/digest/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err96];}else {vErrors.push(err96);}errors++;}var _valid8 = _errs104 === errors;if(_valid8 && valid30){valid30 = false;passing8 = [passing8, 1];}else {if(_valid8){valid30 = true;passing8 = 1;}}if(!valid30){const err97 = {instancePath:instancePath+"/status_comment/pending_digest",schemaPath:"#/properties/status_comment/oneOf/1/properties/pending_digest/oneOf",keyword:"oneOf",params:{passingSchemas: passing8},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err97];}else {vErrors.push(err97);}errors++;}else {errors = _errs101;if(vErrors !== null){if(_errs101){vErrors.length = _errs101;}else {vErrors = null;}}}}if(data23.reserved_at !== undefined){let data28 = data23.reserved_at;const _errs108 = errors;let valid32 = false;let passing9 = null;const _errs109 = errors;if(data28 !== null){const err98 = {instancePath:instancePath+"/status_comment/reserved_at",schemaPath:"#/properties/status_comment/oneOf/1/properties/reserved_at/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err98];}else {vErrors.push(err98);}errors++;}var _valid9 = _errs109 === errors;if(_valid9){valid32 = true;passing9 = 0;}const _errs111 = errors;if(typeof data28 === "string"){if(!pattern14.test(data28)){const err99 = {instancePath:instancePath+"/status_comment/reserved_at",schemaPath:"#/$defs/timestamp/pattern",keyword:"pattern",params:{pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"},message:"must match pattern \""+"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"+"\""};if(vErrors === null){vErrors = [err99];}else {vErrors.push(err99);}errors++;}}else {const err100 = {instancePath:instancePath+"/status_comment/reserved_at",schemaPath:"#/$defs/timestamp/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err100];}else {vErrors.push(err100);}errors++;}var _valid9 = _errs111 === errors;if(_valid9 && valid32){valid32 = false;passing9 = [passing9, 1];}else {if(_valid9){valid32 = true;passing9 = 1;}}if(!valid32){const err101 = {instancePath:instancePath+"/status_comment/reserved_at",schemaPath:"#/properties/status_comment/oneOf/1/properties/reserved_at/oneOf",keyword:"oneOf",params:{passingSchemas: passing9},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err101];}else {vErrors.push(err101);}errors++;}else {errors = _errs108;if(vErrors !== null){if(_errs108){vErrors.length = _errs108;}else {vErrors = null;}}}}}else {const err102 = {instancePath:instancePath+"/status_comment",schemaPath:"#/properties/status_comment/oneOf/1/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err102];}else {vErrors.push(err102);}errors++;}var _valid5 = _errs80 === errors;if(_valid5 && valid23){valid23 = false;passing5 = [passing5, 1];}else {if(_valid5){valid23 = true;passing5 = 1;}}if(!valid23){const err103 = {instancePath:instancePath+"/status_comment",schemaPath:"#/properties/status_comment/oneOf",keyword:"oneOf",params:{passingSchemas: passing5},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err103];}else {vErrors.push(err103);}errors++;}else {errors = _errs77;if(vErrors !== null){if(_errs77){vErrors.length = _errs77;}else {vErrors = null;}}}}if(data.preview !== undefined){let data29 = data.preview;if(data29 && typeof data29 == "object" && !Array.isArray(data29)){if(data29.base_sha === undefined){const err104 = {instancePath:instancePath+"/preview",schemaPath:"#/properties/preview/required",keyword:"required",params:{missingProperty: "base_sha"},message:"must have required property '"+"base_sha"+"'"};if(vErrors === null){vErrors = [err104];}else {vErrors.push(err104);}errors++;}if(data29.risk === undefined){const err105 = {instancePath:instancePath+"/preview",schemaPath:"#/properties/preview/required",keyword:"required",params:{missingProperty: "risk"},message:"must have required property '"+"risk"+"'"};if(vErrors === null){vErrors = [err105];}else {vErrors.push(err105);}errors++;}if(data29.warnings === undefined){const err106 = {instancePath:instancePath+"/preview",schemaPath:"#/properties/preview/required",keyword:"required",params:{missingProperty: "warnings"},message:"must have required property '"+"warnings"+"'"};if(vErrors === null){vErrors = [err106];}else {vErrors.push(err106);}errors++;}for(const key5 in data29){if(!(((key5 === "base_sha") || (key5 === "risk")) || (key5 === "warnings"))){const err107 = {instancePath:instancePath+"/preview",schemaPath:"#/properties/preview/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key5},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err107];}else {vErrors.push(err107);}errors++;}}if(data29.base_sha !== undefined){let data30 = data29.base_sha;if(typeof data30 === "string"){if(!pattern28.test(data30)){const err108 = {instancePath:instancePath+"/preview/base_sha",schemaPath:"#/properties/preview/properties/base_sha/pattern",keyword:"pattern",params:{pattern: "^[0-9a-f]{40}([0-9a-f]{24})?$"},message:"must match pattern \""+"^[0-9a-f]{40}([0-9a-f]{24})?$"+"\""};if(vErrors === null){vErrors = [err108];}else {vErrors.push(err108);}errors++;}}else {const err109 = {instancePath:instancePath+"/preview/base_sha",schemaPath:"#/properties/preview/properties/base_sha/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err109];}else {vErrors.push(err109);}errors++;}}if(data29.risk !== undefined){let data31 = data29.risk;if(!(((data31 === "low") || (data31 === "medium")) || (data31 === "high"))){const err110 = {instancePath:instancePath+"/preview/risk",schemaPath:"#/properties/preview/properties/risk/enum",keyword:"enum",params:{allowedValues: run_validator_schema31.properties.preview.properties.risk.enum},message:"must be equal to one of the allowed values"};if(vErrors === null){vErrors = [err110];}else {vErrors.push(err110);}errors++;}}if(data29.warnings !== undefined){let data32 = data29.warnings;if(Array.isArray(data32)){if(data32.length > 5000){const err111 = {instancePath:instancePath+"/preview/warnings",schemaPath:"#/properties/preview/properties/warnings/maxItems",keyword:"maxItems",params:{limit: 5000},message:"must NOT have more than 5000 items"};if(vErrors === null){vErrors = [err111];}else {vErrors.push(err111);}errors++;}const len2 = data32.length;for(let i2=0; i2<len2; i2++){let data33 = data32[i2];if(data33 && typeof data33 == "object" && !Array.isArray(data33)){if(data33.code === undefined){const err112 = {instancePath:instancePath+"/preview/warnings/" + i2,schemaPath:"#/properties/preview/properties/warnings/items/required",keyword:"required",params:{missingProperty: "code"},message:"must have required property '"+"code"+"'"};if(vErrors === null){vErrors = [err112];}else {vErrors.push(err112);}errors++;}if(data33.step === undefined){const err113 = {instancePath:instancePath+"/preview/warnings/" + i2,schemaPath:"#/properties/preview/properties/warnings/items/required",keyword:"required",params:{missingProperty: "step"},message:"must have required property '"+"step"+"'"};if(vErrors === null){vErrors = [err113];}else {vErrors.push(err113);}errors++;}for(const key6 in data33){if(!((key6 === "code") || (key6 === "step"))){const err114 = {instancePath:instancePath+"/preview/warnings/" + i2,schemaPath:"#/properties/preview/properties/warnings/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key6},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err114];}else {vErrors.push(err114);}errors++;}}if(data33.code !== undefined){let data34 = data33.code;if(!(((((data34 === "policy-invalid") || (data34 === "base-moved")) || (data34 === "write-outside-scope")) || (data34 === "many-creates")) || (data34 === "kind-closed-by-policy"))){const err115 = {instancePath:instancePath+"/preview/warnings/" + i2+"/code",schemaPath:"#/properties/preview/properties/warnings/items/properties/code/enum",keyword:"enum",params:{allowedValues: run_validator_schema31.properties.preview.properties.warnings.items.properties.code.enum},message:"must be equal to one of the allowed values"};if(vErrors === null){vErrors = [err115];}else {vErrors.push(err115);}errors++;}}if(data33.step !== undefined){let data35 = data33.step;const _errs127 = errors;let valid38 = false;let passing10 = null;const _errs128 = errors;if(data35 !== null){const err116 = {instancePath:instancePath+"/preview/warnings/" + i2+"/step",schemaPath:"#/properties/preview/properties/warnings/items/properties/step/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err116];}else {vErrors.push(err116);}errors++;}var _valid10 = _errs128 === errors;if(_valid10){valid38 = true;passing10 = 0;}const _errs130 = errors;if(typeof data35 === "string"){if(func2(data35) > 64){const err117 = {instancePath:instancePath+"/preview/warnings/" + i2+"/step",schemaPath:"#/properties/preview/properties/warnings/items/properties/step/oneOf/1/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters"};if(vErrors === null){vErrors = [err117];}else {vErrors.push(err117);}errors++;}if(func2(data35) < 1){const err118 = {instancePath:instancePath+"/preview/warnings/" + i2+"/step",schemaPath:"#/properties/preview/properties/warnings/items/properties/step/oneOf/1/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};if(vErrors === null){vErrors = [err118];}else {vErrors.push(err118);}errors++;}if(!pattern17.test(data35)){const err119 = {instancePath:instancePath+"/preview/warnings/" + i2+"/step",schemaPath:"#/properties/preview/properties/warnings/items/properties/step/oneOf/1/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9][a-z0-9._-]*$"},message:"must match pattern \""+"^[a-z0-9][a-z0-9._-]*$"+"\""};if(vErrors === null){vErrors = [err119];}else {vErrors.push(err119);}errors++;}}else {const err120 = {instancePath:instancePath+"/preview/warnings/" + i2+"/step",schemaPath:"#/properties/preview/properties/warnings/items/properties/step/oneOf/1/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err120];}else {vErrors.push(err120);}errors++;}var _valid10 = _errs130 === errors;if(_valid10 && valid38){valid38 = false;passing10 = [passing10, 1];}else {if(_valid10){valid38 = true;passing10 = 1;}}if(!valid38){const err121 = {instancePath:instancePath+"/preview/warnings/" + i2+"/step",schemaPath:"#/properties/preview/properties/warnings/items/properties/step/oneOf",keyword:"oneOf",params:{passingSchemas: passing10},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err121];}else {vErrors.push(err121);}errors++;}else {errors = _errs127;if(vErrors !== null){if(_errs127){vErrors.length = _errs127;}else {vErrors = null;}}}}}else {const err122 = {instancePath:instancePath+"/preview/warnings/" + i2,schemaPath:"#/properties/preview/properties/warnings/items/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err122];}else {vErrors.push(err122);}errors++;}}}else {const err123 = {instancePath:instancePath+"/preview/warnings",schemaPath:"#/properties/preview/properties/warnings/type",keyword:"type",params:{type: "array"},message:"must be array"};if(vErrors === null){vErrors = [err123];}else {vErrors.push(err123);}errors++;}}}else {const err124 = {instancePath:instancePath+"/preview",schemaPath:"#/properties/preview/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err124];}else {vErrors.push(err124);}errors++;}}if(data.cancelled_by !== undefined){let data36 = data.cancelled_by;const _errs133 = errors;let valid39 = false;let passing11 = null;const _errs134 = errors;if(data36 !== null){const err125 = {instancePath:instancePath+"/cancelled_by",schemaPath:"#/properties/cancelled_by/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err125];}else {vErrors.push(err125);}errors++;}var _valid11 = _errs134 === errors;if(_valid11){valid39 = true;passing11 = 0;}const _errs136 = errors;if(!(validate28(data36, {instancePath:instancePath+"/cancelled_by",parentData:data,parentDataProperty:"cancelled_by",rootData,dynamicAnchors}))){vErrors = vErrors === null ? validate28.errors : vErrors.concat(validate28.errors);errors = vErrors.length;}var _valid11 = _errs136 === errors;if(_valid11 && valid39){valid39 = false;passing11 = [passing11, 1];}else {if(_valid11){valid39 = true;passing11 = 1;}}if(!valid39){const err126 = {instancePath:instancePath+"/cancelled_by",schemaPath:"#/properties/cancelled_by/oneOf",keyword:"oneOf",params:{passingSchemas: passing11},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err126];}else {vErrors.push(err126);}errors++;}else {errors = _errs133;if(vErrors !== null){if(_errs133){vErrors.length = _errs133;}else {vErrors = null;}}}}if(data.artifact !== undefined){let data37 = data.artifact;const _errs138 = errors;let valid40 = false;let passing12 = null;const _errs139 = errors;if(data37 !== null){const err127 = {instancePath:instancePath+"/artifact",schemaPath:"#/properties/artifact/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err127];}else {vErrors.push(err127);}errors++;}var _valid12 = _errs139 === errors;if(_valid12){valid40 = true;passing12 = 0;}const _errs141 = errors;if(data37 && typeof data37 == "object" && !Array.isArray(data37)){if(data37.commit_oid === undefined){const err128 = {instancePath:instancePath+"/artifact",schemaPath:"#/properties/artifact/oneOf/1/required",keyword:"required",params:{missingProperty: "commit_oid"},message:"must have required property '"+"commit_oid"+"'"};if(vErrors === null){vErrors = [err128];}else {vErrors.push(err128);}errors++;}if(data37.pr_number === undefined){const err129 = {instancePath:instancePath+"/artifact",schemaPath:"#/properties/artifact/oneOf/1/required",keyword:"required",params:{missingProperty: "pr_number"},message:"must have required property '"+"pr_number"+"'"};if(vErrors === null){vErrors = [err129];}else {vErrors.push(err129);}errors++;}if(data37.content_digest === undefined){const err130 = {instancePath:instancePath+"/artifact",schemaPath:"#/properties/artifact/oneOf/1/required",keyword:"required",params:{missingProperty: "content_digest"},message:"must have required property '"+"content_digest"+"'"};if(vErrors === null){vErrors = [err130];}else {vErrors.push(err130);}errors++;}if(data37.epoch === undefined){const err131 = {instancePath:instancePath+"/artifact",schemaPath:"#/properties/artifact/oneOf/1/required",keyword:"required",params:{missingProperty: "epoch"},message:"must have required property '"+"epoch"+"'"};if(vErrors === null){vErrors = [err131];}else {vErrors.push(err131);}errors++;}for(const key7 in data37){if(!((((key7 === "epoch") || (key7 === "commit_oid")) || (key7 === "pr_number")) || (key7 === "content_digest"))){const err132 = {instancePath:instancePath+"/artifact",schemaPath:"#/properties/artifact/oneOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key7},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err132];}else {vErrors.push(err132);}errors++;}}if(data37.epoch !== undefined){let data38 = data37.epoch;if(!(((typeof data38 == "number") && (!(data38 % 1) && !isNaN(data38))) && (isFinite(data38)))){const err133 = {instancePath:instancePath+"/artifact/epoch",schemaPath:"#/properties/artifact/oneOf/1/properties/epoch/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err133];}else {vErrors.push(err133);}errors++;}if((typeof data38 == "number") && (isFinite(data38))){if(data38 < 1 || isNaN(data38)){const err134 = {instancePath:instancePath+"/artifact/epoch",schemaPath:"#/properties/artifact/oneOf/1/properties/epoch/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err134];}else {vErrors.push(err134);}errors++;}}}if(data37.commit_oid !== undefined){let data39 = data37.commit_oid;if(typeof data39 === "string"){if(!pattern30.test(data39)){const err135 = {instancePath:instancePath+"/artifact/commit_oid",schemaPath:"#/properties/artifact/oneOf/1/properties/commit_oid/pattern",keyword:"pattern",params:{pattern: "^[0-9a-f]{40}$"},message:"must match pattern \""+"^[0-9a-f]{40}$"+"\""};if(vErrors === null){vErrors = [err135];}else {vErrors.push(err135);}errors++;}}else {const err136 = {instancePath:instancePath+"/artifact/commit_oid",schemaPath:"#/properties/artifact/oneOf/1/properties/commit_oid/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err136];}else {vErrors.push(err136);}errors++;}}if(data37.pr_number !== undefined){let data40 = data37.pr_number;const _errs149 = errors;let valid42 = false;let passing13 = null;const _errs150 = errors;if(data40 !== null){const err137 = {instancePath:instancePath+"/artifact/pr_number",schemaPath:"#/properties/artifact/oneOf/1/properties/pr_number/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err137];}else {vErrors.push(err137);}errors++;}var _valid13 = _errs150 === errors;if(_valid13){valid42 = true;passing13 = 0;}const _errs152 = errors;if(!(((typeof data40 == "number") && (!(data40 % 1) && !isNaN(data40))) && (isFinite(data40)))){const err138 = {instancePath:instancePath+"/artifact/pr_number",schemaPath:"#/$defs/id/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err138];}else {vErrors.push(err138);}errors++;}if((typeof data40 == "number") && (isFinite(data40))){if(data40 > 9007199254740991 || isNaN(data40)){const err139 = {instancePath:instancePath+"/artifact/pr_number",schemaPath:"#/$defs/id/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err139];}else {vErrors.push(err139);}errors++;}if(data40 < 1 || isNaN(data40)){const err140 = {instancePath:instancePath+"/artifact/pr_number",schemaPath:"#/$defs/id/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err140];}else {vErrors.push(err140);}errors++;}}var _valid13 = _errs152 === errors;if(_valid13 && valid42){valid42 = false;passing13 = [passing13, 1];}else {if(_valid13){valid42 = true;passing13 = 1;}}if(!valid42){const err141 = {instancePath:instancePath+"/artifact/pr_number",schemaPath:"#/properties/artifact/oneOf/1/properties/pr_number/oneOf",keyword:"oneOf",params:{passingSchemas: passing13},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err141];}else {vErrors.push(err141);}errors++;}else {errors = _errs149;if(vErrors !== null){if(_errs149){vErrors.length = _errs149;}else {vErrors = null;}}}}if(data37.content_digest !== undefined){let data41 = data37.content_digest;if(typeof data41 === "string"){if(!run_validator_pattern6.test(data41)){const err142 = {instancePath:instancePath+"/artifact/content_digest",schemaPath:"#/$defs/digest/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""};if(vErrors === null){vErrors = [err142];}else {vErrors.push(err142);}errors++;}}else {const err143 = {instancePath:instancePath+"/artifact/content_digest",schemaPath:"#/$defs/digest/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err143];}else {vErrors.push(err143);}errors++;}}}else {const err144 = {instancePath:instancePath+"/artifact",schemaPath:"#/properties/artifact/oneOf/1/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err144];}else {vErrors.push(err144);}errors++;}var _valid12 = _errs141 === errors;if(_valid12 && valid40){valid40 = false;passing12 = [passing12, 1];}else {if(_valid12){valid40 = true;passing12 = 1;}}if(!valid40){const err145 = {instancePath:instancePath+"/artifact",schemaPath:"#/properties/artifact/oneOf",keyword:"oneOf",params:{passingSchemas: passing12},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err145];}else {vErrors.push(err145);}errors++;}else {errors = _errs138;if(vErrors !== null){if(_errs138){vErrors.length = _errs138;}else {vErrors = null;}}}}}else {const err146 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err146];}else {vErrors.push(err146);}errors++;}run_validator_validate20.errors = vErrors;return errors === 0;}run_validator_validate20.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

;// CONCATENATED MODULE: ./packages/core/src/ledger/schemas.ts





const LEDGER_ROOT_FILE = {
    name: 'ledger-root',
    validate: ledger_root_validator,
};
const LEASE_FILE = { name: 'lease', validate: lease_validator };
const RUN_FILE = { name: 'run', validate: run_validator };
const PROVENANCE_FILE = {
    name: 'provenance',
    validate: provenance_validator,
};
function schemaProblems(kind) {
    return (kind.validate.errors ?? [])
        .slice(0, 5)
        .map((error) => `${error.instancePath === '' ? '/' : error.instancePath} ${error.message ?? error.keyword}`)
        .join('; ');
}
/** Parses and validates a ledger file read from the branch. */
function parseLedgerFile(kind, path, text) {
    let value;
    try {
        value = JSON.parse(text);
    }
    catch (error) {
        throw new errors/* WritError */.b9('ledger-file-corrupt', `Ledger file ${path} is not valid JSON.`, {
            cause: error,
            details: { path },
        });
    }
    return checkLedgerFile(kind, path, value);
}
/** Validates a ledger value (on read after parsing, and before every write). */
function checkLedgerFile(kind, path, value) {
    if (!kind.validate(value)) {
        throw new errors/* WritError */.b9('ledger-file-invalid', `Ledger file ${path} does not validate against ${kind.name}.schema.json: ${schemaProblems(kind)}.`, { details: { path } });
    }
    return value;
}
/** The exact bytes Writ writes for a ledger file: validated, 2-space JSON, trailing newline. */
function serializeLedgerFile(kind, path, value) {
    checkLedgerFile(kind, path, value);
    return `${JSON.stringify(value, null, 2)}\n`;
}


/***/ })

};

//# sourceMappingURL=388.index.js.map