/**
 * Untrusted text (plan keys and values, comment bodies, anything a planner or a commenter chose) as it
 * may appear in Writ's own output. Markdown escaping builds on the same character class
 * (`markdown.ts`); log and error messages use `escapeUntrusted` / `quoteUntrusted`.
 */

/**
 * Control characters (C0, DEL, C1: ESC, CSI, OSC, BEL…), and the Unicode format characters (bidi
 * overrides and isolates, zero-width, BOM…) that make text read differently from what it is.
 */
export const INVISIBLE_CHARACTERS =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb]/gu;

/**
 * Also unsafe in a log line: the line and paragraph separators (some viewers break lines there) and,
 * matched with the `u` flag, lone surrogates only (a well-formed pair is one code point).
 */
const LOG_UNSAFE = /[\u2028\u2029\ud800-\udfff]/gu;

/** The first `maxLength` code points of `text` (never splitting a surrogate pair), and whether it was cut. */
export function truncateCodePoints(text: string, maxLength: number): { text: string; truncated: boolean } {
  // Cheap exit: a string of at most maxLength UTF-16 units has at most maxLength code points.
  if (text.length <= maxLength) return { text, truncated: false };
  const chars = Array.from(text);
  if (chars.length <= maxLength) return { text, truncated: false };
  return { text: chars.slice(0, maxLength).join(''), truncated: true };
}

function unicodeEscape(character: string): string {
  let out = '';
  for (let i = 0; i < character.length; i++) {
    out += `\\u${character.charCodeAt(i).toString(16).padStart(4, '0')}`;
  }
  return out;
}

function escapeBody(text: string, quote: boolean): string {
  const backslashed = quote ? text.replace(/["\\]/g, (c) => `\\${c}`) : text.replace(/\\/g, '\\\\');
  return backslashed.replace(INVISIBLE_CHARACTERS, unicodeEscape).replace(LOG_UNSAFE, unicodeEscape);
}

/**
 * Untrusted text made safe for one log or error line: backslashes doubled, every control, format,
 * separator and lone-surrogate character written as `\uXXXX` (so no ESC/OSC sequence, no line break
 * and no bidi override reaches a terminal or the runner's log), cut to `maxLength` code points with `…`.
 */
export function escapeUntrusted(text: string, maxLength = 80): string {
  const cut = truncateCodePoints(text, maxLength);
  return `${escapeBody(cut.text, false)}${cut.truncated ? '…' : ''}`;
}

/** As `escapeUntrusted`, in double quotes (`"` escaped inside); a cut string ends `"…` outside the quotes. */
export function quoteUntrusted(text: string, maxLength = 80): string {
  const cut = truncateCodePoints(text, maxLength);
  return `"${escapeBody(cut.text, true)}"${cut.truncated ? '…' : ''}`;
}
