export const id = 851;
export const ids = [851];
export const modules = {

/***/ 5724:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   jL: () => (/* binding */ graphqlAuthor),
/* harmony export */   u3: () => (/* binding */ findOwnMarked)
/* harmony export */ });
/* unused harmony exports DEFAULT_MAX_PAGES, oldestFirst, isOwnAuthor, authorOf, markedText, ownMarked */
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7638);
/* harmony import */ var _key_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6344);
/**
 * The one rule for Writ's hidden markers on GitHub: a marker counts only on an item Writ's own app
 * wrote (an issue's or comment's `user`, a milestone's `creator`), whatever the resource kind. Every
 * marker lookup goes through `ownMarked` (items already read) or `findOwnMarked` (the idempotency
 * pre-check: read the primary, immediately consistent list endpoint, never search, page by page up to
 * a cap). A failed read or reaching the cap is `inconclusive`: the caller must not create.
 */


/**
 * An actor as GitHub's GraphQL answers it (`login`, `__typename`, `databaseId` on a Bot), as an
 * `Author`. GraphQL gives a Bot's login without REST's `[bot]` suffix (`writ-ledger`, not
 * `writ-ledger[bot]`): an actor whose `__typename` is `Bot` gets it back, by type, never by name, so
 * `isOwnAuthor` reads GraphQL's actors as it reads REST's users.
 */
function graphqlAuthor(value) {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
        return null;
    const node = value;
    if (typeof node.login !== 'string')
        return null;
    const type = typeof node.__typename === 'string' ? node.__typename : undefined;
    return {
        login: type === 'Bot' ? `${node.login}[bot]` : node.login,
        ...(typeof node.databaseId === 'number' ? { id: node.databaseId } : {}),
        ...(type === undefined ? {} : { type }),
    };
}
const DEFAULT_MAX_PAGES = 20;
/** Oldest first: earliest creation, then lowest ID (IDs grow with time on GitHub). */
function oldestFirst(a, b) {
    if (a.created_at !== b.created_at)
        return a.created_at < b.created_at ? -1 : 1;
    return a.id - b.id;
}
function identityOf(own) {
    return typeof own === 'string' ? { login: own } : own;
}
/**
 * Whether `author` is Writ's own app bot: the same login (GitHub logins are case-insensitive), an
 * account of type `Bot` whenever the answer says its type, and the same numeric ID when Writ knows its
 * own. A deleted account (`null`) is never Writ.
 */
function isOwnAuthor(author, own) {
    if (author === null || author === undefined || typeof author.login !== 'string')
        return false;
    const identity = identityOf(own);
    if (author.login.toLowerCase() !== identity.login.toLowerCase())
        return false;
    if (author.type !== undefined && author.type !== 'Bot')
        return false;
    if (identity.id !== undefined && author.id !== identity.id)
        return false;
    return true;
}
/** Who wrote an item: an issue's or comment's `user`, a milestone's `creator`. */
function authorOf(item) {
    return item.user ?? item.creator ?? null;
}
/** The text a marker lives in: an issue's or comment's body, a milestone's description. */
function markedText(item) {
    return item.body ?? item.description ?? null;
}
/**
 * Items carrying the exact `marker`, split by authorship: `own` (Writ's app wrote them), oldest first,
 * and `foreign` (anyone else: reported, never counted, never adopted).
 */
function ownMarked(items, marker, own) {
    const mine = [];
    const foreign = [];
    for (const item of items) {
        if (!(0,_key_js__WEBPACK_IMPORTED_MODULE_1__/* .hasMarker */ .xY)(markedText(item), marker))
            continue;
        if (isOwnAuthor(authorOf(item), own))
            mine.push(item);
        else
            foreign.push(item);
    }
    return { own: mine.sort(oldestFirst), foreign };
}
async function findOwnMarked(readPage, options) {
    const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
    const matches = [];
    /** Items carrying the exact marker that Writ did not author: reported, never counted. */
    const foreign = [];
    let pagesRead = 0;
    for (let page = 1;; page++) {
        if (page > maxPages) {
            return {
                status: 'inconclusive',
                reason: 'page-cap',
                detail: `stopped after ${maxPages} pages`,
                pagesRead,
            };
        }
        let result;
        try {
            result = await readPage(page);
        }
        catch (error) {
            return { status: 'inconclusive', reason: 'read-failed', detail: (0,_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .errorMessage */ .gJ)(error), pagesRead };
        }
        pagesRead += 1;
        const split = ownMarked(result.items, options.marker, options.ownLogin);
        matches.push(...split.own);
        foreign.push(...split.foreign);
        if (!result.hasNext)
            break;
    }
    if (matches.length === 0)
        return { status: 'absent', pagesRead, foreign };
    const [item, ...duplicates] = [...matches].sort(oldestFirst);
    return { status: 'exists', item, duplicates, pagesRead, foreign };
}


/***/ }),

/***/ 1319:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   c: () => (/* binding */ renderStatusProjection)
/* harmony export */ });
/* unused harmony export commandRefusalLine */
/* harmony import */ var _command_reactions_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(4187);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7638);
/* harmony import */ var _markdown_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(2712);
/**
 * What the status comment shows: the run's state, its step progress, who reconciled or cancelled what,
 * the human action needed, a durable evidence link when the caller has one and, once approved, who
 * approved and what happens next (all first, so a size limit never cuts them), then the deterministic
 * preview (every step's content). Before approval the preview ends with the approve command; after it,
 * that section is replaced: an approved run is not "to approve".
 */



const STATE_LINES = {
    proposed: 'Proposed: waiting for approval.',
    approved: 'Approved.',
    running: 'Running.',
    completed: 'Completed.',
    failed: 'Failed.',
    cancelled: 'Cancelled.',
    'needs-reconciliation': 'Stopped: a step needs reconciliation by a repository writer.',
};
/** What happens next, in plain words, for a run that has its approval. */
function nextSteps(run) {
    const total = run.steps.length;
    const finished = run.steps.filter((step) => step.status !== 'pending' && step.status !== 'claimed').length;
    const claimed = run.steps.find((step) => step.status === 'claimed');
    switch (run.state) {
        case 'approved':
            return `Next: the approved workflow claims, writes and checkpoints the ${total} step${total === 1 ? '' : 's'} in order under epoch ${run.owner?.epoch ?? run.approval?.epoch ?? '?'}, holding the repository lease; this comment is updated as they finish. The approval is used up: it cannot approve anything again.`;
        case 'running':
            return `Next: ${finished} of ${total} steps are finished${claimed === undefined ? '' : `; step ${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .code */ .aY)(claimed.id)} is being written`}. The remaining steps run in order; if this job stops, the recovery stage takes the run over after its lease expires.`;
        case 'completed':
            return `Every step is done and the repository lease was released in the same ledger commit. Nothing more will be written for this run.`;
        case 'failed':
        case 'cancelled':
            return `Nothing more will be written for this run (${finished} of ${total} steps finished). To try again, preview a new plan and approve it.`;
        case 'needs-reconciliation':
            return `Step ${claimed === undefined ? '' : `${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .code */ .aY)(claimed.id)} `}was claimed but its outcome is unknown: nothing is retried blindly until a repository writer reconciles it (README: Recover a run).`;
        case 'proposed':
            return '';
    }
}
/**
 * A GitHub comment URL fit for a Markdown link (from the API, never comment text; checked anyway): https,
 * a host and, for a GitHub Enterprise Server on its own port, that port.
 */
function commentLink(url) {
    return /^https:\/\/[A-Za-z0-9.-]+(?::[0-9]{1,5})?\/[A-Za-z0-9._~/#-]+$/.test(url) ? url : null;
}
/**
 * The line naming the last refused command: its verb and comment ID (from the grammar and the API) and
 * the catalogue code with its documentation link. Nothing of the comment's body is shown.
 */
function commandRefusalLine(refusal) {
    const id = Number.isSafeInteger(refusal.commentId) ? refusal.commentId : 0;
    return `Last command refused: ${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .code */ .aY)(refusal.kind)} in comment ${id}, [${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .code */ .aY)(refusal.code)}](${(0,_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .errorLink */ .P5)(refusal.code)}). The comment carries Writ's ${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .code */ .aY)(_command_reactions_js__WEBPACK_IMPORTED_MODULE_0__/* .COMMAND_REACTIONS */ .T7.refused)} reaction; the run is unchanged by it.`;
}
function progress(steps) {
    const counts = new Map();
    for (const step of steps)
        counts.set(step.status, (counts.get(step.status) ?? 0) + 1);
    const parts = ['done', 'claimed', 'pending', 'conflict', 'failed']
        .filter((status) => (counts.get(status) ?? 0) > 0)
        .map((status) => `${counts.get(status) ?? 0} ${status}`);
    return `Steps: ${parts.join(', ')} (of ${steps.length}).`;
}
/**
 * Who holds the run now: the epoch it is fenced at and the workflow run (and attempt) that holds it,
 * while the run can still write. Numbers only (from the ledger), so nothing here needs escaping.
 */
function holderLine(run) {
    if (run.owner == null ||
        (run.state !== 'approved' && run.state !== 'running' && run.state !== 'needs-reconciliation'))
        return null;
    const { epoch, holder } = run.owner;
    return `Epoch ${epoch}, held by workflow run ${holder.workflow_run_id} (attempt ${holder.attempt}).`;
}
/** The artifact the run published (publish-artifact): its pull request and commit, from the ledger. */
function artifactLine(run) {
    const artifact = run.artifact ?? null;
    if (artifact === null)
        return null;
    const commit = /^[0-9a-f]{40,64}$/.test(artifact.commit_oid)
        ? ` (commit ${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .code */ .aY)(artifact.commit_oid.slice(0, 12))})`
        : '';
    const where = artifact.pr_number === null ? 'committed, no pull request yet' : `pull request #${artifact.pr_number}`;
    return `Artifact: ${where}${commit}, published at epoch ${artifact.epoch}.`;
}
function actionNeeded(run, prefix) {
    const command = (text) => (prefix === undefined ? '' : ` ${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .code */ .aY)(`${prefix}: ${text}`)}`);
    switch (run.state) {
        case 'proposed':
            return ['Action needed: a repository writer posts the approve command shown below, or cancels.'];
        case 'needs-reconciliation':
            return run.steps
                .filter((step) => step.status === 'claimed')
                .map((step) => `Action needed: a repository writer checks step ${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .code */ .aY)(step.id)} on GitHub (reason ${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .code */ .aY)(step.evidence?.error_code ?? 'needs-reconciliation')}) and posts` +
                (prefix === undefined
                    ? ' the reconcile command `writ reconcile` prints (done, failed or retry).'
                    : `${command(`reconcile ${run.run_id} ${step.id} done`)}, ${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .code */ .aY)('failed')} or ${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .code */ .aY)('retry')}.`));
        default:
            return [];
    }
}
/**
 * Deterministic: it depends only on the ledger's run record, the preview and the extras, so re-running
 * a stage with the same state renders the same bytes (and sends nothing).
 */
function renderStatusProjection(run, previewMarkdown, extras = {}) {
    const lines = [`**Writ run ${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .code */ .aY)(run.run_id)}**: ${STATE_LINES[run.state]}`];
    if (run.stop_reason !== null)
        lines.push(`Stop reason: ${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .code */ .aY)(run.stop_reason)}.`);
    lines.push(progress(run.steps));
    const held = holderLine(run);
    if (held !== null)
        lines.push(held);
    const artifact = artifactLine(run);
    if (artifact !== null)
        lines.push(artifact);
    for (const step of run.steps) {
        if (step.reconciled_by !== null) {
            lines.push(`Step ${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .code */ .aY)(step.id)} reconciled as ${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .code */ .aY)(step.status)} by @${step.reconciled_by.actor_login} (${step.reconciled_by.role_name}).`);
        }
    }
    if (run.cancelled_by != null) {
        lines.push(`Cancelled by @${run.cancelled_by.actor_login} (${run.cancelled_by.role_name}).`);
    }
    lines.push(...actionNeeded(run, extras.commandPrefix));
    if (extras.lastRefusal != null)
        lines.push(commandRefusalLine(extras.lastRefusal));
    for (const note of extras.notes ?? [])
        lines.push(note);
    if (extras.evidence != null) {
        lines.push(`Evidence: [the run's ledger record at ${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .code */ .aY)(extras.evidence.commit.slice(0, 12))}](${extras.evidence.url}).`);
    }
    if (run.approval === null)
        return `${lines.join('\n')}\n\n${previewMarkdown}`;
    const { approval } = run;
    const link = commentLink(approval.comment_url);
    // The approve section (the command) no longer applies: it is replaced by who approved and what next.
    const at = previewMarkdown.lastIndexOf(`\n${_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .APPROVE_HEADING */ .dv}\n`);
    const preview = at < 0 ? previewMarkdown : previewMarkdown.slice(0, at + 1);
    return [
        ...lines,
        // Logins come from GitHub's API (never from comment text); mentioning the approver is intended.
        `Approved by @${approval.actor_login} (${approval.role_name}) at ${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .code */ .aY)(approval.consumed_at)}${link === null ? '' : ` in [comment ${approval.comment_id}](${link})`}, for digest ${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .code */ .aY)(approval.digest)}, epoch ${approval.epoch}.`,
        '',
        nextSteps(run),
        '',
        preview.trimEnd(),
        '',
    ].join('\n');
}


/***/ }),

/***/ 6589:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  Yd: () => (/* binding */ statusFold),
  FE: () => (/* binding */ syncStatusComment)
});

// UNUSED EXPORTS: MAX_COMMENT_CHARS, statusBody

// EXTERNAL MODULE: ./packages/core/src/github/commit-on-branch.ts
var commit_on_branch = __webpack_require__(149);
// EXTERNAL MODULE: ./packages/core/src/canonical-json.ts
var canonical_json = __webpack_require__(2962);
// EXTERNAL MODULE: ./packages/core/src/errors.ts
var errors = __webpack_require__(7638);
// EXTERNAL MODULE: ./packages/core/src/idempotency/key.ts
var key = __webpack_require__(6344);
;// CONCATENATED MODULE: ./packages/core/src/idempotency/github-pages.ts
const PER_PAGE = 100;
/**
 * Skew allowed between the server clock that stamped a resource and the one that stamped the moment
 * the ledger recorded (a claim, a status reservation): generous, since it costs nothing on a long list.
 */
const SINCE_SKEW_MS = 5 * 60_000;
/**
 * The `since` for listing what was created after `moment` (ISO 8601, the server's clock), less the
 * skew; undefined when there is no such moment (the list is read from its first page, within its cap).
 */
function sinceBefore(moment) {
    return moment === null ? undefined : new Date(Date.parse(moment) - SINCE_SKEW_MS).toISOString();
}
function hasNextLink(link) {
    return typeof link === 'string' && /rel="next"/.test(link);
}
/**
 * Every issue and pull request of the repository (state=all, unfiltered); with `since` (ISO 8601) only
 * those updated since then, which includes everything created since.
 */
function issuePages(github, owner, repo, since) {
    return async (page) => {
        const response = await github.rest.issues.listForRepo({
            owner,
            repo,
            state: 'all',
            per_page: PER_PAGE,
            page,
            sort: 'created',
            direction: 'asc',
            ...(since === undefined ? {} : { since }),
        });
        return { items: response.data, hasNext: hasNextLink(response.headers.link) };
    };
}
/**
 * Every comment on one issue or pull request (ascending ID, as GitHub lists them); with `since`
 * (ISO 8601) only those updated since then, which includes everything created since.
 */
function commentPages(github, owner, repo, issueNumber, since) {
    return async (page) => {
        const response = await github.rest.issues.listComments({
            owner,
            repo,
            issue_number: issueNumber,
            per_page: PER_PAGE,
            page,
            ...(since === undefined ? {} : { since }),
        });
        return { items: response.data, hasNext: hasNextLink(response.headers.link) };
    };
}

// EXTERNAL MODULE: ./packages/core/src/idempotency/precheck.ts
var precheck = __webpack_require__(5724);
// EXTERNAL MODULE: ./packages/core/src/ledger/ledger.ts + 3 modules
var ledger = __webpack_require__(7388);
// EXTERNAL MODULE: ./packages/core/src/redact.ts
var redact = __webpack_require__(796);
;// CONCATENATED MODULE: ./packages/core/src/status-comment/sync.ts
/**
 * One status comment per run, kept idempotent through the ledger:
 *  1. the comment's identity is reserved in the ledger before the first POST;
 *  2. an identical projection sends no request to GitHub;
 *  3. a changed projection reserves the update, then PATCHes the retained comment ID;
 *  4. an interrupted PATCH may be retried with the same body (writing the same body is idempotent);
 *  5. a different projection waits until an earlier reservation is resolved, by reading the comment back;
 *  6. an ambiguous first POST is never retried blindly: the issue's comments are scanned for the run's
 *     marker (on a comment Writ itself wrote) before anything is posted again.
 */








/** GitHub comment bodies are limited to 65,536 characters. */
const MAX_COMMENT_CHARS = 65_536;
/**
 * The exact body: the run's marker first (its identity), then the projection, redacted (defence in
 * depth: plan validation already refuses a secret in plan text, redact.ts).
 */
function statusBody(runId, projection) {
    const body = `${(0,key/* statusMarker */.Bs)(runId)}\n${(0,redact/* redactSecrets */.fp)(projection)}`;
    if (body.length <= MAX_COMMENT_CHARS)
        return body;
    const note = '\n\n_(truncated: the full preview is in the workflow run summary)_\n';
    return `${body.slice(0, MAX_COMMENT_CHARS - note.length)}${note}`;
}
/** A 4xx is a definite refusal; anything else (5xx, a dropped connection, a timeout) may have landed. */
function isDefiniteFailure(error) {
    return (0,commit_on_branch/* writeOutcome */.gZ)(error) === 'refused';
}
async function syncStatusComment(deps, request) {
    const { runId } = request;
    const after = request.after?.run.run_id === runId ? request.after : undefined;
    const run = after?.run ?? (await (0,ledger/* readRun */.cI)(deps.ledger, runId)).run;
    if (run === null)
        throw new errors/* WritError */.b9('run-not-found', `the ledger holds no run ${runId}`);
    const reserved = run.status_comment ?? null;
    const issueNumber = request.issueNumber ?? reserved?.issue_number;
    if (issueNumber === undefined)
        return null;
    const body = statusBody(runId, request.project(run));
    if (reserved !== null && reserved.issue_number !== issueNumber) {
        throw new errors/* WritError */.b9('invalid-input', `run ${runId} keeps its status comment on #${reserved.issue_number}, not #${issueNumber}`);
    }
    // Each record commits on the head the previous one left (this sync's own commits), unread.
    let head = after?.head;
    const sync = {
        deps,
        request,
        issueNumber,
        body,
        wanted: (0,canonical_json/* digest */.br)(body),
        requests: 0,
        record: async (next) => {
            const outcome = await (0,ledger/* recordStatusComment */.Rj)(deps.ledger, { runId, statusComment: next }, head === undefined ? {} : { from: head });
            head = outcome.held;
        },
    };
    if (reserved === null)
        return postComment(sync);
    // A reserved first POST with no recorded result: find out whether it landed before anything else,
    // unless the caller's own commit made the reservation for this very body a moment ago.
    if (reserved.comment_id === null) {
        if (after?.folded === true && reserved.pending_digest === sync.wanted)
            return postComment(sync, true);
        const adopted = await adoptLandedPost(sync, reserved.reserved_at ?? null);
        if (adopted === null)
            return postComment(sync); // it never landed: the identity is reserved again
        return updateComment(sync, adopted, 'adopted');
    }
    return updateComment(sync, { ...reserved, comment_id: reserved.comment_id }, 'unchanged');
}
/**
 * The reservation this sync would commit first for `run`, for the transition that produces `run` to
 * fold into its own commit (ledger.ts StatusFold): a first POST's when nothing is recorded yet, or a
 * PATCH's of the recorded comment when nothing is pending and the body changes. Null whenever the sync
 * has something to resolve first (an unanswered POST or PATCH), nothing to send, or no issue.
 */
function statusFold(request) {
    return (run) => {
        const reserved = run.status_comment ?? null;
        const issueNumber = request.issueNumber ?? reserved?.issue_number;
        if (issueNumber === undefined || (reserved !== null && reserved.issue_number !== issueNumber))
            return null;
        const wanted = (0,canonical_json/* digest */.br)(statusBody(request.runId, request.project(run)));
        if (reserved === null) {
            return { issue_number: issueNumber, comment_id: null, body_digest: null, pending_digest: wanted };
        }
        if (reserved.comment_id === null || reserved.pending_digest !== null || reserved.body_digest === wanted) {
            return null;
        }
        return { ...reserved, pending_digest: wanted };
    };
}
/**
 * After a first POST with no definite answer: the run's marker is looked for among Writ's own comments
 * on the issue. Found: the oldest is adopted (and recorded), later duplicates removed. Not found: null.
 * A POST made after its reservation was created after the reservation's server time, so the listing
 * starts there (less SINCE_SKEW_MS): one page however long the thread. A reservation recorded
 * before that time was kept reads from the first page, within the page cap.
 */
async function adoptLandedPost(sync, reservedAt) {
    const { github, logger } = sync.deps;
    const { repository, runId } = sync.request;
    const pages = commentPages(github, repository.owner, repository.repo, sync.issueNumber, sinceBefore(reservedAt));
    const found = await (0,precheck/* findOwnMarked */.u3)(pages, {
        marker: (0,key/* statusMarker */.Bs)(runId),
        ownLogin: sync.request.ownLogin,
    });
    sync.requests += found.pagesRead;
    if (found.status === 'inconclusive') {
        throw new errors/* WritError */.b9('precheck-inconclusive', `could not tell whether run ${runId}'s status comment exists (${found.reason})`);
    }
    if (found.status !== 'exists')
        return null;
    for (const duplicate of found.duplicates) {
        // A concurrent duplicate of Writ's own comment: the oldest wins, the others are removed.
        sync.requests += 1;
        await github.rest.issues.deleteComment({ ...repository, comment_id: duplicate.id });
        logger.warning(`removed duplicate status comment ${duplicate.id} of run ${runId}`);
    }
    const adopted = {
        issue_number: sync.issueNumber,
        comment_id: found.item.id,
        body_digest: (0,canonical_json/* digest */.br)(found.item.body ?? ''),
        pending_digest: null,
    };
    await sync.record(adopted);
    return adopted;
}
/**
 * The first POST: its identity reserved in the ledger first, never retried by the client (a retried
 * POST is how duplicates are born). A definite refusal clears the reservation; no answer at all leaves
 * it for the next sync to reconcile by the marker.
 */
async function postComment(sync, reserved = false) {
    const { repository, runId } = sync.request;
    const { issueNumber, wanted } = sync;
    if (!reserved) {
        await sync.record({
            issue_number: issueNumber,
            comment_id: null,
            body_digest: null,
            pending_digest: wanted,
        });
    }
    sync.requests += 1;
    let commentId;
    try {
        const { data } = await sync.deps.github.rest.issues.createComment({
            ...repository,
            issue_number: issueNumber,
            body: sync.body,
        });
        commentId = data.id;
    }
    catch (error) {
        if (isDefiniteFailure(error)) {
            await sync.record({
                issue_number: issueNumber,
                comment_id: null,
                body_digest: null,
                pending_digest: null,
            });
            throw error;
        }
        throw new errors/* WritError */.b9('precheck-inconclusive', `the status comment POST for run ${runId} had no definite answer (${(0,errors/* errorMessage */.gJ)(error)}); the next run reconciles it by its marker before posting again`);
    }
    await sync.record({
        issue_number: issueNumber,
        comment_id: commentId,
        body_digest: wanted,
        pending_digest: null,
    });
    return { action: 'created', commentId, commentRequests: sync.requests };
}
/**
 * An existing comment: nothing sent when it already holds the body; otherwise the update is reserved,
 * then PATCHed. An earlier update whose outcome is unknown is read back first unless this is the same
 * body (sending the same body again is idempotent). `same` is the action when nothing is sent.
 */
async function updateComment(sync, known, same) {
    const { github } = sync.deps;
    const { repository } = sync.request;
    const { wanted } = sync;
    const commentId = known.comment_id;
    let current = known;
    if (current.pending_digest !== null && current.pending_digest !== wanted) {
        // An earlier update's outcome is unknown: read the comment back before letting another overtake it.
        sync.requests += 1;
        const { data } = await github.rest.issues.getComment({ ...repository, comment_id: commentId });
        current = { ...current, body_digest: (0,canonical_json/* digest */.br)(data.body ?? ''), pending_digest: null };
        await sync.record(current);
    }
    if (current.pending_digest === null && current.body_digest === wanted) {
        return { action: same, commentId, commentRequests: sync.requests };
    }
    if (current.pending_digest !== wanted) {
        current = { ...current, pending_digest: wanted };
        await sync.record(current);
    }
    sync.requests += 1;
    await github.rest.issues.updateComment({ ...repository, comment_id: commentId, body: sync.body });
    await sync.record({ ...current, body_digest: wanted, pending_digest: null });
    return { action: 'updated', commentId, commentRequests: sync.requests };
}


/***/ })

};

//# sourceMappingURL=851.index.js.map