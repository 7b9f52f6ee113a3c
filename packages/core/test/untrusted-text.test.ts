import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { escapeUntrusted, quoteUntrusted, truncateCodePoints } from '../src/untrusted-text.js';

/** What must never reach a log line raw: C0/C1 controls (ESC, CSI, OSC, BEL, CR, LF), bidi and format characters, separators, lone surrogates. */
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]|[\ud800-\udfff]/u;

describe('untrusted text in log and error lines', () => {
  it.each([
    [
      '\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007',
      '\\u001b]8;;https://evil.example\\u0007click\\u001b]8;;\\u0007',
    ],
    ['\u001b[2J\u001b[31mred', '\\u001b[2J\\u001b[31mred'],
    ['\u009b31m\u009d0;title\u009c', '\\u009b31m\\u009d0;title\\u009c'],
    ['line\n::add-mask::x\r', 'line\\u000a::add-mask::x\\u000d'],
    ['abc\u202egnp.exe', 'abc\\u202egnp.exe'],
    ['zero\u200bwidth\ufeff', 'zero\\u200bwidth\\ufeff'],
    ['sep\u2028\u2029', 'sep\\u2028\\u2029'],
    ['lone \ud800 and \udfff', 'lone \\ud800 and \\udfff'],
    ['pair 😀 kept', 'pair 😀 kept'],
    ['back\\slash', 'back\\\\slash'],
  ])('escapes %j', (raw, escaped) => {
    expect(escapeUntrusted(raw)).toBe(escaped);
    expect(escapeUntrusted(raw)).not.toMatch(UNSAFE);
  });

  it('quotes with the quote escaped, and truncates by code points outside the quotes', () => {
    expect(quoteUntrusted('say "hi"\\')).toBe('"say \\"hi\\"\\\\"');
    expect(quoteUntrusted('x'.repeat(100), 5)).toBe('"xxxxx"…');
    expect(escapeUntrusted('😀'.repeat(10), 3)).toBe('😀😀😀…');
    expect(truncateCodePoints('😀😀', 1)).toEqual({ text: '😀', truncated: true });
    expect(truncateCodePoints('😀😀', 2)).toEqual({ text: '😀😀', truncated: false });
  });

  it('never lets an unsafe character through, and bounds the length, whatever the input', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.integer({ min: 1, max: 100 }),
        (text, max) => {
          for (const out of [escapeUntrusted(text, max), quoteUntrusted(text, max)]) {
            expect(out).not.toMatch(UNSAFE);
            expect(Array.from(out).length).toBeLessThanOrEqual(max * 12 + 3);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
