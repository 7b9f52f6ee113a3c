/**
 * Rulesets: which active rulesets cover a ref, who may bypass them, and the ref change they reject.
 * Enforced: creation, update, deletion, non_fast_forward, required_linear_history, required_signatures
 * and pull_request. Other rule types are stored and reported but not enforced (see the README).
 */
import { verify } from './signing.js';
import type { Repo, Ruleset, Token, World } from './state.js';

/** GitHub's fixed IDs of the base repository roles, as used by `RepositoryRole` bypass actors. */
const REPOSITORY_ROLE_IDS: Record<string, number> = {
  read: 1,
  triage: 3,
  write: 4,
  maintain: 2,
  admin: 5,
};

function globToRegExp(pattern: string): RegExp {
  let out = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] ?? '';
    if (char === '*') {
      if (pattern[index + 1] === '*') {
        out += '.*';
        index++;
      } else out += '[^/]*';
    } else if (char === '?') out += '[^/]';
    else out += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

function matchesPattern(repo: Repo, pattern: string, ref: string): boolean {
  if (pattern === '~ALL') return true;
  if (pattern === '~DEFAULT_BRANCH') return ref === `refs/heads/${repo.default_branch}`;
  return globToRegExp(pattern).test(ref);
}

function rulesetCovers(repo: Repo, ruleset: Ruleset, ref: string): boolean {
  const target = ruleset.target;
  if (target === 'branch' && !ref.startsWith('refs/heads/')) return false;
  if (target === 'tag' && !ref.startsWith('refs/tags/')) return false;
  const include = ruleset.conditions?.ref_name?.include ?? [];
  const exclude = ruleset.conditions?.ref_name?.exclude ?? [];
  return (
    include.some((p) => matchesPattern(repo, p, ref)) && !exclude.some((p) => matchesPattern(repo, p, ref))
  );
}

export function activeRulesets(repo: Repo, ref: string): Ruleset[] {
  return repo.rulesets.filter(
    (ruleset) => ruleset.enforcement === 'active' && rulesetCovers(repo, ruleset, ref),
  );
}

/** `always` | `pull_requests_only` | `exempt` | `never`, as `current_user_can_bypass` reports it. */
export function bypassMode(world: World, token: Token | null, repo: Repo, ruleset: Ruleset): string {
  if (!token) return 'never';
  const role = token.kind === 'pat' ? world.roleOf(token.account, repo) : null;
  let best = 'never';
  for (const actor of ruleset.bypass_actors) {
    let matches = false;
    if (actor.actor_type === 'Integration') matches = token.app !== null && actor.actor_id === token.app.id;
    else if (actor.actor_type === 'RepositoryRole')
      matches = role !== null && REPOSITORY_ROLE_IDS[role] === actor.actor_id;
    else if (actor.actor_type === 'User')
      matches = token.kind === 'pat' && actor.actor_id === token.account.id;
    else if (actor.actor_type === 'OrganizationAdmin') matches = token.kind === 'pat' && role === 'admin';
    if (!matches) continue;
    const mode = actor.bypass_mode === 'pull_request' ? 'pull_requests_only' : actor.bypass_mode;
    if (mode === 'exempt') return 'exempt';
    if (mode === 'always') best = 'always';
    else if (best === 'never') best = mode;
  }
  return best;
}

/** Commits reachable from `head` and not from `base`. */
function newCommits(repo: Repo, base: string | null, head: string): string[] {
  const known = new Set<string>();
  if (base) for (const sha of repo.git.ancestors(base)) known.add(sha);
  return repo.git.ancestors(head).filter((sha) => !known.has(sha));
}

/** The rule violations a ref change would cause for this caller (empty when allowed). */
export function ruleViolations(
  world: World,
  token: Token | null,
  repo: Repo,
  ref: string,
  before: string | null,
  after: string | null,
  options: { viaPull?: boolean } = {},
): string[] {
  const messages = new Set<string>();
  for (const ruleset of activeRulesets(repo, ref)) {
    const mode = bypassMode(world, token, repo, ruleset);
    if (mode === 'always' || mode === 'exempt') continue;
    if (mode === 'pull_requests_only' && options.viaPull) continue;
    for (const rule of ruleset.rules) {
      switch (rule.type) {
        case 'creation':
          if (before === null && after !== null)
            messages.add('Cannot create ref due to creations being restricted.');
          break;
        case 'update':
          if (before !== null && after !== null) messages.add('Cannot update this protected ref.');
          break;
        case 'deletion':
          if (after === null) messages.add('Cannot delete this protected ref.');
          break;
        case 'non_fast_forward':
          if (before !== null && after !== null && !repo.git.isAncestor(before, after)) {
            messages.add('Cannot force-push to this branch');
          }
          break;
        case 'required_linear_history':
          if (
            after !== null &&
            newCommits(repo, before, after).some((sha) => repo.git.commit(sha).parents.length > 1)
          ) {
            messages.add('This branch must not contain merge commits.');
          }
          break;
        case 'required_signatures':
          if (
            after !== null &&
            newCommits(repo, before, after).some((sha) => !verify(world.seed, repo.git.commit(sha)).verified)
          ) {
            messages.add('Commits must have verified signatures.');
          }
          break;
        case 'pull_request':
          if (after !== null && before !== null && !options.viaPull) {
            messages.add('Changes must be made through a pull request.');
          }
          break;
        default:
          break;
      }
    }
  }
  return [...messages];
}

/** The message of a ref change the rulesets reject, over REST and GraphQL alike. */
export function ruleViolationMessage(violations: string[]): string {
  return `Repository rule violations found\n\n${violations.join('\n\n')}`;
}
