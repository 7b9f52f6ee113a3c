import { describe, expect, it, jest } from '@jest/globals';
import { WHERE_NEXT, printDemo, runDemo } from '../../packages/cli/demo/demo.js';

describe('npm run demo', () => {
  it('runs the approval lifecycle and persists the roadmap plan end to end on the embedded emulator', async () => {
    const result = await runDemo();
    expect(result.timeline.map((entry) => [entry.stage, entry.outcome, entry.reason])).toEqual([
      ['writ bootstrap --apply', 'created', ''],
      ['preview (dry-run: false)', 'proposed', ''],
      ['consume-approval', 'approved', ''],
      ['claim-checkpoint claim build-artifacts', 'claimed', ''],
      ['claim-checkpoint checkpoint build-artifacts', 'checkpointed', ''],
      ['claim-checkpoint claim notify-packagers', 'claimed', ''],
      ['claim-checkpoint checkpoint notify-packagers', 'checkpointed', ''],
      ['publish-artifact', 'created', ''],
      ['publish-artifact (same bytes again)', 'unchanged', ''],
      ['consume-approval (replayed comment)', 'refused', 'approval-already-consumed'],
      ['probe (sandbox)', 'probed', ''],
      ['preview roadmap-plan.json', 'proposed', ''],
      ['consume-approval (roadmap)', 'approved', ''],
      ['persist (require-proof)', 'gate-closed', 'github-conditional-mutation-not-proven'],
      ['persist (best-effort, killed)', 'killed', ''],
      ['persist (re-run)', 'waiting-external', ''],
      ['claim-checkpoint claim notify-release-bot', 'claimed', ''],
      ['claim-checkpoint checkpoint notify-release-bot', 'checkpointed', ''],
      ['persist (after the external step)', 'completed', ''],
    ]);
    const row = (stage: string) => result.timeline.find((entry) => entry.stage === stage);
    // The probe's own evidence: no case proven, so require-proof opens nothing and nothing is written.
    expect(row('probe (sandbox)')?.detail).toBe(
      'cases 1=negative, 2a=negative, 2b=negative, 3a=negative, 3b=negative, 4=negative',
    );
    expect(row('persist (require-proof)')?.detail).toBe('steps done 0 of 9, no write');
    // Killed with the epic's write landed and its checkpoint missing: the step is left claimed.
    expect(result.afterKill).toEqual({ status: 'claimed', resources: 1 });
    // and the roadmap's status comment, updated with the claim window before the write, shows it claimed
    // with the rest of its window (the default window of a 9-step plan is 3 steps).
    expect(result.afterKillStatus).toContain('Running.');
    expect(result.afterKillStatus).toMatch(/^Steps: 5 done, 3 claimed, 1 pending \(of 9\)\.$/m);
    expect(result.afterKillStatus).toContain('step `label-117` is being written');
    expect(row('persist (re-run)')?.detail).toBe('steps done 8 of 9, next notify-release-bot');
    // Every marker on exactly one milestone, issue or comment.
    expect(result.markers).toEqual({
      'milestone-v2-4': 1,
      'milestone-v2-5': 1,
      'create-offline-epic': 1,
      'roadmap-comment': 1,
    });
    expect(result.duplicates).toBe(0);
    const [roadmap, release] = result.ledger.runs.sort((a, b) => b.steps.length - a.steps.length);
    expect(roadmap?.state).toBe('completed');
    expect(roadmap?.steps.every((step) => step.status === 'done')).toBe(true);
    expect(release?.steps.map((step) => step.status)).toEqual(['done', 'done']);
    // The last checkpoint completed the run and released the lease in the same commit.
    expect(release?.state).toBe('completed');
    expect(result.ledger.lease.holder).toBeNull();
    expect(result.statusComment).toMatch(/Approved by @wren \(write\)/);
    // The release run's last status comment follows it to the end (claim-checkpoint's claims and
    // checkpoints, then publish-artifact's pull request): completed, every step done.
    const [head, steps] = result.statusComment.split('\n').slice(1, 3);
    expect(head).toMatch(/^\*\*Writ run `[^`]+`\*\*: Completed\.$/);
    expect(steps).toBe('Steps: 2 done (of 2).');
    expect(result.statusComment).toMatch(
      /^Artifact: pull request #\d+ \(commit `[0-9a-f]{12}`\), published at epoch 1\.$/m,
    );
    expect(result.statusComment).toContain('Every step is done and the repository lease was released');
    // So does the roadmap run's, through persist's claim windows and the external step.
    expect(result.roadmapStatusComment).toMatch(
      /^\*\*Writ run `[^`]+`\*\*: Completed\.\nSteps: 9 done \(of 9\)\./m,
    );
    // Every row is explained in one plain sentence.
    for (const entry of result.timeline) expect(entry.explain).toMatch(/^[A-Z][^\n]+\.$/);
  });

  it('prints within 100 columns and ends with where to look next', async () => {
    const lines: string[] = [];
    const spy = jest.spyOn(console, 'log').mockImplementation((line: unknown) => {
      lines.push(String(line));
    });
    try {
      expect(await printDemo()).toBe(0);
    } finally {
      spy.mockRestore();
    }
    const printed = lines.join('\n').split('\n');
    expect(printed.filter((line) => line.length > 100)).toEqual([]);
    expect(printed.slice(-WHERE_NEXT.length)).toEqual(WHERE_NEXT);
    expect(printed).toContain('  lease: epoch 2, free (released when the run completed)');
    expect(printed).toContain('    duplicates: 0');
  });
});
