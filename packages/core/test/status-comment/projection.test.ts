import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { digest } from '../../src/canonical-json.js';
import type { RunFile } from '../../src/ledger/types.js';
import type { Plan } from '../../src/plan/types.js';
import { APPROVE_HEADING } from '../../src/markdown.js';
import { approveCommand, renderPreview } from '../../src/preview/render.js';
import { renderStatusProjection } from '../../src/status-comment/projection.js';

const plan = JSON.parse(
  readFileSync(new URL('../../../../examples/release-plan.json', import.meta.url), 'utf8'),
) as Plan;
const planDigest = digest(plan);
const preview = renderPreview({ plan, planDigest, runId: 'run-1', commandPrefix: 'writ' });

function run(state: RunFile['state'], statuses: RunFile['steps'][number]['status'][]): RunFile {
  const approved = state !== 'proposed';
  return {
    schema: 1,
    repository: 'acme/widgets',
    run_id: 'run-1',
    plan_digest: planDigest,
    evidence_digest: null,
    scope: { repository: 'acme/widgets', digest: planDigest },
    bounds: { max_steps: 10 },
    state,
    approval: approved
      ? {
          actor_login: 'wren',
          actor_id: 5,
          role_name: 'write',
          comment_id: 77,
          comment_url: 'https://github.com/acme/widgets/issues/1#issuecomment-77',
          digest: planDigest,
          consumed_at: '2026-11-30T09:00:00.000Z',
          epoch: 3,
        }
      : null,
    owner: approved ? { epoch: 3, holder: { run_id: 'run-1', workflow_run_id: 9, attempt: 1 } } : null,
    steps: statuses.map((status, index) => ({
      id: `step-${index + 1}`,
      kind: 'external',
      status,
      epoch: status === 'pending' ? null : 3,
      pre_state_digest: null,
      evidence: null,
      resources: [],
      reconciled_by: null,
    })),
    stop_reason: state === 'failed' ? 'failed' : null,
    blockers: [],
    proposed_at: '2026-11-30T08:00:00.000Z',
  };
}

describe('the status comment', () => {
  it('asks for approval with the exact command while the run is proposed', () => {
    const body = renderStatusProjection(run('proposed', ['pending', 'pending']), preview);
    expect(body).toContain('Proposed: waiting for approval.');
    expect(body).toContain(APPROVE_HEADING);
    expect(body).toContain(approveCommand('writ', 'run-1', planDigest));
    expect(body).toContain('### What each step writes');
  });

  it('says who approved and what happens next once approved, and no longer asks to approve', () => {
    const body = renderStatusProjection(run('approved', ['pending', 'pending']), preview);
    expect(body).toMatch(
      /^\*\*Writ run `run-1`\*\*: Approved\.\nSteps: 2 pending \(of 2\)\.\nEpoch 3, held by workflow run 9 \(attempt 1\)\.\nApproved by @wren \(write\) at `2026-11-30T09:00:00\.000Z` in \[comment 77\]\(https:\/\/github\.com\/acme\/widgets\/issues\/1#issuecomment-77\), for digest `sha256:[0-9a-f]{64}`, epoch 3\./,
    );
    expect(body).toContain(
      'Next: the approved workflow claims, writes and checkpoints the 2 steps in order under epoch 3',
    );
    expect(body).not.toContain(APPROVE_HEADING);
    expect(body).not.toContain(approveCommand('writ', 'run-1', planDigest));
    expect(body).not.toMatch(/to approve/i);
    // The content approvers approved is still shown.
    expect(body).toContain('### What each step writes');
  });

  it.each([
    ['running', ['done', 'claimed'], /Next: 1 of 2 steps are finished; step `step-2` is being written/],
    [
      'completed',
      ['done', 'done'],
      /Every step is done and the repository lease was released in the same ledger commit/,
    ],
    ['failed', ['done', 'failed'], /Nothing more will be written for this run \(2 of 2 steps finished\)/],
    [
      'needs-reconciliation',
      ['done', 'claimed'],
      /Step `step-2` was claimed but its outcome is unknown: nothing is retried blindly until a repository writer reconciles it/,
    ],
  ] as const)('%s: says what happens next', (state, statuses, next) => {
    expect(renderStatusProjection(run(state, [...statuses]), preview)).toMatch(next);
  });

  it('links the approval comment only when its URL is a plain https URL', () => {
    const odd = run('approved', ['pending']);
    odd.approval!.comment_url = 'javascript:alert(1)';
    const body = renderStatusProjection(odd, preview);
    expect(body).not.toContain('javascript:');
    expect(body).toContain('Approved by @wren (write)');
  });

  it('links a GHES comment URL on its own port, and nothing that only looks like a port', () => {
    const ghes = run('approved', ['pending']);
    ghes.approval!.comment_url = 'https://ghes.acme.test:8443/acme/widgets/issues/1#issuecomment-77';
    expect(renderStatusProjection(ghes, preview)).toContain(
      '[comment 77](https://ghes.acme.test:8443/acme/widgets/issues/1#issuecomment-77)',
    );
    ghes.approval!.comment_url = 'https://ghes.acme.test:evil/acme/widgets/issues/1';
    expect(renderStatusProjection(ghes, preview)).not.toContain('](https://ghes');
  });

  it('renders the same bytes for the same run and preview', () => {
    const state = run('running', ['done', 'pending']);
    expect(renderStatusProjection(state, preview)).toBe(
      renderStatusProjection(structuredClone(state), preview),
    );
  });

  it('names the approval epoch when the run has no owner yet, and a stopped run with no claimed step', () => {
    const unowned = run('approved', ['pending']);
    unowned.owner = null;
    unowned.approval!.epoch = 4;
    expect(renderStatusProjection(unowned, preview)).toContain('the 1 step in order under epoch 4');
    const stopped = run('needs-reconciliation', ['done', 'failed']);
    expect(renderStatusProjection(stopped, preview)).toContain(
      '\nStep was claimed but its outcome is unknown: nothing is retried blindly',
    );
  });

  it('counts the steps of a run without an approval by status, and says nothing next for proposed', () => {
    const claimed = renderStatusProjection(run('proposed', ['done', 'claimed', 'pending']), preview);
    expect(claimed).toContain('Steps: 1 done, 1 claimed, 1 pending (of 3).');
    // A record in the proposed state never carries an approval; if one did, no next step is promised.
    const odd = { ...run('approved', ['pending']), state: 'proposed' as const };
    const body = renderStatusProjection(odd, preview);
    expect(body).toContain('Proposed: waiting for approval.');
    expect(body).not.toContain('Next:');
  });

  it('keeps a preview without an approve section whole once approved', () => {
    const bare = 'Plan preview without its approve section.\n';
    const body = renderStatusProjection(run('approved', ['pending']), bare);
    expect(body.endsWith('Plan preview without its approve section.\n')).toBe(true);
  });
});
