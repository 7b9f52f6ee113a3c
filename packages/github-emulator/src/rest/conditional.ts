/**
 * `ETag` and `If-Match` on issues, comments and milestones. GitHub documents no precondition on these
 * writes, so `If-Match` is ignored unless the admin setting `conditional_writes` says otherwise.
 */
import { createHash } from 'node:crypto';
import type { Ctx, Reply } from '../http.js';

function etagOf(body: unknown): string {
  return `W/"${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 40)}"`;
}

/** The representation as a reply, with the `etag` a later `If-Match` can name. */
export function withEtag(body: Record<string, unknown>, status = 200): Reply {
  return { status, body, headers: { etag: etagOf(body) } };
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
