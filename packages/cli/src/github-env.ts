/**
 * The GitHub client a `writ` command talks to: `GITHUB_TOKEN` against `GITHUB_API_URL` (github.com by
 * default), with the stages' timings (`clientTimingFor`: GitHub's write spacing, none on loopback).
 */
import { WritError } from '@writ/core/errors.js';
import { validateApiUrl } from '@writ/core/github/api-url.js';
import type { GitHubClient } from '@writ/core/github/client.js';
import { createGitHubClient } from '@writ/core/github/client.js';
import { clientTimingFor } from '@writ/core/stages/connect.js';
import type { CliEnv } from './cli.js';

export function githubFromEnv(env: CliEnv): GitHubClient {
  const token = env.GITHUB_TOKEN ?? '';
  if (token === '') {
    throw new WritError(
      'invalid-input',
      "GITHUB_TOKEN is not set: export a token that can read the repository (a write needs the Writ app's installation token).",
    );
  }
  const baseUrl = validateApiUrl(
    env.GITHUB_API_URL !== undefined && env.GITHUB_API_URL !== ''
      ? env.GITHUB_API_URL
      : 'https://api.github.com',
    'GITHUB_API_URL',
  );
  // The stages' rule: a second between writes on GitHub, none against an emulator on loopback.
  return createGitHubClient(token, { baseUrl, ...clientTimingFor(baseUrl) });
}
