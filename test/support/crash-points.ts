/**
 * Writ's crash points for the emulator's CrashPoints (packages/github-emulator/src/crash-points.ts):
 * which request a stage dies at. A step's write is matched by its method and path (`requestTo`); the
 * ledger commit that claims a step by what it commits: a `claim` or `claim-steps` transition whose run
 * file records that step as claimed.
 */
import type { RequestMatch } from '@writ/github-emulator/index.js';

export { CrashPoints, requestTo } from '@writ/github-emulator/index.js';
export type { RequestMatch };

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** The steps of a run file a commit adds (none when the contents are not a run file). */
function stepsIn(contents: unknown): { id?: unknown; status?: unknown }[] {
  if (typeof contents !== 'string') return [];
  try {
    const steps = record(JSON.parse(Buffer.from(contents, 'base64').toString('utf8'))).steps;
    return Array.isArray(steps) ? (steps as { id?: unknown; status?: unknown }[]) : [];
  } catch {
    return [];
  }
}

/** The ledger commit (`createCommitOnBranch`) that claims `stepId`: the runner dies once it landed. */
export function claimOf(stepId: string): RequestMatch {
  return (entry, body) => {
    if (!entry.mutations.includes('createCommitOnBranch')) return false;
    const input = record(record(record(body).variables).input);
    const headline = record(input.message).headline;
    if (typeof headline !== 'string' || !/^writ ledger: claim(-steps)? /.test(headline)) return false;
    const additions = record(input.fileChanges).additions;
    return (
      Array.isArray(additions) &&
      additions.some((file) =>
        stepsIn(record(file).contents).some((step) => step.id === stepId && step.status === 'claimed'),
      )
    );
  };
}
