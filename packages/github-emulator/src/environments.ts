/**
 * Deployment environments and their protection rules, read-only as GitHub exposes them to an app:
 * `GET /repos/{o}/{r}/environments` and `GET /repos/{o}/{r}/environments/{name}` (the `environment`
 * schema of GitHub's description), which need `actions: read` of an installation (a PAT: read access).
 * A test seeds them through the admin API in the body shape of GitHub's `PUT …/environments/{name}`;
 * nothing here enforces them on a job (the emulator runs no workflow).
 */
import type { Ctx } from './http.js';
import { notFound, paginate } from './http.js';
import type { Urls } from './represent.js';
import { simpleUser } from './represent.js';
import type { Router } from './router.js';
import type { Account, Environment, Repo, World } from './state.js';
import { nodeId } from './state.js';
import { loadRepo, urlsOf } from './rest/common.js';

const DOCS = 'https://docs.github.com/rest/deployments/environments#get-an-environment';

/** A seed the admin API refuses (the admin answers it as 400). */
export class InvalidEnvironment extends Error {}

/** GitHub compares environment names case-insensitively. */
function key(name: string): string {
  return name.toLowerCase();
}

function branchPolicy(value: unknown): Environment['deployment_branch_policy'] {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value))
    throw new InvalidEnvironment('deployment_branch_policy must be an object or null');
  const { protected_branches: protectedBranches, custom_branch_policies: custom } = value as Record<
    string,
    unknown
  >;
  if (typeof protectedBranches !== 'boolean' || typeof custom !== 'boolean' || protectedBranches === custom) {
    throw new InvalidEnvironment(
      'deployment_branch_policy needs protected_branches and custom_branch_policies, exactly one of them true',
    );
  }
  return { protected_branches: protectedBranches, custom_branch_policies: custom };
}

function reviewersOf(world: World, value: unknown): Account[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > 6)
    throw new InvalidEnvironment('reviewers must be an array of at most 6 {type, id}');
  return value.map((entry: unknown) => {
    const { type, id } = (entry ?? {}) as Record<string, unknown>;
    if (type !== 'User') throw new InvalidEnvironment('reviewers: only type User is modelled');
    const account = [...world.accounts.values()].find((candidate) => candidate.id === id);
    if (account === undefined) throw new InvalidEnvironment(`reviewers: no user with id ${String(id)}`);
    return account;
  });
}

/**
 * Creates or replaces an environment from the body of GitHub's `PUT …/environments/{name}`
 * (`wait_timer`, `prevent_self_review`, `reviewers: [{type: "User", id}]`, `deployment_branch_policy`,
 * `can_admins_bypass`); `null` deletes it. Its id, node id and creation time survive a replace.
 */
export function setEnvironment(
  world: World,
  repo: Repo,
  name: string,
  spec: Record<string, unknown> | null,
): Environment | null {
  if (!/^[^\s/][^/]{0,254}$/.test(name)) throw new InvalidEnvironment('invalid environment name');
  const existing = repo.environments.get(key(name));
  if (spec === null) {
    repo.environments.delete(key(name));
    return null;
  }
  const wait = spec.wait_timer ?? 0;
  if (typeof wait !== 'number' || !Number.isInteger(wait) || wait < 0 || wait > 43_200)
    throw new InvalidEnvironment('wait_timer must be an integer from 0 to 43200 (minutes)');
  const now = world.now();
  const id = existing?.id ?? world.id();
  const environment: Environment = {
    id,
    node_id: existing?.node_id ?? nodeId('EN', id),
    name: existing?.name ?? name,
    created_at: existing?.created_at ?? now,
    updated_at: now,
    wait_timer: wait,
    prevent_self_review: spec.prevent_self_review === true,
    reviewers: reviewersOf(world, spec.reviewers),
    can_admins_bypass: spec.can_admins_bypass !== false,
    deployment_branch_policy: branchPolicy(spec.deployment_branch_policy),
    ruleIds: existing?.ruleIds ?? {
      wait_timer: world.id(),
      required_reviewers: world.id(),
      branch_policy: world.id(),
    },
  };
  repo.environments.set(key(name), environment);
  return environment;
}

/** The `environment` schema: a protection rule is listed only while it applies, as GitHub lists them. */
function environmentBody(urls: Urls, repo: Repo, environment: Environment): Record<string, unknown> {
  const rules: Record<string, unknown>[] = [];
  const { ruleIds } = environment;
  if (environment.wait_timer > 0) {
    rules.push({
      id: ruleIds.wait_timer,
      node_id: nodeId('GA', ruleIds.wait_timer),
      type: 'wait_timer',
      wait_timer: environment.wait_timer,
    });
  }
  if (environment.reviewers.length > 0) {
    rules.push({
      id: ruleIds.required_reviewers,
      node_id: nodeId('GA', ruleIds.required_reviewers),
      prevent_self_review: environment.prevent_self_review,
      type: 'required_reviewers',
      reviewers: environment.reviewers.map((account) => ({
        type: 'User',
        reviewer: simpleUser(urls, account),
      })),
    });
  }
  if (environment.deployment_branch_policy !== null) {
    rules.push({
      id: ruleIds.branch_policy,
      node_id: nodeId('GA', ruleIds.branch_policy),
      type: 'branch_policy',
    });
  }
  const full = `${repo.owner.login}/${repo.name}`;
  const name = encodeURIComponent(environment.name);
  return {
    id: environment.id,
    node_id: environment.node_id,
    name: environment.name,
    url: `${urls.api}/repos/${full}/environments/${name}`,
    html_url: `${urls.web}/${full}/deployments/activity_log?environments_filter=${name}`,
    created_at: environment.created_at,
    updated_at: environment.updated_at,
    can_admins_bypass: environment.can_admins_bypass,
    protection_rules: rules,
    deployment_branch_policy: environment.deployment_branch_policy,
  };
}

/** GitHub's two read endpoints; a missing environment is 404 `Not Found`. */
export function registerEnvironmentRoutes(router: Router): void {
  router.add('GET', '/repos/:owner/:repo/environments', (ctx: Ctx) => {
    const repo = loadRepo(ctx, 'actions', 'read');
    const all = [...repo.environments.values()].sort((a, b) => (key(a.name) < key(b.name) ? -1 : 1));
    const shown = paginate(ctx, all);
    return {
      status: 200,
      body: {
        total_count: all.length,
        environments: shown.map((entry) => environmentBody(urlsOf(ctx), repo, entry)),
      },
    };
  });

  router.add('GET', '/repos/:owner/:repo/environments/:name', (ctx: Ctx) => {
    const repo = loadRepo(ctx, 'actions', 'read');
    const environment = repo.environments.get(key(ctx.params.name ?? ''));
    if (environment === undefined) throw notFound(DOCS);
    return { status: 200, body: environmentBody(urlsOf(ctx), repo, environment) };
  });
}
