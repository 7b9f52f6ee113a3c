/** Builds the GitHub client and the ledger context a writing stage needs, from validated inputs. */
import { WritError } from '../errors.js';
import { validateApiUrl } from '../github/api-url.js';
import type { GitHubClient, GitHubClientOptions } from '../github/client.js';
import { createGitHubClient } from '../github/client.js';
import type { LedgerContext } from '../ledger/cas.js';
import { createLedgerContext } from '../ledger/ledger.js';
import { validateBranch } from '../ledger/paths.js';
import type { Logger } from '../redact.js';
import type { RunnerContext } from './context.js';

export const APP_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,32}[a-z0-9])?$/;

export interface LedgerInputs {
  token: string;
  branch: string;
  appSlug: string;
  /** Needed by every ledger write: each replays the history above the last checkpoint. */
  appId?: number;
  leaseSeconds?: number;
}

/** The ledger inputs a writing stage declares (see the registry's TOKEN and LEDGER groups). */
interface LedgerInputReader {
  input(name: 'token' | 'ledger-branch' | 'ledger-app-slug'): string;
  integerInput(name: 'ledger-app-id'): number | undefined;
}

/** Reads the ledger inputs; `lease-seconds` only where the stage takes or renews the lease. */
export function readLedgerInputs(
  io: LedgerInputReader,
  leaseSeconds?: (name: 'lease-seconds') => number | undefined,
): LedgerInputs {
  return {
    token: io.input('token'),
    branch: io.input('ledger-branch'),
    appSlug: io.input('ledger-app-slug'),
    appId: io.integerInput('ledger-app-id'),
    ...(leaseSeconds === undefined ? {} : { leaseSeconds: leaseSeconds('lease-seconds') }),
  };
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

export function validateLeaseSeconds(value: number | undefined): number {
  const seconds = value ?? 600;
  if (seconds < 30 || seconds > 6 * 3600) {
    throw new WritError(
      'invalid-input',
      `input 'lease-seconds' must be between 30 and 21600 (got ${seconds})`,
    );
  }
  return seconds;
}

export function requireToken(token: string): string {
  if (token === '') throw new WritError('invalid-input', "input 'token' is required when not a dry run");
  return token;
}

/**
 * GitHub asks for a second between mutative requests; a local emulator on loopback needs no spacing,
 * so stages run against it (tests, the demo) at full speed. Real GitHub is never a loopback address.
 */
export function clientTimingFor(apiUrl: string): GitHubClientOptions {
  const host = new URL(validateApiUrl(apiUrl, 'GITHUB_API_URL')).hostname;
  const loopback = host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
  return loopback
    ? { writeSpacingMs: 0, notificationSpacingMs: 0, retryBaseMs: 50, rateLimitBaseMs: 50 }
    : {};
}

export function connect(
  context: RunnerContext,
  inputs: LedgerInputs,
  logger: Logger,
): { github: GitHubClient; ledger: LedgerContext; ownLogin: string } {
  const appSlug = validateAppSlug(inputs.appSlug);
  if (inputs.appId === undefined) {
    throw new WritError(
      'invalid-input',
      "input 'ledger-app-id' is required to write the ledger (the App ID of the Writ GitHub App)",
    );
  }
  const github = createGitHubClient(requireToken(inputs.token), {
    baseUrl: context.apiUrl,
    logger,
    ...clientTimingFor(context.apiUrl),
  });
  const ledger = createLedgerContext(
    { github, logger },
    {
      repository: context.repository.full,
      branch: validateBranch(inputs.branch),
      app: { slug: appSlug, id: inputs.appId },
      policy: { leaseMs: validateLeaseSeconds(inputs.leaseSeconds) * 1000 },
    },
  );
  return { github, ledger, ownLogin: `${appSlug}[bot]` };
}
