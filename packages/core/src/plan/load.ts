import { readFileSync, statSync } from 'node:fs';
import { WritError, errorMessage } from '../errors.js';
import type { Plan } from './types.js';
import { validatePlan } from './validate.js';

/** Plans larger than this are refused before they are read (`plan-too-large`). */
export const MAX_PLAN_BYTES = 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Parses plan bytes: strict UTF-8, then JSON. */
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
    throw new WritError('plan-not-json', `${source} is not valid UTF-8`);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return JSON.parse(text) as unknown;
  } catch (error: unknown) {
    throw new WritError('plan-not-json', `${source} is not valid JSON (${errorMessage(error)})`);
  }
}

/**
 * Reads, bounds, parses and validates a plan file. Synchronous on purpose: the file is bounded, and
 * node:fs/promises costs a stage several milliseconds of cold start.
 */
export function loadPlanFile(path: string): Plan {
  let size: number;
  try {
    const info = statSync(path);
    if (!info.isFile()) throw new Error('not a regular file');
    size = info.size;
  } catch {
    throw new WritError('plan-file-not-found', `plan-file '${path}' does not exist or is not a regular file`);
  }
  if (size > MAX_PLAN_BYTES) {
    throw new WritError(
      'plan-too-large',
      `plan-file '${path}' is ${size} bytes; the limit is ${MAX_PLAN_BYTES}`,
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (error: unknown) {
    throw new WritError(
      'plan-file-not-found',
      `plan-file '${path}' could not be read (${errorMessage(error)})`,
    );
  }
  return validatePlan(parsePlanBytes(bytes, `plan-file '${path}'`));
}
