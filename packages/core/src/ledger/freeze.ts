/**
 * The freeze: what the recovery sweep does when the full replay from the root refuses the ledger.
 *
 * Why it exists. Every gate proves the ledger incrementally (provenance.ts): it replays only the
 * commits above the head's checkpoint, anchored on the state the checkpoint's commit claims. That keeps
 * each gate O(1) in history length, but it trusts a claim the writer makes about itself: whoever holds
 * the app's installation token can write an illegal commit X and, on top of it, a legal-looking commit
 * Y whose checkpoint claims X was proven; the incremental check of Y replays Y only and passes. Only the
 * full replay (from the root, no checkpoint trusted) refuses X. The sweep runs that full replay on a
 * schedule, so the exposure is bounded by the sweep's interval; the freeze makes the refusal stick.
 *
 * What it is. One commit on the ledger branch (transition `freeze`, no run) whose only change is the
 * head's `provenance.json`, carrying `frozen: { commit, code, frozen_at }` (the offending commit the
 * full replay named and the refusal code; never free text). The sweep freezes only on a refused
 * commit: a ruleset refusal already stops every gate that proves the rulesets, and a pinned ruleset
 * that changed never proves again (rulesets.ts). Then:
 *  - every gate refuses it in O(1): verifyProvenance reads `frozen` off the head's checkpoint before it
 *    walks anything (`ledger-frozen`, naming the offending commit);
 *  - a replay that reaches a freeze commit refuses the ledger too (`ledger-frozen`), and so does an
 *    incremental check anchored on one: a freeze is terminal, no transition is legal after it.
 *
 * Why an app-token holder cannot undo it unnoticed. The branch is append-only for the app itself (the
 * pinned rulesets: no deletion, no force-push, no bypass actor), so neither X nor the freeze commit can
 * leave the history. One commit on top of the freeze that drops `frozen` is refused at the next gate: its
 * anchor is the freeze (refused) or lies below it (the freeze is replayed: refused). Two commits (Z1
 * drops it, Z2 claims Z1 proven) pass the incremental gate, exactly like the forgery itself, but the
 * next sweep's full replay still meets X (and Z1), refuses, and freezes again, reporting it on the job
 * summary. So the holder can at most reopen the same window the sweep bounds, and never silently: every
 * reopening is a commit in a history that cannot be rewritten. A frozen ledger is never unfrozen by
 * Writ: the owner rotates the key and re-provisions the ledger on a new branch (SECURITY.md).
 */
import { randomUUID } from 'node:crypto';
import { WritError } from '../errors.js';
import { runCasLoop } from '../github/cas-loop.js';
import { casExhausted } from '../github/commit-on-branch.js';
import type { LedgerContext } from './cas.js';
import { readCheckpoint } from './cas.js';
import { formatMessage } from './message.js';
import { LEDGER_ROOT_PATH, PROVENANCE_PATH } from './paths.js';
import { PROVENANCE_FILE, serializeLedgerFile } from './schemas.js';
import type { CommitRequest, LedgerSnapshot } from './store.js';
import type { LedgerFreeze, ProvenanceCheckpoint } from './types.js';

export interface FreezeOutcome {
  /** `frozen`: this call committed the freeze; `already-frozen`: the head already carried one. */
  action: 'frozen' | 'already-frozen' | 'dry-run';
  freeze: LedgerFreeze;
  /** The freeze commit (null when already frozen or in a dry run). */
  commitOid: string | null;
  headOid: string;
}

/** The freeze record of a refusal from the full replay: the commit it names (if any) and its code. */
export function freezeOf(error: WritError, at: number): LedgerFreeze {
  const commit = error.details.commit;
  return {
    commit: typeof commit === 'string' && /^[0-9a-f]{40}$/.test(commit) ? commit : null,
    code: error.code,
    frozen_at: new Date(at).toISOString(),
  };
}

const ZERO_OID = '0'.repeat(40);

/**
 * Commits the freeze on the ledger head through the one compare-and-set loop (github/cas-loop.ts): a
 * stale head is re-read, an unanswered commit is read back before anything is retried (a freeze that
 * landed, ours or another sweep's, shows as `already-frozen`). The checkpoint it writes is the head's
 * own with `frozen` added (or a placeholder when the head has none that parses): it proves nothing,
 * and nothing is ever anchored on it.
 */
export async function freezeLedger(
  context: LedgerContext,
  error: WritError,
  options: { dryRun?: boolean } = {},
): Promise<FreezeOutcome> {
  const { store } = context;
  const read = async (): Promise<{ snapshot: LedgerSnapshot; current: ProvenanceCheckpoint | null }> => {
    const snapshot = await store.read({ paths: [LEDGER_ROOT_PATH, PROVENANCE_PATH], historyFirst: 0 });
    if (snapshot === null) {
      throw new WritError(
        'ledger-branch-missing',
        `The ledger branch ${store.location.branch} does not exist.`,
      );
    }
    return { snapshot, current: readCheckpoint(snapshot) };
  };
  return runCasLoop<FreezeOutcome, { freeze: LedgerFreeze; commit: CommitRequest }>(context, {
    decide: async (attempt) => {
      const { snapshot, current } = await read();
      if (current?.frozen !== undefined) {
        return { kind: 'done', value: alreadyFrozen(current.frozen, snapshot.headOid) };
      }
      const freeze = freezeOf(error, snapshot.serverTime);
      if (options.dryRun === true) {
        return {
          kind: 'done',
          value: { action: 'dry-run', freeze, commitOid: null, headOid: snapshot.headOid },
        };
      }
      return {
        kind: 'commit',
        commit: { freeze, commit: freezeCommit(snapshot.headOid, current, freeze, attempt) },
      };
    },
    commit: async ({ freeze, commit }) => {
      const outcome = await store.commit(commit);
      // Stale or unanswered: the next read shows whether a freeze (ours or another sweep's) landed.
      if (outcome.kind !== 'committed') return { kind: 'again' };
      context.logger.warning(`ledger frozen by commit ${outcome.oid} (${freeze.code})`);
      return {
        kind: 'done',
        value: { action: 'frozen', freeze, commitOid: outcome.oid, headOid: outcome.oid },
      };
    },
    landed: async () => {
      const { snapshot, current } = await read();
      return current?.frozen === undefined ? null : alreadyFrozen(current.frozen, snapshot.headOid);
    },
    exhausted: (attempts) => casExhausted('ledger', 'Freezing the ledger', attempts),
  });
}

function alreadyFrozen(freeze: LedgerFreeze, headOid: string): FreezeOutcome {
  return { action: 'already-frozen', freeze, commitOid: null, headOid };
}

/** The freeze commit on `headOid`: only provenance.json, the head's checkpoint (or a placeholder) with `frozen`. */
function freezeCommit(
  headOid: string,
  current: ProvenanceCheckpoint | null,
  freeze: LedgerFreeze,
  attempt: number,
): CommitRequest {
  const base: ProvenanceCheckpoint = current ?? {
    schema: 1,
    root_oid: ZERO_OID,
    root_committed_at: new Date(0).toISOString(),
    verified_through: ZERO_OID,
    verified_commits: 1,
    consumed_run_ids: [],
    consumed_comment_ids: [],
  };
  const contents = serializeLedgerFile(PROVENANCE_FILE, PROVENANCE_PATH, { ...base, frozen: freeze });
  const message = formatMessage({
    transition: 'freeze',
    runId: null,
    repository: null,
    epoch: 0,
    transitionId: `${randomUUID()}.${attempt}`,
    commentId: null,
  });
  return {
    expectedHeadOid: headOid,
    headline: message.headline,
    body: message.body,
    additions: [{ path: PROVENANCE_PATH, contents }],
  };
}
