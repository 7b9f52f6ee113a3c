import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { canonicalize } from '../src/canonical-json.js';
import { IJsonError, numberProblem, parseIJson } from '../src/i-json.js';
import type { IJsonErrorKind } from '../src/i-json.js';

const LIMITS = { maxDepth: 32, maxStringLength: 64 };

function parse(text: string, limits = LIMITS): unknown {
  return parseIJson(text, limits);
}

function refusal(text: string, limits = LIMITS): { kind: IJsonErrorKind; message: string } {
  try {
    parse(text, limits);
  } catch (error: unknown) {
    if (error instanceof IJsonError) return { kind: error.kind, message: error.message };
    throw error;
  }
  throw new Error(`accepted ${text}`);
}

describe('I-JSON parser: what JSON.parse accepts and I-JSON keeps', () => {
  it.each([
    ['{}', {}],
    ['[]', []],
    [
      ' \t\r\n{"a" : [1, -2.5, 0.1, 1e-7, 1E+2, true, false, null, "x"]} \n',
      {
        a: [1, -2.5, 0.1, 1e-7, 100, true, false, null, 'x'],
      },
    ],
    ['"\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\\u20AC\\ud83d\\ude00"', '"\\/\b\f\n\r\tAé€😀'],
    ['"😀 raw pair"', '😀 raw pair'],
    ['9007199254740991', 9007199254740991],
    ['-9007199254740991', -9007199254740991],
    ['5e-324', 5e-324],
    ['-1.5e-300', -1.5e-300],
    ['1.50', 1.5],
    ['0.000', 0],
    ['-0', -0],
    ['{"a":{"b":{}}}', { a: { b: {} } }],
  ])('parses %j exactly as JSON.parse does', (text, value) => {
    expect(parse(text)).toEqual(value);
    expect(parse(text)).toEqual(JSON.parse(text));
  });

  it('matches JSON.parse on every JSON text of values I-JSON holds, and canonicalizes them', () => {
    const safe = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.maxSafeInteger(),
        fc.double({ noNaN: true, min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
        fc.string({ unit: 'grapheme', maxLength: 20 }),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(safe, (value) => {
        const text = JSON.stringify(value);
        const parsed = parse(text, { maxDepth: 64, maxStringLength: 1000 });
        expect(parsed).toEqual(JSON.parse(text));
        expect(canonicalize(parsed)).toBe(canonicalize(JSON.parse(text)));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a member named __proto__ as data, never as the prototype', () => {
    const value = parse('{"__proto__": {"polluted": true}, "constructor": 1}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(canonicalize(value)).toBe('{"__proto__":{"polluted":true},"constructor":1}');
  });
});

describe('I-JSON parser: refusals', () => {
  it.each([
    ['{"a":1,"a":2}', /duplicate member name "a" at \/ \(line 1, column 8\)/],
    ['{"a":{"b":1,"b":1}}', /duplicate member name "b" at \/a /],
    ['{"\\u0061":1,"a":2}', /duplicate member name "a"/],
    ['{"__proto__":1,"__proto__":2}', /duplicate member name "__proto__"/],
  ])('refuses duplicate member names: %j', (text, message) => {
    expect(refusal(text)).toEqual({ kind: 'i-json', message: expect.stringMatching(message) as unknown });
  });

  it.each([
    '"\\ud800"',
    '"\\udfff"',
    '"\\ud800x"',
    '"\\ud800\\u0041"',
    '"\\ud800\\ud800"',
    '"\\udc00\\ud800"',
    '{"\\ud800":1}',
    '"\ud800"',
    '"\udc00"',
    '"a\ud800b"',
    '"\ud800\\udc00"',
  ])('refuses a lone surrogate, escaped or raw: %j', (text) => {
    expect(refusal(text)).toEqual({
      kind: 'i-json',
      message: expect.stringMatching(/lone UTF-16 surrogate/) as unknown,
    });
  });

  it.each([
    ['1e400', /outside the range of an IEEE 754 double/],
    ['-1e400', /outside the range/],
    ['1.8e308', /outside the range/],
    ['9007199254740992', /beyond ±\(2\^53−1\)/],
    ['9007199254740993', /beyond/],
    ['-9007199254740993', /beyond/],
    ['9007199254740993.0', /beyond/],
    ['9.007199254740993e15', /beyond/],
    ['1e300', /beyond/],
    ['1.7976931348623157e308', /beyond/],
    ['1E+21', /beyond/],
    ['123456789012345678901234567890', /beyond/],
    ['0.10000000000000001', /not exactly an IEEE 754 double \(it would be read as 0\.1\)/],
    ['3.141592653589793238462643383279', /not exactly/],
    ['1e-400', /not exactly.*read as 0\)/],
    ['-1e-400', /not exactly/],
  ])('refuses a number a double cannot hold exactly: %s', (text, message) => {
    expect(refusal(`{"n":${text}}`)).toEqual({
      kind: 'i-json',
      message: expect.stringMatching(message) as unknown,
    });
  });

  it('never lets two distinct numbers share a canonical form', () => {
    // The pairs JSON.parse conflates; I-JSON keeps one of each and refuses the other.
    for (const [kept, refused] of [
      ['9007199254740991', '9007199254740991.4'],
      ['0.1', '0.10000000000000001'],
      ['0', '1e-400'],
    ] as const) {
      expect(canonicalize(JSON.parse(kept))).toBe(canonicalize(JSON.parse(refused)));
      expect(canonicalize(parse(kept))).toBe(canonicalize(JSON.parse(kept)));
      expect(refusal(refused).kind).toBe('i-json');
    }
  });

  it('accepts exactly the numbers whose double reads back as the same decimal', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const text = JSON.stringify(value);
        expect(numberProblem(text, Number(text)) === undefined).toBe(
          Math.abs(value) <= Number.MAX_SAFE_INTEGER,
        );
      }),
      { numRuns: 500 },
    );
  });

  it('bounds nesting depth before descending: 32 levels pass, 33 do not, 100000 do not overflow the stack', () => {
    const nested = (n: number, open = '[', close = ']') => `${open.repeat(n)}${close.repeat(n)}`;
    expect(() => parse(nested(32))).not.toThrow();
    expect(refusal(nested(33))).toEqual({
      kind: 'i-json',
      message: expect.stringMatching(
        /^nesting is deeper than 32 levels at \/0\/0\/.*\/0 \(line 1, column 33\)$/,
      ) as unknown,
    });
    expect(refusal(nested(100_000)).kind).toBe('i-json');
    expect(refusal(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`).kind).toBe('i-json');
    expect(refusal('[{"a":'.repeat(50_000)).kind).toBe('i-json');
  });

  it('bounds string length, member names included, in code points', () => {
    expect(parse(`"${'x'.repeat(64)}"`)).toBe('x'.repeat(64));
    expect(parse(`"${'😀'.repeat(64)}"`)).toBe('😀'.repeat(64));
    expect(parse(`"${'\\u0041'.repeat(64)}"`)).toBe('A'.repeat(64));
    expect(refusal(`"${'x'.repeat(65)}"`)).toEqual({
      kind: 'i-json',
      message: 'a string is longer than 64 characters at / (line 1, column 1)',
    });
    expect(refusal(`{"${'k'.repeat(65)}":1}`).kind).toBe('i-json');
    expect(refusal(`"${'\\u0041'.repeat(65)}"`).kind).toBe('i-json');
    expect(refusal(`["${'x'.repeat(1_000_000)}`).kind).toBe('i-json');
  });

  it.each([
    '',
    ' ',
    '{',
    '{"a":1,}',
    '[1,]',
    '[1 2]',
    '{"a" 1}',
    '{a:1}',
    "{'a':1}",
    '01',
    '-',
    '1.',
    '.5',
    '1e',
    '+1',
    'NaN',
    'Infinity',
    '-Infinity',
    'tru',
    'nul',
    '"abc',
    '"a\nb"',
    '"a\u0000b"',
    '"\\x41"',
    '"\\u12"',
    '"\\u12G4"',
    '{} {}',
    '\ufeff{}',
    '\u00a0{}',
    '{"a":1}//',
  ])('refuses text that is not JSON as a syntax error: %j', (text) => {
    expect(refusal(text).kind).toBe('syntax');
  });

  it('names the line and column, and never prints the text raw', () => {
    const { message } = refusal('{\n  "\\u001b]8;;http://x\\u0007": [1,\n   \u001b[31m]}');
    expect(message).toBe(
      'expected a JSON value, found "\\u001b" at /\\u001b]8;;http:~1~1x\\u0007/1 (line 3, column 4)',
    );
    expect(message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    const duplicate = refusal(`{"\u202e${'k'.repeat(60)}":1,"\u202e${'k'.repeat(60)}":2}`).message;
    expect(duplicate).toMatch(/^duplicate member name "\\u202ek{39}"… at \/ /);
  });
});
