export const id = 536;
export const ids = [536];
export const modules = {

/***/ 6536:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  readPreviewReadings: () => (/* binding */ readPreviewReadings)
});

// EXTERNAL MODULE: ./packages/core/src/errors.ts
var errors = __webpack_require__(7638);
// EXTERNAL MODULE: ./packages/core/src/ledger/ledger.ts + 2 modules
var ledger = __webpack_require__(2813);
// EXTERNAL MODULE: ./packages/core/src/command/comment.ts
var comment = __webpack_require__(1718);
// EXTERNAL MODULE: ./packages/core/src/approval/authorize.ts
var authorize = __webpack_require__(14);
// EXTERNAL MODULE: ./packages/core/src/command/grammar.ts
var grammar = __webpack_require__(1866);
;// CONCATENATED MODULE: ./packages/core/src/approval/verify.ts




/** A failed request whose outcome is not a fact about the approval: retry the job, judge nothing. */
function verify_transient(what, error) {
    const status = httpStatus(error);
    return new WritError('github-request-failed', `${what} failed${status === undefined ? '' : ` with HTTP ${status}`}; the approval was not judged, retry the job`, { cause: error, ...(status === undefined ? {} : { details: { status } }) });
}
function refusal(check, error) {
    if (check.refuseAs === undefined || error.code === 'github-request-failed')
        return error;
    return new WritError(check.refuseAs, error.message, { cause: error });
}
/** Reads and verifies the approval comment and its author's live role; see the module comment. */
async function verify_verifyApprovalComment(github, check) {
    const verified = await verifyCommentWith(github, check, (body) => ({
        kind: 'approve',
        ...parseApproveCommand(body, check.commandPrefix),
    }));
    const { prefix, runId, digestHex } = verified.command;
    return { ...verified, command: { prefix, runId, digestHex } };
}
/**
 * Reads and verifies a comment holding any command of the grammar (approve, reconcile, cancel) under
 * exactly the approval's rules: read by ID, unedited, the exact command, a human author, a live role in
 * the allowed roles. The caller then acts on the verb.
 */
function verifyCommandComment(github, check) {
    return verifyCommentWith(github, check, (body) => parseCommand(body, check.commandPrefix));
}
async function verifyCommentWith(github, check, parse) {
    try {
        const read = await readCommentWithEdits(github, check.repository, check.commentId);
        if (read === null) {
            throw new WritError('unauthorized-approval', `comment ${check.commentId} does not exist (deleted, or not in this repository)`);
        }
        const { comment } = read;
        requireUnedited(read);
        const command = parse(comment.body);
        const author = requireHumanAuthor(comment.user, check.appBotLogin);
        await check.beforeRole?.(command, comment);
        const role = requireAllowedRole(await liveRole(github, check.repository, author), check.allowedRoles, author.id);
        return { comment, command, author, role };
    }
    catch (error) {
        if (error instanceof WritError)
            throw refusal(check, error);
        throw error;
    }
}
/** The author's live `role_name`, or undefined when the account no longer resolves (404). */
async function liveRole(github, repository, author) {
    let data;
    try {
        ({ data } = await github.rest.repos.getCollaboratorPermissionLevel({
            ...repository,
            username: author.login,
        }));
    }
    catch (error) {
        if (httpStatus(error) === 404)
            return undefined;
        throw verify_transient(`Reading the permission of approver ${author.id}`, error);
    }
    if (data.user && data.user.id !== author.id) {
        throw new WritError('unauthorized-approval', `the login of comment author ${author.id} now belongs to another account`);
    }
    return data.role_name;
}

;// CONCATENATED MODULE: ./packages/core/src/approval/gate.ts
/**
 * Re-verifies a consumed approval before any write it authorizes: the ledger must prove its authority
 * (provenance, read at the same head as the run), its proven history must hold this run's consume
 * transition for exactly this digest, and that approval's source comment, author and current
 * permission must all still check out on GitHub. A ledger entry alone, a flag or a label never
 * authorizes a write. A transient failure (5xx, rate limit, transport) is reported as such
 * (`github-request-failed`), never as a stale approval.
 */



function refuse(why) {
    throw new WritError('stale-or-mismatched-approval', why);
}
const USABLE_STATES = (/* unused pure expression or super */ null && (['approved', 'running', 'completed']));
async function gate_verifyApprovalGate(deps, settings) {
    return (await verifyApprovalGateView(deps, settings)).run;
}
/**
 * The same gate, answering with the verified ledger view it read (lease and run at one proven head)
 * and whatever repository fields the caller folded into that read with `alongside`.
 */
async function verifyApprovalGateView(deps, settings, options = {}) {
    const view = await readVerifiedRun(deps.ledger, settings.runId, undefined, options);
    const { run, provenance } = view;
    if (run === null)
        refuse(`the ledger holds no run ${settings.runId}`);
    const approval = run.approval;
    if (approval === null)
        refuse(`run ${settings.runId} has no consumed approval`);
    if (!provenance.consumedRunIds.has(run.run_id) || !provenance.consumedCommentIds.has(approval.comment_id)) {
        refuse(`run ${settings.runId} has no consume transition in the proven ledger history`);
    }
    if (!USABLE_STATES.includes(run.state))
        refuse(`run ${settings.runId} is ${run.state}`);
    if (run.plan_digest !== settings.planDigest || approval.digest !== settings.planDigest) {
        refuse(`run ${settings.runId} was approved for another plan digest than the plan recomputed now (${settings.planDigest})`);
    }
    const { author, command, role } = await verifyApprovalComment(deps.github, {
        repository: settings.repository,
        commentId: approval.comment_id,
        commandPrefix: settings.commandPrefix,
        allowedRoles: settings.allowedRoles,
        refuseAs: 'stale-or-mismatched-approval',
    });
    if (author.id !== approval.actor_id) {
        refuse(`the approval comment ${approval.comment_id} is not by approver ${approval.actor_id}`);
    }
    if (command.runId !== run.run_id || `sha256:${command.digestHex}` !== approval.digest) {
        refuse(`the approval comment ${approval.comment_id} approves another run or digest`);
    }
    deps.logger.info(`approval of run ${run.run_id} re-verified: comment ${approval.comment_id}, approver ${author.login} (${role})`);
    return { run, view };
}

// EXTERNAL MODULE: ./packages/core/src/canonical-json.ts
var canonical_json = __webpack_require__(2962);
// EXTERNAL MODULE: ./packages/core/src/probe/evidence.ts + 1 modules
var probe_evidence = __webpack_require__(3492);
// EXTERNAL MODULE: ./packages/core/src/setup/policy.ts + 2 modules
var setup_policy = __webpack_require__(2141);
;// CONCATENATED MODULE: ./packages/core/src/persist/gate.ts
/**
 * The persistence gate (SPEC §6): writes of a step kind open only when all hold — a consumed approval
 * for exactly this plan's digest, scope and bounds, held by this run at this epoch, whose source
 * comment, author and live permission re-verify (approval/gate.ts); the `persistence-enabled` flag;
 * and the policy for the kind: `require-proof` (the default) needs committed probe evidence, positive
 * and at most 30 days old on the server's clock, for every case covering the kind
 * (probe/evidence.ts `evidenceVerdict`); `best-effort` opens it with the residual window named.
 * The policy and the evidence are read from the default branch through the contents API, never from
 * the workspace (a pull request's checkout could carry anything). A flag, a label, an approval or a
 * mock alone never opens it.
 */





/** What a `best-effort` kind risks, in one sentence each (printed in the summary and status comment). */
const RESIDUAL = {
    'milestone.upsert': 'a milestone edited between the pre-read and the write is overwritten (GitHub has no conditional milestone write); two concurrent creators both create only when neither sees the other within the same second',
    'milestone.edit': 'a milestone edited by someone else between the pre-read and the write is overwritten (last write wins)',
    'issue.set-milestone': 'an issue or its source or target milestone changed between the pre-read and the write is not detected (last write wins)',
    'issue.labels': 'a label change between the pre-read and the write is overwritten (last write wins)',
    'issue.create': 'two truly concurrent creates of the same step can both land; the re-list retires the later ones, oldest wins',
    'comment.upsert': 'a comment edited between the pre-read and the write is overwritten; two concurrent first posts can both land',
};
function isPersistKind(kind) {
    return POLICY_KINDS.includes(kind);
}
/** The server clock of a response (its `Date` header), NaN when absent. */
function serverDate(headers) {
    const date = headers?.date;
    return typeof date === 'string' ? Date.parse(date) : Number.NaN;
}
/** A file on the default branch through the contents API: its text, or null when it does not exist. */
async function readDefaultBranchFile(github, repository, ref, path) {
    try {
        const response = await github.rest.repos.getContent({ ...repository, path, ref });
        const data = response.data;
        const date = serverDate(response.headers);
        if (Array.isArray(response.data) || data.type !== 'file' || typeof data.content !== 'string') {
            throw new errors/* WritError */.b9('invalid-input', `${path} on the default branch is not a file`);
        }
        return {
            text: Buffer.from(data.content, 'base64').toString('utf8'),
            date: Number.isFinite(date) ? date : null,
        };
    }
    catch (error) {
        if ((0,errors/* httpStatus */.nG)(error) === 404)
            return { text: null, date: null };
        if (error instanceof errors/* WritError */.b9)
            throw error;
        throw new errors/* WritError */.b9('github-request-failed', `reading ${path} from the default branch failed${(0,errors/* httpStatus */.nG)(error) === undefined ? '' : ` with HTTP ${(0,errors/* httpStatus */.nG)(error)}`}; the gate stays closed`, { cause: error });
    }
}
function readPolicy(text, path) {
    if (text === null)
        return { policy: defaultPolicy(), why: `${path} is absent: require-proof for every kind` };
    const { policy, problems } = parsePolicy(text);
    if (policy === undefined)
        return { policy: null, why: `${path} is invalid (${problems.slice(0, 3).join('; ')})` };
    return { policy, why: '' };
}
function readEvidence(text) {
    if (text === null)
        return { evidence: undefined, why: null };
    let value;
    try {
        value = JSON.parse(text);
    }
    catch {
        return { evidence: undefined, why: 'the probe evidence is not JSON' };
    }
    const problems = (0,probe_evidence/* evidenceProblems */.uY)(value);
    if (problems.length > 0)
        return { evidence: undefined, why: `the probe evidence is invalid (${problems.join('; ')})` };
    return { evidence: value, why: null };
}
async function checkPersistenceGate(deps, settings, kinds) {
    const { binding } = settings;
    const run = await verifyApprovalGate(deps, {
        repository: settings.repository,
        runId: settings.runId,
        planDigest: binding.digest,
        commandPrefix: settings.commandPrefix,
        allowedRoles: settings.allowedRoles,
    });
    if (canonicalize(binding.scope) !== canonicalize(run.scope) ||
        canonicalize(binding.bounds) !== canonicalize(run.bounds)) {
        throw new WritError('stale-or-mismatched-approval', `the scope or bounds of the plan recomputed now differ from run ${run.run_id}'s approved ones; a new dry-run plan is required`);
    }
    if (run.owner === null || run.owner.epoch !== settings.epoch) {
        throw new WritError('fenced', `epoch ${settings.epoch} does not hold run ${run.run_id} (it is held at epoch ${run.owner?.epoch ?? 'none'}); no write`, { details: { epoch: run.owner?.epoch ?? 0 } });
    }
    const wanted = [...new Set(kinds.filter(isPersistKind))];
    const { data: repo, headers } = await deps.github.rest.repos.get({ ...settings.repository });
    const repoDate = serverDate(headers);
    const ref = repo.default_branch;
    const policyFile = await readDefaultBranchFile(deps.github, settings.repository, ref, settings.policyPath);
    const evidenceFile = await readDefaultBranchFile(deps.github, settings.repository, ref, settings.evidencePath);
    const serverTime = evidenceFile.date ?? policyFile.date ?? (Number.isFinite(repoDate) ? repoDate : Date.now());
    const { policy, why: policyWhy } = readPolicy(policyFile.text, settings.policyPath);
    const { evidence, why: evidenceWhy } = readEvidence(evidenceFile.text);
    const verdicts = new Map(evidenceVerdict(evidence, wanted, new Date(serverTime), settings.apiUrl).map((v) => [v.kind, v]));
    const gates = wanted.map((kind) => {
        const chosen = policy?.kinds[kind] ?? 'require-proof';
        if (!settings.persistenceEnabled)
            return { kind, open: false, policy: chosen, why: 'persistence-enabled is false' };
        if (policy === null)
            return { kind, open: false, policy: chosen, why: policyWhy };
        if (chosen === 'best-effort')
            return { kind, open: true, policy: chosen, why: 'best-effort (owner policy)' };
        const verdict = verdicts.get(kind);
        if (verdict?.open === true)
            return { kind, open: true, policy: chosen, why: `probe cases ${verdict.cases.join(', ')} positive` };
        const why = evidenceWhy ?? (verdict === undefined ? 'no verdict' : verdict.why);
        return { kind, open: false, policy: chosen, why };
    });
    const closed = gates.filter((gate) => !gate.open);
    const code = closed.length === 0
        ? null
        : !settings.persistenceEnabled || policy === null
            ? 'live-writes-disabled'
            : 'github-conditional-mutation-not-proven';
    deps.logger.info(`persistence gate: ${closed.length === 0 ? 'open' : `closed (${code ?? ''})`} for ${gates.map((g) => `${g.kind} ${g.open ? 'open' : 'closed'}`).join(', ') || 'no kind'}`);
    return {
        run,
        open: closed.length === 0,
        kinds: gates,
        code,
        residual: gates
            .filter((g) => g.open && g.policy === 'best-effort')
            .map((g) => `\`${g.kind}\`: ${RESIDUAL[g.kind]}`),
        serverTime,
        keyScope: policy?.idempotency?.key_scope ?? 'repository',
    };
}

;// CONCATENATED MODULE: ./packages/core/src/preview/readings.ts
/**
 * What a writing preview reads of the repository before it renders (issue 32): the default branch and
 * its head commit (the base SHA the preview states and the ledger records), and, at exactly that commit,
 * the owner's policy and the probe evidence, read the way the persist gate reads them (through the
 * contents API, never from the workspace, which a pull request's checkout could fill with anything).
 * Reads only. A dry run reads none of it (assess.ts `dryRunReadings`).
 */




/** The plan's policy kinds the persist gate would keep closed under `policy` and `evidence` now. */
function closedKinds(plan, policy, evidenceText, now, apiUrl) {
    const used = [...new Set(plan.steps.map((step) => step.kind))].filter((kind) => setup_policy/* POLICY_KINDS */.vE.includes(kind));
    const proofKinds = used.filter((kind) => policy.kinds[kind] === 'require-proof');
    const { evidence, why } = readEvidence(evidenceText);
    return (0,probe_evidence/* evidenceVerdict */.H1)(evidence, proofKinds, now, apiUrl).flatMap((verdict) => verdict.open ? [] : [{ kind: verdict.kind, why: why ?? verdict.why }]);
}
/** The default branch's head commit. */
async function readBase(github, repository) {
    try {
        const { data: repo } = await github.rest.repos.get({ ...repository });
        const branch = repo.default_branch;
        const { data: ref } = await github.rest.git.getRef({ ...repository, ref: `heads/${branch}` });
        return { branch, sha: ref.object.sha };
    }
    catch (error) {
        const status = (0,errors/* httpStatus */.nG)(error);
        throw new errors/* WritError */.b9('github-request-failed', `reading the default branch's head of ${repository.owner}/${repository.repo} failed${status === undefined ? '' : ` with HTTP ${status}`}; nothing was proposed`, { cause: error });
    }
}
/** The base SHA, then the policy and the evidence at that very commit. */
async function readPreviewReadings(deps, plan, settings) {
    const { github } = deps;
    const base = await readBase(github, settings.repository);
    const policyFile = await readDefaultBranchFile(github, settings.repository, base.sha, settings.policyPath);
    const path = settings.policyPath;
    const evidenceRead = async () => {
        const file = await readDefaultBranchFile(github, settings.repository, base.sha, settings.evidencePath);
        return { text: file.text, now: new Date(file.date ?? policyFile.date ?? deps.clock.now()) };
    };
    if (policyFile.text === null) {
        const { text, now } = await evidenceRead();
        return {
            base,
            policy: {
                path,
                state: 'absent',
                closed: closedKinds(plan, (0,setup_policy/* defaultPolicy */.G4)(), text, now, settings.apiUrl),
            },
            gate: settings.gate,
        };
    }
    const { policy } = (0,setup_policy/* parsePolicy */.ON)(policyFile.text);
    if (policy === undefined)
        return { base, policy: { path, state: 'invalid' }, gate: settings.gate };
    const { text, now } = await evidenceRead();
    return {
        base,
        policy: {
            path,
            state: 'valid',
            policy,
            closed: closedKinds(plan, policy, text, now, settings.apiUrl),
        },
        gate: settings.gate,
    };
}


/***/ })

};

//# sourceMappingURL=536.index.js.map