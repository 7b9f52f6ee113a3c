/**
 * The ledger inputs a writing stage declares (token, ledger-branch, ledger-app-slug, ledger-app-id and,
 * where the stage takes or renews the lease, lease-seconds), validated into one settings object. Light
 * on purpose: the preview reads it without loading the GitHub client.
 */
import { WritError } from '../errors.js';
import { validateBranch } from '../ledger/paths.js';
import { DEFAULT_LEASE_POLICY } from '../ledger/transitions.js';

export const APP_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,32}[a-z0-9])?$/;

export interface LedgerSettings {
  token: string;
  branch: string;
  app: { slug: string; id: number };
  leaseMs: number;
}

interface LedgerInputReader {
  input(name: 'token' | 'ledger-branch' | 'ledger-app-slug'): string;
  integerInput(name: 'ledger-app-id'): number | undefined;
}

/** A stage that declares `lease-seconds` (with its bounds, in action.yml). */
interface LeaseInputReader {
  integerInput(name: 'lease-seconds'): number | undefined;
  bounded(name: 'lease-seconds', value: number | undefined): number;
}

export function validateAppSlug(value: string): string {
  if (!APP_SLUG_PATTERN.test(value)) {
    throw new WritError(
      'invalid-input',
      `input 'ledger-app-slug' must be a GitHub App slug (got ${value.length} characters)`,
    );
  }
  return value;
}

export function requireToken(token: string): string {
  if (token === '') throw new WritError('invalid-input', "input 'token' is required when not a dry run");
  return token;
}

/**
 * Reads and validates the ledger inputs; `lease-seconds` where the stage declares it (it takes or
 * renews the lease), else the ledger's default lease (the stage never takes it).
 */
export function readLedgerSettings(io: LedgerInputReader): LedgerSettings;
export function readLedgerSettings(
  io: LedgerInputReader & LeaseInputReader,
  lease: 'lease-seconds',
): LedgerSettings;
export function readLedgerSettings(io: LedgerInputReader, lease?: 'lease-seconds'): LedgerSettings {
  const leaseIo = io as LedgerInputReader & LeaseInputReader;
  // Read all, then validate, in the order the checks have always run (a run with two bad inputs
  // reports the same one).
  const token = io.input('token');
  const branch = io.input('ledger-branch');
  const appSlug = io.input('ledger-app-slug');
  const id = io.integerInput('ledger-app-id');
  const seconds = lease === undefined ? undefined : leaseIo.integerInput(lease);
  const slug = validateAppSlug(appSlug);
  if (id === undefined) {
    throw new WritError(
      'invalid-input',
      "input 'ledger-app-id' is required to write the ledger (the App ID of the Writ GitHub App)",
    );
  }
  const checkedToken = requireToken(token);
  return {
    token: checkedToken,
    branch: validateBranch(branch),
    app: { slug, id },
    leaseMs: lease === undefined ? DEFAULT_LEASE_POLICY.leaseMs : leaseIo.bounded(lease, seconds) * 1000,
  };
}
