export const id = 874;
export const ids = [874];
export const modules = {

/***/ 7111:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $r: () => (/* binding */ LEDGER_ROOT_PATH),
/* harmony export */   B0: () => (/* binding */ LEASE_PATH),
/* harmony export */   N3: () => (/* binding */ runFilePath),
/* harmony export */   SU: () => (/* binding */ parseRepository),
/* harmony export */   U7: () => (/* binding */ PROVENANCE_PATH),
/* harmony export */   Xe: () => (/* binding */ validateBranch),
/* harmony export */   ju: () => (/* binding */ ledgerLocation)
/* harmony export */ });
/* unused harmony exports OWNER_PATTERN, REPO_PATTERN, BRANCH_PATTERN, runsDirectory, isLedgerPath */
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7638);
/* harmony import */ var _plan_run_id_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(720);
/**
 * Every identifier that becomes a ledger path is validated here: no traversal, no separators, bounded
 * length. Messages never echo a rejected value (it may be untrusted text); they give its length.
 */


/** GitHub owners: 1-39 alphanumerics with single inner hyphens (so `--` can separate owner and repo). */
const OWNER_PATTERN = /^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}$/;
/** GitHub repository names: 1-100 of [A-Za-z0-9._-], never `.` or `..`. */
const REPO_PATTERN = /^[A-Za-z0-9._-]{1,100}$/;
/** Branch names Writ accepts for its ledger: plain segments, no `..`, no `//`, no trailing `/` or `.lock`. */
const BRANCH_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*(?:\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;
const LEDGER_ROOT_PATH = 'ledger-root.json';
const LEASE_PATH = 'lease.json';
const PROVENANCE_PATH = 'provenance.json';
function invalid(what, value, expected) {
    return new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .WritError */ .b9('invalid-input', `Invalid ${what} (${value.length} characters). Expected ${expected}.`);
}
/** Parses `owner/repo`, refusing anything that could not be a GitHub repository or a safe path segment. */
function parseRepository(value, what = 'repository') {
    const parts = value.split('/');
    const [owner, repo] = parts;
    if (parts.length !== 2 ||
        owner === undefined ||
        repo === undefined ||
        !OWNER_PATTERN.test(owner) ||
        !REPO_PATTERN.test(repo) ||
        repo === '.' ||
        repo === '..') {
        throw invalid(what, value, 'format {owner}/{repo}');
    }
    return { owner, repo };
}
function validateBranch(value) {
    if (value.length > 200 ||
        !BRANCH_PATTERN.test(value) ||
        value.includes('..') ||
        value.endsWith('.lock') ||
        value.endsWith('.')) {
        throw invalid('ledger branch', value, 'a branch name of plain segments such as bot/writ-ledger');
    }
    if (value === 'main' || value === 'master') {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .WritError */ .b9('invalid-input', 'The ledger branch must be a dedicated bot branch, never main/master.');
    }
    return value;
}
function ledgerLocation(repository, branch) {
    const { owner, repo } = parseRepository(repository);
    return { owner, repo, branch: validateBranch(branch) };
}
/** `runs/<owner>--<repo>` for the repository a run belongs to. */
function runsDirectory(repository) {
    const { owner, repo } = parseRepository(repository, 'run repository');
    return `runs/${owner}--${repo}`;
}
/** `runs/<owner>--<repo>/<run_id>.json`; the run ID is validated (no traversal, no separators, ≤ 64). */
function runFilePath(repository, runId) {
    return `${runsDirectory(repository)}/${(0,_plan_run_id_js__WEBPACK_IMPORTED_MODULE_1__/* .validateRunId */ .NQ)(runId)}.json`;
}
/** True for the only paths Writ ever writes on its ledger branch. */
function isLedgerPath(path) {
    if (path === LEDGER_ROOT_PATH || path === LEASE_PATH || path === PROVENANCE_PATH)
        return true;
    const match = /^runs\/([^/]+?)--([^/]+)\/([^/]+)\.json$/.exec(path);
    if (match === null)
        return false;
    const [, owner = '', repo = '', runId = ''] = match;
    try {
        return runFilePath(`${owner}/${repo}`, runId) === path;
    }
    catch {
        return false;
    }
}


/***/ }),

/***/ 7874:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   readRunnerContext: () => (/* binding */ readRunnerContext)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7638);
/* harmony import */ var _ledger_paths_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7111);
/**
 * What a stage learns from the runner's environment, read once in `run()` (never at import): the
 * repository, this workflow run's identity, the triggering event and the API endpoint.
 */



function positiveInteger(name, fallback) {
    const raw = process.env[name];
    if ((raw === undefined || raw === '') && fallback !== undefined)
        return fallback;
    if (raw === undefined || !/^[1-9][0-9]{0,15}$/.test(raw)) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .WritError */ .b9('invalid-input', `environment variable ${name} must be a positive integer`);
    }
    return Number(raw);
}
function readRunnerContext() {
    const full = process.env.GITHUB_REPOSITORY ?? '';
    const repository = (0,_ledger_paths_js__WEBPACK_IMPORTED_MODULE_2__/* .parseRepository */ .SU)(full, 'GITHUB_REPOSITORY');
    let payload = {};
    const eventPath = process.env.GITHUB_EVENT_PATH;
    if (eventPath) {
        try {
            payload = JSON.parse((0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readFileSync)(eventPath, 'utf8'));
        }
        catch (error) {
            throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .WritError */ .b9('invalid-input', `the event payload at GITHUB_EVENT_PATH is unreadable: ${(0,_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .errorMessage */ .gJ)(error)}`);
        }
    }
    const actor = process.env.GITHUB_ACTOR_ID;
    return {
        repository: { ...repository, full },
        workflowRunId: positiveInteger('GITHUB_RUN_ID'),
        attempt: positiveInteger('GITHUB_RUN_ATTEMPT', 1),
        eventName: process.env.GITHUB_EVENT_NAME ?? '',
        payload,
        apiUrl: process.env.GITHUB_API_URL || 'https://api.github.com',
        actorId: actor !== undefined && /^[1-9][0-9]{0,15}$/.test(actor) ? Number(actor) : undefined,
    };
}


/***/ })

};
