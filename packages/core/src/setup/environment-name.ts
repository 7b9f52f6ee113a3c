/**
 * The one rule for a GitHub Environment name Writ renders, records or checks: `writ init` and
 * `writ doctor`'s `--environment`, `environment` in `.writ/config.json` (its schema's pattern is this
 * one), the workflow templates' `environment:` lines and the preview's `environment` input. Letters,
 * digits, `.`, `_` and `-`, starting with a letter or digit, at most 255 characters (GitHub's limit):
 * narrower than GitHub's own rule, so a name always renders bare in a workflow's YAML.
 */
import { WritError } from '../errors.js';

export const ENVIRONMENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/;

/** `name` when it follows ENVIRONMENT_NAME, else `environment-name-invalid` (the name is never shown). */
export function validateEnvironmentName(name: string, what = 'the environment name'): string {
  if (!ENVIRONMENT_NAME.test(name)) {
    throw new WritError(
      'environment-name-invalid',
      `${what} must be 1 to 255 letters, digits, '.', '_' or '-', starting with a letter or digit (got ${Array.from(name).length} characters)`,
    );
  }
  return name;
}
