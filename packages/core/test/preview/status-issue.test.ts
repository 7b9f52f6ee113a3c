/**
 * preview's status-issue check on the answers a workflow's wrong number or a hostile API gives: a
 * missing or deleted issue (404, 410) and a transferred one are `invalid-input` naming the input; an
 * answer that is not an issue is `github-request-failed`; any other failure is left to the runner's
 * request-failure mapping (rethrown as is). The emulator's own answers are in stages/refusals.test.ts.
 */
import { describe, expect, it } from '@jest/globals';
import { RequestError } from '@octokit/request-error';
import { WritError } from '../../src/errors.js';
import type { GitHubClient } from '../../src/github/client.js';
import { checkStatusIssue } from '../../src/preview/status-issue.js';

const REPOSITORY = { owner: 'acme', repo: 'widgets', full: 'acme/widgets' };
const ISSUE_URL = 'https://api.github.com/repos/acme/widgets/issues/7';

/** A client whose one issue read answers `answer` (data) or fails with `status`. */
function answering(answer: { data: unknown } | { status: number }): GitHubClient {
  const get = () =>
    'status' in answer
      ? Promise.reject(
          new RequestError(`HTTP ${answer.status}`, answer.status, {
            request: { method: 'GET', url: ISSUE_URL, headers: {} },
            response: { status: answer.status, url: ISSUE_URL, headers: {}, data: {} },
          }),
        )
      : Promise.resolve({ data: answer.data });
  return { rest: { issues: { get } } } as unknown as GitHubClient;
}

async function outcome(client: GitHubClient): Promise<unknown> {
  try {
    await checkStatusIssue(client, REPOSITORY, 7);
    return 'ok';
  } catch (error: unknown) {
    return error instanceof WritError ? { code: error.code, message: error.message } : error;
  }
}

describe('checkStatusIssue', () => {
  it.each([404, 410])('refuses a %i as invalid-input naming status-issue', async (status) => {
    expect(await outcome(answering({ status }))).toEqual({
      code: 'invalid-input',
      message: expect.stringMatching(
        new RegExp(`^input 'status-issue' names #7, which acme/widgets does not hold \\(HTTP ${status}`),
      ),
    });
  });

  it('rethrows any other failure as is (the runner codes it github-request-failed)', async () => {
    const error = await outcome(answering({ status: 502 }));
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).status).toBe(502);
  });

  it.each([
    ['an HTML page', '<html>not the API</html>'],
    ['null', null],
    ['an object without a number', { title: 'x' }],
  ])('refuses %s as github-request-failed (not an issue)', async (_what, data) => {
    expect(await outcome(answering({ data }))).toEqual({
      code: 'github-request-failed',
      message: expect.stringContaining('is not an issue'),
    });
  });

  it('refuses an issue transferred to another repository as invalid-input', async () => {
    const data = { number: 7, repository_url: 'https://api.github.com/repos/acme/elsewhere' };
    expect(await outcome(answering({ data }))).toEqual({
      code: 'invalid-input',
      message: expect.stringContaining('was transferred'),
    });
  });

  it('accepts an issue of the repository, whatever the case of its URL', async () => {
    const data = { number: 7, repository_url: 'https://api.github.com/repos/Acme/Widgets' };
    expect(await outcome(answering({ data }))).toBe('ok');
  });
});
