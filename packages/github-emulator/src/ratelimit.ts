/** Primary rate-limit accounting per token and resource, on the emulator's clock, and the limit's reply. */
import type { Reply } from './http.js';
import type { FaultSpec, Token, World } from './state.js';

export interface RateState {
  limit: number;
  remaining: number;
  used: number;
  reset: number;
  resource: string;
}

function limitFor(token: Token | null): number {
  if (!token) return 60;
  if (token.kind === 'github_token') return 1000;
  return 5000;
}

function windowKey(token: Token | null, resource: string): string {
  return `${token ? `t:${token.token}` : 'anonymous'}:${resource}`;
}

/** Reads (and with `consume`, counts one request against) a token's window for a resource. */
export function rateState(world: World, token: Token | null, resource: string, consume: boolean): RateState {
  const key = windowKey(token, resource);
  const now = world.clock.now();
  let window = world.rateWindows.get(key);
  if (!window || window.resetAt <= now) {
    window = { resetAt: now + 3600_000, used: 0 };
    world.rateWindows.set(key, window);
  }
  const limit = limitFor(token);
  if (consume) window.used++;
  return {
    limit,
    used: window.used,
    remaining: Math.max(0, limit - window.used),
    reset: Math.floor(window.resetAt / 1000),
    resource,
  };
}

/**
 * Gives back one request counted against a token's window: a conditional GET answered 304 while
 * authorized does not count against the primary limit, as GitHub documents.
 */
export function refundRequest(world: World, token: Token | null, resource: string): void {
  const window = world.rateWindows.get(windowKey(token, resource));
  if (window && window.used > 0) window.used--;
}

export function rateHeaders(state: RateState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(state.remaining),
    'x-ratelimit-reset': String(state.reset),
    'x-ratelimit-used': String(state.used),
    'x-ratelimit-resource': state.resource,
  };
}

/** How GitHub names the caller in a rate-limit message. */
function callerName(token: Token | null): string {
  if (!token) return 'anonymous';
  return token.kind === 'pat'
    ? `user ID ${token.account.id}`
    : `installation ID ${token.app?.installation_id ?? 0}`;
}

/**
 * GitHub's answer when the caller's window is spent or a `primary-rate-limit` fault fires (REST: 403 or
 * the fault's status; GraphQL: 200 with a `RATE_LIMIT` error), with `x-ratelimit-remaining: 0`; null
 * while requests remain. Does not count the request.
 */
export function primaryLimitReply(
  world: World,
  token: Token | null,
  resource: 'core' | 'graphql',
  fault: FaultSpec | null,
): Reply | null {
  const before = rateState(world, token, resource, false);
  const injected = fault?.fault.type === 'primary-rate-limit';
  if (before.remaining !== 0 && !injected) return null;
  const reset = injected ? world.clock.epochSeconds() + (fault.fault.retry_after ?? 60) : before.reset;
  const headers = rateHeaders({ ...before, remaining: 0, reset });
  const who = callerName(token);
  if (resource === 'graphql') {
    return {
      status: 200,
      body: {
        errors: [
          {
            type: 'RATE_LIMIT',
            code: 'graphql_rate_limit',
            message: `API rate limit already exceeded for ${who}.`,
          },
        ],
      },
      headers,
    };
  }
  // The fault's status, whichever fault matched (a spent window with, say, a latency fault keeps it too).
  const status = fault?.fault.status ?? 403;
  return {
    status,
    body: {
      message: `API rate limit exceeded for ${who}.`,
      documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
      status: String(status),
    },
    headers,
  };
}
