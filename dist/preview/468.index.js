export const id = 468;
export const ids = [468];
export const modules = {

/***/ 6468:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  followProject: () => (/* binding */ followProject)
});

// UNUSED EXPORTS: followStatus

// EXTERNAL MODULE: ./packages/core/src/errors.ts
var errors = __webpack_require__(7638);
// EXTERNAL MODULE: ./packages/core/src/ledger/ledger.ts + 3 modules
var ledger = __webpack_require__(7388);
// EXTERNAL MODULE: ./packages/core/src/untrusted-text.ts
var untrusted_text = __webpack_require__(2779);
// EXTERNAL MODULE: ./packages/core/src/github/commit-on-branch.ts
var commit_on_branch = __webpack_require__(149);
// EXTERNAL MODULE: ./packages/core/src/idempotency/key.ts
var key = __webpack_require__(6344);
// EXTERNAL MODULE: ./packages/core/src/idempotency/precheck.ts
var precheck = __webpack_require__(5724);
;// CONCATENATED MODULE: ./packages/core/src/projects/values.ts
const PROJECT_VALUE_KEYS = [
    'state',
    'risk',
    'verification',
    'decision',
    'blockers',
    'milestone',
];
/**
 * The field each value is written to, by name. GitHub gives every project built-in `Status` and `Milestone` fields (not writable as text),
 * so Writ's own names differ from them.
 */
const DEFAULT_FIELD_NAMES = {
    state: 'Writ state',
    risk: 'Risk',
    verification: 'Verification',
    decision: 'Decision',
    blockers: 'Blockers',
    milestone: 'Writ milestone',
};
/** The single-select option names a project needs for each value with a fixed vocabulary. */
const PROJECT_VOCABULARY = {
    state: ['proposed', 'approved', 'running', 'completed', 'failed', 'cancelled', 'needs-reconciliation'],
    risk: ['low', 'medium', 'high', 'unknown'],
    verification: ['not-started', 'in-progress', 'verified', 'needs-reconciliation', 'conflict', 'failed'],
    decision: ['awaiting-approval', 'approved', 'cancelled', 'not-approved', 'awaiting-reconciliation'],
};
/** A code or a step ID as the summary may show it: a short token of safe characters, else nothing. */
const TOKEN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** The blocker summary's bound (GitHub's text fields hold more; a summary is a glance). */
const MAX_BLOCKERS = 200;
function verification(run) {
    if (run.state === 'completed')
        return 'verified';
    if (run.state === 'needs-reconciliation')
        return 'needs-reconciliation';
    if (run.steps.some((step) => step.status === 'conflict'))
        return 'conflict';
    if (run.state === 'failed' || run.steps.some((step) => step.status === 'failed'))
        return 'failed';
    return run.steps.some((step) => step.status !== 'pending') ? 'in-progress' : 'not-started';
}
function decision(run) {
    if (run.state === 'proposed')
        return 'awaiting-approval';
    if (run.state === 'cancelled' || run.cancelled_by != null)
        return 'cancelled';
    if (run.state === 'needs-reconciliation')
        return 'awaiting-reconciliation';
    return run.approval === null ? 'not-approved' : 'approved';
}
function blockers(run) {
    const parts = [];
    const add = (part) => {
        if (!parts.includes(part))
            parts.push(part);
    };
    if (run.stop_reason !== null && TOKEN.test(run.stop_reason))
        add(run.stop_reason);
    for (const blocker of run.blockers)
        if (TOKEN.test(blocker))
            add(blocker);
    for (const step of run.steps) {
        if (step.status !== 'claimed' && step.status !== 'conflict' && step.status !== 'failed')
            continue;
        if (!TOKEN.test(step.id))
            continue;
        const reason = step.evidence?.error_code ?? null;
        add(reason !== null && TOKEN.test(reason) ? `${step.id}:${reason}` : `${step.id}:${step.status}`);
    }
    if (parts.length === 0)
        return 'none';
    let summary = '';
    for (const part of parts) {
        const next = summary === '' ? part : `${summary}, ${part}`;
        if (next.length > MAX_BLOCKERS)
            return `${summary}, …`;
        summary = next;
    }
    return summary;
}
/** The six values of the run's project item. */
function projectValues(run) {
    const done = run.steps.filter((step) => step.status === 'done').length;
    return {
        state: run.state,
        risk: run.preview?.risk ?? 'unknown',
        verification: verification(run),
        decision: decision(run),
        blockers: blockers(run),
        milestone: `${done}/${run.steps.length} steps done`,
    };
}

;// CONCATENATED MODULE: ./packages/core/src/projects/sync.ts






/** Items read per page, and pages read at most (500 items) before the listing is inconclusive. */
const PAGE_SIZE = 50;
const MAX_PAGES = 10;
const ITEM_TEXT = "Writ keeps this item up to date from the run's ledger record. It is a view only: editing it changes nothing in the run, approves nothing and is not evidence.";
function readDocument(kind) {
    return `query WritProjectItems($owner: String!, $number: Int!, $after: String) {
  ${kind}(login: $owner) {
    projectV2(number: $number) {
      id
      closed
      fields(first: 50) {
        nodes {
          __typename
          ... on ProjectV2Field { id name dataType }
          ... on ProjectV2SingleSelectField { id name dataType options { id name } }
        }
      }
      items(first: ${PAGE_SIZE}, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id
          databaseId
          createdAt
          creator { __typename login ... on Bot { databaseId } }
          content { __typename ... on DraftIssue { body } }
          fieldValues(first: 50) {
            nodes {
              __typename
              ... on ProjectV2ItemFieldTextValue { text field { ... on ProjectV2Field { id } } }
              ... on ProjectV2ItemFieldSingleSelectValue {
                optionId
                field { ... on ProjectV2SingleSelectField { id } }
              }
            }
          }
        }
      }
    }
  }
}`;
}
const ADD_ITEM = `mutation WritProjectAddItem($input: AddProjectV2DraftIssueInput!) {
  addProjectV2DraftIssue(input: $input) { projectItem { id } }
}`;
const SET_FIELD = `mutation WritProjectSetField($input: UpdateProjectV2ItemFieldValueInput!) {
  updateProjectV2ItemFieldValue(input: $input) { projectV2Item { id } }
}`;
function json(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : null;
}
function list(value) {
    return Array.isArray(value) ? value : [];
}
function sync_text(value) {
    return typeof value === 'string' ? value : null;
}
/**
 * A failure of this projection: its code and a line for the log (no GitHub text unescaped). `owner`
 * says under which account kind the read failed, when it was the project read (doctor tells a missing
 * project of an organization from a login that is a user's or nobody's).
 */
class ProjectFailure extends Error {
    code;
    owner;
    constructor(code, message, owner) {
        super(message);
        this.code = code;
        this.owner = owner;
    }
}
/** One GraphQL request through the one client; GraphQL errors come back in `errors`, unthrown. */
async function graphql(github, query, variables) {
    const response = await github.request('POST /graphql', { query, variables });
    const body = json(response.data) ?? {};
    return { data: json(body.data), errors: list(body.errors).map((error) => json(error) ?? {}) };
}
/** GitHub's error types as this projection's codes. */
function failureOf(errors, what) {
    const types = errors.map((error) => sync_text(error.type) ?? 'error');
    const shown = types.map((type) => (/^[A-Z_]{1,40}$/.test(type) ? type : 'error')).join(', ');
    const code = types.includes('FORBIDDEN')
        ? 'project-access-denied'
        : types.includes('NOT_FOUND')
            ? 'project-not-found'
            : 'project-unavailable';
    return new ProjectFailure(code, `${what} answered ${shown}`);
}
function fieldsOf(project) {
    return list(json(project.fields)?.nodes).flatMap((value) => {
        const node = json(value);
        const id = sync_text(node?.id);
        const name = sync_text(node?.name);
        if (node === null || id === null || name === null)
            return [];
        const options = list(node.options).flatMap((option) => {
            const entry = json(option);
            const optionId = sync_text(entry?.id);
            const optionName = sync_text(entry?.name);
            return optionId === null || optionName === null ? [] : [{ id: optionId, name: optionName }];
        });
        return [{ id, name, dataType: sync_text(node.dataType) ?? '', options }];
    });
}
function itemOf(value) {
    const node = json(value);
    const nodeId = sync_text(node?.id);
    const databaseId = node?.databaseId;
    if (node === null || nodeId === null || typeof databaseId !== 'number')
        return null;
    const values = new Map();
    for (const entry of list(json(node.fieldValues)?.nodes)) {
        const fieldValue = json(entry);
        const fieldId = sync_text(json(fieldValue?.field)?.id);
        const current = sync_text(fieldValue?.text) ?? sync_text(fieldValue?.optionId);
        if (fieldId !== null && current !== null)
            values.set(fieldId, current);
    }
    return {
        id: databaseId,
        nodeId,
        created_at: sync_text(node.createdAt) ?? '',
        body: sync_text(json(node.content)?.body),
        user: (0,precheck/* graphqlAuthor */.jL)(node.creator),
        values,
    };
}
/**
 * One page of the project (the one query this projection reads with): as an organization's, else, when
 * GitHub has no organization of that login, as a user's. A failure carries the owner kind it failed under.
 */
async function readProjectPage(github, target, kind, after) {
    for (;;) {
        const answer = await graphql(github, readDocument(kind), {
            owner: target.owner,
            number: target.number,
            after,
        });
        const owner = json(answer.data?.[kind]);
        // No account of that kind with that login (the error is on the root field).
        const ownerMissing = answer.errors.some((error) => error.type === 'NOT_FOUND' && list(error.path).length === 1);
        // No organization of that login: the owner may be a user (whose project no app token reaches).
        if (owner === null && ownerMissing && kind === 'organization') {
            kind = 'user';
            continue;
        }
        const node = json(owner?.projectV2);
        const id = sync_text(node?.id);
        if (node === null || id === null) {
            const failure = failureOf(answer.errors, `project ${describe(target)}`);
            throw new ProjectFailure(failure.code, failure.message, owner === null && ownerMissing ? 'none' : kind);
        }
        const items = json(node.items);
        const pageInfo = json(items?.pageInfo);
        const next = sync_text(pageInfo?.endCursor);
        return {
            project: { id, owner: kind, closed: node.closed === true, fields: fieldsOf(node) },
            items: list(items?.nodes).flatMap((entry) => {
                const item = itemOf(entry);
                return item === null ? [] : [item];
            }),
            hasNext: pageInfo?.hasNextPage === true && next !== null,
            after: next,
        };
    }
}
/**
 * The project named by `target`, as this token sees it (doctor's `project-board` check reads it with the
 * same query the projection uses). Throws a `ProjectFailure` (its code, and the owner kind it failed
 * under) when GitHub answers an error, and the client's error when the request itself fails.
 */
async function readProject(github, target) {
    return (await readProjectPage(github, target, 'organization', null)).project;
}
/**
 * Reads the project (an organization's, else a user's) and looks for the run's item among Writ's own.
 * The listing is paged through `findOwnMarked`, which reads the pages in order.
 */
async function findItem(github, target, marker, ownLogin) {
    let kind = 'organization';
    /** What the pages read so far found (a holder: the page reader is a closure). */
    const seen = { project: null, failure: null };
    let after = null;
    const readPage = async () => {
        const page = await readProjectPage(github, target, kind, after);
        kind = page.project.owner;
        after = page.after;
        seen.project ??= page.project;
        return { items: page.items, hasNext: page.hasNext };
    };
    const remembered = async () => {
        try {
            return await readPage();
        }
        catch (error) {
            seen.failure =
                error instanceof ProjectFailure
                    ? error
                    : new ProjectFailure('project-unavailable', `reading the project failed: ${(0,untrusted_text/* escapeUntrusted */.sl)((0,errors/* errorMessage */.gJ)(error), 200)}`);
            throw seen.failure;
        }
    };
    const found = await (0,precheck/* findOwnMarked */.u3)(remembered, { marker, ownLogin, maxPages: MAX_PAGES });
    if (seen.failure !== null)
        throw seen.failure;
    const project = seen.project;
    if (found.status === 'inconclusive' || project === null) {
        throw new ProjectFailure('project-item-inconclusive', `the project's items were not all read`);
    }
    const foreign = found.foreign?.length ?? 0;
    return { project, item: found.status === 'exists' ? found.item : null, foreign };
}
function describe(target) {
    return `${(0,untrusted_text/* escapeUntrusted */.sl)(target.owner, 39)}/${target.number}`;
}
/** Sends one mutation once; an unknown outcome and a refusal are failures with their codes. */
async function mutate(github, query, input, what) {
    let answer;
    try {
        answer = await graphql(github, query, { input });
    }
    catch (error) {
        const outcome = (0,commit_on_branch/* writeOutcome */.gZ)(error) === 'unknown' ? 'its outcome is unknown' : 'it was refused';
        const status = (0,errors/* httpStatus */.nG)(error);
        throw new ProjectFailure(status === 403 ? 'project-access-denied' : 'project-unavailable', `${what}: ${outcome} (${status === undefined ? 'no response' : `HTTP ${status}`}); nothing is sent again now, the next follow reads the project first`);
    }
    if (answer.errors.length > 0 || answer.data === null)
        throw failureOf(answer.errors, what);
    return answer.data;
}
/**
 * Brings the run's project item up to date: finds it (or creates it), then sets each field whose value
 * differs. Never throws: a failure is logged as a warning with its code and returned as `skipped`.
 */
async function syncProjectItem(deps, request) {
    const { github, logger } = deps;
    const { target, run } = request;
    let mutations = 0;
    try {
        const marker = (0,key/* projectItemMarker */.fm)(run.run_id);
        const { project, item: existing, foreign } = await findItem(github, target, marker, request.ownLogin);
        if (foreign > 0) {
            logger.warning(`project ${describe(target)}: ${foreign} item(s) not created by Writ carry run ${run.run_id}'s marker; ignored, never adopted`);
        }
        let item = existing;
        let created = false;
        if (item === null) {
            mutations += 1;
            const data = await mutate(github, ADD_ITEM, { projectId: project.id, title: `Writ run ${run.run_id}`, body: (0,key/* withMarker */.Pe)(ITEM_TEXT, marker) }, `creating run ${run.run_id}'s project item`);
            const id = sync_text(json(json(data.addProjectV2DraftIssue)?.projectItem)?.id);
            if (id === null)
                throw new ProjectFailure('project-unavailable', 'the item create answered no item');
            item = { id: 0, nodeId: id, created_at: '', values: new Map() };
            created = true;
        }
        const values = projectValues(run);
        const names = DEFAULT_FIELD_NAMES;
        const missing = [];
        for (const key of PROJECT_VALUE_KEYS) {
            const field = project.fields.find((candidate) => candidate.name === names[key] &&
                (candidate.dataType === 'TEXT' || candidate.dataType === 'SINGLE_SELECT'));
            if (field === undefined) {
                missing.push(names[key]);
                continue;
            }
            let value;
            let wanted;
            if (field.dataType === 'TEXT') {
                wanted = values[key];
                value = { text: wanted };
            }
            else {
                const option = field.options.find((candidate) => candidate.name === values[key]);
                if (option === undefined) {
                    logger.warning(`project-option-missing: project ${describe(target)} field ${(0,untrusted_text/* escapeUntrusted */.sl)(field.name, 60)} has no option ${values[key]}; not shown`);
                    continue;
                }
                wanted = option.id;
                value = { singleSelectOptionId: wanted };
            }
            if (item.values.get(field.id) === wanted)
                continue;
            mutations += 1;
            await mutate(github, SET_FIELD, { projectId: project.id, itemId: item.nodeId, fieldId: field.id, value }, `setting ${key} on run ${run.run_id}'s project item`);
        }
        if (missing.length > 0) {
            logger.warning(`project-field-missing: project ${describe(target)} has no text or single-select field ${missing.map((name) => (0,untrusted_text/* escapeUntrusted */.sl)(name, 60)).join(', ')}; those values are not shown`);
        }
        const kind = created ? 'created' : mutations > 0 ? 'updated' : 'unchanged';
        return { kind, itemId: item.nodeId, mutations };
    }
    catch (error) {
        const failure = error instanceof ProjectFailure
            ? error
            : new ProjectFailure('project-unavailable', `unexpected failure: ${(0,untrusted_text/* escapeUntrusted */.sl)((0,errors/* errorMessage */.gJ)(error), 200)}`);
        logger.warning(`${failure.code}: run ${run.run_id}'s project item (project ${describe(target)}) not updated: ${failure.message}. The run is unchanged; the projection is presentation only.`);
        return { kind: 'skipped', code: failure.code, mutations };
    }
}

// EXTERNAL MODULE: ./packages/core/src/canonical-json.ts
var canonical_json = __webpack_require__(2962);
// EXTERNAL MODULE: ./packages/core/src/ledger/message.ts
var message = __webpack_require__(3512);
// EXTERNAL MODULE: ./packages/core/src/ledger/paths.ts
var paths = __webpack_require__(7111);
;// CONCATENATED MODULE: ./packages/core/src/status-comment/evidence-link.ts
/**
 * Durable evidence links (ops spec §14.2): a link a status comment may call durable must name the
 * repository, an exact 40- or 64-hex commit and a non-traversing repository-relative file path, as
 *
 *   https://<server>/OWNER/REPO/blob/<commit>/<path>
 *   https://raw.githubusercontent.com/OWNER/REPO/<commit>/<path>        (github.com)
 *   https://<server>/OWNER/REPO/raw/<commit>/<path>                     (GitHub Enterprise Server)
 *
 * where <server> is GITHUB_SERVER_URL's host (github.com by default). Everything else is refused with
 * `evidence-link-not-durable`: a moving ref (branch, tag, `HEAD`, a short SHA), an Actions run,
 * artifact or cache URL, a commit landing page, a query string, a fragment, credentials, a port, plain
 * HTTP, non-canonical percent-encoding, an empty, `.` or `..` segment, a backslash, and another
 * repository than the one the surface is bound to. The check is structural only: it fetches nothing and
 * proves nothing about the file's contents or the commit's reachability.
 */

const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const OWNER = /^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}$/;
const REPO = /^[A-Za-z0-9._-]{1,100}$/;
function refuse(why) {
    throw new WritError('evidence-link-not-durable', `the evidence link is not durable: ${why}`);
}
/** The host of GITHUB_SERVER_URL: HTTPS, a bare host (no credentials, port, path, query or fragment). */
function serverHost(serverUrl) {
    const match = /^https:\/\/([a-z0-9.-]+)\/?$/i.exec(serverUrl);
    if (match?.[1] === undefined) {
        throw new WritError('invalid-input', 'GITHUB_SERVER_URL must be https://<host> with nothing else');
    }
    return match[1].toLowerCase();
}
/** One path segment: percent-encoded exactly as encodeURIComponent encodes its decoded text. */
function decodeSegment(segment) {
    if (segment === '')
        refuse('the path has an empty segment');
    if (segment.includes('\\'))
        refuse('the path has a backslash');
    let decoded;
    try {
        decoded = decodeURIComponent(segment);
    }
    catch {
        refuse('the path has a malformed percent-escape');
    }
    if (decoded === '.' || decoded === '..')
        refuse('the path has a dot segment');
    if (decoded.includes('/') || decoded.includes('\\'))
        refuse('the path hides a separator in an escape');
    if (/[\u0000-\u001f\u007f]/.test(decoded))
        refuse('the path has a control character');
    if (encodeURIComponent(decoded) !== segment)
        refuse('the path is not canonically percent-encoded');
    return decoded;
}
/**
 * Validates a durable evidence link and returns what it names, or throws `evidence-link-not-durable`.
 * The message names the rule broken, never the link (it may carry a credential).
 */
function validateDurableEvidenceUrl(url, binding = {}) {
    const host = serverHost(binding.serverUrl ?? 'https://github.com');
    if (!/^[\x21-\x7e]+$/.test(url))
        refuse('it has whitespace, control or non-ASCII characters');
    if (url.includes('?'))
        refuse('it has a query string');
    if (url.includes('#'))
        refuse('it has a fragment');
    const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/]*)(\/.*)?$/.exec(url);
    if (match === null)
        refuse('it is not an absolute URL');
    const [, scheme, authority, rawPath] = match;
    if (scheme !== 'https')
        refuse('it is not HTTPS');
    if (authority.includes('@'))
        refuse('it embeds credentials');
    if (authority.includes(':'))
        refuse('it names a port');
    const linkHost = authority.toLowerCase();
    const raw = host === 'github.com' && linkHost === 'raw.githubusercontent.com';
    if (!raw && linkHost !== host) {
        refuse(/(^|\.)(actions\.githubusercontent\.com|blob\.core\.windows\.net)$/.test(linkHost)
            ? 'it is an Actions artifact or cache URL'
            : `it is not on ${host}`);
    }
    const segments = (rawPath ?? '/').slice(1).split('/');
    const [owner, repo, ...rest] = segments;
    if (owner === undefined ||
        repo === undefined ||
        !OWNER.test(owner) ||
        !REPO.test(repo) ||
        repo === '.' ||
        repo === '..') {
        refuse('it does not name a repository as OWNER/REPO');
    }
    let form;
    let commit;
    let pathSegments;
    if (raw) {
        form = 'raw';
        [commit, ...pathSegments] = rest;
    }
    else {
        const [kind, ...after] = rest;
        if (kind === 'actions')
            refuse('it is an Actions run or artifact URL');
        if (kind === 'commit' || kind === 'commits' || kind === 'tree')
            refuse('it does not identify an evidence file');
        if (kind !== 'blob' && kind !== 'raw')
            refuse('it is not a blob or raw file link');
        if (kind === 'raw' && host === 'github.com')
            refuse('github.com serves raw files from raw.githubusercontent.com');
        form = kind;
        [commit, ...pathSegments] = after;
    }
    if (commit === undefined || !COMMIT.test(commit)) {
        refuse('it does not name an exact 40- or 64-hex commit (a branch, tag or short SHA moves)');
    }
    if (pathSegments.length === 0 || (pathSegments.length === 1 && pathSegments[0] === '')) {
        refuse('it does not identify an evidence file');
    }
    const path = pathSegments.map(decodeSegment).join('/');
    if (binding.repository !== undefined &&
        binding.repository.toLowerCase() !== `${owner}/${repo}`.toLowerCase()) {
        refuse('it names another repository than the one this surface is bound to');
    }
    return { owner, repo, commit, path, form };
}
/** The blob permalink of `path` at `commit` in `repository`, validated like any other evidence link. */
function evidence_link_evidencePermalink(serverUrl, repository, commit, path) {
    const url = `https://${serverHost(serverUrl)}/${repository}/blob/${commit}/${path
        .split('/')
        .map((segment) => encodeURIComponent(segment))
        .join('/')}`;
    validateDurableEvidenceUrl(url, { repository, serverUrl });
    return url;
}

// EXTERNAL MODULE: ./packages/core/src/status-comment/sync.ts + 1 modules
var sync = __webpack_require__(6589);
;// CONCATENATED MODULE: ./packages/core/src/status-comment/repair.ts
/**
 * Status comment repair for recovery: the status sync (status-comment/sync.ts) sends nothing when the
 * ledger says the comment already carries the projection, so it cannot see a comment someone deleted
 * or edited by hand. This reads the recorded comment back first: a deleted one (404) has its identity
 * re-reserved in the ledger (replay re-checks that it is gone), a hand-edited one has the body it now
 * carries recorded; the sync then posts or patches it like any other change. Plus the durable evidence
 * link the projection shows: the run file at the run's last transition (never a status commit, so the
 * link stays put while only the projection is rewritten).
 */







/** History pages (100 commits each) searched for a run's last transition. */
const HISTORY_PAGES = 3;
/** The newest ledger commit of `runId` that is not a status record, searched from the head. */
async function lastRunCommit(ledger, headOid, runId) {
    let cursor = null;
    for (let page = 0; page < HISTORY_PAGES; page += 1) {
        const history = await ledger.store.readHistory(headOid, cursor, 100);
        for (const commit of history.commits) {
            const trailers = parseTrailers(commit.message);
            if (trailers?.runId === runId && trailers.transition !== 'status')
                return commit.oid;
        }
        if (!history.hasNextPage || history.endCursor === null)
            return null;
        cursor = history.endCursor;
    }
    return null;
}
/** The evidence link for a run: its run file at its last transition, or null when none is found. */
async function runEvidence(ledger, serverUrl, run, headOid) {
    const commit = await lastRunCommit(ledger, headOid, run.run_id);
    if (commit === null)
        return null;
    const { owner, repo } = ledger.store.location;
    return {
        url: evidencePermalink(serverUrl, `${owner}/${repo}`, commit, runFilePath(run.repository, run.run_id)),
        commit,
    };
}
/**
 * The preview part of a status body Writ wrote (marker line, projection lines, a blank line, the
 * preview): what a run's comment keeps showing when the plan recomputed now is another.
 */
function previewOf(body) {
    // The projection's own lines come first (each one line; an approved run's "next" paragraph after a
    // blank line), then the preview: persist's best-effort note when it shows one, else the preview's
    // heading. Untrusted text is escaped inline there, so neither can start a line before the preview.
    const starts = [PREVIEW_START, RESIDUAL_START]
        .map((start) => body.indexOf(`\n\n${start}`))
        .filter((at) => at >= 0);
    if (starts.length === 0)
        return null;
    return body.slice(Math.min(...starts) + 2);
}
/** How the preview (preview/render.ts renderPreview) starts. */
const PREVIEW_START = '## Writ plan preview: ';
/** How persist's best-effort note (persist.ts persistProjection) starts, when it precedes the preview. */
const RESIDUAL_START = '> **Best-effort** ';
async function repair_repairStatusComment(deps, request) {
    const { github, ledger } = deps;
    const { repository, runId } = request;
    let after = request.after?.run.run_id === runId ? request.after : undefined;
    const run = after?.run ?? (await readRun(ledger, runId)).run;
    const recorded = run?.status_comment ?? null;
    if (recorded === null)
        return 'no-status-comment';
    let preview = request.preview;
    let drifted = false;
    // An update whose outcome is unknown (pending) is the sync's to resolve; the comment is read here
    // then only to borrow the preview of a body Writ wrote (the one recorded, or the one pending).
    const pending = recorded.pending_digest !== null;
    if (recorded.comment_id !== null && (!pending || preview === null)) {
        let body = null;
        try {
            ({
                data: { body = '' },
            } = await github.rest.issues.getComment({ ...repository, comment_id: recorded.comment_id }));
        }
        catch (error) {
            if (httpStatus(error) !== 404)
                throw error;
        }
        const intact = body !== null && digest(body) === recorded.body_digest;
        // Only a body exactly as Writ wrote it (its digest is in the ledger) may lend its preview.
        const own = intact || (body !== null && digest(body) === recorded.pending_digest);
        if (preview === null && own && body !== null)
            preview = previewOf(body);
        if (preview === null)
            return 'plan-unavailable';
        // A pending update is left to the sync, which reads the comment back before overtaking it.
        if (!pending && body === null) {
            deps.logger.warning(`status comment ${recorded.comment_id} of run ${runId} was deleted: posting it again`);
            await recordStatusComment(ledger, {
                runId,
                statusComment: {
                    issue_number: recorded.issue_number,
                    comment_id: null,
                    body_digest: null,
                    pending_digest: null,
                },
            }, after === undefined ? {} : { from: after.head });
            after = undefined; // the sync reads the run this record left
            drifted = true;
        }
        else if (!pending && !intact) {
            deps.logger.warning(`status comment ${recorded.comment_id} of run ${runId} was edited: restoring it`);
            await recordStatusComment(ledger, { runId, statusComment: { ...recorded, body_digest: digest(body) } }, after === undefined ? {} : { from: after.head });
            after = undefined;
            drifted = true;
        }
    }
    if (preview === null)
        return 'plan-unavailable';
    const shown = preview;
    const synced = await syncStatusComment(deps, {
        repository,
        runId,
        project: (current) => request.render(current, shown),
        ownLogin: request.ownLogin,
        ...(after === undefined ? {} : { after }),
    });
    if (synced === null)
        return 'no-status-comment';
    if (drifted)
        return 'repaired';
    return synced.action === 'unchanged' ? 'unchanged' : 'updated';
}

// EXTERNAL MODULE: ./packages/core/src/status-comment/projection.ts
var projection = __webpack_require__(1319);
;// CONCATENATED MODULE: ./packages/core/src/status-comment/follow.ts
/**
 * The status comment follows the run: every stage that changes a run's state (claim-checkpoint, each
 * persist claim window and its end, publish-artifact's record, recovery) brings the run's one status
 * comment up to date through the one sync (sync.ts), never a writer of its own:
 *  - at most one update per call (a stage calls it once per invocation, persist once per claim window
 *    and once when it ends); the sync sends nothing when the projection is unchanged;
 *  - the preview comes from the plan when the stage has it; a stage without the plan (claim-checkpoint)
 *    reads the comment back and keeps the preview of the body Writ last wrote, and only a body whose
 *    digest the ledger holds (status-comment/repair.ts);
 *  - a failure is reported, never thrown: the ledger is the authority, and the next stage or recovery
 *    repairs the comment. Nothing is sent again here (the client never retries a write, and a PATCH
 *    whose outcome is unknown stays reserved in the ledger for the next sync to read back);
 *  - when a Projects (v2) project is configured (`project`), the run's project item follows too
 *    (projects/sync.ts), after the comment: presentation only, it never throws and never changes the
 *    result, the ledger or the comment (a failure is a warning with its code).
 */







/** Brings the run's status comment (and, when configured, its project item) up to date once; never throws. */
async function followStatus(deps, request) {
    const result = await followComment(deps, request);
    if (request.project != null)
        await followProject(deps, { ...request, project: request.project });
    return result;
}
/**
 * The run's project item, from the run as the caller left it (else as the ledger holds it); never
 * throws. followStatus calls it after the comment; a stage that syncs its comment itself (the approval)
 * calls it after that sync.
 */
async function followProject(deps, request) {
    const target = request.project;
    try {
        const run = request.after?.run ?? (await (0,ledger/* readRun */.cI)(deps.ledger, request.runId)).run;
        if (run === null)
            return;
        await syncProjectItem(deps, { target, run, ownLogin: request.ownLogin });
    }
    catch (error) {
        deps.logger.warning(`project-unavailable: run ${(0,untrusted_text/* escapeUntrusted */.sl)(request.runId, 64)}'s project item not updated (the run could not be read: ${(0,errors/* failureMessage */.oh)(error)}); the run is unchanged.`);
    }
}
async function followComment(deps, request) {
    const { runId } = request;
    // A run without a status comment (a preview without `status-issue`): nothing to read or send.
    if (request.after !== undefined && (request.after.run.status_comment ?? null) === null) {
        return { line: '', ok: true };
    }
    const after = request.after?.head === undefined ? undefined : { run: request.after.run, head: request.after.head };
    const render = (run, preview) => renderStatusProjection(run, preview, request.extras ?? {});
    try {
        if (request.preview === null) {
            const outcome = await repairStatusComment(deps, {
                repository: request.repository,
                runId,
                ownLogin: request.ownLogin,
                preview: null,
                render,
                ...(after === undefined ? {} : { after }),
            });
            if (outcome === 'no-status-comment')
                return { line: '', ok: true };
            if (outcome === 'plan-unavailable') {
                return {
                    line: 'Status comment not updated (its last body is not the one Writ wrote); recovery repairs it from the plan.',
                    ok: true,
                };
            }
            return { line: `Status comment: ${outcome}.`, ok: true };
        }
        const preview = request.preview;
        const synced = await syncStatusComment(deps, {
            repository: request.repository,
            runId,
            project: (run) => render(run, preview),
            ownLogin: request.ownLogin,
            ...(after === undefined ? {} : { after }),
        });
        return { line: synced === null ? '' : `Status comment ${synced.commentId}: ${synced.action}.`, ok: true };
    }
    catch (error) {
        deps.logger.warning(`status comment of run ${runId} not updated: ${failureMessage(error)}`);
        return {
            line: `Status comment not updated (${errorCode(error)}); the run's progress stands in the ledger. The next stage or recovery brings the comment up to date.`,
            ok: false,
        };
    }
}


/***/ })

};

//# sourceMappingURL=468.index.js.map