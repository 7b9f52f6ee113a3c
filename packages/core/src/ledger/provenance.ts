/**
 * Provenance: the ledger is authority only if its history proves app-only, append-only writes. Fails
 * closed with `ledger-provenance-unproven` naming the first rule that does not hold:
 *  - a ruleset on the branch blocks deletion and non-fast-forward and restricts updates, with no bypass
 *    actor other than the ledger app, and was not changed after the root commit;
 *  - the oldest commit is parentless, and no other commit is (no merges either);
 *  - every commit is authored by the configured app (`<slug>[bot]`) and carries a valid GitHub signature;
 *  - consumed run IDs and comment IDs are collected from the whole history (commit trailers).
 *
 * Cost: a full check reads ceil(N / 100) history pages for N commits plus the ruleset reads. The
 * incremental check starts from `provenance.json`, a checkpoint the app itself wrote in an earlier
 * transition commit after proving the history below it; it re-proves every commit above the checkpoint
 * (usually within the one read's first page) and trusts the part below it, which the checkpoint's
 * commit ID pins (a commit ID covers all its ancestors). Rulesets are read every time.
 */
import { WritError } from '../errors.js';
import { parseTrailers } from './message.js';
import type { CommitInfo, HistoryPage, LedgerStore } from './store.js';
import type { LedgerApp, ProvenanceCheckpoint } from './types.js';

export type ProvenanceMode = 'full' | 'incremental';

export interface ProvenanceReport {
  headOid: string;
  rootOid: string;
  rootCommittedAt: number | null;
  /** Commits proven by this check (the rest were covered by the checkpoint). */
  commitsChecked: number;
  /** Commits from the root to the head. */
  totalCommits: number;
  /** API requests the check made beyond the one read (history pages and ruleset reads). */
  requests: number;
  usedCheckpoint: boolean;
  rulesetIds: number[];
  consumedRunIds: Set<string>;
  consumedCommentIds: Set<number>;
}

function unproven(rule: string, details: Record<string, string | number | boolean> = {}): WritError {
  return new WritError('ledger-provenance-unproven', rule, { details });
}

const REQUIRED_RULES = ['deletion', 'non_fast_forward', 'update'] as const;

/** Checks the branch rulesets. Returns the ruleset IDs and the number of requests made. */
export async function checkRulesets(
  store: LedgerStore,
  app: LedgerApp,
  rootCommittedAt: number | null,
): Promise<{ rulesetIds: number[]; requests: number }> {
  let requests = 1;
  const rules = await store.branchRules();
  const byType = new Map<string, number[]>();
  for (const rule of rules) byType.set(rule.type, [...(byType.get(rule.type) ?? []), rule.rulesetId]);
  for (const type of REQUIRED_RULES) {
    if (!byType.has(type)) {
      throw unproven(
        `No active ruleset on branch ${store.location.branch} has a ${type} rule (needed: deletion, non_fast_forward and update restricted to the ledger app).`,
        { rule: type },
      );
    }
  }
  const ids = [...new Set(REQUIRED_RULES.flatMap((type) => byType.get(type) ?? []))].sort((a, b) => a - b);
  for (const id of ids) {
    requests += 1;
    const ruleset = await store.ruleset(id);
    if (ruleset.enforcement !== 'active') {
      throw unproven(`Ruleset ${id} on the ledger branch is not actively enforced.`, { ruleset: id });
    }
    if (ruleset.bypassActors === null) {
      throw unproven(
        `Ruleset ${id}'s bypass actors are not visible to this token, so updates cannot be proven restricted to the ledger app.`,
        { ruleset: id },
      );
    }
    const other = ruleset.bypassActors.find(
      (actor) => !(actor.actorType === 'Integration' && actor.actorId === app.id),
    );
    if (other !== undefined) {
      throw unproven(
        `Ruleset ${id} lets a ${other.actorType} actor other than the ledger app (app ID ${app.id}) bypass it.`,
        { ruleset: id },
      );
    }
    // Compared in whole seconds: git commit dates have no milliseconds.
    if (
      rootCommittedAt !== null &&
      ruleset.updatedAt !== null &&
      Math.floor(ruleset.updatedAt / 1000) > Math.floor(rootCommittedAt / 1000)
    ) {
      throw unproven(
        `Ruleset ${id} was changed after the ledger root commit; the owner must re-provision the ledger.`,
        { ruleset: id },
      );
    }
  }
  const updateIds = byType.get('update') ?? [];
  if (updateIds.length === 0) throw unproven('No ruleset restricts updates of the ledger branch.');
  return { rulesetIds: ids, requests };
}

const BOT_EMAIL = (slug: string): RegExp =>
  new RegExp(
    `^[0-9]+\\+${slug.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\[bot\\]@users\\.noreply\\.github\\.com$`,
  );

/** Why a commit fails the authorship/signature rules, or null if it passes. */
export function commitProblem(commit: CommitInfo, app: LedgerApp): string | null {
  const botLogin = `${app.slug}[bot]`;
  if (
    commit.authorName !== botLogin ||
    commit.authorEmail === null ||
    !BOT_EMAIL(app.slug).test(commit.authorEmail) ||
    (commit.authorLogin !== null && commit.authorLogin !== botLogin)
  ) {
    return `commit ${commit.oid} is not authored by the ledger app ${botLogin}`;
  }
  const signature = commit.signature;
  if (
    signature === null ||
    !signature.isValid ||
    signature.state !== 'VALID' ||
    !signature.wasSignedByGitHub
  ) {
    return `commit ${commit.oid} is not verified (signature ${signature === null ? 'missing' : signature.state})`;
  }
  if (commit.parentCount > 1) return `commit ${commit.oid} is a merge commit`;
  return null;
}

export interface ProvenanceOptions {
  mode: ProvenanceMode;
  /** The checkpoint read from the head's `provenance.json` (incremental mode only). */
  checkpoint?: ProvenanceCheckpoint | null;
  /** A page of history already returned by the one read (avoids a request). */
  firstPage?: HistoryPage;
}

/**
 * Proves the ledger history of `headOid`. Throws `ledger-provenance-unproven` on the first rule that
 * fails; returns the tombstone sets on success.
 */
export async function verifyProvenance(
  store: LedgerStore,
  app: LedgerApp,
  headOid: string,
  options: ProvenanceOptions,
): Promise<ProvenanceReport> {
  let requests = 0;
  const checkpoint = options.mode === 'incremental' ? (options.checkpoint ?? null) : null;
  const consumedRunIds = new Set<string>();
  const consumedCommentIds = new Set<number>();
  let page: HistoryPage | undefined = options.firstPage;
  if (page === undefined || page.commits.length === 0) {
    requests += 1;
    page = await store.readHistory(headOid, null, 100);
  }
  let checked = 0;
  let rootOid: string | null = null;
  let rootCommittedAt: number | null = null;
  let usedCheckpoint = false;
  let totalCommits = 0;
  for (;;) {
    for (const commit of page.commits) {
      if (rootOid !== null) {
        throw unproven(
          `A second parentless commit (${rootOid}) precedes commit ${commit.oid} in the ledger history.`,
        );
      }
      if (checkpoint !== null && commit.oid === checkpoint.verified_through) {
        usedCheckpoint = true;
        rootOid = checkpoint.root_oid;
        rootCommittedAt = Date.parse(checkpoint.root_committed_at);
        totalCommits = checked + checkpoint.verified_commits;
        for (const id of checkpoint.consumed_run_ids) consumedRunIds.add(id);
        for (const id of checkpoint.consumed_comment_ids) consumedCommentIds.add(id);
        break;
      }
      const problem = commitProblem(commit, app);
      if (problem !== null) throw unproven(`Ledger history rule failed: ${problem}.`, { commit: commit.oid });
      checked += 1;
      const trailers = parseTrailers(commit.message);
      if (trailers?.transition === 'consume' && trailers.runId !== null) {
        consumedRunIds.add(trailers.runId);
        if (trailers.commentId !== null) consumedCommentIds.add(trailers.commentId);
      }
      if (commit.parentCount === 0) {
        rootOid = commit.oid;
        rootCommittedAt = commit.committedAt;
        totalCommits = checked;
      }
    }
    if (usedCheckpoint) break;
    if (!page.hasNextPage || page.endCursor === null) break;
    requests += 1;
    page = await store.readHistory(headOid, page.endCursor, 100);
  }
  if (rootOid === null) throw unproven('The ledger history has no parentless root commit.');
  const rulesets = await checkRulesets(store, app, rootCommittedAt);
  requests += rulesets.requests;
  return {
    headOid,
    rootOid,
    rootCommittedAt,
    commitsChecked: checked,
    totalCommits,
    requests,
    usedCheckpoint,
    rulesetIds: rulesets.rulesetIds,
    consumedRunIds,
    consumedCommentIds,
  };
}

/** The checkpoint a transition commit records after proving the history through `report.headOid`. */
export function checkpointFrom(report: ProvenanceReport): ProvenanceCheckpoint {
  return {
    schema: 1,
    root_oid: report.rootOid,
    root_committed_at: new Date(report.rootCommittedAt ?? 0).toISOString(),
    verified_through: report.headOid,
    verified_commits: report.totalCommits,
    consumed_run_ids: [...report.consumedRunIds].sort(),
    consumed_comment_ids: [...report.consumedCommentIds].sort((a, b) => a - b),
  };
}
