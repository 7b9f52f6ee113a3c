/**
 * The emulator's world: accounts, apps, tokens, repositories and everything inside them. Plain data plus
 * a few lookups; HTTP and GraphQL handlers read and change it.
 */
import { seededRandom } from '@writ/core/seeded-random.js';
import { Clock } from './clock.js';
import { GitStore } from './git.js';
import type { SecondaryLimits, SecondaryLimitsInput } from './secondary-limit-settings.js';
import { resolveSecondaryLimits } from './secondary-limit-settings.js';

export type Role = 'read' | 'triage' | 'write' | 'maintain' | 'admin';
export const ROLE_ORDER: Role[] = ['read', 'triage', 'write', 'maintain', 'admin'];
export type PermissionLevel = 'read' | 'write' | 'admin';
export type TokenKind = 'pat' | 'installation' | 'github_token';
export type ConditionalWrites = 'ignored' | 'honoured' | 'applied-then-412';

/**
 * What a create (issue, milestone) carrying a Writ idempotency marker another one already carries does:
 * `allowed` (GitHub: no create is unique but a milestone title), `refused` (422 `already_exists`,
 * nothing created) or `applied-then-412` (created, yet answered 412).
 */
export type MarkerCreates = 'allowed' | 'refused' | 'applied-then-412';

/**
 * The contract worlds the probe is tested in (`POST /_emulator/settings {world}`): `realistic` (what
 * GitHub does today: `If-Match` ignored, duplicate creates allowed), `412-applied` (a stale `If-Match`
 * or a duplicate marker create is answered 412 and applied) and `conditional-honoured` (a stale
 * `If-Match` is refused with 412 and a duplicate marker create with 422, nothing applied).
 */
export const CONTRACT_WORLDS = {
  realistic: { conditionalWrites: 'ignored', markerCreates: 'allowed' },
  '412-applied': { conditionalWrites: 'applied-then-412', markerCreates: 'applied-then-412' },
  'conditional-honoured': { conditionalWrites: 'honoured', markerCreates: 'refused' },
} as const satisfies Record<string, { conditionalWrites: ConditionalWrites; markerCreates: MarkerCreates }>;

export type ContractWorld = keyof typeof CONTRACT_WORLDS;

export interface Account {
  id: number;
  login: string;
  type: 'User' | 'Bot' | 'Organization';
  node_id: string;
  name: string | null;
  email: string | null;
  created_at: string;
}

export interface App {
  id: number;
  slug: string;
  name: string;
  node_id: string;
  bot: Account;
  owner: Account;
  created_at: string;
  installation_id: number;
}

export interface Token {
  token: string;
  kind: TokenKind;
  account: Account;
  app: App | null;
  /** null: the full permissions of the account (PAT) or a default installation set. */
  permissions: Record<string, PermissionLevel> | null;
  /** `owner/name` the token may reach; null for all. */
  repositories: string[] | null;
}

export interface Label {
  id: number;
  node_id: string;
  name: string;
  color: string;
  description: string | null;
  /** One of the labels GitHub gives every new repository (`default: true` in its representation). */
  default?: boolean;
}

/** The labels GitHub creates in every new repository (name, colour, description), in its order. */
export const DEFAULT_LABELS: readonly (readonly [string, string, string])[] = [
  ['bug', 'd73a4a', "Something isn't working"],
  ['documentation', '0075ca', 'Improvements or additions to documentation'],
  ['duplicate', 'cfd3d7', 'This issue or pull request already exists'],
  ['enhancement', 'a2eeef', 'New feature or request'],
  ['good first issue', '7057ff', 'Good for newcomers'],
  ['help wanted', '008672', 'Extra attention is needed'],
  ['invalid', 'e4e669', "This doesn't seem right"],
  ['question', 'd876e3', 'Further information is requested'],
  ['wontfix', 'ffffff', 'This will not be worked on'],
];

export type OrgRole = 'member' | 'admin';

export interface Milestone {
  id: number;
  node_id: string;
  number: number;
  title: string;
  description: string | null;
  state: 'open' | 'closed';
  due_on: string | null;
  creator: Account;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
}

export interface Issue {
  id: number;
  node_id: string;
  number: number;
  title: string;
  body: string | null;
  user: Account;
  state: 'open' | 'closed';
  state_reason: string | null;
  labels: number[];
  milestone: number | null;
  assignees: number[];
  locked: boolean;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  closed_by: Account | null;
  app: App | null;
  /** Present when the issue is a pull request. */
  pull: Pull | null;
}

export interface Pull {
  id: number;
  node_id: string;
  head_ref: string;
  head_sha: string;
  base_ref: string;
  base_sha: string;
  draft: boolean;
  merged_at: string | null;
  merged_by: Account | null;
  merge_commit_sha: string | null;
  maintainer_can_modify: boolean;
}

/**
 * One revision in GitHub's edit record of a comment (GraphQL `UserContentEdit`). The first edit of a
 * comment records two: the created revision (the author, at creation, the original body) and the edit.
 */
export interface CommentEdit {
  /** `<comment id>:<sequence>`. */
  key: string;
  node_id: string;
  editor: Account;
  edited_at: string;
  body: string;
}

export interface Comment {
  id: number;
  node_id: string;
  issue_number: number;
  body: string;
  user: Account;
  app: App | null;
  created_at: string;
  updated_at: string;
  /** GitHub's edit record, oldest first: empty until the first edit (see CommentEdit). */
  edits: CommentEdit[];
  /** Reactions to the comment, oldest first: one per account and content (rest/reactions.ts). */
  reactions: Reaction[];
}

/** The reaction contents GitHub accepts (`reaction.content` in its OpenAPI description). */
export const REACTION_CONTENTS = [
  '+1',
  '-1',
  'laugh',
  'confused',
  'heart',
  'hooray',
  'rocket',
  'eyes',
] as const;
export type ReactionContent = (typeof REACTION_CONTENTS)[number];

export interface Reaction {
  id: number;
  node_id: string;
  user: Account;
  content: ReactionContent;
  created_at: string;
}

interface BypassActor {
  actor_id: number | null;
  actor_type: string;
  bypass_mode: string;
}

interface Rule {
  type: string;
  parameters?: Record<string, unknown>;
}

export interface Ruleset {
  id: number;
  node_id: string;
  name: string;
  target: string;
  enforcement: 'disabled' | 'active' | 'evaluate';
  bypass_actors: BypassActor[];
  conditions: { ref_name?: { include?: string[]; exclude?: string[] } } | null;
  rules: Rule[];
  created_at: string;
  updated_at: string;
}

/**
 * Classic branch protection, as `PUT /repos/{o}/{r}/branches/{b}/protection` sets it. Stored and reported
 * (what `writ doctor` reads); not enforced on ref changes, where only rulesets are modelled.
 */
export interface BranchProtection {
  required_status_checks: { strict: boolean; contexts: string[] } | null;
  enforce_admins: boolean;
  required_pull_request_reviews: {
    required_approving_review_count: number;
    dismiss_stale_reviews: boolean;
    require_code_owner_reviews: boolean;
    require_last_push_approval: boolean;
  } | null;
  required_linear_history: boolean;
  allow_force_pushes: boolean;
  allow_deletions: boolean;
  block_creations: boolean;
  required_conversation_resolution: boolean;
  lock_branch: boolean;
}

/** A deployment environment as stored (environments.ts): the settings GitHub's `PUT` takes, and the ids of its protection rules. */
export interface Environment {
  id: number;
  node_id: string;
  name: string;
  created_at: string;
  updated_at: string;
  wait_timer: number;
  prevent_self_review: boolean;
  /** Required reviewers (users; GitHub allows up to six users or teams). */
  reviewers: Account[];
  can_admins_bypass: boolean;
  deployment_branch_policy: { protected_branches: boolean; custom_branch_policies: boolean } | null;
  /** Stable ids of the three built-in protection rules (a rule is shown only while it applies). */
  ruleIds: { wait_timer: number; required_reviewers: number; branch_policy: number };
}

/** A repository's GitHub Pages site (pages.ts): how it is built, and the branch a `legacy` build reads. */
export interface PagesSite {
  build_type: 'legacy' | 'workflow';
  source: { branch: string; path: '/' | '/docs' };
}

export interface WorkflowRun {
  id: number;
  node_id: string;
  name: string;
  status: string;
  conclusion: string | null;
  head_branch: string;
  head_sha: string;
  event: string;
  path: string;
  workflow_id: number;
  run_number: number;
  run_attempt: number;
  actor: Account;
  created_at: string;
  updated_at: string;
  run_started_at: string;
  /**
   * Every attempt's own status (`GET …/attempts/{n}`), the latest included; an attempt not listed here
   * (older emulator state) reads as the run itself.
   */
  attempts?: Map<number, WorkflowRunAttempt>;
  /** The rendered `run-name` (GitHub's `display_title`); the run's `name` when absent. */
  display_title?: string;
  /** Who started this attempt (a re-run's caller); the `actor` when absent. */
  triggering_actor?: Account;
  /** A dispatch's inputs, as GitHub passes them on (strings). */
  inputs?: Record<string, string>;
  /** Emulator-clock ms from which the run shows in run lists (the visibility delay knob); always when absent. */
  visible_at?: number;
}

/** A check run (`POST /repos/{o}/{r}/check-runs`): always made by a GitHub App, on an exact SHA. */
export interface CheckRun {
  id: number;
  node_id: string;
  name: string;
  head_sha: string;
  /** The branch the `head_sha` was resolved from (for the check suite), null when given as a SHA. */
  head_branch: string | null;
  status: string;
  conclusion: string | null;
  started_at: string | null;
  completed_at: string | null;
  output: { title: string | null; summary: string | null; text: string | null };
  external_id: string;
  details_url: string | null;
  app: App;
  check_suite_id: number;
}

/** A commit status (`POST /repos/{o}/{r}/statuses/{sha}`). */
export interface CommitStatus {
  id: number;
  node_id: string;
  sha: string;
  state: 'error' | 'failure' | 'pending' | 'success';
  description: string | null;
  target_url: string | null;
  context: string;
  creator: Account;
  created_at: string;
  updated_at: string;
}

/** What differs between attempts of one workflow run. */
export interface WorkflowRunAttempt {
  status: string;
  conclusion: string | null;
  updated_at: string;
  run_started_at: string;
}

export interface Repo {
  id: number;
  node_id: string;
  owner: Account;
  name: string;
  description: string | null;
  private: boolean;
  default_branch: string;
  git: GitStore;
  refs: Map<string, string>;
  collaborators: Map<number, Role>;
  /** Custom repository role names (account id → name); the access they grant is their base role's. */
  customRoles: Map<number, string>;
  rulesets: Ruleset[];
  /** Classic branch protection by branch name (reported, not enforced). */
  branchProtection: Map<string, BranchProtection>;
  /** Deployment environments by lower-case name (environments.ts; reported, not enforced). */
  environments: Map<string, Environment>;
  /** The GitHub Pages site (pages.ts; reported, nothing is built); null: Pages not enabled. */
  pages: PagesSite | null;
  issues: Map<number, Issue>;
  comments: Map<number, Comment>;
  labels: Map<number, Label>;
  milestones: Map<number, Milestone>;
  runs: Map<number, WorkflowRun>;
  /** Workflow IDs by file path, given the first time a workflow file is seen (stable afterwards). */
  workflows: Map<string, { id: number; node_id: string; created_at: string }>;
  checkRuns: Map<number, CheckRun>;
  /** Check suites by `<app id>:<head sha>` → suite id. */
  checkSuites: Map<string, number>;
  statuses: CommitStatus[];
  nextNumber: number;
  nextMilestone: number;
  /** Actions' default GITHUB_TOKEN permissions for the repository (GitHub's default for new ones: read). */
  workflowPermissions: {
    default_workflow_permissions: 'read' | 'write';
    can_approve_pull_request_reviews: boolean;
  };
  created_at: string;
  updated_at: string;
  pushed_at: string;
}

export interface RecordedEvent {
  seq: number;
  event: string;
  action: string;
  delivery: string;
  at: string;
  payload: Record<string, unknown>;
}

export interface RequestLogEntry {
  seq: number;
  method: string;
  path: string;
  operation: string | null;
  mutations: string[];
  status: number | 'dropped';
  actor: string | null;
  timestamp: string;
  fault: string | null;
  /** A REST POST/PATCH/PUT/DELETE or a GraphQL mutation: what GitHub's secondary limit counts. */
  contentCreating: boolean;
  /** Refused by the modelled secondary limit (secondary-limit.ts): not applied, not counted. */
  secondaryLimited: boolean;
}

/** The fault types `POST /_emulator/faults` accepts (see the README's _Faults_). */
export const FAULT_TYPES = [
  'latency',
  'status',
  'secondary-rate-limit',
  'primary-rate-limit',
  'apply-then-drop',
  'drop-before-apply',
  'apply-then-status',
] as const;

export interface FaultSpec {
  id: number;
  match: { method?: string; path?: string; operation?: string };
  fault: {
    type: (typeof FAULT_TYPES)[number];
    ms?: number;
    status?: number;
    retry_after?: number;
  };
  times: number | null;
  probability: number | null;
  /** Matching requests let through before the fault first fires. */
  skip: number;
  hits: number;
}

interface RateWindow {
  resetAt: number;
  used: number;
}

/** A Projects (v2) field: GitHub's built-in ones (Title, Status, Milestone…) and custom TEXT or SINGLE_SELECT ones. */
export interface ProjectField {
  id: string;
  databaseId: number;
  name: string;
  dataType: 'TITLE' | 'TEXT' | 'SINGLE_SELECT' | 'MILESTONE';
  /** A SINGLE_SELECT field's options (GitHub's option IDs are short strings). */
  options: { id: string; name: string }[];
  created_at: string;
}

/** A Projects (v2) item: here always a draft issue (title, body, creator) and its field values. */
export interface ProjectItem {
  id: string;
  databaseId: number;
  creator: Account;
  created_at: string;
  updated_at: string;
  draft: {
    id: string;
    title: string;
    body: string;
    creator: Account;
    created_at: string;
    updated_at: string;
  };
  /** Field id → the value: `text` for TEXT, `optionId` for SINGLE_SELECT; who set it and when. */
  values: Map<string, { text?: string; optionId?: string; creator: Account; updated_at: string }>;
}

/** A Projects (v2) project owned by an organization or a user account, numbered per owner. */
export interface ProjectV2 {
  id: string;
  databaseId: number;
  number: number;
  owner: Account;
  title: string;
  closed: boolean;
  fields: ProjectField[];
  items: ProjectItem[];
  created_at: string;
  updated_at: string;
}

const GITHUB_ACTIONS_BOT_ID = 41898282;
const GITHUB_ACTIONS_APP_ID = 15368;

/** Node IDs in the style of GitHub's (opaque, prefixed by type, stable for an object). */
export function nodeId(prefix: string, id: number | string): string {
  return `${prefix}_kwDO${Buffer.from(String(id)).toString('base64url')}`;
}

export interface WorldOptions {
  /**
   * GitHub's secondary limit on content-creating requests (secondary-limit.ts): `true` for GitHub's
   * figures (80 a minute, 500 an hour), figures of a test's own, or off (the default, so tests that
   * write in bursts stay fast). `reset()` comes back to this.
   */
  secondaryLimits?: SecondaryLimitsInput;
}

export class World {
  readonly clock: Clock;
  random: () => number;
  readonly seed: number;
  private nextId = 1000;
  accounts = new Map<string, Account>();
  apps = new Map<string, App>();
  tokens = new Map<string, Token>();
  repos = new Map<string, Repo>();
  events: RecordedEvent[] = [];
  requests: RequestLogEntry[] = [];
  faults: FaultSpec[] = [];
  rateWindows = new Map<string, RateWindow>();
  /** The modelled secondary limit's figures, or null while it is off. */
  secondaryLimits: SecondaryLimits | null;
  /** Admitted content-creating requests per caller (secondary-limit.ts), oldest first. */
  secondaryWindows = new Map<string, number[]>();
  private readonly configuredSecondaryLimits: SecondaryLimits | null;
  /**
   * What `If-Match` on an issue, comment or milestone PATCH does: `ignored` (GitHub's documented behaviour:
   * last write wins), `honoured` (a stale tag → 412, nothing applied), or `applied-then-412` (a stale tag
   * → 412 *and* the write applied, as one public report shows GitHub doing).
   */
  conditionalWrites: ConditionalWrites = 'ignored';
  markerCreates: MarkerCreates = 'allowed';
  requestSeq = 0;
  /**
   * How long (emulator-clock ms) a dispatched workflow run stays out of run lists after its creation:
   * GitHub lists a new run after a short, variable delay. 0 (the default): at once.
   */
  runVisibilityDelayMs = 0;
  /** The REST and web URLs the server answers on (set when it listens): what events and admin writes link to. */
  urls: { api: string; web: string } = { api: 'http://127.0.0.1', web: 'http://127.0.0.1' };
  /** Organization memberships: organization account id → member account id → role. */
  orgMembers = new Map<number, Map<number, OrgRole>>();
  /** Projects (v2), of every owner (projects.ts). */
  projects: ProjectV2[] = [];
  /**
   * Default labels take IDs from their own sequence, so a repository's defaults do not shift the IDs
   * everything else gets (GitHub's IDs are opaque; tests and recorded worlds keep theirs).
   */
  private nextLabelId = 4_000_000_000;

  constructor(seed: number, clock: Clock = new Clock(), options: WorldOptions = {}) {
    this.seed = seed;
    this.clock = clock;
    this.configuredSecondaryLimits = resolveSecondaryLimits(options.secondaryLimits);
    this.secondaryLimits = this.configuredSecondaryLimits;
    this.random = seededRandom(seed);
    this.installGithubActions();
  }

  reset(): void {
    this.nextId = 1000;
    this.random = seededRandom(this.seed);
    this.accounts = new Map();
    this.apps = new Map();
    this.tokens = new Map();
    this.repos = new Map();
    this.events = [];
    this.requests = [];
    this.faults = [];
    this.rateWindows = new Map();
    this.secondaryLimits = this.configuredSecondaryLimits;
    this.secondaryWindows = new Map();
    this.conditionalWrites = 'ignored';
    this.markerCreates = 'allowed';
    this.requestSeq = 0;
    this.runVisibilityDelayMs = 0;
    this.orgMembers = new Map();
    this.projects = [];
    this.nextLabelId = 4_000_000_000;
    this.installGithubActions();
  }

  id(): number {
    return ++this.nextId;
  }

  now(): string {
    return this.clock.iso();
  }

  private installGithubActions(): void {
    const webFlow: Account = {
      id: 19864447,
      login: 'web-flow',
      type: 'User',
      node_id: 'MDQ6VXNlcjE5ODY0NDQ3',
      name: 'GitHub Web Flow',
      email: null,
      created_at: this.now(),
    };
    this.accounts.set(webFlow.login, webFlow);
    const owner = this.addAccount('github', 'Organization');
    const bot: Account = {
      id: GITHUB_ACTIONS_BOT_ID,
      login: 'github-actions[bot]',
      type: 'Bot',
      node_id: 'MDM6Qm90NDE4OTgyODI=',
      name: null,
      email: null,
      created_at: this.now(),
    };
    this.accounts.set(bot.login.toLowerCase(), bot);
    this.apps.set('github-actions', {
      id: GITHUB_ACTIONS_APP_ID,
      slug: 'github-actions',
      name: 'GitHub Actions',
      node_id: 'MDM6QXBwMTUzNjg=',
      bot,
      owner,
      created_at: this.now(),
      installation_id: this.id(),
    });
  }

  addAccount(login: string, type: Account['type'] = 'User', name: string | null = null): Account {
    const existing = this.accounts.get(login.toLowerCase());
    if (existing) return existing;
    const id = this.id();
    const account: Account = {
      id,
      login,
      type,
      node_id: nodeId(type === 'Bot' ? 'BOT' : type === 'Organization' ? 'O' : 'U', id),
      name,
      email: null,
      created_at: this.now(),
    };
    this.accounts.set(login.toLowerCase(), account);
    return account;
  }

  addApp(slug: string, ownerLogin?: string): App {
    const existing = this.apps.get(slug);
    if (existing) return existing;
    const owner = ownerLogin ? this.addAccount(ownerLogin) : this.addAccount(`${slug}-owner`, 'Organization');
    const bot = this.addAccount(`${slug}[bot]`, 'Bot');
    const id = this.id();
    const app: App = {
      id,
      slug,
      name: slug,
      node_id: nodeId('A', id),
      bot,
      owner,
      created_at: this.now(),
      installation_id: this.id(),
    };
    this.apps.set(slug, app);
    return app;
  }

  account(login: string): Account | undefined {
    return this.accounts.get(login.toLowerCase());
  }

  accountById(id: number): Account | undefined {
    for (const account of this.accounts.values()) if (account.id === id) return account;
    return undefined;
  }

  repo(owner: string, name: string): Repo | undefined {
    return this.repos.get(`${owner}/${name}`.toLowerCase());
  }

  repoById(id: number): Repo | undefined {
    for (const repo of this.repos.values()) if (repo.id === id) return repo;
    return undefined;
  }

  createRepo(
    owner: Account,
    name: string,
    options: {
      default_branch?: string;
      private?: boolean;
      description?: string | null;
      /** GitHub's default labels (default true, as on GitHub). */
      default_labels?: boolean;
    },
  ): Repo {
    const id = this.id();
    const now = this.now();
    const repo: Repo = {
      id,
      node_id: nodeId('R', id),
      owner,
      name,
      description: options.description ?? null,
      private: options.private ?? false,
      default_branch: options.default_branch ?? 'main',
      git: new GitStore(),
      refs: new Map(),
      collaborators: new Map(),
      customRoles: new Map(),
      rulesets: [],
      branchProtection: new Map(),
      environments: new Map(),
      pages: null,
      issues: new Map(),
      comments: new Map(),
      labels: new Map(),
      milestones: new Map(),
      runs: new Map(),
      workflows: new Map(),
      checkRuns: new Map(),
      checkSuites: new Map(),
      statuses: [],
      nextNumber: 1,
      nextMilestone: 1,
      workflowPermissions: { default_workflow_permissions: 'read', can_approve_pull_request_reviews: false },
      created_at: now,
      updated_at: now,
      pushed_at: now,
    };
    this.repos.set(`${owner.login}/${name}`.toLowerCase(), repo);
    if (options.default_labels !== false) {
      for (const [label, color, description] of DEFAULT_LABELS) {
        const labelId = ++this.nextLabelId;
        repo.labels.set(labelId, {
          id: labelId,
          node_id: nodeId('LA', labelId),
          name: label,
          color,
          description,
          default: true,
        });
      }
    }
    return repo;
  }

  /** An account's role in an organization, or null (not a member, or `org` is no organization). */
  orgRole(org: Account, account: Account): OrgRole | null {
    if (org.type !== 'Organization') return null;
    return this.orgMembers.get(org.id)?.get(account.id) ?? null;
  }

  /**
   * The role an account holds on a repository (owner → admin; an organization's owners → admin, its
   * members the organization's base permission, read), or null. The stronger of that and a
   * collaborator role wins.
   */
  roleOf(account: Account, repo: Repo): Role | null {
    if (account.id === repo.owner.id) return 'admin';
    const collaborator = repo.collaborators.get(account.id) ?? null;
    const org = this.orgRole(repo.owner, account);
    const fromOrg: Role | null = org === 'admin' ? 'admin' : org === 'member' ? 'read' : null;
    if (fromOrg === null) return collaborator;
    if (collaborator === null) return fromOrg;
    return ROLE_ORDER.indexOf(collaborator) >= ROLE_ORDER.indexOf(fromOrg) ? collaborator : fromOrg;
  }
}

export function roleAtLeast(role: Role | null, minimum: Role): boolean {
  return role !== null && ROLE_ORDER.indexOf(role) >= ROLE_ORDER.indexOf(minimum);
}
