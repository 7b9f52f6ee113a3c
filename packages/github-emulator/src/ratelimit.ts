/** Primary rate-limit accounting per token and resource, on the emulator's clock. */
import type { Token, World } from './state.js';

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

export function rateHeaders(state: RateState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(state.remaining),
    'x-ratelimit-reset': String(state.reset),
    'x-ratelimit-used': String(state.used),
    'x-ratelimit-resource': state.resource,
  };
}
