/**
 * The artifact publisher's lane: the branches it may write and the text it may show. Its bot branch and
 * its base are never the ledger branch, its bot branch is never the default branch, and every write
 * names its target through `LaneGuard.target`, so no input, however spelled, lands a commit elsewhere.
 */
import { WritError } from '../errors.js';
import { BRANCH_PATTERN } from '../ledger/paths.js';

declare const plainBranch: unique symbol;
/** A branch name `validateArtifactBranch` accepted (plain segments, unqualified). */
export type ArtifactBranch = string & { readonly [plainBranch]: true };

/** GitHub's limit on a pull request title. */
export const MAX_TITLE_LENGTH = 256;

function invalid(input: string, value: string, expected: string): WritError {
  return new WritError(
    'invalid-input',
    `input '${input}' (${Array.from(value).length} characters) is not ${expected}`,
  );
}

/**
 * An unqualified branch name of plain ASCII segments. A name GitHub would resolve to another ref is
 * refused: `refs/heads/x` (GraphQL's `branchName` takes the qualified form too), `heads/x`, `HEAD`.
 */
export function validateArtifactBranch(value: string, input: 'branch' | 'base'): ArtifactBranch {
  const plain =
    value.length <= 200 &&
    BRANCH_PATTERN.test(value) &&
    !value.includes('..') &&
    !/\.lock(?:\/|$)/i.test(value) &&
    !value.endsWith('.');
  if (!plain) throw invalid(input, value, 'a branch name of plain segments such as bot/writ-artifact');
  const first = (value.split('/')[0] ?? '').toLowerCase();
  if (first === 'refs' || first === 'heads' || value.toLowerCase() === 'head') {
    throw invalid(input, value, 'an unqualified branch name (no refs/ or heads/ prefix, not HEAD)');
  }
  return value as ArtifactBranch;
}

/** Branch names compare case-insensitively here: a case variant of the ledger is still the ledger. */
function sameBranch(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

export interface Lane {
  branch: string;
  base: string;
  defaultBranch: string;
  /** The `ledger-branch` input and Writ's default ledger branch: neither is ever written here. */
  ledgerBranches: readonly string[];
}

export interface LaneGuard {
  /** Returns `name` for a write about to be made, after re-checking it is the lane's own branch. */
  target(name: string): string;
}

/** `invalid-input` if the branch or the base names a ledger branch (checked before anything is read). */
export function refuseLedgerBranches(names: readonly string[], ledgerBranches: readonly string[]): void {
  const ledger = ledgerBranches.find((ledgerName) => names.some((name) => sameBranch(name, ledgerName)));
  if (ledger !== undefined) {
    throw new WritError(
      'invalid-input',
      `inputs 'branch' and 'base' must not name the ledger branch '${ledger}': only ledger transitions commit there`,
    );
  }
}

/** `invalid-input` unless the lane stays off the ledger and the default branch; then a guard for writes. */
export function checkLane(lane: Lane): LaneGuard {
  const { branch, base, defaultBranch, ledgerBranches } = lane;
  refuseLedgerBranches([branch, base], ledgerBranches);
  if (sameBranch(branch, defaultBranch)) {
    throw new WritError(
      'invalid-input',
      `input 'branch' must not be the default branch '${defaultBranch}': the artifact reaches it only through a pull request`,
    );
  }
  if (sameBranch(branch, base)) {
    throw new WritError('invalid-input', `the artifact branch must not be the base branch '${base}'`);
  }
  return {
    target(name) {
      const ledgerName = ledgerBranches.some((ledgerBranch) => sameBranch(name, ledgerBranch));
      if (name !== branch || ledgerName || sameBranch(name, defaultBranch)) {
        throw new Error(`publish-artifact tried to write '${name}', outside its lane '${branch}'`);
      }
      return name;
    },
  };
}

// Control and format characters (bidi overrides, zero-width, BOM...), separators and exotic spaces.
const UNSHOWN = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Zl}\p{Zp}\u115f\u1160\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0]/gu;

/**
 * A pull request title or commit headline from untrusted text: one line, no control, bidi or other
 * invisible characters (each shown as U+FFFD), at most MAX_TITLE_LENGTH characters.
 */
export function sanitizeTitle(text: string): string {
  const line = text
    .replace(/[\r\n\t\u2028\u2029]+/g, ' ')
    .replace(UNSHOWN, '\ufffd')
    .trim();
  const chars = Array.from(line);
  return chars.length > MAX_TITLE_LENGTH ? `${chars.slice(0, MAX_TITLE_LENGTH - 1).join('')}…` : line;
}
