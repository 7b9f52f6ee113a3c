/**
 * Markdown that GitHub renders (job summaries, issue comments), shared by the preview, the status
 * comment, the stages' summaries and the artifact's paths: escaping for untrusted text, and the
 * preview's approve heading. A leaf module: it imports only untrusted-text.ts. After escaping, a
 * string cannot open Markdown or HTML structure, cannot mention anyone, cannot close a table cell,
 * and cannot contain a Writ hidden marker (`<!-- writ-… -->`).
 */
import { INVISIBLE_CHARACTERS, truncateCodePoints } from './untrusted-text.js';

/**
 * The heading the preview's approve section starts with: the preview writes it, and the status comment
 * replaces that section once the run is approved.
 */
export const APPROVE_HEADING = '### Approve';

const MARKDOWN_PUNCTUATION = /[\\`*_{}[\]()#+\-.!|~^$:]/g;

/** Escapes one line of untrusted text for inline Markdown, including inside a table cell. */
export function escapeInline(text: string, maxLength = 200): string {
  const cut = truncateCodePoints(
    text.replace(/[\r\n\t]+/g, ' ').replace(INVISIBLE_CHARACTERS, '\ufffd'),
    maxLength,
  );
  return `${cut.text}${cut.truncated ? '…' : ''}`
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(MARKDOWN_PUNCTUATION, (c) => `\\${c}`)
    .replace(/@/g, '@&#8288;');
}

/** Whether text holds a control character or an invisible format character (bidi, zero-width...). */
export function containsInvisible(text: string): boolean {
  return new RegExp(INVISIBLE_CHARACTERS.source, INVISIBLE_CHARACTERS.flags.replace('g', '')).test(text);
}

/**
 * A fenced code block of untrusted lines: the fence is longer than any backtick run inside, so no line
 * can close it, and invisible characters (tabs kept) are shown as U+FFFD.
 */
export function fencedBlock(lines: readonly string[], info = ''): string {
  let longest = 0;
  for (const line of lines) {
    for (const run of line.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  }
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const shown = lines.map((line) => line.replace(INVISIBLE_CHARACTERS, (c) => (c === '\t' ? c : '\ufffd')));
  return [`${fence}${info}`, ...shown, fence].join('\n');
}

/** Inline code for trusted, already-validated tokens (IDs, digests, kinds). */
export function code(text: string): string {
  if (/[`\r\n]/.test(text)) throw new Error('code() is for trusted tokens without backticks or newlines');
  return `\`${text}\``;
}
