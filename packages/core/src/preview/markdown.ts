/**
 * Escaping for untrusted text in Markdown that GitHub renders (job summaries, issue comments).
 * After escaping, a string cannot open Markdown or HTML structure, cannot mention anyone, cannot
 * close a table cell, and cannot contain a Writ hidden marker (`<!-- writ-… -->`).
 */
import { INVISIBLE_CHARACTERS, truncateCodePoints } from '../untrusted-text.js';

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

/** Inline code for trusted, already-validated tokens (IDs, digests, kinds). */
export function code(text: string): string {
  if (/[`\r\n]/.test(text)) throw new Error('code() is for trusted tokens without backticks or newlines');
  return `\`${text}\``;
}
