/** Repository-level REST endpoints: the repository, collaborator permission, rulesets, rules, runs, rate limit. */
import { canSee, effectiveRole, isAdmin } from '../access.js';
import { lastModified, latest } from '../caching.js';
import type { Ctx } from '../http.js';
import { HttpError, bodyObject, notFound, paginate } from '../http.js';
import { rateState } from '../ratelimit.js';
import type { RateState } from '../ratelimit.js';
import type { Urls } from '../represent.js';
import { branchProtection, repository, ruleset, simpleUser } from '../represent.js';
import type { Account, Repo, Ruleset } from '../state.js';
import type { Router } from '../router.js';
import { activeRulesets, bypassMode } from '../rules.js';
import { roleAtLeast } from '../state.js';
import { intParam, loadRepo, urlsOf } from './common.js';

/** The `public-user` schema. */
function publicUser(urls: Urls, account: Account): Record<string, unknown> {
  return {
    ...simpleUser(urls, account),
    name: account.name,
    company: null,
    blog: null,
    location: null,
    email: account.email,
    hireable: null,
    bio: null,
    public_repos: 0,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: account.created_at,
    updated_at: account.created_at,
  };
}

/** Administration read: a repository admin (PAT) or an installation granted `administration`. */
function requireAdministrationRead(ctx: Ctx, repo: Repo): void {
  const token = ctx.token;
  const allowed =
    token !== null &&
    (token.kind === 'pat'
      ? isAdmin(ctx.world, token, repo)
      : token.permissions?.administration !== undefined && canSee(ctx.world, token, repo));
  if (!allowed) {
    throw new HttpError(403, {
      message:
        token?.kind === 'pat'
          ? 'Must have admin rights to Repository.'
          : 'Resource not accessible by integration',
      documentation_url: 'https://docs.github.com/rest',
      status: '403',
    });
  }
}

/** Administration write: a repository admin (PAT) or an installation granted `administration: write`. */
function requireAdministrationWrite(ctx: Ctx, repo: Repo): void {
  const token = ctx.token;
  const allowed =
    token !== null &&
    (token.kind === 'pat'
      ? isAdmin(ctx.world, token, repo)
      : token.permissions?.administration === 'write' && canSee(ctx.world, token, repo));
  if (!allowed) {
    throw new HttpError(403, {
      message:
        token?.kind === 'pat'
          ? 'Must have admin rights to Repository.'
          : 'Resource not accessible by integration',
      documentation_url: 'https://docs.github.com/rest',
      status: '403',
    });
  }
}

function legacyPermission(role: string | null): string {
  if (role === 'admin') return 'admin';
  if (role === 'maintain' || role === 'write') return 'write';
  if (role === 'triage' || role === 'read') return 'read';
  return 'none';
}

export function registerRepoRoutes(router: Router): void {
  router.add('GET', '/repos/:owner/:repo', (ctx) => {
    const repo = loadRepo(ctx, 'metadata', 'read');
    const role = ctx.token ? effectiveRole(ctx.world, ctx.token, repo) : null;
    const permissions = ctx.token
      ? {
          admin: roleAtLeast(role, 'admin'),
          maintain: roleAtLeast(role, 'maintain'),
          push: roleAtLeast(role, 'write'),
          triage: roleAtLeast(role, 'triage'),
          pull: roleAtLeast(role, 'read'),
        }
      : undefined;
    return {
      status: 200,
      body: {
        ...repository(urlsOf(ctx), repo, permissions),
        // `full-repository` names the owning organization (webhook payloads carry its login instead).
        ...(repo.owner.type === 'Organization' ? { organization: simpleUser(urlsOf(ctx), repo.owner) } : {}),
      },
      headers: lastModified(latest(repo.updated_at, repo.pushed_at)),
    };
  });

  router.add('GET', '/repos/:owner/:repo/collaborators/:username/permission', (ctx) => {
    const repo = loadRepo(ctx, 'metadata', 'read');
    const account = ctx.world.account(ctx.params.username ?? '');
    if (!account)
      throw notFound(
        'https://docs.github.com/rest/collaborators/collaborators#get-repository-permissions-for-a-user',
      );
    let role: string | null = null;
    if (account.type === 'User') role = ctx.world.roleOf(account, repo) ?? (repo.private ? null : 'read');
    const permission = legacyPermission(role);
    // A custom role reports its own name in role_name; `permission` stays the legacy base mapping.
    const roleName = (role === null ? undefined : repo.customRoles.get(account.id)) ?? role ?? 'none';
    return {
      status: 200,
      body: {
        permission,
        role_name: roleName,
        user: {
          ...simpleUser(urlsOf(ctx), account),
          permissions: {
            admin: roleAtLeast(role as never, 'admin'),
            maintain: roleAtLeast(role as never, 'maintain'),
            push: roleAtLeast(role as never, 'write'),
            triage: roleAtLeast(role as never, 'triage'),
            pull: roleAtLeast(role as never, 'read'),
          },
          role_name: roleName,
        },
      },
    };
  });

  router.add('GET', '/repos/:owner/:repo/rulesets', (ctx) => {
    const repo = loadRepo(ctx, 'metadata', 'read');
    const targets = ctx.query
      .get('targets')
      ?.split(',')
      .map((target) => target.trim());
    const list = repo.rulesets.filter((entry) => !targets || targets.includes(entry.target));
    const showBypass = isAdmin(ctx.world, ctx.token, repo);
    return {
      status: 200,
      body: paginate(ctx, list).map((entry) =>
        ruleset(urlsOf(ctx), repo, entry, {
          showBypass,
          canBypass: bypassMode(ctx.world, ctx.token, repo, entry),
          summary: true,
        }),
      ),
    };
  });

  router.add('GET', '/repos/:owner/:repo/rulesets/:id', (ctx) => {
    const repo = loadRepo(ctx, 'metadata', 'read');
    const id = intParam(ctx, 'id');
    const found = repo.rulesets.find((entry) => entry.id === id);
    if (!found) throw notFound('https://docs.github.com/rest/repos/rules#get-a-repository-ruleset');
    return {
      status: 200,
      body: ruleset(urlsOf(ctx), repo, found, {
        showBypass: isAdmin(ctx.world, ctx.token, repo),
        canBypass: bypassMode(ctx.world, ctx.token, repo, found),
        summary: false,
      }),
    };
  });

  // Update and delete, as `repos/update-repo-ruleset` and `repos/delete-repo-ruleset`: administration
  // write (a repository admin, or an installation granted administration write). An update replaces
  // each field it names and moves `updated_at`; a delete answers 204 and the ruleset is gone.
  router.add('PUT', '/repos/:owner/:repo/rulesets/:id', (ctx) => {
    const repo = loadRepo(ctx, 'metadata', 'read');
    const id = intParam(ctx, 'id');
    const found = repo.rulesets.find((entry) => entry.id === id);
    if (!found) throw notFound('https://docs.github.com/rest/repos/rules#update-a-repository-ruleset');
    requireAdministrationWrite(ctx, repo);
    const input = bodyObject(ctx) as Partial<Ruleset>;
    if (input.enforcement !== undefined && !['active', 'evaluate', 'disabled'].includes(input.enforcement)) {
      throw new HttpError(422, {
        message: 'Invalid property /enforcement: must be one of active, evaluate, disabled',
        documentation_url: 'https://docs.github.com/rest/repos/rules#update-a-repository-ruleset',
        status: '422',
      });
    }
    if (typeof input.name === 'string') found.name = input.name;
    if (typeof input.target === 'string') found.target = input.target;
    if (input.enforcement !== undefined) found.enforcement = input.enforcement;
    if (Array.isArray(input.bypass_actors)) found.bypass_actors = input.bypass_actors;
    if (input.conditions !== undefined) found.conditions = input.conditions;
    if (Array.isArray(input.rules)) found.rules = input.rules;
    found.updated_at = ctx.world.now();
    return {
      status: 200,
      body: ruleset(urlsOf(ctx), repo, found, {
        showBypass: true,
        canBypass: bypassMode(ctx.world, ctx.token, repo, found),
        summary: false,
      }),
    };
  });

  router.add('DELETE', '/repos/:owner/:repo/rulesets/:id', (ctx) => {
    const repo = loadRepo(ctx, 'metadata', 'read');
    const id = intParam(ctx, 'id');
    const index = repo.rulesets.findIndex((entry) => entry.id === id);
    if (index < 0) throw notFound('https://docs.github.com/rest/repos/rules#delete-a-repository-ruleset');
    requireAdministrationWrite(ctx, repo);
    repo.rulesets.splice(index, 1);
    return { status: 204 };
  });

  router.add('GET', '/repos/:owner/:repo/rules/branches/*branch', (ctx) => {
    const repo = loadRepo(ctx, 'metadata', 'read');
    const ref = `refs/heads/${ctx.params.branch ?? ''}`;
    const rules = activeRulesets(repo, ref).flatMap((entry) =>
      entry.rules.map((rule) => ({
        ...rule,
        ruleset_source_type: 'Repository',
        ruleset_source: `${repo.owner.login}/${repo.name}`,
        ruleset_id: entry.id,
      })),
    );
    return { status: 200, body: paginate(ctx, rules) };
  });

  router.add('GET', '/repos/:owner/:repo/actions/permissions/workflow', (ctx) => {
    const repo = loadRepo(ctx, 'metadata', 'read');
    requireAdministrationRead(ctx, repo);
    return { status: 200, body: { ...repo.workflowPermissions } };
  });

  router.add('GET', '/repos/:owner/:repo/branches/:branch/protection', (ctx) => {
    const repo = loadRepo(ctx, 'metadata', 'read');
    requireAdministrationRead(ctx, repo);
    const branch = ctx.params.branch ?? '';
    const protection = repo.branchProtection.get(branch);
    if (protection === undefined) {
      throw new HttpError(404, {
        message: 'Branch not protected',
        documentation_url: 'https://docs.github.com/rest/branches/branch-protection#get-branch-protection',
        status: '404',
      });
    }
    return { status: 200, body: branchProtection(urlsOf(ctx), repo, branch, protection) };
  });

  router.add('GET', '/user', (ctx) => {
    const token = ctx.token;
    if (!token) {
      throw new HttpError(401, {
        message: 'Requires authentication',
        documentation_url: 'https://docs.github.com/rest/users/users#get-the-authenticated-user',
        status: '401',
      });
    }
    if (token.kind !== 'pat') {
      throw new HttpError(403, {
        message: 'Resource not accessible by integration',
        documentation_url: 'https://docs.github.com/rest/users/users#get-the-authenticated-user',
        status: '403',
      });
    }
    return { status: 200, body: publicUser(urlsOf(ctx), token.account) };
  });

  router.add('GET', '/users/:username', (ctx) => {
    const account = ctx.world.account(ctx.params.username ?? '');
    if (!account) throw notFound('https://docs.github.com/rest/users/users#get-a-user');
    return { status: 200, body: publicUser(urlsOf(ctx), account), headers: lastModified(account.created_at) };
  });

  router.add('GET', '/rate_limit', (ctx) => {
    const view = (state: RateState): Record<string, number> => ({
      limit: state.limit,
      remaining: state.remaining,
      reset: state.reset,
      used: state.used,
    });
    const core = view(rateState(ctx.world, ctx.token, 'core', false));
    return {
      status: 200,
      body: {
        resources: {
          core,
          graphql: view(rateState(ctx.world, ctx.token, 'graphql', false)),
          search: view(rateState(ctx.world, ctx.token, 'search', false)),
        },
        rate: core,
      },
    };
  });
}
