import { describe, expect, it, jest } from '@jest/globals';
import { WHERE_NEXT, printDemo, runDemo } from '../../packages/cli/src/demo.js';

describe('npm run demo', () => {
  it('runs the approval lifecycle end to end on the embedded emulator', async () => {
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
    ]);
    const [run] = result.ledger.runs;
    expect(run?.steps.map((step) => step.status)).toEqual(['done', 'done']);
    // The last checkpoint completed the run and released the lease in the same commit.
    expect(run?.state).toBe('completed');
    expect(result.ledger.lease.holder).toBeNull();
    expect(result.statusComment).toMatch(/Approved by @wren \(write\)/);
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
    expect(printed).toContain('  lease: epoch 1, free (released when the run completed)');
  });
});
