/** Page readers over the primary list endpoints, for the idempotency pre-check. */
import type { GitHubClient } from '../github/client.js';
import type { ListedItem, PageReader } from './precheck.js';

const PER_PAGE = 100;

/**
 * Skew allowed between the server clock that stamped a resource and the one that stamped the moment
 * the ledger recorded (a claim, a status reservation): generous, since it costs nothing on a long list.
 */
export const SINCE_SKEW_MS = 5 * 60_000;

/**
 * The `since` for listing what was created after `moment` (ISO 8601, the server's clock), less the
 * skew; undefined when there is no such moment (the list is read from its first page, within its cap).
 */
export function sinceBefore(moment: string | null): string | undefined {
  return moment === null ? undefined : new Date(Date.parse(moment) - SINCE_SKEW_MS).toISOString();
}

function hasNextLink(link: string | undefined): boolean {
  return typeof link === 'string' && /rel="next"/.test(link);
}

/**
 * Every issue and pull request of the repository (state=all, unfiltered); with `since` (ISO 8601) only
 * those updated since then, which includes everything created since.
 */
export function issuePages(github: GitHubClient, owner: string, repo: string, since?: string): PageReader {
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
    return { items: response.data as unknown as ListedItem[], hasNext: hasNextLink(response.headers.link) };
  };
}

/**
 * Every comment on one issue or pull request (ascending ID, as GitHub lists them); with `since`
 * (ISO 8601) only those updated since then, which includes everything created since.
 */
export function commentPages(
  github: GitHubClient,
  owner: string,
  repo: string,
  issueNumber: number,
  since?: string,
): PageReader {
  return async (page) => {
    const response = await github.rest.issues.listComments({
      owner,
      repo,
      issue_number: issueNumber,
      per_page: PER_PAGE,
      page,
      ...(since === undefined ? {} : { since }),
    });
    return { items: response.data as unknown as ListedItem[], hasNext: hasNextLink(response.headers.link) };
  };
}
