/**
 * The pacer on a virtual clock (its `sleep` moves the clock, so nothing waits real time): spacing,
 * 80 in any minute, the hourly budget, even spacing under an `expect` hint larger than the hour's room,
 * the hold after a secondary-limit answer, pacing off, and what `plannedMs` predicts.
 */
import { describe, expect, it } from '@jest/globals';
import { Pacer } from '../../src/github/pacer.js';
import type { PacingOptions } from '../../src/github/pacer.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;

function virtual(start = 1_000_000): PacingOptions & { sleeps: number[] } {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: (ms: number) => {
      sleeps.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
}

/** Sends `count` content-creating requests one after another; the clock at each send, from the first. */
async function sendTimes(pacer: Pacer, clock: PacingOptions, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < count; index += 1) {
    await pacer.admit(true);
    times.push(clock.now());
  }
  const first = times[0] ?? 0;
  return times.map((at) => at - first);
}

describe('the pacer (content-creating requests paced to GitHub’s guidance)', () => {
  it('spaces content-creating requests a second apart; a read is not spaced', async () => {
    const clock = virtual();
    const pacer = new Pacer(clock);
    expect(await sendTimes(pacer, clock, 4)).toEqual([0, 1000, 2000, 3000]);
    const before = clock.now();
    await pacer.admit(false);
    expect(clock.now()).toBe(before);
    expect(pacer.figures()).toMatchObject({
      contentCreating: 4,
      paced: 3,
      waitedMs: 3000,
      largestWaitMs: 1000,
    });
  });

  it('takes concurrent content-creating requests one at a time', async () => {
    const clock = virtual();
    const pacer = new Pacer(clock);
    await Promise.all([0, 1, 2].map(() => pacer.admit(true)));
    expect(clock.sleeps).toEqual([1000, 1000]);
    expect(clock.now()).toBe(1_000_000 + 2000);
  });

  it('never sends more than 80 in any 60 s', async () => {
    const clock = virtual();
    const pacer = new Pacer({ ...clock, minSpacingMs: 0 });
    const times = await sendTimes(pacer, clock, 161);
    expect(times.slice(0, 80).every((at) => at === 0)).toBe(true);
    expect(times[80]).toBe(MINUTE);
    expect(times[159]).toBe(MINUTE);
    expect(times[160]).toBe(2 * MINUTE);
    for (let index = 80; index < times.length; index += 1) {
      expect((times[index] ?? 0) - (times[index - 80] ?? 0)).toBeGreaterThanOrEqual(MINUTE);
    }
  });

  it('never sends more than the hourly budget in any 3600 s (480 by default)', async () => {
    const clock = virtual();
    const pacer = new Pacer({ ...clock, minSpacingMs: 0, hourlyBudget: 100 });
    const times = await sendTimes(pacer, clock, 101);
    expect(times[99]).toBe(MINUTE);
    expect(times[100]).toBe(HOUR);
    const other = virtual();
    const byDefault = new Pacer({ ...other, minSpacingMs: 0 });
    expect(byDefault.hourlyBudget).toBe(480);
    const many = await sendTimes(byDefault, other, 481);
    expect(many[479]).toBe(5 * MINUTE);
    expect(many[480]).toBe(HOUR);
  });

  it('spaces evenly at 3600 s / budget while the expected writes exceed the hour’s room, then at a second', async () => {
    const clock = virtual();
    const pacer = new Pacer({ ...clock, hourlyBudget: 10 });
    pacer.expect(12);
    expect(pacer.smooth()).toBe(true);
    const times = await sendTimes(pacer, clock, 12);
    // 12 expected, room for 10: every send 360 s after the one before, never a burst then a stall.
    expect(times).toEqual(Array.from({ length: 12 }, (_, index) => index * 360_000));
    const fits = virtual();
    const short = new Pacer({ ...fits, hourlyBudget: 10 });
    short.expect(10);
    expect(short.smooth()).toBe(false);
    expect(await sendTimes(short, fits, 10)).toEqual(Array.from({ length: 10 }, (_, index) => index * 1000));
  });

  it('keeps the hour’s pace while more is expected than the hour has room for', async () => {
    const clock = virtual();
    const pacer = new Pacer(clock);
    // 482 expected, 480 of room: 7.5 s apart all the way, the hour's budget never passed in any 3600 s.
    expect(pacer.plannedMs(482)).toBe(481 * 7500);
    pacer.expect(482);
    expect(await sendTimes(pacer, clock, 4)).toEqual([0, 7500, 15_000, 22_500]);
    // A new estimate replaces the old one: none left, a second's spacing.
    pacer.expect(0);
    const before = clock.now();
    await pacer.admit(true);
    expect(clock.now() - before).toBe(1000);
  });

  it('holds every request after a secondary-limit answer, then paces on from the hold', async () => {
    const clock = virtual();
    const pacer = new Pacer(clock);
    await pacer.admit(true);
    const refusedAt = clock.now();
    pacer.refused(30_000);
    pacer.refused(5_000);
    expect(pacer.heldForMs()).toBe(30_000);
    await pacer.admit(false);
    expect(pacer.heldForMs()).toBe(0);
    expect(clock.now()).toBe(refusedAt + 30_000);
    await pacer.admit(true);
    expect(clock.now()).toBe(refusedAt + 30_000);
    await pacer.admit(true);
    expect(clock.now()).toBe(refusedAt + 31_000);
    expect(pacer.figures()).toEqual({
      contentCreating: 3,
      paced: 2,
      waitedMs: 31_000,
      largestWaitMs: 30_000,
      refusals: 2,
    });
  });

  it('with pacing off never waits, and still counts what passes and the refusals seen', async () => {
    const pacer = new Pacer(false);
    const started = Date.now();
    for (let index = 0; index < 200; index += 1) await pacer.admit(true);
    pacer.refused(60_000);
    expect(pacer.heldForMs()).toBe(0);
    await pacer.admit(false);
    expect(pacer.enabled).toBe(false);
    expect(pacer.figures()).toEqual({
      contentCreating: 200,
      paced: 0,
      waitedMs: 0,
      largestWaitMs: 0,
      refusals: 1,
    });
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it('predicts what n more content-creating requests take at these limits (plannedMs)', async () => {
    const clock = virtual();
    const pacer = new Pacer(clock);
    expect(pacer.plannedMs(0)).toBe(0);
    expect(pacer.plannedMs(1)).toBe(0);
    expect(pacer.plannedMs(200)).toBe(199_000);
    // 1,000 do not fit an hour of 480: even spacing all the way.
    expect(pacer.plannedMs(1000)).toBe(999 * 7500);
    expect(pacer.plannedMs(480)).toBe(479_000);
    // Predicting sends nothing and moves no clock.
    expect(clock.now()).toBe(1_000_000);
    expect(pacer.figures().contentCreating).toBe(0);
    await pacer.admit(true);
    pacer.refused(10_000);
    expect(pacer.plannedMs(2)).toBe(11_000);
  });

  it('refuses figures it cannot pace by', () => {
    expect(() => new Pacer({ ...virtual(), hourlyBudget: 0 })).toThrow(/hourlyBudget/);
    expect(() => new Pacer({ ...virtual(), minSpacingMs: -1 })).toThrow(/minSpacingMs/);
  });
});
