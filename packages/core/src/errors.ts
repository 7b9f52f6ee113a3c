/**
 * The one catalogue of user-facing failure codes. Every code is stable kebab-case; a code, once
 * published, keeps its meaning. Each stage puts the code in its `reason` output and at the start of
 * its failure message (`<code>: <what failed, on what, what was expected>`).
 */
export const ERROR_CATALOGUE = {
  // Inputs and plans
  'invalid-input': 'An action input or CLI flag has a value outside what it accepts.',
  'plan-file-not-found': 'The plan file named by `plan-file` does not exist or is not a regular file.',
  'plan-not-json': 'The plan file is not JSON text (RFC 8259 syntax).',
  'plan-too-large': 'The plan file is larger than the size bound Writ accepts.',
  'malformed-plan':
    'The plan is not I-JSON (RFC 7493: UTF-8, no duplicate member names, no lone surrogates, numbers exact as doubles and integers within ±(2^53−1)), breaks a size bound (nesting depth, string length), or does not validate against plan.schema.json (each problem names its JSON path).',
  'invalid-run-id': 'A run ID is not 1-64 characters of [A-Za-z0-9_-] starting with a letter or digit.',
  'output-write-failed': 'Writ could not write one of its own files (preview, summary or evidence).',

  // Ledger and runs
  'run-exists': 'A run with this run ID was already proposed; run files are never reset.',
  'run-not-found': 'The ledger holds no run with this run ID.',
  'ledger-branch-exists': 'The ledger branch already exists, so it cannot be bootstrapped again.',
  'ledger-branch-missing': 'The ledger branch does not exist; bootstrap it first.',
  'ledger-provenance-unproven':
    'The ledger branch history, authorship, signatures or ruleset do not prove app-only, append-only authority.',
  'ledger-file-corrupt': 'A ledger file is not valid JSON.',
  'ledger-file-invalid': 'A ledger file does not validate against its schema.',
  'ledger-cas-exhausted': 'A ledger commit lost every bounded compare-and-set attempt to concurrent writers.',
  'artifact-cas-exhausted':
    'The artifact commit on the bot branch lost every bounded compare-and-set attempt to concurrent writers.',
  'repository-lease-held': 'Another run holds the repository lease and it has not expired.',
  fenced: "The caller's fencing epoch is no longer current; it must make no further claim.",
  'needs-reconciliation':
    'A step was claimed with an unknown outcome; a repository writer must reconcile it.',
  'invalid-transition': 'The requested ledger transition is not allowed from the current state.',

  // Approval
  'unauthorized-approval': 'The trigger or comment author cannot approve (not a human issue comment).',
  'insufficient-permission': "The approver's live repository role is not in the allowed roles.",
  'approval-already-consumed':
    'This approval, run ID or comment ID was already consumed (a permanent tombstone).',
  'stale-or-mismatched-approval':
    'The approved digest, scope or bounds do not match the plan recomputed now, or the approval no longer re-verifies.',
  'malformed-command':
    'The comment body is not exactly `<prefix>: approve <run_id> <64 lowercase hex>`, `<prefix>: reconcile <run_id> <step_id> <done|failed|retry>` or `<prefix>: cancel <run_id>`.',
  'approval-comment-edited': 'The approval comment was edited after it was created.',

  // Recovery and evidence links
  'evidence-link-not-durable':
    'An evidence link is not an exact-commit permalink to a file of the bound repository (§14.2: HTTPS on the GitHub host, no credentials, port, query or fragment, a 40/64-hex commit, a canonical non-traversing path).',

  // Writes
  'live-writes-disabled': 'The persistence gate is closed: live writes are not enabled for this step kind.',
  'github-conditional-mutation-not-proven':
    'No positive, recent probe evidence shows GitHub refuses a stale write for this step kind.',
  conflict: 'The pre-write read shows state that differs from what the plan expected.',
  'precheck-inconclusive':
    'The idempotency pre-check could not decide whether the resource exists, so nothing was created.',
  'artifact-pr-closed': "The artifact branch's pull request was closed without merging; a human must decide.",
  'probe-repository-refused':
    'The probe refuses a repository that is not confirmed and allow-listed as a sandbox.',

  // Setup (writ init, writ doctor)
  'init-refused':
    'writ init found no Git repository, no GitHub remote, several GitHub remotes without --remote, a target path that is not a regular file, or an invalid manifest; nothing was written.',
  'init-conflict':
    'writ init did not overwrite a file it did not write or that was changed since: resolve it (or use --write-conflicts to get the new render beside it).',
  'preflight-failed': 'writ doctor found at least one check that FAILs.',

  // GitHub transport
  'github-request-failed': 'A GitHub API request failed with a status Writ does not retry.',
  'github-rate-limited': 'GitHub rate limits did not clear within the bounded retries.',

  // Everything else
  'internal-error': 'An unexpected error inside Writ (a bug): please report it with the run log.',
} as const satisfies Record<string, string>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CATALOGUE, value);
}

/** A failure the user can fix or must know about; it always carries a catalogue code. */
export class WritError extends Error {
  readonly code: ErrorCode;
  /** Structured, non-secret facts for outputs and summaries (never untrusted text). */
  readonly details: Readonly<Record<string, string | number | boolean>>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { cause?: unknown; details?: Record<string, string | number | boolean> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'WritError';
    this.code = code;
    this.details = Object.freeze({ ...(options.details ?? {}) });
  }

  /** `<code>: <message>`, the form every failure message takes. */
  override toString(): string {
    return `${this.code}: ${this.message}`;
  }
}

/** Turns anything thrown into an Error without losing a non-Error value. */
export function toError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown;
  let rendered: string;
  try {
    const json = typeof thrown === 'string' ? thrown : (JSON.stringify(thrown) as unknown);
    rendered = typeof json === 'string' ? json : String(thrown);
  } catch {
    rendered = String(thrown);
  }
  const error = new Error(`non-Error thrown: ${rendered}`);
  (error as Error & { thrown?: unknown }).thrown = thrown;
  return error;
}

/** The message of anything thrown. */
export function errorMessage(thrown: unknown): string {
  return toError(thrown).message;
}

/** The catalogue code of anything thrown: its own code if it is a WritError, else `internal-error`. */
export function errorCode(thrown: unknown): ErrorCode {
  return thrown instanceof WritError ? thrown.code : 'internal-error';
}

/** The one-line failure message a stage prints: always starts with the code. */
export function failureMessage(thrown: unknown): string {
  if (thrown instanceof WritError) return thrown.toString();
  return `internal-error: ${errorMessage(thrown)}`;
}

/** The HTTP status of a failed GitHub request (Octokit's RequestError), or undefined for anything else. */
export function httpStatus(error: unknown): number | undefined {
  const value = (error as { status?: unknown } | null)?.status;
  return typeof value === 'number' ? value : undefined;
}
