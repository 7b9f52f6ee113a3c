/** Help texts of `writ init` and `writ doctor`, and the CLI's version. */

export const WRIT_VERSION = '0.1.0';

export const INIT_HELP = `Usage: writ init --github --ref <40-hex commit> [options]

Renders Writ's configuration (.writ/config.json, policy.json, probe-allowlist.json, README.md,
manifest.json) and thin workflow callers (.github/workflows/writ-preview.yml, writ-approval.yml,
writ-recovery.yml) in
the Git repository you run it in, every Writ action pinned to the commit you reviewed. Safe to re-run:
a file init wrote and nobody changed is updated, an unchanged render is left alone, and a file you
edited or that init did not write is never overwritten (it is reported as a conflict). Then prints the
owner's remaining steps (the GitHub App and its permissions, the two ledger rulesets as JSON and gh api
commands, the secret and variables, writ bootstrap). It changes no GitHub setting itself.

Options:
  --github               required: set up for GitHub (github.com, GHE.com or GitHub Enterprise Server)
  --ref <sha>            the Writ commit to pin (40 lowercase hex; a tag or branch is refused).
                         Required on the first run; later runs keep the pinned one
  --ref-version <vX.Y.Z> the version comment after each pin (default: this writ's version, v${WRIT_VERSION})
  --writ-repo <o/r>      Writ's repository the actions come from (default: writ-actions/writ)
  --remote <name>        the GitHub remote to use when there are several
  --github-host <host>   treat <host> as a GitHub Enterprise Server host
  --app-slug <slug>      the Writ app's slug, written to .writ/config.json
  --app-id <id>          the Writ app's ID, written to .writ/config.json (then the rulesets print with it)
  --write-conflicts      write the new render beside each conflicting file as <file>.writ-new
  --dry-run              print every file operation (create, update, unchanged, conflict); write nothing
  --dir <path>           the repository to set up (default: the current directory)
  --json                 print the result as JSON (schemas/cli/init-result.schema.json)
  -h, --help             this help

Exit status: 0 when every file is created, updated or unchanged; 1 on a conflict (init-conflict) or a
refusal (init-refused: no Git repository, no GitHub remote, several without --remote, a target path
that is a directory or symlink) — a refusal writes nothing.
Pending stages (persist, probe) add their jobs and workflows when they are released.
`;

export const DOCTOR_HELP = `Usage: writ doctor --github [--repo <owner/repo>] [options]

Reports each preflight check as PASS, WARN, FAIL or UNKNOWN (the token cannot see it; UNKNOWN is
never reported as secure). Reads only; exits 1 on any FAIL (preflight-failed).

Checks: ledger-rulesets (the two ledger rulesets: deletion and non-fast-forward blocked with no bypass
actor, updates restricted to the Writ app alone), ledger-provenance (the ledger's own provenance check),
default-branch-pull-requests, default-branch-force-push-deletion, default-branch-required-checks,
default-branch-reviews, default-branch-bypass (rulesets and classic branch protection),
workflow-default-permissions, actions-approve-pull-requests, writ-workflows, workflow-pins,
workflow-permissions, workflow-pull-request-target, workflow-run-injection (the workflows on the
default branch), writ-files (.writ/ files valid against their schemas).

Options:
  --github               required
  --repo <owner/repo>    the repository (default: GITHUB_REPOSITORY)
  --branch <name>        the ledger branch (default: .writ/config.json's, else bot/writ-ledger)
  --app-slug <slug>      the Writ app (default: WRIT_APP_SLUG, else .writ/config.json)
  --app-id <id>          (default: WRIT_APP_ID, else .writ/config.json)
  --json                 print the report as JSON (schemas/cli/doctor-report.schema.json)
  -h, --help             this help

Environment: GITHUB_TOKEN (a repository admin's token sees everything; an app token without
administration access sees no bypass actors, branch protection or Actions settings: UNKNOWN),
GITHUB_API_URL (default https://api.github.com; GitHub Enterprise Server: https://<host>/api/v3).
`;
