import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { CanonicalJsonError, bareHex, canonicalize, digest } from '../src/canonical-json.js';

function fromHex(hex: string): number {
  return Buffer.from(hex, 'hex').readDoubleBE(0);
}

describe('RFC 8785 canonical JSON', () => {
  it('matches the RFC 8785 §3.2.2 example', () => {
    const input =
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
      ' "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}';
    expect(canonicalize(JSON.parse(input))).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts properties by UTF-16 code units as in RFC 8785 §3.2.3', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    expect(canonicalize(input).indexOf('"\\r"')).toBeLessThan(canonicalize(input).indexOf('"1"'));
    expect(canonicalize(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
        '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  // RFC 8785 Appendix B: IEEE 754 bit patterns and their required serialization.
  it.each([
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ])('serializes the double %s as %s (RFC 8785 Appendix B)', (hex, expected) => {
    expect(canonicalize(fromHex(hex))).toBe(expected);
  });

  it.each([['7fffffffffffffff'], ['7ff0000000000000'], ['fff0000000000000']])(
    'refuses the non-finite double %s',
    (hex) => {
      expect(() => canonicalize(fromHex(hex))).toThrow(CanonicalJsonError);
    },
  );

  it('refuses lone surrogates, undefined, functions and non-plain objects', () => {
    expect(() => canonicalize('\ud800')).toThrow(/lone UTF-16 surrogate/);
    expect(() => canonicalize({ a: '\udc00x' })).toThrow(/at \/a/);
    expect(() => canonicalize({ a: undefined })).toThrow(/undefined/);
    expect(() => canonicalize(() => 1)).toThrow(/function/);
    expect(() => canonicalize(new Date(0))).toThrow(/plain objects/);
    expect(canonicalize('\ud83d\ude00')).toBe('"😀"');
  });
});

describe('digest', () => {
  it('is sha256 of the canonical UTF-8 bytes', () => {
    // Computed independently: printf '%s' '{"a":[true,null],"b":1}' | sha256sum
    expect(digest({ b: 1, a: [true, null] })).toBe(
      'sha256:51705a2c9eb3e7e410a58f696a770c3ac3885a0cf43eb7fc88f5e47c11d4d30d',
    );
    expect(digest('')).toBe('sha256:12ae32cb1ec02d01eda3581b127c1fee3b0dc53572ed6baf239721a03d82e126');
    expect(bareHex(digest(1))).toMatch(/^[0-9a-f]{64}$/);
  });

  const json = fc.jsonValue({ maxDepth: 4 });

  it('ignores key order (property)', () => {
    fc.assert(
      fc.property(json, (value) => {
        const shuffled = JSON.parse(JSON.stringify(value, (_k, v: unknown) => reverseKeys(v))) as unknown;
        expect(digest(shuffled)).toBe(digest(value));
      }),
      { numRuns: 300 },
    );
  });

  it('ignores insignificant whitespace (property)', () => {
    fc.assert(
      fc.property(json, fc.constantFrom(0, 1, 2, '\t', ' \n '), (value, indent) => {
        expect(digest(JSON.parse(JSON.stringify(value, null, indent)))).toBe(digest(value));
      }),
      { numRuns: 300 },
    );
  });

  it('ignores number spelling: 1.0, 1, 1e0 and 10e-1 are one number (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), (n) => {
        const spellings = [`${n}`, `${n}.0`, `${n}.000`, `${n}e0`, `${n * 10}e-1`];
        const digests = new Set(spellings.map((s) => digest(JSON.parse(`{"n":${s}}`))));
        expect(digests.size).toBe(1);
      }),
      { numRuns: 300 },
    );
  });

  it('changes when any value changes (property)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), json, { minKeys: 1 }),
        fc.nat(),
        json,
        (record, pick, replacement) => {
          const keys = Object.keys(record);
          const key = keys[pick % keys.length]!;
          fc.pre(canonicalize(record[key]) !== canonicalize(replacement));
          expect(digest({ ...record, [key]: replacement })).not.toBe(digest(record));
        },
      ),
      { numRuns: 300 },
    );
  });
});

function reverseKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).reverse());
}
