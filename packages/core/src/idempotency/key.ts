/**
 * Client-side idempotency for GitHub creates, which have no server-side idempotency key: a key derived
 * from the request, embedded in the created body as a hidden marker, and found again by reading the
 * primary list endpoint before any retry. Best-effort by nature: two truly concurrent creates can
 * both land; the oldest then wins and the others are retired.
 */
import { digest } from '../canonical-json.js';

export interface IdempotentRequest {
  method: 'POST';
  /** The unbound path template, e.g. `/repos/{owner}/{repo}/issues`, so the key is deployment-independent. */
  pathTemplate: string;
  /** The request body without any marker. */
  body: Record<string, unknown>;
  /**
   * What else makes two creates "the same" (a `run`-scoped key: `{ run: <run ID> }`); absent for a
   * repository-scoped key, which is then exactly the request's key and so byte-stable across runs.
   */
  scope?: Readonly<Record<string, string>>;
}

/** `sha256:<hex>` of the canonical JSON of {method, path, body} (and `scope`, when given). */
export function idempotencyKey(request: IdempotentRequest): string {
  const hashed = { method: request.method, path: request.pathTemplate, body: request.body };
  return digest(request.scope === undefined ? hashed : { ...hashed, scope: request.scope });
}

export function idempotencyMarker(key: string): string {
  return `<!-- writ-idempotency-key: ${key} -->`;
}

/** The body to send: the text, a blank line, then the marker (invisible when rendered). */
export function withMarker(text: string, marker: string): string {
  return text.length === 0 ? marker : `${text}\n\n${marker}`;
}

/** The run's status comment marker; its identity does not depend on the run's state. */
export function statusMarker(runId: string): string {
  return `<!-- writ-status run=${runId} -->`;
}

/** The run's Projects (v2) item marker (projects/sync.ts), in its draft issue's body; one item per run. */
export function projectItemMarker(runId: string): string {
  return `<!-- writ-project-item run=${runId} -->`;
}

/** Exact substring match: no normalization, no prefix matching. */
export function hasMarker(body: string | null | undefined, marker: string): boolean {
  return typeof body === 'string' && body.includes(marker);
}

/** The few named HTML entities that spell `<`, `!`, `-` or a space (conservatively, more than needed). */
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  lt: '<',
  excl: '!',
  dash: '-',
  hyphen: '-',
  minus: '-',
  nbsp: ' ',
  amp: '&',
};

/** Decodes numeric (`&#60;`, `&#x3c;`, with or without `;`) and the named entities above. */
function decodeEntities(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]{1,8}|#[0-9]{1,10}|[A-Za-z]{2,8});?/g, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Zero-width, bidi, other format and control characters: removed before looking for a marker. */
const IGNORABLE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb]/gu;

/** An HTML comment opener, however spaced or doubled, then `writ`: the start of every Writ marker. */
const MARKER_OPENER = /<!\s*-\s*-[\s-]*writ/;

/**
 * Whether text speaks Writ's control language: holds anything Writ's marker parsers (`hasMarker`,
 * `markedKeys`) could accept as one of its hidden markers (`<!-- writ-idempotency-key: …`,
 * `<!-- writ-key: …`, `<!-- writ-status …`, `<!-- writ-probe …`), in any case, with any spacing, with
 * zero-width or format characters inside, compatibility forms (NFKC) or HTML entities (decoded up to
 * three times). Deliberately wider than any one parser: a plan has no reason to write any of it.
 */
export function speaksMarkerLanguage(text: string): boolean {
  let decoded = text;
  for (let round = 0; round < 3; round++) {
    const next = decodeEntities(decoded);
    if (next === decoded) break;
    decoded = next;
  }
  return [text, decoded].some((form) =>
    MARKER_OPENER.test(form.normalize('NFKC').replace(IGNORABLE, '').toLowerCase()),
  );
}
