/**
 * A strict parser for I-JSON (RFC 7493), the JSON profile RFC 8785 canonicalization presumes.
 *
 * `JSON.parse` keeps the last of two duplicate keys, turns `1e400` into Infinity, rounds
 * 9007199254740993 to 9007199254740992 and accepts lone surrogates, so two plans a consumer reads
 * differently could share a digest. This parser refuses all of that, and bounds the nesting depth and
 * every string's length before it descends or copies, so no input can exhaust the stack or the heap.
 *
 * Written here rather than taken from a package: it is small, it must refuse (not coerce) exactly what
 * RFC 7493 forbids, and it must name where, with untrusted text escaped.
 */
import type { JsonValue } from './canonical-json.js';
import { escapeUntrusted, quoteUntrusted } from './untrusted-text.js';

export interface IJsonLimits {
  /** The deepest nesting of arrays and objects accepted; the top-level value is at depth 1. */
  maxDepth: number;
  /** The longest string (member names included) accepted, in Unicode code points, after unescaping. */
  maxStringLength: number;
}

/**
 * `syntax`: not JSON text at all (RFC 8259). `i-json`: JSON, but outside I-JSON or Writ's bounds
 * (duplicate key, lone surrogate, a number a double cannot hold exactly, too deep, too long).
 */
export type IJsonErrorKind = 'syntax' | 'i-json';

export class IJsonError extends Error {
  constructor(
    readonly kind: IJsonErrorKind,
    /** What is wrong, with any untrusted text already escaped and truncated. */
    readonly reason: string,
    /** The JSON pointer of the value being read (member names escaped for display). */
    readonly pointer: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} at ${pointer === '' ? '/' : pointer} (line ${line}, column ${column})`);
    this.name = 'IJsonError';
  }
}

/** ±(2^53 − 1): the integers every I-JSON receiver holds exactly (RFC 7493 §2.2). */
const MAX_EXACT_INTEGER = Number.MAX_SAFE_INTEGER;

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

/**
 * A finite decimal as sign, significant digits (no leading or trailing zeros) and power of ten, so
 * two spellings of one value compare equal (`1.50e1` and `15`). Zero is `{ digits: '' }`.
 */
function decimalOf(text: string): { negative: boolean; digits: string; exponent: number } {
  const match = /^(-?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  if (!match) throw new Error(`not a decimal: ${text.slice(0, 40)}`);
  const [, sign = '', whole = '', fraction = '', exp = '0'] = match;
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  // Exponents beyond ±2^53 only reach here with no significant digits (the value is zero): the byte
  // bound keeps a finite, non-zero number's exponent small.
  let exponent = Number.parseInt(exp, 10) - fraction.length;
  const trailing = /0*$/.exec(digits)?.[0].length ?? 0;
  digits = digits.slice(0, digits.length - trailing);
  exponent += trailing;
  return digits === ''
    ? { negative: false, digits: '', exponent: 0 }
    : { negative: sign === '-', digits, exponent };
}

/**
 * Why a JSON number is not I-JSON, or undefined when its double holds it exactly: finite; within
 * ±(2^53 − 1) (every number beyond is an integer, as JSON Schema counts them, so `1e21` is refused
 * like 9007199254740993); and with no more precision than the double's shortest round-trip form
 * (`0.1` is fine, `0.10000000000000001` and `1e-400` are not: they would silently become `0.1` and
 * `0`). So two numbers I-JSON accepts never share a canonical form (`-0` and `0` are one value).
 */
export function numberProblem(text: string, value: number): string | undefined {
  const shown = quoteUntrusted(text, 40);
  if (!Number.isFinite(value)) return `number ${shown} is outside the range of an IEEE 754 double`;
  if (Math.abs(value) > MAX_EXACT_INTEGER) return `number ${shown} is beyond ±(2^53−1)`;
  const written = decimalOf(text);
  const held = decimalOf(String(value));
  if (
    written.digits !== held.digits ||
    written.exponent !== held.exponent ||
    (written.digits !== '' && written.negative !== held.negative)
  ) {
    return `number ${shown} is not exactly an IEEE 754 double (it would be read as ${String(value)})`;
  }
  return undefined;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

const ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

class Parser {
  private at = 0;
  /** Member names and indices from the top-level value down to the one being read. */
  private readonly path: (string | number)[] = [];

  constructor(
    private readonly text: string,
    private readonly limits: IJsonLimits,
  ) {}

  parseDocument(): JsonValue {
    this.skipWhitespace();
    const value = this.parseValue(1);
    this.skipWhitespace();
    if (this.at < this.text.length) this.fail('syntax', `unexpected ${this.describeHere()} after the value`);
    return value;
  }

  private fail(kind: IJsonErrorKind, reason: string, at = this.at): never {
    const before = this.text.slice(0, at);
    const line = (before.match(/\n/g)?.length ?? 0) + 1;
    const column = at - (before.lastIndexOf('\n') + 1) + 1;
    const pointer = this.path
      .map((part) => `/${escapeUntrusted(String(part).replace(/~/g, '~0').replace(/\//g, '~1'), 40)}`)
      .join('');
    throw new IJsonError(kind, reason, pointer, line, column);
  }

  /** The character at the cursor, for a syntax error: escaped, or "the end of the text". */
  private describeHere(): string {
    const char = this.text.codePointAt(this.at);
    return char === undefined ? 'the end of the text' : quoteUntrusted(String.fromCodePoint(char), 1);
  }

  private skipWhitespace(): void {
    const text = this.text;
    let at = this.at;
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) at += 1;
      else break;
    }
    this.at = at;
  }

  private parseValue(depth: number): JsonValue {
    const c = this.text.charCodeAt(this.at);
    switch (c) {
      case 0x7b: // {
      case 0x5b: // [
        // The bound is checked before descending, so recursion never goes deeper than maxDepth.
        if (depth > this.limits.maxDepth) {
          this.fail('i-json', `nesting is deeper than ${this.limits.maxDepth} levels`);
        }
        return c === 0x7b ? this.parseObject(depth) : this.parseArray(depth);
      case 0x22: // "
        return this.parseString();
      case 0x74: // t
        return this.parseLiteral('true', true);
      case 0x66: // f
        return this.parseLiteral('false', false);
      case 0x6e: // n
        return this.parseLiteral('null', null);
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.parseNumber();
        return this.fail('syntax', `expected a JSON value, found ${this.describeHere()}`);
    }
  }

  private parseLiteral<T extends JsonValue>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.at)) {
      this.fail('syntax', `expected a JSON value, found ${this.describeHere()}`);
    }
    this.at += word.length;
    return value;
  }

  private parseNumber(): number {
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (!match) return this.fail('syntax', `expected a number, found ${this.describeHere()}`);
    const lexeme = match[0];
    // A digit straight after the lexeme (`01`, `1.`, `1e`) is malformed, not a second token.
    const next = this.text.charCodeAt(this.at + lexeme.length);
    if ((next >= 0x30 && next <= 0x39) || next === 0x2e || next === 0x65 || next === 0x45) {
      return this.fail('syntax', 'malformed number', this.at + lexeme.length);
    }
    const value = Number(lexeme);
    const problem = numberProblem(lexeme, value);
    if (problem !== undefined) this.fail('i-json', problem);
    this.at += lexeme.length;
    return value;
  }

  private parseString(): string {
    const text = this.text;
    const start = this.at;
    this.at += 1; // the opening quote
    const max = this.limits.maxStringLength;
    const chunks: string[] = [];
    let codePoints = 0;
    let runStart = this.at;
    for (;;) {
      if (codePoints > max) {
        this.fail('i-json', `a string is longer than ${max} characters`, start);
      }
      const c = text.charCodeAt(this.at);
      if (Number.isNaN(c)) return this.fail('syntax', 'unterminated string', start);
      if (c === 0x22) {
        chunks.push(text.slice(runStart, this.at));
        this.at += 1;
        return chunks.join('');
      }
      if (c < 0x20) {
        this.fail(
          'syntax',
          `unescaped control character ${quoteUntrusted(String.fromCharCode(c))} in a string`,
        );
      }
      if (c === 0x5c) {
        chunks.push(text.slice(runStart, this.at));
        chunks.push(this.parseEscape());
        runStart = this.at;
        codePoints += 1;
        continue;
      }
      if (isHighSurrogate(c)) {
        if (!isLowSurrogate(text.charCodeAt(this.at + 1)))
          this.fail('i-json', 'lone UTF-16 surrogate in a string');
        this.at += 2;
      } else if (isLowSurrogate(c)) {
        this.fail('i-json', 'lone UTF-16 surrogate in a string');
      } else {
        this.at += 1;
      }
      codePoints += 1;
    }
  }

  /** One escape at the cursor (on the backslash); a `\uD800`-style high surrogate must pair with a low one. */
  private parseEscape(): string {
    const text = this.text;
    const letter = text.charAt(this.at + 1);
    if (letter !== 'u') {
      const simple = ESCAPES[letter];
      if (simple === undefined) this.fail('syntax', 'invalid escape in a string');
      this.at += 2;
      return simple;
    }
    const unit = this.hex4(this.at + 2);
    if (isLowSurrogate(unit)) this.fail('i-json', 'lone UTF-16 surrogate escape in a string');
    if (!isHighSurrogate(unit)) {
      this.at += 6;
      return String.fromCharCode(unit);
    }
    if (text.charCodeAt(this.at + 6) !== 0x5c || text.charCodeAt(this.at + 7) !== 0x75) {
      this.fail('i-json', 'lone UTF-16 surrogate escape in a string');
    }
    const low = this.hex4(this.at + 8);
    if (!isLowSurrogate(low)) this.fail('i-json', 'lone UTF-16 surrogate escape in a string');
    this.at += 12;
    return String.fromCharCode(unit, low);
  }

  private hex4(at: number): number {
    const digits = this.text.slice(at, at + 4);
    if (!/^[0-9A-Fa-f]{4}$/.test(digits)) this.fail('syntax', 'invalid \\u escape in a string');
    return Number.parseInt(digits, 16);
  }

  private expect(char: string, what: string): void {
    if (this.text.charAt(this.at) !== char)
      this.fail('syntax', `expected ${what}, found ${this.describeHere()}`);
    this.at += 1;
  }

  private parseArray(depth: number): JsonValue[] {
    this.at += 1; // [
    const items: JsonValue[] = [];
    this.skipWhitespace();
    if (this.text.charAt(this.at) === ']') {
      this.at += 1;
      return items;
    }
    for (;;) {
      this.path.push(items.length);
      this.skipWhitespace();
      items.push(this.parseValue(depth + 1));
      this.path.pop();
      this.skipWhitespace();
      if (this.text.charAt(this.at) === ']') {
        this.at += 1;
        return items;
      }
      this.expect(',', "',' or ']'");
    }
  }

  private parseObject(depth: number): Record<string, JsonValue> {
    this.at += 1; // {
    const members: Record<string, JsonValue> = {};
    const seen = new Set<string>();
    this.skipWhitespace();
    if (this.text.charAt(this.at) === '}') {
      this.at += 1;
      return members;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text.charAt(this.at) !== '"') {
        this.fail('syntax', `expected a member name in double quotes, found ${this.describeHere()}`);
      }
      const keyAt = this.at;
      const key = this.parseString();
      if (seen.has(key)) this.fail('i-json', `duplicate member name ${quoteUntrusted(key, 40)}`, keyAt);
      seen.add(key);
      this.skipWhitespace();
      this.expect(':', "':'");
      this.skipWhitespace();
      this.path.push(key);
      const value = this.parseValue(depth + 1);
      this.path.pop();
      // Defined, not assigned: a member named `__proto__` is data, never the object's prototype.
      Object.defineProperty(members, key, { value, enumerable: true, writable: true, configurable: true });
      this.skipWhitespace();
      if (this.text.charAt(this.at) === '}') {
        this.at += 1;
        return members;
      }
      this.expect(',', "',' or '}'");
    }
  }
}

/**
 * Parses I-JSON text. Throws IJsonError (`syntax` or `i-json`) naming the JSON pointer, line and
 * column of the first problem; the text itself is never quoted raw.
 */
export function parseIJson(text: string, limits: IJsonLimits): JsonValue {
  return new Parser(text, limits).parseDocument();
}
