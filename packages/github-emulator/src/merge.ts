/** A file-level three-way merge of two commits' trees, as GitHub's merge endpoints need. */
import type { GitStore, TreeEntry } from './git.js';

export function mergeBase(git: GitStore, a: string, b: string): string | null {
  const ofA = new Set(git.ancestors(a));
  for (const sha of git.history(b)) if (ofA.has(sha)) return sha;
  return null;
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
