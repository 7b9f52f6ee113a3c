/**
 * The approval gate in-process against the emulator with the real client: what it requires (the run's
 * consume in the proven history, the digest, the comment, author and live role) and how it fails —
 * a definite answer is `stale-or-mismatched-approval`, a transient one `github-request-failed`.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { verifyApprovalGate } from '../../src/approval/gate.js';
import { WritError } from '../../src/errors.js';
import { consumeApproval, recordStatusComment } from '../../src/ledger/ledger.js';
import { silentLogger } from '../../src/redact.js';
import type { LedgerWorld } from '../ledger/support/emulator.js';
import {
  APPROVER,
  APPROVER_TOKEN,
  LEDGER_TOKEN,
  OWNER,
  REPO,
  emulatorClient,
  ledgerWorld,
} from '../ledger/support/emulator.js';
import { planFor, proposePlanFor, recomputed } from '../ledger/support/fixtures.js';

let world: LedgerWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error: unknown) {
    if (error instanceof WritError) return error.code;
    throw error;
  }
  return 'passed';
}

async function approvedWorld(): Promise<{
  world: LedgerWorld;
  gate: (digest?: string, runId?: string) => Promise<string>;
  commentId: number;
  plan: ReturnType<typeof planFor>;
}> {
  const created = await ledgerWorld();
  world = created;
  const ledger = created.context();
  const plan = await proposePlanFor(ledger, 'run-1');
  const approval = await created.approve('run-1', plan);
  await consumeApproval(ledger, {
    runId: 'run-1',
    approval,
    plan: recomputed(plan),
    holder: { workflow_run_id: 1, attempt: 1 },
  });
  // A writer after the consume proves it (re-reading its comment once), so each gate call below reads
  // the comment and the role itself: the faults hit the gate's own re-reads.
  await recordStatusComment(ledger, {
    runId: 'run-1',
    statusComment: { issue_number: 1, comment_id: null, body_digest: null, pending_digest: null },
  });
  const github = emulatorClient(created.emulator, LEDGER_TOKEN, 0);
  const gate = (digest = plan.digest, runId = 'run-1'): Promise<string> =>
    codeOf(
      verifyApprovalGate(
        { github, ledger: created.context(), logger: silentLogger },
        {
          repository: { owner: OWNER, repo: REPO },
          runId,
          planDigest: digest,
          commandPrefix: 'writ',
          allowedRoles: ['admin', 'maintain', 'write'],
        },
      ),
    );
  return { world: created, gate, commentId: approval.comment_id, plan };
}

describe('the approval gate', () => {
  it('passes a consumed approval that still re-verifies', async () => {
    const { gate } = await approvedWorld();
    expect(await gate()).toBe('passed');
  });

  it('refuses another digest, an unknown run and a run without a consumed approval', async () => {
    const { world: w, gate } = await approvedWorld();
    expect(await gate(planFor('other').digest)).toBe('stale-or-mismatched-approval');
    expect(await gate(undefined, 'run-9')).toBe('stale-or-mismatched-approval');
    const proposedOnly = await proposePlanFor(w.context(), 'run-2');
    expect(await gate(proposedOnly.digest, 'run-2')).toBe('stale-or-mismatched-approval');
  });

  it('refuses an edited or deleted approval comment, and a demoted approver', async () => {
    const { world: w, gate, commentId } = await approvedWorld();
    const alice = emulatorClient(w.emulator, APPROVER_TOKEN);
    w.emulator.admin.setCollaborator(OWNER, REPO, APPROVER, 'read');
    expect(await gate()).toBe('stale-or-mismatched-approval');
    w.emulator.admin.setCollaborator(OWNER, REPO, APPROVER, 'maintain');
    expect(await gate()).toBe('passed');
    w.emulator.admin.clock({ advance_ms: 2000 });
    const { data } = await alice.rest.issues.getComment({ owner: OWNER, repo: REPO, comment_id: commentId });
    await alice.rest.issues.updateComment({
      owner: OWNER,
      repo: REPO,
      comment_id: commentId,
      body: data.body ?? '',
    });
    expect(await gate()).toBe('stale-or-mismatched-approval');
    await alice.rest.issues.deleteComment({ owner: OWNER, repo: REPO, comment_id: commentId });
    expect(await gate()).toBe('stale-or-mismatched-approval');
  });

  it('reports a transient failure of either re-read as github-request-failed, never as a stale approval', async () => {
    const { world: w, gate } = await approvedWorld();
    for (const path of [
      `/repos/${OWNER}/${REPO}/issues/comments/*`,
      `/repos/${OWNER}/${REPO}/collaborators/*/permission`,
    ]) {
      w.emulator.admin.addFault({
        match: { method: 'GET', path },
        fault: { type: 'status', status: 502 },
        times: 1,
      });
      expect(await gate()).toBe('github-request-failed');
      expect(await gate()).toBe('passed');
    }
  });
});
