/**
 * The HTTP server: admin API under `/_emulator`, GraphQL at `/graphql`, REST everywhere else. Every API
 * response carries `content-type: application/json`, a `Date` from the emulator's clock and
 * `x-ratelimit-*` headers; faults are applied per request before (or, for apply-then-drop, after) the
 * handler runs.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Admin, AdminError } from './admin.js';
import type { FaultInput } from './admin.js';
import { Clock } from './clock.js';
import { analyzeGraphQL, executeGraphQL, githubSchema } from './graphql.js';
import type { GraphQLRequestInfo } from './graphql.js';
import type { Ctx, Reply } from './http.js';
import { HttpError } from './http.js';
import { rateHeaders, rateState } from './ratelimit.js';
import { registerContentRoutes } from './rest/contents.js';
import { registerGitRoutes } from './rest/git.js';
import { registerIssueRoutes } from './rest/issues.js';
import { registerPullRoutes } from './rest/pulls.js';
import { registerRepoRoutes } from './rest/repos.js';
import { Router } from './router.js';
import type { ConditionalWrites, FaultSpec, Token } from './state.js';
import { World } from './state.js';

export interface EmulatorOptions {
  port?: number;
  host?: string;
  seed?: number;
  /** Start the clock here (ms since epoch) instead of at the real time. */
  startTime?: number;
  /** Called with every API request and the response sent to it (for conformance checks and tracing). */
  onExchange?: (exchange: Exchange) => void;
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

export function buildRouter(): Router {
  const router = new Router();
  registerRepoRoutes(router);
  registerGitRoutes(router);
  registerIssueRoutes(router);
  registerPullRoutes(router);
  registerContentRoutes(router);
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

function globToRegExp(pattern: string): RegExp {
  const source = pattern
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  return new RegExp(`^${source}$`);
}

function faultMatches(
  fault: FaultSpec,
  method: string,
  path: string,
  gql: GraphQLRequestInfo | null,
): boolean {
  const match = fault.match;
  if (match.method && match.method.toUpperCase() !== method) return false;
  if (match.path && !globToRegExp(match.path).test(path)) return false;
  if (match.operation) {
    if (!gql) return false;
    if (gql.operationName !== match.operation && !gql.mutations.includes(match.operation)) return false;
  }
  return true;
}

export class EmulatorServer {
  readonly world: World;
  readonly admin: Admin;
  private readonly router = buildRouter();
  private server: Server | undefined;
  base = '';

  private readonly onExchange: ((exchange: Exchange) => void) | undefined;

  constructor(options: EmulatorOptions = {}) {
    this.onExchange = options.onExchange;
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
    if (url.pathname === '/_emulator' || url.pathname.startsWith('/_emulator/')) {
      await this.handleAdmin(
        res,
        method,
        url.pathname.slice('/_emulator'.length) || '/',
        url,
        body,
        parseFailed,
      );
      return;
    }
    await this.handleApi(req, res, method, url, body, parseFailed);
  }

  private resolveToken(req: IncomingMessage): Token | null | 'bad' {
    const header = req.headers.authorization;
    if (!header) return null;
    const match = /^(?:token|bearer)\s+(.+)$/i.exec(header.trim());
    if (!match?.[1]) return 'bad';
    return this.world.tokens.get(match[1]) ?? 'bad';
  }

  private async handleApi(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    url: URL,
    body: unknown,
    parseFailed: boolean,
  ): Promise<void> {
    const world = this.world;
    const seq = ++world.requestSeq;
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const isGraphQL = path === '/graphql';
    const gql = isGraphQL && method === 'POST' && !parseFailed ? analyzeGraphQL(body) : null;
    const resolved = this.resolveToken(req);
    const token = resolved === 'bad' ? null : resolved;
    const entry = {
      seq,
      method,
      path: url.pathname + url.search,
      operation: gql?.operationName ?? null,
      mutations: gql?.mutations ?? [],
      status: 0 as number | 'dropped',
      actor: token?.account.login ?? null,
      timestamp: world.now(),
      fault: null as string | null,
    };
    world.requests.push(entry);
    const headers: Record<string, string> = {
      'x-github-request-id': `EMU0:${seq.toString(16).toUpperCase()}`,
    };
    const respond = (status: number, payload: unknown, extra: Record<string, string> = {}): void => {
      entry.status = status;
      const sent = this.send(res, status, method === 'HEAD' ? undefined : payload, { ...headers, ...extra });
      this.onExchange?.({
        method,
        path,
        query: url.search,
        status,
        requestBody: body,
        responseBody: payload,
        responseHeaders: sent,
        fault: entry.fault,
      });
    };

    const fault = this.pickFault(method, path, gql);
    if (fault) entry.fault = fault.fault.type;
    if (fault?.fault.type === 'latency') await sleep(fault.fault.ms ?? 100);
    if (fault?.fault.type === 'drop-before-apply') {
      entry.status = 'dropped';
      req.socket.destroy();
      return;
    }

    const resource = isGraphQL ? 'graphql' : 'core';
    if (resolved === 'bad') {
      Object.assign(headers, rateHeaders(rateState(world, null, resource, true)));
      respond(401, {
        message: 'Bad credentials',
        documentation_url: 'https://docs.github.com/rest',
        status: '401',
      });
      return;
    }
    const before = rateState(world, token, resource, false);
    const who = token
      ? `${token.kind === 'pat' ? 'user' : 'installation'} ID ${token.kind === 'pat' ? token.account.id : (token.app?.installation_id ?? 0)}`
      : 'anonymous';
    if (before.remaining === 0 || fault?.fault.type === 'primary-rate-limit') {
      const reset =
        fault?.fault.type === 'primary-rate-limit'
          ? world.clock.epochSeconds() + (fault.fault.retry_after ?? 60)
          : before.reset;
      Object.assign(headers, rateHeaders({ ...before, remaining: 0, reset }));
      if (isGraphQL) {
        respond(200, {
          errors: [
            {
              type: 'RATE_LIMIT',
              code: 'graphql_rate_limit',
              message: `API rate limit already exceeded for ${who}.`,
            },
          ],
        });
      } else {
        respond(fault?.fault.status ?? 403, {
          message: `API rate limit exceeded for ${who}.`,
          documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
          status: String(fault?.fault.status ?? 403),
        });
      }
      return;
    }
    Object.assign(headers, rateHeaders(rateState(world, token, resource, true)));
    if (fault?.fault.type === 'status') {
      const status = fault.fault.status ?? 502;
      respond(status, {
        message: status === 502 ? 'Bad Gateway' : status === 503 ? 'Service Unavailable' : 'Server Error',
        status: String(status),
      });
      return;
    }
    if (fault?.fault.type === 'secondary-rate-limit') {
      const status = fault.fault.status ?? 403;
      respond(
        status,
        {
          message: `You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID ${headers['x-github-request-id'] ?? ''}.`,
          documentation_url:
            'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
          status: String(status),
        },
        { 'retry-after': String(fault.fault.retry_after ?? 1) },
      );
      return;
    }

    let reply: Reply;
    const responseHeaders: Record<string, string> = {};
    if (parseFailed) {
      reply = {
        status: 400,
        body: {
          message: 'Problems parsing JSON',
          documentation_url: 'https://docs.github.com/rest',
          status: '400',
        },
      };
    } else if (isGraphQL) {
      if (method !== 'POST')
        reply = {
          status: 404,
          body: { message: 'Not Found', documentation_url: 'https://docs.github.com/graphql', status: '404' },
        };
      else reply = await executeGraphQL(world, token, this.base, body, gql ?? analyzeGraphQL(body));
    } else {
      reply = await this.dispatch({
        world,
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
    }
    if (fault?.fault.type === 'apply-then-drop') {
      entry.status = 'dropped';
      req.socket.destroy();
      return;
    }
    respond(reply.status, reply.body, { ...responseHeaders, ...(reply.headers ?? {}) });
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

  private pickFault(method: string, path: string, gql: GraphQLRequestInfo | null): FaultSpec | null {
    for (const fault of this.world.faults) {
      if (fault.times !== null && fault.hits >= fault.times) continue;
      if (!faultMatches(fault, method, path, gql)) continue;
      if (fault.probability !== null && this.world.random() >= fault.probability) continue;
      fault.hits++;
      return fault;
    }
    return null;
  }

  private async handleAdmin(
    res: ServerResponse,
    method: string,
    path: string,
    url: URL,
    body: unknown,
    parseFailed: boolean,
  ): Promise<void> {
    const admin = this.admin;
    const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const str = (value: unknown): string => (typeof value === 'string' ? value : '');
    const reply = (status: number, payload: unknown): void => {
      this.send(res, status, payload, {});
    };
    if (parseFailed) {
      reply(400, { message: 'Problems parsing JSON' });
      return;
    }
    try {
      let m: RegExpExecArray | null;
      if (method === 'GET' && path === '/') {
        reply(200, {
          url: this.base,
          graphqlUrl: `${this.base}/graphql`,
          adminUrl: `${this.base}/_emulator`,
          seed: this.world.seed,
        });
      } else if (method === 'POST' && path === '/reset') {
        admin.reset();
        reply(200, { ok: true });
      } else if (method === 'POST' && path === '/users') {
        reply(201, admin.createUser(input as never));
      } else if (method === 'POST' && path === '/apps') {
        reply(201, admin.createApp(input as never));
      } else if (method === 'POST' && path === '/tokens') {
        reply(201, admin.createToken(input as never));
      } else if (method === 'POST' && path === '/repos') {
        reply(201, admin.createRepo(input as never));
      } else if (method === 'PUT' && (m = /^\/repos\/([^/]+)\/([^/]+)\/collaborators\/([^/]+)$/.exec(path))) {
        reply(
          200,
          admin.setCollaborator(
            decodeURIComponent(m[1] ?? ''),
            decodeURIComponent(m[2] ?? ''),
            decodeURIComponent(m[3] ?? ''),
            str(input.role) || null,
            str(input.base_role) || undefined,
          ),
        );
      } else if (method === 'POST' && (m = /^\/repos\/([^/]+)\/([^/]+)\/rulesets$/.exec(path))) {
        reply(201, admin.addRuleset(decodeURIComponent(m[1] ?? ''), decodeURIComponent(m[2] ?? ''), input));
      } else if (method === 'POST' && (m = /^\/repos\/([^/]+)\/([^/]+)\/actions\/runs$/.exec(path))) {
        reply(201, admin.setRun(decodeURIComponent(m[1] ?? ''), decodeURIComponent(m[2] ?? ''), input));
      } else if (
        method === 'PUT' &&
        (m = /^\/repos\/([^/]+)\/([^/]+)\/actions\/permissions\/workflow$/.exec(path))
      ) {
        reply(
          200,
          admin.setWorkflowPermissions(decodeURIComponent(m[1] ?? ''), decodeURIComponent(m[2] ?? ''), input),
        );
      } else if (
        (method === 'PUT' || method === 'DELETE') &&
        (m = /^\/repos\/([^/]+)\/([^/]+)\/branches\/(.+)\/protection$/.exec(path))
      ) {
        reply(
          200,
          admin.setBranchProtection(
            decodeURIComponent(m[1] ?? ''),
            decodeURIComponent(m[2] ?? ''),
            decodeURIComponent(m[3] ?? ''),
            method === 'DELETE' ? null : input,
          ),
        );
      } else if (method === 'POST' && (m = /^\/repos\/([^/]+)\/([^/]+)\/export$/.exec(path))) {
        reply(
          200,
          await admin.exportRepo(
            decodeURIComponent(m[1] ?? ''),
            decodeURIComponent(m[2] ?? ''),
            str(input.dir),
          ),
        );
      } else if (method === 'POST' && path === '/faults') {
        reply(201, admin.addFault(input as unknown as FaultInput));
      } else if (method === 'GET' && path === '/faults') {
        reply(200, this.world.faults);
      } else if (method === 'DELETE' && path === '/faults') {
        admin.clearFaults();
        reply(200, { ok: true });
      } else if (method === 'POST' && path === '/clock') {
        reply(200, admin.clock(input));
      } else if (method === 'GET' && path === '/clock') {
        reply(200, admin.clock());
      } else if (method === 'POST' && path === '/settings') {
        if (input.conditional_writes !== undefined) {
          admin.setConditionalWrites(input.conditional_writes as ConditionalWrites | boolean);
        }
        reply(200, { conditional_writes: this.world.conditionalWrites });
      } else if (method === 'GET' && path === '/requests') {
        const since = Number(url.searchParams.get('since') ?? '0');
        reply(
          200,
          admin.requests().filter((entry) => entry.seq > since),
        );
      } else if (method === 'DELETE' && path === '/requests') {
        this.world.requests = [];
        reply(200, { ok: true });
      } else if (method === 'GET' && path === '/events') {
        const since = Number(url.searchParams.get('since') ?? '0');
        reply(
          200,
          admin.events().filter((entry) => entry.seq > since),
        );
      } else if (method === 'DELETE' && path === '/events') {
        this.world.events = [];
        reply(200, { ok: true });
      } else {
        reply(404, { message: `No admin route ${method} ${path}` });
      }
    } catch (error) {
      if (error instanceof AdminError) reply(error.status, { message: error.message });
      else throw error;
    }
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
