/**
 * The conformance link between the SPIN model and the code: a recorded ledger history (every commit
 * with its Writ-Transition trailers and the lease and run files before and after it) is checked, commit
 * by commit, against the transition relation in model/relation.json, the same table model/relation.pml
 * is generated from. A transition the code makes that the model does not allow is reported by commit.
 */
import type { LedgerContext } from '@writ/core/ledger/cas.js';
import { parseTrailers } from '@writ/core/ledger/message.js';
import { LEASE_PATH, runFilePath } from '@writ/core/ledger/paths.js';
import { LEASE_FILE, RUN_FILE, parseLedgerFile } from '@writ/core/ledger/schemas.js';
import type { CommitInfo } from '@writ/core/ledger/store.js';
import type { Lease, RunFile } from '@writ/core/ledger/types.js';
import type { Relation, StepRule } from '../../scripts/model-relation.mjs';

/** One ledger commit as the relation sees it: its trailers, and the lease and run before and after. */
export interface RecordedCommit {
  oid: string;
  committedAt: number | null;
  transition: string;
  runId: string | null;
  epoch: number;
  transitionId: string;
  commentId: number | null;
  before: { lease: Lease; run: RunFile | null };
  after: { lease: Lease; run: RunFile | null };
}

const FREE: Lease = { schema: 1, epoch: 0, holder: null, lease_expires_at: null };

/** Reads the branch's whole history, oldest first, with each commit's files and its parent's. */
export async function recordHistory(ledger: LedgerContext): Promise<RecordedCommit[]> {
  const { store } = ledger;
  const snapshot = await store.read({ paths: [], historyFirst: 100 });
  if (snapshot === null) throw new Error('no ledger branch');
  const commits: CommitInfo[] = [];
  let page = snapshot.history;
  for (;;) {
    commits.push(...page.commits);
    if (!page.hasNextPage || page.endCursor === null) break;
    page = await store.readHistory(snapshot.headOid, page.endCursor, 100);
  }
  commits.reverse();
  const recorded: RecordedCommit[] = [];
  for (const commit of commits) {
    const trailers = parseTrailers(commit.message);
    if (trailers === null) throw new Error(`commit ${commit.oid} has no Writ trailers`);
    if (trailers.transition === 'bootstrap') continue;
    const runPath =
      trailers.runId === null || trailers.repository === null
        ? null
        : runFilePath(trailers.repository, trailers.runId);
    const paths = runPath === null ? [LEASE_PATH] : [LEASE_PATH, runPath];
    const [files] = await store.readCommits([{ oid: commit.oid, paths }]);
    if (files === undefined) throw new Error(`no files for ${commit.oid}`);
    const lease = (map: ReadonlyMap<string, string | null>): Lease => {
      const text = map.get(LEASE_PATH) ?? null;
      return text === null ? FREE : parseLedgerFile(LEASE_FILE, LEASE_PATH, text);
    };
    const run = (map: ReadonlyMap<string, string | null>): RunFile | null => {
      const text = runPath === null ? null : (map.get(runPath) ?? null);
      return text === null || runPath === null ? null : parseLedgerFile(RUN_FILE, runPath, text);
    };
    recorded.push({
      oid: commit.oid,
      committedAt: commit.committedAt,
      transition: trailers.transition,
      runId: trailers.runId,
      epoch: trailers.epoch,
      transitionId: trailers.transitionId,
      commentId: trailers.commentId,
      before: { lease: lease(files.parentFiles), run: run(files.parentFiles) },
      after: { lease: lease(files.files), run: run(files.files) },
    });
  }
  return recorded;
}

const TERMINAL_STEP = new Set(['done', 'conflict', 'failed']);

function sameHolder(a: Lease['holder'], b: Lease['holder']): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function checkSteps(
  rule: StepRule | 'same' | 'created-pending',
  commit: RecordedCommit,
  problems: string[],
): void {
  const before = commit.before.run?.steps ?? [];
  const after = commit.after.run?.steps ?? [];
  if (rule === 'created-pending') {
    if (!after.every((step) => step.status === 'pending')) problems.push('a proposed step is not pending');
    return;
  }
  if (before.length !== after.length) {
    problems.push('the run gained or lost steps');
    return;
  }
  const changed = after.flatMap((step, index) => (step.status === before[index]?.status ? [] : [index]));
  if (rule === 'same') {
    if (changed.length > 0) problems.push(`step ${after[changed[0]!]!.id} changed status`);
    return;
  }
  const countOk =
    rule.count === 'any' ? true : rule.count === 'some' ? changed.length >= 1 : changed.length === rule.count;
  if (!countOk) {
    problems.push(`${changed.length} steps changed status, the model allows ${rule.count}`);
    return;
  }
  for (const index of changed) {
    const from = before[index]!.status;
    const to = after[index]!.status;
    if (!rule.from.includes(from) || !rule.to.includes(to)) {
      problems.push(`step ${after[index]!.id}: ${from} → ${to} is not in the model`);
    }
    if (rule.inOrder === true && !before.slice(0, index).every((step) => TERMINAL_STEP.has(step.status))) {
      problems.push(`step ${after[index]!.id} was claimed before an earlier step was done`);
    }
    if (rule.claimedBySameEpoch === true && before[index]!.epoch !== commit.epoch) {
      problems.push(
        `step ${after[index]!.id} was claimed by epoch ${before[index]!.epoch}, not ${commit.epoch}`,
      );
    }
  }
}

/**
 * The relation's verdict on one history: every problem found, each naming the commit (empty when the
 * history is a path of the model). `graceMs` is the lease policy's grace period.
 */
export function conformanceProblems(
  relation: Relation,
  history: readonly RecordedCommit[],
  graceMs: number,
): string[] {
  const problems: string[] = [];
  const consumedRuns = new Set<string>();
  const consumedComments = new Set<number>();
  const transitionIds = new Set<string>();
  let maxEpoch = 0;
  for (const commit of history) {
    const found: string[] = [];
    const rule = relation.transitions[commit.transition];
    if (rule === undefined) {
      problems.push(`${commit.oid} ${commit.transition}: no such transition in the model`);
      continue;
    }
    const { before, after } = commit;
    const from = before.run?.state ?? null;
    const to = after.run?.state ?? null;
    if (!rule.from.includes(from)) found.push(`from ${from ?? 'no run'} is not allowed`);
    if (rule.to.includes('same') ? to !== from : to === null || !rule.to.includes(to)) {
      found.push(`to ${to ?? 'no run'} is not allowed`);
    }
    if (transitionIds.has(commit.transitionId)) found.push('its transition ID landed twice');
    transitionIds.add(commit.transitionId);
    // Epochs: the trailer names the lease epoch after the commit; it never goes down.
    const expected = before.lease.epoch + (rule.epoch === 'next' ? 1 : 0);
    if (after.lease.epoch !== expected) found.push(`epoch ${before.lease.epoch} → ${after.lease.epoch}`);
    if (commit.epoch !== after.lease.epoch)
      found.push(`trailer epoch ${commit.epoch} ≠ lease ${after.lease.epoch}`);
    if (after.lease.epoch < maxEpoch) found.push(`epoch went back from ${maxEpoch} to ${after.lease.epoch}`);
    if (rule.epoch === 'next' && after.lease.epoch <= maxEpoch) found.push('an epoch was granted twice');
    maxEpoch = Math.max(maxEpoch, after.lease.epoch);
    // The lease holder.
    const holder = after.lease.holder;
    const ofThisRun = holder !== null && holder.run_id === commit.runId;
    if (rule.holder === 'same' && !sameHolder(before.lease.holder, holder)) found.push('the holder changed');
    if (rule.holder === 'free' && holder !== null) found.push('the lease was not freed');
    if (rule.holder === 'same-or-free-if-terminal') {
      const terminal = to !== null && relation.terminal.includes(to);
      if (terminal && holder !== null) found.push('the run ended but the lease was not freed');
      if (!terminal && !sameHolder(before.lease.holder, holder)) found.push('the holder changed');
    }
    if (rule.holder === 'this-run' && !ofThisRun) found.push('the lease is not held by this run');
    if (rule.holder === 'this-run-or-free' && holder !== null && !ofThisRun)
      found.push('the lease went elsewhere');
    if (
      rule.holderCheck &&
      (before.lease.holder?.run_id !== commit.runId ||
        before.lease.epoch !== commit.epoch ||
        before.run?.owner?.epoch !== commit.epoch)
    ) {
      found.push(`made by epoch ${commit.epoch}, which did not hold the lease (a fenced holder)`);
    }
    if (
      rule.leaseMustBeFree === true &&
      before.lease.holder !== null &&
      before.lease.lease_expires_at !== null
    ) {
      const expiry = Date.parse(before.lease.lease_expires_at);
      // Commit dates are whole seconds; the transition judged the read's (earlier) server time.
      if (commit.committedAt === null || commit.committedAt + 1000 < expiry + graceMs) {
        found.push('the lease was still live (expiry plus grace, server clock)');
      }
    }
    const claimedBefore = (before.run?.steps ?? []).some((step) => step.status === 'claimed');
    if (rule.needsReconciliationIffClaimed === true && (to === 'needs-reconciliation') !== claimedBefore) {
      found.push('needs-reconciliation does not match a claimed step');
    }
    if (rule.noClaimedStep === true && claimedBefore) found.push('a step was still claimed');
    if (
      rule.completedNeedsNoPendingStep === true &&
      to === 'completed' &&
      (before.run?.steps ?? []).some((step) => step.status === 'pending')
    ) {
      found.push('completed with a pending step');
    }
    if (rule.needsApproval === true && before.run?.approval == null) found.push('the run has no approval');
    checkSteps(rule.steps, commit, found);
    // One consumed approval per run and per comment, across the whole history.
    if (commit.transition === 'consume') {
      if (commit.runId === null || commit.commentId === null) found.push('a consume names no run or comment');
      else {
        if (consumedRuns.has(commit.runId)) found.push('a second approval consumed for the run');
        if (consumedComments.has(commit.commentId)) found.push('the comment was consumed twice');
        consumedRuns.add(commit.runId);
        consumedComments.add(commit.commentId);
      }
    }
    for (const problem of found) problems.push(`${commit.oid.slice(0, 12)} ${commit.transition}: ${problem}`);
  }
  return problems;
}
