/**
 * `ETag` and `If-Match` on issues, comments and milestones. GitHub documents no precondition on these
 * writes, so `If-Match` is ignored unless the admin setting `conditional_writes` says otherwise. And
 * GitHub has no unique create: a duplicate Writ idempotency marker is allowed unless `marker_creates`
 * (set by the contract worlds) says otherwise.
 */
import { jsonEtag as etagOf, lastModified } from '../caching.js';
import type { Ctx, Reply } from '../http.js';

/**
 * The representation as a reply, with the `etag` a later `If-Match` can name and, for a resource with
 * an `updated_at`, its `Last-Modified` (the server sends it on GETs only).
 */
export function withEtag(body: Record<string, unknown>, status = 200): Reply {
  const modified = typeof body.updated_at === 'string' ? lastModified(body.updated_at) : {};
  return { status, body, headers: { etag: etagOf(body), ...modified } };
}

/**
 * Applies GitHub's If-Match behaviour for the current mode. Returns a reply to send *instead of* the
 * normal one (412), and whether the write must still be applied.
 */
export function conditional(ctx: Ctx, current: unknown): { refuse: Reply | null; apply: boolean } {
  const header = ctx.headers['if-match'];
  const mode = ctx.world.conditionalWrites;
  if (typeof header !== 'string' || mode === 'ignored') return { refuse: null, apply: true };
  const tags = header.split(',').map((tag) => tag.trim());
  if (tags.includes('*') || tags.includes(etagOf(current))) return { refuse: null, apply: true };
  const refuse: Reply = {
    status: 412,
    body: {
      message: 'Precondition Failed',
      documentation_url: 'https://docs.github.com/rest',
      status: '412',
    },
  };
  return { refuse, apply: mode === 'applied-then-412' };
}

const IDEMPOTENCY_MARKER = /<!-- writ-idempotency-key: sha256:[0-9a-f]{64} -->/g;

/**
 * A create whose text carries a Writ idempotency marker that an existing `resource` already carries:
 * allowed (GitHub), refused with 422 `already_exists` (nothing created), or created yet answered 412,
 * per the world's `markerCreates`. Returns the reply to send instead of the normal one, and whether the
 * create must still be applied.
 */
export function markerCreate(
  ctx: Ctx,
  resource: 'Issue' | 'Milestone',
  text: string | null | undefined,
  existing: Iterable<string | null>,
): { refuse: Reply | null; apply: boolean } {
  const mode = ctx.world.markerCreates;
  const markers = typeof text === 'string' ? (text.match(IDEMPOTENCY_MARKER) ?? []) : [];
  if (mode === 'allowed' || markers.length === 0) return { refuse: null, apply: true };
  let duplicate = false;
  for (const other of existing) {
    if (typeof other === 'string' && markers.some((marker) => other.includes(marker))) duplicate = true;
  }
  if (!duplicate) return { refuse: null, apply: true };
  if (mode === 'refused') {
    return {
      refuse: {
        status: 422,
        body: {
          message: 'Validation Failed',
          errors: [
            { resource, code: 'already_exists', field: resource === 'Issue' ? 'body' : 'description' },
          ],
          documentation_url: 'https://docs.github.com/rest',
          status: '422',
        },
      },
      apply: false,
    };
  }
  return {
    refuse: {
      status: 412,
      body: {
        message: 'Precondition Failed',
        documentation_url: 'https://docs.github.com/rest',
        status: '412',
      },
    },
    apply: true,
  };
}
