/**
 * The GitHub client a `writ` command talks to: `GITHUB_TOKEN` against `GITHUB_API_URL` (github.com by
 * default), with the stages' timings (`clientTimingFor`: GitHub's write spacing, none on loopback).
 */
import { WritError } from '@writ/core/errors.js';
import { validateApiUrl } from '@writ/core/github/api-url.js';
import type { GitHubClient } from '@writ/core/github/client.js';
import { createGitHubClient } from '@writ/core/github/client.js';
import { clientTimingFor } from '@writ/core/stages/connect.js';
import type { CliEnv } from './cli-io.js';
import type { RepositoryTarget } from './repository.js';

/**
 * The client for `target`'s repository: `GITHUB_TOKEN` against `GITHUB_API_URL`, else the API URL of
 * the Git remote the repository came from, else api.github.com. A missing token is refused naming the
 * variable, the repository and the API URL the command would use.
 */
export function githubFromEnv(env: CliEnv, target?: RepositoryTarget): GitHubClient {
  const token = env.GITHUB_TOKEN ?? '';
  const named = env.GITHUB_API_URL !== undefined && env.GITHUB_API_URL !== '' ? env.GITHUB_API_URL : null;
  const apiUrl = named ?? target?.apiUrl ?? 'https://api.github.com';
  if (token === '') {
    const where = target === undefined ? '' : ` for ${target.repository} (from ${target.source})`;
    const api =
      named !== null
        ? `GITHUB_API_URL is ${apiUrl}`
        : `the API is ${apiUrl}${target?.apiUrl != null ? ", from the remote's host" : ''}; set GITHUB_API_URL for another host (GitHub Enterprise Server: https://<host>/api/v3)`;
    throw new WritError(
      'invalid-input',
      `GITHUB_TOKEN is not set: export GITHUB_TOKEN=<token>${where}, a token that can read the repository (a write needs the Writ app's installation token); ${api}.`,
    );
  }
  const baseUrl = validateApiUrl(apiUrl, named !== null ? 'GITHUB_API_URL' : 'the API URL of the Git remote');
  // The stages' rule: a second between writes on GitHub, none against an emulator on loopback.
  return createGitHubClient(token, { baseUrl, ...clientTimingFor(baseUrl) });
}
