/**
 * The one catalogue of user-facing failure codes. Every code is stable kebab-case; a code, once
 * published, keeps its meaning. Each stage puts the code in its `reason` output and at the start of
 * its failure message (`<code>: <what failed, on what, what was expected> — <link>`), the link being
 * the code's entry in docs/errors.md, which the build generates from this table
 * (scripts/build/generate-error-docs.ts; `npm run check-dist` keeps it fresh).
 *
 * Adding a code is one entry: `'my-code': { meaning: '…', fix: '…' },`. The generator refuses a code
 * without both (a bare string is a meaning without a fix), so none is published unexplained.
 */
export interface ErrorDoc {
  /** What happened, in one sentence. */
  meaning: string;
  /** What to do about it, in one or two sentences. */
  fix: string;
}

export const ERROR_CATALOGUE = {
  // Inputs and plans
  'invalid-input': {
    meaning: 'An action input, CLI option or environment variable has a value outside what it accepts.',
    fix: 'The message names each input and what it expects; correct them (every problem of one command line is listed together) and run again. `writ <command> --help` lists the options.',
  },
  'plan-file-not-found': {
    meaning: 'The plan file named by `plan-file` does not exist or is not a regular file.',
    fix: 'Write the plan before the Writ step, inside the workspace or `$RUNNER_TEMP`, and pass its path.',
  },
  'plan-not-json': {
    meaning: 'The plan file is not JSON text (RFC 8259 syntax).',
    fix: 'Fix the JSON syntax at the line and column the message names; check that your planner prints only the plan on stdout.',
  },
  'plan-too-large': {
    meaning: 'The plan file is larger than the size bound Writ accepts.',
    fix: 'Split the work into several plans (several runs) below the bound the message names.',
  },
  'malformed-plan': {
    meaning:
      'The plan is not I-JSON (RFC 7493: UTF-8, no duplicate member names, no lone surrogates, numbers exact as doubles and integers within ±(2^53−1)), breaks a size bound (nesting depth, string length), does not validate against plan.schema.json, holds a Writ hidden marker (`<!-- writ-…`, in any spelling) or a secret or token-shaped string in any text, or has two steps that would fight over one resource (the same marker key, milestone title or issue create). Each problem names its JSON path (and both steps of a collision); a secret is never shown.',
    fix: "Fix each problem at the JSON path the message names; validate plans against `schemas/plan.schema.json` in your planner's tests. Never put credentials or Writ's own markers in plan text; give each milestone one step.",
  },
  'invalid-run-id': {
    meaning: 'A run ID is not 1-64 characters of [A-Za-z0-9_-] starting with a letter or digit.',
    fix: 'Pass a run ID of that form, or leave `run-id` empty to derive it from the plan digest.',
  },
  'output-write-failed': {
    meaning: 'Writ could not write one of its own files (preview, summary or evidence).',
    fix: 'Check that `$RUNNER_TEMP` and the job summary file are writable and the disk is not full, then re-run the job.',
  },

  // Ledger and runs
  'run-exists': {
    meaning: 'A run with this run ID was already proposed; run files are never reset.',
    fix: 'Nothing to redo if it is the same plan. For a changed plan, let the run ID derive from the new digest (leave `run-id` empty) or choose a new one.',
  },
  'run-not-found': {
    meaning: 'The ledger holds no run with this run ID.',
    fix: 'Check the run ID (the preview prints it); the run must be proposed by a preview with `dry-run: false` first. `writ ledger show` lists every run.',
  },
  'ledger-branch-exists': {
    meaning: 'The ledger branch already exists, so it cannot be bootstrapped again.',
    fix: 'Nothing to do if it is your ledger (`writ ledger verify` proves it). To start over, bootstrap a new branch with `--branch` (a ledger is never rewritten).',
  },
  'ledger-branch-missing': {
    meaning: 'The ledger branch does not exist; bootstrap it first.',
    fix: "Create the two ledger rulesets, then run `writ bootstrap --repo <owner/repo> --apply` with the Writ app's token (README: Set up the ledger).",
  },
  'ledger-provenance-unproven': {
    meaning:
      'The ledger branch history, authorship, signatures or ruleset do not prove app-only, append-only authority.',
    fix: 'The message names the commit or rule that fails. A missing or changed ruleset: restore it as `writ bootstrap --json` prints it and, if it changed after the root, re-provision on a new branch. A commit no legal transition writes means the app token was misused: treat it as an incident (SECURITY.md).',
  },
  'ruleset-bypass-unreadable': {
    meaning:
      "Rulesets apply to the ledger branch, but GitHub does not show this token their bypass actors: it returns a ruleset's `bypass_actors` only to a caller that can write rulesets, so the branch cannot be proven append-only. The rulesets themselves exist; nothing is wrong with them.",
    fix: "Grant the Writ app Repository permissions → Administration: read and write (GitHub asks the installation's owner to approve the change), or run a read-only command with a repository admin's token; then run it again. Do not recreate the rulesets.",
  },
  'ledger-frozen': {
    meaning:
      'The recovery sweep replayed the ledger from its root, found a commit that is not a legal transition, and froze the ledger: every gate refuses from then on. The message names the offending commit.',
    fix: 'Treat it as an incident (SECURITY.md): the ledger app token or key was misused. Run `writ ledger verify` to see the commit, rotate the app key, then re-provision the ledger on a new branch (writ bootstrap); a frozen ledger is never unfrozen.',
  },
  'ledger-file-corrupt': {
    meaning: 'A ledger file is not valid JSON.',
    fix: 'The ledger is written only by Writ; a corrupt file means it was changed outside Writ. Run `writ ledger verify` and treat it as an incident (SECURITY.md).',
  },
  'ledger-file-invalid': {
    meaning: 'A ledger file does not validate against its schema.',
    fix: 'Check that every job pins the same Writ release (an older Writ cannot read a newer file); otherwise treat it as a change outside Writ (`writ ledger verify`).',
  },
  'ledger-cas-exhausted': {
    meaning: 'A ledger commit lost every bounded compare-and-set attempt to concurrent writers.',
    fix: "Re-run the job: nothing was overwritten. If it recurs, fewer Writ jobs should write at once (the templates' concurrency groups).",
  },
  'artifact-cas-exhausted': {
    meaning:
      'The artifact commit on the bot branch lost every bounded compare-and-set attempt to concurrent writers.',
    fix: "Re-run the publish job; something else is pushing to the artifact branch, which should be Writ's alone.",
  },
  'repository-lease-held': {
    meaning: 'Another run holds the repository lease and it has not expired.',
    fix: 'The message names the holder (run, workflow run, attempt), its epoch and when the lease expires. Wait for that run to finish or its lease to expire (plus the grace period), or release it from that run (`claim-checkpoint` with `operation: release`).',
  },
  'holder-liveness-unproven': {
    meaning:
      "Writ could not read whether the lease holder's workflow run attempt has finished (no `actions: read`, a 5xx or no answer), so it did not take the lease over.",
    fix: 'Give the job a token that reads Actions runs (`actions: read`; recovery, claim-checkpoint and consume-approval take `actions-token: ${{ github.token }}`) and run it again; a holder Writ cannot see is treated as still running.',
  },
  fenced: {
    meaning: "The caller's fencing epoch is no longer current; it must make no further claim.",
    fix: "Another job took the run over (or released it): stop this job's writes. Use the epoch of the current holder (`writ ledger show`), never an old one.",
  },
  'needs-reconciliation': {
    meaning: 'A step was claimed with an unknown outcome; a repository writer must reconcile it.',
    fix: "Look at the step's target on GitHub or in your system, then reconcile it with the outcome you observed (README: Recover a run).",
  },
  'invalid-transition': {
    meaning: 'The requested ledger transition is not allowed from the current state.',
    fix: "The message names the run's state and what the transition needs; `writ ledger show` shows every run. Steps are claimed in order, each once.",
  },

  // Approval
  'unauthorized-approval': {
    meaning: 'The trigger or comment author cannot approve (not a human issue comment).',
    fix: 'A human account must post the approve command as a new issue comment; bots, apps and the proposer (when a distinct approver is required) cannot approve.',
  },
  'insufficient-permission': {
    meaning: "The approver's live repository role is not in the allowed roles.",
    fix: 'Ask someone with an allowed role (`allowed-roles`, default admin, maintain, write) to approve, or grant the role first.',
  },
  'approval-already-consumed': {
    meaning: 'This approval, run ID or comment ID was already consumed (a permanent tombstone).',
    fix: 'Nothing to do: the approval was used once. To run the plan again, preview it as a new run and approve that.',
  },
  'stale-or-mismatched-approval': {
    meaning:
      'The approved digest, scope or bounds do not match the plan recomputed now, or the approval no longer re-verifies.',
    fix: 'The plan changed since it was approved, or the approval comment was edited or deleted, or the approver lost the role: preview the current plan and approve its new digest.',
  },
  'malformed-command': {
    meaning:
      'The comment body is not exactly `<prefix>: approve <run_id> <64 lowercase hex>`, `<prefix>: reconcile <run_id> <step_id> <done|failed|retry>` or `<prefix>: cancel <run_id>`.',
    fix: 'Copy the command from the preview, the status comment or `writ reconcile` / `writ cancel` exactly, as the whole comment, on one line.',
  },
  'approval-comment-edited': {
    meaning:
      "The approve, reconcile or cancel comment was edited after it was posted, by GitHub's own edit record (even within the same second, by someone else, or back to the original text); a comment whose edit record GitHub does not show counts as edited.",
    fix: 'Post the command as a new comment and leave it unedited; an edited comment never counts.',
  },

  // Recovery and evidence links
  'evidence-link-not-durable': {
    meaning:
      'An evidence link is not an exact-commit permalink to a file of the bound repository (§14.2: HTTPS on the GitHub host, no credentials, port, query or fragment, a 40/64-hex commit, a canonical non-traversing path).',
    fix: 'Link evidence as `https://<GitHub host>/<owner>/<repo>/blob/<full commit SHA>/<path>` (press `y` on the file page to get it); branch names, short SHAs, queries and fragments are refused.',
  },

  // Writes
  'live-writes-disabled': {
    meaning: 'The persistence gate is closed: live writes are not enabled for this step kind.',
    fix: 'Set `persistence-enabled: true` (the `WRIT_PERSISTENCE_ENABLED` variable in the templates) once the policy for the kind is met.',
  },
  'github-conditional-mutation-not-proven': {
    meaning: 'No positive, recent probe evidence shows GitHub refuses a stale write for this step kind.',
    fix: 'Run the probe stage against a sandbox repository and commit its evidence (≤ 30 days old), or choose `best-effort` for the kind in `.writ/policy.json` and accept the residual window it prints.',
  },
  conflict: {
    meaning: 'The pre-write read shows state that differs from what the plan expected.',
    fix: 'Someone changed the target since the plan was made: re-run your planner on the current state and approve the new plan.',
  },
  'pre-state-drift': {
    meaning:
      "A claimed step's target no longer shows the pre-state its claim recorded (`pre_state_digest`) nor the desired state, so nothing was written; the step stays claimed.",
    fix: 'Someone changed the target after the claim (or the write landed and was changed since): look at the target, then reconcile the step (`<prefix>: reconcile <run_id> <step_id> <done|failed|retry>`) or let recovery flag it.',
  },
  'precheck-inconclusive': {
    meaning:
      'The idempotency pre-check could not decide whether the resource exists, so nothing was created.',
    fix: 'Re-run when GitHub answers again; if the list is past the page cap, close or archive old items, or reconcile the step by hand.',
  },
  'write-silently-dropped': {
    meaning:
      'GitHub answered the write but a re-read shows the state unchanged (it silently drops milestone and label writes from callers without push access).',
    fix: "Give the Writ app's installation `issues: write` on the repository (a token with only triage or read access is silently ignored), then re-run persist with the same run ID.",
  },
  'write-outcome-unknown': {
    meaning:
      'A write had no definite answer and reading it back could not tell whether it landed; the step stays claimed for reconciliation.',
    fix: 'Let the recovery stage reconcile it, or look at the target yourself and post `<prefix>: reconcile <run_id> <step_id> <done|failed|retry>`.',
  },
  'bounds-exceeded': {
    meaning:
      "The plan's steps, creates or touched issues exceed its approved bounds (or persist's max-steps input); nothing was written.",
    fix: "Split the plan, or raise its `bounds` and have it approved again; persist's `max-steps` only limits one invocation.",
  },
  'artifact-pr-closed': {
    meaning: "The artifact branch's pull request was closed without merging; a human must decide.",
    fix: 'Reopen the pull request to publish again, or leave it closed and start a new run; Writ never reopens it itself.',
  },
  'probe-repository-refused': {
    meaning: 'The probe refuses a repository that is not confirmed and allow-listed as a sandbox.',
    fix: 'Add a dedicated sandbox repository to `.writ/probe-allowlist.json` and confirm it as the probe asks; never probe a production repository.',
  },

  // Setup (writ init, writ doctor)
  'init-refused': {
    meaning:
      'writ init found no Git repository, no GitHub remote, several GitHub remotes without --remote, a target path that is not a regular file, or an invalid manifest, or could not write one of its files; nothing was written.',
    fix: "Run it inside your repository's clone; pass `--remote <name>` when there are several GitHub remotes and `--github-host` for GitHub Enterprise Server; move the directory or symlink it names.",
  },
  'init-conflict': {
    meaning:
      'writ init did not overwrite a file it did not write or that was changed since: resolve it (or use --write-conflicts to get the new render beside it).',
    fix: 'Merge the new render into your file by hand (`--write-conflicts` writes it beside as `<file>.writ-new`), or delete your file and re-run.',
  },
  'init-ref-unknown': {
    meaning:
      'The commit writ init was asked to pin (`--ref`, or the one its manifest pins) is not in the Writ clone the command runs from, so it cannot have been reviewed there and its version cannot be read; nothing was written.',
    fix: 'Fetch the commit into the Writ clone (`git -C <clone> fetch origin <sha>`, and `git -C <clone> fetch --tags origin` for its release tag), review it, and run writ init again.',
  },
  'preflight-failed': {
    meaning: 'writ doctor found at least one check that FAILs.',
    fix: 'Fix each FAIL by its `fix:` line, then run `writ doctor` again.',
  },

  // GitHub transport
  'github-request-failed': {
    meaning: 'A GitHub API request failed with a status Writ does not retry, or got no answer.',
    fix: 'The message says what was tried and on what: a refused connection or unknown host means GITHUB_API_URL is wrong (GitHub Enterprise Server: https://<host>/api/v3); 401 means the token was rejected; 403 a missing permission or the wrong token; 404 a wrong repository, base URL or a repository the token cannot see.',
  },
  'github-request-deadline': {
    meaning:
      'A GitHub API request, its retries included, did not finish within its deadline (60 s unless the stage sets another); no whole answer came back, so a write may or may not have happened.',
    fix: 'Re-run the job: Writ reads back what a write it could not confirm did before anything is retried. If it keeps happening, check the network path to GITHUB_API_URL (a proxy that stalls answers) and https://www.githubstatus.com.',
  },
  'secondary-rate-limit': {
    meaning:
      'GitHub refused a write with its secondary rate limit (80 content-creating requests a minute, 500 an hour, per app installation or user, web activity included): HTTP 403 or 429, nothing applied. Writ does not resend it blindly; `details.retryAfterSeconds` is the wait GitHub asked for (its `retry-after`, else its reset time, else a minute), and every request of the client waits that long.',
    fix: 'Writ reads back what the write would have done before it writes again, and paces its writes to stay under these limits: if this keeps happening, something else is creating content with the same app installation or user at the same time (another workflow, a person, a bot); spread that activity out, or re-run the job once the hour has passed. persist stops after a step met it four times, with the step claimed and the run resumable: recovery continues it.',
  },
  'github-response-too-large': {
    meaning:
      'A GitHub API answer was larger, once decoded, than the bound Writ reads (8 MiB unless the stage sets another); it was refused while it streamed, before it was buffered.',
    fix: 'GitHub does not send answers this large to the requests Writ makes: check that GITHUB_API_URL (and any proxy) is GitHub. A write whose answer was refused is read back before anything is retried.',
  },
  'github-redirect-refused': {
    meaning:
      'A GitHub API answer redirected the request somewhere Writ does not follow: from https to http or another scheme, or more than 5 times in a row.',
    fix: 'Check GITHUB_API_URL (github.com is https://api.github.com, GitHub Enterprise Server https://<host>/api/v3) and any proxy in between: GitHub never redirects its API to plain http.',
  },

  // Everything else
  'internal-error': {
    meaning: 'An unexpected error inside Writ (a bug): please report it with the run log.',
    fix: 'Open an issue with the run log (tokens are redacted) and the Writ commit you pin; nothing that failed this way is half-written in the ledger.',
  },

  // Issue 32: per-job tokens and Environments
  'environment-name-invalid': {
    meaning:
      'The GitHub Environment name given for the writing jobs (`writ init --environment`) is not one Writ renders: it must be 1 to 255 letters, digits, `_`, `.` or `-`, not starting with `.` or `-`; nothing was written.',
    fix: 'Name the Environment with those characters only (for example `writ-persist`), create it under Settings → Environments with required reviewers, and run writ init again with that name.',
  },
  // Issue 32: Issue Form intake
  'intake-form-malformed': {
    meaning:
      'writ plan from-issue was given an issue body that is not the Writ work-request form (.github/ISSUE_TEMPLATE/writ-request.yml) as GitHub renders it: text before the first `### ` heading, a heading that is not a field of the form, a field twice or missing, a body over 65536 characters, or a pull request; no plan was printed.',
    fix: 'Open the request with the form (New issue → Writ work request) and do not edit its headings; if the form was changed by hand, re-run `writ init --github` so the form and `writ plan from-issue` agree again.',
  },
  'intake-field-invalid': {
    meaning:
      'An answer of the work-request form breaks a rule of its field: a required answer is empty, an answer is too long, a dropdown answer is not one of its choices, or a path or connector name is not of the expected shape. The message names each field and rule, never the text; no plan was printed.',
    fix: 'Edit the issue so each named answer fits its field (the form describes each one), then run the planner again.',
  },
  'intake-field-hostile': {
    meaning:
      'An answer of the work-request form (or the issue title) tries to reach what no answer may set: it holds a Writ hidden marker or comment command, a secret or token-shaped string, a control, invisible or bidi character, a Markdown heading that would pass for another field, or a request for workflows, permissions, secrets, administration, merging or an unrestricted path scope. The message names each field and rule, never the text; no plan was printed.',
    fix: "Treat the request as untrusted: a maintainer reads it on GitHub before anything else. An honest request rewords the named answers (describe the work; authority is set only in the repository's settings and Writ's configuration), or a maintainer writes the plan by hand.",
  },
  // Issue 32: doctor, init and Environments
  'init-tag-unknown': {
    meaning:
      'writ init was given a release tag (`--ref vX.Y.Z`) that the Writ clone it runs from does not have, so the tag cannot be resolved to the commit it pins; nothing was written.',
    fix: 'Fetch the tags into the Writ clone (`git -C <clone> fetch --tags origin`), review the commit the tag points at, and run writ init again; or pass the reviewed 40-hex commit as --ref.',
  },
  'init-ledger-branch-is-default': {
    meaning:
      "The ledger branch in .writ/config.json is the repository's default branch: the ledger needs a branch of its own, append-only under its rulesets; nothing was written.",
    fix: 'Set `ledger_branch` in .writ/config.json back to a branch of its own (the default is bot/writ-ledger) and run writ init again.',
  },
  // Issue 32: command reactions
  'command-reaction-failed': {
    meaning:
      "Writ could not add its reaction (received, acted or refused) to a command comment. A reaction is only an acknowledgement: the command's outcome, recorded in the ledger and shown on the status comment, is unchanged.",
    fix: 'Nothing to redo for the command. For the reactions to appear, give the Writ app `issues: write` (`pull_requests: write` for a comment on a pull request); the warning names the HTTP status GitHub answered.',
  },
  // Issue 33: Pages control tower
  'tower-build-failed': {
    meaning:
      "The Pages control tower (the recovery stage's `tower-dir`, or `writ tower`) could not read the ledger or write its site. The tower is a read-only projection: the recovery sweep's outcome, the ledger and every run are unchanged.",
    fix: 'The warning names the cause (a code such as `ledger-branch-missing`, or the file system error); fix it (a writable `tower-dir` inside the workspace or `$RUNNER_TEMP`, no symbolic link at index.html or tower.json) and the next sweep rebuilds the site.',
  },
  // Issue 33: Projects projection
  'project-not-found': {
    meaning:
      "The Projects (v2) project named by the `project` input (`.writ/config.json` `project`) does not exist, or the Writ app's token cannot see it (an app never reaches a user-owned project). The projection is presentation only: the run, its ledger and its status comment are unchanged.",
    fix: 'Check the owner and number (`https://github.com/orgs/OWNER/projects/NUMBER`); use a project owned by an organization; or switch the projection off by leaving the `project` input empty.',
  },
  'project-access-denied': {
    meaning:
      "GitHub refused the Writ app's token access to the project (FORBIDDEN): the token lacks the organization permission `organization_projects` (read to find the run's item, write to update it). Nothing else about the run changed.",
    fix: 'Grant the Writ app "Organization permissions → Projects: Read and write", accept the new permission in the organization, and re-run `writ init --project OWNER/NUMBER` so the jobs ask for `organization-projects: write`; or leave the `project` input empty.',
  },
  'project-unavailable': {
    meaning:
      'Writ could not read or update the project (a network failure, a 5xx, or an answer it could not read). Nothing about the run changed; a write whose outcome was not known is read back by the next follow, never sent again blindly.',
    fix: "Nothing to do: the next stage that follows the run brings its project item up to date. If it persists, check the warning's detail and GitHub's status.",
  },
  'project-field-missing': {
    meaning:
      'The project has no TEXT or single-select field of a name the projection writes (by default "Writ state", "Risk", "Verification", "Decision", "Blockers", "Writ milestone"): that value is not shown. The other fields are updated.',
    fix: 'Add the field to the project: a text field, or a single-select field with the option names docs/projects.md lists. A value whose field is absent is simply not shown.',
  },
  'project-option-missing': {
    meaning:
      "A single-select field of the project has no option named as the projection's value (for example `approved` in the field Writ state): that value is not shown.",
    fix: 'Add the option (docs/projects.md lists every value), or make the field a text field.',
  },
  'project-item-inconclusive': {
    meaning:
      "Writ could not tell whether the run's project item exists (the project's items could not be read to the end, within the page bound): no item was created, so none is duplicated.",
    fix: "Nothing to do: the next follow lists again. A project with very many items: archive old ones, so the run's item is found within the bound.",
  },
} as const satisfies Record<string, ErrorDoc | string>;

/** Where each code is explained: docs/errors.md, one anchor per code. */
export const ERRORS_DOC_URL = 'https://github.com/writ-actions/writ/blob/main/docs/errors.md';

/** The stable link to a code's entry in docs/errors.md. */
export function errorLink(code: ErrorCode): string {
  return `${ERRORS_DOC_URL}#${code}`;
}

/** A code's meaning and fix; `fix` is null for an entry written as a bare meaning (the build refuses it). */
export function errorDoc(code: ErrorCode): { meaning: string; fix: string | null } {
  const entry: ErrorDoc | string = ERROR_CATALOGUE[code];
  return typeof entry === 'string' ? { meaning: entry, fix: null } : entry;
}

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

/** The one-line failure message a stage prints: starts with the code, ends with the code's link. */
export function failureMessage(thrown: unknown): string {
  const code = errorCode(thrown);
  const text = thrown instanceof WritError ? thrown.toString() : `internal-error: ${errorMessage(thrown)}`;
  return `${text} — ${errorLink(code)}`;
}

/**
 * The HTTP status of a failed GitHub request (Octokit's RequestError), or undefined for anything else.
 * A request that got no answer (refused connection, unknown host) is a RequestError with status 500
 * and no response: that status is Octokit's, not GitHub's, so it is undefined here too.
 */
export function httpStatus(error: unknown): number | undefined {
  const failed = error as { status?: unknown; request?: unknown; response?: unknown } | null;
  const value = failed?.status;
  if (typeof value !== 'number') return undefined;
  return failed?.request !== undefined && failed.response === undefined ? undefined : value;
}
