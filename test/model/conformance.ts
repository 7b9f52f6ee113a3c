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
import type { Relation, StepRule, TransitionRule } from '../../scripts/checks/model-relation.mjs';

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

/**
 * Reads the branch's history, oldest first, with each commit's files and its parent's: the whole of it,
 * or (`after`) only the commits made since that commit (a campaign's trial, recorded as it ends).
 */
export async function recordHistory(
  ledger: LedgerContext,
  options: { after?: string } = {},
): Promise<RecordedCommit[]> {
  const { store } = ledger;
  const snapshot = await store.read({ paths: [], historyFirst: 100 });
  if (snapshot === null) throw new Error('no ledger branch');
  const commits: CommitInfo[] = [];
  let page = snapshot.history;
  let reached = false;
  for (;;) {
    for (const commit of page.commits) {
      if (commit.oid === options.after) {
        reached = true;
        break;
      }
      commits.push(commit);
    }
    if (reached || !page.hasNextPage || page.endCursor === null) break;
    page = await store.readHistory(snapshot.headOid, page.endCursor, 100);
  }
  if (options.after !== undefined && !reached)
    throw new Error(`commit ${options.after} is not in the history`);
  commits.reverse();
  const recorded: RecordedCommit[] = [];
  const wanted = commits.flatMap((commit) => {
    const trailers = parseTrailers(commit.message);
    if (trailers === null) throw new Error(`commit ${commit.oid} has no Writ trailers`);
    if (trailers.transition === 'bootstrap') return [];
    const runPath =
      trailers.runId === null || trailers.repository === null
        ? null
        : runFilePath(trailers.repository, trailers.runId);
    return [{ commit, trailers, runPath }];
  });
  // The files of 25 commits (and their parents) per GraphQL query.
  for (let start = 0; start < wanted.length; start += 25) {
    const chunk = wanted.slice(start, start + 25);
    const files = await store.readCommits(
      chunk.map(({ commit, runPath }) => ({
        oid: commit.oid,
        paths: runPath === null ? [LEASE_PATH] : [LEASE_PATH, runPath],
      })),
    );
    chunk.forEach(({ commit, trailers, runPath }, index) => {
      const read = files[index];
      if (read === undefined) throw new Error(`no files for ${commit.oid}`);
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
        before: { lease: lease(read.parentFiles), run: run(read.parentFiles) },
        after: { lease: lease(read.files), run: run(read.files) },
      });
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
    // In order: every earlier step done (or failed), or claimed in this same commit (a claim window's
    // steps, each the very next one, as the ledger's claimSteps allows).
    const earlierOpen = before
      .slice(0, index)
      .some((step, at) => !TERMINAL_STEP.has(step.status) && !changed.includes(at));
    if (rule.inOrder === true && earlierOpen) {
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
 * What the relation remembers across a history (one approval per run and per comment, transition IDs,
 * the highest epoch): pass the same one to every trial's slice of a campaign's ledger.
 */
export interface ConformanceMemory {
  consumedRuns: Set<string>;
  /** Comment IDs a one-time command (approve, reconcile, cancel) landed for. */
  consumedComments: Set<number>;
  transitionIds: Set<string>;
  maxEpoch: number;
}

export function conformanceMemory(): ConformanceMemory {
  return { consumedRuns: new Set(), consumedComments: new Set(), transitionIds: new Set(), maxEpoch: 0 };
}

const ONE_TIME_COMMENT = ['consume', 'reconcile', 'cancel'];

function holderRule(rule: TransitionRule, commit: RecordedCommit, terminal: boolean, found: string[]): void {
  const { before, after } = commit;
  const holder = after.lease.holder;
  const ofThisRun = holder !== null && holder.run_id === commit.runId;
  const heldBefore = before.lease.holder !== null && before.lease.holder.run_id === commit.runId;
  switch (rule.holder) {
    case 'same':
      if (!sameHolder(before.lease.holder, holder)) found.push('the holder changed');
      break;
    case 'free':
      if (holder !== null) found.push('the lease was not freed');
      break;
    case 'same-or-free-if-terminal':
      if (terminal && holder !== null) found.push('the run ended but the lease was not freed');
      if (!terminal && !sameHolder(before.lease.holder, holder)) found.push('the holder changed');
      break;
    case 'this-run':
      if (!ofThisRun) found.push('the lease is not held by this run');
      break;
    case 'this-run-or-free':
      if (holder !== null && !ofThisRun) found.push('the lease went elsewhere');
      break;
    case 'this-run-unless-needs-reconciliation':
      if (after.run?.state === 'needs-reconciliation' ? holder !== null : !ofThisRun)
        found.push(
          after.run?.state === 'needs-reconciliation'
            ? 'the run stopped for reconciliation but the lease was not freed'
            : 'the lease is not held by this run',
        );
      break;
    case 'free-if-held':
      if (heldBefore ? holder !== null : !sameHolder(before.lease.holder, holder))
        found.push(
          heldBefore ? 'the run held the lease and it was not freed' : "another run's lease changed",
        );
      break;
  }
}

/**
 * The relation's verdict on one history: every problem found, each naming the commit (empty when the
 * history is a path of the model). `graceMs` is the lease policy's grace period; `memory` carries what
 * a campaign's earlier trials consumed and granted.
 */
export function conformanceProblems(
  relation: Relation,
  history: readonly RecordedCommit[],
  graceMs: number,
  memory: ConformanceMemory = conformanceMemory(),
): string[] {
  const problems: string[] = [];
  const { consumedRuns, consumedComments, transitionIds } = memory;
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
    const heldBefore = before.lease.holder !== null && before.lease.holder.run_id === commit.runId;
    const step = rule.epoch === 'next' || (rule.epoch === 'next-if-held' && heldBefore) ? 1 : 0;
    const expected = before.lease.epoch + step;
    if (after.lease.epoch !== expected) found.push(`epoch ${before.lease.epoch} → ${after.lease.epoch}`);
    if (commit.epoch !== after.lease.epoch)
      found.push(`trailer epoch ${commit.epoch} ≠ lease ${after.lease.epoch}`);
    if (after.lease.epoch < memory.maxEpoch)
      found.push(`epoch went back from ${memory.maxEpoch} to ${after.lease.epoch}`);
    if (step === 1 && after.lease.epoch <= memory.maxEpoch) found.push('an epoch was granted twice');
    memory.maxEpoch = Math.max(memory.maxEpoch, after.lease.epoch);
    // The lease holder.
    holderRule(rule, commit, to !== null && relation.terminal.includes(to), found);
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
    const claimedBefore = (before.run?.steps ?? []).some((s) => s.status === 'claimed');
    const claimedAfter = (after.run?.steps ?? []).some((s) => s.status === 'claimed');
    if (rule.needsReconciliationIffClaimed === true && (to === 'needs-reconciliation') !== claimedAfter) {
      found.push('needs-reconciliation does not match a step left claimed');
    }
    if (rule.settlesFromNeedsReconciliation === true && from === 'needs-reconciliation') {
      const settled = (before.run?.steps ?? []).some(
        (s, index) => s.status === 'claimed' && after.run?.steps[index]?.status !== 'claimed',
      );
      if (!settled) found.push('taken over from needs-reconciliation without settling a claimed step');
    }
    if (rule.noClaimedStep === true && claimedBefore) found.push('a step was still claimed');
    if (
      rule.completedNeedsNoPendingStep === true &&
      to === 'completed' &&
      (before.run?.steps ?? []).some((s) => s.status === 'pending')
    ) {
      found.push('completed with a pending step');
    }
    if (rule.needsApproval === true && before.run?.approval == null) found.push('the run has no approval');
    if (rule.statusComment === 'reserve-record-or-reset') checkStatusComment(commit, found);
    else checkFoldedStatus(rule.statusComment, commit, found);
    if (rule.artifactFenced === true) checkArtifact(commit, found);
    checkSteps(rule.steps, commit, found);
    // One consumed approval per run; one landing per command comment, across the whole history.
    if (commit.transition === 'consume') {
      if (commit.runId === null || commit.commentId === null) found.push('a consume names no run or comment');
      else {
        if (consumedRuns.has(commit.runId)) found.push('a second approval consumed for the run');
        consumedRuns.add(commit.runId);
      }
    }
    if (ONE_TIME_COMMENT.includes(commit.transition) && commit.commentId !== null) {
      if (consumedComments.has(commit.commentId)) found.push('the comment was consumed twice');
      consumedComments.add(commit.commentId);
    }
    for (const problem of found) problems.push(`${commit.oid.slice(0, 12)} ${commit.transition}: ${problem}`);
  }
  return problems;
}

/** A status record keeps its issue; a recorded comment ID changes only to null (a re-reservation). */
function checkStatusComment(commit: RecordedCommit, found: string[]): void {
  const before = commit.before.run?.status_comment ?? null;
  const after = commit.after.run?.status_comment ?? null;
  if (after === null) {
    found.push('the status record was removed');
    return;
  }
  if (before === null) return;
  if (before.issue_number !== after.issue_number)
    found.push(`the status comment moved from #${before.issue_number} to #${after.issue_number}`);
  if (before.comment_id !== null && after.comment_id !== null && before.comment_id !== after.comment_id)
    found.push(`status comment ${before.comment_id} was replaced by ${after.comment_id}`);
}

/**
 * A transition other than `status` leaves the status record as it was, except the reservation the
 * status comment protocol folds into a propose (a first POST's) or a consume (an update's).
 */
function checkFoldedStatus(
  rule: 'reserve-first-or-none' | 'reserve-update-or-same' | undefined,
  commit: RecordedCommit,
  found: string[],
): void {
  const before = commit.before.run?.status_comment ?? null;
  const after = commit.after.run?.status_comment ?? null;
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  if (rule === 'reserve-first-or-none' && before === null && after !== null) {
    if (after.comment_id !== null || after.body_digest !== null || after.pending_digest === null)
      found.push('its status record is not a first reservation');
    return;
  }
  if (rule === 'reserve-update-or-same' && before !== null && after !== null) {
    if (
      before.comment_id === null ||
      before.pending_digest !== null ||
      after.pending_digest === null ||
      after.issue_number !== before.issue_number ||
      after.comment_id !== before.comment_id ||
      after.body_digest !== before.body_digest ||
      (after.reserved_at ?? null) !== (before.reserved_at ?? null)
    )
      found.push('its status record is not an update reservation of the recorded comment');
    return;
  }
  found.push('it changed the status record');
}

/**
 * An artifact record is made under the run's own epoch, no later than the lease's and the last
 * publish's, and records something new (a published but unrecorded artifact is recorded once).
 */
function checkArtifact(commit: RecordedCommit, found: string[]): void {
  const run = commit.before.run;
  const record = commit.after.run?.artifact ?? null;
  if (run === null || record === null) {
    found.push('no artifact was recorded');
    return;
  }
  if (run.owner?.epoch !== record.epoch) found.push(`published under epoch ${record.epoch}, not the run's`);
  if (commit.before.lease.epoch > record.epoch)
    found.push(`published under epoch ${record.epoch} after the lease moved to ${commit.before.lease.epoch}`);
  if ((run.artifact?.epoch ?? 0) > record.epoch) found.push('a later epoch had already published');
  if (JSON.stringify(run.artifact) === JSON.stringify(record)) found.push('the same artifact recorded again');
}
