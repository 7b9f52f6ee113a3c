/**
 * Injected faults: which one applies to a request (the first that matches and has fires left, drawn
 * against its seeded `probability`), and the replies of those that answer instead of the handler.
 * Where each type acts in the request's life is the server's business (see `server.ts`).
 */
import type { GraphQLRequestInfo } from './graphql.js';
import type { Reply } from './http.js';
import type { FaultSpec, World } from './state.js';

/** `*` is one path segment, `**` any number. */
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

/** The fault that applies to this request, counting the hit; null when none does. */
export function pickFault(
  world: World,
  method: string,
  path: string,
  gql: GraphQLRequestInfo | null,
): FaultSpec | null {
  for (const fault of world.faults) {
    if (fault.times !== null && fault.hits >= fault.times) continue;
    if (!faultMatches(fault, method, path, gql)) continue;
    if (fault.skip > 0) {
      fault.skip--;
      continue;
    }
    if (fault.probability !== null && world.random() >= fault.probability) continue;
    fault.hits++;
    return fault;
  }
  return null;
}

/** What a `status` or `secondary-rate-limit` fault answers instead of the handler; null for other types. */
export function faultReply(fault: FaultSpec | null, requestId: string): Reply | null {
  if (fault?.fault.type === 'status') {
    const status = fault.fault.status ?? 502;
    return {
      status,
      body: {
        message:
          status === 502
            ? 'Bad Gateway'
            : status === 503
              ? 'Service Unavailable'
              : status === 412
                ? 'Precondition Failed'
                : 'Server Error',
        status: String(status),
      },
    };
  }
  if (fault?.fault.type === 'secondary-rate-limit') {
    const status = fault.fault.status ?? 403;
    return {
      status,
      body: {
        message: `You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID ${requestId}.`,
        documentation_url:
          'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
        status: String(status),
      },
      headers: { 'retry-after': String(fault.fault.retry_after ?? 1) },
    };
  }
  return null;
}
