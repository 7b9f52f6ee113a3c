/**
 * The consume-approval stage's fixtures, shared by its suites (stages/consume-approval.test.ts,
 * command/reactions.test.ts): a run proposed through the preview stage, and the stage's settings for a
 * command comment.
 */
import type { ConsumeApprovalStageSettings } from '../../../src/stages/consume-approval.js';
import { previewStage } from '../../../src/stages/preview.js';
import { OWNER, REPO, REPOSITORY } from '../../ledger/support/emulator.js';
import type { StageWorld } from './stage-world.js';
import { recordingLogger } from './stage-world.js';

/** Proposes the plan through the preview stage (with its status comment); returns its approve command. */
export async function proposed(current: StageWorld, planFile: string) {
  const result = await previewStage(
    {
      dryRun: false,
      statusIssue: current.statusIssue,
      planFile,
      planRoots: { workspace: current.workspace, runnerTemp: undefined },
      runId: '',
      commandPrefix: 'writ',
      outputDir: current.workspace,
      write: () => ({
        apiUrl: current.ledgerWorld.emulator.url,
        repository: { owner: OWNER, repo: REPO, full: REPOSITORY },
        actorId: undefined,
        ledger: current.ledger,
      }),
    },
    { logger: recordingLogger(), connect: () => Promise.resolve(current.deps()) },
  );
  return {
    runId: String(result.outputs['run-id']),
    command: String(result.outputs['approve-command']),
    statusCommentId: Number(result.outputs['status-comment-id']),
  };
}

export function settings(
  current: StageWorld,
  planFile: string,
  commentId: number,
  overrides: Partial<ConsumeApprovalStageSettings> = {},
): ConsumeApprovalStageSettings {
  return {
    apiUrl: current.ledgerWorld.emulator.url,
    repository: { owner: OWNER, repo: REPO, full: REPOSITORY },
    commentId,
    dryRun: false,
    commandPrefix: 'writ',
    ledger: current.ledger,
    planFile,
    planRoots: { workspace: current.workspace, runnerTemp: undefined },
    allowedRoles: ['admin', 'maintain', 'write'],
    requireDistinctApprover: false,
    holder: { workflow_run_id: 77, attempt: 1 },
    ...overrides,
  };
}
