export const id = 914;
export const ids = [914];
export const modules = {

/***/ 8914:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  proposeAndPublishStatus: () => (/* binding */ proposeAndPublishStatus),
  requirePlanRepository: () => (/* binding */ requirePlanRepository)
});

// EXTERNAL MODULE: ./packages/core/src/errors.ts
var errors = __webpack_require__(7638);
// EXTERNAL MODULE: ./packages/core/src/ledger/ledger.ts + 3 modules
var ledger_ledger = __webpack_require__(7388);
// EXTERNAL MODULE: ./packages/core/src/canonical-json.ts
var canonical_json = __webpack_require__(2962);
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

// EXTERNAL MODULE: ./packages/core/src/status-comment/projection.ts
var projection = __webpack_require__(1319);
// EXTERNAL MODULE: ./packages/core/src/status-comment/sync.ts + 1 modules
var sync = __webpack_require__(6589);
;// CONCATENATED MODULE: ./packages/core/src/preview/propose.ts
/**
 * The non-dry-run half of preview: propose the run in the ledger (idempotent for the same plan) and
 * keep its one status comment. Loaded by the preview stage only when it writes, so a dry run never
 * loads the GitHub client.
 */





/**
 * A plan is proposed only in the repository it names: checked before any request is sent (the preview
 * stage calls it before its first read) and again where the proposal is made.
 */
function requirePlanRepository(plan, repository) {
    if (plan.scope.repository.toLowerCase() !== repository.full.toLowerCase()) {
        throw new errors/* WritError */.b9('invalid-input', `the plan's scope.repository is ${plan.scope.repository}, but this workflow runs in ${repository.full}`);
    }
}
async function proposeAndPublishStatus(deps, origin, settings) {
    const { github, ledger, ownLogin, logger } = deps;
    const binding = bindPlan(settings.plan);
    requirePlanRepository(settings.plan, origin.repository);
    let proposed = true;
    let ledgerHead;
    let after;
    const project = (run) => (0,projection/* renderStatusProjection */.c)(run, settings.markdown);
    try {
        const outcome = await (0,ledger_ledger/* proposeRun */.QE)(ledger, {
            runId: settings.runId,
            planDigest: binding.digest,
            evidenceDigest: binding.evidenceDigest,
            scope: binding.scope,
            bounds: binding.bounds,
            steps: binding.steps,
            proposer: origin.actorId === undefined ? null : { actor_id: origin.actorId },
            ...(settings.preview === undefined ? {} : { preview: settings.preview }),
            // The status comment's first reservation rides on the propose commit (one commit, not two).
            ...(settings.statusIssue === undefined
                ? {}
                : { statusFold: (0,sync/* statusFold */.Yd)({ runId: settings.runId, issueNumber: settings.statusIssue, project }) }),
        });
        ledgerHead = outcome.commitOid ?? '';
        if (outcome.result.run !== null && outcome.held !== undefined) {
            after = { run: outcome.result.run, head: outcome.held, folded: settings.statusIssue !== undefined };
        }
    }
    catch (error) {
        if ((0,errors/* errorCode */.CA)(error) !== 'run-exists')
            throw error;
        // A re-run of the same preview is fine; another plan under the same run ID never is.
        const existing = await (0,ledger_ledger/* readRun */.cI)(ledger, settings.runId);
        if (existing.run?.plan_digest !== binding.digest)
            throw error;
        proposed = false;
        ledgerHead = existing.headOid;
    }
    const synced = settings.statusIssue === undefined
        ? null
        : await (0,sync/* syncStatusComment */.FE)({ github, ledger, logger }, {
            repository: origin.repository,
            runId: settings.runId,
            issueNumber: settings.statusIssue,
            project,
            ownLogin,
            ...(after === undefined ? {} : { after }),
        });
    return { proposed, ledgerHead, statusCommentId: synced?.commentId, statusAction: synced?.action };
}


/***/ })

};

//# sourceMappingURL=914.index.js.map