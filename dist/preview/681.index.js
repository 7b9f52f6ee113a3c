export const id = 681;
export const ids = [681];
export const modules = {

/***/ 3681:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  readPreviewReadings: () => (/* binding */ readPreviewReadings)
});

// EXTERNAL MODULE: ./packages/core/src/errors.ts
var errors = __webpack_require__(7638);
// EXTERNAL MODULE: ./packages/core/src/probe/evidence.ts + 1 modules
var probe_evidence = __webpack_require__(3492);
;// CONCATENATED MODULE: ./packages/core/src/setup/default-branch-files.ts
/**
 * The owner's files as the default branch holds them (`.writ/policy.json`, the probe evidence), read
 * through the contents API the same way by persist's gate and by the preview that states the gate.
 */


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
/** The probe evidence file's text parsed and checked against its schema; `why` says what is wrong. */
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

// EXTERNAL MODULE: ./packages/core/src/setup/policy.ts + 2 modules
var setup_policy = __webpack_require__(2141);
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

//# sourceMappingURL=681.index.js.map