/**
 * Who is calling and what they may do. A PAT acts as its user with the user's role on the repository
 * (optionally narrowed by fine-grained permissions); an installation token (an app's, or the workflow's
 * GITHUB_TOKEN) acts as the app's bot with the permission set it was minted with.
 */
import { HttpError, notFound } from './http.js';
import type { Ctx } from './http.js';
import type { PermissionLevel, Repo, Role, Token, World } from './state.js';
import { roleAtLeast } from './state.js';

export type Scope =
  | 'contents'
  | 'issues'
  | 'pull_requests'
  | 'metadata'
  | 'actions'
  | 'administration'
  | 'checks'
  | 'statuses'
  | 'pages';

/** What an installation token gets when minted without an explicit permission set. */
export const DEFAULT_INSTALLATION_PERMISSIONS: Record<string, PermissionLevel> = {
  metadata: 'read',
  contents: 'write',
  issues: 'write',
  pull_requests: 'write',
  actions: 'read',
};

/** The workflow GITHUB_TOKEN's default ("permissive") set. */
export const DEFAULT_GITHUB_TOKEN_PERMISSIONS: Record<string, PermissionLevel> = {
  metadata: 'read',
  contents: 'write',
  issues: 'write',
  pull_requests: 'write',
  actions: 'write',
  checks: 'write',
  statuses: 'write',
};

function levelAtLeast(level: PermissionLevel | undefined, needed: 'read' | 'write'): boolean {
  if (level === undefined) return false;
  if (needed === 'read') return true;
  return level === 'write' || level === 'admin';
}

function tokenReaches(token: Token, repo: Repo): boolean {
  if (token.repositories === null) return true;
  const name = `${repo.owner.login}/${repo.name}`.toLowerCase();
  return token.repositories.some((entry) => entry.toLowerCase() === name);
}

/** The minimum repository role a user needs for a scope and level. */
function roleNeeded(scope: Scope, level: 'read' | 'write'): Role {
  if (level === 'read') return 'read';
  if (scope === 'issues') return 'read';
  if (scope === 'administration') return 'admin';
  return 'write';
}

/** Whether the caller can see the repository at all (private repositories answer 404 otherwise). */
export function canSee(world: World, token: Token | null, repo: Repo): boolean {
  if (!token) return !repo.private;
  // Outside its selected repositories a token sees only what the public sees.
  if (!tokenReaches(token, repo)) return !repo.private;
  if (token.kind === 'pat') return !repo.private || world.roleOf(token.account, repo) !== null;
  return true;
}

/** Throws GitHub's 401/403/404 unless the caller may do `level` on `scope` of `repo`. */
export function requireAccess(ctx: Ctx, repo: Repo, scope: Scope, level: 'read' | 'write'): void {
  const token = ctx.token;
  if (!canSee(ctx.world, token, repo)) throw notFound();
  if (token && !tokenReaches(token, repo)) {
    if (level === 'read') return;
    throw notFound();
  }
  if (!token) {
    if (level === 'read') return;
    throw new HttpError(401, {
      message: 'Requires authentication',
      documentation_url: 'https://docs.github.com/rest',
      status: '401',
    });
  }
  if (token.kind === 'pat') {
    const role = ctx.world.roleOf(token.account, repo);
    const needed = roleNeeded(scope, level);
    const fineGrainedOk =
      token.permissions === null || scope === 'metadata' || levelAtLeast(token.permissions[scope], level);
    // Anyone may read a public repository, and open issues and comment on it.
    const publicAccess = !repo.private && (level === 'read' || scope === 'issues');
    if (publicAccess || roleAtLeast(role, needed)) {
      if (fineGrainedOk) return;
    }
    throw forbidden('Resource not accessible by personal access token', scope, level);
  }
  const permissions = token.permissions ?? {};
  if (scope === 'metadata' && level === 'read') return;
  if (levelAtLeast(permissions[scope], level)) return;
  throw forbidden('Resource not accessible by integration', scope, level);
}

function forbidden(message: string, scope: Scope, level: 'read' | 'write'): HttpError {
  return new HttpError(
    403,
    { message, documentation_url: 'https://docs.github.com/rest', status: '403' },
    { 'x-accepted-github-permissions': `${scope}=${level}` },
  );
}

/** Whether the caller has push access (or triage, for labels and milestones) — used for silent drops. */
export function canTriage(world: World, token: Token | null, repo: Repo): boolean {
  if (!token || !tokenReaches(token, repo)) return false;
  if (token.kind === 'pat') return roleAtLeast(world.roleOf(token.account, repo), 'triage');
  const permissions = token.permissions ?? {};
  return levelAtLeast(permissions.issues, 'write') || levelAtLeast(permissions.pull_requests, 'write');
}

export function hasPush(world: World, token: Token | null, repo: Repo): boolean {
  if (!token || !tokenReaches(token, repo)) return false;
  if (token.kind === 'pat') {
    return (
      roleAtLeast(world.roleOf(token.account, repo), 'write') &&
      (token.permissions === null || levelAtLeast(token.permissions.contents, 'write'))
    );
  }
  return levelAtLeast((token.permissions ?? {}).contents, 'write');
}

export function isAdmin(world: World, token: Token | null, repo: Repo): boolean {
  if (!token || !tokenReaches(token, repo)) return false;
  if (token.kind === 'pat') return roleAtLeast(world.roleOf(token.account, repo), 'admin');
  return (
    (token.permissions ?? {}).administration === 'write' ||
    (token.permissions ?? {}).administration === 'admin'
  );
}

/** The caller's RepositoryPermission-style role. */
export function effectiveRole(world: World, token: Token | null, repo: Repo): Role | null {
  if (!token || !tokenReaches(token, repo)) return repo.private ? null : 'read';
  if (token.kind === 'pat') return world.roleOf(token.account, repo) ?? (repo.private ? null : 'read');
  if (isAdmin(world, token, repo)) return 'admin';
  if (hasPush(world, token, repo)) return 'write';
  return 'read';
}
