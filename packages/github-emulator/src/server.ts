/**
 * The HTTP server: admin API under `/_emulator` (routes in `admin-routes.ts`), GraphQL at `/graphql`, REST
 * everywhere else (routes in `rest/`). Every API response carries `content-type: application/json`, a
 * `Date` from the emulator's clock and `x-ratelimit-*` headers; faults (`faults.ts`) are applied per
 * request before (or, for apply-then-drop, after) the handler runs, and the primary rate limit
 * (`ratelimit.ts`) before it.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Admin } from './admin.js';
import { notModified, validators } from './caching.js';
import type { AdminCtx } from './admin-routes.js';
import { answerAdmin, registerAdminRoutes } from './admin-routes.js';
import { Clock } from './clock.js';
import { faultReply, pickFault } from './faults.js';
import { analyzeGraphQL, executeGraphQL, githubSchema } from './graphql.js';
import type { GraphQLRequestInfo } from './graphql.js';
import type { Ctx, Reply } from './http.js';
import { HttpError } from './http.js';
import { primaryLimitReply, rateHeaders, rateState, refundRequest } from './ratelimit.js';
import { registerEnvironmentRoutes } from './environments.js';
import { registerPagesRoutes } from './pages.js';
import { registerActionsRoutes } from './rest/actions.js';
import { registerCheckRoutes } from './rest/checks.js';
import { registerCompareRoutes } from './rest/compare.js';
import { registerStatusRoutes } from './rest/statuses.js';
import { registerCommentRoutes } from './rest/comments.js';
import { registerContentRoutes } from './rest/contents.js';
import { registerGitRoutes } from './rest/git.js';
import { registerIssueRoutes } from './rest/issues.js';
import { registerLabelRoutes } from './rest/labels.js';
import { registerMilestoneRoutes } from './rest/milestones.js';
import { registerPullRoutes } from './rest/pulls.js';
import { registerReactionRoutes } from './rest/reactions.js';
import { registerRepoRoutes } from './rest/repos.js';
import { Router } from './router.js';
import type { SecondaryLimitsInput } from './secondary-limit-settings.js';
import { admitContentCreating, isContentCreating } from './secondary-limit.js';
import type { RequestLogEntry, Token } from './state.js';
import { World } from './state.js';

export interface EmulatorOptions {
  port?: number;
  host?: string;
  seed?: number;
  /** Start the clock here (ms since epoch) instead of at the real time. */
  startTime?: number;
  /** Called with every API request and the response sent to it (for conformance checks and tracing). */
  onExchange?: (exchange: Exchange) => void;
  /**
   * Called with every API request as it arrives (its log entry and its parsed JSON body, undefined when
   * it has none or it does not parse), before any fault is picked or the handler runs (a fault added
   * here applies to this very request): kill-point harnesses and crash points (crash-points.ts) act at
   * exact request boundaries.
   */
  onRequest?: (entry: RequestLogEntry, body: unknown) => void;
  /**
   * `dotcom` (default): REST at the root, GraphQL at `/graphql`, as `api.github.com`. `ghes`: GitHub
   * Enterprise Server's single-host layout, REST under `/api/v3`, GraphQL at `/api/graphql`, web URLs
   * (`html_url`, `GITHUB_SERVER_URL`) at the root.
   */
  layout?: Layout;
  /**
   * GitHub's secondary limit on content-creating requests (secondary-limit.ts): `true` for GitHub's
   * 80 a minute and 500 an hour, `{perMinute, perHour}` for a test's own figures; off by default.
   */
  secondaryLimits?: SecondaryLimitsInput;
}

export type Layout = 'dotcom' | 'ghes';

/** Where REST and GraphQL live under the host, per layout. */
const LAYOUTS: Record<Layout, { rest: string; graphql: string }> = {
  dotcom: { rest: '', graphql: '/graphql' },
  ghes: { rest: '/api/v3', graphql: '/api/graphql' },
};

export interface Exchange {
  method: string;
  /** The API path without the query string or the layout's REST prefix (`/api/v3` on GHES). */
  path: string;
  query: string;
  status: number;
  requestBody: unknown;
  responseBody: unknown;
  responseHeaders: Record<string, string>;
  /** The request's `Accept` header, if any (it picks the media type). */
  accept: string | null;
  /** The fault type that shaped this response, if any. */
  fault: string | null;
}

export interface Emulator {
  /** The REST base URL (`GITHUB_API_URL`): the host, or `<host>/api/v3` in the GHES layout. */
  url: string;
  graphqlUrl: string;
  /** The web URL (`GITHUB_SERVER_URL`). */
  serverUrl: string;
  adminUrl: string;
  admin: Admin;
  world: World;
  close: () => Promise<void>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** What the GHES layout reports in `x-github-enterprise-version` (nominal: no GHES release is modelled). */
const GHES_VERSION = 'enterprise-server@3.17.0';

/** The API path of a request outside the layout's API (a GHES web path): answered 404. */
const NOT_IN_LAYOUT = '\u0000not-in-layout';

function buildRouter(): Router {
  const router = new Router();
  registerRepoRoutes(router);
  registerEnvironmentRoutes(router);
  registerPagesRoutes(router);
  registerActionsRoutes(router);
  registerCheckRoutes(router);
  registerStatusRoutes(router);
  registerCompareRoutes(router);
  registerGitRoutes(router);
  // The first matching route wins: `issues/comments` before `issues/:number`.
  registerReactionRoutes(router);
  registerCommentRoutes(router);
  registerIssueRoutes(router);
  registerLabelRoutes(router);
  registerMilestoneRoutes(router);
  registerPullRoutes(router);
  registerContentRoutes(router);
  return router;
}

function buildAdminRouter(): Router<AdminCtx> {
  const router = new Router<AdminCtx>();
  registerAdminRoutes(router);
  return router;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A latency fault's wait; it keeps no process alive on its own (a test may end while a request is held). */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** A request as read off the socket: its JSON body parsed, or `parseFailed`. */
interface Incoming {
  req: IncomingMessage;
  method: string;
  url: URL;
  body: unknown;
  parseFailed: boolean;
}

export class EmulatorServer {
  readonly world: World;
  readonly admin: Admin;
  private readonly router = buildRouter();
  private readonly adminRouter = buildAdminRouter();
  private server: Server | undefined;
  /** The host's URL (`http://127.0.0.1:PORT`), which is also the web URL. */
  base = '';
  readonly layout: Layout;

  private readonly onExchange: ((exchange: Exchange) => void) | undefined;
  private readonly onRequest: ((entry: RequestLogEntry, body: unknown) => void) | undefined;

  constructor(options: EmulatorOptions = {}) {
    this.onExchange = options.onExchange;
    this.onRequest = options.onRequest;
    this.layout = options.layout ?? 'dotcom';
    this.world = new World(options.seed ?? 1, new Clock(options.startTime ?? Date.now()), {
      secondaryLimits: options.secondaryLimits,
    });
    this.admin = new Admin(this.world);
  }

  async listen(port = 0, host = '127.0.0.1'): Promise<void> {
    githubSchema();
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) {
          this.send(
            res,
            500,
            { message: `Emulator error: ${error instanceof Error ? error.message : String(error)}` },
            {},
          );
        } else res.destroy();
      });
    });
    this.server.keepAliveTimeout = 5000;
    await new Promise<void>((resolve, reject) => {
      this.server?.once('error', reject);
      this.server?.listen(port, host, () => resolve());
    });
    const address = this.server.address() as AddressInfo;
    this.base = `http://${host}:${address.port}`;
    this.world.urls = { api: this.apiUrl, web: this.base };
  }

  /** The REST base URL for this layout. */
  get apiUrl(): string {
    return `${this.base}${LAYOUTS[this.layout].rest}`;
  }

  get graphqlUrl(): string {
    return `${this.base}${LAYOUTS[this.layout].graphql}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private send(
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string>,
  ): Record<string, string> {
    res.sendDate = false;
    const out: Record<string, string> = {
      date: new Date(this.world.clock.now()).toUTCString(),
      'x-github-api-version-selected': '2022-11-28',
      'x-github-media-type': 'github.v3; format=json',
      ...headers,
    };
    if (body === undefined || status === 204 || status === 304) {
      res.writeHead(status, out);
      res.end();
      return out;
    }
    // A raw media type (file bytes): the handler names the content type.
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
    out['content-type'] ??= JSON_TYPE;
    out['content-length'] = String(bytes.length);
    res.writeHead(status, out);
    res.end(bytes);
    return out;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.base);
    const method = (req.method ?? 'GET').toUpperCase();
    const raw = await readBody(req);
    let body: unknown = undefined;
    let parseFailed = false;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8')) as unknown;
      } catch {
        parseFailed = true;
      }
    }
    const incoming: Incoming = { req, method, url, body, parseFailed };
    if (url.pathname === '/_emulator' || url.pathname.startsWith('/_emulator/')) {
      await this.handleAdmin(res, incoming);
      return;
    }
    await this.handleApi(res, incoming);
  }

  private resolveToken(req: IncomingMessage): Token | null | 'bad' {
    const header = req.headers.authorization;
    if (!header) return null;
    const match = /^(?:token|bearer)\s+(.+)$/i.exec(header.trim());
    if (!match?.[1]) return 'bad';
    return this.world.tokens.get(match[1]) ?? 'bad';
  }

  /**
   * One API request: logged, then shaped by a fault (latency, a drop before or after the handler runs),
   * refused before the handler (bad credentials, a spent rate limit, the modelled secondary limit on
   * content creation when it is on, a status or secondary-limit fault), or answered by GraphQL or the
   * REST routes.
   */
  private async handleApi(res: ServerResponse, incoming: Incoming): Promise<void> {
    const { req, method, url, body, parseFailed } = incoming;
    const world = this.world;
    const seq = ++world.requestSeq;
    const path = this.apiPath(url.pathname);
    const isGraphQL = path === '/graphql';
    const gql = isGraphQL && method === 'POST' && !parseFailed ? analyzeGraphQL(body) : null;
    const resolved = this.resolveToken(req);
    const token = resolved === 'bad' ? null : resolved;
    const entry: RequestLogEntry = {
      seq,
      method,
      path: url.pathname + url.search,
      operation: gql?.operationName ?? null,
      mutations: gql?.mutations ?? [],
      status: 0,
      actor: token?.account.login ?? null,
      timestamp: world.now(),
      fault: null,
      contentCreating: isContentCreating(method, isGraphQL, gql?.mutations ?? []),
      secondaryLimited: false,
    };
    world.requests.push(entry);
    this.onRequest?.(entry, body);
    const headers: Record<string, string> = {
      'x-github-request-id': `EMU0:${seq.toString(16).toUpperCase()}`,
      // GHES names itself on every API response (the version is nominal).
      ...(this.layout === 'ghes' ? { 'x-github-enterprise-version': GHES_VERSION } : {}),
    };
    const respond = (reply: Reply): void => {
      entry.status = reply.status;
      const sent = this.send(res, reply.status, method === 'HEAD' ? undefined : reply.body, {
        ...headers,
        ...(reply.headers ?? {}),
      });
      const accept = req.headers.accept;
      this.onExchange?.({
        method,
        path,
        query: url.search,
        status: reply.status,
        requestBody: body,
        responseBody: reply.body,
        responseHeaders: sent,
        accept: typeof accept === 'string' ? accept : null,
        fault: entry.fault,
      });
    };
    const drop = (): void => {
      entry.status = 'dropped';
      req.socket.destroy();
    };

    const fault = pickFault(world, method, path, gql);
    if (fault) entry.fault = fault.fault.type;
    if (fault?.fault.type === 'latency') await sleep(fault.fault.ms ?? 100);
    if (fault?.fault.type === 'drop-before-apply') {
      drop();
      return;
    }

    const resource = isGraphQL ? 'graphql' : 'core';
    if (resolved === 'bad') {
      Object.assign(headers, rateHeaders(rateState(world, null, resource, true)));
      respond({
        status: 401,
        body: {
          message: 'Bad credentials',
          documentation_url: 'https://docs.github.com/rest',
          status: '401',
        },
      });
      return;
    }
    const limited = primaryLimitReply(world, token, resource, fault);
    if (limited) {
      respond(limited);
      return;
    }
    // `GET /rate_limit` does not count against the primary limit (GitHub's documentation).
    const counted = !(path === '/rate_limit' && (method === 'GET' || method === 'HEAD'));
    Object.assign(headers, rateHeaders(rateState(world, token, resource, counted)));
    const secondary =
      world.secondaryLimits && entry.contentCreating
        ? admitContentCreating(world, world.secondaryLimits, token)
        : null;
    if (secondary) {
      entry.secondaryLimited = true;
      respond(secondary);
      return;
    }
    const refused = faultReply(fault, headers['x-github-request-id'] ?? '');
    if (refused) {
      respond(refused);
      return;
    }

    let reply = await this.answer(incoming, path, token, gql);
    if (!isGraphQL) {
      const own = { ...(reply.headers ?? {}) };
      // GitHub sends Last-Modified on reads; a write's answer carries only the ETag.
      if (method !== 'GET' && method !== 'HEAD') delete own['last-modified'];
      reply = { ...reply, headers: { ...validators(reply, token !== null), ...own } };
      if (notModified(method, req.headers, reply.status, reply.headers ?? {})) {
        // 304: the validators again, no body; an authorized one is not counted against the limit.
        if (token) {
          refundRequest(world, token, resource);
          Object.assign(headers, rateHeaders(rateState(world, token, resource, false)));
        }
        const kept = ['etag', 'last-modified', 'cache-control', 'vary'];
        const replyHeaders = reply.headers ?? {};
        reply = {
          status: 304,
          headers: Object.fromEntries(
            kept
              .filter((name) => replyHeaders[name] !== undefined)
              .map((name) => [name, replyHeaders[name] ?? '']),
          ),
        };
      }
    }
    if (fault?.fault.type === 'apply-then-drop') {
      drop();
      return;
    }
    if (fault?.fault.type === 'apply-then-status') {
      // The handler's effect stands; the client is told otherwise (GitHub's "412, yet applied").
      respond(faultReply({ ...fault, fault: { ...fault.fault, type: 'status' } }, '') ?? reply);
      return;
    }
    respond(reply);
  }

  /** The handler's reply: a JSON parse failure, GraphQL, or the REST route (its headers merged in). */
  private async answer(
    incoming: Incoming,
    path: string,
    token: Token | null,
    gql: GraphQLRequestInfo | null,
  ): Promise<Reply> {
    const { req, method, url, body, parseFailed } = incoming;
    if (parseFailed) {
      return {
        status: 400,
        body: {
          message: 'Problems parsing JSON',
          documentation_url: 'https://docs.github.com/rest',
          status: '400',
        },
      };
    }
    if (path === '/graphql') {
      if (method !== 'POST') {
        return {
          status: 404,
          body: { message: 'Not Found', documentation_url: 'https://docs.github.com/graphql', status: '404' },
        };
      }
      return executeGraphQL(this.world, token, this.base, body, gql ?? analyzeGraphQL(body));
    }
    if (path === NOT_IN_LAYOUT) {
      return {
        status: 404,
        body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' },
      };
    }
    const responseHeaders: Record<string, string> = {};
    const reply = await this.dispatch({
      world: this.world,
      method,
      url,
      path,
      params: {},
      query: url.searchParams,
      body,
      headers: req.headers,
      token,
      base: this.apiUrl,
      web: this.base,
      responseHeaders,
    });
    return { ...reply, headers: { ...responseHeaders, ...(reply.headers ?? {}) } };
  }

  /**
   * The API path of a request path: the layout's REST prefix removed (`/graphql` for its GraphQL
   * endpoint), trailing slashes dropped; `NOT_IN_LAYOUT` for a path outside the API (GHES web paths).
   */
  private apiPath(pathname: string): string {
    const trimmed = pathname.replace(/\/+$/, '') || '/';
    const { rest, graphql } = LAYOUTS[this.layout];
    if (trimmed === graphql) return '/graphql';
    if (rest === '') return trimmed;
    if (trimmed === rest) return '/';
    const inside = trimmed.startsWith(`${rest}/`) ? trimmed.slice(rest.length) : NOT_IN_LAYOUT;
    // GHES serves GraphQL at /api/graphql only; /api/v3/graphql is no endpoint there.
    return inside === '/graphql' ? NOT_IN_LAYOUT : inside;
  }

  /** `/repositories/{id}/…` names the repository by ID: answered as `/repos/{owner}/{repo}/…`. */
  private resolveRepositoryId(path: string): string | null {
    const match = /^\/repositories\/(\d+)(\/.*)?$/.exec(path);
    if (!match) return path;
    const repo = this.world.repoById(Number(match[1]));
    return repo
      ? `/repos/${encodeURIComponent(repo.owner.login)}/${encodeURIComponent(repo.name)}${match[2] ?? ''}`
      : null;
  }

  private async dispatch(ctx: Ctx): Promise<Reply> {
    const resolved = this.resolveRepositoryId(ctx.path);
    if (resolved === null) {
      return {
        status: 404,
        body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' },
      };
    }
    ctx.path = resolved;
    const found = this.router.match(ctx.method === 'HEAD' ? 'GET' : ctx.method, ctx.path);
    if (!('route' in found)) {
      return {
        status: 404,
        body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' },
      };
    }
    ctx.params = found.params;
    try {
      return await found.route.handler(ctx);
    } catch (error) {
      if (error instanceof HttpError)
        return { status: error.status, body: error.body, headers: error.headers };
      throw error;
    }
  }

  private async handleAdmin(res: ServerResponse, incoming: Incoming): Promise<void> {
    const { method, url, body, parseFailed } = incoming;
    if (parseFailed) {
      this.send(res, 400, { message: 'Problems parsing JSON' }, {});
      return;
    }
    const reply = await answerAdmin(
      this.adminRouter,
      method,
      url.pathname.slice('/_emulator'.length) || '/',
      {
        admin: this.admin,
        world: this.world,
        base: this.base,
        apiUrl: this.apiUrl,
        graphqlUrl: this.graphqlUrl,
        query: url.searchParams,
        input: (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>,
      },
    );
    this.send(res, reply.status, reply.body, {});
  }
}

/** Starts an emulator on loopback (port 0 picks a free one). */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const server = new EmulatorServer(options);
  await server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  return {
    url: server.apiUrl,
    graphqlUrl: server.graphqlUrl,
    serverUrl: server.base,
    adminUrl: `${server.base}/_emulator`,
    admin: server.admin,
    world: server.world,
    close: () => server.close(),
  };
}
