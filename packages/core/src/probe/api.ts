/**
 * The probe's view of GitHub: every request answered as an `Answer` (status, body, `etag`, a sanitized
 * error code), never thrown, so the classifier sees exactly what the surface said. Writes are sent once
 * (the client never retries a write, write-retry.ts; a lost answer is read back), and every
 * `Date` header is kept: evidence carries server time only.
 */
import { WritError } from '../errors.js';
import type { GitHubClient } from '../github/client.js';

export interface Answer {
  /** HTTP status; null when no response arrived (a dropped connection, a transport error). */
  status: number | null;
  data: unknown;
  etag: string | null;
  /** A sanitized error code (GraphQL `type`, REST `errors[].code`, or Writ's own), never a message. */
  errorCode: string | null;
  /** The response message, for attributing a refusal (never recorded). */
  message: string;
  /** A primary or secondary rate limit answered this request. */
  rateLimited: boolean;
}

export interface ProbeRequestOptions {
  headers?: Record<string, string>;
  /** A write (sent once, as the client sends every write). */
  write?: boolean;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** Lower-case `[a-z0-9_-]`, at most 64 characters, as the evidence schema's `error_code` wants. */
export function sanitizeCode(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const code = value
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 64);
  return code === '' ? null : code;
}

const RATE_LIMIT = /\b(?:secondary rate|rate limit exceeded)\b/i;

function restErrorCode(status: number, body: Record<string, unknown>, message: string): string | null {
  const errors = Array.isArray(body.errors) ? body.errors : [];
  const first = record(errors[0]);
  if (typeof first.code === 'string') return sanitizeCode(first.code);
  if (/secondary rate/i.test(message)) return 'secondary_rate_limit';
  if (/rate limit exceeded/i.test(message)) return 'rate_limit';
  if (/reference already exists/i.test(message)) return 'reference_already_exists';
  if (/not a fast.forward/i.test(message)) return 'not_fast_forward';
  if (status === 412) return 'precondition_failed';
  return null;
}

export class ProbeApi {
  /** Server times seen (ms since epoch, from `Date` headers), in order. */
  readonly serverTimes: number[] = [];
  /** Requests sent (reads and writes), for the summary. */
  requests = 0;

  constructor(private readonly github: GitHubClient) {}

  private note(headers: unknown): void {
    const date = record(headers).date;
    const at = typeof date === 'string' ? Date.parse(date) : Number.NaN;
    if (Number.isFinite(at)) this.serverTimes.push(at);
  }

  /** The last server time seen, RFC 3339 to the second; null before any answer. */
  now(): string | null {
    const last = this.serverTimes[this.serverTimes.length - 1];
    return last === undefined ? null : serverTime(last);
  }

  async rest(
    route: string,
    params: Record<string, unknown>,
    options: ProbeRequestOptions = {},
  ): Promise<Answer> {
    this.requests += 1;
    try {
      const response = await this.github.request(route, {
        ...params,
        ...(options.headers === undefined ? {} : { headers: options.headers }),
      });
      this.note(response.headers);
      const etag = record(response.headers).etag;
      return {
        status: response.status,
        data: response.data,
        etag: typeof etag === 'string' ? etag : null,
        errorCode: null,
        message: '',
        rateLimited: false,
      };
    } catch (error: unknown) {
      return this.failed(error);
    }
  }

  async graphql(
    query: string,
    variables: Record<string, unknown>,
    options: ProbeRequestOptions = {},
  ): Promise<Answer> {
    const answer = await this.rest('POST /graphql', { query, variables }, options);
    if (answer.status !== 200) return answer;
    const body = record(answer.data);
    const errors = Array.isArray(body.errors) ? body.errors.map(record) : [];
    if (errors.length === 0) return answer;
    const type = errors[0]?.type;
    const message = errors.map((error) => (typeof error.message === 'string' ? error.message : '')).join(' ');
    return {
      ...answer,
      errorCode: sanitizeCode(type) ?? 'graphql_error',
      message,
      rateLimited: type === 'RATE_LIMITED' || type === 'RATE_LIMIT',
    };
  }

  private failed(thrown: unknown): Answer {
    // A write refused by a secondary limit fails with the coded `secondary-rate-limit` (write-retry.ts);
    // GitHub's answer is its cause.
    const error =
      thrown instanceof WritError && thrown.code === 'secondary-rate-limit' ? thrown.cause : thrown;
    const response = record(record(error).response);
    const status = typeof response.status === 'number' ? response.status : null;
    if (status === null) {
      return {
        status: null,
        data: null,
        etag: null,
        errorCode: 'transport',
        message: '',
        rateLimited: false,
      };
    }
    this.note(response.headers);
    const body = record(response.data);
    const message = typeof body.message === 'string' ? body.message : '';
    const headers = record(response.headers);
    const rateLimited =
      status === 429 ||
      (status === 403 && (RATE_LIMIT.test(message) || headers['x-ratelimit-remaining'] === '0'));
    return {
      status,
      data: response.data ?? null,
      etag: null,
      errorCode: restErrorCode(status, body, message),
      message,
      rateLimited,
    };
  }
}

/** RFC 3339 UTC to the second. */
export function serverTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function ok(answer: Answer | null): boolean {
  return (
    answer !== null &&
    answer.status !== null &&
    answer.status >= 200 &&
    answer.status < 300 &&
    answer.errorCode === null
  );
}
