/** Help texts of every `writ` command and subcommand, and the CLI's version. */
import type { StageName, StageSpec } from '@writ/core/io/registry.js';
import { STAGES } from '@writ/core/io/registry.js';

import { WRIT_VERSION } from '@writ/core/version.js';

export { WRIT_VERSION };

export const INIT_HELP = `Usage: writ init --github --ref <40-hex commit | vX.Y.Z> [options]

Renders Writ's configuration (.writ/config.json, policy.json, probe-allowlist.json, README.md,
manifest.json) and thin workflow callers (.github/workflows/writ-preview.yml, writ-approval.yml,
writ-probe.yml, writ-recovery.yml) and the work-request Issue Form
(.github/ISSUE_TEMPLATE/writ-request.yml, read by writ plan from-issue) in
the Git repository you run it in, every Writ action pinned to the commit you reviewed. Safe to re-run:
a file init wrote and nobody changed is updated, an unchanged render is left alone, and a file you
edited or that init did not write is never overwritten (it is reported as a conflict, and then no
other file changes either: init writes all of its files or none). Then prints the
owner's remaining steps (the GitHub App and its permissions, the two ledger rulesets as JSON and gh api
commands, the secret and variables, writ bootstrap). It changes no GitHub setting itself.

Options:
  --github               required: set up for GitHub (github.com, GHE.com or GitHub Enterprise Server)
  --ref <sha|vX.Y.Z>     the Writ commit to pin (40 lowercase hex), one the Writ clone has; its version
                         comment is the vX.Y.Z tag pointing at it, else its short SHA. Or a release
                         tag vX.Y.Z: resolved to its commit in the Writ clone (an annotated tag peeled),
                         pinned @<sha> # vX.Y.Z. A branch is refused. Required on the first run; later
                         runs keep the pinned one
  --writ-clone <dir>     the Writ clone --ref is checked in (default: the clone this writ runs from)
  --writ-repo <o/r>      Writ's repository the actions come from (default: writ-actions/writ)
  --remote <name>        the GitHub remote to use when there are several
  --github-host <host>   treat <host> as a GitHub Enterprise Server host
  --app-slug <slug>      the Writ app's slug, written to .writ/config.json
  --app-id <id>          the Writ app's ID, written to .writ/config.json (then the rulesets print with it)
  --environment <name>   run the jobs that write (persist, publish, dispatch) in this GitHub Environment,
                         kept in .writ/config.json (remove it there to stop); writ doctor checks its
                         protection. Without it everything works as without an Environment
  --pages                publish the read-only control tower (a site generated from the ledger by the
                         recovery workflow) to GitHub Pages, kept in .writ/config.json as "pages": true
                         (remove it there to stop); docs/pages.md
  --project <o/n>        show each run as an item on this organization's Projects (v2) project
                         (OWNER/NUMBER; docs/projects.md), kept in .writ/config.json; the jobs that
                         follow a run then ask for organization-projects: write. --project '' removes it
  --offline              do not ask the remote for its default branch (the clone's record only)
  --write-conflicts      write the new render beside each conflicting file as <file>.writ-new
  --dry-run              print every file operation (create, update, unchanged, conflict); write nothing
  --dir <path>           the repository to set up (default: the current directory)
  --json                 print the result as JSON (schemas/cli/init-result.schema.json)
  -h, --help             this help

The default branch: the repository's default_branch over the API when GITHUB_TOKEN is set (against
GITHUB_API_URL, else the remote's API), else git ls-remote --symref <remote> HEAD, else the clone's
refs/remotes/<remote>/HEAD; the ledger branch must differ from it (init-ledger-branch-is-default).

Exit status: 0 when every file is created, updated or unchanged; 1 on a conflict (init-conflict: no
file changed, only the .writ-new renders with --write-conflicts), a commit the Writ clone does not have
(init-ref-unknown: fetch it there), a release tag it does not have (init-tag-unknown: git fetch --tags
there) or a refusal (init-refused: no Git repository, no GitHub remote,
several without --remote, a target path that is a directory or symlink) — a refusal writes nothing.
`;

export const DOCTOR_HELP = `Usage: writ doctor --github [--repo <owner/repo>] [options]

Reports each preflight check as PASS, WARN, FAIL or UNKNOWN (the token cannot see it; UNKNOWN is
never reported as secure). Reads only; exits 1 on any FAIL (preflight-failed).

Checks: ledger-rulesets (the two ledger rulesets: deletion and non-fast-forward blocked with no bypass
actor, updates restricted to the Writ app alone), ledger-provenance (the ledger's own provenance check),
default-branch-pull-requests, default-branch-force-push-deletion, default-branch-required-checks,
default-branch-reviews, default-branch-bypass (rulesets and classic branch protection), codeowners
(CODEOWNERS owns .writ/ and .github/workflows/ and the default branch requires a code owner's review),
workflow-default-permissions, actions-approve-pull-requests, writ-workflows, workflow-pins,
workflow-permissions, workflow-pull-request-target, workflow-run-injection (the workflows on the
default branch), writ-files (.writ/ files valid against their schemas), probe-evidence, and
environment-protection when an Environment is named (required reviewers and a deployment branch policy),
project-board when .writ/config.json names a project (an open organization project with the fields the
projection writes), and pages-source when it has "pages": true (Pages built by GitHub Actions).

Options:
  --github               required
  --repo <owner/repo>    the repository (default: GITHUB_REPOSITORY, else the clone's one GitHub remote)
  --remote <name>        take the repository from this Git remote (as writ init does)
  --github-host <host>   treat <host>'s remotes as GitHub Enterprise Server remotes
  --branch <name>        the ledger branch (default: .writ/config.json's, else bot/writ-ledger)
  --app-slug <slug>      the Writ app (default: WRIT_APP_SLUG, else .writ/config.json)
  --app-id <id>          (default: WRIT_APP_ID, else .writ/config.json)
  --environment <name>   the GitHub Environment to check (default: .writ/config.json's environment)
  --json                 print the report as JSON (schemas/cli/doctor-report.schema.json)
  -h, --help             this help

Environment: GITHUB_TOKEN (a repository admin's token sees everything; the Writ app's token needs
administration read and write to see the rulesets' bypass actors, which GitHub shows only to tokens
that can write rulesets: with less, they, branch protection and Actions settings are UNKNOWN),
GITHUB_API_URL (default: the remote's API, else https://api.github.com; GitHub Enterprise Server:
https://<host>/api/v3).
`;

export const PROBE_HELP = `Usage: writ probe --repo <sandbox> --confirm-sandbox <sandbox> [--from <owner/repo>] [options]
       writ probe --explain <evidence-file> [--now <ISO time>]

Runs the stale-write contract probe (the probe stage's core) on a sandbox repository: cases 1, 2a, 2b,
3a, 3b and 4 with control writes, and the compare-and-set primitives Writ relies on; classifies each
positive, negative or inconclusive, cleans up only its own marked resources and writes the evidence
file to commit through a normal pull request. The guard runs first and only reads: the sandbox must be
confirmed, listed in the allow-list on the default branch of --from (never a checked-out copy), and not
--from itself (probe-repository-refused). Without --apply it prints what it would create and writes
nothing.

--explain prints which step kinds an evidence file opens under require-proof (assign: 2a, 2b, 3a,
3b; create: 4; marker/pin edit: 1) and why not.

Options:
  --repo <owner/name>        the sandbox
  --confirm-sandbox <o/n>    must equal --repo
  --from <owner/repo>        the repository whose allow-list governs (default: GITHUB_REPOSITORY)
  --allowlist-file <path>    (default .writ/probe-allowlist.json)
  --evidence-file <path>     where to write the evidence, under the current directory
                             (default .writ/probe-evidence.json)
  --cases <list>             all (default), or case and primitive IDs, comma-separated
  --probe-run <id>           the per-run marker ID (default cli-<time>)
  --apply                    run the probe (default: dry run)
  --json                     print the evidence (or the dry-run plan) as JSON
  -h, --help                 this help

Environment: GITHUB_TOKEN (scoped to the sandbox only; never the production app token),
WRIT_REPOSITORY_TOKEN (reads the allow-list of --from; default GITHUB_TOKEN), GITHUB_API_URL.
`;
const LEDGER_ENVIRONMENT = `Environment: GITHUB_TOKEN (see each command), GITHUB_API_URL (default https://api.github.com;
GHE.com https://api.<subdomain>.ghe.com; GitHub Enterprise Server https://<host>/api/v3),
GITHUB_REPOSITORY (default --repo; else the clone's GitHub remote, whose API URL is then the default),
WRIT_APP_SLUG / WRIT_APP_ID (default --app-slug / --app-id).
`;

export const BOOTSTRAP_HELP = `Usage: writ bootstrap [--repo <owner/repo>] [--apply] [options]

Creates the ledger branch's parentless root commit (ledger-root.json). Every precondition is read
before the first write: the branch is absent, the app identity is given and the token acts as that
app, and both ledger rulesets exist (writ-ledger-append-only: deletion and non-fast-forward with no
bypass actor; writ-ledger-writers: updates with the app as its only bypass actor). Without --apply it
prints those checks, both rulesets as JSON and the root it would write, and writes nothing; with
--apply it refuses on any check that is not PASS, so a refused bootstrap leaves nothing behind.

Options:
  --repo <owner/repo>    the repository (default: GITHUB_REPOSITORY, else the clone's one GitHub remote)
  --remote <name>        take the repository from this Git remote (as writ init does)
  --github-host <host>   treat <host>'s remotes as GitHub Enterprise Server remotes
  --apply                create the root (GITHUB_TOKEN must be the Writ app's installation token)
  --branch <name>        the ledger branch (default: bot/writ-ledger)
  --app-slug <slug>      the Writ app's slug (default: WRIT_APP_SLUG)
  --app-id <id>          the Writ app's numeric ID (default: WRIT_APP_ID)
  --json                 print the checks, rulesets and root as JSON
  -h, --help             this help

${LEDGER_ENVIRONMENT}`;

export const LEDGER_HELP = `Usage: writ ledger <show|verify> [options]

  writ ledger show      the lease (epoch, holder, expiry) and every run with its state and steps
  writ ledger verify    prove the ledger: replay every commit, check authorship, signatures, rulesets

writ ledger show --help and writ ledger verify --help list their options.
`;

export const LEDGER_SHOW_HELP = `Usage: writ ledger show [--repo <owner/repo>] [options]

Prints the ledger's head, the repository lease (epoch, holder, expiry on the server's clock) and every
run with its state, approval and steps. Reads only; any token that can read the repository will do.

Options:
  --repo <owner/repo>    the repository (default: GITHUB_REPOSITORY, else the clone's one GitHub remote)
  --remote <name>        take the repository from this Git remote (as writ init does)
  --github-host <host>   treat <host>'s remotes as GitHub Enterprise Server remotes
  --branch <name>        the ledger branch (default: bot/writ-ledger)
  --app-slug <slug>      accepted for symmetry with verify (not needed to read)
  --app-id <id>
  --json                 print the ledger as JSON
  -h, --help             this help

${LEDGER_ENVIRONMENT}`;

export const LEDGER_VERIFY_HELP = `Usage: writ ledger verify [--repo <owner/repo>] --app-slug <slug> --app-id <id> [options]

Proves the ledger is authority: a parentless app-authored root, every commit app-authored, verified and
exactly the legal transition its trailers name (replayed from its parent's state), and the two
rulesets in place since before the root. Exits 1 with ledger-provenance-unproven naming the first
commit or rule that fails. Reads only.

Options:
  --repo <owner/repo>    the repository (default: GITHUB_REPOSITORY, else the clone's one GitHub remote)
  --remote <name>        take the repository from this Git remote (as writ init does)
  --github-host <host>   treat <host>'s remotes as GitHub Enterprise Server remotes
  --branch <name>        the ledger branch (default: bot/writ-ledger)
  --app-slug <slug>      the Writ app's slug (default: WRIT_APP_SLUG); required
  --app-id <id>          the Writ app's numeric ID (default: WRIT_APP_ID); required
  --incremental          replay only the commits above the last signed checkpoint (what every gate does)
  --json                 print the result as JSON
  -h, --help             this help

${LEDGER_ENVIRONMENT}The token must see the rulesets' bypass actors, which GitHub shows only to a token that can write
rulesets (the app's token with administration read and write, or an admin's); without them provenance
cannot be proven and the check fails closed with ruleset-bypass-unreadable.
`;

export const RUN_HELP = `Usage: writ run <stage> [--repo <owner/repo>] [--input name=value ...] [options]

Runs a stage's committed bundle (dist/<stage>/index.js) the way GitHub's runner starts it: a child
node process with INPUT_* variables (action.yml defaults for inputs not given), the event payload
file and the runner's output and summary files, which are read back and printed. The temporary
runner folder it creates is removed afterwards, except the files the stage's outputs name (preview's
preview-path), which are kept and listed under "kept:"; with --keep <dir> the whole runner folder is
<dir> (RUNNER_TEMP, the output, state, summary and event files) and stays.

Stages: ${Object.keys(STAGES).join(', ')} (writ run <stage> --help lists its inputs).

Options:
  --repo <owner/repo>    the repository the stage acts on (default: GITHUB_REPOSITORY, else the
                         clone's one GitHub remote, whose API URL becomes GITHUB_API_URL if unset)
  --remote <name>        take the repository from this Git remote (as writ init does)
  --github-host <host>   treat <host>'s remotes as GitHub Enterprise Server remotes
  --input name=value     an action input (repeat for several)
  --event <file>         the event payload JSON (GITHUB_EVENT_PATH)
  --event-name <name>    GITHUB_EVENT_NAME (default: issue_comment with --event, else workflow_dispatch)
  --env-file <file>      KEY=VALUE lines added to the stage's environment
  --keep <dir>           use <dir> as the runner folder and keep it (created if missing)
  --json                 print status, outputs and the kept files as JSON
  -h, --help             this help

Environment passed through: GITHUB_API_URL, GITHUB_REPOSITORY, GITHUB_RUN_ID, GITHUB_RUN_ATTEMPT,
GITHUB_ACTOR_ID, GITHUB_EVENT_NAME, RUNNER_TEMP. WRIT_BUNDLE_DIR=<dir> runs <dir>/<stage>/index.js.
`;

export const DEMO_HELP = `Usage: writ demo

Runs Writ's whole approval lifecycle against an embedded GitHub emulator on loopback (no network, no
token): bootstrap the ledger, preview a plan with its status comment, a writer's approve comment,
consume it, claim and checkpoint two external steps (the last completes the run and frees the
lease), publish the rendered plan through one bot pull request, and refuse a replayed approval.
Every stage runs from its committed bundle, started the way the runner starts it. Same as npm run demo.
`;

function wrap(text: string, indent: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(`${indent}${line}`);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(`${indent}${line}`);
  return lines;
}

/** `writ run <stage> --help`: the stage's inputs with their defaults, from the registry generated from action.yml. */
export function stageHelp(stage: string): string | null {
  if (!Object.hasOwn(STAGES, stage)) return null;
  const spec: StageSpec = STAGES[stage as StageName];
  const lines = [
    `Usage: writ run ${stage} [--repo <owner/repo>] [--input name=value ...] [options]`,
    '',
    ...wrap(`${spec.name}: ${spec.description}`, '', 100),
    '',
    'Inputs (--input name=value):',
  ];
  for (const [name, input] of Object.entries(spec.inputs)) {
    const tag = input.required
      ? 'required'
      : `default ${input.default === undefined || input.default === '' ? '(empty)' : JSON.stringify(input.default)}`;
    lines.push(`  ${name} (${tag}${input.secret === true ? ', secret' : ''})`);
    lines.push(...wrap(input.description, '      ', 100));
  }
  lines.push('', 'Outputs:');
  for (const [name, output] of Object.entries(spec.outputs)) {
    lines.push(`  ${name}`);
    lines.push(...wrap(output.description, '      ', 100));
  }
  lines.push('', 'Options: writ run --help.');
  return `${lines.join('\n')}\n`;
}

export const PLAN_HELP = `Usage: writ plan from-issue [options]

Planners Writ ships. from-issue turns a submitted work-request form (the Issue Form writ init installs)
into a plan on stdout (writ plan from-issue --help).
`;

export const PLAN_FROM_ISSUE_HELP = `Usage: writ plan from-issue (--issue <number> | --body-file <path>) [options]

Turns a submitted Writ work-request form (.github/ISSUE_TEMPLATE/writ-request.yml, installed by writ
init) into a plan and prints it on stdout: one issue.create of the work unit, every answer shown as the
requester wrote it, the dropdown answers mapped to fixed keywords. Every answer is untrusted: a body
that is not the form is intake-form-malformed, an answer that breaks its field's rule is
intake-field-invalid, and one that holds a Writ marker or command, a secret, a control or bidi
character, or asks for workflows, permissions, secrets, administration or merging is
intake-field-hostile (docs/intake.md). Reads only; writes nothing.

Options:
  --issue <number>      The request issue. Without --body-file its body and title are read over the
                        API (GITHUB_TOKEN needs to read issues); with it, only names the issue.
  --body-file <path>    The issue body, as GitHub rendered the form (the workflow event's issue.body).
  --title <text>        The work unit's title (default: the issue's title without the form's
                        "[writ request]" prefix, else the objective's first line).
  --repo <owner/repo>   Default GITHUB_REPOSITORY, else the clone's one GitHub remote.
  --remote <name>       Take the repository from this Git remote (as writ init does).
  --github-host <host>  Treat <host>'s remotes as GitHub Enterprise Server remotes.
  --prefix <prefix>     The command prefix a requester may not write (default writ).
  -h, --help            this help

Environment: GITHUB_TOKEN (with --issue alone), GITHUB_API_URL, GITHUB_REPOSITORY.
`;

export const RECONCILE_HELP = `Usage: writ reconcile --run <run_id> [--step <step_id>] [--decision done|failed|retry] [options]

Prints a run's claimed steps (their outcome unknown until a writer checks GitHub) and the exact comment
command to post on the status issue for each: done (it happened), failed (it did not and must not be
retried) or retry (it did not: persist runs it again). The approval workflow consumes the comment under
the approval's rules. Reads the ledger only; writes nothing.

Options:
  --run <run_id>        The run (required).
  --step <step_id>      Only this claimed step.
  --decision <d>        Only this decision: done, failed or retry.
  --repo <owner/repo>   Default GITHUB_REPOSITORY, else the clone's one GitHub remote.
  --remote <name>       Take the repository from this Git remote (as writ init does).
  --github-host <host>  Treat <host>'s remotes as GitHub Enterprise Server remotes.
  --branch <name>       The ledger branch (default writ-ledger).
  --prefix <prefix>     The command prefix (default writ).
  --json                Print {run_id, state, claimed, commands}.
`;

export const CANCEL_HELP = `Usage: writ cancel --run <run_id> [options]

Prints the exact comment command that cancels a run (posted on the status issue, consumed by the
approval workflow under the approval's rules): the run then makes no further write and its lease is
freed at epoch + 1. Reads the ledger only; writes nothing.

Options:
  --run <run_id>        The run (required).
  --repo <owner/repo>   Default GITHUB_REPOSITORY, else the clone's one GitHub remote.
  --remote <name>       Take the repository from this Git remote (as writ init does).
  --github-host <host>  Treat <host>'s remotes as GitHub Enterprise Server remotes.
  --branch <name>       The ledger branch (default writ-ledger).
  --prefix <prefix>     The command prefix (default writ).
  --json                Print {run_id, state, claimed, command}.
`;

export const RECOVER_HELP = `Usage: writ recover --app-slug <slug> --app-id <id> [--repo <owner/repo>] [--apply] [options]

Runs the recovery sweep the scheduled workflow runs: expired leases of finished holders taken over at
epoch + 1, claimed steps resolved where GitHub shows their outcome (else stopped for a human), lost
approvals consumed under every consume-approval rule, status comments repaired. A dry run unless
--apply; with --apply, GITHUB_TOKEN must be the Writ app's installation token.

Options:
  --repo <owner/repo>      Default GITHUB_REPOSITORY, else the clone's one GitHub remote.
  --remote <name>          Take the repository from this Git remote (as writ init does).
  --github-host <host>     Treat <host>'s remotes as GitHub Enterprise Server remotes.
  --branch <name>          The ledger branch (default writ-ledger).
  --plan-file <plan.json>  The plan recomputed now (needed to observe steps and recover approvals).
  --app-slug <slug>        The ledger app (default WRIT_APP_SLUG).
  --app-id <id>            The ledger app's ID (default WRIT_APP_ID).
  --prefix <prefix>        The command prefix (default writ).
  --allowed-roles <roles>  Who may approve (default admin,maintain,write).
  --apply                  Write (takeovers, recovered approvals, repaired comments).
  --json                   Print the recovery report.
`;

export const TOWER_HELP = `Usage: writ tower --github [--repo <owner/repo>] [--out <dir>] [options]

Builds the Pages control tower from the repository's ledger over the API, as the recovery workflow
does with its tower-dir input (writ init --pages): index.html (one self-contained page, no script, no
external resource) and tower.json (the same data) in <dir>, to preview locally. It shows active runs,
run states, verification debt, failures and blockers (codes), the provenance timeline (each ledger
commit linked at its exact commit) and health; only public-safe fields (IDs, states, codes, SHAs,
timestamps), never plan text, comments, logins or tokens (docs/pages.md). Reads only; it has no
authority over any run.

Options:
  --github               required
  --repo <owner/repo>    the repository (default: GITHUB_REPOSITORY, else the clone's one GitHub remote)
  --remote <name>        take the repository from this Git remote (as writ init does)
  --github-host <host>   treat <host>'s remotes as GitHub Enterprise Server remotes
  --branch <name>        the ledger branch (default: bot/writ-ledger)
  --out <dir>            where to write the site (default: ./writ-tower)
  --commits <n>          ledger commits in the timeline, 1-500 (default: 50)
  --json                 print the files written and the tower's data as JSON
  -h, --help             this help

Environment: GITHUB_TOKEN (any token that can read the repository), GITHUB_API_URL, GITHUB_SERVER_URL
(the web origin of the timeline's links; default: the API's, https://github.com for api.github.com).
`;
