/**
 * The emulator's controllable clock. It flows with real time from the moment it was last set, unless
 * frozen, and everything time-dependent (the `Date` header, timestamps, rate-limit windows, commit dates)
 * reads it.
 */
export class Clock {
  private baseMs: number;
  private realAtBase: number;
  private frozen = false;

  constructor(startMs: number = Date.now()) {
    this.baseMs = startMs;
    this.realAtBase = Date.now();
  }

  now(): number {
    return this.frozen ? this.baseMs : this.baseMs + (Date.now() - this.realAtBase);
  }

  set(ms: number): void {
    this.baseMs = ms;
    this.realAtBase = Date.now();
  }

  advance(ms: number): void {
    this.set(this.now() + ms);
  }

  freeze(frozen: boolean): void {
    this.set(this.now());
    this.frozen = frozen;
  }

  isFrozen(): boolean {
    return this.frozen;
  }

  iso(ms: number = this.now()): string {
    return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  epochSeconds(): number {
    return Math.floor(this.now() / 1000);
  }
}

/** mulberry32: a small seeded PRNG, so fault probabilities replay identically for a given seed. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
