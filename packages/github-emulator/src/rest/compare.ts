/**
 * `GET /repos/{o}/{r}/compare/{base}...{head}`: GitHub's three-dot comparison. `status`, `ahead_by`,
 * `behind_by` against the merge base; `commits` are the head's commits the base lacks, oldest first (at
 * most 250, or a page of them with `per_page`/`page`); `files` the changes from the merge base to the head
 * computed from the real git trees (at most 300, as GitHub caps them): `added`, `removed`, `modified`, or
 * `renamed` (a removed and an added path with the same blob) with `previous_filename`; `additions` and
 * `deletions` count lines by a longest-common-subsequence line diff of text blobs (0 for binary ones).
 * 404 for a ref that does not resolve, or two commits without a common ancestor.
 */
import type { TreeEntry } from '../git.js';
import { HttpError, notFound, paginate } from '../http.js';
import { compareCommits, mergeBase } from '../merge.js';
import { repoUrls, restCommit } from '../represent.js';
import type { Router } from '../router.js';
import type { Repo } from '../state.js';
import { loadRepo, resolveCommitish, urlsOf } from './common.js';

const COMPARE_DOC = 'https://docs.github.com/rest/commits/commits#compare-two-commits';
const MAX_FILES = 300;
const MAX_COMMITS = 250;
/** Above this many lines on a side, line counts fall back to a multiset difference (no quadratic table). */
const LCS_LIMIT = 4000;

function textLines(repo: Repo, sha: string | undefined): string[] | null {
  if (sha === undefined) return [];
  const blob = repo.git.get(sha);
  if (blob?.type !== 'blob') return [];
  if (blob.body.includes(0)) return null;
  const text = blob.body.toString('utf8');
  if (text === '') return [];
  return text.replace(/\n$/, '').split('\n');
}

/** Lines added and deleted between two texts. */
function lineCounts(before: string[], after: string[]): { additions: number; deletions: number } {
  let common = 0;
  if (before.length <= LCS_LIMIT && after.length <= LCS_LIMIT) {
    let previous = new Array<number>(after.length + 1).fill(0);
    for (const line of before) {
      const row = new Array<number>(after.length + 1).fill(0);
      for (let j = 1; j <= after.length; j++) {
        row[j] =
          after[j - 1] === line ? (previous[j - 1] ?? 0) + 1 : Math.max(previous[j] ?? 0, row[j - 1] ?? 0);
      }
      previous = row;
    }
    common = previous[after.length] ?? 0;
  } else {
    const counts = new Map<string, number>();
    for (const line of before) counts.set(line, (counts.get(line) ?? 0) + 1);
    for (const line of after) {
      const left = counts.get(line) ?? 0;
      if (left > 0) {
        counts.set(line, left - 1);
        common++;
      }
    }
  }
  return { additions: after.length - common, deletions: before.length - common };
}

interface FileChange {
  filename: string;
  previous_filename?: string;
  status: 'added' | 'removed' | 'modified' | 'renamed';
  before?: TreeEntry;
  after?: TreeEntry;
}

function treeChanges(repo: Repo, baseSha: string, headSha: string): FileChange[] {
  const before = repo.git.flatten(repo.git.commit(baseSha).tree);
  const after = repo.git.flatten(repo.git.commit(headSha).tree);
  const added: FileChange[] = [];
  const removed: FileChange[] = [];
  const changes: FileChange[] = [];
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(path);
    const b = after.get(path);
    if (a?.sha === b?.sha && a?.mode === b?.mode) continue;
    if (!a) added.push({ filename: path, status: 'added', ...(b ? { after: b } : {}) });
    else if (!b) removed.push({ filename: path, status: 'removed', before: a });
    else changes.push({ filename: path, status: 'modified', before: a, after: b });
  }
  for (const entry of added) {
    const index = removed.findIndex((gone) => gone.before?.sha === entry.after?.sha);
    const gone = index === -1 ? undefined : removed[index];
    if (gone) {
      removed.splice(index, 1);
      changes.push({
        ...entry,
        status: 'renamed',
        previous_filename: gone.filename,
        ...(gone.before ? { before: gone.before } : {}),
      });
    } else changes.push(entry);
  }
  changes.push(...removed);
  return changes.sort((x, y) => (x.filename < y.filename ? -1 : x.filename > y.filename ? 1 : 0));
}

export function registerCompareRoutes(router: Router): void {
  router.add('GET', '/repos/:owner/:repo/compare/*basehead', (ctx) => {
    const repo = loadRepo(ctx, 'contents', 'read');
    const spec = ctx.params.basehead ?? '';
    const split = spec.indexOf('...');
    if (split === -1) throw notFound(COMPARE_DOC);
    const baseName = spec.slice(0, split);
    const headName = spec.slice(split + 3);
    const baseSha = resolveCommitish(repo, baseName);
    const headSha = resolveCommitish(repo, headName);
    if (!baseSha || !headSha || !repo.git.has(baseSha, 'commit') || !repo.git.has(headSha, 'commit')) {
      throw notFound(COMPARE_DOC);
    }
    const base = mergeBase(repo.git, baseSha, headSha);
    if (base === null) {
      throw new HttpError(404, {
        message: `No common ancestor between ${baseName} and ${headName}.`,
        documentation_url: COMPARE_DOC,
        status: '404',
      });
    }
    const comparison = compareCommits(repo.git, baseSha, headSha);
    const { behindBy, status } = comparison;
    // REST lists the commits oldest first.
    const ahead = comparison.ahead.reverse();
    const urls = urlsOf(ctx);
    const { api, web } = repoUrls(urls, repo);
    const paged = ctx.query.has('per_page') || ctx.query.has('page');
    const commits = paged ? paginate(ctx, ahead) : ahead.slice(0, MAX_COMMITS);
    const files = treeChanges(repo, base, headSha)
      .slice(0, MAX_FILES)
      .map((change) => {
        const entry = change.after ?? change.before;
        const beforeLines = change.status === 'added' ? [] : textLines(repo, change.before?.sha);
        const afterLines = change.status === 'removed' ? [] : textLines(repo, change.after?.sha);
        const counts =
          beforeLines === null || afterLines === null
            ? { additions: 0, deletions: 0 }
            : lineCounts(beforeLines, afterLines);
        const ref = change.status === 'removed' ? base : headSha;
        return {
          sha: entry?.sha ?? '',
          filename: change.filename,
          status: change.status,
          additions: counts.additions,
          deletions: counts.deletions,
          changes: counts.additions + counts.deletions,
          blob_url: `${web}/blob/${ref}/${change.filename}`,
          raw_url: `${web}/raw/${ref}/${change.filename}`,
          contents_url: `${api}/contents/${change.filename}?ref=${ref}`,
          ...(change.previous_filename !== undefined ? { previous_filename: change.previous_filename } : {}),
        };
      });
    return {
      status: 200,
      body: {
        url: `${api}/compare/${spec}`,
        html_url: `${web}/compare/${spec}`,
        permalink_url: `${web}/compare/${repo.owner.login}:${baseSha}...${repo.owner.login}:${headSha}`,
        diff_url: `${web}/compare/${spec}.diff`,
        patch_url: `${web}/compare/${spec}.patch`,
        base_commit: restCommit(urls, ctx.world, repo, baseSha),
        merge_base_commit: restCommit(urls, ctx.world, repo, base),
        status,
        ahead_by: ahead.length,
        behind_by: behindBy,
        total_commits: ahead.length,
        commits: commits.map((sha) => restCommit(urls, ctx.world, repo, sha)),
        files,
      },
    };
  });
}
