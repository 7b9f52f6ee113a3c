/** A file-level three-way merge of two commits' trees, as GitHub's merge endpoints need. */
import type { GitStore, TreeEntry } from './git.js';

export function mergeBase(git: GitStore, a: string, b: string): string | null {
  const ofA = new Set(git.ancestors(a));
  for (const sha of git.history(b)) if (ofA.has(sha)) return sha;
  return null;
}

/** How `head` stands against `base`, as both compare APIs (REST and GraphQL) report it. */
export interface Comparison {
  /** The commits of `head` that `base` lacks, newest first (`history` order). */
  ahead: string[];
  behindBy: number;
  status: 'ahead' | 'behind' | 'diverged' | 'identical';
}

export function compareCommits(git: GitStore, base: string, head: string): Comparison {
  const ofBase = new Set(git.ancestors(base));
  const ofHead = new Set(git.ancestors(head));
  const ahead = git.history(head).filter((sha) => !ofBase.has(sha));
  const behindBy = [...ofBase].filter((sha) => !ofHead.has(sha)).length;
  const status =
    ahead.length > 0 && behindBy > 0
      ? 'diverged'
      : ahead.length > 0
        ? 'ahead'
        : behindBy > 0
          ? 'behind'
          : 'identical';
  return { ahead, behindBy, status };
}

/** The merged tree, or null on a conflict (both sides changed a path differently). */
export function mergeTrees(git: GitStore, base: string | null, ours: string, theirs: string): string | null {
  const files = (commit: string | null): Map<string, TreeEntry> =>
    commit === null ? new Map<string, TreeEntry>() : git.flatten(git.commit(commit).tree);
  const baseFiles = files(base);
  const ourFiles = files(ours);
  const theirFiles = files(theirs);
  const same = (x: TreeEntry | undefined, y: TreeEntry | undefined): boolean =>
    x?.sha === y?.sha && x?.mode === y?.mode;
  const changes = new Map<string, { mode: string; sha: string } | null>();
  const paths = new Set([...baseFiles.keys(), ...ourFiles.keys(), ...theirFiles.keys()]);
  for (const path of paths) {
    const original = baseFiles.get(path);
    const mine = ourFiles.get(path);
    const yours = theirFiles.get(path);
    if (same(mine, yours) || same(original, yours)) continue;
    if (same(original, mine)) {
      changes.set(path, yours ? { mode: yours.mode, sha: yours.sha } : null);
      continue;
    }
    return null;
  }
  return git.applyChanges(git.commit(ours).tree, changes);
}
