import { describe, expect, it } from '@jest/globals';
import { WritError, httpStatus } from '../../src/errors.js';
import { explainRequestFailure, requestFailureOf, tokenKind } from '../../src/github/request-failure.js';

/** The shapes Octokit throws: an answered RequestError, and the status-500 one for no answer at all. */
function answered(status: number, url = 'https://api.github.com/repos/acme/widgets'): Error {
  return Object.assign(new Error(`HTTP ${status}`), {
    status,
    request: { url: `${url}?page=2` },
    response: {},
  });
}
function unanswered(code: string | null): Error {
  const cause = Object.assign(new TypeError('fetch failed'), {
    cause: code === null ? new Error('bad port') : Object.assign(new Error('connect'), { code }),
  });
  return Object.assign(new Error('fetch failed'), {
    status: 500,
    request: { url: 'https://ghe.example.com/graphql' },
    response: undefined,
    cause,
  });
}

const scene = { apiUrl: 'https://api.github.com', repository: 'acme/widgets' };

describe('a failed request, explained', () => {
  it('never reports Octokit’s status 500 for a request that got no answer', () => {
    expect(httpStatus(unanswered('ECONNREFUSED'))).toBeUndefined();
    expect(httpStatus(answered(500))).toBe(500);
    expect(httpStatus({ status: 404 })).toBe(404);
    expect(requestFailureOf(unanswered('ENOTFOUND'))).toEqual({
      status: null,
      url: 'https://ghe.example.com/graphql',
      transport: 'ENOTFOUND',
    });
    expect(requestFailureOf(unanswered(null))?.transport).toBe('bad port');
  });

  it('finds the request failure under a coded error and drops the query from its URL', () => {
    const wrapped = new WritError('github-request-failed', 'Reading failed', { cause: answered(404) });
    expect(requestFailureOf(wrapped)).toEqual({
      status: 404,
      url: 'https://api.github.com/repos/acme/widgets',
      transport: null,
    });
    expect(requestFailureOf(new Error('plain'))).toBeNull();
    expect(explainRequestFailure(new Error('plain'), scene)).toBeNull();
  });

  it.each([
    [unanswered('ECONNREFUSED'), /^Could not reach https:\/\/ghe\.example\.com\/graphql \(ECONNREFUSED\)/],
    [answered(401), /rejected the token \(HTTP 401\)/],
    [
      answered(404),
      /answered 404 for .* for acme\/widgets: the repository does not exist, the token cannot see it/,
    ],
    [answered(502), /HTTP 502 .* after Writ's bounded retries/],
    [answered(409), /^GitHub answered HTTP 409 for/],
  ])('%#: says what was tried, on what, and the fix', (error, text) => {
    expect(explainRequestFailure(error, scene)).toMatch(text);
  });

  it.each(['github-request-deadline', 'github-response-too-large', 'github-redirect-refused'])(
    'reads %s, a limit of the transport, as a request with no answer that may have happened',
    (code) => {
      const limit = new WritError(code as 'github-request-deadline', 'held');
      const error = Object.assign(new Error('held'), {
        status: 500,
        request: { url: 'https://api.github.com/repos/acme/widgets/issues?per_page=100' },
        response: undefined,
        cause: limit,
      });
      expect(httpStatus(error)).toBeUndefined();
      expect(requestFailureOf(error)).toEqual({
        status: null,
        url: 'https://api.github.com/repos/acme/widgets/issues',
        transport: code,
      });
      expect(explainRequestFailure(error, scene)).toMatch(
        new RegExp(
          `^https://api\\.github\\.com/repos/acme/widgets/issues gave no answer Writ accepts \\(${code}\\): .* may or may not have happened`,
        ),
      );
    },
  );

  it('names the token kind behind a 403', () => {
    expect(explainRequestFailure(answered(403), { ...scene, tokenKind: 'personal' })).toContain(
      "GITHUB_TOKEN is a personal access token (ghp_… or github_pat_…); Writ's writes need the Writ app's installation token",
    );
    expect(explainRequestFailure(answered(403), { ...scene, tokenKind: 'installation' })).toContain(
      "If GITHUB_TOKEN is the workflow's own token",
    );
  });

  it('tells token kinds apart by their documented prefixes', () => {
    expect(
      ['ghs_a', 'ghp_a', 'github_pat_a', 'gho_a', 'ghu_a', 'token'].map((token) => tokenKind(token)),
    ).toEqual(['installation', 'personal', 'personal', 'oauth', 'user-to-server', 'unknown']);
  });
});
