export const id = 287;
export const ids = [287];
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

/***/ 8287:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  proposeAndPublishStatus: () => (/* binding */ proposeAndPublishStatus)
});

// EXTERNAL MODULE: ./packages/core/src/errors.ts
var errors = __webpack_require__(7638);
// EXTERNAL MODULE: ./packages/core/src/plan/run-id.ts
var run_id = __webpack_require__(720);
// EXTERNAL MODULE: ./packages/core/src/redact.ts
var redact = __webpack_require__(796);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
;// CONCATENATED MODULE: ./packages/core/src/ledger/message.ts
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
];
const TRANSITION_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[0-9]{1,4}$/;
function formatMessage(trailers) {
    const run = trailers.runId === null ? '' : ` ${trailers.runId}`;
    const lines = [
        `Writ-Transition: ${trailers.transition}`,
        ...(trailers.runId === null ? [] : [`Writ-Run: ${trailers.runId}`]),
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
    const comment = values.get('Writ-Comment');
    if (transition === undefined ||
        !TRANSITIONS.includes(transition) ||
        !Number.isSafeInteger(epoch) ||
        epoch < 0 ||
        transitionId === undefined ||
        (runId !== null && !(0,run_id/* isValidRunId */.LU)(runId)) ||
        (comment !== undefined && !/^[1-9][0-9]{0,15}$/.test(comment))) {
        return null;
    }
    return {
        transition: transition,
        runId,
        epoch,
        transitionId,
        commentId: comment === undefined ? null : Number(comment),
    };
}

// EXTERNAL MODULE: ./packages/core/src/ledger/paths.ts
var ledger_paths = __webpack_require__(7111);
;// CONCATENATED MODULE: ./packages/core/src/ledger/provenance.ts
/**
 * Provenance: the ledger is authority only if its history proves app-only, append-only writes. Fails
 * closed with `ledger-provenance-unproven` naming the first rule that does not hold:
 *  - a ruleset on the branch blocks deletion and non-fast-forward and restricts updates, with no bypass
 *    actor other than the ledger app, and was not changed after the root commit;
 *  - the oldest commit is parentless, and no other commit is (no merges either);
 *  - every commit is authored by the configured app (`<slug>[bot]`) and carries a valid GitHub signature;
 *  - consumed run IDs and comment IDs are collected from the whole history (commit trailers).
 *
 * Cost: a full check reads ceil(N / 100) history pages for N commits plus the ruleset reads. The
 * incremental check starts from `provenance.json`, a checkpoint the app itself wrote in an earlier
 * transition commit after proving the history below it; it re-proves every commit above the checkpoint
 * (usually within the one read's first page) and trusts the part below it, which the checkpoint's
 * commit ID pins (a commit ID covers all its ancestors). Rulesets are read every time.
 */


function unproven(rule, details = {}) {
    return new errors/* WritError */.b9('ledger-provenance-unproven', rule, { details });
}
const REQUIRED_RULES = ['deletion', 'non_fast_forward', 'update'];
/** Checks the branch rulesets. Returns the ruleset IDs and the number of requests made. */
async function checkRulesets(store, app, rootCommittedAt) {
    let requests = 1;
    const rules = await store.branchRules();
    const byType = new Map();
    for (const rule of rules)
        byType.set(rule.type, [...(byType.get(rule.type) ?? []), rule.rulesetId]);
    for (const type of REQUIRED_RULES) {
        if (!byType.has(type)) {
            throw unproven(`No active ruleset on branch ${store.location.branch} has a ${type} rule (needed: deletion, non_fast_forward and update restricted to the ledger app).`, { rule: type });
        }
    }
    const ids = [...new Set(REQUIRED_RULES.flatMap((type) => byType.get(type) ?? []))].sort((a, b) => a - b);
    for (const id of ids) {
        requests += 1;
        const ruleset = await store.ruleset(id);
        if (ruleset.enforcement !== 'active') {
            throw unproven(`Ruleset ${id} on the ledger branch is not actively enforced.`, { ruleset: id });
        }
        if (ruleset.bypassActors === null) {
            throw unproven(`Ruleset ${id}'s bypass actors are not visible to this token, so updates cannot be proven restricted to the ledger app.`, { ruleset: id });
        }
        const other = ruleset.bypassActors.find((actor) => !(actor.actorType === 'Integration' && actor.actorId === app.id));
        if (other !== undefined) {
            throw unproven(`Ruleset ${id} lets a ${other.actorType} actor other than the ledger app (app ID ${app.id}) bypass it.`, { ruleset: id });
        }
        // Compared in whole seconds: git commit dates have no milliseconds.
        if (rootCommittedAt !== null &&
            ruleset.updatedAt !== null &&
            Math.floor(ruleset.updatedAt / 1000) > Math.floor(rootCommittedAt / 1000)) {
            throw unproven(`Ruleset ${id} was changed after the ledger root commit; the owner must re-provision the ledger.`, { ruleset: id });
        }
    }
    const updateIds = byType.get('update') ?? [];
    if (updateIds.length === 0)
        throw unproven('No ruleset restricts updates of the ledger branch.');
    return { rulesetIds: ids, requests };
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
/**
 * Proves the ledger history of `headOid`. Throws `ledger-provenance-unproven` on the first rule that
 * fails; returns the tombstone sets on success.
 */
async function verifyProvenance(store, app, headOid, options) {
    let requests = 0;
    const checkpoint = options.mode === 'incremental' ? (options.checkpoint ?? null) : null;
    const consumedRunIds = new Set();
    const consumedCommentIds = new Set();
    let page = options.firstPage;
    if (page === undefined || page.commits.length === 0) {
        requests += 1;
        page = await store.readHistory(headOid, null, 100);
    }
    let checked = 0;
    let rootOid = null;
    let rootCommittedAt = null;
    let usedCheckpoint = false;
    let totalCommits = 0;
    for (;;) {
        for (const commit of page.commits) {
            if (rootOid !== null) {
                throw unproven(`A second parentless commit (${rootOid}) precedes commit ${commit.oid} in the ledger history.`);
            }
            if (checkpoint !== null && commit.oid === checkpoint.verified_through) {
                usedCheckpoint = true;
                rootOid = checkpoint.root_oid;
                rootCommittedAt = Date.parse(checkpoint.root_committed_at);
                totalCommits = checked + checkpoint.verified_commits;
                for (const id of checkpoint.consumed_run_ids)
                    consumedRunIds.add(id);
                for (const id of checkpoint.consumed_comment_ids)
                    consumedCommentIds.add(id);
                break;
            }
            const problem = commitProblem(commit, app);
            if (problem !== null)
                throw unproven(`Ledger history rule failed: ${problem}.`, { commit: commit.oid });
            checked += 1;
            const trailers = parseTrailers(commit.message);
            if (trailers?.transition === 'consume' && trailers.runId !== null) {
                consumedRunIds.add(trailers.runId);
                if (trailers.commentId !== null)
                    consumedCommentIds.add(trailers.commentId);
            }
            if (commit.parentCount === 0) {
                rootOid = commit.oid;
                rootCommittedAt = commit.committedAt;
                totalCommits = checked;
            }
        }
        if (usedCheckpoint)
            break;
        if (!page.hasNextPage || page.endCursor === null)
            break;
        requests += 1;
        page = await store.readHistory(headOid, page.endCursor, 100);
    }
    if (rootOid === null)
        throw unproven('The ledger history has no parentless root commit.');
    const rulesets = await checkRulesets(store, app, rootCommittedAt);
    requests += rulesets.requests;
    return {
        headOid,
        rootOid,
        rootCommittedAt,
        commitsChecked: checked,
        totalCommits,
        requests,
        usedCheckpoint,
        rulesetIds: rulesets.rulesetIds,
        consumedRunIds,
        consumedCommentIds,
    };
}
/** The checkpoint a transition commit records after proving the history through `report.headOid`. */
function checkpointFrom(report) {
    return {
        schema: 1,
        root_oid: report.rootOid,
        root_committed_at: new Date(report.rootCommittedAt ?? 0).toISOString(),
        verified_through: report.headOid,
        verified_commits: report.totalCommits,
        consumed_run_ids: [...report.consumedRunIds].sort(),
        consumed_comment_ids: [...report.consumedCommentIds].sort((a, b) => a - b),
    };
}

;// CONCATENATED MODULE: ./packages/core/src/generated/lease-validator.js
// Generated by scripts/generate-validators.mjs from the schema named below. Do not edit.
// Schema: schemas/ledger/lease.schema.json

const validate = (/* unused pure expression or super */ null && (validate20));/* harmony default export */ const lease_validator = (validate20);const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://writ.dev/schemas/ledger/lease.schema.json","type":"object","additionalProperties":false,"required":["schema","epoch","holder","lease_expires_at"],"properties":{"schema":{"const":1},"epoch":{"type":"integer","minimum":0,"maximum":9007199254740991},"holder":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/holder"}]},"lease_expires_at":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/timestamp"}]}},"$defs":{"holder":{"type":"object","additionalProperties":false,"required":["run_id","workflow_run_id","attempt"],"properties":{"run_id":{"type":"string","pattern":"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"},"workflow_run_id":{"type":"integer","minimum":0,"maximum":9007199254740991},"attempt":{"type":"integer","minimum":1,"maximum":1000000}}},"timestamp":{"type":"string","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"}}};const schema32 = {"type":"object","additionalProperties":false,"required":["run_id","workflow_run_id","attempt"],"properties":{"run_id":{"type":"string","pattern":"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"},"workflow_run_id":{"type":"integer","minimum":0,"maximum":9007199254740991},"attempt":{"type":"integer","minimum":1,"maximum":1000000}}};const schema33 = {"type":"string","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"};const pattern4 = new RegExp("^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$", "u");const pattern5 = new RegExp("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$", "u");function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){/*# sourceURL="https://writ.dev/schemas/ledger/lease.schema.json" */;let vErrors = null;let errors = 0;const evaluated0 = validate20.evaluated;if(evaluated0.dynamicProps){evaluated0.props = undefined;}if(evaluated0.dynamicItems){evaluated0.items = undefined;}if(data && typeof data == "object" && !Array.isArray(data)){if(data.schema === undefined){const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "schema"},message:"must have required property '"+"schema"+"'"};if(vErrors === null){vErrors = [err0];}else {vErrors.push(err0);}errors++;}if(data.epoch === undefined){const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "epoch"},message:"must have required property '"+"epoch"+"'"};if(vErrors === null){vErrors = [err1];}else {vErrors.push(err1);}errors++;}if(data.holder === undefined){const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "holder"},message:"must have required property '"+"holder"+"'"};if(vErrors === null){vErrors = [err2];}else {vErrors.push(err2);}errors++;}if(data.lease_expires_at === undefined){const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "lease_expires_at"},message:"must have required property '"+"lease_expires_at"+"'"};if(vErrors === null){vErrors = [err3];}else {vErrors.push(err3);}errors++;}for(const key0 in data){if(!((((key0 === "schema") || (key0 === "epoch")) || (key0 === "holder")) || (key0 === "lease_expires_at"))){const err4 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err4];}else {vErrors.push(err4);}errors++;}}if(data.schema !== undefined){if(1 !== data.schema){const err5 = {instancePath:instancePath+"/schema",schemaPath:"#/properties/schema/const",keyword:"const",params:{allowedValue: 1},message:"must be equal to constant"};if(vErrors === null){vErrors = [err5];}else {vErrors.push(err5);}errors++;}}if(data.epoch !== undefined){let data1 = data.epoch;if(!(((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1))) && (isFinite(data1)))){const err6 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err6];}else {vErrors.push(err6);}errors++;}if((typeof data1 == "number") && (isFinite(data1))){if(data1 > 9007199254740991 || isNaN(data1)){const err7 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err7];}else {vErrors.push(err7);}errors++;}if(data1 < 0 || isNaN(data1)){const err8 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};if(vErrors === null){vErrors = [err8];}else {vErrors.push(err8);}errors++;}}}if(data.holder !== undefined){let data2 = data.holder;const _errs6 = errors;let valid1 = false;let passing0 = null;const _errs7 = errors;if(data2 !== null){const err9 = {instancePath:instancePath+"/holder",schemaPath:"#/properties/holder/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err9];}else {vErrors.push(err9);}errors++;}var _valid0 = _errs7 === errors;if(_valid0){valid1 = true;passing0 = 0;}const _errs9 = errors;if(data2 && typeof data2 == "object" && !Array.isArray(data2)){if(data2.run_id === undefined){const err10 = {instancePath:instancePath+"/holder",schemaPath:"#/$defs/holder/required",keyword:"required",params:{missingProperty: "run_id"},message:"must have required property '"+"run_id"+"'"};if(vErrors === null){vErrors = [err10];}else {vErrors.push(err10);}errors++;}if(data2.workflow_run_id === undefined){const err11 = {instancePath:instancePath+"/holder",schemaPath:"#/$defs/holder/required",keyword:"required",params:{missingProperty: "workflow_run_id"},message:"must have required property '"+"workflow_run_id"+"'"};if(vErrors === null){vErrors = [err11];}else {vErrors.push(err11);}errors++;}if(data2.attempt === undefined){const err12 = {instancePath:instancePath+"/holder",schemaPath:"#/$defs/holder/required",keyword:"required",params:{missingProperty: "attempt"},message:"must have required property '"+"attempt"+"'"};if(vErrors === null){vErrors = [err12];}else {vErrors.push(err12);}errors++;}for(const key1 in data2){if(!(((key1 === "run_id") || (key1 === "workflow_run_id")) || (key1 === "attempt"))){const err13 = {instancePath:instancePath+"/holder",schemaPath:"#/$defs/holder/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err13];}else {vErrors.push(err13);}errors++;}}if(data2.run_id !== undefined){let data3 = data2.run_id;if(typeof data3 === "string"){if(!pattern4.test(data3)){const err14 = {instancePath:instancePath+"/holder/run_id",schemaPath:"#/$defs/holder/properties/run_id/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"},message:"must match pattern \""+"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"+"\""};if(vErrors === null){vErrors = [err14];}else {vErrors.push(err14);}errors++;}}else {const err15 = {instancePath:instancePath+"/holder/run_id",schemaPath:"#/$defs/holder/properties/run_id/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err15];}else {vErrors.push(err15);}errors++;}}if(data2.workflow_run_id !== undefined){let data4 = data2.workflow_run_id;if(!(((typeof data4 == "number") && (!(data4 % 1) && !isNaN(data4))) && (isFinite(data4)))){const err16 = {instancePath:instancePath+"/holder/workflow_run_id",schemaPath:"#/$defs/holder/properties/workflow_run_id/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err16];}else {vErrors.push(err16);}errors++;}if((typeof data4 == "number") && (isFinite(data4))){if(data4 > 9007199254740991 || isNaN(data4)){const err17 = {instancePath:instancePath+"/holder/workflow_run_id",schemaPath:"#/$defs/holder/properties/workflow_run_id/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err17];}else {vErrors.push(err17);}errors++;}if(data4 < 0 || isNaN(data4)){const err18 = {instancePath:instancePath+"/holder/workflow_run_id",schemaPath:"#/$defs/holder/properties/workflow_run_id/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};if(vErrors === null){vErrors = [err18];}else {vErrors.push(err18);}errors++;}}}if(data2.attempt !== undefined){let data5 = data2.attempt;if(!(((typeof data5 == "number") && (!(data5 % 1) && !isNaN(data5))) && (isFinite(data5)))){const err19 = {instancePath:instancePath+"/holder/attempt",schemaPath:"#/$defs/holder/properties/attempt/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err19];}else {vErrors.push(err19);}errors++;}if((typeof data5 == "number") && (isFinite(data5))){if(data5 > 1000000 || isNaN(data5)){const err20 = {instancePath:instancePath+"/holder/attempt",schemaPath:"#/$defs/holder/properties/attempt/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000000},message:"must be <= 1000000"};if(vErrors === null){vErrors = [err20];}else {vErrors.push(err20);}errors++;}if(data5 < 1 || isNaN(data5)){const err21 = {instancePath:instancePath+"/holder/attempt",schemaPath:"#/$defs/holder/properties/attempt/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err21];}else {vErrors.push(err21);}errors++;}}}}else {const err22 = {instancePath:instancePath+"/holder",schemaPath:"#/$defs/holder/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err22];}else {vErrors.push(err22);}errors++;}var _valid0 = _errs9 === errors;if(_valid0 && valid1){valid1 = false;passing0 = [passing0, 1];}else {if(_valid0){valid1 = true;passing0 = 1;}}if(!valid1){const err23 = {instancePath:instancePath+"/holder",schemaPath:"#/properties/holder/oneOf",keyword:"oneOf",params:{passingSchemas: passing0},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err23];}else {vErrors.push(err23);}errors++;}else {errors = _errs6;if(vErrors !== null){if(_errs6){vErrors.length = _errs6;}else {vErrors = null;}}}}if(data.lease_expires_at !== undefined){let data6 = data.lease_expires_at;const _errs20 = errors;let valid4 = false;let passing1 = null;const _errs21 = errors;if(data6 !== null){const err24 = {instancePath:instancePath+"/lease_expires_at",schemaPath:"#/properties/lease_expires_at/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err24];}else {vErrors.push(err24);}errors++;}var _valid1 = _errs21 === errors;if(_valid1){valid4 = true;passing1 = 0;}const _errs23 = errors;if(typeof data6 === "string"){if(!pattern5.test(data6)){const err25 = {instancePath:instancePath+"/lease_expires_at",schemaPath:"#/$defs/timestamp/pattern",keyword:"pattern",params:{pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"},message:"must match pattern \""+"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"+"\""};if(vErrors === null){vErrors = [err25];}else {vErrors.push(err25);}errors++;}}else {const err26 = {instancePath:instancePath+"/lease_expires_at",schemaPath:"#/$defs/timestamp/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err26];}else {vErrors.push(err26);}errors++;}var _valid1 = _errs23 === errors;if(_valid1 && valid4){valid4 = false;passing1 = [passing1, 1];}else {if(_valid1){valid4 = true;passing1 = 1;}}if(!valid4){const err27 = {instancePath:instancePath+"/lease_expires_at",schemaPath:"#/properties/lease_expires_at/oneOf",keyword:"oneOf",params:{passingSchemas: passing1},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err27];}else {vErrors.push(err27);}errors++;}else {errors = _errs20;if(vErrors !== null){if(_errs20){vErrors.length = _errs20;}else {vErrors = null;}}}}}else {const err28 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err28];}else {vErrors.push(err28);}errors++;}validate20.errors = vErrors;return errors === 0;}validate20.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

// EXTERNAL MODULE: ./node_modules/ajv/dist/runtime/ucs2length.js
var ucs2length = __webpack_require__(6214);
;// CONCATENATED MODULE: ./packages/core/src/generated/ledger-root-validator.js
// Generated by scripts/generate-validators.mjs from the schema named below. Do not edit.
// Schema: schemas/ledger/ledger-root.schema.json

"use strict";const ledger_root_validator_validate = (/* unused pure expression or super */ null && (ledger_root_validator_validate20));/* harmony default export */ const ledger_root_validator = (ledger_root_validator_validate20);const ledger_root_validator_schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://writ.dev/schemas/ledger/ledger-root.schema.json","type":"object","additionalProperties":false,"required":["schema","repository","branch"],"properties":{"schema":{"const":1},"repository":{"type":"string","maxLength":140,"pattern":"^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$"},"branch":{"type":"string","minLength":1,"maxLength":200,"pattern":"^[A-Za-z0-9][A-Za-z0-9._/-]*$"}}};const func1 = ucs2length/* default */.A;const ledger_root_validator_pattern4 = new RegExp("^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$", "u");const ledger_root_validator_pattern5 = new RegExp("^[A-Za-z0-9][A-Za-z0-9._/-]*$", "u");function ledger_root_validator_validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){/*# sourceURL="https://writ.dev/schemas/ledger/ledger-root.schema.json" */;let vErrors = null;let errors = 0;const evaluated0 = ledger_root_validator_validate20.evaluated;if(evaluated0.dynamicProps){evaluated0.props = undefined;}if(evaluated0.dynamicItems){evaluated0.items = undefined;}if(data && typeof data == "object" && !Array.isArray(data)){if(data.schema === undefined){const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "schema"},message:"must have required property '"+"schema"+"'"};if(vErrors === null){vErrors = [err0];}else {vErrors.push(err0);}errors++;}if(data.repository === undefined){const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "repository"},message:"must have required property '"+"repository"+"'"};if(vErrors === null){vErrors = [err1];}else {vErrors.push(err1);}errors++;}if(data.branch === undefined){const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "branch"},message:"must have required property '"+"branch"+"'"};if(vErrors === null){vErrors = [err2];}else {vErrors.push(err2);}errors++;}for(const key0 in data){if(!(((key0 === "schema") || (key0 === "repository")) || (key0 === "branch"))){const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err3];}else {vErrors.push(err3);}errors++;}}if(data.schema !== undefined){if(1 !== data.schema){const err4 = {instancePath:instancePath+"/schema",schemaPath:"#/properties/schema/const",keyword:"const",params:{allowedValue: 1},message:"must be equal to constant"};if(vErrors === null){vErrors = [err4];}else {vErrors.push(err4);}errors++;}}if(data.repository !== undefined){let data1 = data.repository;if(typeof data1 === "string"){if(func1(data1) > 140){const err5 = {instancePath:instancePath+"/repository",schemaPath:"#/properties/repository/maxLength",keyword:"maxLength",params:{limit: 140},message:"must NOT have more than 140 characters"};if(vErrors === null){vErrors = [err5];}else {vErrors.push(err5);}errors++;}if(!ledger_root_validator_pattern4.test(data1)){const err6 = {instancePath:instancePath+"/repository",schemaPath:"#/properties/repository/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$"},message:"must match pattern \""+"^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$"+"\""};if(vErrors === null){vErrors = [err6];}else {vErrors.push(err6);}errors++;}}else {const err7 = {instancePath:instancePath+"/repository",schemaPath:"#/properties/repository/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err7];}else {vErrors.push(err7);}errors++;}}if(data.branch !== undefined){let data2 = data.branch;if(typeof data2 === "string"){if(func1(data2) > 200){const err8 = {instancePath:instancePath+"/branch",schemaPath:"#/properties/branch/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters"};if(vErrors === null){vErrors = [err8];}else {vErrors.push(err8);}errors++;}if(func1(data2) < 1){const err9 = {instancePath:instancePath+"/branch",schemaPath:"#/properties/branch/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};if(vErrors === null){vErrors = [err9];}else {vErrors.push(err9);}errors++;}if(!ledger_root_validator_pattern5.test(data2)){const err10 = {instancePath:instancePath+"/branch",schemaPath:"#/properties/branch/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9][A-Za-z0-9._/-]*$"},message:"must match pattern \""+"^[A-Za-z0-9][A-Za-z0-9._/-]*$"+"\""};if(vErrors === null){vErrors = [err10];}else {vErrors.push(err10);}errors++;}}else {const err11 = {instancePath:instancePath+"/branch",schemaPath:"#/properties/branch/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err11];}else {vErrors.push(err11);}errors++;}}}else {const err12 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err12];}else {vErrors.push(err12);}errors++;}ledger_root_validator_validate20.errors = vErrors;return errors === 0;}ledger_root_validator_validate20.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

;// CONCATENATED MODULE: ./packages/core/src/generated/provenance-validator.js
// Generated by scripts/generate-validators.mjs from the schema named below. Do not edit.
// Schema: schemas/ledger/provenance.schema.json

const provenance_validator_validate = (/* unused pure expression or super */ null && (provenance_validator_validate20));/* harmony default export */ const provenance_validator = (provenance_validator_validate20);const provenance_validator_schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://writ.dev/schemas/ledger/provenance.schema.json","type":"object","additionalProperties":false,"required":["schema","root_oid","root_committed_at","verified_through","verified_commits","consumed_run_ids","consumed_comment_ids"],"properties":{"schema":{"const":1},"root_oid":{"$ref":"#/$defs/oid"},"root_committed_at":{"type":"string","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"},"verified_through":{"$ref":"#/$defs/oid"},"verified_commits":{"type":"integer","minimum":1,"maximum":9007199254740991},"consumed_run_ids":{"type":"array","uniqueItems":true,"maxItems":1000000,"items":{"type":"string","pattern":"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"}},"consumed_comment_ids":{"type":"array","uniqueItems":true,"maxItems":1000000,"items":{"type":"integer","minimum":1,"maximum":9007199254740991}}},"$defs":{"oid":{"type":"string","pattern":"^[0-9a-f]{40}$"}}};const provenance_validator_schema32 = {"type":"string","pattern":"^[0-9a-f]{40}$"};const provenance_validator_pattern4 = new RegExp("^[0-9a-f]{40}$", "u");const provenance_validator_pattern5 = new RegExp("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$", "u");const pattern7 = new RegExp("^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$", "u");function provenance_validator_validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){/*# sourceURL="https://writ.dev/schemas/ledger/provenance.schema.json" */;let vErrors = null;let errors = 0;const evaluated0 = provenance_validator_validate20.evaluated;if(evaluated0.dynamicProps){evaluated0.props = undefined;}if(evaluated0.dynamicItems){evaluated0.items = undefined;}if(data && typeof data == "object" && !Array.isArray(data)){if(data.schema === undefined){const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "schema"},message:"must have required property '"+"schema"+"'"};if(vErrors === null){vErrors = [err0];}else {vErrors.push(err0);}errors++;}if(data.root_oid === undefined){const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "root_oid"},message:"must have required property '"+"root_oid"+"'"};if(vErrors === null){vErrors = [err1];}else {vErrors.push(err1);}errors++;}if(data.root_committed_at === undefined){const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "root_committed_at"},message:"must have required property '"+"root_committed_at"+"'"};if(vErrors === null){vErrors = [err2];}else {vErrors.push(err2);}errors++;}if(data.verified_through === undefined){const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "verified_through"},message:"must have required property '"+"verified_through"+"'"};if(vErrors === null){vErrors = [err3];}else {vErrors.push(err3);}errors++;}if(data.verified_commits === undefined){const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "verified_commits"},message:"must have required property '"+"verified_commits"+"'"};if(vErrors === null){vErrors = [err4];}else {vErrors.push(err4);}errors++;}if(data.consumed_run_ids === undefined){const err5 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "consumed_run_ids"},message:"must have required property '"+"consumed_run_ids"+"'"};if(vErrors === null){vErrors = [err5];}else {vErrors.push(err5);}errors++;}if(data.consumed_comment_ids === undefined){const err6 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "consumed_comment_ids"},message:"must have required property '"+"consumed_comment_ids"+"'"};if(vErrors === null){vErrors = [err6];}else {vErrors.push(err6);}errors++;}for(const key0 in data){if(!(((((((key0 === "schema") || (key0 === "root_oid")) || (key0 === "root_committed_at")) || (key0 === "verified_through")) || (key0 === "verified_commits")) || (key0 === "consumed_run_ids")) || (key0 === "consumed_comment_ids"))){const err7 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err7];}else {vErrors.push(err7);}errors++;}}if(data.schema !== undefined){if(1 !== data.schema){const err8 = {instancePath:instancePath+"/schema",schemaPath:"#/properties/schema/const",keyword:"const",params:{allowedValue: 1},message:"must be equal to constant"};if(vErrors === null){vErrors = [err8];}else {vErrors.push(err8);}errors++;}}if(data.root_oid !== undefined){let data1 = data.root_oid;if(typeof data1 === "string"){if(!provenance_validator_pattern4.test(data1)){const err9 = {instancePath:instancePath+"/root_oid",schemaPath:"#/$defs/oid/pattern",keyword:"pattern",params:{pattern: "^[0-9a-f]{40}$"},message:"must match pattern \""+"^[0-9a-f]{40}$"+"\""};if(vErrors === null){vErrors = [err9];}else {vErrors.push(err9);}errors++;}}else {const err10 = {instancePath:instancePath+"/root_oid",schemaPath:"#/$defs/oid/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err10];}else {vErrors.push(err10);}errors++;}}if(data.root_committed_at !== undefined){let data2 = data.root_committed_at;if(typeof data2 === "string"){if(!provenance_validator_pattern5.test(data2)){const err11 = {instancePath:instancePath+"/root_committed_at",schemaPath:"#/properties/root_committed_at/pattern",keyword:"pattern",params:{pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"},message:"must match pattern \""+"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"+"\""};if(vErrors === null){vErrors = [err11];}else {vErrors.push(err11);}errors++;}}else {const err12 = {instancePath:instancePath+"/root_committed_at",schemaPath:"#/properties/root_committed_at/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err12];}else {vErrors.push(err12);}errors++;}}if(data.verified_through !== undefined){let data3 = data.verified_through;if(typeof data3 === "string"){if(!provenance_validator_pattern4.test(data3)){const err13 = {instancePath:instancePath+"/verified_through",schemaPath:"#/$defs/oid/pattern",keyword:"pattern",params:{pattern: "^[0-9a-f]{40}$"},message:"must match pattern \""+"^[0-9a-f]{40}$"+"\""};if(vErrors === null){vErrors = [err13];}else {vErrors.push(err13);}errors++;}}else {const err14 = {instancePath:instancePath+"/verified_through",schemaPath:"#/$defs/oid/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err14];}else {vErrors.push(err14);}errors++;}}if(data.verified_commits !== undefined){let data4 = data.verified_commits;if(!(((typeof data4 == "number") && (!(data4 % 1) && !isNaN(data4))) && (isFinite(data4)))){const err15 = {instancePath:instancePath+"/verified_commits",schemaPath:"#/properties/verified_commits/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err15];}else {vErrors.push(err15);}errors++;}if((typeof data4 == "number") && (isFinite(data4))){if(data4 > 9007199254740991 || isNaN(data4)){const err16 = {instancePath:instancePath+"/verified_commits",schemaPath:"#/properties/verified_commits/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err16];}else {vErrors.push(err16);}errors++;}if(data4 < 1 || isNaN(data4)){const err17 = {instancePath:instancePath+"/verified_commits",schemaPath:"#/properties/verified_commits/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err17];}else {vErrors.push(err17);}errors++;}}}if(data.consumed_run_ids !== undefined){let data5 = data.consumed_run_ids;if(Array.isArray(data5)){if(data5.length > 1000000){const err18 = {instancePath:instancePath+"/consumed_run_ids",schemaPath:"#/properties/consumed_run_ids/maxItems",keyword:"maxItems",params:{limit: 1000000},message:"must NOT have more than 1000000 items"};if(vErrors === null){vErrors = [err18];}else {vErrors.push(err18);}errors++;}const len0 = data5.length;for(let i0=0; i0<len0; i0++){let data6 = data5[i0];if(typeof data6 === "string"){if(!pattern7.test(data6)){const err19 = {instancePath:instancePath+"/consumed_run_ids/" + i0,schemaPath:"#/properties/consumed_run_ids/items/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"},message:"must match pattern \""+"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"+"\""};if(vErrors === null){vErrors = [err19];}else {vErrors.push(err19);}errors++;}}else {const err20 = {instancePath:instancePath+"/consumed_run_ids/" + i0,schemaPath:"#/properties/consumed_run_ids/items/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err20];}else {vErrors.push(err20);}errors++;}}let i1 = data5.length;let j0;if(i1 > 1){const indices0 = {};for(;i1--;){let item0 = data5[i1];if(typeof item0 !== "string"){continue;}if(typeof indices0[item0] == "number"){j0 = indices0[item0];const err21 = {instancePath:instancePath+"/consumed_run_ids",schemaPath:"#/properties/consumed_run_ids/uniqueItems",keyword:"uniqueItems",params:{i: i1, j: j0},message:"must NOT have duplicate items (items ## "+j0+" and "+i1+" are identical)"};if(vErrors === null){vErrors = [err21];}else {vErrors.push(err21);}errors++;break;}indices0[item0] = i1;}}}else {const err22 = {instancePath:instancePath+"/consumed_run_ids",schemaPath:"#/properties/consumed_run_ids/type",keyword:"type",params:{type: "array"},message:"must be array"};if(vErrors === null){vErrors = [err22];}else {vErrors.push(err22);}errors++;}}if(data.consumed_comment_ids !== undefined){let data7 = data.consumed_comment_ids;if(Array.isArray(data7)){if(data7.length > 1000000){const err23 = {instancePath:instancePath+"/consumed_comment_ids",schemaPath:"#/properties/consumed_comment_ids/maxItems",keyword:"maxItems",params:{limit: 1000000},message:"must NOT have more than 1000000 items"};if(vErrors === null){vErrors = [err23];}else {vErrors.push(err23);}errors++;}const len1 = data7.length;for(let i2=0; i2<len1; i2++){let data8 = data7[i2];if(!(((typeof data8 == "number") && (!(data8 % 1) && !isNaN(data8))) && (isFinite(data8)))){const err24 = {instancePath:instancePath+"/consumed_comment_ids/" + i2,schemaPath:"#/properties/consumed_comment_ids/items/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err24];}else {vErrors.push(err24);}errors++;}if((typeof data8 == "number") && (isFinite(data8))){if(data8 > 9007199254740991 || isNaN(data8)){const err25 = {instancePath:instancePath+"/consumed_comment_ids/" + i2,schemaPath:"#/properties/consumed_comment_ids/items/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err25];}else {vErrors.push(err25);}errors++;}if(data8 < 1 || isNaN(data8)){const err26 = {instancePath:instancePath+"/consumed_comment_ids/" + i2,schemaPath:"#/properties/consumed_comment_ids/items/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err26];}else {vErrors.push(err26);}errors++;}}}let i3 = data7.length;let j1;if(i3 > 1){const indices1 = {};for(;i3--;){let item1 = data7[i3];if(!(((typeof item1 == "number") && (!(item1 % 1) && !isNaN(item1))) && (isFinite(item1)))){continue;}if(typeof indices1[item1] == "number"){j1 = indices1[item1];const err27 = {instancePath:instancePath+"/consumed_comment_ids",schemaPath:"#/properties/consumed_comment_ids/uniqueItems",keyword:"uniqueItems",params:{i: i3, j: j1},message:"must NOT have duplicate items (items ## "+j1+" and "+i3+" are identical)"};if(vErrors === null){vErrors = [err27];}else {vErrors.push(err27);}errors++;break;}indices1[item1] = i3;}}}else {const err28 = {instancePath:instancePath+"/consumed_comment_ids",schemaPath:"#/properties/consumed_comment_ids/type",keyword:"type",params:{type: "array"},message:"must be array"};if(vErrors === null){vErrors = [err28];}else {vErrors.push(err28);}errors++;}}}else {const err29 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err29];}else {vErrors.push(err29);}errors++;}provenance_validator_validate20.errors = vErrors;return errors === 0;}provenance_validator_validate20.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

;// CONCATENATED MODULE: ./packages/core/src/generated/run-validator.js
// Generated by scripts/generate-validators.mjs from the schema named below. Do not edit.
// Schema: schemas/ledger/run.schema.json

"use strict";const run_validator_validate = (/* unused pure expression or super */ null && (run_validator_validate20));/* harmony default export */ const run_validator = (run_validator_validate20);const run_validator_schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://writ.dev/schemas/ledger/run.schema.json","type":"object","additionalProperties":false,"required":["schema","repository","run_id","plan_digest","evidence_digest","scope","bounds","state","approval","owner","steps","stop_reason","blockers","proposed_at"],"properties":{"schema":{"const":1},"repository":{"$ref":"#/$defs/repository"},"run_id":{"$ref":"#/$defs/runId"},"plan_digest":{"$ref":"#/$defs/digest"},"evidence_digest":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/digest"}]},"scope":{"type":"object","additionalProperties":false,"required":["repository","digest"],"properties":{"repository":{"$ref":"#/$defs/repository"},"digest":{"$ref":"#/$defs/digest"}}},"bounds":{"type":"object","additionalProperties":false,"required":["max_steps"],"properties":{"max_steps":{"type":"integer","minimum":1,"maximum":1000},"max_creates":{"type":"integer","minimum":0,"maximum":1000},"max_issues_touched":{"type":"integer","minimum":0,"maximum":10000}}},"state":{"enum":["proposed","approved","running","completed","failed","cancelled","needs-reconciliation"]},"approval":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/approval"}]},"owner":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/owner"}]},"steps":{"type":"array","minItems":1,"maxItems":1000,"items":{"$ref":"#/$defs/step"}},"stop_reason":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/code"}]},"blockers":{"type":"array","maxItems":100,"items":{"$ref":"#/$defs/code"}},"proposed_at":{"$ref":"#/$defs/timestamp"},"proposer":{"oneOf":[{"type":"null"},{"type":"object","additionalProperties":false,"required":["actor_id"],"properties":{"actor_id":{"$ref":"#/$defs/id"}}}]},"status_comment":{"oneOf":[{"type":"null"},{"type":"object","additionalProperties":false,"required":["issue_number","comment_id","body_digest","pending_digest"],"properties":{"issue_number":{"$ref":"#/$defs/id"},"comment_id":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/id"}]},"body_digest":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/digest"}]},"pending_digest":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/digest"}]}}}]},"artifact":{"oneOf":[{"type":"null"},{"type":"object","additionalProperties":false,"required":["commit_oid","pr_number","content_digest"],"properties":{"commit_oid":{"type":"string","pattern":"^[0-9a-f]{40}$"},"pr_number":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/id"}]},"content_digest":{"$ref":"#/$defs/digest"}}}]}},"$defs":{"repository":{"type":"string","maxLength":140,"pattern":"^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$"},"runId":{"type":"string","pattern":"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"},"digest":{"type":"string","pattern":"^sha256:[0-9a-f]{64}$"},"timestamp":{"type":"string","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"},"id":{"type":"integer","minimum":1,"maximum":9007199254740991},"login":{"type":"string","pattern":"^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}(?:\\[bot\\])?$"},"code":{"type":"string","maxLength":64,"pattern":"^[a-z0-9]+(?:-[a-z0-9]+)*$"},"holder":{"type":"object","additionalProperties":false,"required":["run_id","workflow_run_id","attempt"],"properties":{"run_id":{"$ref":"#/$defs/runId"},"workflow_run_id":{"type":"integer","minimum":0,"maximum":9007199254740991},"attempt":{"type":"integer","minimum":1,"maximum":1000000}}},"owner":{"type":"object","additionalProperties":false,"required":["epoch","holder"],"properties":{"epoch":{"type":"integer","minimum":1,"maximum":9007199254740991},"holder":{"$ref":"#/$defs/holder"}}},"approval":{"type":"object","additionalProperties":false,"required":["actor_login","actor_id","role_name","comment_id","comment_url","digest","consumed_at","epoch"],"properties":{"actor_login":{"$ref":"#/$defs/login"},"actor_id":{"$ref":"#/$defs/id"},"role_name":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[A-Za-z0-9][A-Za-z0-9 _.-]*$"},"comment_id":{"$ref":"#/$defs/id"},"comment_url":{"type":"string","maxLength":400,"pattern":"^https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?/[A-Za-z0-9._/-]{1,300}#issuecomment-[0-9]{1,20}$"},"digest":{"$ref":"#/$defs/digest"},"consumed_at":{"$ref":"#/$defs/timestamp"},"epoch":{"type":"integer","minimum":1,"maximum":9007199254740991}}},"actor":{"type":"object","additionalProperties":false,"required":["actor_login","actor_id","role_name"],"properties":{"actor_login":{"$ref":"#/$defs/login"},"actor_id":{"$ref":"#/$defs/id"},"role_name":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[A-Za-z0-9][A-Za-z0-9 _.-]*$"}}},"step":{"type":"object","additionalProperties":false,"required":["id","kind","status","epoch","pre_state_digest","evidence","resources","reconciled_by"],"properties":{"id":{"type":"string","minLength":1,"maxLength":64,"pattern":"^[a-z0-9][a-z0-9._-]*$"},"kind":{"enum":["milestone.upsert","milestone.edit","issue.set-milestone","issue.labels","issue.create","comment.upsert","external"]},"status":{"enum":["pending","claimed","done","conflict","failed"]},"epoch":{"oneOf":[{"type":"null"},{"type":"integer","minimum":1,"maximum":9007199254740991}]},"pre_state_digest":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/digest"}]},"evidence":{"oneOf":[{"type":"null"},{"type":"object","additionalProperties":false,"required":["status_code","error_code"],"properties":{"status_code":{"oneOf":[{"type":"null"},{"type":"integer","minimum":100,"maximum":599}]},"error_code":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/code"}]}}}]},"resources":{"type":"array","maxItems":100,"items":{"$ref":"#/$defs/id"}},"reconciled_by":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/actor"}]}}}}};const run_validator_schema32 = {"type":"string","maxLength":140,"pattern":"^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$"};const run_validator_schema33 = {"type":"string","pattern":"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"};const schema34 = {"type":"string","pattern":"^sha256:[0-9a-f]{64}$"};const schema49 = {"type":"string","maxLength":64,"pattern":"^[a-z0-9]+(?:-[a-z0-9]+)*$"};const schema43 = {"type":"string","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"};const schema40 = {"type":"integer","minimum":1,"maximum":9007199254740991};const run_validator_func1 = Object.prototype.hasOwnProperty;const func2 = ucs2length/* default */.A;const run_validator_pattern4 = new RegExp("^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$", "u");const run_validator_pattern5 = new RegExp("^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$", "u");const pattern6 = new RegExp("^sha256:[0-9a-f]{64}$", "u");const pattern18 = new RegExp("^[a-z0-9]+(?:-[a-z0-9]+)*$", "u");const pattern14 = new RegExp("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$", "u");const pattern26 = new RegExp("^[0-9a-f]{40}$", "u");const schema38 = {"type":"object","additionalProperties":false,"required":["actor_login","actor_id","role_name","comment_id","comment_url","digest","consumed_at","epoch"],"properties":{"actor_login":{"$ref":"#/$defs/login"},"actor_id":{"$ref":"#/$defs/id"},"role_name":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[A-Za-z0-9][A-Za-z0-9 _.-]*$"},"comment_id":{"$ref":"#/$defs/id"},"comment_url":{"type":"string","maxLength":400,"pattern":"^https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?/[A-Za-z0-9._/-]{1,300}#issuecomment-[0-9]{1,20}$"},"digest":{"$ref":"#/$defs/digest"},"consumed_at":{"$ref":"#/$defs/timestamp"},"epoch":{"type":"integer","minimum":1,"maximum":9007199254740991}}};const schema39 = {"type":"string","pattern":"^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}(?:\\[bot\\])?$"};const pattern10 = new RegExp("^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}(?:\\[bot\\])?$", "u");const pattern11 = new RegExp("^[A-Za-z0-9][A-Za-z0-9 _.-]*$", "u");const pattern12 = new RegExp("^https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?/[A-Za-z0-9._/-]{1,300}#issuecomment-[0-9]{1,20}$", "u");function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){let vErrors = null;let errors = 0;const evaluated0 = validate21.evaluated;if(evaluated0.dynamicProps){evaluated0.props = undefined;}if(evaluated0.dynamicItems){evaluated0.items = undefined;}if(data && typeof data == "object" && !Array.isArray(data)){if(data.actor_login === undefined){const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "actor_login"},message:"must have required property '"+"actor_login"+"'"};if(vErrors === null){vErrors = [err0];}else {vErrors.push(err0);}errors++;}if(data.actor_id === undefined){const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "actor_id"},message:"must have required property '"+"actor_id"+"'"};if(vErrors === null){vErrors = [err1];}else {vErrors.push(err1);}errors++;}if(data.role_name === undefined){const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "role_name"},message:"must have required property '"+"role_name"+"'"};if(vErrors === null){vErrors = [err2];}else {vErrors.push(err2);}errors++;}if(data.comment_id === undefined){const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "comment_id"},message:"must have required property '"+"comment_id"+"'"};if(vErrors === null){vErrors = [err3];}else {vErrors.push(err3);}errors++;}if(data.comment_url === undefined){const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "comment_url"},message:"must have required property '"+"comment_url"+"'"};if(vErrors === null){vErrors = [err4];}else {vErrors.push(err4);}errors++;}if(data.digest === undefined){const err5 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "digest"},message:"must have required property '"+"digest"+"'"};if(vErrors === null){vErrors = [err5];}else {vErrors.push(err5);}errors++;}if(data.consumed_at === undefined){const err6 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "consumed_at"},message:"must have required property '"+"consumed_at"+"'"};if(vErrors === null){vErrors = [err6];}else {vErrors.push(err6);}errors++;}if(data.epoch === undefined){const err7 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "epoch"},message:"must have required property '"+"epoch"+"'"};if(vErrors === null){vErrors = [err7];}else {vErrors.push(err7);}errors++;}for(const key0 in data){if(!((((((((key0 === "actor_login") || (key0 === "actor_id")) || (key0 === "role_name")) || (key0 === "comment_id")) || (key0 === "comment_url")) || (key0 === "digest")) || (key0 === "consumed_at")) || (key0 === "epoch"))){const err8 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err8];}else {vErrors.push(err8);}errors++;}}if(data.actor_login !== undefined){let data0 = data.actor_login;if(typeof data0 === "string"){if(!pattern10.test(data0)){const err9 = {instancePath:instancePath+"/actor_login",schemaPath:"#/$defs/login/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}(?:\\[bot\\])?$"},message:"must match pattern \""+"^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}(?:\\[bot\\])?$"+"\""};if(vErrors === null){vErrors = [err9];}else {vErrors.push(err9);}errors++;}}else {const err10 = {instancePath:instancePath+"/actor_login",schemaPath:"#/$defs/login/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err10];}else {vErrors.push(err10);}errors++;}}if(data.actor_id !== undefined){let data1 = data.actor_id;if(!(((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1))) && (isFinite(data1)))){const err11 = {instancePath:instancePath+"/actor_id",schemaPath:"#/$defs/id/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err11];}else {vErrors.push(err11);}errors++;}if((typeof data1 == "number") && (isFinite(data1))){if(data1 > 9007199254740991 || isNaN(data1)){const err12 = {instancePath:instancePath+"/actor_id",schemaPath:"#/$defs/id/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err12];}else {vErrors.push(err12);}errors++;}if(data1 < 1 || isNaN(data1)){const err13 = {instancePath:instancePath+"/actor_id",schemaPath:"#/$defs/id/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err13];}else {vErrors.push(err13);}errors++;}}}if(data.role_name !== undefined){let data2 = data.role_name;if(typeof data2 === "string"){if(func2(data2) > 100){const err14 = {instancePath:instancePath+"/role_name",schemaPath:"#/properties/role_name/maxLength",keyword:"maxLength",params:{limit: 100},message:"must NOT have more than 100 characters"};if(vErrors === null){vErrors = [err14];}else {vErrors.push(err14);}errors++;}if(func2(data2) < 1){const err15 = {instancePath:instancePath+"/role_name",schemaPath:"#/properties/role_name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};if(vErrors === null){vErrors = [err15];}else {vErrors.push(err15);}errors++;}if(!pattern11.test(data2)){const err16 = {instancePath:instancePath+"/role_name",schemaPath:"#/properties/role_name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9][A-Za-z0-9 _.-]*$"},message:"must match pattern \""+"^[A-Za-z0-9][A-Za-z0-9 _.-]*$"+"\""};if(vErrors === null){vErrors = [err16];}else {vErrors.push(err16);}errors++;}}else {const err17 = {instancePath:instancePath+"/role_name",schemaPath:"#/properties/role_name/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err17];}else {vErrors.push(err17);}errors++;}}if(data.comment_id !== undefined){let data3 = data.comment_id;if(!(((typeof data3 == "number") && (!(data3 % 1) && !isNaN(data3))) && (isFinite(data3)))){const err18 = {instancePath:instancePath+"/comment_id",schemaPath:"#/$defs/id/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err18];}else {vErrors.push(err18);}errors++;}if((typeof data3 == "number") && (isFinite(data3))){if(data3 > 9007199254740991 || isNaN(data3)){const err19 = {instancePath:instancePath+"/comment_id",schemaPath:"#/$defs/id/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err19];}else {vErrors.push(err19);}errors++;}if(data3 < 1 || isNaN(data3)){const err20 = {instancePath:instancePath+"/comment_id",schemaPath:"#/$defs/id/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err20];}else {vErrors.push(err20);}errors++;}}}if(data.comment_url !== undefined){let data4 = data.comment_url;if(typeof data4 === "string"){if(func2(data4) > 400){const err21 = {instancePath:instancePath+"/comment_url",schemaPath:"#/properties/comment_url/maxLength",keyword:"maxLength",params:{limit: 400},message:"must NOT have more than 400 characters"};if(vErrors === null){vErrors = [err21];}else {vErrors.push(err21);}errors++;}if(!pattern12.test(data4)){const err22 = {instancePath:instancePath+"/comment_url",schemaPath:"#/properties/comment_url/pattern",keyword:"pattern",params:{pattern: "^https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?/[A-Za-z0-9._/-]{1,300}#issuecomment-[0-9]{1,20}$"},message:"must match pattern \""+"^https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?/[A-Za-z0-9._/-]{1,300}#issuecomment-[0-9]{1,20}$"+"\""};if(vErrors === null){vErrors = [err22];}else {vErrors.push(err22);}errors++;}}else {const err23 = {instancePath:instancePath+"/comment_url",schemaPath:"#/properties/comment_url/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err23];}else {vErrors.push(err23);}errors++;}}if(data.digest !== undefined){let data5 = data.digest;if(typeof data5 === "string"){if(!pattern6.test(data5)){const err24 = {instancePath:instancePath+"/digest",schemaPath:"#/$defs/digest/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""};if(vErrors === null){vErrors = [err24];}else {vErrors.push(err24);}errors++;}}else {const err25 = {instancePath:instancePath+"/digest",schemaPath:"#/$defs/digest/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err25];}else {vErrors.push(err25);}errors++;}}if(data.consumed_at !== undefined){let data6 = data.consumed_at;if(typeof data6 === "string"){if(!pattern14.test(data6)){const err26 = {instancePath:instancePath+"/consumed_at",schemaPath:"#/$defs/timestamp/pattern",keyword:"pattern",params:{pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"},message:"must match pattern \""+"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"+"\""};if(vErrors === null){vErrors = [err26];}else {vErrors.push(err26);}errors++;}}else {const err27 = {instancePath:instancePath+"/consumed_at",schemaPath:"#/$defs/timestamp/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err27];}else {vErrors.push(err27);}errors++;}}if(data.epoch !== undefined){let data7 = data.epoch;if(!(((typeof data7 == "number") && (!(data7 % 1) && !isNaN(data7))) && (isFinite(data7)))){const err28 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err28];}else {vErrors.push(err28);}errors++;}if((typeof data7 == "number") && (isFinite(data7))){if(data7 > 9007199254740991 || isNaN(data7)){const err29 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err29];}else {vErrors.push(err29);}errors++;}if(data7 < 1 || isNaN(data7)){const err30 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err30];}else {vErrors.push(err30);}errors++;}}}}else {const err31 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err31];}else {vErrors.push(err31);}errors++;}validate21.errors = vErrors;return errors === 0;}validate21.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};const schema44 = {"type":"object","additionalProperties":false,"required":["epoch","holder"],"properties":{"epoch":{"type":"integer","minimum":1,"maximum":9007199254740991},"holder":{"$ref":"#/$defs/holder"}}};const schema45 = {"type":"object","additionalProperties":false,"required":["run_id","workflow_run_id","attempt"],"properties":{"run_id":{"$ref":"#/$defs/runId"},"workflow_run_id":{"type":"integer","minimum":0,"maximum":9007199254740991},"attempt":{"type":"integer","minimum":1,"maximum":1000000}}};function validate24(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){let vErrors = null;let errors = 0;const evaluated0 = validate24.evaluated;if(evaluated0.dynamicProps){evaluated0.props = undefined;}if(evaluated0.dynamicItems){evaluated0.items = undefined;}if(data && typeof data == "object" && !Array.isArray(data)){if(data.run_id === undefined){const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "run_id"},message:"must have required property '"+"run_id"+"'"};if(vErrors === null){vErrors = [err0];}else {vErrors.push(err0);}errors++;}if(data.workflow_run_id === undefined){const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "workflow_run_id"},message:"must have required property '"+"workflow_run_id"+"'"};if(vErrors === null){vErrors = [err1];}else {vErrors.push(err1);}errors++;}if(data.attempt === undefined){const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "attempt"},message:"must have required property '"+"attempt"+"'"};if(vErrors === null){vErrors = [err2];}else {vErrors.push(err2);}errors++;}for(const key0 in data){if(!(((key0 === "run_id") || (key0 === "workflow_run_id")) || (key0 === "attempt"))){const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err3];}else {vErrors.push(err3);}errors++;}}if(data.run_id !== undefined){let data0 = data.run_id;if(typeof data0 === "string"){if(!run_validator_pattern5.test(data0)){const err4 = {instancePath:instancePath+"/run_id",schemaPath:"#/$defs/runId/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"},message:"must match pattern \""+"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"+"\""};if(vErrors === null){vErrors = [err4];}else {vErrors.push(err4);}errors++;}}else {const err5 = {instancePath:instancePath+"/run_id",schemaPath:"#/$defs/runId/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err5];}else {vErrors.push(err5);}errors++;}}if(data.workflow_run_id !== undefined){let data1 = data.workflow_run_id;if(!(((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1))) && (isFinite(data1)))){const err6 = {instancePath:instancePath+"/workflow_run_id",schemaPath:"#/properties/workflow_run_id/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err6];}else {vErrors.push(err6);}errors++;}if((typeof data1 == "number") && (isFinite(data1))){if(data1 > 9007199254740991 || isNaN(data1)){const err7 = {instancePath:instancePath+"/workflow_run_id",schemaPath:"#/properties/workflow_run_id/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err7];}else {vErrors.push(err7);}errors++;}if(data1 < 0 || isNaN(data1)){const err8 = {instancePath:instancePath+"/workflow_run_id",schemaPath:"#/properties/workflow_run_id/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};if(vErrors === null){vErrors = [err8];}else {vErrors.push(err8);}errors++;}}}if(data.attempt !== undefined){let data2 = data.attempt;if(!(((typeof data2 == "number") && (!(data2 % 1) && !isNaN(data2))) && (isFinite(data2)))){const err9 = {instancePath:instancePath+"/attempt",schemaPath:"#/properties/attempt/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err9];}else {vErrors.push(err9);}errors++;}if((typeof data2 == "number") && (isFinite(data2))){if(data2 > 1000000 || isNaN(data2)){const err10 = {instancePath:instancePath+"/attempt",schemaPath:"#/properties/attempt/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000000},message:"must be <= 1000000"};if(vErrors === null){vErrors = [err10];}else {vErrors.push(err10);}errors++;}if(data2 < 1 || isNaN(data2)){const err11 = {instancePath:instancePath+"/attempt",schemaPath:"#/properties/attempt/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err11];}else {vErrors.push(err11);}errors++;}}}}else {const err12 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err12];}else {vErrors.push(err12);}errors++;}validate24.errors = vErrors;return errors === 0;}validate24.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};function validate23(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){let vErrors = null;let errors = 0;const evaluated0 = validate23.evaluated;if(evaluated0.dynamicProps){evaluated0.props = undefined;}if(evaluated0.dynamicItems){evaluated0.items = undefined;}if(data && typeof data == "object" && !Array.isArray(data)){if(data.epoch === undefined){const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "epoch"},message:"must have required property '"+"epoch"+"'"};if(vErrors === null){vErrors = [err0];}else {vErrors.push(err0);}errors++;}if(data.holder === undefined){const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "holder"},message:"must have required property '"+"holder"+"'"};if(vErrors === null){vErrors = [err1];}else {vErrors.push(err1);}errors++;}for(const key0 in data){if(!((key0 === "epoch") || (key0 === "holder"))){const err2 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err2];}else {vErrors.push(err2);}errors++;}}if(data.epoch !== undefined){let data0 = data.epoch;if(!(((typeof data0 == "number") && (!(data0 % 1) && !isNaN(data0))) && (isFinite(data0)))){const err3 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err3];}else {vErrors.push(err3);}errors++;}if((typeof data0 == "number") && (isFinite(data0))){if(data0 > 9007199254740991 || isNaN(data0)){const err4 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err4];}else {vErrors.push(err4);}errors++;}if(data0 < 1 || isNaN(data0)){const err5 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err5];}else {vErrors.push(err5);}errors++;}}}if(data.holder !== undefined){if(!(validate24(data.holder, {instancePath:instancePath+"/holder",parentData:data,parentDataProperty:"holder",rootData,dynamicAnchors}))){vErrors = vErrors === null ? validate24.errors : vErrors.concat(validate24.errors);errors = vErrors.length;}}}else {const err6 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err6];}else {vErrors.push(err6);}errors++;}validate23.errors = vErrors;return errors === 0;}validate23.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};const schema47 = {"type":"object","additionalProperties":false,"required":["id","kind","status","epoch","pre_state_digest","evidence","resources","reconciled_by"],"properties":{"id":{"type":"string","minLength":1,"maxLength":64,"pattern":"^[a-z0-9][a-z0-9._-]*$"},"kind":{"enum":["milestone.upsert","milestone.edit","issue.set-milestone","issue.labels","issue.create","comment.upsert","external"]},"status":{"enum":["pending","claimed","done","conflict","failed"]},"epoch":{"oneOf":[{"type":"null"},{"type":"integer","minimum":1,"maximum":9007199254740991}]},"pre_state_digest":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/digest"}]},"evidence":{"oneOf":[{"type":"null"},{"type":"object","additionalProperties":false,"required":["status_code","error_code"],"properties":{"status_code":{"oneOf":[{"type":"null"},{"type":"integer","minimum":100,"maximum":599}]},"error_code":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/code"}]}}}]},"resources":{"type":"array","maxItems":100,"items":{"$ref":"#/$defs/id"}},"reconciled_by":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/actor"}]}}};const pattern16 = new RegExp("^[a-z0-9][a-z0-9._-]*$", "u");const schema51 = {"type":"object","additionalProperties":false,"required":["actor_login","actor_id","role_name"],"properties":{"actor_login":{"$ref":"#/$defs/login"},"actor_id":{"$ref":"#/$defs/id"},"role_name":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[A-Za-z0-9][A-Za-z0-9 _.-]*$"}}};function validate28(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){let vErrors = null;let errors = 0;const evaluated0 = validate28.evaluated;if(evaluated0.dynamicProps){evaluated0.props = undefined;}if(evaluated0.dynamicItems){evaluated0.items = undefined;}if(data && typeof data == "object" && !Array.isArray(data)){if(data.actor_login === undefined){const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "actor_login"},message:"must have required property '"+"actor_login"+"'"};if(vErrors === null){vErrors = [err0];}else {vErrors.push(err0);}errors++;}if(data.actor_id === undefined){const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "actor_id"},message:"must have required property '"+"actor_id"+"'"};if(vErrors === null){vErrors = [err1];}else {vErrors.push(err1);}errors++;}if(data.role_name === undefined){const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "role_name"},message:"must have required property '"+"role_name"+"'"};if(vErrors === null){vErrors = [err2];}else {vErrors.push(err2);}errors++;}for(const key0 in data){if(!(((key0 === "actor_login") || (key0 === "actor_id")) || (key0 === "role_name"))){const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err3];}else {vErrors.push(err3);}errors++;}}if(data.actor_login !== undefined){let data0 = data.actor_login;if(typeof data0 === "string"){if(!pattern10.test(data0)){const err4 = {instancePath:instancePath+"/actor_login",schemaPath:"#/$defs/login/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}(?:\\[bot\\])?$"},message:"must match pattern \""+"^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}(?:\\[bot\\])?$"+"\""};if(vErrors === null){vErrors = [err4];}else {vErrors.push(err4);}errors++;}}else {const err5 = {instancePath:instancePath+"/actor_login",schemaPath:"#/$defs/login/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err5];}else {vErrors.push(err5);}errors++;}}if(data.actor_id !== undefined){let data1 = data.actor_id;if(!(((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1))) && (isFinite(data1)))){const err6 = {instancePath:instancePath+"/actor_id",schemaPath:"#/$defs/id/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err6];}else {vErrors.push(err6);}errors++;}if((typeof data1 == "number") && (isFinite(data1))){if(data1 > 9007199254740991 || isNaN(data1)){const err7 = {instancePath:instancePath+"/actor_id",schemaPath:"#/$defs/id/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err7];}else {vErrors.push(err7);}errors++;}if(data1 < 1 || isNaN(data1)){const err8 = {instancePath:instancePath+"/actor_id",schemaPath:"#/$defs/id/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err8];}else {vErrors.push(err8);}errors++;}}}if(data.role_name !== undefined){let data2 = data.role_name;if(typeof data2 === "string"){if(func2(data2) > 100){const err9 = {instancePath:instancePath+"/role_name",schemaPath:"#/properties/role_name/maxLength",keyword:"maxLength",params:{limit: 100},message:"must NOT have more than 100 characters"};if(vErrors === null){vErrors = [err9];}else {vErrors.push(err9);}errors++;}if(func2(data2) < 1){const err10 = {instancePath:instancePath+"/role_name",schemaPath:"#/properties/role_name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};if(vErrors === null){vErrors = [err10];}else {vErrors.push(err10);}errors++;}if(!pattern11.test(data2)){const err11 = {instancePath:instancePath+"/role_name",schemaPath:"#/properties/role_name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9][A-Za-z0-9 _.-]*$"},message:"must match pattern \""+"^[A-Za-z0-9][A-Za-z0-9 _.-]*$"+"\""};if(vErrors === null){vErrors = [err11];}else {vErrors.push(err11);}errors++;}}else {const err12 = {instancePath:instancePath+"/role_name",schemaPath:"#/properties/role_name/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err12];}else {vErrors.push(err12);}errors++;}}}else {const err13 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err13];}else {vErrors.push(err13);}errors++;}validate28.errors = vErrors;return errors === 0;}validate28.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};function validate27(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){let vErrors = null;let errors = 0;const evaluated0 = validate27.evaluated;if(evaluated0.dynamicProps){evaluated0.props = undefined;}if(evaluated0.dynamicItems){evaluated0.items = undefined;}if(data && typeof data == "object" && !Array.isArray(data)){if(data.id === undefined){const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};if(vErrors === null){vErrors = [err0];}else {vErrors.push(err0);}errors++;}if(data.kind === undefined){const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "kind"},message:"must have required property '"+"kind"+"'"};if(vErrors === null){vErrors = [err1];}else {vErrors.push(err1);}errors++;}if(data.status === undefined){const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "status"},message:"must have required property '"+"status"+"'"};if(vErrors === null){vErrors = [err2];}else {vErrors.push(err2);}errors++;}if(data.epoch === undefined){const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "epoch"},message:"must have required property '"+"epoch"+"'"};if(vErrors === null){vErrors = [err3];}else {vErrors.push(err3);}errors++;}if(data.pre_state_digest === undefined){const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "pre_state_digest"},message:"must have required property '"+"pre_state_digest"+"'"};if(vErrors === null){vErrors = [err4];}else {vErrors.push(err4);}errors++;}if(data.evidence === undefined){const err5 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "evidence"},message:"must have required property '"+"evidence"+"'"};if(vErrors === null){vErrors = [err5];}else {vErrors.push(err5);}errors++;}if(data.resources === undefined){const err6 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "resources"},message:"must have required property '"+"resources"+"'"};if(vErrors === null){vErrors = [err6];}else {vErrors.push(err6);}errors++;}if(data.reconciled_by === undefined){const err7 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "reconciled_by"},message:"must have required property '"+"reconciled_by"+"'"};if(vErrors === null){vErrors = [err7];}else {vErrors.push(err7);}errors++;}for(const key0 in data){if(!((((((((key0 === "id") || (key0 === "kind")) || (key0 === "status")) || (key0 === "epoch")) || (key0 === "pre_state_digest")) || (key0 === "evidence")) || (key0 === "resources")) || (key0 === "reconciled_by"))){const err8 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err8];}else {vErrors.push(err8);}errors++;}}if(data.id !== undefined){let data0 = data.id;if(typeof data0 === "string"){if(func2(data0) > 64){const err9 = {instancePath:instancePath+"/id",schemaPath:"#/properties/id/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters"};if(vErrors === null){vErrors = [err9];}else {vErrors.push(err9);}errors++;}if(func2(data0) < 1){const err10 = {instancePath:instancePath+"/id",schemaPath:"#/properties/id/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};if(vErrors === null){vErrors = [err10];}else {vErrors.push(err10);}errors++;}if(!pattern16.test(data0)){const err11 = {instancePath:instancePath+"/id",schemaPath:"#/properties/id/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9][a-z0-9._-]*$"},message:"must match pattern \""+"^[a-z0-9][a-z0-9._-]*$"+"\""};if(vErrors === null){vErrors = [err11];}else {vErrors.push(err11);}errors++;}}else {const err12 = {instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err12];}else {vErrors.push(err12);}errors++;}}if(data.kind !== undefined){let data1 = data.kind;if(!(((((((data1 === "milestone.upsert") || (data1 === "milestone.edit")) || (data1 === "issue.set-milestone")) || (data1 === "issue.labels")) || (data1 === "issue.create")) || (data1 === "comment.upsert")) || (data1 === "external"))){const err13 = {instancePath:instancePath+"/kind",schemaPath:"#/properties/kind/enum",keyword:"enum",params:{allowedValues: schema47.properties.kind.enum},message:"must be equal to one of the allowed values"};if(vErrors === null){vErrors = [err13];}else {vErrors.push(err13);}errors++;}}if(data.status !== undefined){let data2 = data.status;if(!(((((data2 === "pending") || (data2 === "claimed")) || (data2 === "done")) || (data2 === "conflict")) || (data2 === "failed"))){const err14 = {instancePath:instancePath+"/status",schemaPath:"#/properties/status/enum",keyword:"enum",params:{allowedValues: schema47.properties.status.enum},message:"must be equal to one of the allowed values"};if(vErrors === null){vErrors = [err14];}else {vErrors.push(err14);}errors++;}}if(data.epoch !== undefined){let data3 = data.epoch;const _errs7 = errors;let valid1 = false;let passing0 = null;const _errs8 = errors;if(data3 !== null){const err15 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err15];}else {vErrors.push(err15);}errors++;}var _valid0 = _errs8 === errors;if(_valid0){valid1 = true;passing0 = 0;}const _errs10 = errors;if(!(((typeof data3 == "number") && (!(data3 % 1) && !isNaN(data3))) && (isFinite(data3)))){const err16 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/oneOf/1/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err16];}else {vErrors.push(err16);}errors++;}if((typeof data3 == "number") && (isFinite(data3))){if(data3 > 9007199254740991 || isNaN(data3)){const err17 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/oneOf/1/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err17];}else {vErrors.push(err17);}errors++;}if(data3 < 1 || isNaN(data3)){const err18 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/oneOf/1/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err18];}else {vErrors.push(err18);}errors++;}}var _valid0 = _errs10 === errors;if(_valid0 && valid1){valid1 = false;passing0 = [passing0, 1];}else {if(_valid0){valid1 = true;passing0 = 1;}}if(!valid1){const err19 = {instancePath:instancePath+"/epoch",schemaPath:"#/properties/epoch/oneOf",keyword:"oneOf",params:{passingSchemas: passing0},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err19];}else {vErrors.push(err19);}errors++;}else {errors = _errs7;if(vErrors !== null){if(_errs7){vErrors.length = _errs7;}else {vErrors = null;}}}}if(data.pre_state_digest !== undefined){let data4 = data.pre_state_digest;const _errs13 = errors;let valid2 = false;let passing1 = null;const _errs14 = errors;if(data4 !== null){const err20 = {instancePath:instancePath+"/pre_state_digest",schemaPath:"#/properties/pre_state_digest/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err20];}else {vErrors.push(err20);}errors++;}var _valid1 = _errs14 === errors;if(_valid1){valid2 = true;passing1 = 0;}const _errs16 = errors;if(typeof data4 === "string"){if(!pattern6.test(data4)){const err21 = {instancePath:instancePath+"/pre_state_digest",schemaPath:"#/$defs/digest/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""};if(vErrors === null){vErrors = [err21];}else {vErrors.push(err21);}errors++;}}else {const err22 = {instancePath:instancePath+"/pre_state_digest",schemaPath:"#/$defs/digest/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err22];}else {vErrors.push(err22);}errors++;}var _valid1 = _errs16 === errors;if(_valid1 && valid2){valid2 = false;passing1 = [passing1, 1];}else {if(_valid1){valid2 = true;passing1 = 1;}}if(!valid2){const err23 = {instancePath:instancePath+"/pre_state_digest",schemaPath:"#/properties/pre_state_digest/oneOf",keyword:"oneOf",params:{passingSchemas: passing1},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err23];}else {vErrors.push(err23);}errors++;}else {errors = _errs13;if(vErrors !== null){if(_errs13){vErrors.length = _errs13;}else {vErrors = null;}}}}if(data.evidence !== undefined){let data5 = data.evidence;const _errs20 = errors;let valid4 = false;let passing2 = null;const _errs21 = errors;if(data5 !== null){const err24 = {instancePath:instancePath+"/evidence",schemaPath:"#/properties/evidence/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err24];}else {vErrors.push(err24);}errors++;}var _valid2 = _errs21 === errors;if(_valid2){valid4 = true;passing2 = 0;}const _errs23 = errors;if(data5 && typeof data5 == "object" && !Array.isArray(data5)){if(data5.status_code === undefined){const err25 = {instancePath:instancePath+"/evidence",schemaPath:"#/properties/evidence/oneOf/1/required",keyword:"required",params:{missingProperty: "status_code"},message:"must have required property '"+"status_code"+"'"};if(vErrors === null){vErrors = [err25];}else {vErrors.push(err25);}errors++;}if(data5.error_code === undefined){const err26 = {instancePath:instancePath+"/evidence",schemaPath:"#/properties/evidence/oneOf/1/required",keyword:"required",params:{missingProperty: "error_code"},message:"must have required property '"+"error_code"+"'"};if(vErrors === null){vErrors = [err26];}else {vErrors.push(err26);}errors++;}for(const key1 in data5){if(!((key1 === "status_code") || (key1 === "error_code"))){const err27 = {instancePath:instancePath+"/evidence",schemaPath:"#/properties/evidence/oneOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err27];}else {vErrors.push(err27);}errors++;}}if(data5.status_code !== undefined){let data6 = data5.status_code;const _errs27 = errors;let valid6 = false;let passing3 = null;const _errs28 = errors;if(data6 !== null){const err28 = {instancePath:instancePath+"/evidence/status_code",schemaPath:"#/properties/evidence/oneOf/1/properties/status_code/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err28];}else {vErrors.push(err28);}errors++;}var _valid3 = _errs28 === errors;if(_valid3){valid6 = true;passing3 = 0;}const _errs30 = errors;if(!(((typeof data6 == "number") && (!(data6 % 1) && !isNaN(data6))) && (isFinite(data6)))){const err29 = {instancePath:instancePath+"/evidence/status_code",schemaPath:"#/properties/evidence/oneOf/1/properties/status_code/oneOf/1/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err29];}else {vErrors.push(err29);}errors++;}if((typeof data6 == "number") && (isFinite(data6))){if(data6 > 599 || isNaN(data6)){const err30 = {instancePath:instancePath+"/evidence/status_code",schemaPath:"#/properties/evidence/oneOf/1/properties/status_code/oneOf/1/maximum",keyword:"maximum",params:{comparison: "<=", limit: 599},message:"must be <= 599"};if(vErrors === null){vErrors = [err30];}else {vErrors.push(err30);}errors++;}if(data6 < 100 || isNaN(data6)){const err31 = {instancePath:instancePath+"/evidence/status_code",schemaPath:"#/properties/evidence/oneOf/1/properties/status_code/oneOf/1/minimum",keyword:"minimum",params:{comparison: ">=", limit: 100},message:"must be >= 100"};if(vErrors === null){vErrors = [err31];}else {vErrors.push(err31);}errors++;}}var _valid3 = _errs30 === errors;if(_valid3 && valid6){valid6 = false;passing3 = [passing3, 1];}else {if(_valid3){valid6 = true;passing3 = 1;}}if(!valid6){const err32 = {instancePath:instancePath+"/evidence/status_code",schemaPath:"#/properties/evidence/oneOf/1/properties/status_code/oneOf",keyword:"oneOf",params:{passingSchemas: passing3},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err32];}else {vErrors.push(err32);}errors++;}else {errors = _errs27;if(vErrors !== null){if(_errs27){vErrors.length = _errs27;}else {vErrors = null;}}}}if(data5.error_code !== undefined){let data7 = data5.error_code;const _errs33 = errors;let valid7 = false;let passing4 = null;const _errs34 = errors;if(data7 !== null){const err33 = {instancePath:instancePath+"/evidence/error_code",schemaPath:"#/properties/evidence/oneOf/1/properties/error_code/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err33];}else {vErrors.push(err33);}errors++;}var _valid4 = _errs34 === errors;if(_valid4){valid7 = true;passing4 = 0;}const _errs36 = errors;if(typeof data7 === "string"){if(func2(data7) > 64){const err34 = {instancePath:instancePath+"/evidence/error_code",schemaPath:"#/$defs/code/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters"};if(vErrors === null){vErrors = [err34];}else {vErrors.push(err34);}errors++;}if(!pattern18.test(data7)){const err35 = {instancePath:instancePath+"/evidence/error_code",schemaPath:"#/$defs/code/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$"},message:"must match pattern \""+"^[a-z0-9]+(?:-[a-z0-9]+)*$"+"\""};if(vErrors === null){vErrors = [err35];}else {vErrors.push(err35);}errors++;}}else {const err36 = {instancePath:instancePath+"/evidence/error_code",schemaPath:"#/$defs/code/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err36];}else {vErrors.push(err36);}errors++;}var _valid4 = _errs36 === errors;if(_valid4 && valid7){valid7 = false;passing4 = [passing4, 1];}else {if(_valid4){valid7 = true;passing4 = 1;}}if(!valid7){const err37 = {instancePath:instancePath+"/evidence/error_code",schemaPath:"#/properties/evidence/oneOf/1/properties/error_code/oneOf",keyword:"oneOf",params:{passingSchemas: passing4},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err37];}else {vErrors.push(err37);}errors++;}else {errors = _errs33;if(vErrors !== null){if(_errs33){vErrors.length = _errs33;}else {vErrors = null;}}}}}else {const err38 = {instancePath:instancePath+"/evidence",schemaPath:"#/properties/evidence/oneOf/1/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err38];}else {vErrors.push(err38);}errors++;}var _valid2 = _errs23 === errors;if(_valid2 && valid4){valid4 = false;passing2 = [passing2, 1];}else {if(_valid2){valid4 = true;passing2 = 1;}}if(!valid4){const err39 = {instancePath:instancePath+"/evidence",schemaPath:"#/properties/evidence/oneOf",keyword:"oneOf",params:{passingSchemas: passing2},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err39];}else {vErrors.push(err39);}errors++;}else {errors = _errs20;if(vErrors !== null){if(_errs20){vErrors.length = _errs20;}else {vErrors = null;}}}}if(data.resources !== undefined){let data8 = data.resources;if(Array.isArray(data8)){if(data8.length > 100){const err40 = {instancePath:instancePath+"/resources",schemaPath:"#/properties/resources/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"};if(vErrors === null){vErrors = [err40];}else {vErrors.push(err40);}errors++;}const len0 = data8.length;for(let i0=0; i0<len0; i0++){let data9 = data8[i0];if(!(((typeof data9 == "number") && (!(data9 % 1) && !isNaN(data9))) && (isFinite(data9)))){const err41 = {instancePath:instancePath+"/resources/" + i0,schemaPath:"#/$defs/id/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err41];}else {vErrors.push(err41);}errors++;}if((typeof data9 == "number") && (isFinite(data9))){if(data9 > 9007199254740991 || isNaN(data9)){const err42 = {instancePath:instancePath+"/resources/" + i0,schemaPath:"#/$defs/id/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err42];}else {vErrors.push(err42);}errors++;}if(data9 < 1 || isNaN(data9)){const err43 = {instancePath:instancePath+"/resources/" + i0,schemaPath:"#/$defs/id/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err43];}else {vErrors.push(err43);}errors++;}}}}else {const err44 = {instancePath:instancePath+"/resources",schemaPath:"#/properties/resources/type",keyword:"type",params:{type: "array"},message:"must be array"};if(vErrors === null){vErrors = [err44];}else {vErrors.push(err44);}errors++;}}if(data.reconciled_by !== undefined){let data10 = data.reconciled_by;const _errs45 = errors;let valid12 = false;let passing5 = null;const _errs46 = errors;if(data10 !== null){const err45 = {instancePath:instancePath+"/reconciled_by",schemaPath:"#/properties/reconciled_by/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err45];}else {vErrors.push(err45);}errors++;}var _valid5 = _errs46 === errors;if(_valid5){valid12 = true;passing5 = 0;}const _errs48 = errors;if(!(validate28(data10, {instancePath:instancePath+"/reconciled_by",parentData:data,parentDataProperty:"reconciled_by",rootData,dynamicAnchors}))){vErrors = vErrors === null ? validate28.errors : vErrors.concat(validate28.errors);errors = vErrors.length;}var _valid5 = _errs48 === errors;if(_valid5 && valid12){valid12 = false;passing5 = [passing5, 1];}else {if(_valid5){valid12 = true;passing5 = 1;}}if(!valid12){const err46 = {instancePath:instancePath+"/reconciled_by",schemaPath:"#/properties/reconciled_by/oneOf",keyword:"oneOf",params:{passingSchemas: passing5},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err46];}else {vErrors.push(err46);}errors++;}else {errors = _errs45;if(vErrors !== null){if(_errs45){vErrors.length = _errs45;}else {vErrors = null;}}}}}else {const err47 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err47];}else {vErrors.push(err47);}errors++;}validate27.errors = vErrors;return errors === 0;}validate27.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};function run_validator_validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){/*# sourceURL="https://writ.dev/schemas/ledger/run.schema.json" */;let vErrors = null;let errors = 0;const evaluated0 = run_validator_validate20.evaluated;if(evaluated0.dynamicProps){evaluated0.props = undefined;}if(evaluated0.dynamicItems){evaluated0.items = undefined;}if(data && typeof data == "object" && !Array.isArray(data)){if(data.schema === undefined){const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "schema"},message:"must have required property '"+"schema"+"'"};if(vErrors === null){vErrors = [err0];}else {vErrors.push(err0);}errors++;}if(data.repository === undefined){const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "repository"},message:"must have required property '"+"repository"+"'"};if(vErrors === null){vErrors = [err1];}else {vErrors.push(err1);}errors++;}if(data.run_id === undefined){const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "run_id"},message:"must have required property '"+"run_id"+"'"};if(vErrors === null){vErrors = [err2];}else {vErrors.push(err2);}errors++;}if(data.plan_digest === undefined){const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "plan_digest"},message:"must have required property '"+"plan_digest"+"'"};if(vErrors === null){vErrors = [err3];}else {vErrors.push(err3);}errors++;}if(data.evidence_digest === undefined){const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "evidence_digest"},message:"must have required property '"+"evidence_digest"+"'"};if(vErrors === null){vErrors = [err4];}else {vErrors.push(err4);}errors++;}if(data.scope === undefined){const err5 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "scope"},message:"must have required property '"+"scope"+"'"};if(vErrors === null){vErrors = [err5];}else {vErrors.push(err5);}errors++;}if(data.bounds === undefined){const err6 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "bounds"},message:"must have required property '"+"bounds"+"'"};if(vErrors === null){vErrors = [err6];}else {vErrors.push(err6);}errors++;}if(data.state === undefined){const err7 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "state"},message:"must have required property '"+"state"+"'"};if(vErrors === null){vErrors = [err7];}else {vErrors.push(err7);}errors++;}if(data.approval === undefined){const err8 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "approval"},message:"must have required property '"+"approval"+"'"};if(vErrors === null){vErrors = [err8];}else {vErrors.push(err8);}errors++;}if(data.owner === undefined){const err9 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "owner"},message:"must have required property '"+"owner"+"'"};if(vErrors === null){vErrors = [err9];}else {vErrors.push(err9);}errors++;}if(data.steps === undefined){const err10 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "steps"},message:"must have required property '"+"steps"+"'"};if(vErrors === null){vErrors = [err10];}else {vErrors.push(err10);}errors++;}if(data.stop_reason === undefined){const err11 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "stop_reason"},message:"must have required property '"+"stop_reason"+"'"};if(vErrors === null){vErrors = [err11];}else {vErrors.push(err11);}errors++;}if(data.blockers === undefined){const err12 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "blockers"},message:"must have required property '"+"blockers"+"'"};if(vErrors === null){vErrors = [err12];}else {vErrors.push(err12);}errors++;}if(data.proposed_at === undefined){const err13 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "proposed_at"},message:"must have required property '"+"proposed_at"+"'"};if(vErrors === null){vErrors = [err13];}else {vErrors.push(err13);}errors++;}for(const key0 in data){if(!(run_validator_func1.call(run_validator_schema31.properties, key0))){const err14 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err14];}else {vErrors.push(err14);}errors++;}}if(data.schema !== undefined){if(1 !== data.schema){const err15 = {instancePath:instancePath+"/schema",schemaPath:"#/properties/schema/const",keyword:"const",params:{allowedValue: 1},message:"must be equal to constant"};if(vErrors === null){vErrors = [err15];}else {vErrors.push(err15);}errors++;}}if(data.repository !== undefined){let data1 = data.repository;if(typeof data1 === "string"){if(func2(data1) > 140){const err16 = {instancePath:instancePath+"/repository",schemaPath:"#/$defs/repository/maxLength",keyword:"maxLength",params:{limit: 140},message:"must NOT have more than 140 characters"};if(vErrors === null){vErrors = [err16];}else {vErrors.push(err16);}errors++;}if(!run_validator_pattern4.test(data1)){const err17 = {instancePath:instancePath+"/repository",schemaPath:"#/$defs/repository/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$"},message:"must match pattern \""+"^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$"+"\""};if(vErrors === null){vErrors = [err17];}else {vErrors.push(err17);}errors++;}}else {const err18 = {instancePath:instancePath+"/repository",schemaPath:"#/$defs/repository/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err18];}else {vErrors.push(err18);}errors++;}}if(data.run_id !== undefined){let data2 = data.run_id;if(typeof data2 === "string"){if(!run_validator_pattern5.test(data2)){const err19 = {instancePath:instancePath+"/run_id",schemaPath:"#/$defs/runId/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"},message:"must match pattern \""+"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"+"\""};if(vErrors === null){vErrors = [err19];}else {vErrors.push(err19);}errors++;}}else {const err20 = {instancePath:instancePath+"/run_id",schemaPath:"#/$defs/runId/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err20];}else {vErrors.push(err20);}errors++;}}if(data.plan_digest !== undefined){let data3 = data.plan_digest;if(typeof data3 === "string"){if(!pattern6.test(data3)){const err21 = {instancePath:instancePath+"/plan_digest",schemaPath:"#/$defs/digest/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""};if(vErrors === null){vErrors = [err21];}else {vErrors.push(err21);}errors++;}}else {const err22 = {instancePath:instancePath+"/plan_digest",schemaPath:"#/$defs/digest/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err22];}else {vErrors.push(err22);}errors++;}}if(data.evidence_digest !== undefined){let data4 = data.evidence_digest;const _errs13 = errors;let valid4 = false;let passing0 = null;const _errs14 = errors;if(data4 !== null){const err23 = {instancePath:instancePath+"/evidence_digest",schemaPath:"#/properties/evidence_digest/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err23];}else {vErrors.push(err23);}errors++;}var _valid0 = _errs14 === errors;if(_valid0){valid4 = true;passing0 = 0;}const _errs16 = errors;if(typeof data4 === "string"){if(!pattern6.test(data4)){const err24 = {instancePath:instancePath+"/evidence_digest",schemaPath:"#/$defs/digest/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""};if(vErrors === null){vErrors = [err24];}else {vErrors.push(err24);}errors++;}}else {const err25 = {instancePath:instancePath+"/evidence_digest",schemaPath:"#/$defs/digest/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err25];}else {vErrors.push(err25);}errors++;}var _valid0 = _errs16 === errors;if(_valid0 && valid4){valid4 = false;passing0 = [passing0, 1];}else {if(_valid0){valid4 = true;passing0 = 1;}}if(!valid4){const err26 = {instancePath:instancePath+"/evidence_digest",schemaPath:"#/properties/evidence_digest/oneOf",keyword:"oneOf",params:{passingSchemas: passing0},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err26];}else {vErrors.push(err26);}errors++;}else {errors = _errs13;if(vErrors !== null){if(_errs13){vErrors.length = _errs13;}else {vErrors = null;}}}}if(data.scope !== undefined){let data5 = data.scope;if(data5 && typeof data5 == "object" && !Array.isArray(data5)){if(data5.repository === undefined){const err27 = {instancePath:instancePath+"/scope",schemaPath:"#/properties/scope/required",keyword:"required",params:{missingProperty: "repository"},message:"must have required property '"+"repository"+"'"};if(vErrors === null){vErrors = [err27];}else {vErrors.push(err27);}errors++;}if(data5.digest === undefined){const err28 = {instancePath:instancePath+"/scope",schemaPath:"#/properties/scope/required",keyword:"required",params:{missingProperty: "digest"},message:"must have required property '"+"digest"+"'"};if(vErrors === null){vErrors = [err28];}else {vErrors.push(err28);}errors++;}for(const key1 in data5){if(!((key1 === "repository") || (key1 === "digest"))){const err29 = {instancePath:instancePath+"/scope",schemaPath:"#/properties/scope/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err29];}else {vErrors.push(err29);}errors++;}}if(data5.repository !== undefined){let data6 = data5.repository;if(typeof data6 === "string"){if(func2(data6) > 140){const err30 = {instancePath:instancePath+"/scope/repository",schemaPath:"#/$defs/repository/maxLength",keyword:"maxLength",params:{limit: 140},message:"must NOT have more than 140 characters"};if(vErrors === null){vErrors = [err30];}else {vErrors.push(err30);}errors++;}if(!run_validator_pattern4.test(data6)){const err31 = {instancePath:instancePath+"/scope/repository",schemaPath:"#/$defs/repository/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$"},message:"must match pattern \""+"^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}$"+"\""};if(vErrors === null){vErrors = [err31];}else {vErrors.push(err31);}errors++;}}else {const err32 = {instancePath:instancePath+"/scope/repository",schemaPath:"#/$defs/repository/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err32];}else {vErrors.push(err32);}errors++;}}if(data5.digest !== undefined){let data7 = data5.digest;if(typeof data7 === "string"){if(!pattern6.test(data7)){const err33 = {instancePath:instancePath+"/scope/digest",schemaPath:"#/$defs/digest/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""};if(vErrors === null){vErrors = [err33];}else {vErrors.push(err33);}errors++;}}else {const err34 = {instancePath:instancePath+"/scope/digest",schemaPath:"#/$defs/digest/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err34];}else {vErrors.push(err34);}errors++;}}}else {const err35 = {instancePath:instancePath+"/scope",schemaPath:"#/properties/scope/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err35];}else {vErrors.push(err35);}errors++;}}if(data.bounds !== undefined){let data8 = data.bounds;if(data8 && typeof data8 == "object" && !Array.isArray(data8)){if(data8.max_steps === undefined){const err36 = {instancePath:instancePath+"/bounds",schemaPath:"#/properties/bounds/required",keyword:"required",params:{missingProperty: "max_steps"},message:"must have required property '"+"max_steps"+"'"};if(vErrors === null){vErrors = [err36];}else {vErrors.push(err36);}errors++;}for(const key2 in data8){if(!(((key2 === "max_steps") || (key2 === "max_creates")) || (key2 === "max_issues_touched"))){const err37 = {instancePath:instancePath+"/bounds",schemaPath:"#/properties/bounds/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err37];}else {vErrors.push(err37);}errors++;}}if(data8.max_steps !== undefined){let data9 = data8.max_steps;if(!(((typeof data9 == "number") && (!(data9 % 1) && !isNaN(data9))) && (isFinite(data9)))){const err38 = {instancePath:instancePath+"/bounds/max_steps",schemaPath:"#/properties/bounds/properties/max_steps/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err38];}else {vErrors.push(err38);}errors++;}if((typeof data9 == "number") && (isFinite(data9))){if(data9 > 1000 || isNaN(data9)){const err39 = {instancePath:instancePath+"/bounds/max_steps",schemaPath:"#/properties/bounds/properties/max_steps/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000},message:"must be <= 1000"};if(vErrors === null){vErrors = [err39];}else {vErrors.push(err39);}errors++;}if(data9 < 1 || isNaN(data9)){const err40 = {instancePath:instancePath+"/bounds/max_steps",schemaPath:"#/properties/bounds/properties/max_steps/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err40];}else {vErrors.push(err40);}errors++;}}}if(data8.max_creates !== undefined){let data10 = data8.max_creates;if(!(((typeof data10 == "number") && (!(data10 % 1) && !isNaN(data10))) && (isFinite(data10)))){const err41 = {instancePath:instancePath+"/bounds/max_creates",schemaPath:"#/properties/bounds/properties/max_creates/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err41];}else {vErrors.push(err41);}errors++;}if((typeof data10 == "number") && (isFinite(data10))){if(data10 > 1000 || isNaN(data10)){const err42 = {instancePath:instancePath+"/bounds/max_creates",schemaPath:"#/properties/bounds/properties/max_creates/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000},message:"must be <= 1000"};if(vErrors === null){vErrors = [err42];}else {vErrors.push(err42);}errors++;}if(data10 < 0 || isNaN(data10)){const err43 = {instancePath:instancePath+"/bounds/max_creates",schemaPath:"#/properties/bounds/properties/max_creates/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};if(vErrors === null){vErrors = [err43];}else {vErrors.push(err43);}errors++;}}}if(data8.max_issues_touched !== undefined){let data11 = data8.max_issues_touched;if(!(((typeof data11 == "number") && (!(data11 % 1) && !isNaN(data11))) && (isFinite(data11)))){const err44 = {instancePath:instancePath+"/bounds/max_issues_touched",schemaPath:"#/properties/bounds/properties/max_issues_touched/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err44];}else {vErrors.push(err44);}errors++;}if((typeof data11 == "number") && (isFinite(data11))){if(data11 > 10000 || isNaN(data11)){const err45 = {instancePath:instancePath+"/bounds/max_issues_touched",schemaPath:"#/properties/bounds/properties/max_issues_touched/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10000},message:"must be <= 10000"};if(vErrors === null){vErrors = [err45];}else {vErrors.push(err45);}errors++;}if(data11 < 0 || isNaN(data11)){const err46 = {instancePath:instancePath+"/bounds/max_issues_touched",schemaPath:"#/properties/bounds/properties/max_issues_touched/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};if(vErrors === null){vErrors = [err46];}else {vErrors.push(err46);}errors++;}}}}else {const err47 = {instancePath:instancePath+"/bounds",schemaPath:"#/properties/bounds/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err47];}else {vErrors.push(err47);}errors++;}}if(data.state !== undefined){let data12 = data.state;if(!(((((((data12 === "proposed") || (data12 === "approved")) || (data12 === "running")) || (data12 === "completed")) || (data12 === "failed")) || (data12 === "cancelled")) || (data12 === "needs-reconciliation"))){const err48 = {instancePath:instancePath+"/state",schemaPath:"#/properties/state/enum",keyword:"enum",params:{allowedValues: run_validator_schema31.properties.state.enum},message:"must be equal to one of the allowed values"};if(vErrors === null){vErrors = [err48];}else {vErrors.push(err48);}errors++;}}if(data.approval !== undefined){let data13 = data.approval;const _errs39 = errors;let valid10 = false;let passing1 = null;const _errs40 = errors;if(data13 !== null){const err49 = {instancePath:instancePath+"/approval",schemaPath:"#/properties/approval/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err49];}else {vErrors.push(err49);}errors++;}var _valid1 = _errs40 === errors;if(_valid1){valid10 = true;passing1 = 0;}const _errs42 = errors;if(!(validate21(data13, {instancePath:instancePath+"/approval",parentData:data,parentDataProperty:"approval",rootData,dynamicAnchors}))){vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);errors = vErrors.length;}var _valid1 = _errs42 === errors;if(_valid1 && valid10){valid10 = false;passing1 = [passing1, 1];}else {if(_valid1){valid10 = true;passing1 = 1;}}if(!valid10){const err50 = {instancePath:instancePath+"/approval",schemaPath:"#/properties/approval/oneOf",keyword:"oneOf",params:{passingSchemas: passing1},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err50];}else {vErrors.push(err50);}errors++;}else {errors = _errs39;if(vErrors !== null){if(_errs39){vErrors.length = _errs39;}else {vErrors = null;}}}}if(data.owner !== undefined){let data14 = data.owner;const _errs44 = errors;let valid11 = false;let passing2 = null;const _errs45 = errors;if(data14 !== null){const err51 = {instancePath:instancePath+"/owner",schemaPath:"#/properties/owner/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err51];}else {vErrors.push(err51);}errors++;}var _valid2 = _errs45 === errors;if(_valid2){valid11 = true;passing2 = 0;}const _errs47 = errors;if(!(validate23(data14, {instancePath:instancePath+"/owner",parentData:data,parentDataProperty:"owner",rootData,dynamicAnchors}))){vErrors = vErrors === null ? validate23.errors : vErrors.concat(validate23.errors);errors = vErrors.length;}var _valid2 = _errs47 === errors;if(_valid2 && valid11){valid11 = false;passing2 = [passing2, 1];}else {if(_valid2){valid11 = true;passing2 = 1;}}if(!valid11){const err52 = {instancePath:instancePath+"/owner",schemaPath:"#/properties/owner/oneOf",keyword:"oneOf",params:{passingSchemas: passing2},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err52];}else {vErrors.push(err52);}errors++;}else {errors = _errs44;if(vErrors !== null){if(_errs44){vErrors.length = _errs44;}else {vErrors = null;}}}}if(data.steps !== undefined){let data15 = data.steps;if(Array.isArray(data15)){if(data15.length > 1000){const err53 = {instancePath:instancePath+"/steps",schemaPath:"#/properties/steps/maxItems",keyword:"maxItems",params:{limit: 1000},message:"must NOT have more than 1000 items"};if(vErrors === null){vErrors = [err53];}else {vErrors.push(err53);}errors++;}if(data15.length < 1){const err54 = {instancePath:instancePath+"/steps",schemaPath:"#/properties/steps/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};if(vErrors === null){vErrors = [err54];}else {vErrors.push(err54);}errors++;}const len0 = data15.length;for(let i0=0; i0<len0; i0++){if(!(validate27(data15[i0], {instancePath:instancePath+"/steps/" + i0,parentData:data15,parentDataProperty:i0,rootData,dynamicAnchors}))){vErrors = vErrors === null ? validate27.errors : vErrors.concat(validate27.errors);errors = vErrors.length;}}}else {const err55 = {instancePath:instancePath+"/steps",schemaPath:"#/properties/steps/type",keyword:"type",params:{type: "array"},message:"must be array"};if(vErrors === null){vErrors = [err55];}else {vErrors.push(err55);}errors++;}}if(data.stop_reason !== undefined){let data17 = data.stop_reason;const _errs52 = errors;let valid14 = false;let passing3 = null;const _errs53 = errors;if(data17 !== null){const err56 = {instancePath:instancePath+"/stop_reason",schemaPath:"#/properties/stop_reason/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err56];}else {vErrors.push(err56);}errors++;}var _valid3 = _errs53 === errors;if(_valid3){valid14 = true;passing3 = 0;}const _errs55 = errors;if(typeof data17 === "string"){if(func2(data17) > 64){const err57 = {instancePath:instancePath+"/stop_reason",schemaPath:"#/$defs/code/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters"};if(vErrors === null){vErrors = [err57];}else {vErrors.push(err57);}errors++;}if(!pattern18.test(data17)){const err58 = {instancePath:instancePath+"/stop_reason",schemaPath:"#/$defs/code/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$"},message:"must match pattern \""+"^[a-z0-9]+(?:-[a-z0-9]+)*$"+"\""};if(vErrors === null){vErrors = [err58];}else {vErrors.push(err58);}errors++;}}else {const err59 = {instancePath:instancePath+"/stop_reason",schemaPath:"#/$defs/code/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err59];}else {vErrors.push(err59);}errors++;}var _valid3 = _errs55 === errors;if(_valid3 && valid14){valid14 = false;passing3 = [passing3, 1];}else {if(_valid3){valid14 = true;passing3 = 1;}}if(!valid14){const err60 = {instancePath:instancePath+"/stop_reason",schemaPath:"#/properties/stop_reason/oneOf",keyword:"oneOf",params:{passingSchemas: passing3},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err60];}else {vErrors.push(err60);}errors++;}else {errors = _errs52;if(vErrors !== null){if(_errs52){vErrors.length = _errs52;}else {vErrors = null;}}}}if(data.blockers !== undefined){let data18 = data.blockers;if(Array.isArray(data18)){if(data18.length > 100){const err61 = {instancePath:instancePath+"/blockers",schemaPath:"#/properties/blockers/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"};if(vErrors === null){vErrors = [err61];}else {vErrors.push(err61);}errors++;}const len1 = data18.length;for(let i1=0; i1<len1; i1++){let data19 = data18[i1];if(typeof data19 === "string"){if(func2(data19) > 64){const err62 = {instancePath:instancePath+"/blockers/" + i1,schemaPath:"#/$defs/code/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters"};if(vErrors === null){vErrors = [err62];}else {vErrors.push(err62);}errors++;}if(!pattern18.test(data19)){const err63 = {instancePath:instancePath+"/blockers/" + i1,schemaPath:"#/$defs/code/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$"},message:"must match pattern \""+"^[a-z0-9]+(?:-[a-z0-9]+)*$"+"\""};if(vErrors === null){vErrors = [err63];}else {vErrors.push(err63);}errors++;}}else {const err64 = {instancePath:instancePath+"/blockers/" + i1,schemaPath:"#/$defs/code/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err64];}else {vErrors.push(err64);}errors++;}}}else {const err65 = {instancePath:instancePath+"/blockers",schemaPath:"#/properties/blockers/type",keyword:"type",params:{type: "array"},message:"must be array"};if(vErrors === null){vErrors = [err65];}else {vErrors.push(err65);}errors++;}}if(data.proposed_at !== undefined){let data20 = data.proposed_at;if(typeof data20 === "string"){if(!pattern14.test(data20)){const err66 = {instancePath:instancePath+"/proposed_at",schemaPath:"#/$defs/timestamp/pattern",keyword:"pattern",params:{pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"},message:"must match pattern \""+"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$"+"\""};if(vErrors === null){vErrors = [err66];}else {vErrors.push(err66);}errors++;}}else {const err67 = {instancePath:instancePath+"/proposed_at",schemaPath:"#/$defs/timestamp/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err67];}else {vErrors.push(err67);}errors++;}}if(data.proposer !== undefined){let data21 = data.proposer;const _errs67 = errors;let valid20 = false;let passing4 = null;const _errs68 = errors;if(data21 !== null){const err68 = {instancePath:instancePath+"/proposer",schemaPath:"#/properties/proposer/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err68];}else {vErrors.push(err68);}errors++;}var _valid4 = _errs68 === errors;if(_valid4){valid20 = true;passing4 = 0;}const _errs70 = errors;if(data21 && typeof data21 == "object" && !Array.isArray(data21)){if(data21.actor_id === undefined){const err69 = {instancePath:instancePath+"/proposer",schemaPath:"#/properties/proposer/oneOf/1/required",keyword:"required",params:{missingProperty: "actor_id"},message:"must have required property '"+"actor_id"+"'"};if(vErrors === null){vErrors = [err69];}else {vErrors.push(err69);}errors++;}for(const key3 in data21){if(!(key3 === "actor_id")){const err70 = {instancePath:instancePath+"/proposer",schemaPath:"#/properties/proposer/oneOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key3},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err70];}else {vErrors.push(err70);}errors++;}}if(data21.actor_id !== undefined){let data22 = data21.actor_id;if(!(((typeof data22 == "number") && (!(data22 % 1) && !isNaN(data22))) && (isFinite(data22)))){const err71 = {instancePath:instancePath+"/proposer/actor_id",schemaPath:"#/$defs/id/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err71];}else {vErrors.push(err71);}errors++;}if((typeof data22 == "number") && (isFinite(data22))){if(data22 > 9007199254740991 || isNaN(data22)){const err72 = {instancePath:instancePath+"/proposer/actor_id",schemaPath:"#/$defs/id/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err72];}else {vErrors.push(err72);}errors++;}if(data22 < 1 || isNaN(data22)){const err73 = {instancePath:instancePath+"/proposer/actor_id",schemaPath:"#/$defs/id/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err73];}else {vErrors.push(err73);}errors++;}}}}else {const err74 = {instancePath:instancePath+"/proposer",schemaPath:"#/properties/proposer/oneOf/1/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err74];}else {vErrors.push(err74);}errors++;}var _valid4 = _errs70 === errors;if(_valid4 && valid20){valid20 = false;passing4 = [passing4, 1];}else {if(_valid4){valid20 = true;passing4 = 1;}}if(!valid20){const err75 = {instancePath:instancePath+"/proposer",schemaPath:"#/properties/proposer/oneOf",keyword:"oneOf",params:{passingSchemas: passing4},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err75];}else {vErrors.push(err75);}errors++;}else {errors = _errs67;if(vErrors !== null){if(_errs67){vErrors.length = _errs67;}else {vErrors = null;}}}}if(data.status_comment !== undefined){let data23 = data.status_comment;const _errs77 = errors;let valid23 = false;let passing5 = null;const _errs78 = errors;if(data23 !== null){const err76 = {instancePath:instancePath+"/status_comment",schemaPath:"#/properties/status_comment/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err76];}else {vErrors.push(err76);}errors++;}var _valid5 = _errs78 === errors;if(_valid5){valid23 = true;passing5 = 0;}const _errs80 = errors;if(data23 && typeof data23 == "object" && !Array.isArray(data23)){if(data23.issue_number === undefined){const err77 = {instancePath:instancePath+"/status_comment",schemaPath:"#/properties/status_comment/oneOf/1/required",keyword:"required",params:{missingProperty: "issue_number"},message:"must have required property '"+"issue_number"+"'"};if(vErrors === null){vErrors = [err77];}else {vErrors.push(err77);}errors++;}if(data23.comment_id === undefined){const err78 = {instancePath:instancePath+"/status_comment",schemaPath:"#/properties/status_comment/oneOf/1/required",keyword:"required",params:{missingProperty: "comment_id"},message:"must have required property '"+"comment_id"+"'"};if(vErrors === null){vErrors = [err78];}else {vErrors.push(err78);}errors++;}if(data23.body_digest === undefined){const err79 = {instancePath:instancePath+"/status_comment",schemaPath:"#/properties/status_comment/oneOf/1/required",keyword:"required",params:{missingProperty: "body_digest"},message:"must have required property '"+"body_digest"+"'"};if(vErrors === null){vErrors = [err79];}else {vErrors.push(err79);}errors++;}if(data23.pending_digest === undefined){const err80 = {instancePath:instancePath+"/status_comment",schemaPath:"#/properties/status_comment/oneOf/1/required",keyword:"required",params:{missingProperty: "pending_digest"},message:"must have required property '"+"pending_digest"+"'"};if(vErrors === null){vErrors = [err80];}else {vErrors.push(err80);}errors++;}for(const key4 in data23){if(!((((key4 === "issue_number") || (key4 === "comment_id")) || (key4 === "body_digest")) || (key4 === "pending_digest"))){const err81 = {instancePath:instancePath+"/status_comment",schemaPath:"#/properties/status_comment/oneOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key4},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err81];}else {vErrors.push(err81);}errors++;}}if(data23.issue_number !== undefined){let data24 = data23.issue_number;if(!(((typeof data24 == "number") && (!(data24 % 1) && !isNaN(data24))) && (isFinite(data24)))){const err82 = {instancePath:instancePath+"/status_comment/issue_number",schemaPath:"#/$defs/id/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err82];}else {vErrors.push(err82);}errors++;}if((typeof data24 == "number") && (isFinite(data24))){if(data24 > 9007199254740991 || isNaN(data24)){const err83 = {instancePath:instancePath+"/status_comment/issue_number",schemaPath:"#/$defs/id/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err83];}else {vErrors.push(err83);}errors++;}if(data24 < 1 || isNaN(data24)){const err84 = {instancePath:instancePath+"/status_comment/issue_number",schemaPath:"#/$defs/id/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err84];}else {vErrors.push(err84);}errors++;}}}if(data23.comment_id !== undefined){let data25 = data23.comment_id;const _errs87 = errors;let valid26 = false;let passing6 = null;const _errs88 = errors;if(data25 !== null){const err85 = {instancePath:instancePath+"/status_comment/comment_id",schemaPath:"#/properties/status_comment/oneOf/1/properties/comment_id/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err85];}else {vErrors.push(err85);}errors++;}var _valid6 = _errs88 === errors;if(_valid6){valid26 = true;passing6 = 0;}const _errs90 = errors;if(!(((typeof data25 == "number") && (!(data25 % 1) && !isNaN(data25))) && (isFinite(data25)))){const err86 = {instancePath:instancePath+"/status_comment/comment_id",schemaPath:"#/$defs/id/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err86];}else {vErrors.push(err86);}errors++;}if((typeof data25 == "number") && (isFinite(data25))){if(data25 > 9007199254740991 || isNaN(data25)){const err87 = {instancePath:instancePath+"/status_comment/comment_id",schemaPath:"#/$defs/id/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err87];}else {vErrors.push(err87);}errors++;}if(data25 < 1 || isNaN(data25)){const err88 = {instancePath:instancePath+"/status_comment/comment_id",schemaPath:"#/$defs/id/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err88];}else {vErrors.push(err88);}errors++;}}var _valid6 = _errs90 === errors;if(_valid6 && valid26){valid26 = false;passing6 = [passing6, 1];}else {if(_valid6){valid26 = true;passing6 = 1;}}if(!valid26){const err89 = {instancePath:instancePath+"/status_comment/comment_id",schemaPath:"#/properties/status_comment/oneOf/1/properties/comment_id/oneOf",keyword:"oneOf",params:{passingSchemas: passing6},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err89];}else {vErrors.push(err89);}errors++;}else {errors = _errs87;if(vErrors !== null){if(_errs87){vErrors.length = _errs87;}else {vErrors = null;}}}}if(data23.body_digest !== undefined){let data26 = data23.body_digest;const _errs94 = errors;let valid28 = false;let passing7 = null;const _errs95 = errors;if(data26 !== null){const err90 = {instancePath:instancePath+"/status_comment/body_digest",schemaPath:"#/properties/status_comment/oneOf/1/properties/body_digest/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err90];}else {vErrors.push(err90);}errors++;}var _valid7 = _errs95 === errors;if(_valid7){valid28 = true;passing7 = 0;}const _errs97 = errors;if(typeof data26 === "string"){if(!pattern6.test(data26)){const err91 = {instancePath:instancePath+"/status_comment/body_digest",schemaPath:"#/$defs/digest/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""};if(vErrors === null){vErrors = [err91];}else {vErrors.push(err91);}errors++;}}else {const err92 = {instancePath:instancePath+"/status_comment/body_digest",schemaPath:"#/$defs/digest/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err92];}else {vErrors.push(err92);}errors++;}var _valid7 = _errs97 === errors;if(_valid7 && valid28){valid28 = false;passing7 = [passing7, 1];}else {if(_valid7){valid28 = true;passing7 = 1;}}if(!valid28){const err93 = {instancePath:instancePath+"/status_comment/body_digest",schemaPath:"#/properties/status_comment/oneOf/1/properties/body_digest/oneOf",keyword:"oneOf",params:{passingSchemas: passing7},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err93];}else {vErrors.push(err93);}errors++;}else {errors = _errs94;if(vErrors !== null){if(_errs94){vErrors.length = _errs94;}else {vErrors = null;}}}}if(data23.pending_digest !== undefined){let data27 = data23.pending_digest;const _errs101 = errors;let valid30 = false;let passing8 = null;const _errs102 = errors;if(data27 !== null){const err94 = {instancePath:instancePath+"/status_comment/pending_digest",schemaPath:"#/properties/status_comment/oneOf/1/properties/pending_digest/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err94];}else {vErrors.push(err94);}errors++;}var _valid8 = _errs102 === errors;if(_valid8){valid30 = true;passing8 = 0;}const _errs104 = errors;if(typeof data27 === "string"){if(!pattern6.test(data27)){const err95 = {instancePath:instancePath+"/status_comment/pending_digest",schemaPath:"#/$defs/digest/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""};if(vErrors === null){vErrors = [err95];}else {vErrors.push(err95);}errors++;}}else {const err96 = {instancePath:instancePath+"/status_comment/pending_digest",schemaPath:"#/$defs/digest/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err96];}else {vErrors.push(err96);}errors++;}var _valid8 = _errs104 === errors;if(_valid8 && valid30){valid30 = false;passing8 = [passing8, 1];}else {if(_valid8){valid30 = true;passing8 = 1;}}if(!valid30){const err97 = {instancePath:instancePath+"/status_comment/pending_digest",schemaPath:"#/properties/status_comment/oneOf/1/properties/pending_digest/oneOf",keyword:"oneOf",params:{passingSchemas: passing8},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err97];}else {vErrors.push(err97);}errors++;}else {errors = _errs101;if(vErrors !== null){if(_errs101){vErrors.length = _errs101;}else {vErrors = null;}}}}}else {const err98 = {instancePath:instancePath+"/status_comment",schemaPath:"#/properties/status_comment/oneOf/1/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err98];}else {vErrors.push(err98);}errors++;}var _valid5 = _errs80 === errors;if(_valid5 && valid23){valid23 = false;passing5 = [passing5, 1];}else {if(_valid5){valid23 = true;passing5 = 1;}}if(!valid23){const err99 = {instancePath:instancePath+"/status_comment",schemaPath:"#/properties/status_comment/oneOf",keyword:"oneOf",params:{passingSchemas: passing5},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err99];}else {vErrors.push(err99);}errors++;}else {errors = _errs77;if(vErrors !== null){if(_errs77){vErrors.length = _errs77;}else {vErrors = null;}}}}if(data.artifact !== undefined){let data28 = data.artifact;const _errs108 = errors;let valid32 = false;let passing9 = null;const _errs109 = errors;if(data28 !== null){const err100 = {instancePath:instancePath+"/artifact",schemaPath:"#/properties/artifact/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err100];}else {vErrors.push(err100);}errors++;}var _valid9 = _errs109 === errors;if(_valid9){valid32 = true;passing9 = 0;}const _errs111 = errors;if(data28 && typeof data28 == "object" && !Array.isArray(data28)){if(data28.commit_oid === undefined){const err101 = {instancePath:instancePath+"/artifact",schemaPath:"#/properties/artifact/oneOf/1/required",keyword:"required",params:{missingProperty: "commit_oid"},message:"must have required property '"+"commit_oid"+"'"};if(vErrors === null){vErrors = [err101];}else {vErrors.push(err101);}errors++;}if(data28.pr_number === undefined){const err102 = {instancePath:instancePath+"/artifact",schemaPath:"#/properties/artifact/oneOf/1/required",keyword:"required",params:{missingProperty: "pr_number"},message:"must have required property '"+"pr_number"+"'"};if(vErrors === null){vErrors = [err102];}else {vErrors.push(err102);}errors++;}if(data28.content_digest === undefined){const err103 = {instancePath:instancePath+"/artifact",schemaPath:"#/properties/artifact/oneOf/1/required",keyword:"required",params:{missingProperty: "content_digest"},message:"must have required property '"+"content_digest"+"'"};if(vErrors === null){vErrors = [err103];}else {vErrors.push(err103);}errors++;}for(const key5 in data28){if(!(((key5 === "commit_oid") || (key5 === "pr_number")) || (key5 === "content_digest"))){const err104 = {instancePath:instancePath+"/artifact",schemaPath:"#/properties/artifact/oneOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key5},message:"must NOT have additional properties"};if(vErrors === null){vErrors = [err104];}else {vErrors.push(err104);}errors++;}}if(data28.commit_oid !== undefined){let data29 = data28.commit_oid;if(typeof data29 === "string"){if(!pattern26.test(data29)){const err105 = {instancePath:instancePath+"/artifact/commit_oid",schemaPath:"#/properties/artifact/oneOf/1/properties/commit_oid/pattern",keyword:"pattern",params:{pattern: "^[0-9a-f]{40}$"},message:"must match pattern \""+"^[0-9a-f]{40}$"+"\""};if(vErrors === null){vErrors = [err105];}else {vErrors.push(err105);}errors++;}}else {const err106 = {instancePath:instancePath+"/artifact/commit_oid",schemaPath:"#/properties/artifact/oneOf/1/properties/commit_oid/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err106];}else {vErrors.push(err106);}errors++;}}if(data28.pr_number !== undefined){let data30 = data28.pr_number;const _errs117 = errors;let valid34 = false;let passing10 = null;const _errs118 = errors;if(data30 !== null){const err107 = {instancePath:instancePath+"/artifact/pr_number",schemaPath:"#/properties/artifact/oneOf/1/properties/pr_number/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};if(vErrors === null){vErrors = [err107];}else {vErrors.push(err107);}errors++;}var _valid10 = _errs118 === errors;if(_valid10){valid34 = true;passing10 = 0;}const _errs120 = errors;if(!(((typeof data30 == "number") && (!(data30 % 1) && !isNaN(data30))) && (isFinite(data30)))){const err108 = {instancePath:instancePath+"/artifact/pr_number",schemaPath:"#/$defs/id/type",keyword:"type",params:{type: "integer"},message:"must be integer"};if(vErrors === null){vErrors = [err108];}else {vErrors.push(err108);}errors++;}if((typeof data30 == "number") && (isFinite(data30))){if(data30 > 9007199254740991 || isNaN(data30)){const err109 = {instancePath:instancePath+"/artifact/pr_number",schemaPath:"#/$defs/id/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991},message:"must be <= 9007199254740991"};if(vErrors === null){vErrors = [err109];}else {vErrors.push(err109);}errors++;}if(data30 < 1 || isNaN(data30)){const err110 = {instancePath:instancePath+"/artifact/pr_number",schemaPath:"#/$defs/id/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};if(vErrors === null){vErrors = [err110];}else {vErrors.push(err110);}errors++;}}var _valid10 = _errs120 === errors;if(_valid10 && valid34){valid34 = false;passing10 = [passing10, 1];}else {if(_valid10){valid34 = true;passing10 = 1;}}if(!valid34){const err111 = {instancePath:instancePath+"/artifact/pr_number",schemaPath:"#/properties/artifact/oneOf/1/properties/pr_number/oneOf",keyword:"oneOf",params:{passingSchemas: passing10},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err111];}else {vErrors.push(err111);}errors++;}else {errors = _errs117;if(vErrors !== null){if(_errs117){vErrors.length = _errs117;}else {vErrors = null;}}}}if(data28.content_digest !== undefined){let data31 = data28.content_digest;if(typeof data31 === "string"){if(!pattern6.test(data31)){const err112 = {instancePath:instancePath+"/artifact/content_digest",schemaPath:"#/$defs/digest/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""};if(vErrors === null){vErrors = [err112];}else {vErrors.push(err112);}errors++;}}else {const err113 = {instancePath:instancePath+"/artifact/content_digest",schemaPath:"#/$defs/digest/type",keyword:"type",params:{type: "string"},message:"must be string"};if(vErrors === null){vErrors = [err113];}else {vErrors.push(err113);}errors++;}}}else {const err114 = {instancePath:instancePath+"/artifact",schemaPath:"#/properties/artifact/oneOf/1/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err114];}else {vErrors.push(err114);}errors++;}var _valid9 = _errs111 === errors;if(_valid9 && valid32){valid32 = false;passing9 = [passing9, 1];}else {if(_valid9){valid32 = true;passing9 = 1;}}if(!valid32){const err115 = {instancePath:instancePath+"/artifact",schemaPath:"#/properties/artifact/oneOf",keyword:"oneOf",params:{passingSchemas: passing9},message:"must match exactly one schema in oneOf"};if(vErrors === null){vErrors = [err115];}else {vErrors.push(err115);}errors++;}else {errors = _errs108;if(vErrors !== null){if(_errs108){vErrors.length = _errs108;}else {vErrors = null;}}}}}else {const err116 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};if(vErrors === null){vErrors = [err116];}else {vErrors.push(err116);}errors++;}run_validator_validate20.errors = vErrors;return errors === 0;}run_validator_validate20.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

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

// EXTERNAL MODULE: ./packages/core/src/canonical-json.ts
var canonical_json = __webpack_require__(2962);
;// CONCATENATED MODULE: ./packages/core/src/ledger/transitions.ts
/**
 * The ledger's transitions as pure functions: the state read at one head (plus the server's clock) and
 * the request → the files of the next state, or a coded refusal (a thrown WritError). Nothing here
 * reads a clock, the network or the environment; the compare-and-set loop (cas.ts) calls these afresh
 * on every attempt, so a rejected head is always re-validated from scratch.
 */



const DEFAULT_LEASE_POLICY = { leaseMs: 10 * 60_000, graceMs: 60_000 };
const FREE_LEASE = { schema: 1, epoch: 0, holder: null, lease_expires_at: null };
function isoTime(ms) {
    return new Date(ms).toISOString();
}
function expiryOf(lease) {
    return lease.lease_expires_at === null ? null : Date.parse(lease.lease_expires_at);
}
/** True when the lease has a holder whose expiry plus the grace period has not passed on the server. */
function leaseIsLive(lease, serverTime, policy) {
    if (lease.holder === null)
        return false;
    const expiry = expiryOf(lease);
    return expiry === null || serverTime < expiry + policy.graceMs;
}
function sameHolder(a, b) {
    return (a !== null && a.run_id === b.run_id && a.workflow_run_id === b.workflow_run_id && a.attempt === b.attempt);
}
function renewed(lease, serverTime, policy) {
    return { ...lease, lease_expires_at: isoTime(serverTime + policy.leaseMs) };
}
function requireRun(view, runId) {
    if (view.run === null)
        throw new errors/* WritError */.b9('run-not-found', `The ledger holds no run ${runId}.`);
    return view.run;
}
function cloneRun(run) {
    return structuredClone(run);
}
function refuseState(run, transition, allowed) {
    if (allowed.includes(run.state))
        return;
    if (run.state === 'needs-reconciliation') {
        throw new WritError('needs-reconciliation', `Run ${run.run_id} needs reconciliation by a repository writer; ${transition} is refused.`);
    }
    throw new WritError('invalid-transition', `Run ${run.run_id} is ${run.state}; ${transition} needs one of: ${allowed.join(', ')}.`, { details: { state: run.state } });
}
/**
 * The holder check every claim, checkpoint, release and completion passes: the lease must be held by
 * exactly this holder at exactly this epoch. Another run's live lease → `repository-lease-held`; any
 * other mismatch (the epoch moved, the lease was released or taken over) → `fenced`.
 */
function checkHolder(view, run, epoch, holder) {
    const { lease } = view;
    if (lease.holder !== null && lease.holder.run_id !== run.run_id) {
        throw new WritError('repository-lease-held', `Run ${lease.holder.run_id} holds the repository lease (epoch ${lease.epoch}); run ${run.run_id} may not write.`, { details: { epoch: lease.epoch } });
    }
    if (lease.epoch !== epoch ||
        !sameHolder(lease.holder, holder) ||
        run.owner === null ||
        run.owner.epoch !== epoch) {
        throw new WritError('fenced', `Epoch ${epoch} of run ${run.run_id} is no longer current (the lease is at epoch ${lease.epoch}); no further claim.`, { details: { epoch: lease.epoch } });
    }
}
function findStep(run, stepId) {
    const index = run.steps.findIndex((step) => step.id === stepId);
    const step = run.steps[index];
    if (step === undefined) {
        throw new WritError('invalid-transition', `Run ${run.run_id} has no step ${stepId}.`);
    }
    return { step, index };
}
function propose(view, input) {
    if (view.run !== null) {
        throw new errors/* WritError */.b9('run-exists', `Run ${input.runId} was already proposed; run files are never reset.`);
    }
    const ids = new Set();
    for (const step of input.steps) {
        if (ids.has(step.id))
            throw new errors/* WritError */.b9('malformed-plan', `Step ID ${step.id} appears twice.`);
        ids.add(step.id);
    }
    if (input.steps.length > input.bounds.max_steps) {
        throw new errors/* WritError */.b9('malformed-plan', `The plan has ${input.steps.length} steps, above max_steps.`);
    }
    const run = {
        schema: 1,
        repository: input.repository,
        run_id: input.runId,
        plan_digest: input.planDigest,
        evidence_digest: input.evidenceDigest,
        scope: { ...input.scope },
        bounds: { ...input.bounds },
        state: 'proposed',
        approval: null,
        owner: null,
        steps: input.steps.map((step) => ({
            id: step.id,
            kind: step.kind,
            status: 'pending',
            epoch: null,
            pre_state_digest: null,
            evidence: null,
            resources: [],
            reconciled_by: null,
        })),
        stop_reason: null,
        blockers: [],
        proposed_at: isoTime(view.serverTime),
        proposer: input.proposer ?? null,
        status_comment: null,
        artifact: null,
    };
    return {
        transition: 'propose',
        runId: input.runId,
        epoch: view.lease.epoch,
        commentId: null,
        run,
        lease: null,
        needsReconciliation: false,
    };
}
function consume(view, input, policy) {
    const run = requireRun(view, input.runId);
    const { approval } = input;
    const tombstones = view.tombstones;
    if (run.approval !== null || run.state !== 'proposed') {
        throw new WritError('approval-already-consumed', `Run ${run.run_id} already has a consumed approval (state ${run.state}).`);
    }
    if (tombstones?.runIds.has(run.run_id) === true) {
        throw new WritError('approval-already-consumed', `Run ID ${run.run_id} is in a consumed-approval tombstone.`);
    }
    if (tombstones?.commentIds.has(approval.comment_id) === true) {
        throw new WritError('approval-already-consumed', `Comment ${approval.comment_id} is in a consumed-approval tombstone.`);
    }
    if (input.requireDistinctApprover === true) {
        const proposer = run.proposer?.actor_id;
        if (proposer === undefined || proposer === approval.actor_id) {
            throw new WritError('unauthorized-approval', proposer === undefined
                ? `Run ${run.run_id} does not record its proposer, so a distinct approver cannot be proven.`
                : `Approver ${approval.actor_id} proposed run ${run.run_id}; a distinct approver is required.`);
        }
    }
    const mismatches = [];
    if (approval.digest !== run.plan_digest)
        mismatches.push('approved digest');
    if (input.plan.digest !== run.plan_digest)
        mismatches.push('plan digest');
    if (canonicalize(input.plan.scope) !== canonicalize(run.scope))
        mismatches.push('scope');
    if (canonicalize(input.plan.bounds) !== canonicalize(run.bounds))
        mismatches.push('bounds');
    if (mismatches.length > 0) {
        throw new WritError('stale-or-mismatched-approval', `Run ${run.run_id}: the ${mismatches.join(', ')} differ from the proposed run; a new dry-run plan is required.`);
    }
    if (leaseIsLive(view.lease, view.serverTime, policy)) {
        throw new WritError('repository-lease-held', `Run ${view.lease.holder?.run_id ?? 'unknown'} holds the repository lease (epoch ${view.lease.epoch}).`, { details: { epoch: view.lease.epoch } });
    }
    const epoch = view.lease.epoch + 1;
    const holder = { run_id: run.run_id, ...input.holder };
    const next = cloneRun(run);
    next.state = 'approved';
    next.approval = { ...approval, consumed_at: isoTime(view.serverTime), epoch };
    next.owner = { epoch, holder };
    return {
        transition: 'consume',
        runId: run.run_id,
        epoch,
        commentId: approval.comment_id,
        run: next,
        lease: { schema: 1, epoch, holder, lease_expires_at: isoTime(view.serverTime + policy.leaseMs) },
        needsReconciliation: false,
    };
}
function claim(view, input, policy) {
    const run = requireRun(view, input.runId);
    refuseState(run, 'claim', ['approved', 'running']);
    checkHolder(view, run, input.epoch, input.holder);
    const { step, index } = findStep(run, input.stepId);
    if (step.status !== 'pending') {
        throw new WritError('invalid-transition', `Step ${step.id} of run ${run.run_id} is ${step.status}, not pending.`);
    }
    const open = run.steps
        .slice(0, index)
        .find((earlier) => earlier.status === 'pending' || earlier.status === 'claimed');
    if (open !== undefined) {
        throw new WritError('invalid-transition', `Step ${open.id} of run ${run.run_id} is ${open.status}; steps are claimed in order.`);
    }
    const next = cloneRun(run);
    next.state = 'running';
    next.steps[index] = {
        ...step,
        status: 'claimed',
        epoch: input.epoch,
        pre_state_digest: input.preStateDigest ?? null,
    };
    return {
        transition: 'claim',
        runId: run.run_id,
        epoch: input.epoch,
        commentId: null,
        run: next,
        lease: renewed(view.lease, view.serverTime, policy),
        needsReconciliation: false,
    };
}
function checkpoint(view, input, policy) {
    const run = requireRun(view, input.runId);
    refuseState(run, 'checkpoint', ['running']);
    checkHolder(view, run, input.epoch, input.holder);
    const { step, index } = findStep(run, input.stepId);
    if (step.status !== 'claimed' || step.epoch !== input.epoch) {
        throw new WritError('invalid-transition', `Step ${step.id} of run ${run.run_id} is ${step.status}${step.epoch === null ? '' : ` (epoch ${step.epoch})`}, not claimed by epoch ${input.epoch}.`);
    }
    const next = cloneRun(run);
    next.steps[index] = {
        ...step,
        status: input.outcome,
        evidence: { ...input.evidence },
        resources: [...(input.resources ?? [])],
    };
    return {
        transition: 'checkpoint',
        runId: run.run_id,
        epoch: input.epoch,
        commentId: null,
        run: next,
        lease: renewed(view.lease, view.serverTime, policy),
        needsReconciliation: false,
    };
}
/**
 * A replacement run or attempt becomes holder at epoch + 1, only once the lease is free or its expiry
 * plus the grace period has passed on the server's clock. A claimed step (outcome unknown) stops the
 * run at `needs-reconciliation` and frees the lease; the old holder is fenced either way.
 */
function takeover(view, input, policy) {
    const run = requireRun(view, input.runId);
    refuseState(run, 'takeover', ['approved', 'running']);
    if (leaseIsLive(view.lease, view.serverTime, policy)) {
        const expiry = expiryOf(view.lease);
        throw new WritError('repository-lease-held', `Run ${view.lease.holder?.run_id ?? 'unknown'} holds the lease at epoch ${view.lease.epoch}` +
            (expiry === null
                ? '.'
                : ` until ${isoTime(expiry)} (+${policy.graceMs / 1000}s grace, server time).`), { details: { epoch: view.lease.epoch } });
    }
    const epoch = view.lease.epoch + 1;
    const holder = { run_id: run.run_id, ...input.holder };
    const next = cloneRun(run);
    next.owner = { epoch, holder };
    const claimed = run.steps.some((step) => step.status === 'claimed');
    if (claimed) {
        next.state = 'needs-reconciliation';
        next.stop_reason = 'needs-reconciliation';
        if (!next.blockers.includes('needs-reconciliation'))
            next.blockers.push('needs-reconciliation');
    }
    return {
        transition: 'takeover',
        runId: run.run_id,
        epoch,
        commentId: null,
        run: next,
        lease: claimed
            ? { schema: 1, epoch, holder: null, lease_expires_at: null }
            : { schema: 1, epoch, holder, lease_expires_at: isoTime(view.serverTime + policy.leaseMs) },
        needsReconciliation: claimed,
    };
}
function release(view, input) {
    const run = requireRun(view, input.runId);
    checkHolder(view, run, input.epoch, input.holder);
    return {
        transition: 'release',
        runId: run.run_id,
        epoch: input.epoch,
        commentId: null,
        run: null,
        lease: { schema: 1, epoch: input.epoch, holder: null, lease_expires_at: null },
        needsReconciliation: false,
    };
}
function complete(view, input) {
    const run = requireRun(view, input.runId);
    refuseState(run, 'complete', ['approved', 'running']);
    checkHolder(view, run, input.epoch, input.holder);
    const claimed = run.steps.find((step) => step.status === 'claimed');
    if (claimed !== undefined) {
        throw new WritError('invalid-transition', `Step ${claimed.id} of run ${run.run_id} is still claimed.`);
    }
    const pending = run.steps.find((step) => step.status === 'pending');
    if (input.state === 'completed' && pending !== undefined) {
        throw new WritError('invalid-transition', `Step ${pending.id} of run ${run.run_id} is still pending.`);
    }
    const next = cloneRun(run);
    next.state = input.state;
    next.stop_reason = input.stopReason ?? (input.state === 'completed' ? null : input.state);
    return {
        transition: 'complete',
        runId: run.run_id,
        epoch: input.epoch,
        commentId: null,
        run: next,
        lease: { schema: 1, epoch: input.epoch, holder: null, lease_expires_at: null },
        needsReconciliation: false,
    };
}
const DEFAULT_RECONCILER_ROLES = (/* unused pure expression or super */ null && (['admin', 'maintain', 'write']));
function reconcile(view, input) {
    const run = requireRun(view, input.runId);
    if (run.state !== 'needs-reconciliation') {
        throw new WritError('invalid-transition', `Run ${run.run_id} is ${run.state}, not needs-reconciliation.`);
    }
    if (!(input.allowedRoles ?? DEFAULT_RECONCILER_ROLES).includes(input.actor.role_name)) {
        throw new WritError('insufficient-permission', `${input.actor.actor_login} has role ${input.actor.role_name}; reconciling needs a repository writer.`);
    }
    const { step, index } = findStep(run, input.stepId);
    if (step.status !== 'claimed') {
        throw new WritError('invalid-transition', `Step ${step.id} of run ${run.run_id} is ${step.status}, not claimed.`);
    }
    const next = cloneRun(run);
    next.steps[index] = {
        ...step,
        status: input.outcome,
        evidence: { ...input.evidence },
        resources: [...(input.resources ?? [])],
        reconciled_by: { ...input.actor },
    };
    if (!next.steps.some((candidate) => candidate.status === 'claimed')) {
        next.blockers = next.blockers.filter((blocker) => blocker !== 'needs-reconciliation');
        if (input.resume ?? true) {
            next.state = 'running';
            next.stop_reason = null;
        }
        else {
            next.state = 'failed';
            next.stop_reason = 'needs-reconciliation';
        }
    }
    return {
        transition: 'reconcile',
        runId: run.run_id,
        epoch: view.lease.epoch,
        commentId: null,
        run: next,
        lease: null,
        needsReconciliation: next.state === 'needs-reconciliation',
    };
}
function isTerminal(state) {
    return TERMINAL_RUN_STATES.includes(state);
}
/**
 * Records the run's status comment (a reservation before a POST or PATCH, or its result after).
 * Allowed in every state, terminal ones included: the status projection must stay repairable.
 * The issue a status comment lives on never changes once reserved.
 */
function recordStatus(view, input) {
    const run = requireRun(view, input.runId);
    const current = run.status_comment ?? null;
    if (current !== null && current.issue_number !== input.statusComment.issue_number) {
        throw new errors/* WritError */.b9('invalid-transition', `Run ${run.run_id} keeps its status comment on #${current.issue_number}, not #${input.statusComment.issue_number}.`);
    }
    if (current?.comment_id != null && input.statusComment.comment_id !== current.comment_id) {
        throw new errors/* WritError */.b9('invalid-transition', `Run ${run.run_id} already has status comment ${current.comment_id}.`);
    }
    const next = cloneRun(run);
    next.status_comment = { ...input.statusComment };
    return {
        transition: 'status',
        runId: run.run_id,
        epoch: view.lease.epoch,
        commentId: null,
        run: next,
        lease: null,
        needsReconciliation: false,
    };
}
/** Records a published artifact (bot-branch commit and PR) for an approved run. */
function recordArtifact(view, input) {
    const run = requireRun(view, input.runId);
    if (run.approval === null) {
        throw new WritError('stale-or-mismatched-approval', `Run ${run.run_id} has no consumed approval.`);
    }
    const next = cloneRun(run);
    next.artifact = { ...input.artifact };
    return {
        transition: 'artifact',
        runId: run.run_id,
        epoch: view.lease.epoch,
        commentId: null,
        run: next,
        lease: null,
        needsReconciliation: false,
    };
}

;// CONCATENATED MODULE: ./packages/core/src/ledger/cas.ts
/**
 * The compare-and-set loop, the ledger's only concurrency primitive: read the head (one query), evaluate
 * the pure transition against it, commit with `createCommitOnBranch(expectedHeadOid)`.
 *
 * - STALE_DATA: re-read and re-evaluate from scratch (the approval may now be consumed, the epoch may
 *   have moved); never overwrite.
 * - A lost response or a 5xx (the client's retry plugin retries POST 5xx, so a STALE_DATA can be caused
 *   by our own earlier attempt landing): every attempt carries its own transition ID trailer; the next
 *   read looks for it in the history above that attempt's base and accepts it only when the files at
 *   that commit are byte-identical to what the attempt sent. Otherwise the transition is re-evaluated.
 * - Bounded attempts with seeded full jitter; the outcome (attempts, recovery, requests) is reported.
 */







const systemClock = {
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
/** A small seeded PRNG (mulberry32) for reproducible jitter. */
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
/** Wraps a store so every call is counted. */
function countingStore(store) {
    let calls = 0;
    const counted = {
        location: store.location,
        read: (request) => ((calls += 1), store.read(request)),
        readFilesAt: (oid, paths) => ((calls += 1), store.readFilesAt(oid, paths)),
        readHistory: (head, cursor, first) => ((calls += 1), store.readHistory(head, cursor, first)),
        commit: (request) => ((calls += 1), store.commit(request)),
        branchRules: () => ((calls += 1), store.branchRules()),
        ruleset: (id) => ((calls += 1), store.ruleset(id)),
        createRoot: (files, message) => ((calls += 4), store.createRoot(files, message)),
    };
    return { store: counted, count: () => calls };
}
/** Parses and validates the files of a snapshot; a missing or foreign root fails closed. */
function parseSnapshot(store, snapshot, runPath) {
    const rootText = snapshot.files.get(ledger_paths/* LEDGER_ROOT_PATH */.$r) ?? null;
    if (rootText === null) {
        throw new errors/* WritError */.b9('ledger-provenance-unproven', `The ledger branch has no ${ledger_paths/* LEDGER_ROOT_PATH */.$r}.`);
    }
    const root = parseLedgerFile(LEDGER_ROOT_FILE, ledger_paths/* LEDGER_ROOT_PATH */.$r, rootText);
    const { owner, repo, branch } = store.location;
    if (root.repository.toLowerCase() !== `${owner}/${repo}`.toLowerCase() || root.branch !== branch) {
        throw new errors/* WritError */.b9('ledger-provenance-unproven', `${ledger_paths/* LEDGER_ROOT_PATH */.$r} names ${root.repository}@${root.branch}, not ${owner}/${repo}@${branch}.`);
    }
    const leaseText = snapshot.files.get(ledger_paths/* LEASE_PATH */.B0) ?? null;
    const runText = runPath === null ? null : (snapshot.files.get(runPath) ?? null);
    const checkpointText = snapshot.files.get(ledger_paths/* PROVENANCE_PATH */.U7) ?? null;
    return {
        root,
        lease: leaseText === null ? FREE_LEASE : parseLedgerFile(LEASE_FILE, ledger_paths/* LEASE_PATH */.B0, leaseText),
        run: runText === null || runPath === null ? null : parseLedgerFile(RUN_FILE, runPath, runText),
        checkpoint: checkpointText === null ? null : parseLedgerFile(PROVENANCE_FILE, ledger_paths/* PROVENANCE_PATH */.U7, checkpointText),
    };
}
/** The head's checkpoint, or null (a full walk) when it is absent or unreadable. */
function readCheckpoint(snapshot) {
    const text = snapshot.files.get(ledger_paths/* PROVENANCE_PATH */.U7) ?? null;
    if (text === null)
        return null;
    try {
        return parseLedgerFile(PROVENANCE_FILE, ledger_paths/* PROVENANCE_PATH */.U7, text);
    }
    catch {
        return null;
    }
}
function additionsFor(result, runPath, report) {
    const additions = [];
    if (result.lease !== null) {
        additions.push({ path: ledger_paths/* LEASE_PATH */.B0, contents: serializeLedgerFile(LEASE_FILE, ledger_paths/* LEASE_PATH */.B0, result.lease) });
    }
    if (result.run !== null) {
        additions.push({ path: runPath, contents: serializeLedgerFile(RUN_FILE, runPath, result.run) });
    }
    if (report !== null) {
        additions.push({
            path: ledger_paths/* PROVENANCE_PATH */.U7,
            contents: serializeLedgerFile(PROVENANCE_FILE, ledger_paths/* PROVENANCE_PATH */.U7, checkpointFrom(report)),
        });
    }
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
            const trailers = parseTrailers(commit.message);
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
    const runPath = (0,ledger_paths/* runFilePath */.N3)(spec.runRepository, spec.runId);
    const paths = [ledger_paths/* LEDGER_ROOT_PATH */.$r, ledger_paths/* LEASE_PATH */.B0, runPath, ...(spec.provenance ? [ledger_paths/* PROVENANCE_PATH */.U7] : [])];
    if (spec.provenance && context.app === null) {
        throw new errors/* WritError */.b9('invalid-input', 'The ledger app identity (slug and app ID) is required for this transition.');
    }
    const pending = [];
    const transitionBase = (0,external_node_crypto_.randomUUID)();
    let proven = null;
    for (let attempt = 1; attempt <= context.maxAttempts; attempt += 1) {
        const snapshot = await store.read({
            paths,
            historyFirst: spec.provenance || pending.length > 0 ? 100 : 20,
        });
        if (snapshot === null) {
            throw new errors/* WritError */.b9('ledger-branch-missing', `The ledger branch ${store.location.branch} does not exist in ${store.location.owner}/${store.location.repo}.`);
        }
        const landed = await findLanded(store, snapshot, pending);
        if (landed !== null) {
            context.logger.info(`ledger: attempt ${landed.attempt.transitionId} had landed as ${landed.oid}`);
            return recovered(landed, snapshot, attempt, count());
        }
        // Authority first: no file content is judged before the history that wrote it is proven.
        let report = null;
        if (spec.provenance && context.app !== null) {
            report = await verifyProvenance(store, context.app, snapshot.headOid, {
                mode: 'incremental',
                checkpoint: proven === null ? readCheckpoint(snapshot) : checkpointFrom(proven),
                firstPage: snapshot.history,
            });
            proven = report;
        }
        const parsed = parseSnapshot(store, snapshot, runPath);
        const view = {
            serverTime: snapshot.serverTime,
            lease: parsed.lease,
            run: parsed.run,
            ...(report === null
                ? {}
                : { tombstones: { runIds: report.consumedRunIds, commentIds: report.consumedCommentIds } }),
        };
        const result = spec.evaluate(view);
        const transitionId = `${transitionBase}.${attempt}`;
        const message = formatMessage({
            transition: result.transition,
            runId: result.runId,
            epoch: result.epoch,
            transitionId,
            commentId: result.commentId,
        });
        const commit = {
            expectedHeadOid: snapshot.headOid,
            headline: message.headline,
            body: message.body,
            additions: additionsFor(result, runPath, report),
        };
        if (options.dryRun === true) {
            return {
                result,
                dryRun: true,
                committed: false,
                commitOid: null,
                commit,
                attempts: attempt,
                recoveredLostResponse: false,
                requests: count(),
                provenance: report,
                serverTime: snapshot.serverTime,
            };
        }
        const outcome = await store.commit(commit);
        if (outcome.kind === 'committed') {
            return {
                result,
                dryRun: false,
                committed: true,
                commitOid: outcome.oid,
                commit,
                attempts: attempt,
                recoveredLostResponse: false,
                requests: count(),
                provenance: report,
                serverTime: outcome.serverTime,
            };
        }
        // STALE_DATA may be our own earlier attempt landing (a retried POST); an unknown outcome may have
        // landed too. Either way the next read looks for this attempt's transition ID before re-evaluating.
        pending.push({
            transitionId,
            base: snapshot.headOid,
            additions: commit.additions,
            commit,
            result,
            report,
        });
        context.logger.debug(`ledger: ${result.transition} ${spec.runId} attempt ${attempt} ${outcome.kind === 'stale' ? 'met a stale head' : `has an unknown outcome (${outcome.reason})`}`);
        const ceiling = Math.min(context.backoffCapMs, context.backoffBaseMs * 2 ** (attempt - 1));
        await context.clock.sleep(Math.floor(context.random() * ceiling));
    }
    // Before giving up, one last look for an attempt that landed.
    const snapshot = await store.read({ paths, historyFirst: 100 });
    if (snapshot !== null) {
        const landed = await findLanded(store, snapshot, pending);
        if (landed !== null)
            return recovered(landed, snapshot, context.maxAttempts, count());
    }
    throw new errors/* WritError */.b9('ledger-cas-exhausted', `The ledger commit for run ${spec.runId} lost all ${context.maxAttempts} attempts to concurrent writers.`, { details: { attempts: context.maxAttempts } });
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

;// CONCATENATED MODULE: ./packages/core/src/ledger/read.ts
/**
 * The GitHub side of the ledger: the ONE GraphQL read (head OID + the files a transition needs + the
 * newest page of history, with the server's `Date`), history paging, createCommitOnBranch with
 * expectedHeadOid, the ruleset reads and the bootstrap's Git data calls. Field names follow GitHub's
 * published GraphQL schema.
 */

const COMMIT_FIELDS = `oid
            parents(first: 2) { totalCount }
            author { name email user { login } }
            committer { name email date user { login } }
            signature { isValid state wasSignedByGitHub signer { login } }
            message`;
const BLOB_TEXT = '{ object { ... on Blob { text } } }';
function statusOf(error) {
    if (typeof error === 'object' && error !== null && 'status' in error) {
        const status = error.status;
        return typeof status === 'number' ? status : undefined;
    }
    return undefined;
}
function serverTimeOf(headers) {
    const header = headers.date;
    const time = typeof header === 'string' ? Date.parse(header) : Number.NaN;
    if (!Number.isFinite(time)) {
        throw new errors/* WritError */.b9('github-request-failed', 'GitHub answered without a usable Date header.');
    }
    return time;
}
function requestFailed(what, error) {
    const status = statusOf(error);
    return new errors/* WritError */.b9('github-request-failed', `${what} failed${status === undefined ? '' : ` with HTTP ${status}`}.`, status === undefined ? { cause: error } : { cause: error, details: { status } });
}
function record(value) {
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
    const object = record(record(entry).object);
    return typeof object.text === 'string' ? object.text : null;
}
function parseCommit(node) {
    const n = record(node);
    const author = record(n.author);
    const committer = record(n.committer);
    const signature = n.signature === null || n.signature === undefined ? null : record(n.signature);
    return {
        oid: String(n.oid),
        parentCount: Number(record(n.parents).totalCount),
        authorName: stringOrNull(author.name),
        authorEmail: stringOrNull(author.email),
        authorLogin: stringOrNull(record(author.user).login),
        committerName: stringOrNull(committer.name),
        committerEmail: stringOrNull(committer.email),
        committedAt: timeOrNull(committer.date),
        signature: signature === null
            ? null
            : {
                isValid: signature.isValid === true,
                state: String(signature.state),
                wasSignedByGitHub: signature.wasSignedByGitHub === true,
                signerLogin: stringOrNull(record(signature.signer).login),
            },
        message: typeof n.message === 'string' ? n.message : '',
    };
}
function parseHistory(history) {
    const h = record(history);
    const pageInfo = record(h.pageInfo);
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
/** The GraphQL document of the one read (exported for the request-count report and tests). */
function readQuery(request) {
    const history = request.historyFirst > 0
        ? `history(first: ${Math.min(100, Math.floor(request.historyFirst))}) {
            pageInfo { hasNextPage endCursor }
            nodes { ${COMMIT_FIELDS} }
          }`
        : '';
    const runs = request.listRuns
        ? `runs: file(path: "runs") { object { ... on Tree { entries { name object { ... on Tree { entries { name object { ... on Blob { text } } } } } } } } }`
        : '';
    return `query WritLedgerRead($owner: String!, $name: String!, $qualifiedName: String!) {
  repository(owner: $owner, name: $name) {
    ref(qualifiedName: $qualifiedName) {
      target {
        ... on Commit {
          oid
          ${fileAliases(request.paths)}
          ${history}
          ${runs}
        }
      }
    }
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
const COMMIT_MUTATION = `mutation WritLedgerCommit($input: CreateCommitOnBranchInput!) {
  createCommitOnBranch(input: $input) { commit { oid } }
}`;
function listRunFiles(target) {
    const out = new Map();
    const directories = record(record(target.runs).object).entries;
    if (!Array.isArray(directories))
        return out;
    for (const directory of directories) {
        const d = record(directory);
        const entries = record(d.object).entries;
        if (!Array.isArray(entries))
            continue;
        for (const entry of entries) {
            const e = record(entry);
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
        const body = record(response.data);
        return {
            data: body.data ?? null,
            errors: Array.isArray(body.errors) ? body.errors : [],
            serverTime: serverTimeOf(response.headers),
        };
    }
    async query(what, query, variables) {
        let answer;
        try {
            answer = await this.graphql(query, variables);
        }
        catch (error) {
            throw requestFailed(what, error);
        }
        if (answer.errors.length > 0) {
            const types = answer.errors.map((error) => error.type ?? 'error').join(', ');
            throw new errors/* WritError */.b9('github-request-failed', `${what} returned GraphQL errors (${types}).`);
        }
        return answer;
    }
    async read(request) {
        const answer = await this.query('Reading the ledger branch', readQuery(request), {
            owner: this.location.owner,
            name: this.location.repo,
            qualifiedName: this.qualifiedName,
        });
        const repository = record(record(answer.data).repository);
        if (record(answer.data).repository === null || record(answer.data).repository === undefined) {
            throw new errors/* WritError */.b9('github-request-failed', `Repository ${this.location.owner}/${this.location.repo} was not found or is not accessible.`);
        }
        if (repository.ref === null || repository.ref === undefined)
            return null;
        const target = record(record(repository.ref).target);
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
        return collectFiles(record(record(record(answer.data).repository).object), paths);
    }
    async readHistory(headOid, cursor, first) {
        const answer = await this.query('Reading the ledger history', HISTORY_QUERY, {
            owner: this.location.owner,
            name: this.location.repo,
            oid: headOid,
            first: Math.min(100, Math.max(1, Math.floor(first))),
            after: cursor,
        });
        return parseHistory(record(record(record(answer.data).repository).object).history);
    }
    async commit(request) {
        let answer;
        try {
            answer = await this.graphql(COMMIT_MUTATION, {
                input: {
                    branch: {
                        repositoryNameWithOwner: `${this.location.owner}/${this.location.repo}`,
                        branchName: this.location.branch,
                    },
                    expectedHeadOid: request.expectedHeadOid,
                    message: { headline: request.headline, body: request.body },
                    fileChanges: {
                        additions: request.additions.map((file) => ({
                            path: file.path,
                            contents: Buffer.from(file.contents, 'utf8').toString('base64'),
                        })),
                    },
                },
            });
        }
        catch (error) {
            const status = statusOf(error);
            // A 5xx (after plugin-retry's own retries) or a dropped connection (status 500): it may have landed.
            if (status === undefined || status >= 500) {
                return { kind: 'unknown', reason: status === undefined ? 'no response' : `HTTP ${status}` };
            }
            throw requestFailed('createCommitOnBranch on the ledger branch', error);
        }
        if (answer.errors.some((error) => error.type === 'STALE_DATA'))
            return { kind: 'stale' };
        if (answer.errors.length > 0) {
            const types = answer.errors.map((error) => error.type ?? 'error').join(', ');
            throw new errors/* WritError */.b9('github-request-failed', `createCommitOnBranch returned GraphQL errors (${types}).`);
        }
        const oid = record(record(record(answer.data).createCommitOnBranch).commit).oid;
        if (typeof oid !== 'string') {
            return { kind: 'unknown', reason: 'createCommitOnBranch answered without a commit' };
        }
        return { kind: 'committed', oid, serverTime: answer.serverTime };
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
            if (statusOf(error) !== 404)
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
                if (statusOf(error) === 422) {
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

;// CONCATENATED MODULE: ./packages/core/src/ledger/types.ts
/**
 * TypeScript view of the ledger files (schemas/ledger/*.schema.json are the source of truth; every file
 * is validated against its schema on read and on write, see schemas.ts).
 */
const LEDGER_SCHEMA_VERSION = 1;
const DEFAULT_LEDGER_BRANCH = 'bot/writ-ledger';
const types_TERMINAL_RUN_STATES = (/* unused pure expression or super */ null && (['completed', 'failed', 'cancelled']));

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
    const location = (0,ledger_paths/* ledgerLocation */.ju)(config.repository, config.branch ?? DEFAULT_LEDGER_BRANCH);
    const policy = { ...DEFAULT_LEASE_POLICY, ...config.policy };
    if (!(policy.leaseMs > 0) || !(policy.graceMs >= 0)) {
        throw new errors/* WritError */.b9('invalid-input', 'The lease length must be positive and the grace period non-negative.');
    }
    const maxAttempts = config.maxAttempts ?? 8;
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 100) {
        throw new errors/* WritError */.b9('invalid-input', `Invalid maxAttempts ${maxAttempts}. Expected an integer 1-100.`);
    }
    return {
        store: isStore(deps.github) ? deps.github : githubLedgerStore(deps.github, location),
        app: config.app ?? null,
        policy,
        clock: deps.clock ?? systemClock,
        logger: deps.logger ?? redact/* silentLogger */.qq,
        random: deps.random ?? seededRandom(config.seed ?? Math.floor(Math.random() * 2 ** 32)),
        maxAttempts,
        backoffBaseMs: config.backoffBaseMs ?? 25,
        backoffCapMs: config.backoffCapMs ?? 1000,
    };
}
function runRepositoryOf(context, repository) {
    if (repository !== undefined) {
        (0,ledger_paths/* parseRepository */.SU)(repository, 'run repository');
        return repository;
    }
    return `${context.store.location.owner}/${context.store.location.repo}`;
}
/** One transition of one run: validates the run ID, then runs `evaluate` through the compare-and-set loop. */
function transitionOf(context, input, provenance, evaluate, options) {
    (0,run_id/* validateRunId */.NQ)(input.runId);
    return runTransition(context, { runRepository: runRepositoryOf(context, input.repository), runId: input.runId, provenance, evaluate }, options);
}
/** `propose`: a new run file with approval null; `run-exists` if the run ID was ever proposed. */
function proposeRun(context, input, options = {}) {
    (0,run_id/* validateRunId */.NQ)(input.runId);
    const repository = runRepositoryOf(context, input.repository);
    return runTransition(context, {
        runRepository: repository,
        runId: input.runId,
        provenance: false,
        evaluate: (view) => propose(view, { ...input, repository }),
    }, options);
}
/**
 * `consume`: after proving provenance (tombstones from the full history), records the approval and takes
 * the repository lease at epoch + 1 in one compare-and-set commit. Refuses `approval-already-consumed`,
 * `stale-or-mismatched-approval`, `repository-lease-held`, `ledger-provenance-unproven`.
 */
function consumeApproval(context, input, options = {}) {
    return transitionOf(context, input, true, (view) => transitions.consume(view, input, context.policy), options);
}
function claimStep(context, input, options = {}) {
    return transitionOf(context, input, false, (view) => transitions.claim(view, input, context.policy), options);
}
function checkpointStep(context, input, options = {}) {
    return transitionOf(context, input, false, (view) => transitions.checkpoint(view, input, context.policy), options);
}
/** `takeover`: epoch + 1 after the lease's expiry plus grace on the server clock; claimed → needs-reconciliation. */
function takeoverRun(context, input, options = {}) {
    return transitionOf(context, input, true, (view) => transitions.takeover(view, input, context.policy), options);
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
/** `status`: records the run's status comment reservation or result (see status-comment/). */
function recordStatusComment(context, input, options = {}) {
    return transitionOf(context, input, false, (view) => recordStatus(view, input), options);
}
/** `artifact`: records a published artifact (commit and PR) on an approved run. */
function recordArtifactPublish(context, input, options = {}) {
    return transitionOf(context, input, false, (view) => transitions.recordArtifact(view, input), options);
}
/** One read of a run file and the lease at the ledger head (validated, like every ledger read). */
async function readRun(context, runId, repository) {
    (0,run_id/* validateRunId */.NQ)(runId);
    const runPath = (0,ledger_paths/* runFilePath */.N3)(runRepositoryOf(context, repository), runId);
    const snapshot = await context.store.read({
        paths: [ledger_paths/* LEDGER_ROOT_PATH */.$r, ledger_paths/* LEASE_PATH */.B0, runPath],
        historyFirst: 0,
    });
    if (snapshot === null) {
        throw new errors/* WritError */.b9('ledger-branch-missing', `The ledger branch ${context.store.location.branch} does not exist.`);
    }
    const parsed = parseSnapshot(context.store, snapshot, runPath);
    return { headOid: snapshot.headOid, serverTime: snapshot.serverTime, lease: parsed.lease, run: parsed.run };
}

;// CONCATENATED MODULE: ./packages/core/src/plan/binding.ts
/** What an approval binds: the plan digest, scope and bounds, exactly as the ledger records them. */

function bindPlan(plan) {
    return {
        digest: (0,canonical_json/* digest */.br)(plan),
        scope: { repository: plan.scope.repository, digest: (0,canonical_json/* digest */.br)(plan.scope) },
        bounds: { ...plan.bounds },
        evidenceDigest: plan.evidence_digest ?? null,
        steps: plan.steps.map((step) => ({ id: step.id, kind: step.kind })),
    };
}

// EXTERNAL MODULE: ./node_modules/@actions/github/lib/github.js + 21 modules
var github = __webpack_require__(1758);
// EXTERNAL MODULE: ./node_modules/@octokit/plugin-retry/dist-bundle/index.js
var dist_bundle = __webpack_require__(9735);
// EXTERNAL MODULE: ./node_modules/@octokit/plugin-throttling/dist-bundle/index.js
var plugin_throttling_dist_bundle = __webpack_require__(6856);
// EXTERNAL MODULE: ./node_modules/bottleneck/light.js
var light = __webpack_require__(3251);
var light_default = /*#__PURE__*/__webpack_require__.n(light);
;// CONCATENATED MODULE: ./packages/core/src/github/client.ts
/**
 * The one place Writ builds a GitHub client: `@actions/github`'s `getOctokit` with the retry and
 * throttling plugins passed as trailing arguments. (Passing plugins inside the options object, as one
 * well-known action does, silently installs neither.)
 */





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
function createGitHubClient(token, options = {}) {
    (0,redact/* registerSecret */.cl)(token);
    const logger = options.logger ?? redact/* silentLogger */.qq;
    const rateLimitRetries = options.rateLimitRetries ?? 2;
    const maxWait = options.maxRateLimitWaitSeconds ?? 300;
    const onLimit = (kind) => (retryAfter, request, _octokit, retryCount) => {
        const what = `${request.method ?? 'request'} ${(0,redact/* redact */.E$)(request.url ?? '')}`;
        if (retryCount < rateLimitRetries && retryAfter <= maxWait) {
            logger.warning(`${kind} rate limit on ${what}; retrying after ${retryAfter}s (retry ${retryCount + 1})`);
            return true;
        }
        logger.warning(`${kind} rate limit on ${what}; giving up after ${retryCount} retries`);
        return false;
    };
    const writeSpacing = options.writeSpacingMs ?? 1000;
    const notificationSpacing = options.notificationSpacingMs ?? 3000;
    const baseUrl = options.baseUrl ?? process.env.GITHUB_API_URL ?? 'https://api.github.com';
    return (0,github/* getOctokit */.Q)(token, {
        baseUrl,
        userAgent: options.userAgent ?? 'writ',
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
    }, graphqlRateLimitCompat, dist_bundle/* retry */.L, plugin_throttling_dist_bundle/* throttling */.A);
}

;// CONCATENATED MODULE: ./packages/core/src/stages/connect.ts
/** Builds the GitHub client and the ledger context a writing stage needs, from validated inputs. */




const APP_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,32}[a-z0-9])?$/;
function validateAppSlug(value) {
    if (!APP_SLUG_PATTERN.test(value)) {
        throw new errors/* WritError */.b9('invalid-input', `input 'ledger-app-slug' must be a GitHub App slug (got ${value.length} characters)`);
    }
    return value;
}
function validateLeaseSeconds(value) {
    const seconds = value ?? 600;
    if (seconds < 30 || seconds > 6 * 3600) {
        throw new errors/* WritError */.b9('invalid-input', `input 'lease-seconds' must be between 30 and 21600 (got ${seconds})`);
    }
    return seconds;
}
function requireToken(token) {
    if (token === '')
        throw new errors/* WritError */.b9('invalid-input', "input 'token' is required when not a dry run");
    return token;
}
/**
 * GitHub asks for a second between mutative requests; a local emulator on loopback needs no spacing,
 * so stages run against it (tests, the demo) at full speed. Real GitHub is never a loopback address.
 */
function clientTimingFor(apiUrl) {
    let host;
    try {
        host = new URL(apiUrl).hostname;
    }
    catch {
        throw new errors/* WritError */.b9('invalid-input', 'GITHUB_API_URL is not a URL');
    }
    const loopback = host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
    return loopback
        ? { writeSpacingMs: 0, notificationSpacingMs: 0, retryBaseMs: 50, rateLimitBaseMs: 50 }
        : {};
}
function connect(context, inputs, logger) {
    const appSlug = validateAppSlug(inputs.appSlug);
    const github = createGitHubClient(requireToken(inputs.token), {
        baseUrl: context.apiUrl,
        logger,
        ...clientTimingFor(context.apiUrl),
    });
    const ledger = createLedgerContext({ github, logger }, {
        repository: context.repository.full,
        branch: (0,ledger_paths/* validateBranch */.Xe)(inputs.branch),
        app: inputs.appId === undefined ? null : { slug: appSlug, id: inputs.appId },
        policy: { leaseMs: validateLeaseSeconds(inputs.leaseSeconds) * 1000 },
    });
    return { github, ledger, ownLogin: `${appSlug}[bot]` };
}

// EXTERNAL MODULE: ./packages/core/src/preview/markdown.ts
var markdown = __webpack_require__(3937);
;// CONCATENATED MODULE: ./packages/core/src/status-comment/projection.ts

const STATE_LINES = {
    proposed: 'Proposed: waiting for approval.',
    approved: 'Approved.',
    running: 'Running.',
    completed: 'Completed.',
    failed: 'Failed.',
    cancelled: 'Cancelled.',
    'needs-reconciliation': 'Stopped: a step needs reconciliation by a repository writer.',
};
/**
 * Deterministic: it depends only on the ledger's run record and the preview, so re-running a stage
 * with the same state renders the same bytes (and sends nothing).
 */
function renderStatusProjection(run, previewMarkdown) {
    const lines = [`**Writ run ${(0,markdown/* code */.a)(run.run_id)}**: ${STATE_LINES[run.state]}`];
    if (run.approval !== null) {
        // Logins come from GitHub's API (never from comment text); mentioning the approver is intended.
        lines.push(`Approved by @${run.approval.actor_login} (${run.approval.role_name}) at ${(0,markdown/* code */.a)(run.approval.consumed_at)}, epoch ${run.approval.epoch}.`);
    }
    if (run.stop_reason !== null)
        lines.push(`Stop reason: ${(0,markdown/* code */.a)(run.stop_reason)}.`);
    const done = run.steps.filter((step) => step.status !== 'pending').length;
    if (done > 0)
        lines.push(`Steps: ${done} of ${run.steps.length} claimed or finished.`);
    return `${lines.join('\n')}\n\n${previewMarkdown}`;
}

;// CONCATENATED MODULE: ./packages/core/src/idempotency/key.ts
/**
 * Client-side idempotency for GitHub creates, which have no server-side idempotency key: a key derived
 * from the request, embedded in the created body as a hidden marker, and found again by reading the
 * primary list endpoint before any retry. Best-effort by nature: two truly concurrent creates can
 * both land; the oldest then wins and the others are retired.
 */

/** `sha256:<hex>` of the canonical JSON of {method, path, body}. */
function idempotencyKey(request) {
    return digest({ method: request.method, path: request.pathTemplate, body: request.body });
}
function idempotencyMarker(key) {
    return `<!-- writ-idempotency-key: ${key} -->`;
}
/** The body to send: the text, a blank line, then the marker (invisible when rendered). */
function withMarker(text, marker) {
    return text.length === 0 ? marker : `${text}\n\n${marker}`;
}
/** The run's status comment marker; its identity does not depend on the run's state. */
function statusMarker(runId) {
    return `<!-- writ-status run=${runId} -->`;
}
/** Exact substring match: no normalization, no prefix matching. */
function hasMarker(body, marker) {
    return typeof body === 'string' && body.includes(marker);
}

;// CONCATENATED MODULE: ./packages/core/src/idempotency/github-pages.ts
const PER_PAGE = 100;
function hasNextLink(link) {
    return typeof link === 'string' && /rel="next"/.test(link);
}
/** Every issue and pull request of the repository (state=all, unfiltered). */
function issuePages(github, owner, repo) {
    return async (page) => {
        const response = await github.rest.issues.listForRepo({
            owner,
            repo,
            state: 'all',
            per_page: PER_PAGE,
            page,
            sort: 'created',
            direction: 'asc',
        });
        return { items: response.data, hasNext: hasNextLink(response.headers.link) };
    };
}
/** Every comment on one issue or pull request (ascending ID, as GitHub lists them). */
function commentPages(github, owner, repo, issueNumber) {
    return async (page) => {
        const response = await github.rest.issues.listComments({
            owner,
            repo,
            issue_number: issueNumber,
            per_page: PER_PAGE,
            page,
        });
        return { items: response.data, hasNext: hasNextLink(response.headers.link) };
    };
}

;// CONCATENATED MODULE: ./packages/core/src/idempotency/precheck.ts
/**
 * The idempotency pre-check: read the primary (immediately consistent) list endpoint, never search,
 * page by page up to a cap, and look for the exact marker on an item authored by Writ's own identity.
 * A failed read or reaching the cap is `inconclusive`: the caller must not create.
 */


const DEFAULT_MAX_PAGES = 20;
/** Oldest first: earliest creation, then lowest ID (IDs grow with time on GitHub). */
function oldestFirst(a, b) {
    if (a.created_at !== b.created_at)
        return a.created_at < b.created_at ? -1 : 1;
    return a.id - b.id;
}
async function findMarked(readPage, options) {
    const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
    const own = options.ownLogin.toLowerCase();
    const matches = [];
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
            return { status: 'inconclusive', reason: 'read-failed', detail: (0,errors/* errorMessage */.gJ)(error), pagesRead };
        }
        pagesRead += 1;
        for (const item of result.items) {
            if (item.user?.login.toLowerCase() === own && hasMarker(item.body, options.marker))
                matches.push(item);
        }
        if (!result.hasNext)
            break;
    }
    if (matches.length === 0)
        return { status: 'absent', pagesRead };
    const [item, ...duplicates] = [...matches].sort(oldestFirst);
    return { status: 'exists', item, duplicates, pagesRead };
}

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
/** The exact body: the run's marker first (its identity), then the projection. */
function statusBody(runId, projection) {
    const body = `${statusMarker(runId)}\n${projection}`;
    if (body.length <= MAX_COMMENT_CHARS)
        return body;
    const note = '\n\n_(truncated: the full preview is in the workflow run summary)_\n';
    return `${body.slice(0, MAX_COMMENT_CHARS - note.length)}${note}`;
}
function sync_statusOf(error) {
    const value = error?.status;
    return typeof value === 'number' ? value : undefined;
}
/** A 4xx is a definite refusal; anything else (5xx, a dropped connection, a timeout) may have landed. */
function isDefiniteFailure(error) {
    const status = sync_statusOf(error);
    return status !== undefined && status >= 400 && status < 500;
}
async function syncStatusComment(deps, request) {
    const { github, ledger } = deps;
    const { repository, runId, issueNumber } = request;
    const body = statusBody(runId, request.projection);
    const wanted = (0,canonical_json/* digest */.br)(body);
    let requests = 0;
    const record = async (next) => {
        await recordStatusComment(ledger, { runId, statusComment: next });
    };
    const view = await readRun(ledger, runId);
    if (view.run === null)
        throw new errors/* WritError */.b9('run-not-found', `the ledger holds no run ${runId}`);
    let current = view.run.status_comment ?? null;
    if (current !== null && current.issue_number !== issueNumber) {
        throw new errors/* WritError */.b9('invalid-input', `run ${runId} keeps its status comment on #${current.issue_number}, not #${issueNumber}`);
    }
    // A reserved first POST with no recorded result: find out whether it landed before anything else.
    let adopted = false;
    if (current !== null && current.comment_id === null) {
        const found = await findMarked(commentPages(github, repository.owner, repository.repo, issueNumber), {
            marker: statusMarker(runId),
            ownLogin: request.ownLogin,
        });
        requests += found.pagesRead;
        if (found.status === 'inconclusive') {
            throw new errors/* WritError */.b9('precheck-inconclusive', `could not tell whether run ${runId}'s status comment exists (${found.reason})`);
        }
        if (found.status === 'exists') {
            for (const duplicate of found.duplicates) {
                // A concurrent duplicate of Writ's own comment: the oldest wins, the others are removed.
                requests += 1;
                await github.rest.issues.deleteComment({ ...repository, comment_id: duplicate.id });
                deps.logger.warning(`removed duplicate status comment ${duplicate.id} of run ${runId}`);
            }
            current = {
                issue_number: issueNumber,
                comment_id: found.item.id,
                body_digest: (0,canonical_json/* digest */.br)(found.item.body ?? ''),
                pending_digest: null,
            };
            await record(current);
            adopted = true;
        }
        else {
            current = null; // it never landed: the identity is reserved again below
        }
    }
    if (current === null || current.comment_id === null) {
        await record({ issue_number: issueNumber, comment_id: null, body_digest: null, pending_digest: wanted });
        requests += 1;
        let commentId;
        try {
            // Never retried by the client: a retried POST is exactly how duplicates are born.
            const { data } = await github.rest.issues.createComment({
                ...repository,
                issue_number: issueNumber,
                body,
                request: { retries: 0 },
            });
            commentId = data.id;
        }
        catch (error) {
            if (isDefiniteFailure(error)) {
                await record({
                    issue_number: issueNumber,
                    comment_id: null,
                    body_digest: null,
                    pending_digest: null,
                });
                throw error;
            }
            throw new errors/* WritError */.b9('precheck-inconclusive', `the status comment POST for run ${runId} had no definite answer (${(0,errors/* errorMessage */.gJ)(error)}); the next run reconciles it by its marker before posting again`);
        }
        await record({
            issue_number: issueNumber,
            comment_id: commentId,
            body_digest: wanted,
            pending_digest: null,
        });
        return { action: 'created', commentId, commentRequests: requests };
    }
    const commentId = current.comment_id;
    if (current.pending_digest !== null) {
        if (current.pending_digest !== wanted) {
            // An earlier update's outcome is unknown: read the comment back before letting another overtake it.
            requests += 1;
            const { data } = await github.rest.issues.getComment({ ...repository, comment_id: commentId });
            const landed = (0,canonical_json/* digest */.br)(data.body ?? '');
            current = { ...current, body_digest: landed, pending_digest: null };
            await record(current);
        }
        // else: the same body as the interrupted PATCH, which may simply be sent again.
    }
    if (current.pending_digest === null && current.body_digest === wanted) {
        return { action: adopted ? 'adopted' : 'unchanged', commentId, commentRequests: requests };
    }
    if (current.pending_digest !== wanted) {
        current = { ...current, pending_digest: wanted };
        await record(current);
    }
    requests += 1;
    await github.rest.issues.updateComment({ ...repository, comment_id: commentId, body });
    await record({ ...current, body_digest: wanted, pending_digest: null });
    return { action: 'updated', commentId, commentRequests: requests };
}

;// CONCATENATED MODULE: ./packages/core/src/preview/propose.ts
/**
 * The non-dry-run half of preview: propose the run in the ledger (idempotent for the same plan) and
 * keep its one status comment. Loaded by the preview stage only when it writes, so a dry run never
 * loads the GitHub client.
 */






async function proposeAndPublishStatus(context, settings, logger) {
    const binding = bindPlan(settings.plan);
    if (binding.scope.repository.toLowerCase() !== context.repository.full.toLowerCase()) {
        throw new errors/* WritError */.b9('invalid-input', `the plan's scope.repository is ${binding.scope.repository}, but this workflow runs in ${context.repository.full}`);
    }
    const { github, ledger, ownLogin } = connect(context, { token: settings.token, branch: settings.branch, appSlug: settings.appSlug }, logger);
    let proposed = true;
    try {
        await proposeRun(ledger, {
            runId: settings.runId,
            planDigest: binding.digest,
            evidenceDigest: binding.evidenceDigest,
            scope: binding.scope,
            bounds: binding.bounds,
            steps: binding.steps,
            proposer: context.actorId === undefined ? null : { actor_id: context.actorId },
        });
    }
    catch (error) {
        if ((0,errors/* errorCode */.CA)(error) !== 'run-exists')
            throw error;
        // A re-run of the same preview is fine; another plan under the same run ID never is.
        const existing = await readRun(ledger, settings.runId);
        if (existing.run?.plan_digest !== binding.digest)
            throw error;
        proposed = false;
    }
    const view = await readRun(ledger, settings.runId);
    if (view.run === null)
        throw new errors/* WritError */.b9('run-not-found', `run ${settings.runId} is not in the ledger after proposing it`);
    let statusCommentId;
    let statusAction;
    if (settings.statusIssue !== undefined) {
        const synced = await syncStatusComment({ github, ledger, logger }, {
            repository: context.repository,
            runId: settings.runId,
            issueNumber: settings.statusIssue,
            projection: renderStatusProjection(view.run, settings.markdown),
            ownLogin,
        });
        statusCommentId = synced.commentId;
        statusAction = synced.action;
    }
    return { proposed, ledgerHead: view.headOid, statusCommentId, statusAction };
}


/***/ })

};
