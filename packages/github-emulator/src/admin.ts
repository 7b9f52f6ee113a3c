/**
 * The emulator's control surface: the same operations back the HTTP admin API under `/_emulator` and the
 * `admin` object `startEmulator` returns.
 */
import { DEFAULT_GITHUB_TOKEN_PERMISSIONS, DEFAULT_INSTALLATION_PERMISSIONS } from './access.js';
import { identityOf } from './commits.js';
import { InvalidEnvironment, setEnvironment } from './environments.js';
import { InvalidPages, setPages } from './pages.js';
import { branchMoved } from './pull-sync.js';
import { recordRunEvent } from './rest/actions.js';
import { writeCommit } from './commits.js';
import type {
  OrgRole,
  BranchProtection,
  ConditionalWrites,
  ContractWorld,
  FaultSpec,
  PermissionLevel,
  Repo,
  RecordedEvent,
  RequestLogEntry,
  Role,
  Ruleset,
  Token,
  TokenKind,
  WorkflowRun,
  WorkflowRunAttempt,
  World,
} from './state.js';
import { CONTRACT_WORLDS, FAULT_TYPES, nodeId, ROLE_ORDER } from './state.js';
import type { SecondaryLimits } from './secondary-limit-settings.js';
import { resolveSecondaryLimits } from './secondary-limit-settings.js';

const RUN_CONCLUSIONS = [
  'success',
  'failure',
  'cancelled',
  'neutral',
  'skipped',
  'timed_out',
  'action_required',
  'stale',
];

function attemptOf(run: WorkflowRunAttempt): WorkflowRunAttempt {
  return {
    status: run.status,
    conclusion: run.conclusion,
    updated_at: run.updated_at,
    run_started_at: run.run_started_at,
  };
}

/** `setRun` naming an attempt before the latest: only that attempt's status changes. */
function setEarlierAttempt(
  run: WorkflowRun,
  spec: Partial<WorkflowRun>,
  now: string,
): Record<string, unknown> {
  const attempt = spec.run_attempt ?? run.run_attempt;
  if (!Number.isInteger(attempt) || attempt < 1)
    throw new AdminError(400, 'run_attempt must be a positive integer');
  const attempts = run.attempts ?? new Map<number, WorkflowRunAttempt>();
  const before = attempts.get(attempt) ?? attemptOf(run);
  const updated: WorkflowRunAttempt = {
    status: spec.status ?? before.status,
    conclusion: spec.conclusion !== undefined ? spec.conclusion : before.conclusion,
    updated_at: now,
    run_started_at: before.run_started_at,
  };
  attempts.set(attempt, updated);
  run.attempts = attempts;
  return { id: run.id, run_attempt: attempt, status: updated.status, conclusion: updated.conclusion };
}

export class AdminError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function need<T>(value: T | undefined, message: string, status = 404): T {
  if (value === undefined) throw new AdminError(status, message);
  return value;
}

export interface TokenSpec {
  token: string;
  kind: TokenKind;
  login?: string;
  app?: string;
  permissions?: Record<string, PermissionLevel>;
  repositories?: string[];
}

export interface RepoSpec {
  owner: string;
  name: string;
  default_branch?: string;
  private?: boolean;
  description?: string;
  /** Path → UTF-8 contents of the initial commit. Omit `files` (or pass `null`) for an empty repository. */
  files?: Record<string, string> | null;
  /** `false`: without GitHub's nine default labels (a new repository has them by default). */
  default_labels?: boolean;
}

export interface FaultInput {
  match?: FaultSpec['match'];
  fault: FaultSpec['fault'];
  times?: number;
  /** Let this many matching requests through first. */
  skip?: number;
  probability?: number;
}

export class Admin {
  constructor(readonly world: World) {}

  reset(): void {
    this.world.reset();
  }

  createUser(spec: {
    login: string;
    type?: 'User' | 'Organization';
    name?: string;
    email?: string;
  }): Record<string, unknown> {
    if (!spec.login) throw new AdminError(400, 'login is required');
    const account = this.world.addAccount(spec.login, spec.type ?? 'User', spec.name ?? null);
    if (spec.email) account.email = spec.email;
    return { id: account.id, login: account.login, type: account.type, node_id: account.node_id };
  }

  createApp(spec: { slug: string; owner?: string }): {
    app_id: number;
    slug: string;
    bot_login: string;
    bot_id: number;
    installation_id: number;
  } {
    if (!spec.slug) throw new AdminError(400, 'slug is required');
    const app = this.world.addApp(spec.slug, spec.owner);
    return {
      app_id: app.id,
      slug: app.slug,
      bot_login: app.bot.login,
      bot_id: app.bot.id,
      installation_id: app.installation_id,
    };
  }

  createToken(spec: TokenSpec): Record<string, unknown> {
    if (!spec.token) throw new AdminError(400, 'token is required');
    let token: Token;
    const kind: string = spec.kind;
    if (kind === 'pat') {
      const account = need(
        spec.login ? this.world.account(spec.login) : undefined,
        `unknown user ${String(spec.login)}`,
        400,
      );
      token = {
        token: spec.token,
        kind: 'pat',
        account,
        app: null,
        permissions: spec.permissions ?? null,
        repositories: spec.repositories ?? null,
      };
    } else if (kind === 'installation') {
      const app = need(
        spec.app ? this.world.apps.get(spec.app) : undefined,
        `unknown app ${String(spec.app)}`,
        400,
      );
      token = {
        token: spec.token,
        kind: 'installation',
        account: app.bot,
        app,
        permissions: { ...(spec.permissions ?? DEFAULT_INSTALLATION_PERMISSIONS), metadata: 'read' },
        repositories: spec.repositories ?? null,
      };
    } else if (kind === 'github_token') {
      const app = need(this.world.apps.get('github-actions'), 'github-actions app missing');
      token = {
        token: spec.token,
        kind: 'github_token',
        account: app.bot,
        app,
        permissions: { ...(spec.permissions ?? DEFAULT_GITHUB_TOKEN_PERMISSIONS), metadata: 'read' },
        repositories: spec.repositories ?? null,
      };
    } else {
      throw new AdminError(400, `kind must be pat, installation or github_token`);
    }
    this.world.tokens.set(token.token, token);
    return {
      kind: token.kind,
      login: token.account.login,
      permissions: token.permissions,
      repositories: token.repositories,
    };
  }

  createRepo(spec: RepoSpec): Record<string, unknown> {
    if (!spec.owner || !spec.name) throw new AdminError(400, 'owner and name are required');
    if (this.world.repo(spec.owner, spec.name))
      throw new AdminError(422, `repository ${spec.owner}/${spec.name} already exists`);
    const owner = this.world.account(spec.owner) ?? this.world.addAccount(spec.owner);
    const repo = this.world.createRepo(owner, spec.name, {
      ...(spec.default_branch ? { default_branch: spec.default_branch } : {}),
      ...(spec.private !== undefined ? { private: spec.private } : {}),
      ...(spec.description !== undefined ? { description: spec.description } : {}),
      ...(spec.default_labels === false ? { default_labels: false } : {}),
    });
    let head: string | null = null;
    if (spec.files) {
      const changes = new Map<string, { mode: string; sha: string } | null>();
      for (const [path, content] of Object.entries(spec.files)) {
        changes.set(path, { mode: '100644', sha: repo.git.putBlob(Buffer.from(content, 'utf8')) });
      }
      const tree = repo.git.applyChanges(null, changes);
      const identity = identityOf(this.world, owner);
      head = writeCommit(this.world, repo, {
        tree,
        parents: [],
        message: 'Initial commit',
        author: identity,
        committer: identity,
        sign: false,
      });
      repo.refs.set(`refs/heads/${repo.default_branch}`, head);
    }
    return {
      id: repo.id,
      node_id: repo.node_id,
      full_name: `${owner.login}/${repo.name}`,
      default_branch: repo.default_branch,
      head,
    };
  }

  private repo(owner: string, name: string) {
    return need(this.world.repo(owner, name), `unknown repository ${owner}/${name}`);
  }

  /**
   * Grants a base role, or a custom repository role with the access of `baseRole` (GitHub custom roles
   * inherit one of read, triage, write or maintain); `null`/`none` removes the collaborator.
   */
  setCollaborator(
    owner: string,
    name: string,
    login: string,
    role: string | null,
    baseRole?: string,
  ): Record<string, unknown> {
    const repo = this.repo(owner, name);
    const account = need(this.world.account(login), `unknown user ${login}`);
    repo.customRoles.delete(account.id);
    if (role === null || role === 'none') repo.collaborators.delete(account.id);
    else if (ROLE_ORDER.includes(role as Role)) repo.collaborators.set(account.id, role as Role);
    else {
      if (
        !/^[A-Za-z0-9][A-Za-z0-9 _-]{0,99}$/.test(role) ||
        !ROLE_ORDER.includes(baseRole as Role) ||
        baseRole === 'admin'
      )
        throw new AdminError(
          400,
          `role must be one of ${ROLE_ORDER.join(', ')}, or a custom role name with base_role read, triage, write or maintain`,
        );
      repo.collaborators.set(account.id, baseRole as Role);
      repo.customRoles.set(account.id, role);
    }
    return {
      login: account.login,
      role: role ?? 'none',
      ...(repo.customRoles.has(account.id) ? { base_role: baseRole } : {}),
    };
  }

  /**
   * Makes `login` a member (`member`) or owner (`admin`) of the organization `org`, or removes them
   * (`none`). Owners get admin on the organization's repositories, members its base permission (read);
   * on issues and comments both are `MEMBER`.
   */
  setOrgMember(org: string, login: string, role: string): Record<string, unknown> {
    const organization = need(this.world.account(org), `unknown organization ${org}`);
    if (organization.type !== 'Organization') throw new AdminError(400, `${org} is not an organization`);
    const account = need(this.world.account(login), `unknown user ${login}`);
    const members = this.world.orgMembers.get(organization.id) ?? new Map<number, OrgRole>();
    this.world.orgMembers.set(organization.id, members);
    if (role === 'none') members.delete(account.id);
    else if (role === 'member' || role === 'admin') members.set(account.id, role);
    else throw new AdminError(400, 'role must be member, admin or none');
    return { organization: organization.login, login: account.login, role };
  }

  addRuleset(owner: string, name: string, spec: Partial<Ruleset> & { name?: string }): Ruleset {
    const repo = this.repo(owner, name);
    const id = this.world.id();
    const now = this.world.now();
    const ruleset: Ruleset = {
      id,
      node_id: nodeId('RRS', id),
      name: spec.name ?? `ruleset-${id}`,
      target: spec.target ?? 'branch',
      enforcement: spec.enforcement ?? 'active',
      bypass_actors: spec.bypass_actors ?? [],
      conditions: spec.conditions ?? { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] } },
      rules: spec.rules ?? [],
      created_at: now,
      updated_at: now,
    };
    repo.rulesets.push(ruleset);
    return ruleset;
  }

  setRun(
    owner: string,
    name: string,
    spec: Partial<WorkflowRun> & { id?: number; actor?: unknown },
  ): Record<string, unknown> {
    const repo = this.repo(owner, name);
    const id = spec.id ?? this.world.id();
    const now = this.world.now();
    const existing = repo.runs.get(id);
    if (existing !== undefined && spec.run_attempt !== undefined && spec.run_attempt < existing.run_attempt) {
      return setEarlierAttempt(existing, spec, now);
    }
    const headBranch = spec.head_branch ?? existing?.head_branch ?? repo.default_branch;
    const run: WorkflowRun = {
      id,
      node_id: existing?.node_id ?? nodeId('WFR', id),
      name: spec.name ?? existing?.name ?? 'workflow',
      status: spec.status ?? existing?.status ?? 'queued',
      conclusion: spec.conclusion !== undefined ? spec.conclusion : (existing?.conclusion ?? null),
      head_branch: headBranch,
      head_sha:
        spec.head_sha ?? existing?.head_sha ?? repo.refs.get(`refs/heads/${headBranch}`) ?? '0'.repeat(40),
      event: spec.event ?? existing?.event ?? 'workflow_dispatch',
      path: spec.path ?? existing?.path ?? '.github/workflows/writ.yml',
      workflow_id: spec.workflow_id ?? existing?.workflow_id ?? 1,
      run_number: spec.run_number ?? existing?.run_number ?? repo.runs.size + 1,
      run_attempt: spec.run_attempt ?? existing?.run_attempt ?? 1,
      actor: existing?.actor ?? repo.owner,
      created_at: existing?.created_at ?? now,
      updated_at: now,
      run_started_at:
        existing !== undefined && spec.run_attempt !== undefined && spec.run_attempt > existing.run_attempt
          ? now
          : (existing?.run_started_at ?? now),
      attempts: new Map(existing?.attempts ?? []),
    };
    run.attempts?.set(run.run_attempt, attemptOf(run));
    repo.runs.set(id, run);
    return { id: run.id, status: run.status, conclusion: run.conclusion };
  }

  /**
   * Moves a run to `in_progress` (its runner picked it up), recording `workflow_run in_progress`.
   */
  startRun(owner: string, name: string, id: number): Record<string, unknown> {
    const repo = this.repo(owner, name);
    const run = need(repo.runs.get(id), `unknown run ${id}`);
    if (run.status === 'completed') throw new AdminError(409, `run ${id} is already completed`);
    const now = this.world.now();
    run.status = 'in_progress';
    run.updated_at = now;
    run.run_started_at = now;
    run.attempts?.set(run.run_attempt, attemptOf(run));
    recordRunEvent(this.world, null, repo, run, 'in_progress');
    return { id: run.id, status: run.status, conclusion: run.conclusion };
  }

  /** Completes a run with `conclusion` (`success`, `failure`, `cancelled`, …), recording `workflow_run completed`. */
  completeRun(owner: string, name: string, id: number, conclusion: string): Record<string, unknown> {
    const repo = this.repo(owner, name);
    const run = need(repo.runs.get(id), `unknown run ${id}`);
    if (!RUN_CONCLUSIONS.includes(conclusion)) {
      throw new AdminError(400, `conclusion must be one of ${RUN_CONCLUSIONS.join(', ')}`);
    }
    if (run.status === 'completed') throw new AdminError(409, `run ${id} is already completed`);
    run.status = 'completed';
    run.conclusion = conclusion;
    run.updated_at = this.world.now();
    run.attempts?.set(run.run_attempt, attemptOf(run));
    recordRunEvent(this.world, null, repo, run, 'completed');
    return { id: run.id, status: run.status, conclusion: run.conclusion };
  }

  /**
   * How long (emulator-clock ms) a newly dispatched run stays out of run lists (`GET …/actions/runs`,
   * `GET …/workflows/{id}/runs`); `GET …/runs/{id}` finds it at once. 0 (the default): listed at once.
   */
  setRunVisibilityDelay(ms: number): { run_visibility_delay_ms: number } {
    if (!Number.isInteger(ms) || ms < 0)
      throw new AdminError(400, 'run_visibility_delay_ms must be an integer ≥ 0');
    this.world.runVisibilityDelayMs = ms;
    return { run_visibility_delay_ms: ms };
  }

  /**
   * One commit on `branch` as `author` (a user's or an app bot's login; default: the repository owner),
   * changing `files` (path → UTF-8 text, or null to delete). A missing branch is created from `base`
   * (a branch name or commit SHA; default: the default branch). The branch moves like a push: open pull
   * requests whose head it is follow it (`pull_request synchronize`). Returns `{sha, branch}`.
   */
  commitFiles(
    owner: string,
    name: string,
    spec: {
      branch: string;
      base?: string;
      files: Record<string, string | null>;
      message?: string;
      author?: string;
    },
  ): { sha: string; branch: string } {
    const repo = this.repo(owner, name);
    if (!spec.branch || (spec.files as unknown) === null || typeof spec.files !== 'object') {
      throw new AdminError(400, 'branch and files are required');
    }
    const ref = `refs/heads/${spec.branch}`;
    let parent = repo.refs.get(ref);
    if (parent === undefined) {
      const base = spec.base ?? repo.default_branch;
      parent =
        /^[0-9a-f]{40}$/.test(base) && repo.git.has(base, 'commit')
          ? base
          : repo.refs.get(`refs/heads/${base}`);
      if (parent === undefined && spec.base !== undefined) throw new AdminError(404, `unknown base ${base}`);
    }
    const account = spec.author
      ? need(this.world.account(spec.author), `unknown account ${spec.author}`, 400)
      : repo.owner;
    const changes = new Map<string, { mode: string; sha: string } | null>();
    for (const [path, content] of Object.entries(spec.files)) {
      changes.set(
        path,
        content === null ? null : { mode: '100644', sha: repo.git.putBlob(Buffer.from(content, 'utf8')) },
      );
    }
    const tree = repo.git.applyChanges(parent === undefined ? null : repo.git.commit(parent).tree, changes);
    const identity = identityOf(this.world, account);
    const sha = writeCommit(this.world, repo, {
      tree,
      parents: parent === undefined ? [] : [parent],
      message: spec.message ?? `Update ${Object.keys(spec.files).join(', ')}`,
      author: identity,
      committer: identity,
      sign: false,
    });
    const before = repo.refs.get(ref) ?? null;
    repo.refs.set(ref, sha);
    repo.pushed_at = this.world.now();
    branchMoved(this.world, null, account, repo, spec.branch, before, sha);
    return { sha, branch: spec.branch };
  }

  setWorkflowPermissions(
    owner: string,
    name: string,
    spec: { default_workflow_permissions?: unknown; can_approve_pull_request_reviews?: unknown },
  ): Repo['workflowPermissions'] {
    const repo = this.repo(owner, name);
    if (spec.default_workflow_permissions !== undefined) {
      const level = spec.default_workflow_permissions;
      if (level !== 'read' && level !== 'write') {
        throw new AdminError(400, 'default_workflow_permissions must be read or write');
      }
      repo.workflowPermissions.default_workflow_permissions = level;
    }
    if (spec.can_approve_pull_request_reviews !== undefined) {
      repo.workflowPermissions.can_approve_pull_request_reviews =
        spec.can_approve_pull_request_reviews === true;
    }
    return { ...repo.workflowPermissions };
  }

  /**
   * Classic branch protection in the body shape of GitHub's `PUT …/branches/{branch}/protection`
   * (`required_status_checks`, `enforce_admins`, `required_pull_request_reviews`, `restrictions` and the
   * boolean settings); `null` removes it. Stored and reported, not enforced (rulesets are).
   */
  setBranchProtection(
    owner: string,
    name: string,
    branch: string,
    spec: Record<string, unknown> | null,
  ): BranchProtection | null {
    const repo = this.repo(owner, name);
    if (spec === null) {
      repo.branchProtection.delete(branch);
      return null;
    }
    const flag = (key: string): boolean => {
      const value = spec[key];
      if (value === undefined || value === null) return false;
      if (typeof value !== 'boolean') throw new AdminError(400, `${key} must be a boolean`);
      return value;
    };
    const object = (key: string): Record<string, unknown> | null => {
      const value = spec[key];
      if (value === undefined || value === null) return null;
      if (typeof value !== 'object' || Array.isArray(value))
        throw new AdminError(400, `${key} must be an object or null`);
      return value as Record<string, unknown>;
    };
    const checks = object('required_status_checks');
    const reviews = object('required_pull_request_reviews');
    const count = reviews?.required_approving_review_count ?? 1;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > 6) {
      throw new AdminError(400, 'required_approving_review_count must be an integer from 0 to 6');
    }
    const contexts = checks?.contexts ?? [];
    if (!Array.isArray(contexts) || contexts.some((entry) => typeof entry !== 'string')) {
      throw new AdminError(400, 'required_status_checks.contexts must be an array of strings');
    }
    const protection: BranchProtection = {
      required_status_checks:
        checks === null ? null : { strict: checks.strict === true, contexts: contexts as string[] },
      enforce_admins: flag('enforce_admins'),
      required_pull_request_reviews:
        reviews === null
          ? null
          : {
              required_approving_review_count: count,
              dismiss_stale_reviews: reviews.dismiss_stale_reviews === true,
              require_code_owner_reviews: reviews.require_code_owner_reviews === true,
              require_last_push_approval: reviews.require_last_push_approval === true,
            },
      required_linear_history: flag('required_linear_history'),
      allow_force_pushes: flag('allow_force_pushes'),
      allow_deletions: flag('allow_deletions'),
      block_creations: flag('block_creations'),
      required_conversation_resolution: flag('required_conversation_resolution'),
      lock_branch: flag('lock_branch'),
    };
    repo.branchProtection.set(branch, protection);
    return protection;
  }

  /**
   * A deployment environment in the body shape of GitHub's `PUT …/environments/{name}` (`wait_timer`,
   * `prevent_self_review`, `reviewers: [{type: "User", id}]`, `deployment_branch_policy`,
   * `can_admins_bypass`); `null` deletes it. Read back through GitHub's `GET …/environments[/{name}]`.
   */
  setEnvironment(
    owner: string,
    name: string,
    environment: string,
    spec: Record<string, unknown> | null,
  ): Record<string, unknown> | null {
    try {
      const stored = setEnvironment(this.world, this.repo(owner, name), environment, spec);
      return stored === null ? null : { id: stored.id, name: stored.name };
    } catch (error: unknown) {
      if (error instanceof InvalidEnvironment) throw new AdminError(400, error.message);
      throw error;
    }
  }

  /**
   * The repository's GitHub Pages site in the body shape of GitHub's `POST …/pages` (`build_type`
   * `legacy` | `workflow`, `source: {branch, path}`); `null` removes it. Read back through `GET …/pages`.
   */
  setPages(
    owner: string,
    name: string,
    spec: Record<string, unknown> | null,
  ): Record<string, unknown> | null {
    try {
      const site = setPages(this.repo(owner, name), spec);
      return site === null ? null : { ...site };
    } catch (error: unknown) {
      if (error instanceof InvalidPages) throw new AdminError(400, error.message);
      throw error;
    }
  }

  addFault(input: FaultInput): FaultSpec {
    if (!FAULT_TYPES.includes(input.fault.type))
      throw new AdminError(400, `fault.type must be one of ${FAULT_TYPES.join(', ')}`);
    const fault: FaultSpec = {
      id: this.world.id(),
      match: input.match ?? {},
      fault: input.fault,
      times: input.times ?? null,
      probability: input.probability ?? null,
      skip: input.skip ?? 0,
      hits: 0,
    };
    this.world.faults.push(fault);
    return fault;
  }

  clearFaults(): void {
    this.world.faults = [];
  }

  clock(input: { advance_ms?: number; now?: string | number; freeze?: boolean } = {}): {
    now: string;
    frozen: boolean;
  } {
    if (input.now !== undefined) {
      const ms = typeof input.now === 'number' ? input.now : Date.parse(input.now);
      if (!Number.isFinite(ms)) throw new AdminError(400, `now is not a date: ${String(input.now)}`);
      this.world.clock.set(ms);
    }
    if (input.advance_ms !== undefined) this.world.clock.advance(input.advance_ms);
    if (input.freeze !== undefined) this.world.clock.freeze(input.freeze);
    return { now: new Date(this.world.clock.now()).toISOString(), frozen: this.world.clock.isFrozen() };
  }

  setConditionalWrites(mode: ConditionalWrites | boolean): void {
    const resolved = mode === true ? 'honoured' : mode === false ? 'ignored' : mode;
    if (!['ignored', 'honoured', 'applied-then-412'].includes(resolved)) {
      throw new AdminError(400, 'conditional_writes must be ignored, honoured or applied-then-412');
    }
    this.world.conditionalWrites = resolved;
  }

  /**
   * Switches GitHub's secondary limit on content creation (secondary-limit.ts): `true` (80 a minute,
   * 500 an hour), `{perMinute, perHour}` (a test's own figures) or `false`. Its windows start empty.
   */
  setSecondaryLimits(input: unknown): SecondaryLimits | null {
    if (input !== null && typeof input !== 'boolean' && (typeof input !== 'object' || Array.isArray(input))) {
      throw new AdminError(400, 'secondary_limits must be true, false or {perMinute, perHour}');
    }
    try {
      this.world.secondaryLimits = resolveSecondaryLimits(input);
    } catch (error) {
      throw new AdminError(400, error instanceof Error ? error.message : String(error));
    }
    this.world.secondaryWindows = new Map();
    return this.world.secondaryLimits;
  }

  /** Selects a contract world (see `CONTRACT_WORLDS`): how `If-Match` and duplicate marker creates behave. */
  setWorld(name: string): { world: ContractWorld } {
    if (!Object.hasOwn(CONTRACT_WORLDS, name)) {
      throw new AdminError(400, `world must be one of ${Object.keys(CONTRACT_WORLDS).join(', ')}`);
    }
    const world = CONTRACT_WORLDS[name as ContractWorld];
    this.world.conditionalWrites = world.conditionalWrites;
    this.world.markerCreates = world.markerCreates;
    return { world: name as ContractWorld };
  }

  /** The contract world the settings amount to, or null for a mix no world names. */
  contractWorld(): ContractWorld | null {
    for (const [name, world] of Object.entries(CONTRACT_WORLDS)) {
      if (
        world.conditionalWrites === this.world.conditionalWrites &&
        world.markerCreates === this.world.markerCreates
      )
        return name as ContractWorld;
    }
    return null;
  }

  requests(): RequestLogEntry[] {
    return this.world.requests;
  }

  events(): RecordedEvent[] {
    return this.world.events;
  }

  async exportRepo(
    owner: string,
    name: string,
    dir: string,
  ): Promise<{ dir: string; refs: Record<string, string> }> {
    const repo = this.repo(owner, name);
    if (!dir) throw new AdminError(400, 'dir is required');
    await repo.git.exportBare(dir, repo.refs, `refs/heads/${repo.default_branch}`);
    return { dir, refs: Object.fromEntries(repo.refs) };
  }
}
