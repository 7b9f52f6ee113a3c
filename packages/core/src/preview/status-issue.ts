/**
 * The issue `status-issue` names, checked before the run is proposed (the proposal reserves the status
 * comment on it): it must be an issue or pull request (action.yml allows both: GitHub numbers them
 * together and comments on either alike) of the repository, not missing, deleted or transferred. A
 * workflow that names the wrong number learns it here, as `invalid-input` naming the input, with
 * nothing written, not from a failed comment after the ledger commit.
 */
import { WritError, httpStatus } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import type { RepositoryName } from '../ledger/paths.js';

export async function checkStatusIssue(
  github: GitHubClient,
  repository: RepositoryName & { full: string },
  issueNumber: number,
): Promise<void> {
  const { owner, repo, full } = repository;
  let answer: unknown;
  try {
    ({ data: answer } = await github.rest.issues.get({ owner, repo, issue_number: issueNumber }));
  } catch (error: unknown) {
    const status = httpStatus(error);
    if (status !== 404 && status !== 410) throw error;
    throw new WritError(
      'invalid-input',
      `input 'status-issue' names #${issueNumber}, which ${full} does not hold (HTTP ${status}: no such issue, a deleted one, one the token cannot see, or GITHUB_API_URL is not the GitHub API); pass the number of an issue or pull request of ${full}`,
      { cause: error },
    );
  }
  const issue = (typeof answer === 'object' && answer !== null ? answer : {}) as {
    number?: unknown;
    repository_url?: unknown;
  };
  if (typeof issue.number !== 'number') {
    throw new WritError(
      'github-request-failed',
      `the answer for issue #${issueNumber} of ${full} is not an issue: is GITHUB_API_URL the GitHub API (https://api.github.com, or https://<host>/api/v3 on GitHub Enterprise Server)?`,
    );
  }
  // GitHub answers for a transferred issue with the issue in its new repository (a followed 301).
  const home = typeof issue.repository_url === 'string' ? issue.repository_url.toLowerCase() : '';
  if (!home.endsWith(`/repos/${owner}/${repo}`.toLowerCase())) {
    throw new WritError(
      'invalid-input',
      `input 'status-issue' names #${issueNumber}, which is no longer an issue of ${full} (it was transferred); pass the number of an issue or pull request of ${full}`,
    );
  }
}
