/** `writ bootstrap`, `writ ledger show`, `writ ledger verify`. */
import { WritError } from '@writ/core/errors.js';
import { TOKEN_KIND_LABEL, tokenKind } from '@writ/core/github/request-failure.js';
import { bootstrapLedger, showLedger, verifyLedger } from '@writ/core/ledger/bootstrap.js';
import type { LedgerContext } from '@writ/core/ledger/cas.js';
import { createLedgerContext } from '@writ/core/ledger/ledger.js';
import type { GitHubClient } from '@writ/core/github/client.js';
import type { LedgerApp, RunFile } from '@writ/core/ledger/types.js';
import { DEFAULT_LEDGER_BRANCH } from '@writ/core/ledger/types.js';
import { Problems, parseOptionsInto } from '../args.js';
import type { CliEnv, CliIo } from '../cli-io.js';
import { githubFromEnv } from '../github-env.js';
import { BOOTSTRAP_HELP, LEDGER_SHOW_HELP, LEDGER_VERIFY_HELP } from '../help.js';
import type { RepositoryTarget } from '../repository.js';
import { REPOSITORY_OPTIONS, repositoryTarget } from '../repository.js';

const COMMON = {
  ...REPOSITORY_OPTIONS,
  branch: { type: 'string' },
  json: { type: 'boolean' },
  'app-slug': { type: 'string' },
  'app-id': { type: 'string' },
} as const;

interface Settings {
  target: RepositoryTarget;
  repository: string;
  branch: string;
  json: boolean;
  app: LedgerApp | null;
}

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,33}[a-z0-9])?$/;

/** The repository and the app identity, every problem with them collected (reported with the options'). */
function settingsOf(
  values: {
    repo?: string;
    remote?: string;
    'github-host'?: string;
    branch?: string;
    json?: boolean;
    'app-slug'?: string;
    'app-id'?: string;
  },
  env: CliEnv,
  problems: Problems,
): Settings {
  const target = problems.check(() => repositoryTarget(values, env)) ?? {
    repository: '',
    source: '',
    apiUrl: null,
  };
  const slug = values['app-slug'] ?? env.WRIT_APP_SLUG;
  const idText = values['app-id'] ?? env.WRIT_APP_ID;
  let app: LedgerApp | null = null;
  if (slug !== undefined || idText !== undefined) {
    const slugOk = slug !== undefined && SLUG.test(slug);
    const idOk = idText !== undefined && /^[1-9][0-9]{0,15}$/.test(idText);
    if (!slugOk) {
      problems.add(
        slug === undefined
          ? '--app-id (WRIT_APP_ID) is given without --app-slug (WRIT_APP_SLUG): pass both, or neither'
          : 'invalid --app-slug (WRIT_APP_SLUG): expected the GitHub App slug, e.g. writ-ledger',
      );
    }
    if (!idOk) {
      problems.add(
        idText === undefined
          ? '--app-slug (WRIT_APP_SLUG) is given without --app-id (WRIT_APP_ID): pass both, or neither'
          : 'invalid --app-id (WRIT_APP_ID): expected the numeric GitHub App ID (the app settings page shows it)',
      );
    }
    if (slugOk && idOk) app = { slug, id: Number(idText) };
  }
  return {
    target,
    repository: target.repository,
    branch: values.branch ?? DEFAULT_LEDGER_BRANCH,
    json: values.json === true,
    app,
  };
}

function contextOf(settings: Settings, github: GitHubClient): LedgerContext {
  return createLedgerContext(
    { github },
    { repository: settings.repository, branch: settings.branch, app: settings.app },
  );
}

/**
 * The token must act as the Writ app before bootstrap writes: an installation token of another app
 * (the workflow's GITHUB_TOKEN is the GitHub Actions app's, also ghs_…) would author a root that no
 * provenance check accepts, on a branch the rulesets then keep. GraphQL's viewer is the token's actor.
 */
async function requireAppToken(github: GitHubClient, app: LedgerApp): Promise<void> {
  const { viewer } = await github.graphql<{ viewer: { login: string } }>('query { viewer { login } }');
  const expected = `${app.slug}[bot]`;
  if (viewer.login === expected) return;
  const actor = /^[A-Za-z0-9-]{1,39}(\[bot\])?$/.test(viewer.login) ? viewer.login : 'another account';
  throw new WritError(
    'invalid-input',
    actor === 'github-actions[bot]'
      ? `GITHUB_TOKEN is the workflow's own GITHUB_TOKEN (it acts as github-actions[bot]), not the Writ app's installation token: the ledger root must be written by ${expected}. Mint the app's token (actions/create-github-app-token with WRIT_APP_ID and WRIT_APP_PRIVATE_KEY) and run bootstrap with it; nothing was written.`
      : `GITHUB_TOKEN acts as ${actor}, not as the Writ app ${expected}: the ledger root must be written by the app. Use the app's installation token; nothing was written.`,
  );
}

function print(io: CliIo, settings: Settings, json: unknown, text: string): void {
  io.stdout(settings.json ? `${JSON.stringify(json, null, 2)}\n` : text);
}

export async function runBootstrap(args: readonly string[], env: CliEnv, io: CliIo): Promise<number> {
  const problems = new Problems('writ bootstrap');
  const { values } = parseOptionsInto(args, { ...COMMON, apply: { type: 'boolean' } }, problems);
  if (values.help === true) {
    io.stdout(BOOTSTRAP_HELP);
    return 0;
  }
  const settings = settingsOf(values, env, problems);
  const token = env.GITHUB_TOKEN ?? '';
  if (values.apply === true) {
    if (settings.app === null && problems.count === 0) {
      problems.add(
        'bootstrap --apply needs the ledger app identity: --app-slug and --app-id (or WRIT_APP_SLUG and WRIT_APP_ID)',
      );
    }
    const kind = tokenKind(token);
    if (token !== '' && kind !== 'installation' && kind !== 'unknown') {
      problems.add(
        `GITHUB_TOKEN is ${TOKEN_KIND_LABEL[kind]}, but bootstrap --apply must write as the Writ app: use the app's installation token (ghs_…, e.g. from actions/create-github-app-token), or the root would be authored by you and the ledger could never be proven`,
      );
    }
  }
  problems.done();
  const github = githubFromEnv(env, settings.target);
  if (values.apply === true && settings.app !== null) await requireAppToken(github, settings.app);
  const context = contextOf(settings, github);
  const result = await bootstrapLedger(context, { apply: values.apply === true });
  const payload = {
    dry_run: result.dry_run,
    create_root: result.create_root,
    repository: result.repository,
    branch: result.branch,
    files: result.files.map((file) => ({ path: file.path, contents: JSON.parse(file.contents) as unknown })),
    checks: result.checks,
    rulesets: result.rulesets,
    ...(result.root_oid === undefined ? {} : { root_oid: result.root_oid }),
    ...(result.provenance === undefined ? {} : { provenance: 'PASS' }),
  };
  const files = result.files.map((file) => `--- ${file.path}\n${file.contents}`).join('');
  const checks = result.checks
    .map((check) => `  ${check.status.padEnd(7)} ${check.check}: ${check.detail}\n`)
    .join('');
  const rulesets =
    result.rulesets === null
      ? ''
      : `The ledger branch needs these two rulesets (create each with: gh api -X POST repos/${result.repository}/rulesets --input <file>):\n${result.rulesets.map((ruleset) => `${JSON.stringify(ruleset, null, 2)}\n`).join('')}`;
  print(
    io,
    settings,
    payload,
    result.dry_run
      ? `Checks (all read before any write):\n${checks}${rulesets}Dry run: would create the parentless root commit of ${result.branch} in ${result.repository} with:\n${files}Nothing was written. Re-run with --apply (as the ledger app) to create it.\n`
      : `Created the ledger root ${result.root_oid ?? ''} on ${result.branch} in ${result.repository}.\nProvenance: PASS\n`,
  );
  return 0;
}

function stepCounts(run: RunFile): string {
  const counts = new Map<string, number>();
  for (const step of run.steps) counts.set(step.status, (counts.get(step.status) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${status} ${count}`).join(', ');
}

export async function runLedgerShow(args: readonly string[], env: CliEnv, io: CliIo): Promise<number> {
  const problems = new Problems('writ ledger show');
  const { values } = parseOptionsInto(args, COMMON, problems);
  if (values.help === true) {
    io.stdout(LEDGER_SHOW_HELP);
    return 0;
  }
  const settings = settingsOf(values, env, problems);
  problems.done();
  const overview = await showLedger(contextOf(settings, githubFromEnv(env, settings.target)));
  const lease = overview.lease;
  const lines = [
    `Ledger ${overview.repository}@${overview.branch}`,
    `Head: ${overview.headOid}`,
    `Server time: ${overview.serverTime}`,
    lease.holder === null
      ? `Lease: free (epoch ${lease.epoch})`
      : `Lease: epoch ${lease.epoch}, held by ${lease.holder.run_id} (workflow run ${lease.holder.workflow_run_id}, attempt ${lease.holder.attempt}) until ${lease.lease_expires_at ?? '?'}`,
    `Runs: ${overview.runs.length}`,
    ...overview.runs.map(
      (run) =>
        `  ${run.repository} ${run.run_id}  ${run.state}  approval ${run.approval === null ? 'none' : `${run.approval.actor_login} (comment ${run.approval.comment_id}, epoch ${run.approval.epoch})`}  steps: ${stepCounts(run)}${run.stop_reason === null ? '' : `  stop: ${run.stop_reason}`}`,
    ),
  ];
  print(io, settings, overview, `${lines.join('\n')}\n`);
  return 0;
}

export async function runLedgerVerify(args: readonly string[], env: CliEnv, io: CliIo): Promise<number> {
  const problems = new Problems('writ ledger verify');
  const { values } = parseOptionsInto(args, { ...COMMON, incremental: { type: 'boolean' } }, problems);
  if (values.help === true) {
    io.stdout(LEDGER_VERIFY_HELP);
    return 0;
  }
  const settings = settingsOf(values, env, problems);
  if (settings.app === null && problems.count === 0) {
    problems.add(
      'ledger verify needs the ledger app identity: --app-slug and --app-id (or WRIT_APP_SLUG and WRIT_APP_ID)',
    );
  }
  problems.done();
  const mode = values.incremental === true ? 'incremental' : 'full';
  const { headOid, report, requests } = await verifyLedger(
    contextOf(settings, githubFromEnv(env, settings.target)),
    { mode },
  );
  const json = {
    result: 'PASS',
    mode,
    head: headOid,
    root: report.rootOid,
    commits: report.totalCommits,
    commits_checked: report.commitsChecked,
    used_checkpoint: report.usedCheckpoint,
    rulesets: report.rulesetIds,
    consumed_run_ids: report.consumedRunIds.size,
    consumed_comment_ids: report.consumedCommentIds.size,
    requests,
  };
  print(
    io,
    settings,
    json,
    `PASS (${mode}): ${report.totalCommits} commits from root ${report.rootOid} to ${headOid}, ${report.commitsChecked} checked; rulesets ${report.rulesetIds.join(', ')}; ${report.consumedRunIds.size} consumed approvals; ${requests} API requests\n`,
  );
  return 0;
}
