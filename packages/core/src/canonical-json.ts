/**
 * RFC 8785 JSON Canonicalization Scheme (JCS) and the plan digest built on it.
 *
 * Written here rather than taken from a package because Writ needs it to refuse, with a code, what JCS
 * cannot represent (non-finite numbers, lone surrogates, non-JSON values) instead of silently coercing.
 * ECMAScript's own number and string serialization is exactly what JCS specifies (RFC 8785 §3.2.2).
 */
import { createHash } from 'node:crypto';
import { escapeUntrusted } from './untrusted-text.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export class CanonicalJsonError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    // The path holds member names from the value: escaped and bounded in the message, raw in `path`.
    super(`${message} at ${escapeUntrusted(path, 200)}`);
    this.name = 'CanonicalJsonError';
  }
}

const LONE_SURROGATE_CODE_UNITS =
  /(?:[\uD800-\uDBFF](?![\uDC00-\uDFFF]))|(?:(?<![\uD800-\uDBFF])[\uDC00-\uDFFF])/;

function serializeString(value: string, path: string): string {
  if (LONE_SURROGATE_CODE_UNITS.test(value)) throw new CanonicalJsonError('lone UTF-16 surrogate', path);
  return JSON.stringify(value);
}

function serialize(value: unknown, path: string, out: string[]): void {
  if (value === null) {
    out.push('null');
    return;
  }
  switch (typeof value) {
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJsonError(`non-finite number ${String(value)}`, path);
      // ECMAScript Number::toString is the JCS number form; JSON.stringify(-0) is "0".
      out.push(JSON.stringify(value));
      return;
    case 'string':
      out.push(serializeString(value, path));
      return;
    case 'object':
      break;
    default:
      throw new CanonicalJsonError(`${typeof value} is not a JSON value`, path);
  }
  if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, index) => {
      if (index > 0) out.push(',');
      serialize(item, `${path}/${index}`, out);
    });
    out.push(']');
    return;
  }
  // A plain object's prototype is null or some realm's Object.prototype (whose own prototype is null).
  const prototype = Object.getPrototypeOf(value) as object | null;
  if (prototype !== null && Object.getPrototypeOf(prototype) !== null) {
    throw new CanonicalJsonError('only plain objects are JSON objects', path);
  }
  const record = value as Record<string, unknown>;
  // Default sort compares UTF-16 code units, which is the JCS property order (RFC 8785 §3.2.3).
  const keys = Object.keys(record).sort();
  out.push('{');
  keys.forEach((key, index) => {
    const child = record[key];
    if (child === undefined) throw new CanonicalJsonError('undefined is not a JSON value', `${path}/${key}`);
    if (index > 0) out.push(',');
    out.push(serializeString(key, `${path}/${key}`), ':');
    serialize(child, `${path}/${escapePointer(key)}`, out);
  });
  out.push('}');
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The RFC 8785 canonical form of a JSON value. Throws CanonicalJsonError on anything JCS cannot hold. */
export function canonicalize(value: unknown): string {
  const out: string[] = [];
  serialize(value, '', out);
  return out.join('');
}

/** `sha256:<64 lowercase hex>` of UTF-8 text. */
export function sha256(text: string): string {
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/** `sha256:<64 lowercase hex>` of the UTF-8 canonical form. */
export function digest(value: unknown): string {
  return sha256(canonicalize(value));
}

export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** The bare 64-hex value of a digest, as the approve command carries it. */
export function bareHex(digestValue: string): string {
  if (!DIGEST_PATTERN.test(digestValue)) throw new Error(`not a sha256 digest: ${digestValue.slice(0, 80)}`);
  return digestValue.slice('sha256:'.length);
}
