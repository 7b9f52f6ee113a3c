/**
 * Every ledger file is validated against its JSON Schema on read and on write. A file that is not JSON
 * fails closed with `ledger-file-corrupt`; one that does not match its schema with `ledger-file-invalid`.
 */
import type { ValidateFunction } from 'ajv';
import { WritError } from '../errors.js';
import validateLeaseSchema from '../generated/lease-validator.js';
import validateLedgerRootSchema from '../generated/ledger-root-validator.js';
import validateProvenanceSchema from '../generated/provenance-validator.js';
import validateRunSchema from '../generated/run-validator.js';
import type { Lease, LedgerRoot, ProvenanceCheckpoint, RunFile } from './types.js';

export interface LedgerFileKind<T> {
  name: string;
  validate: ValidateFunction;
  /** Only for the type parameter. */
  readonly _type?: T;
}

export const LEDGER_ROOT_FILE: LedgerFileKind<LedgerRoot> = {
  name: 'ledger-root',
  validate: validateLedgerRootSchema,
};
export const LEASE_FILE: LedgerFileKind<Lease> = { name: 'lease', validate: validateLeaseSchema };
export const RUN_FILE: LedgerFileKind<RunFile> = { name: 'run', validate: validateRunSchema };
export const PROVENANCE_FILE: LedgerFileKind<ProvenanceCheckpoint> = {
  name: 'provenance',
  validate: validateProvenanceSchema,
};

function schemaProblems(kind: LedgerFileKind<unknown>): string {
  return (kind.validate.errors ?? [])
    .slice(0, 5)
    .map(
      (error) => `${error.instancePath === '' ? '/' : error.instancePath} ${error.message ?? error.keyword}`,
    )
    .join('; ');
}

/** Parses and validates a ledger file read from the branch. */
export function parseLedgerFile<T>(kind: LedgerFileKind<T>, path: string, text: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error: unknown) {
    throw new WritError('ledger-file-corrupt', `Ledger file ${path} is not valid JSON.`, {
      cause: error,
      details: { path },
    });
  }
  return checkLedgerFile(kind, path, value);
}

/** Validates a ledger value (on read after parsing, and before every write). */
export function checkLedgerFile<T>(kind: LedgerFileKind<T>, path: string, value: unknown): T {
  if (!kind.validate(value)) {
    throw new WritError(
      'ledger-file-invalid',
      `Ledger file ${path} does not validate against ${kind.name}.schema.json: ${schemaProblems(kind)}.`,
      { details: { path } },
    );
  }
  return value as T;
}

/** The exact bytes Writ writes for a ledger file: validated, 2-space JSON, trailing newline. */
export function serializeLedgerFile<T>(kind: LedgerFileKind<T>, path: string, value: T): string {
  checkLedgerFile(kind, path, value);
  return `${JSON.stringify(value, null, 2)}\n`;
}
