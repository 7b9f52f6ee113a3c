/**
 * The conformance check. Every REST response the emulator sends during a test run is validated against
 * the response schema of its operation in GitHub's OpenAPI description (`@octokit/openapi`); every
 * GraphQL document is re-validated against `@octokit/graphql-schema`; every recorded webhook payload is
 * validated against `@octokit/webhooks-schemas`. Each test file asserts zero failures in `afterAll`, and
 * with WRIT_CONFORMANCE_REPORT=<file> each appends its counts there as a JSON line.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { parse, validate } from 'graphql';
import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';
import { githubSchema } from '@writ/github-emulator/graphql.js';
import type { Exchange, RecordedEvent } from '@writ/github-emulator/index.js';
import { dependencyFile } from '@writ/github-emulator/resources.js';

type Json = Record<string, unknown>;

interface Operation {
  method: string;
  template: string;
  strict: RegExp;
  greedy: RegExp;
  literals: number;
  responses: Record<string, Json>;
}

/** OpenAPI 3.0 `nullable` without a `type` is not JSON Schema; rewrite it as `anyOf [.., null]`. */
function normalise(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normalise);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) out[key] = normalise(value);
  // GitHub sends null for nullable enums (e.g. `state_reason`); OpenAPI 3.0 leaves that ambiguous.
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null))
    out.enum = [...(out.enum as unknown[]), null];
  if (out.nullable === true && out.type === undefined) {
    delete out.nullable;
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

function retarget(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(retarget);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#/')
        ? `openapi${value}`
        : retarget(value);
  }
  return out;
}

function pointer(doc: Json, ref: string): Json {
  let current: unknown = doc;
  for (const part of ref.replace(/^#\//, '').split('/')) {
    current = (current as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return current as Json;
}

export interface ConformanceReport {
  file: string;
  restResponses: number;
  restValidated: number;
  operations: string[];
  undocumentedStatus: string[];
  faultInjected: number;
  statusOnly: number;
  /** 304s (no body, an ETag) to conditional GETs. */
  notModified: number;
  /** Responses in a raw media type (file bytes, not JSON), checked for their content type only. */
  rawMedia: number;
  /**
   * Responses of endpoints GitHub still serves but its current description no longer lists (`GET
   * git/refs`, `GET git/refs/{ref}`), validated against their successor's schema (`git/matching-refs`
   * for a list, `git/ref` for one ref).
   */
  legacyAliased: number;
  graphqlDocuments: number;
  graphqlInvalidRejected: number;
  webhooks: number;
  webhookEvents: string[];
  failures: string[];
}

export class Conformance {
  private readonly operations: Operation[] = [];
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  private readonly webhookAjv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  private readonly doc: Json;
  private readonly compiled = new Map<string, ValidateFunction>();
  /** Verdicts by document text (this check's own parse and validate, independent of the emulator's). */
  private readonly validDocuments = new Map<string, boolean>();
  readonly report: ConformanceReport;

  constructor(file: string) {
    this.report = {
      file,
      restResponses: 0,
      restValidated: 0,
      operations: [],
      undocumentedStatus: [],
      faultInjected: 0,
      statusOnly: 0,
      notModified: 0,
      rawMedia: 0,
      legacyAliased: 0,
      graphqlDocuments: 0,
      graphqlInvalidRejected: 0,
      webhooks: 0,
      webhookEvents: [],
      failures: [],
    };
    const path = dependencyFile('@octokit/openapi/generated/api.github.com.json');
    this.doc = normalise(JSON.parse(readFileSync(path, 'utf8'))) as Json;
    this.ajv.addSchema({ $id: 'openapi', components: this.doc.components }, 'openapi');
    for (const [template, item] of Object.entries(this.doc.paths as Record<string, Json>)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const parts = template.split('/');
        const literals = parts.filter((part) => part !== '' && !part.startsWith('{')).length;
        const build = (param: string): RegExp =>
          new RegExp(
            `^${parts.map((part) => (part.startsWith('{') ? param : part.replace(/[.+^$()|[\]\\]/g, '\\$&'))).join('/')}$`,
          );
        this.operations.push({
          method: method.toUpperCase(),
          template,
          strict: build('[^/]+'),
          greedy: build('.+'),
          literals,
          responses: ((operation as Json).responses ?? {}) as Record<string, Json>,
        });
      }
    }
    const webhooks = JSON.parse(
      readFileSync(dependencyFile('@octokit/webhooks-schemas/schema.json'), 'utf8'),
    ) as Json;
    delete webhooks.$schema;
    this.webhookAjv.addSchema({ ...webhooks, $id: 'webhooks' });
  }

  private findOperation(method: string, path: string): Operation | undefined {
    const byLiterals = (a: Operation, b: Operation): number => b.literals - a.literals;
    const strict = this.operations
      .filter((op) => op.method === method && op.strict.test(path))
      .sort(byLiterals);
    if (strict[0]) return strict[0];
    return this.operations.filter((op) => op.method === method && op.greedy.test(path)).sort(byLiterals)[0];
  }

  private validator(
    operation: Operation,
    status: string,
    media = 'application/json',
  ): ValidateFunction | null | 'undocumented' {
    const key = `${operation.method} ${operation.template} ${status} ${media}`;
    const cached = this.compiled.get(key);
    if (cached) return cached;
    let response = operation.responses[status];
    if (!response) return 'undocumented';
    if (typeof response.$ref === 'string') response = pointer(this.doc, response.$ref);
    const content = response.content as Record<string, Json | undefined> | undefined;
    const schema = (content?.[media] ?? content?.['application/json'])?.schema;
    if (!schema) return null;
    const compiled = this.ajv.compile(retarget(schema) as Json);
    this.compiled.set(key, compiled);
    return compiled;
  }

  observe(exchange: Exchange): void {
    if (exchange.path === '/graphql') {
      this.observeGraphQL(exchange);
      return;
    }
    this.report.restResponses++;
    if (exchange.fault && exchange.fault !== 'latency' && exchange.fault !== 'apply-then-drop') {
      this.report.faultInjected++;
      return;
    }
    const label = `${exchange.method} ${exchange.path} → ${exchange.status}`;
    if (exchange.responseHeaders['content-type'] === undefined && exchange.responseBody !== undefined) {
      this.report.failures.push(`${label}: JSON body without content-type`);
    }
    if (exchange.status === 304) {
      this.report.notModified++;
      if (exchange.responseBody !== undefined) this.report.failures.push(`${label}: a 304 with a body`);
      if (
        exchange.responseHeaders.etag === undefined &&
        exchange.responseHeaders['last-modified'] === undefined
      )
        this.report.failures.push(`${label}: a 304 without validators`);
      return;
    }
    const contentType = exchange.responseHeaders['content-type'] ?? '';
    if (exchange.responseBody !== undefined && !contentType.startsWith('application/json')) {
      this.report.rawMedia++;
      if (!Buffer.isBuffer(exchange.responseBody) || !/^application\/vnd\.github\./.test(contentType))
        this.report.failures.push(`${label}: a non-JSON body without a GitHub media type (${contentType})`);
      return;
    }
    // `/repositories/{id}/…` is `/repos/{owner}/{repo}/…` by ID: the same operations.
    // The contents root and matching-refs without a ref are their operations with an empty parameter.
    const path = exchange.path
      .replace(/^\/repositories\/\d+(?=\/|$)/, '/repos/{owner}/{repo}')
      .replace(/^(\/repos\/[^/]+\/[^/]+\/(?:contents|git\/matching-refs))$/, '$1/{empty}');
    let operation = this.findOperation(exchange.method, path);
    const legacy = /^\/repos\/[^/]+\/[^/]+\/git\/refs(\/.*)?$/.exec(path);
    if (exchange.method === 'GET' && legacy) {
      const target =
        Array.isArray(exchange.responseBody) || exchange.status !== 200 ? 'matching-refs' : 'ref';
      operation = this.operations.find(
        (op) => op.method === 'GET' && op.template === `/repos/{owner}/{repo}/git/${target}/{ref}`,
      );
      this.report.legacyAliased++;
    }
    if (!operation) {
      if (exchange.status !== 404) this.report.failures.push(`${label}: no OpenAPI operation matches`);
      return;
    }
    const id = `${operation.method} ${operation.template}`;
    if (!this.report.operations.includes(id)) this.report.operations.push(id);
    const objectMedia = /application\/vnd\.github(\.v3)?\.object/.test(exchange.accept ?? '');
    const validator = this.validator(
      operation,
      String(exchange.status),
      objectMedia ? 'application/vnd.github.object' : 'application/json',
    );
    if (validator === 'undocumented') {
      const note = `${id} → ${exchange.status}`;
      if (!this.report.undocumentedStatus.includes(note)) this.report.undocumentedStatus.push(note);
      return;
    }
    if (validator === null) {
      // A documented status whose description gives no JSON schema (e.g. some 422s): status checked only.
      this.report.statusOnly++;
      return;
    }
    if (validator(exchange.responseBody)) this.report.restValidated++;
    else {
      const errors = (validator.errors ?? [])
        .slice(0, 5)
        .map((error) => `${error.instancePath} ${error.message ?? ''}`);
      this.report.failures.push(`${label}: ${errors.join('; ')}`);
    }
  }

  private observeGraphQL(exchange: Exchange): void {
    const request = exchange.requestBody as { query?: unknown } | undefined;
    if (typeof request?.query !== 'string') return;
    this.report.graphqlDocuments++;
    let valid = this.validDocuments.get(request.query);
    if (valid === undefined) {
      try {
        valid = validate(githubSchema(), parse(request.query)).length === 0;
      } catch {
        valid = false;
      }
      this.validDocuments.set(request.query, valid);
    }
    const body = exchange.responseBody as { data?: unknown } | undefined;
    const executed = exchange.status === 200 && body !== undefined && body.data !== undefined;
    if (!valid) {
      if (executed)
        this.report.failures.push(`GraphQL: an invalid document was executed: ${request.query.slice(0, 80)}`);
      else this.report.graphqlInvalidRejected++;
    }
  }

  observeEvents(events: RecordedEvent[]): void {
    for (const event of events) {
      this.report.webhooks++;
      const name = `${event.event}$${event.action === '' ? 'event' : event.action}`;
      if (!this.report.webhookEvents.includes(name)) this.report.webhookEvents.push(name);
      let validator = this.compiled.get(`webhook ${name}`);
      if (!validator) {
        validator = this.webhookAjv.compile({ $ref: `webhooks#/definitions/${name}` });
        this.compiled.set(`webhook ${name}`, validator);
      }
      if (!validator(event.payload)) {
        const errors = (validator.errors ?? [])
          .slice(0, 5)
          .map((error) => `${error.instancePath} ${error.message ?? ''}`);
        this.report.failures.push(`webhook ${name}: ${errors.join('; ')}`);
      }
    }
  }

  write(): void {
    const target = process.env.WRIT_CONFORMANCE_REPORT;
    if (target) appendFileSync(target, `${JSON.stringify(this.report)}\n`);
  }
}
