/** Request context, GitHub-shaped errors and pagination shared by the REST handlers. */
import type { IncomingHttpHeaders } from 'node:http';
import type { Token, World } from './state.js';

const DOCS = 'https://docs.github.com/rest';

export interface Ctx {
  world: World;
  method: string;
  url: URL;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  headers: IncomingHttpHeaders;
  token: Token | null;
  /** The REST API's base URL (no trailing slash): the emulator's URL, or `<url>/api/v3` in the GHES layout. */
  base: string;
  /** The web URL (`GITHUB_SERVER_URL`-style, no trailing slash) that `html_url`s start with. */
  web: string;
  responseHeaders: Record<string, string>;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.message === 'string' ? body.message : `HTTP ${status}`);
  }
}

export function notFound(documentation = DOCS): HttpError {
  return new HttpError(404, { message: 'Not Found', documentation_url: documentation, status: '404' });
}

/** GitHub's 403 for a personal access token whose role on the repository falls short of the endpoint's. */
export function patForbidden(documentation = DOCS): HttpError {
  return new HttpError(403, {
    message: 'Resource not accessible by personal access token',
    documentation_url: documentation,
    status: '403',
  });
}

export function validationFailed(
  errors: Record<string, unknown>[],
  documentation = DOCS,
  message = 'Validation Failed',
): HttpError {
  return new HttpError(422, { message, errors, documentation_url: documentation, status: '422' });
}

export function unprocessable(message: string, documentation = DOCS): HttpError {
  return new HttpError(422, { message, documentation_url: documentation, status: '422' });
}

function badRequest(message: string, documentation = DOCS): HttpError {
  return new HttpError(400, { message, documentation_url: documentation, status: '400' });
}

/** The request body as a JSON object; GitHub's 400s otherwise. */
export function bodyObject(ctx: Ctx): Record<string, unknown> {
  if (ctx.body === undefined) return {};
  if (typeof ctx.body !== 'object' || ctx.body === null || Array.isArray(ctx.body)) {
    throw badRequest('Body should be a JSON object');
  }
  return ctx.body as Record<string, unknown>;
}

export function requireString(body: Record<string, unknown>, field: string, documentation = DOCS): string {
  const value = body[field];
  if (typeof value !== 'string') {
    if (value === undefined) {
      throw unprocessable(`Invalid request.\n\n"${field}" wasn't supplied.`, documentation);
    }
    throw unprocessable(
      `Invalid request.\n\nFor 'properties/${field}', ${JSON.stringify(value)} is not a string.`,
      documentation,
    );
  }
  return value;
}

export function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    throw unprocessable(
      `Invalid request.\n\nFor 'properties/${field}', ${JSON.stringify(value)} is not a string.`,
    );
  }
  return value;
}

/**
 * The path a `Link` header names: GitHub links a repository's lists through `/repositories/{id}/…`
 * (the form that survives a rename), so `/repos/{owner}/{repo}/…` becomes that.
 */
function linkPath(ctx: Ctx): string {
  const match = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(ctx.path);
  const repo = match
    ? ctx.world.repo(decodeURIComponent(match[1] ?? ''), decodeURIComponent(match[2] ?? ''))
    : undefined;
  return repo && match ? `/repositories/${repo.id}${match[3] ?? ''}` : ctx.path;
}

/** Applies GitHub's `per_page` (default 30, max 100) and `page`, and sets an absolute `Link` header. */
export function paginate<T>(ctx: Ctx, items: T[]): T[] {
  const perPageRaw = Number(ctx.query.get('per_page') ?? '30');
  const perPage = Math.min(100, Math.max(1, Number.isFinite(perPageRaw) ? Math.floor(perPageRaw) : 30));
  const pageRaw = Number(ctx.query.get('page') ?? '1');
  const page = Math.max(1, Number.isFinite(pageRaw) ? Math.floor(pageRaw) : 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const link = (target: number, rel: string): string => {
    const url = new URL(`${ctx.base}${linkPath(ctx)}${ctx.url.search}`);
    url.searchParams.set('per_page', String(perPage));
    url.searchParams.set('page', String(target));
    return `<${url.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page > 1) links.push(link(Math.min(page - 1, last), 'prev'));
  if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
  if (page > 1) links.push(link(1, 'first'));
  if (links.length > 0) ctx.responseHeaders.link = links.join(', ');
  return items.slice((page - 1) * perPage, page * perPage);
}
