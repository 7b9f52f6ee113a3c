/**
 * What each job's tokens may do: the one table the workflow templates render (each job's
 * `actions/create-github-app-token` `permission-<name>` inputs and its GITHUB_TOKEN `permissions:`) and
 * the README's per-job permissions table is generated from (`renderPermissionsTable`, written by
 * `scripts/build/generate-templates.ts` between PERMISSIONS_START and PERMISSIONS_END, checked fresh by
 * `npm run check-dist`).
 *
 * Each app scope is what the job's Writ stages call (read from their code):
 * - every ledger commit needs `contents: write`;
 * - consume-approval, persist, publish-artifact and recovery prove the ledger append-only (a consume,
 *   reconcile or cancel transition, `readVerifiedRun`, `readVerifiedRuns`), which reads the ledger
 *   rulesets' bypass actors: GitHub returns them only to a token that can write rulesets, so
 *   `administration: write` although Writ never changes a setting; preview's proposal and
 *   claim-checkpoint's transitions do not prove it, so their jobs go without;
 * - the run's status comment (preview, consume-approval, persist, claim-checkpoint, publish-artifact,
 *   recovery) and persist's milestones, issues, labels and comments need `issues: write`;
 * - only publish-artifact opens and updates a pull request (`pull-requests: write`).
 * A token minted with these inputs holds exactly them: the installation's other permissions (any it was
 * granted beyond APP_PERMISSIONS) never reach the job.
 */
import type { StageName } from '../io/registry.js';

export type Access = 'read' | 'write';

/** The app permissions Writ's jobs ask for, as create-github-app-token names them (`permission-<name>`). */
export type AppScope =
  'administration' | 'contents' | 'issues' | 'metadata' | 'organization-projects' | 'pull-requests';

/** The GITHUB_TOKEN scopes Writ's jobs ask for, as a workflow's `permissions:` names them. */
export type GitHubTokenScope = 'actions' | 'contents' | 'issues' | 'pull-requests' | 'pages' | 'id-token';

export type WorkflowFile = 'writ-approval.yml' | 'writ-preview.yml' | 'writ-probe.yml' | 'writ-recovery.yml';

export interface JobPermissions {
  workflow: WorkflowFile;
  job: string;
  /** The Writ stages the job runs (none: it runs no Writ action). */
  stages: readonly StageName[];
  /** The job's app token scope, in create-github-app-token's order; null: the job mints no app token. */
  app: Readonly<Partial<Record<AppScope, Access>>> | null;
  /** The job's GITHUB_TOKEN `permissions:` (empty: none at all). */
  githubToken: Readonly<Partial<Record<GitHubTokenScope, Access>>>;
  why: string;
  /** Rendered only when the owner chose it: `pages` with `writ init --pages` (the control tower). */
  only?: 'pages';
}

/** A stage that commits to the ledger and keeps the run's status comment (or writes issues). */
const LEDGER_AND_STATUS = {
  contents: 'write',
  issues: 'write',
  metadata: 'read',
} as const satisfies Partial<Record<AppScope, Access>>;

/** A stage that also proves the ledger append-only (its rulesets' bypass actors: administration write). */
const PROVEN = { administration: 'write', ...LEDGER_AND_STATUS } as const;

const PUBLISH = { ...PROVEN, 'pull-requests': 'write' } as const;

const HANDOVER_WHY =
  'GITHUB_TOKEN starts the recovery workflow after a persist handover (a workflow_dispatch event), and nothing else; no app token';

export const JOB_PERMISSIONS: readonly JobPermissions[] = [
  {
    workflow: 'writ-preview.yml',
    job: 'preview',
    stages: ['preview'],
    app: LEDGER_AND_STATUS,
    githubToken: { contents: 'read' },
    why: 'commits the proposal to the ledger and keeps the status comment; GITHUB_TOKEN checks out',
  },
  {
    workflow: 'writ-approval.yml',
    job: 'approve',
    stages: ['consume-approval'],
    app: PROVEN,
    githubToken: { contents: 'read', actions: 'read' },
    why: "re-reads the comment and the commenter's live role, commits the approval and the lease, keeps the status comment; GITHUB_TOKEN checks out and reads an expired lease holder's workflow run",
  },
  {
    workflow: 'writ-approval.yml',
    job: 'persist',
    stages: ['persist'],
    app: PROVEN,
    githubToken: { contents: 'read' },
    why: "writes the plan's milestones, issues, labels and comments and records each in the ledger; GITHUB_TOKEN checks out",
  },
  {
    workflow: 'writ-approval.yml',
    job: 'publish',
    stages: ['publish-artifact'],
    app: PUBLISH,
    githubToken: { contents: 'read' },
    why: "commits the artifact on its bot branch and opens or updates the run's one pull request; GITHUB_TOKEN checks out",
  },
  {
    workflow: 'writ-approval.yml',
    job: 'release',
    stages: ['claim-checkpoint'],
    app: LEDGER_AND_STATUS,
    githubToken: {},
    why: 'frees the repository lease in the ledger and updates the status comment; checks nothing out',
  },
  {
    workflow: 'writ-approval.yml',
    job: 'handover',
    stages: [],
    app: null,
    githubToken: { actions: 'write' },
    why: HANDOVER_WHY,
  },
  {
    workflow: 'writ-probe.yml',
    job: 'probe',
    stages: ['probe'],
    app: null,
    githubToken: { contents: 'read' },
    why: 'the sandbox-only secret WRIT_PROBE_SANDBOX_TOKEN writes, in the sandbox alone; GITHUB_TOKEN reads the allow-list; never the Writ app',
  },
  {
    workflow: 'writ-recovery.yml',
    job: 'recovery',
    stages: ['recovery'],
    app: PROVEN,
    githubToken: { contents: 'read', actions: 'read' },
    why: "takes over expired leases, records observed steps and repairs status comments; GITHUB_TOKEN checks out and reads each lease holder's workflow run",
  },
  {
    workflow: 'writ-recovery.yml',
    job: 'persist',
    stages: ['persist', 'claim-checkpoint'],
    app: PROVEN,
    githubToken: { contents: 'read' },
    why: 'resumes each recovered run, and frees its lease when it hands over; GITHUB_TOKEN checks out',
  },
  {
    workflow: 'writ-recovery.yml',
    job: 'publish',
    stages: ['publish-artifact'],
    app: PUBLISH,
    githubToken: { contents: 'read' },
    why: 'publishes each recovered run (idempotent); GITHUB_TOKEN checks out',
  },
  {
    workflow: 'writ-recovery.yml',
    job: 'handover',
    stages: [],
    app: null,
    githubToken: { actions: 'write' },
    why: HANDOVER_WHY,
  },
  {
    workflow: 'writ-recovery.yml',
    job: 'pages',
    stages: [],
    app: null,
    githubToken: { pages: 'write', 'id-token': 'write' },
    only: 'pages',
    why: 'only with `writ init --pages`: deploys the read-only control tower the recovery job built from the ledger to GitHub Pages (actions/deploy-pages); no app token, no checkout',
  },
];

/** The jobs that write the plan's effects: with `--environment`, they run in that GitHub Environment. */
export const ENVIRONMENT_JOBS: readonly string[] = ['persist', 'publish'];

/** The table row of a job; a job the table does not hold is a template bug. */
export function jobPermissions(workflow: WorkflowFile, job: string): JobPermissions {
  const row = JOB_PERMISSIONS.find((entry) => entry.workflow === workflow && entry.job === job);
  if (row === undefined) throw new Error(`template bug: no permissions for ${workflow} job ${job}`);
  return row;
}

/** A job's GITHUB_TOKEN `permissions:` block, at job indentation (`permissions: {}` for none). */
export function githubTokenLines(row: JobPermissions): string[] {
  const scopes = Object.entries(row.githubToken);
  if (scopes.length === 0) return ['    permissions: {}'];
  return ['    permissions:', ...scopes.map(([scope, access]) => `      ${scope}: ${access}`)];
}

/** A job's create-github-app-token `permission-<name>` inputs, at `with:` indentation. */
export function appTokenInputs(row: JobPermissions, project = false): string[] {
  if (row.app === null) throw new Error(`template bug: ${row.workflow} job ${row.job} mints no app token`);
  const scopes = project ? { ...row.app, ...projectScope(row) } : row.app;
  return Object.entries(scopes).map(([scope, access]) => `          permission-${scope}: ${access}`);
}

// Issue 33: the optional Projects (v2) projection.
/**
 * The stages that keep a run's project item (their `project` input, projects/sync.ts). Only when the
 * owner names a project (`writ init --project`) do their jobs' app tokens also ask for
 * `organization-projects: write` (GitHub's "Organization permissions → Projects"): without a project, no
 * job holds it.
 */
export const PROJECT_STAGES: readonly StageName[] = [
  'preview',
  'consume-approval',
  'persist',
  'publish-artifact',
  'claim-checkpoint',
  'recovery',
];

/** The extra scope of a job whose stages keep the project item; none for any other job. */
export function projectScope(row: JobPermissions): Partial<Record<AppScope, Access>> {
  return row.stages.some((stage) => PROJECT_STAGES.includes(stage))
    ? { 'organization-projects': 'write' }
    : {};
}

export const PERMISSIONS_START =
  '<!-- writ:job-permissions: generated from packages/core/src/setup/permissions.ts by scripts/build/generate-templates.ts -->';
export const PERMISSIONS_END = '<!-- /writ:job-permissions -->';

const scopes = (entries: Readonly<Partial<Record<string, Access>>>): string =>
  Object.entries(entries)
    .map(([scope, access]) => `\`${scope}: ${access}\``)
    .join(', ');

/** The per-job permissions table (markdown, between the markers), from JOB_PERMISSIONS. */
export function renderPermissionsTable(): string {
  const rows = JOB_PERMISSIONS.map((row) => {
    const stages = row.stages.length === 0 ? '–' : row.stages.map((stage) => `\`${stage}\``).join(', ');
    const app = row.app === null ? 'none' : scopes(row.app);
    const github = Object.keys(row.githubToken).length === 0 ? 'none' : scopes(row.githubToken);
    return `| \`${row.workflow}\` | \`${row.job}\` | ${stages} | ${app} | ${github} | ${row.why} |`;
  });
  return [
    PERMISSIONS_START,
    '',
    '| workflow | job | Writ stages | app token (`permission-<name>`) | GITHUB_TOKEN (`permissions:`) | why |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    PERMISSIONS_END,
  ].join('\n');
}

/** A document's text with its per-job permissions table regenerated (the text between the two markers). */
export function withPermissionsTable(doc: string): string {
  const start = doc.indexOf(PERMISSIONS_START);
  const end = doc.indexOf(PERMISSIONS_END);
  if (start < 0 || end < start) throw new Error(`no ${PERMISSIONS_START} … ${PERMISSIONS_END} block`);
  return `${doc.slice(0, start)}${renderPermissionsTable()}${doc.slice(end + PERMISSIONS_END.length)}`;
}
