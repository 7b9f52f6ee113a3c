/**
 * The one HTML escaper of the control tower: every value the page shows, in text or in a quoted
 * attribute, passes through `escapeHtml`. Projected values are already allowlisted (project.ts), so this
 * is the second wall: whatever reaches it cannot open a tag, close an attribute, start an entity or
 * carry an invisible or bidi character (shown as U+FFFD, the same character class the Markdown escaper
 * uses, untrusted-text.ts), and is cut to a bounded length.
 */
import { INVISIBLE_CHARACTERS, truncateCodePoints } from '../untrusted-text.js';

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
  '=': '&#61;',
};

/** Text made safe for an HTML text node or a double- or single-quoted attribute value. */
export function escapeHtml(text: string, maxLength = 200): string {
  const cut = truncateCodePoints(
    text.replace(INVISIBLE_CHARACTERS, '\ufffd').replace(/[\u2028\u2029\ud800-\udfff]/gu, '\ufffd'),
    maxLength,
  );
  return `${cut.text}${cut.truncated ? '…' : ''}`.replace(/[&<>"'`=]/g, (c) => ENTITIES[c] ?? c);
}
