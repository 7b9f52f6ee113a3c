/**
 * `OWNER/NUMBER`, parsed in one place: the `project` input of the stages that keep a run (preview,
 * consume-approval, persist, publish-artifact, claim-checkpoint) and `writ init --project`. It names
 * the Projects (v2) project the run's item is kept on (projects/sync.ts; init records it in
 * `.writ/config.json` `project` and renders the input); empty switches the projection off. A value of
 * another shape is refused like any other malformed input (`invalid-input`): a typo is told at once,
 * never silently ignored.
 */
import { WritError } from '../errors.js';
import { quoteUntrusted } from '../untrusted-text.js';
import type { ProjectTarget } from './sync.js';

/** GitHub's login rule (letters, digits, single hyphens, at most 39), then a positive project number. */
const PROJECT_INPUT = /^([A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38})\/([1-9][0-9]{0,8})$/;

/** `OWNER/NUMBER` → the project; empty → null (no projection). */
export function parseProjectInput(value: string): ProjectTarget | null {
  const text = value.trim();
  if (text === '') return null;
  const match = PROJECT_INPUT.exec(text);
  if (match === null) {
    throw new WritError(
      'invalid-input',
      `project must be OWNER/NUMBER (an organization login and the project's number, e.g. acme/3) or empty; got ${quoteUntrusted(text, 40)}`,
    );
  }
  return { owner: match[1] ?? '', number: Number(match[2]) };
}
