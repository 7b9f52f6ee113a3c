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
