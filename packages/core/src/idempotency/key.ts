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
}

/** `sha256:<hex>` of the canonical JSON of {method, path, body}. */
export function idempotencyKey(request: IdempotentRequest): string {
  return digest({ method: request.method, path: request.pathTemplate, body: request.body });
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

/** Exact substring match: no normalization, no prefix matching. */
export function hasMarker(body: string | null | undefined, marker: string): boolean {
  return typeof body === 'string' && body.includes(marker);
}
