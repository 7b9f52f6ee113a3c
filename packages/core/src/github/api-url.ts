/**
 * The GitHub API base URL Writ is given (GITHUB_API_URL, the CLI's environment, a client's `baseUrl`).
 * A URL is never a place for credentials: `https://user:token@host` would send them with every request
 * and print them in any error that names the URL, so it is refused, and no message echoes the URL.
 */
import { WritError } from '../errors.js';

/** Returns the URL unchanged when it is a plain http(s) base URL; throws `invalid-input` otherwise. */
export function validateApiUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new WritError('invalid-input', `${name} is not a URL (expected e.g. https://api.github.com)`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new WritError(
      'invalid-input',
      `${name} carries credentials (user:password@ in the URL); pass the token as the token input or GITHUB_TOKEN, never in the URL`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new WritError('invalid-input', `${name} must be an http(s) URL`);
  }
  if (/[?#]/.test(value)) {
    throw new WritError(
      'invalid-input',
      `${name} must not have a query or fragment (they can carry tokens; expected a base URL such as https://api.github.com)`,
    );
  }
  return value;
}
