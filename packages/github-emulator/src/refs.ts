/**
 * Ref changes, the one place branches move. Every path that moves a ref (REST refs, GraphQL createRef /
 * updateRefs / createCommitOnBranch, merges, pull request merges) goes through `changeRefs`, which checks
 * existence, fast-forward and rulesets, and applies all updates or none. The emulator is single-threaded,
 * so check-and-set here is atomic, as GitHub's ref transactions are.
 */
import { ZERO_OID } from './git.js';
import { branchMoved } from './pull-sync.js';
import { ruleViolationMessage, ruleViolations } from './rules.js';
import type { Repo, Token, World } from './state.js';

type RefErrorKind = 'exists' | 'missing' | 'not-fast-forward' | 'rules' | 'no-object' | 'stale' | 'invalid';

export class RefError extends Error {
  constructor(
    readonly kind: RefErrorKind,
    message: string,
  ) {
    super(message);
  }
}

interface RefChange {
  ref: string;
  /** null: delete the ref. */
  after: string | null;
  /** Require the ref's current value (ZERO_OID or null: must not exist). Undefined: no precondition. */
  expectBefore?: string | null;
  /** `force:false` semantics: reject a non-fast-forward. */
  fastForwardOnly?: boolean;
  /** Create only (REST create-ref): reject an existing ref. */
  createOnly?: boolean;
  /** Update only: reject a missing ref. */
  mustExist?: boolean;
}

export function isValidRefName(ref: string): boolean {
  if (!ref.startsWith('refs/') || ref.split('/').length < 3) return false;
  return !/(\.\.|[\s~^:?*[\\]|@\{|\/\/|\/$|\.lock$|\/\.)/.test(ref);
}

/** Applies the changes atomically, or throws a RefError and changes nothing. */
export function changeRefs(
  world: World,
  token: Token | null,
  repo: Repo,
  changes: RefChange[],
  options: { viaPull?: boolean } = {},
): void {
  for (const change of changes) {
    const before = repo.refs.get(change.ref) ?? null;
    if (change.expectBefore !== undefined) {
      const expected = change.expectBefore === ZERO_OID ? null : change.expectBefore;
      if (expected !== before) {
        throw new RefError(
          'stale',
          `Expected ${change.ref} to point to ${change.expectBefore ?? ZERO_OID} but it points to ${before ?? ZERO_OID}.`,
        );
      }
    }
    if (change.createOnly && before !== null) throw new RefError('exists', 'Reference already exists');
    if (change.mustExist && before === null) throw new RefError('missing', 'Reference does not exist');
    if (change.after !== null && !repo.git.has(change.after))
      throw new RefError('no-object', 'Object does not exist');
    if (
      change.after !== null &&
      change.ref.startsWith('refs/heads/') &&
      !repo.git.has(change.after, 'commit')
    ) {
      throw new RefError('invalid', 'Object is not a commit');
    }
    if (
      change.fastForwardOnly &&
      before !== null &&
      change.after !== null &&
      !repo.git.isAncestor(before, change.after)
    ) {
      throw new RefError('not-fast-forward', 'Update is not a fast forward');
    }
    const violations = ruleViolations(world, token, repo, change.ref, before, change.after, options);
    if (violations.length > 0) throw new RefError('rules', ruleViolationMessage(violations));
  }
  const moved: { branch: string; before: string | null; after: string | null }[] = [];
  for (const change of changes) {
    const before = repo.refs.get(change.ref) ?? null;
    if (change.after === null) repo.refs.delete(change.ref);
    else repo.refs.set(change.ref, change.after);
    if (change.ref.startsWith('refs/heads/')) {
      moved.push({ branch: change.ref.slice('refs/heads/'.length), before, after: change.after });
    }
  }
  repo.pushed_at = world.now();
  for (const { branch, before, after } of moved) {
    branchMoved(world, token, token?.account ?? repo.owner, repo, branch, before, after);
  }
}
