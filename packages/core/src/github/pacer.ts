/**
 * The client's pacer: content-creating requests paced to GitHub's guidance, not to its refusals.
 *
 * GitHub documents (docs.github.com, "Rate limits for the REST API" › secondary rate limits, and "Best
 * practices for using the REST API"): no more than 80 content-generating requests a minute and 500 an
 * hour, at least one second between mutative requests, and after a secondary-limit answer no request
 * before `retry-after` (else `x-ratelimit-reset` when `x-ratelimit-remaining` is 0, else a minute).
 *
 * - Content-creating: what `classifyRequest` (write-retry.ts) calls a write or a CAS write — a REST
 *   POST/PATCH/PUT/DELETE, a GraphQL document that is not plainly a query.
 * - Each is sent at least `minSpacingMs` (1000) after the previous one, never as the 81st in any 60 s,
 *   never past `hourlyBudget` (480, leaving room under GitHub's 500 for a person's or another tool's
 *   activity) in any 3600 s: sliding windows over the pacer's own send log, one send at a time.
 * - `expect(n)`: the caller's estimate of the content-creating requests it is about to make. While it
 *   exceeds what is left of the hour's budget, sends are spaced evenly at 3600 s / `hourlyBudget`
 *   (7.5 s at 480), so a long plan goes at the hour's pace from the start instead of bursting through the
 *   budget and then stalling for most of an hour (a stall that would outlast the run's lease). Without
 *   a hint, the sliding windows alone.
 * - A secondary-limit answer to any request holds every request of the client (reads too) until the wait
 *   it asks for has passed (`refused`). Whether the refused request is sent again is write-retry.ts's
 *   rule, not the pacer's.
 *
 * The pacer reads time from `now` and waits with `sleep`, so a test or a bench runs it on a virtual
 * clock (the emulator's: `now` reads it, `sleep` advances it). With pacing off (`false`) it never waits,
 * and still counts what passes and the refusals it sees.
 */
import type { Octokit } from '@octokit/core';
import { classifyRequest, secondaryLimitOf } from './write-retry.js';

/** The clock the pacer reads and waits on (default: `Date.now` and a timer). */
export interface PacingClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export interface PacingOptions extends PacingClock {
  /** Content-creating requests in any 3600 s. Default 480 (GitHub allows 500). */
  hourlyBudget?: number;
  /** The least spacing of content-creating requests, in ms. Default 1000 (GitHub asks for a second). */
  minSpacingMs?: number;
}

/** What the pacer did, for summaries and the bench. */
export interface PacerFigures {
  /** Content-creating requests that passed the pacer (each attempt, resends included). */
  contentCreating: number;
  /** Requests the pacer made wait (for spacing, a window or a hold). */
  paced: number;
  /** Their waits together, in ms of the pacer's clock. */
  waitedMs: number;
  largestWaitMs: number;
  /** Secondary-limit answers seen (each held the client). */
  refusals: number;
}

/** GitHub's documented ceiling on content-generating requests in any minute. */
export const CONTENT_CREATION_PER_MINUTE = 80;
export const DEFAULT_HOURLY_BUDGET = 480;
export const DEFAULT_MIN_SPACING_MS = 1000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

export const systemPacingClock: PacingClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** How many of `sends` (ascending) are later than `after`. */
function countAfter(sends: readonly number[], after: number): number {
  let low = 0;
  let high = sends.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((sends[middle] ?? 0) > after) high = middle;
    else low = middle + 1;
  }
  return sends.length - low;
}

export class Pacer {
  readonly enabled: boolean;
  readonly hourlyBudget: number;
  readonly minSpacingMs: number;
  private readonly clock: PacingClock;
  /** Content-creating sends, ascending, the last hour's (older ones are dropped as new ones come). */
  private sends: number[] = [];
  /** No request before this instant (a secondary-limit answer's wait). */
  private holdUntil = 0;
  /** Content-creating requests the caller still expects to make (`expect`), this one included. */
  private expected = 0;
  /** Content-creating requests take their turns one at a time. */
  private queue: Promise<void> = Promise.resolve();
  private readonly counts: PacerFigures = {
    contentCreating: 0,
    paced: 0,
    waitedMs: 0,
    largestWaitMs: 0,
    refusals: 0,
  };

  constructor(options: PacingOptions | false | undefined) {
    this.enabled = options !== false;
    const given = options === false || options === undefined ? undefined : options;
    this.clock = given ?? systemPacingClock;
    this.hourlyBudget = given?.hourlyBudget ?? DEFAULT_HOURLY_BUDGET;
    this.minSpacingMs = given?.minSpacingMs ?? DEFAULT_MIN_SPACING_MS;
    if (!Number.isInteger(this.hourlyBudget) || this.hourlyBudget < 1) {
      throw new RangeError(`hourlyBudget must be a positive integer, not ${String(this.hourlyBudget)}`);
    }
    if (!Number.isFinite(this.minSpacingMs) || this.minSpacingMs < 0) {
      throw new RangeError(`minSpacingMs must be 0 or more, not ${String(this.minSpacingMs)}`);
    }
  }

  now(): number {
    return this.clock.now();
  }

  /**
   * The caller's estimate of the content-creating requests it is about to make (replacing any earlier
   * one; each send counts it down). More than what is left of the hour's budget: even spacing.
   */
  expect(count: number): void {
    this.expected = Number.isFinite(count) ? Math.max(0, Math.floor(count)) : 0;
  }

  /** Whether the next content-creating request is spaced evenly (the hint exceeds the hour's room). */
  smooth(at: number = this.clock.now()): boolean {
    return this.smoothAt(this.sends, this.expected, at);
  }

  /**
   * How long, in ms from now, `count` more content-creating requests take at this pacing (the sends so
   * far, the hold, and `count` as the hint), until the last of them is sent: what a plan's writes cost
   * at GitHub's limits, before any reading or answer time.
   */
  plannedMs(count: number): number {
    const start = this.clock.now();
    const sends = [...this.sends];
    let at = start;
    for (let left = Math.max(0, Math.floor(count)); left > 0; left -= 1) {
      at = this.slot(sends, left, at);
      sends.push(at);
    }
    return at - start;
  }

  /**
   * How long every request still waits for a secondary-limit answer's hold, in ms (0: none): a caller
   * that cannot wait that long (a lease about to run out) hands over instead of sending.
   */
  heldForMs(): number {
    return this.enabled ? Math.max(0, this.holdUntil - this.clock.now()) : 0;
  }

  figures(): PacerFigures {
    return { ...this.counts };
  }

  /**
   * A secondary-limit answer was seen: every request waits `holdMs` from now (a longer hold already
   * running stands).
   */
  refused(holdMs: number): void {
    this.counts.refusals += 1;
    if (this.enabled) this.holdUntil = Math.max(this.holdUntil, this.clock.now() + holdMs);
  }

  /** Waits for a request's turn: a content-creating one for its slot, any for a hold to pass. */
  async admit(contentCreating: boolean): Promise<void> {
    if (!this.enabled) {
      if (contentCreating) this.record(this.clock.now());
      return;
    }
    const start = this.clock.now();
    if (contentCreating) {
      const turn = this.queue.then(() => this.takeSlot());
      this.queue = turn.catch(() => undefined);
      await turn;
    } else {
      await this.waitUntil(() => this.holdUntil);
    }
    const waited = this.clock.now() - start;
    if (waited > 0) {
      this.counts.paced += 1;
      this.counts.waitedMs += waited;
      this.counts.largestWaitMs = Math.max(this.counts.largestWaitMs, waited);
    }
  }

  private async waitUntil(target: () => number): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      const at = target();
      if (at <= now) return;
      await this.clock.sleep(at - now);
    }
  }

  private async takeSlot(): Promise<void> {
    await this.waitUntil(() => this.slot(this.sends, this.expected, this.clock.now()));
    this.record(this.clock.now());
    if (this.expected > 0) this.expected -= 1;
  }

  private record(at: number): void {
    this.counts.contentCreating += 1;
    const from = this.sends.length - countAfter(this.sends, at - HOUR_MS);
    if (from > 0) this.sends = this.sends.slice(from);
    this.sends.push(at);
  }

  private smoothAt(sends: readonly number[], expected: number, at: number): boolean {
    return expected > this.hourlyBudget - countAfter(sends, at - HOUR_MS);
  }

  /** The earliest instant, not before `now`, one more content-creating request may be sent. */
  private slot(sends: readonly number[], expected: number, now: number): number {
    let at = Math.max(now, this.holdUntil);
    const last = sends[sends.length - 1];
    if (last !== undefined) {
      const spacing = this.smoothAt(sends, expected, now)
        ? Math.max(this.minSpacingMs, HOUR_MS / this.hourlyBudget)
        : this.minSpacingMs;
      at = Math.max(at, last + spacing);
    }
    // The send that must leave each window before one more fits in it.
    const minuteLeaving = sends[sends.length - CONTENT_CREATION_PER_MINUTE];
    if (minuteLeaving !== undefined) at = Math.max(at, minuteLeaving + MINUTE_MS);
    const hourLeaving = sends[sends.length - this.hourlyBudget];
    if (hourLeaving !== undefined) at = Math.max(at, hourLeaving + HOUR_MS);
    return at;
  }
}

/**
 * The plugin: every request waits its turn at `pacer` before it is sent, and every answer that is a
 * secondary limit holds the client. Installed between the request deadline and plugin-throttling
 * (client.ts), so the deadline covers the send and not the wait, and throttling's resend of a read or
 * a CAS write waits its turn again.
 */
export function pacing(pacer: Pacer) {
  return function pacingPlugin(octokit: Octokit): Record<string, never> {
    octokit.hook.wrap('request', async (request, options) => {
      await pacer.admit(classifyRequest(options) !== 'read');
      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(options);
      } catch (error: unknown) {
        const limit = secondaryLimitOf(error, pacer.now());
        if (limit !== null) pacer.refused(limit.retryAfterSeconds * 1000);
        throw error;
      }
      const limit = secondaryLimitOf(response, pacer.now());
      if (limit !== null) pacer.refused(limit.retryAfterSeconds * 1000);
      return response;
    });
    return {};
  };
}
