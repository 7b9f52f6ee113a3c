/** What every stage's `run()` shares: the runner logger, the job summary and the failure path. */
import { randomUUID } from 'node:crypto';
import { errorCode, failureMessage } from '../errors.js';
import type { Logger } from '../redact.js';
import { redact, redactingLogger } from '../redact.js';
import * as runner from '../io/runner-protocol.js';

/** GitHub refuses step summaries over 1 MiB; Writ stays below that. */
export const MAX_SUMMARY_BYTES = 1024 * 1024 - 4096;

export const runnerLogger: Logger = redactingLogger({
  info: (message) => runner.info(message),
  warning: (message) => runner.warning(message),
  debug: (message) => runner.debug(message),
});

// Control characters but newline and tab, and the format characters (bidi overrides, zero-width, BOM...).
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Cf}\p{Cs}\u2028\u2029]/gu;

/** Untrusted text for a plain-text log: every unprintable character shown as `\u{…}`. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`);
}

/**
 * Logs untrusted multi-line text (a rendered file): the runner runs no workflow command inside it
 * (`::stop-commands::` with an unguessable token) and no escape or bidi sequence reaches the log raw.
 */
export function logUntrusted(heading: string, text: string): void {
  const token = randomUUID();
  runnerLogger.info(`::stop-commands::${token}`);
  runnerLogger.info(`${printable(heading)}\n${printable(text)}`);
  runnerLogger.info(`::${token}::`);
}

/** Appends Markdown to the job summary, redacted and bounded. Does nothing outside a runner. */
export function writeSummary(markdown: string): void {
  if (!process.env.GITHUB_STEP_SUMMARY) return;
  let text = redact(markdown);
  if (Buffer.byteLength(text, 'utf8') > MAX_SUMMARY_BYTES) {
    text = `${Buffer.from(text, 'utf8')
      .subarray(0, MAX_SUMMARY_BYTES)
      .toString('utf8')
      .replace(/\uFFFD*$/, '')}\n\n_(summary truncated at ${MAX_SUMMARY_BYTES} bytes)_\n`;
  }
  runner.appendSummary(text);
}

/** Fails the step with `<code>: <message>`, and returns the code for the `reason` output. */
export function failStep(error: unknown): string {
  const code = errorCode(error);
  runner.setFailed(redact(failureMessage(error)));
  return code;
}

/** Markdown showing a ledger commit (headline, trailers, files): what a dry run would write. */
export function describeCommit(commit: {
  expectedHeadOid: string;
  headline: string;
  body: string;
  additions: { path: string; contents: string }[];
}): string {
  const files = commit.additions.map((file) =>
    [`\`${file.path}\``, '', '```json', file.contents.trimEnd(), '```', ''].join('\n'),
  );
  return [
    '<details><summary>Ledger commit (dry run: not written)</summary>',
    '',
    `On \`${commit.expectedHeadOid}\`: **${commit.headline}**`,
    '',
    '```text',
    commit.body,
    '```',
    '',
    ...files,
    '</details>',
    '',
  ].join('\n');
}
