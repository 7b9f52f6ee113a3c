/** What every stage's `run()` shares beyond the runner interface (io/action-io.ts): untrusted text in the log, dry-run commits. */
import { randomUUID } from 'node:crypto';
import { logGroup, runnerLogger } from '../io/action-io.js';

// Control characters but newline and tab, and the format characters (bidi overrides, zero-width, BOM...).
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Cf}\p{Cs}\u2028\u2029]/gu;

/** Untrusted text for a plain-text log: every unprintable character shown as `\u{…}`. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`);
}

/**
 * Logs untrusted multi-line text (a rendered file) in a collapsed group: the runner runs no workflow
 * command inside it (`::stop-commands::` with an unguessable token, resumed before the group closes)
 * and no escape or bidi sequence reaches the log raw.
 */
export function logUntrusted(heading: string, text: string): void {
  logGroup(`Writ: ${printable(heading)}`, () => {
    const token = randomUUID();
    runnerLogger.info(`::stop-commands::${token}`);
    runnerLogger.info(`${printable(heading)}\n${printable(text)}`);
    runnerLogger.info(`::${token}::`);
  });
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
