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
import type { AdminCtx } from './admin-routes.js';
import { answerAdmin, registerAdminRoutes } from './admin-routes.js';
import { Clock } from './clock.js';
import { faultReply, pickFault } from './faults.js';
import { analyzeGraphQL, executeGraphQL, githubSchema } from './graphql.js';
import type { GraphQLRequestInfo } from './graphql.js';
import type { Ctx, Reply } from './http.js';
import { HttpError } from './http.js';
import { primaryLimitReply, rateHeaders, rateState } from './ratelimit.js';
import { registerActionsRoutes } from './rest/actions.js';
import { registerCommentRoutes } from './rest/comments.js';
import { registerContentRoutes } from './rest/contents.js';
import { registerGitRoutes } from './rest/git.js';
import { registerIssueRoutes } from './rest/issues.js';
import { registerLabelRoutes } from './rest/labels.js';
import { registerMilestoneRoutes } from './rest/milestones.js';
import { registerPullRoutes } from './rest/pulls.js';
import { registerRepoRoutes } from './rest/repos.js';
import { Router } from './router.js';
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
   * Called with every API request as it arrives, before any fault is picked or the handler runs (a
   * fault added here applies to this very request): kill-point harnesses act at exact request boundaries.
   */
  onRequest?: (entry: RequestLogEntry) => void;
}

export interface Exchange {
  method: string;
  /** Path without the query string. */
  path: string;
  query: string;
  status: number;
  requestBody: unknown;
  responseBody: unknown;
  responseHeaders: Record<string, string>;
  /** The fault type that shaped this response, if any. */
  fault: string | null;
}

export interface Emulator {
  url: string;
  graphqlUrl: string;
  adminUrl: string;
  admin: Admin;
  world: World;
  close: () => Promise<void>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

function buildRouter(): Router {
  const router = new Router();
  registerRepoRoutes(router);
  registerActionsRoutes(router);
  registerGitRoutes(router);
  // The first matching route wins: `issues/comments` before `issues/:number`.
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
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
  base = '';

  private readonly onExchange: ((exchange: Exchange) => void) | undefined;
  private readonly onRequest: ((entry: RequestLogEntry) => void) | undefined;

  constructor(options: EmulatorOptions = {}) {
    this.onExchange = options.onExchange;
    this.onRequest = options.onRequest;
    this.world = new World(options.seed ?? 1, new Clock(options.startTime ?? Date.now()));
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
    const text = JSON.stringify(body);
    out['content-type'] = JSON_TYPE;
    out['content-length'] = String(Buffer.byteLength(text));
    res.writeHead(status, out);
    res.end(text);
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
   * refused before the handler (bad credentials, a spent rate limit, a status or secondary-limit fault),
   * or answered by GraphQL or the REST routes.
   */
  private async handleApi(res: ServerResponse, incoming: Incoming): Promise<void> {
    const { req, method, url, body, parseFailed } = incoming;
    const world = this.world;
    const seq = ++world.requestSeq;
    const path = url.pathname.replace(/\/+$/, '') || '/';
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
    };
    world.requests.push(entry);
    this.onRequest?.(entry);
    const headers: Record<string, string> = {
      'x-github-request-id': `EMU0:${seq.toString(16).toUpperCase()}`,
    };
    const respond = (reply: Reply): void => {
      entry.status = reply.status;
      const sent = this.send(res, reply.status, method === 'HEAD' ? undefined : reply.body, {
        ...headers,
        ...(reply.headers ?? {}),
      });
      this.onExchange?.({
        method,
        path,
        query: url.search,
        status: reply.status,
        requestBody: body,
        responseBody: reply.body,
        responseHeaders: sent,
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
    Object.assign(headers, rateHeaders(rateState(world, token, resource, true)));
    const refused = faultReply(fault, headers['x-github-request-id'] ?? '');
    if (refused) {
      respond(refused);
      return;
    }

    const reply = await this.answer(incoming, path, token, gql);
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
      base: this.base,
      responseHeaders,
    });
    return { ...reply, headers: { ...responseHeaders, ...(reply.headers ?? {}) } };
  }

  private async dispatch(ctx: Ctx): Promise<Reply> {
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
    url: server.base,
    graphqlUrl: `${server.base}/graphql`,
    adminUrl: `${server.base}/_emulator`,
    admin: server.admin,
    world: server.world,
    close: () => server.close(),
  };
}
