import { afterEach, describe, expect, it } from '@jest/globals';
import { WritError } from '../../src/errors.js';
import { validateApiUrl } from '../../src/github/api-url.js';
import { createGitHubClient } from '../../src/github/client.js';
import { clientTimingFor } from '../../src/stages/connect.js';
import { readRunnerContext } from '../../src/stages/context.js';
import { clearRegisteredSecrets } from '../../src/redact.js';

const SECRET = 'hunter2-s3cr3t';

function refusal(fn: () => unknown): WritError {
  try {
    fn();
  } catch (error: unknown) {
    if (error instanceof WritError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('the GitHub API URL', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    clearRegisteredSecrets();
  });

  it.each([
    'https://api.github.com',
    'https://ghe.example.com/api/v3',
    'http://127.0.0.1:8080',
    'http://[::1]:8080/',
  ])('accepts %s unchanged', (url) => {
    expect(validateApiUrl(url, 'GITHUB_API_URL')).toBe(url);
  });

  it.each([
    [`https://x-access-token:${SECRET}@api.github.com`, 'carries credentials'],
    [`https://${SECRET}@api.github.com`, 'carries credentials'],
    [`https://:${SECRET}@api.github.com`, 'carries credentials'],
    [`https://user:${SECRET}@ghe.example.com/api/v3`, 'carries credentials'],
    [`HTTPS://user:${SECRET}@API.GITHUB.COM`, 'carries credentials'],
    [`https://user%40x:${SECRET}@api.github.com`, 'carries credentials'],
    [`https://api.github.com/?access_token=${SECRET}`, 'must not have a query or fragment'],
    [`https://api.github.com#${SECRET}`, 'must not have a query or fragment'],
    [`ftp://api.github.com/${SECRET}`, 'must be an http(s) URL'],
    [`https://user:${SECRET} @api.github.com`, 'carries credentials'],
    [`https://user:${SECRET}@[::1`, 'is not a URL'],
    [SECRET, 'is not a URL'],
  ])('refuses %s as invalid-input without printing it', (url, reason) => {
    const error = refusal(() => validateApiUrl(url, 'GITHUB_API_URL'));
    expect(error.code).toBe('invalid-input');
    expect(error.message).toContain(`GITHUB_API_URL ${reason}`);
    expect(error.message).not.toContain(SECRET);
  });

  it('is checked where a stage reads it, where its timing is chosen and where any client is built', () => {
    const url = `https://user:${SECRET}@api.github.com`;
    process.env.GITHUB_API_URL = url;
    process.env.GITHUB_REPOSITORY = 'acme/widgets';
    process.env.GITHUB_RUN_ID = '1';
    for (const fn of [
      () => readRunnerContext(),
      () => clientTimingFor(url),
      () => createGitHubClient('ghs_token', { baseUrl: url }),
      () => createGitHubClient('ghs_token'),
    ]) {
      const error = refusal(fn);
      expect(error.code).toBe('invalid-input');
      expect(error.message).not.toContain(SECRET);
    }
  });
});
