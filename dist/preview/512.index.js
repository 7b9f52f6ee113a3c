export const id = 512;
export const ids = [512];
export const modules = {

/***/ 6512:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   checkStatusIssue: () => (/* binding */ checkStatusIssue)
/* harmony export */ });
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7638);
/**
 * The issue `status-issue` names, checked before the run is proposed (the proposal reserves the status
 * comment on it): it must be an issue or pull request (action.yml allows both: GitHub numbers them
 * together and comments on either alike) of the repository, not missing, deleted or transferred. A
 * workflow that names the wrong number learns it here, as `invalid-input` naming the input, with
 * nothing written, not from a failed comment after the ledger commit.
 */

async function checkStatusIssue(github, repository, issueNumber) {
    const { owner, repo, full } = repository;
    let answer;
    try {
        ({ data: answer } = await github.rest.issues.get({ owner, repo, issue_number: issueNumber }));
    }
    catch (error) {
        const status = (0,_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .httpStatus */ .nG)(error);
        if (status !== 404 && status !== 410)
            throw error;
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .WritError */ .b9('invalid-input', `input 'status-issue' names #${issueNumber}, which ${full} does not hold (HTTP ${status}: no such issue, a deleted one, one the token cannot see, or GITHUB_API_URL is not the GitHub API); pass the number of an issue or pull request of ${full}`, { cause: error });
    }
    const issue = (typeof answer === 'object' && answer !== null ? answer : {});
    if (typeof issue.number !== 'number') {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .WritError */ .b9('github-request-failed', `the answer for issue #${issueNumber} of ${full} is not an issue: is GITHUB_API_URL the GitHub API (https://api.github.com, or https://<host>/api/v3 on GitHub Enterprise Server)?`);
    }
    // GitHub answers for a transferred issue with the issue in its new repository (a followed 301).
    const home = typeof issue.repository_url === 'string' ? issue.repository_url.toLowerCase() : '';
    if (!home.endsWith(`/repos/${owner}/${repo}`.toLowerCase())) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .WritError */ .b9('invalid-input', `input 'status-issue' names #${issueNumber}, which is no longer an issue of ${full} (it was transferred); pass the number of an issue or pull request of ${full}`);
    }
}


/***/ })

};

//# sourceMappingURL=512.index.js.map