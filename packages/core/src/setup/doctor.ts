/**
 * `writ doctor --github`: the preflight report (operations reference §12). Each check is PASS, WARN,
 * FAIL or UNKNOWN; UNKNOWN (the token cannot see it) is never reported as secure. The ledger's checks
 * reuse the ledger's own: `checkRulesets` and the provenance check `verifyLedger`. The two optional
 * projections are checked only when `.writ/config.json` switches them on (doctor-projections.ts).
 */
import { parse } from 'yaml';
import { WritError, errorMessage, httpStatus } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import { verifyLedger } from '../ledger/bootstrap.js';
import { createLedgerContext } from '../ledger/ledger.js';
import { parseRepository } from '../ledger/paths.js';
import { checkRulesets } from '../ledger/rulesets.js';
import type { LedgerApp } from '../ledger/types.js';
import type { ProbeEvidence } from '../probe/evidence.js';
import { EVIDENCE_PATH, evidenceProblems, evidenceVerdict } from '../probe/evidence.js';
import { quoteUntrusted } from '../untrusted-text.js';
import { CODEOWNERS_MAX_BYTES, CODEOWNERS_PATHS, parseCodeowners, ruleFor } from './codeowners.js';
import { pagesSourceCheck, projectBoardCheck } from './doctor-projections.js';
import type { WritPolicy } from './files.js';
import {
  ALLOWLIST_PATH,
  CONFIG_PATH,
  MANIFEST_PATH,
  POLICY_KINDS,
  POLICY_PATH,
  README_PATH,
  WORKFLOWS_DIR,
  checkWritFile,
  defaultPolicy,
} from './files.js';
import type { Check, CheckStatus, WritConfig } from './types.js';

export type { Check, CheckStatus } from './types.js';

export interface DoctorReport {
  schema: 1;
  repository: string;
  result: CheckStatus;
  code?: 'preflight-failed';
  /** The Environment whose protection was checked, when one is named. */
  environment?: string;
  counts: Record<CheckStatus, number>;
  checks: Check[];
}

export interface DoctorSettings {
  repository: string;
  /** From flags or the environment; else `.writ/config.json` on the default branch. */
  app: LedgerApp | null;
  ledgerBranch: string | null;
  /** The GitHub Environment to check (`--environment`); else `environment` in `.writ/config.json`. */
  environment?: string | null;
}

const WRIT_STAGES = 'preview|consume-approval|claim-checkpoint|persist|publish-artifact|probe|recovery';
const WRIT_USES = new RegExp(`/actions/(?:${WRIT_STAGES})@`);
const SHA = /@[0-9a-f]{40}$/;

function check(id: string, status: CheckStatus, detail: string, fix?: string): Check {
  return fix === undefined ? { id, status, detail } : { id, status, detail, fix };
}

/** A 403, or a 404 on what exists for every repository: the token cannot see it. */
function invisible(error: unknown): boolean {
  const status = httpStatus(error) ?? httpStatus((error as { cause?: unknown }).cause);
  return status === 403 || status === 401;
}

type Read<T> = { ok: true; value: T } | { ok: false; status: number | undefined; error: unknown };

async function read<T>(load: () => Promise<T>): Promise<Read<T>> {
  try {
    return { ok: true, value: await load() };
  } catch (error: unknown) {
    return { ok: false, status: httpStatus(error), error };
  }
}

interface Context {
  github: GitHubClient;
  owner: string;
  repo: string;
  defaultBranch: string;
}

async function fileText(ctx: Context, path: string): Promise<Read<string | null>> {
  return read(async () => {
    try {
      const response = await ctx.github.request('GET /repos/{owner}/{repo}/contents/{path}', {
        owner: ctx.owner,
        repo: ctx.repo,
        path,
        ref: ctx.defaultBranch,
      });
      const data = response.data as { type?: string; content?: string };
      if (Array.isArray(response.data) || data.type !== 'file') return null;
      return Buffer.from(data.content ?? '', 'base64').toString('utf8');
    } catch (error: unknown) {
      if (httpStatus(error) === 404) return null;
      throw error;
    }
  });
}

async function writFileChecks(
  ctx: Context,
): Promise<{ checks: Check[]; config: WritConfig | null; policy?: WritPolicy }> {
  let config: WritConfig | null = null;
  let policy: WritPolicy | undefined;
  const problems: string[] = [];
  for (const path of [CONFIG_PATH, POLICY_PATH, ALLOWLIST_PATH]) {
    const text = await fileText(ctx, path);
    if (!text.ok) {
      return {
        checks: [
          check(
            'writ-files',
            'UNKNOWN',
            `Cannot read ${path} on ${ctx.defaultBranch} (HTTP ${text.status ?? '?'}).`,
            'Use a token with contents: read.',
          ),
        ],
        config: null,
      };
    }
    if (text.value === null) {
      problems.push(`${path} is missing`);
      continue;
    }
    const { value, problems: found } = checkWritFile(path, text.value);
    if (value === undefined) problems.push(`${path}: ${found.slice(0, 3).join('; ')}`);
    else if (path === CONFIG_PATH) config = value as WritConfig;
    else if (path === POLICY_PATH) policy = value as WritPolicy;
  }
  return {
    checks: [
      problems.length === 0
        ? check(
            'writ-files',
            'PASS',
            `.writ/ config, policy and probe allow-list are valid on ${ctx.defaultBranch}.`,
          )
        : check(
            'writ-files',
            'FAIL',
            `${problems.join('; ')} (on ${ctx.defaultBranch}).`,
            'Run writ init --github, fix what it reports and commit .writ/.',
          ),
    ],
    config,
    ...(policy === undefined ? {} : { policy }),
  };
}

/**
 * The probe evidence on the default branch: present, valid against its schema, fresh (≤ 30 days by the
 * server's clock) and recorded against this API; and which step kinds it opens under the repository's
 * policy (`evidenceVerdict`, the rule persist's gate applies). Missing or stale evidence keeps the
 * require-proof kinds closed, which is safe: WARN. Evidence that does not validate: FAIL.
 */
async function probeEvidenceCheck(
  ctx: Context,
  policy: WritPolicy | undefined,
  apiUrl: string,
): Promise<Check> {
  const id = 'probe-evidence';
  const kinds = policy ?? defaultPolicy();
  const proofKinds = POLICY_KINDS.filter((kind) => kinds.kinds[kind] === 'require-proof');
  const bestEffort = POLICY_KINDS.filter((kind) => kinds.kinds[kind] === 'best-effort');
  const policyNote = `${policy === undefined ? 'policy unreadable, so require-proof for every kind' : `policy ${POLICY_PATH}`}${
    bestEffort.length === 0 ? '' : `; best-effort (no proof needed): ${bestEffort.join(', ')}`
  }`;
  let text: string | null;
  let now = Date.now();
  try {
    const response = await ctx.github.request('GET /repos/{owner}/{repo}/contents/{path}', {
      owner: ctx.owner,
      repo: ctx.repo,
      path: EVIDENCE_PATH,
      ref: ctx.defaultBranch,
    });
    const header = (response.headers as Record<string, unknown>).date;
    const date = typeof header === 'string' ? Date.parse(header) : Number.NaN;
    if (Number.isFinite(date)) now = date;
    const data = response.data as { type?: string; content?: string };
    text =
      Array.isArray(response.data) || data.type !== 'file'
        ? null
        : Buffer.from(data.content ?? '', 'base64').toString('utf8');
  } catch (error: unknown) {
    if (httpStatus(error) !== 404) {
      return check(
        id,
        'UNKNOWN',
        `Cannot read ${EVIDENCE_PATH} on ${ctx.defaultBranch} (HTTP ${httpStatus(error) ?? '?'}).`,
        'Use a token with contents: read.',
      );
    }
    text = null;
  }
  const runProbe =
    'Run the probe on a sandbox (writ-probe.yml or writ probe) and commit its evidence through a pull request.';
  if (text === null) {
    return proofKinds.length === 0
      ? check(
          id,
          'PASS',
          `No probe evidence on ${ctx.defaultBranch}; none is needed: every kind is best-effort (${policyNote}).`,
        )
      : check(
          id,
          'WARN',
          `No probe evidence on ${ctx.defaultBranch}: ${proofKinds.join(', ')} stay closed under require-proof (${policyNote}).`,
          runProbe,
        );
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    value = undefined;
  }
  const problems = value === undefined ? ['is not JSON'] : evidenceProblems(value);
  if (problems.length > 0) {
    return check(
      id,
      'FAIL',
      `${EVIDENCE_PATH} on ${ctx.defaultBranch} is invalid: ${problems.slice(0, 3).join('; ')}.`,
      runProbe,
    );
  }
  const evidence = value as ProbeEvidence;
  const verdicts = evidenceVerdict(evidence, proofKinds, new Date(now), apiUrl);
  const open = verdicts.filter((verdict) => verdict.open).map((verdict) => verdict.kind);
  const closed = verdicts.filter((verdict) => !verdict.open);
  const what = `${EVIDENCE_PATH} (${evidence.sandbox}, finished ${evidence.finished_at})`;
  const opens = `opens ${open.length === 0 ? 'no kind' : open.join(', ')}${
    closed.length === 0
      ? ''
      : `; closed: ${closed.map((verdict) => `${verdict.kind} (${'why' in verdict ? verdict.why : ''})`).join(', ')}`
  }`;
  const whole = evidenceVerdict(evidence, ['issue.create'], new Date(now), apiUrl)[0];
  const unusable =
    whole !== undefined && !whole.open && /days ago|in the future|recorded against/.test(whole.why);
  if (unusable) {
    return check(id, 'WARN', `${what} opens nothing: ${whole.why} (${policyNote}).`, runProbe);
  }
  return check(id, 'PASS', `${what} is valid and fresh; under require-proof it ${opens} (${policyNote}).`);
}

const RULESETS_ADMIN_FIX =
  "Grant the Writ app administration read and write (or run doctor with a repository admin's token); the rulesets exist, do not recreate them.";

type LedgerStore = ReturnType<typeof createLedgerContext>['store'];

/**
 * What this token can see of the rulesets on the ledger branch: UNKNOWN when the rules, a ruleset, or
 * an active ruleset's bypass actors cannot be read; null when every one of them can.
 */
async function ledgerRulesetsVisibility(store: LedgerStore, branch: string): Promise<Check | null> {
  const rules = await read(() => store.branchRules());
  if (!rules.ok) {
    return check(
      'ledger-rulesets',
      'UNKNOWN',
      `Cannot read the rules on ${branch}: ${errorMessage(rules.error)}`,
    );
  }
  const ids = [
    ...new Set(
      rules.value
        .filter((rule) => ['deletion', 'non_fast_forward', 'update'].includes(rule.type))
        .map((rule) => rule.rulesetId),
    ),
  ];
  let hidden = false;
  let unreadable: unknown = null;
  for (const id of ids) {
    const info = await read(() => store.ruleset(id));
    if (!info.ok) unreadable = info.error;
    else if (info.value.enforcement === 'active' && info.value.bypassActors === null) hidden = true;
  }
  if (unreadable !== null) {
    return check(
      'ledger-rulesets',
      'UNKNOWN',
      `Cannot read a ruleset on ${branch}: ${errorMessage(unreadable)}`,
    );
  }
  if (ids.length > 0 && hidden) {
    return check(
      'ledger-rulesets',
      'UNKNOWN',
      `The rulesets on ${branch} exist, but their bypass actors are not visible to this token (GitHub shows bypass_actors only to a token that can write rulesets), so the branch cannot be shown append-only.`,
      RULESETS_ADMIN_FIX,
    );
  }
  return null;
}

/** The ledger branch's rulesets, checked by the ledger's own `checkRulesets` once they are visible. */
async function ledgerRulesetsCheck(
  store: LedgerStore,
  app: LedgerApp | null,
  branch: string,
): Promise<Check> {
  const invisibleRulesets = await ledgerRulesetsVisibility(store, branch);
  if (invisibleRulesets !== null) return invisibleRulesets;
  if (app === null) {
    return check(
      'ledger-rulesets',
      'UNKNOWN',
      'The Writ app identity is not known, so its bypass cannot be checked.',
      'Fill app.slug and app.id in .writ/config.json, or pass --app-slug and --app-id.',
    );
  }
  try {
    const result = await checkRulesets(store, app, null);
    return check(
      'ledger-rulesets',
      'PASS',
      `Deletion and non-fast-forward blocked with no bypass actor, updates restricted to app ${app.id} (rulesets ${result.rulesetIds.join(', ')}).`,
    );
  } catch (error: unknown) {
    if (!(error instanceof WritError)) throw error;
    return error.code === 'ruleset-bypass-unreadable'
      ? check('ledger-rulesets', 'UNKNOWN', error.message, RULESETS_ADMIN_FIX)
      : check(
          'ledger-rulesets',
          'FAIL',
          error.message,
          'Add the two rulesets writ init --github prints (before bootstrapping the ledger).',
        );
  }
}

/** The ledger's full provenance check (`verifyLedger`), proven only on rulesets that passed. */
async function ledgerProvenanceCheck(
  ledger: ReturnType<typeof createLedgerContext>,
  branch: string,
  rulesets: Check,
): Promise<Check> {
  if (rulesets.status !== 'PASS') {
    return check(
      'ledger-provenance',
      'UNKNOWN',
      `Not proven while ledger-rulesets is ${rulesets.status} (the provenance check includes the rulesets).`,
    );
  }
  try {
    const verified = await verifyLedger(ledger, { mode: 'full' });
    return check(
      'ledger-provenance',
      'PASS',
      `${branch}: ${verified.report.totalCommits} commits from the parentless root ${verified.report.rootOid.slice(0, 12)} are app-authored, verified and legal transitions.`,
    );
  } catch (error: unknown) {
    if (!(error instanceof WritError)) throw error;
    if (error.code === 'ledger-branch-missing') {
      return check(
        'ledger-provenance',
        'FAIL',
        `The ledger branch ${branch} does not exist.`,
        'Create it with writ bootstrap --apply (the command writ init --github prints).',
      );
    }
    if (error.code === 'github-request-failed' && invisible(error)) {
      return check('ledger-provenance', 'UNKNOWN', error.message);
    }
    return check('ledger-provenance', 'FAIL', `${error.code}: ${error.message}`);
  }
}

async function ledgerChecks(ctx: Context, app: LedgerApp | null, branch: string): Promise<Check[]> {
  const ledger = createLedgerContext(
    { github: ctx.github },
    { repository: `${ctx.owner}/${ctx.repo}`, branch, app },
  );
  const rulesets = await ledgerRulesetsCheck(ledger.store, app, branch);
  return [rulesets, await ledgerProvenanceCheck(ledger, branch, rulesets)];
}

interface BranchRuleItem {
  type: string;
  ruleset_id?: number;
  parameters?: Record<string, unknown>;
}

/** The default branch's rules (rulesets) and classic protection (null: none), as far as this token reads. */
async function readDefaultBranchRules(ctx: Context) {
  const branch = ctx.defaultBranch;
  const rules = await read(async () => {
    const response = await ctx.github.request('GET /repos/{owner}/{repo}/rules/branches/{branch}', {
      owner: ctx.owner,
      repo: ctx.repo,
      branch,
      per_page: 100,
    });
    return response.data;
  });
  const classic = await read(async () => {
    try {
      const response = await ctx.github.request('GET /repos/{owner}/{repo}/branches/{branch}/protection', {
        owner: ctx.owner,
        repo: ctx.repo,
        branch,
      });
      return response.data;
    } catch (error: unknown) {
      if (httpStatus(error) === 404) return null;
      throw error;
    }
  });
  return { rules, classic };
}

type DefaultBranchRules = Awaited<ReturnType<typeof readDefaultBranchRules>>;

/** Pull requests, force pushes and deletion, required checks and reviews: by rulesets or classic protection. */
function protectionChecks(branch: string, { rules, classic }: DefaultBranchRules): Check[] {
  const ruleList = rules.ok ? rules.value : [];
  const has = (type: string): BranchRuleItem | undefined => ruleList.find((rule) => rule.type === type);
  // Classic protection needs administration read: without it, what rulesets do not show is UNKNOWN.
  const classicKnown = classic.ok;
  const protection = classic.ok ? classic.value : null;
  const unknownFix =
    "Run doctor with a token that can read branch protection: a repository admin's, or the Writ app's with administration read and write.";
  const decide = (
    id: string,
    satisfied: boolean,
    failing: CheckStatus,
    pass: string,
    fail: string,
    fix: string,
  ): Check => {
    if (satisfied) return check(id, 'PASS', pass);
    if (!rules.ok || !classicKnown) {
      return check(id, 'UNKNOWN', `${fail.replace(/\.$/, '')} as far as this token can see.`, unknownFix);
    }
    return check(id, failing, fail, fix);
  };
  const pullRequest = has('pull_request');
  const reviews =
    Number(pullRequest?.parameters?.required_approving_review_count ?? 0) >= 1 ||
    (protection?.required_pull_request_reviews?.required_approving_review_count ?? 0) >= 1;
  const checksRule = has('required_status_checks');
  const ruleChecks = (checksRule?.parameters?.required_status_checks as unknown[] | undefined)?.length ?? 0;
  const classicChecks =
    (protection?.required_status_checks?.contexts.length ?? 0) +
    (protection?.required_status_checks?.checks.length ?? 0);
  const forceBlocked =
    has('non_fast_forward') !== undefined ||
    (protection !== null && protection.allow_force_pushes?.enabled !== true);
  const deletionBlocked =
    has('deletion') !== undefined || (protection !== null && protection.allow_deletions?.enabled !== true);
  return [
    decide(
      'default-branch-pull-requests',
      pullRequest !== undefined || protection?.required_pull_request_reviews !== undefined,
      'FAIL',
      `Changes to ${branch} go through pull requests.`,
      `Pushes to ${branch} need no pull request.`,
      `Add a ruleset (or branch protection) on ${branch} requiring pull requests.`,
    ),
    decide(
      'default-branch-force-push-deletion',
      forceBlocked && deletionBlocked,
      'FAIL',
      `Force pushes to and deletion of ${branch} are blocked.`,
      `${[forceBlocked ? null : 'Force pushes to', deletionBlocked ? null : 'deletion of'].filter(Boolean).join(' and ')} ${branch} ${forceBlocked || deletionBlocked ? 'is' : 'are'} allowed.`,
      `Block force pushes (non_fast_forward) and deletion on ${branch}.`,
    ),
    decide(
      'default-branch-required-checks',
      ruleChecks + classicChecks > 0,
      'WARN',
      `${ruleChecks + classicChecks} required status check(s) on ${branch}.`,
      `No status check is required on ${branch}.`,
      'Require your CI checks before merging.',
    ),
    decide(
      'default-branch-reviews',
      reviews,
      'WARN',
      `Pull requests into ${branch} need an approving review.`,
      `Pull requests into ${branch} can merge without an approving review.`,
      'Require at least one approving review.',
    ),
  ];
}

/** Broad bypass actors (any non-admin repository role, any deploy key) on the rulesets of the default branch. */
async function defaultBranchBypassCheck(ctx: Context, rules: DefaultBranchRules['rules']): Promise<Check> {
  const branch = ctx.defaultBranch;
  if (!rules.ok) return check('default-branch-bypass', 'UNKNOWN', `Cannot read the rules on ${branch}.`);
  const ids = [
    ...new Set(rules.value.map((rule) => rule.ruleset_id).filter((id): id is number => id !== undefined)),
  ];
  const broad: string[] = [];
  for (const id of ids) {
    const ruleset = await read(async () => {
      const response = await ctx.github.request('GET /repos/{owner}/{repo}/rulesets/{ruleset_id}', {
        owner: ctx.owner,
        repo: ctx.repo,
        ruleset_id: id,
      });
      return response.data;
    });
    if (!ruleset.ok || ruleset.value.bypass_actors === undefined) {
      return check(
        'default-branch-bypass',
        'UNKNOWN',
        `The bypass actors of ruleset ${id} on ${branch} are not visible to this token.`,
        'Run doctor with a repository admin token.',
      );
    }
    for (const actor of ruleset.value.bypass_actors) {
      if (
        (actor.actor_type === 'RepositoryRole' && actor.actor_id !== 5) ||
        actor.actor_type === 'DeployKey'
      ) {
        broad.push(
          `${actor.actor_type}${actor.actor_id === null || actor.actor_id === undefined ? '' : ` ${actor.actor_id}`} on ruleset ${id}`,
        );
      }
    }
  }
  if (broad.length > 0) {
    return check(
      'default-branch-bypass',
      'WARN',
      `Broad bypass actors on ${branch}: ${broad.join(', ')}.`,
      'Limit bypass to admins or named apps.',
    );
  }
  return check('default-branch-bypass', 'PASS', `No ruleset on ${branch} has a broad bypass actor.`);
}

async function defaultBranchChecks(ctx: Context, rules: DefaultBranchRules): Promise<Check[]> {
  return [...protectionChecks(ctx.defaultBranch, rules), await defaultBranchBypassCheck(ctx, rules.rules)];
}

async function workflowSettingChecks(ctx: Context): Promise<Check[]> {
  const settings = await read(async () => {
    const response = await ctx.github.request('GET /repos/{owner}/{repo}/actions/permissions/workflow', {
      owner: ctx.owner,
      repo: ctx.repo,
    });
    return response.data;
  });
  if (!settings.ok) {
    const detail = `Cannot read the repository's Actions settings (HTTP ${settings.status ?? '?'}).`;
    const fix =
      "Run doctor with a token that can read the Actions settings: a repository admin's, or the Writ app's with administration read and write.";
    return [
      check('workflow-default-permissions', 'UNKNOWN', detail, fix),
      check('actions-approve-pull-requests', 'UNKNOWN', detail, fix),
    ];
  }
  const { default_workflow_permissions: level, can_approve_pull_request_reviews: approve } = settings.value;
  return [
    level === 'read'
      ? check('workflow-default-permissions', 'PASS', 'GITHUB_TOKEN defaults to read-only.')
      : check(
          'workflow-default-permissions',
          'WARN',
          'GITHUB_TOKEN defaults to read and write: any workflow without a permissions block can write.',
          'Settings → Actions → Workflow permissions: read repository contents and packages permissions.',
        ),
    approve
      ? check(
          'actions-approve-pull-requests',
          'WARN',
          "GitHub Actions may approve pull requests, so a workflow could approve Writ's artifact pull request.",
          'Settings → Actions: clear "Allow GitHub Actions to create and approve pull requests".',
        )
      : check('actions-approve-pull-requests', 'PASS', 'GitHub Actions cannot approve pull requests.'),
  ];
}

interface WorkflowDoc {
  on?: unknown;
  permissions?: unknown;
  jobs?: Record<
    string,
    { permissions?: unknown; steps?: { uses?: unknown; run?: unknown; with?: Record<string, unknown> }[] }
  >;
}

function grantsWrite(permissions: unknown): boolean {
  if (permissions === 'write-all') return true;
  if (typeof permissions !== 'object' || permissions === null) return false;
  return Object.values(permissions).some((level) => level === 'write');
}

function triggers(on: unknown): string[] {
  if (typeof on === 'string') return [on];
  if (Array.isArray(on)) return on.map(String);
  if (typeof on === 'object' && on !== null) return Object.keys(on);
  return [];
}

const WORKFLOW_CHECK_IDS = [
  'writ-workflows',
  'workflow-pins',
  'workflow-permissions',
  'workflow-pull-request-target',
  'workflow-run-injection',
];

/** The entries of the workflows folder on the default branch (none when it is absent). */
async function listWorkflows(ctx: Context): Promise<Read<{ name: string; path: string; type: string }[]>> {
  return read(async () => {
    try {
      const response = await ctx.github.request('GET /repos/{owner}/{repo}/contents/{path}', {
        owner: ctx.owner,
        repo: ctx.repo,
        path: WORKFLOWS_DIR,
        ref: ctx.defaultBranch,
      });
      return Array.isArray(response.data)
        ? response.data.map((entry) => ({ name: entry.name, path: entry.path, type: entry.type }))
        : [];
    } catch (error: unknown) {
      if (httpStatus(error) === 404) return [];
      throw error;
    }
  });
}

/** What the workflow files show, each list naming the files (and jobs or uses) it found. */
interface WorkflowFindings {
  writFiles: string[];
  unpinnedWrit: string[];
  unpinnedOther: string[];
  badPermissions: string[];
  prTarget: string[];
  injection: string[];
}

type WorkflowStep = NonNullable<NonNullable<WorkflowDoc['jobs']>[string]['steps']>[number];

/** One step of a job: its `uses:` pin, event text in its `run:`, a pull_request_target checkout of the head. */
function scanStep(
  step: WorkflowStep,
  where: { path: string; jobId: string; onPullRequestTarget: boolean },
  found: WorkflowFindings,
): boolean {
  const { path, jobId } = where;
  let usesWrit = false;
  const uses = typeof step.uses === 'string' ? step.uses : null;
  if (uses !== null && WRIT_USES.test(uses)) {
    usesWrit = true;
    if (!SHA.test(uses)) found.unpinnedWrit.push(`${path}: ${uses}`);
  } else if (uses !== null && !uses.startsWith('./') && !uses.startsWith('docker://') && !SHA.test(uses)) {
    found.unpinnedOther.push(`${path}: ${uses}`);
  }
  if (typeof step.run === 'string' && /\$\{\{[^}]*\b(?:github\.event\.|github\.head_ref)/.test(step.run)) {
    found.injection.push(`${path} job ${jobId}`);
  }
  const ref = step.with?.ref;
  if (
    where.onPullRequestTarget &&
    uses?.startsWith('actions/checkout@') === true &&
    typeof ref === 'string' &&
    /github\.event\.pull_request\.head|github\.head_ref/.test(ref)
  ) {
    found.prTarget.push(`${path} job ${jobId}`);
  }
  return usesWrit;
}

/** One workflow file's text, scanned into the findings (a file that is not YAML has bad permissions). */
function scanWorkflow(path: string, text: string, found: WorkflowFindings): void {
  let doc: WorkflowDoc;
  try {
    doc = (parse(text) ?? {}) as WorkflowDoc;
  } catch {
    found.badPermissions.push(`${path} (not valid YAML)`);
    return;
  }
  const jobs = Object.entries(doc.jobs ?? {});
  let usesWrit = false;
  const onPullRequestTarget = triggers(doc.on).includes('pull_request_target');
  for (const [jobId, job] of jobs) {
    for (const step of job.steps ?? []) {
      if (scanStep(step, { path, jobId, onPullRequestTarget }, found)) usesWrit = true;
    }
  }
  if (usesWrit) found.writFiles.push(path);
  const everyJobDeclares = jobs.length > 0 && jobs.every(([, job]) => job.permissions !== undefined);
  if (doc.permissions === undefined ? !everyJobDeclares : grantsWrite(doc.permissions)) {
    found.badPermissions.push(path);
  }
}

function workflowPinsCheck(found: WorkflowFindings, fileCount: number): Check {
  if (found.unpinnedWrit.length > 0) {
    return check(
      'workflow-pins',
      'FAIL',
      `Writ actions not pinned to a commit: ${found.unpinnedWrit.join('; ')}.`,
      'Pin every Writ uses: to a 40-hex commit (writ init --github --ref <sha>).',
    );
  }
  if (found.unpinnedOther.length > 0) {
    return check(
      'workflow-pins',
      'WARN',
      `Actions not pinned to a commit: ${found.unpinnedOther.join('; ')}.`,
      'Pin every action by its full commit SHA with a # vX.Y.Z comment.',
    );
  }
  return check('workflow-pins', 'PASS', `Every action in ${fileCount} workflow(s) is pinned to a commit.`);
}

/** The five workflow checks, in WORKFLOW_CHECK_IDS order, from what the files showed. */
function workflowFindingChecks(found: WorkflowFindings, fileCount: number, defaultBranch: string): Check[] {
  const { writFiles, badPermissions, prTarget, injection } = found;
  return [
    writFiles.length > 0
      ? check('writ-workflows', 'PASS', `Writ runs from ${writFiles.join(', ')}.`)
      : check(
          'writ-workflows',
          'FAIL',
          `No workflow on ${defaultBranch} uses a Writ action.`,
          'Run writ init --github and commit .github/workflows/.',
        ),
    workflowPinsCheck(found, fileCount),
    badPermissions.length > 0
      ? check(
          'workflow-permissions',
          'FAIL',
          `Workflows without read-only default permissions: ${badPermissions.join(', ')}.`,
          'Declare permissions: {} (or contents: read) at the top and grant writes per job.',
        )
      : check('workflow-permissions', 'PASS', 'Every workflow declares read-only default permissions.'),
    prTarget.length > 0
      ? check(
          'workflow-pull-request-target',
          'FAIL',
          `pull_request_target jobs check out the pull request head: ${prTarget.join(', ')}.`,
          "Never run untrusted PR code with the base repository's secrets and token.",
        )
      : check(
          'workflow-pull-request-target',
          'PASS',
          'No pull_request_target job checks out the pull request head.',
        ),
    injection.length > 0
      ? check(
          'workflow-run-injection',
          'FAIL',
          `Event text interpolated into run: scripts: ${injection.join(', ')}.`,
          'Pass event fields through env: and quote them in the script.',
        )
      : check('workflow-run-injection', 'PASS', 'No run: script interpolates event text.'),
  ];
}

type WorkflowListing = Awaited<ReturnType<typeof listWorkflows>>;

async function workflowChecks(ctx: Context, listing: WorkflowListing): Promise<Check[]> {
  if (!listing.ok) {
    return WORKFLOW_CHECK_IDS.map((id) =>
      check(
        id,
        'UNKNOWN',
        `Cannot read ${WORKFLOWS_DIR} on ${ctx.defaultBranch} (HTTP ${listing.status ?? '?'}).`,
        'Use a token with contents: read.',
      ),
    );
  }
  const files = listing.value.filter((entry) => entry.type === 'file' && /\.ya?ml$/.test(entry.name));
  const found: WorkflowFindings = {
    writFiles: [],
    unpinnedWrit: [],
    unpinnedOther: [],
    badPermissions: [],
    prTarget: [],
    injection: [],
  };
  for (const file of files) {
    const text = await fileText(ctx, file.path);
    if (!text.ok) {
      return WORKFLOW_CHECK_IDS.map((id) =>
        check(id, 'UNKNOWN', `Cannot read ${file.path} (HTTP ${text.status ?? '?'}).`),
      );
    }
    scanWorkflow(file.path, text.value ?? '', found);
  }
  return workflowFindingChecks(found, files.length, ctx.defaultBranch);
}

/** The files a change to which should need a code owner's review: Writ's own and every workflow, new ones too. */
function guardedPaths(listing: WorkflowListing): string[] {
  const workflows = listing.ok
    ? listing.value.filter((entry) => entry.type === 'file').map((entry) => entry.path)
    : [];
  return [
    ...new Set([
      CONFIG_PATH,
      POLICY_PATH,
      ALLOWLIST_PATH,
      EVIDENCE_PATH,
      MANIFEST_PATH,
      README_PATH,
      '.writ/a-new-file',
      ...workflows,
      `${WORKFLOWS_DIR}/a-new-workflow.yml`,
      `${WORKFLOWS_DIR}/a-new-workflow.yaml`,
    ]),
  ];
}

type CodeownersFile = { path: string; text: string } | { path: string; ignored: string } | null;

/** The CODEOWNERS GitHub uses: the first of its three places that holds a file, as the contents API gives it. */
async function readCodeowners(ctx: Context): Promise<Read<CodeownersFile>> {
  return read(async () => {
    for (const path of CODEOWNERS_PATHS) {
      let data: { type?: string; size?: number; content?: string; encoding?: string };
      try {
        const response = await ctx.github.request('GET /repos/{owner}/{repo}/contents/{path}', {
          owner: ctx.owner,
          repo: ctx.repo,
          path,
          ref: ctx.defaultBranch,
        });
        if (Array.isArray(response.data)) continue;
        data = response.data;
      } catch (error: unknown) {
        if (httpStatus(error) === 404) continue;
        throw error;
      }
      if (data.type !== 'file') continue;
      if ((data.size ?? 0) >= CODEOWNERS_MAX_BYTES) {
        return {
          path,
          ignored: `it is ${data.size ?? 0} bytes, and GitHub ignores a CODEOWNERS of 3 MB or more`,
        };
      }
      if (data.encoding !== 'base64') {
        throw new WritError('github-request-failed', `${path} is too large for the contents API to return.`);
      }
      return { path, text: Buffer.from(data.content ?? '', 'base64').toString('utf8') };
    }
    return null;
  });
}

/** Whether the default branch requires a code owner's review: by a ruleset, by classic protection, or unknown. */
function codeOwnerReviewRequired({ rules, classic }: DefaultBranchRules): boolean | null {
  const byRuleset =
    rules.ok &&
    rules.value.some(
      (rule) => rule.type === 'pull_request' && rule.parameters?.require_code_owner_review === true,
    );
  if (byRuleset) return true;
  if (classic.ok && classic.value?.required_pull_request_reviews?.require_code_owner_reviews === true)
    return true;
  return rules.ok && classic.ok ? false : null;
}

/**
 * CODEOWNERS coverage of `.writ/` and `.github/workflows/` (operations reference §12): PASS when every
 * guarded path has an owner and the default branch requires a code owner's review; WARN when a change to
 * one needs no owner's review (no CODEOWNERS, a path no line owns, or no rule requiring the review);
 * UNKNOWN when this token cannot read the file or the rules. GitHub also ignores an owner without write
 * access, which doctor cannot see: said in the detail.
 */
async function codeownersCheck(
  ctx: Context,
  branchRules: DefaultBranchRules,
  listing: WorkflowListing,
): Promise<Check> {
  const id = 'codeowners';
  const branch = ctx.defaultBranch;
  const where = CODEOWNERS_PATHS.join(', ');
  const fix = `Add ${CODEOWNERS_PATHS[0]} with lines such as "/.writ/ @your-org/maintainers" and "/.github/workflows/ @your-org/maintainers", and require review from Code Owners on ${branch} (ruleset pull_request rule or branch protection).`;
  const file = await readCodeowners(ctx);
  if (!file.ok) {
    return check(
      id,
      'UNKNOWN',
      `Cannot read CODEOWNERS on ${branch} (HTTP ${file.status ?? '?'}).`,
      'Use a token with contents: read.',
    );
  }
  if (file.value === null || 'ignored' in file.value) {
    const why =
      file.value === null
        ? `No CODEOWNERS on ${branch} (${where})`
        : `${file.value.path} on ${branch} is not used: ${file.value.ignored}`;
    return check(
      id,
      'WARN',
      `${why}: a change to .writ/ or ${WORKFLOWS_DIR}/ needs no code owner's review.`,
      fix,
    );
  }
  const codeowners = parseCodeowners(file.value.text);
  const owners = new Set<string>();
  const unowned: string[] = [];
  for (const path of guardedPaths(listing)) {
    const rule = ruleFor(codeowners, path);
    if (rule === null) unowned.push(`${quoteUntrusted(path)} (no line matches)`);
    else if (rule.owners.length === 0)
      unowned.push(
        `${quoteUntrusted(path)} (line ${rule.line} ${quoteUntrusted(rule.pattern)} names no owner)`,
      );
    else for (const owner of rule.owners) owners.add(owner);
  }
  const skipped =
    codeowners.problems.length === 0
      ? ''
      : `; GitHub skips or ignores part of line(s) ${[...new Set(codeowners.problems.map((problem) => problem.line))].slice(0, 10).join(', ')}`;
  if (unowned.length > 0) {
    return check(
      id,
      'WARN',
      `${file.value.path} on ${branch} leaves ${unowned.length} guarded path(s) without an owner, so a change to them needs no code owner's review: ${unowned.slice(0, 5).join('; ')}${unowned.length > 5 ? '; …' : ''}${skipped}.`,
      fix,
    );
  }
  const ownedBy = `.writ/ and ${WORKFLOWS_DIR}/ are owned by ${[...owners]
    .slice(0, 5)
    .map((owner) => quoteUntrusted(owner))
    .join(', ')} in ${file.value.path}${skipped}`;
  const required = codeOwnerReviewRequired(branchRules);
  if (required === true) {
    return check(
      id,
      'PASS',
      `${ownedBy}, and ${branch} requires a code owner's review (an owner without write access is ignored by GitHub and not checked here).`,
    );
  }
  if (required === null) {
    return check(
      id,
      'UNKNOWN',
      `${ownedBy}, but whether ${branch} requires a code owner's review is not visible to this token.`,
      "Run doctor with a token that can read branch protection: a repository admin's, or the Writ app's with administration read and write.",
    );
  }
  return check(
    id,
    'WARN',
    `${ownedBy}, but no rule on ${branch} requires a code owner's review, so their review is only requested.`,
    `Require review from Code Owners on ${branch} (ruleset pull_request rule: require_code_owner_review, or branch protection).`,
  );
}

interface EnvironmentView {
  protection_rules?: {
    type: string;
    reviewers?: unknown[];
    wait_timer?: number;
    prevent_self_review?: boolean;
  }[];
  deployment_branch_policy?: { protected_branches: boolean; custom_branch_policies: boolean } | null;
  can_admins_bypass?: boolean;
}

/**
 * The named Environment's protection (operations reference §11): PASS with required reviewers and a
 * deployment branch policy, WARN when it exists without either, FAIL when it does not exist, UNKNOWN when
 * this token cannot read environments (an app needs actions: read). A 404 on the environment is checked
 * against the list of environments, so a hidden environment is never reported missing.
 */
async function environmentCheck(ctx: Context, name: string): Promise<Check> {
  const id = 'environment-protection';
  const quoted = quoteUntrusted(name);
  const cannot = (status: number | undefined): Check =>
    check(
      id,
      'UNKNOWN',
      `Cannot read the environment ${quoted} (HTTP ${status ?? '?'}).`,
      'Grant the app actions: read (GitHub serves environments under it), or run doctor with a token that can read the repository.',
    );
  const one = await read(async () => {
    const response = await ctx.github.request('GET /repos/{owner}/{repo}/environments/{environment_name}', {
      owner: ctx.owner,
      repo: ctx.repo,
      environment_name: name,
    });
    const view: EnvironmentView = response.data;
    return view;
  });
  if (!one.ok) {
    if (one.status !== 404) return cannot(one.status);
    const list = await read(async () => {
      const response = await ctx.github.request('GET /repos/{owner}/{repo}/environments', {
        owner: ctx.owner,
        repo: ctx.repo,
        per_page: 100,
      });
      return response.data;
    });
    if (!list.ok) return cannot(list.status);
    const names = (list.value.environments ?? []).map((entry) => entry.name.toLowerCase());
    if ((list.value.total_count ?? names.length) > names.length || names.includes(name.toLowerCase()))
      return cannot(404);
    return check(
      id,
      'FAIL',
      `The environment ${quoted} named in ${CONFIG_PATH} does not exist: the jobs that write would create it unprotected on their first run.`,
      `Create it (Settings → Environments → New environment ${quoted}) with required reviewers and a deployment branch policy before the next run.`,
    );
  }
  const rules = one.value.protection_rules ?? [];
  const reviewers = rules.find((rule) => rule.type === 'required_reviewers');
  const waitTimer = rules.find((rule) => rule.type === 'wait_timer')?.wait_timer;
  const policy = one.value.deployment_branch_policy ?? null;
  const notes = [
    reviewers === undefined
      ? 'no required reviewers'
      : `required reviewers (${reviewers.reviewers?.length ?? '?'}${reviewers.prevent_self_review === true ? ', self-review prevented' : ''})`,
    policy === null
      ? 'every branch may deploy'
      : policy.protected_branches
        ? 'only protected branches may deploy'
        : 'only branches matching its name patterns may deploy',
    ...(waitTimer === undefined ? [] : [`a ${waitTimer}-minute wait timer`]),
    ...(one.value.can_admins_bypass === true ? ['administrators may bypass it'] : []),
  ].join(', ');
  if (reviewers !== undefined && policy !== null) {
    return check(id, 'PASS', `The environment ${quoted}: ${notes}.`);
  }
  return check(
    id,
    'WARN',
    `The environment ${quoted} exists but ${reviewers === undefined ? 'releases its secrets without an approval' : 'lets any branch deploy'}: ${notes}.`,
    `Settings → Environments → ${quoted}: ${reviewers === undefined ? 'add required reviewers' : ''}${reviewers === undefined && policy === null ? ' and ' : ''}${policy === null ? 'limit deployment branches to protected branches (or the default branch)' : ''}.`,
  );
}

const ORDER: CheckStatus[] = ['PASS', 'WARN', 'UNKNOWN', 'FAIL'];

export async function runDoctor(
  deps: { github: GitHubClient },
  settings: DoctorSettings,
): Promise<DoctorReport> {
  const { owner, repo } = parseRepository(settings.repository, '--repo');
  let defaultBranch: string;
  try {
    const response = await deps.github.request('GET /repos/{owner}/{repo}', { owner, repo });
    defaultBranch = response.data.default_branch;
  } catch (error: unknown) {
    throw new WritError(
      'github-request-failed',
      `Reading the repository ${owner}/${repo} failed${httpStatus(error) === undefined ? '' : ` with HTTP ${httpStatus(error)}`}; check GITHUB_TOKEN and GITHUB_API_URL.`,
      { cause: error },
    );
  }
  const ctx: Context = { github: deps.github, owner, repo, defaultBranch };
  const files = await writFileChecks(ctx);
  const configApp = files.config?.app;
  const app =
    settings.app ??
    (configApp?.slug != null && configApp.id != null ? { slug: configApp.slug, id: configApp.id } : null);
  const branch = settings.ledgerBranch ?? files.config?.ledger_branch ?? 'bot/writ-ledger';
  const environment = settings.environment ?? files.config?.environment ?? null;
  const rules = await readDefaultBranchRules(ctx);
  const listing = await listWorkflows(ctx);
  const checks = [
    ...(await ledgerChecks(ctx, app, branch)),
    ...(await defaultBranchChecks(ctx, rules)),
    await codeownersCheck(ctx, rules, listing),
    ...(await workflowSettingChecks(ctx)),
    ...(await workflowChecks(ctx, listing)),
    ...files.checks,
    await probeEvidenceCheck(ctx, files.policy, deps.github.request.endpoint.DEFAULTS.baseUrl),
    ...(environment === null ? [] : [await environmentCheck(ctx, environment)]),
    ...(files.config?.project === undefined
      ? []
      : [await projectBoardCheck(ctx.github, files.config.project)]),
    ...(files.config?.pages === true ? [await pagesSourceCheck(ctx.github, owner, repo)] : []),
  ];
  const counts: Record<CheckStatus, number> = { PASS: 0, WARN: 0, FAIL: 0, UNKNOWN: 0 };
  for (const entry of checks) counts[entry.status] += 1;
  const result = checks.reduce<CheckStatus>(
    (worst, entry) => (ORDER.indexOf(entry.status) > ORDER.indexOf(worst) ? entry.status : worst),
    'PASS',
  );
  return {
    schema: 1,
    repository: `${owner}/${repo}`,
    result,
    ...(result === 'FAIL' ? { code: 'preflight-failed' as const } : {}),
    ...(environment === null ? {} : { environment }),
    counts,
    checks,
  };
}

export function renderDoctorReport(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((entry) => entry.id.length));
  const lines = [`writ doctor: ${report.repository}`, ''];
  for (const entry of report.checks) {
    lines.push(`${entry.status.padEnd(7)} ${entry.id.padEnd(width)}  ${entry.detail}`);
    if (entry.fix !== undefined && entry.status !== 'PASS')
      lines.push(`${' '.repeat(10 + width)}fix: ${entry.fix}`);
  }
  lines.push(
    '',
    `${report.counts.PASS} PASS, ${report.counts.WARN} WARN, ${report.counts.FAIL} FAIL, ${report.counts.UNKNOWN} UNKNOWN (UNKNOWN is not secure: the token could not see it).`,
  );
  return `${lines.join('\n')}\n`;
}
