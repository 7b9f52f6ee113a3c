import type { FileRoots } from '../io/input-file.js';
import { readInputFile } from '../io/input-file.js';
import { readFileSync, statSync } from 'node:fs';
import { WritError, errorMessage } from '../errors.js';
import { IJsonError, parseIJson } from '../i-json.js';
import { escapeUntrusted } from '../untrusted-text.js';
import type { Plan } from './types.js';
import { validatePlan } from './validate.js';

/** Plans larger than this are refused before they are read (`plan-too-large`). */
export const MAX_PLAN_BYTES = 1024 * 1024;

/**
 * The deepest nesting of arrays and objects a plan may have (the plan object is level 1). The schema
 * itself needs 6; the rest is room for an `external` step's opaque `parameters`.
 */
export const MAX_PLAN_DEPTH = 32;

/**
 * The longest string a plan may hold, member names included, in code points: the schema's longest
 * (`longText`, a body) is 65536, and nothing else, `parameters` included, may be longer.
 */
export const MAX_PLAN_STRING_LENGTH = 65536;

// ignoreBOM keeps a BOM in the text, so exactly one leading BOM is skipped below (not two).
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Parses plan bytes as I-JSON (RFC 7493): bounded size, strict UTF-8 (an optional leading BOM is
 * ignored, as RFC 8259 §8.1 allows), then the strict parser. Text that is not JSON at all is
 * `plan-not-json`; JSON that is not I-JSON or breaks a bound is `malformed-plan`.
 */
export function parsePlanBytes(bytes: Uint8Array, source: string): unknown {
  if (bytes.byteLength > MAX_PLAN_BYTES) {
    throw new WritError(
      'plan-too-large',
      `${source} is ${bytes.byteLength} bytes; the limit is ${MAX_PLAN_BYTES}`,
    );
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    // RFC 7493 §2.1: I-JSON is UTF-8. An encoded surrogate (a "raw" lone surrogate) is invalid UTF-8 too.
    throw new WritError('malformed-plan', `${source} is not I-JSON: it is not valid UTF-8 (RFC 7493 §2.1)`);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return parseIJson(text, { maxDepth: MAX_PLAN_DEPTH, maxStringLength: MAX_PLAN_STRING_LENGTH });
  } catch (error: unknown) {
    if (!(error instanceof IJsonError)) throw error;
    if (error.kind === 'syntax') {
      throw new WritError('plan-not-json', `${source} is not valid JSON: ${error.message}`);
    }
    throw new WritError('malformed-plan', `${source} is not I-JSON (RFC 7493): ${error.message}`);
  }
}

/** How a plan file is named in messages: the input's value, escaped and bounded. */
function describeSource(path: string): string {
  return `plan-file '${escapeUntrusted(path, 200)}'`;
}

/**
 * Reads, bounds, parses and validates a plan file; with `roots` (what every stage passes) only a regular
 * file inside the workspace or the runner's temp directory. Synchronous on purpose: the file is bounded, and
 * node:fs/promises costs a stage several milliseconds of cold start.
 */
export function loadPlanFile(path: string, roots?: FileRoots): Plan {
  const source = describeSource(path);
  let size: number;
  try {
    const info = statSync(path);
    if (!info.isFile()) throw new Error('not a regular file');
    size = info.size;
  } catch {
    throw new WritError('plan-file-not-found', `${source} does not exist or is not a regular file`);
  }
  if (size > MAX_PLAN_BYTES) {
    throw new WritError('plan-too-large', `${source} is ${size} bytes; the limit is ${MAX_PLAN_BYTES}`);
  }
  // A stage reads plans only from the workspace or the runner's temp directory (never via a symlink out).
  if (roots !== undefined)
    return validatePlan(parsePlanBytes(readInputFile(path, 'plan-file', roots, MAX_PLAN_BYTES), source));
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (error: unknown) {
    throw new WritError(
      'plan-file-not-found',
      `${source} could not be read (${escapeUntrusted(errorMessage(error), 200)})`,
    );
  }
  return validatePlan(parsePlanBytes(bytes, source));
}
