/**
 * The consume-approval action (actions/consume-approval/action.yml): one human comment, re-verified
 * live, consumed once: an approval (approval/consume-approval.ts `consumeApprovalComment`), or a
 * reconcile or cancel command (approval/commands.ts `consumeHumanCommand`); then the run's status
 * comment follows. Its inputs, `consumeApprovalStage` and `run`, what the action's bundle runs.
 */
import { approvalCommentId, parseAllowedRoles } from '../approval/authorize.js';
import { consumeHumanCommand } from '../approval/commands.js';
import { consumeApprovalComment } from '../approval/consume-approval.js';
import type { VerifiedCommand } from '../approval/verify.js';
import { verifyCommandComment } from '../approval/verify.js';
import type { Command } from '../command/grammar.js';
import type { CommandEnd, ReactionTarget } from '../command/reactions.js';
import { commandVerdict, reactToCommand } from '../command/reactions.js';
import { errorCode, failureMessage } from '../errors.js';
import type { StageIo } from '../io/action-io.js';
import { runnerLogger } from '../io/action-io.js';
import type { FileRoots } from '../io/input-file.js';
import { readBeforeConsume } from '../ledger/ledger.js';
import type { RepositoryName } from '../ledger/paths.js';
import type { LedgerSnapshot } from '../ledger/store.js';
import type { RunFile } from '../ledger/types.js';
import { bindPlan } from '../plan/binding.js';
import { loadPlanFile } from '../plan/load.js';
import type { Plan } from '../plan/types.js';
import { renderPreview } from '../preview/render.js';
import { followProject, followStatus } from '../status-comment/follow.js';
import { repairStatusComment } from '../status-comment/repair.js';
import { renderStatusProjection } from '../status-comment/projection.js';
import { statusFold, syncStatusComment } from '../status-comment/sync.js';
import type { StageDeps } from './connect.js';
import { connect } from './connect.js';
import { readRunnerContext } from './context.js';
import type { LedgerSettings } from './ledger-inputs.js';
import { readLedgerSettings } from './ledger-inputs.js';
import { parseProjectInput } from '../projects/target.js';
import type { StageResult } from './runner.js';
import { describeCommit, runAction } from './runner.js';
import type { ProjectTarget } from '../projects/sync.js';

export interface ConsumeApprovalStageSettings {
  apiUrl: string;
  repository: RepositoryName & { full: string };
  /** The approving comment, from an `issue_comment` `created` event (re-read from the API). */
  commentId: number;
  dryRun: boolean;
  commandPrefix: string;
  ledger: LedgerSettings;
  planFile: string;
  planRoots: FileRoots;
  allowedRoles: string[];
  requireDistinctApprover: boolean;
  holder: { workflow_run_id: number; attempt: number };
  /** The token that reads an expired lease holder's liveness (`actions-token`); null: the ledger token. */
  actionsToken?: string | null;
  /** The Projects (v2) project the run's item is kept on (`project` input); null or absent: none. */
  project?: ProjectTarget | null;
}

export function readConsumeApprovalSettings(io: StageIo<'consume-approval'>): ConsumeApprovalStageSettings {
  const context = readRunnerContext();
  // Before anything else: only a newly created issue comment can approve.
  const commentId = approvalCommentId({ eventName: context.eventName, payload: context.payload });
  const dryRun = io.booleanInput('dry-run');
  const commandPrefix = io.input('command-prefix');
  const ledger = readLedgerSettings(io, 'lease-seconds');
  const planFile = io.input('plan-file');
  const allowedRoles = parseAllowedRoles(io.input('allowed-roles'));
  const actionsToken = io.input('actions-token');
  return {
    apiUrl: context.apiUrl,
    repository: context.repository,
    commentId,
    dryRun,
    commandPrefix,
    ledger,
    planFile,
    planRoots: { workspace: context.workspace, runnerTemp: context.runnerTemp },
    allowedRoles,
    requireDistinctApprover: io.booleanInput('require-distinct-approver'),
    holder: { workflow_run_id: context.workflowRunId, attempt: context.attempt },
    actionsToken: actionsToken === '' ? null : actionsToken,
    project: parseProjectInput(io.input('project')),
  };
}

/**
 * One human comment, re-verified live, consumed once: an approval, or a reconcile or cancel command
 * (one grammar, one verification); then the run's status comment follows. The comment is acknowledged
 * with reactions around that (command/reactions.ts): received at once, then acted or refused once the
 * outcome is recorded, a refusal's code on the run's status comment. Never in a dry run; the reactions
 * are best-effort and change no outcome.
 */
export async function consumeApprovalStage(
  settings: ConsumeApprovalStageSettings,
  deps: StageDeps,
): Promise<StageResult<'consume-approval'>> {
  const target: ReactionTarget = { repository: settings.repository, commentId: settings.commentId };
  if (!settings.dryRun) await reactToCommand(deps, target, 'received');
  let seen: Command | undefined;
  let result: StageResult<'consume-approval'>;
  try {
    result = await judgeCommand(settings, deps, (command) => {
      seen = command;
    });
  } catch (error: unknown) {
    if (!settings.dryRun) await acknowledgeEnd(settings, deps, target, { failed: true, thrown: error }, seen);
    throw error;
  }
  if (!settings.dryRun) await acknowledgeEnd(settings, deps, target, { failed: false }, seen);
  return result;
}

/**
 * The command's second reaction, after its outcome is recorded; for a refusal of a command naming a
 * run, first the refusal's code on that run's status comment (status-comment/follow.ts: it never
 * throws, and sends nothing when the comment already shows it).
 */
async function acknowledgeEnd(
  settings: ConsumeApprovalStageSettings,
  deps: StageDeps,
  target: ReactionTarget,
  end: CommandEnd,
  command: Command | undefined,
): Promise<void> {
  const verdict = commandVerdict(end);
  if (verdict.signal === null) return;
  if (verdict.signal === 'refused' && command !== undefined) {
    const followed = await followStatus(deps, {
      repository: settings.repository,
      runId: command.runId,
      ownLogin: deps.ownLogin,
      project: settings.project,
      preview: null,
      extras: {
        commandPrefix: settings.commandPrefix,
        lastRefusal: { kind: command.kind, commentId: settings.commentId, code: verdict.code },
      },
    });
    if (followed.line !== '') deps.logger.info(followed.line);
  }
  await reactToCommand(deps, target, verdict.signal);
}

/**
 * Verifies the comment and acts on its verb; `seen` learns the command once its author's live role is
 * verified as allowed (never for an unauthorized, edited or malformed command).
 */
async function judgeCommand(
  settings: ConsumeApprovalStageSettings,
  deps: StageDeps,
  seen: (command: Command) => void,
): Promise<StageResult<'consume-approval'>> {
  const { github, ledger, logger, ownLogin } = deps;
  const { dryRun, commandPrefix } = settings;
  // An approval's ledger read comes before the approver's role: a replayed approval is refused from the
  // comment and that one read (see readBeforeConsume); any other is consumed on that same read.
  let first: LedgerSnapshot | undefined;
  const verified = await verifyCommandComment(github, {
    repository: settings.repository,
    commentId: settings.commentId,
    commandPrefix,
    allowedRoles: settings.allowedRoles,
    appBotLogin: ownLogin,
    beforeRole: async (command, comment) => {
      if (command.kind !== 'approve') return;
      first = await readBeforeConsume(ledger, { runId: command.runId, commentId: comment.id });
    },
  });
  const { command } = verified;
  // Only a command whose author holds an allowed role reaches the run's status comment (a refusal's
  // code there costs a ledger record and an edit); anyone's refused command gets its reaction alone.
  seen(command);
  if (command.kind !== 'approve') {
    return consumeCommand(settings, deps, { ...verified, command });
  }
  const result = await consumeApprovalComment(
    { github, ledger, logger },
    {
      verified: {
        ...verified,
        command: { prefix: command.prefix, runId: command.runId, digestHex: command.digestHex },
      },
      repository: settings.repository,
      commentId: settings.commentId,
      commandPrefix,
      allowedRoles: settings.allowedRoles,
      requireDistinctApprover: settings.requireDistinctApprover,
      appBotLogin: ownLogin,
      planFile: settings.planFile,
      planRoots: settings.planRoots,
      holder: settings.holder,
      dryRun,
      ...(first === undefined ? {} : { first }),
      // The status comment's update reservation rides on the consume commit (one commit, not two).
      ...(dryRun
        ? {}
        : {
            statusFold: (plan: Plan) =>
              statusFold({ runId: command.runId, project: projectionOf(plan, command, commandPrefix) }),
          }),
    },
  );
  const summary = [
    `## Writ approval ${dryRun ? '(dry run: nothing written)' : 'consumed'}`,
    '',
    `Run \`${result.runId}\`, digest \`${result.digest}\`, approved by @${result.approver.login} (${result.approver.role}); lease epoch ${result.epoch} until \`${result.leaseExpiresAt ?? ''}\`.`,
    '',
  ];
  if (dryRun) summary.push(describeCommit(result.commit));
  if (!dryRun) {
    // The approval is already committed; the status projection is repairable (by a re-run or
    // recovery), so a failure here is reported, never allowed to undo or block the approved run.
    try {
      const synced = await syncStatusComment(
        { github, ledger, logger },
        {
          repository: settings.repository,
          runId: result.runId,
          project: projectionOf(result.plan, command, commandPrefix),
          ownLogin,
          ...(result.after === undefined ? {} : { after: result.after }),
        },
      );
      if (synced !== null) summary.push(`Status comment ${synced.commentId}: ${synced.action}.`, '');
    } catch (error: unknown) {
      logger.warning(`status comment not updated: ${failureMessage(error)}`);
      summary.push(`Status comment not updated (${errorCode(error)}); the approval stands.`, '');
    }
    // The run's project item, when one is configured: presentation only, it never throws.
    if (settings.project != null) {
      await followProject(
        { github, ledger, logger },
        {
          runId: result.runId,
          ownLogin,
          project: settings.project,
          ...(result.after === undefined ? {} : { after: result.after }),
        },
      );
    }
  }
  return {
    summary: summary.join('\n'),
    outputs: {
      'run-id': result.runId,
      digest: result.digest,
      epoch: result.epoch,
      'lease-expires-at': result.leaseExpiresAt ?? '',
      outcome: dryRun ? 'dry-run' : 'approved',
      reason: '',
    },
  };
}

/** The status projection of an approved run: the preview of the plan recomputed now, for its digest. */
function projectionOf(
  plan: Plan,
  command: { runId: string; digestHex: string },
  commandPrefix: string,
): (run: RunFile) => string {
  const preview = renderPreview({
    plan,
    planDigest: `sha256:${command.digestHex}`,
    runId: command.runId,
    commandPrefix,
  });
  return (run) => renderStatusProjection(run, preview);
}

/** A reconcile or cancel command: recorded in the ledger with the human's ID, then shown on the status comment. */
async function consumeCommand(
  settings: ConsumeApprovalStageSettings,
  deps: StageDeps,
  verified: VerifiedCommand & { command: Exclude<Command, { kind: 'approve' }> },
): Promise<StageResult<'consume-approval'>> {
  const { github, ledger, logger, ownLogin } = deps;
  const { dryRun, commandPrefix } = settings;
  const result = await consumeHumanCommand({ github, ledger, logger }, verified, {
    repository: settings.repository,
    allowedRoles: settings.allowedRoles,
    dryRun,
  });
  const { command } = verified;
  const what =
    command.kind === 'cancel' ? 'cancelled' : `step \`${command.stepId}\` reconciled as ${command.decision}`;
  const summary = [
    `## Writ ${result.kind} ${dryRun ? '(dry run: nothing written)' : 'recorded'}`,
    '',
    `Run \`${result.runId}\` ${what} by @${result.actor.actor_login} (${result.actor.role_name}); run now ${result.run?.state ?? 'unchanged'}.`,
    '',
  ];
  if (dryRun) summary.push(describeCommit(result.commit));
  else {
    // Recorded; the status projection is repairable (by a re-run or recovery), so a failure here is
    // reported, never allowed to undo the command. The preview comes from the plan recomputed now when
    // it is the run's own, else from the status comment Writ last wrote (see status-comment/repair.ts).
    try {
      let preview: string | null = null;
      const plan = loadPlanFile(settings.planFile, settings.planRoots);
      const planDigest = bindPlan(plan).digest;
      if (result.run !== null && planDigest === result.run.plan_digest) {
        preview = renderPreview({ plan, planDigest, runId: result.runId, commandPrefix });
      }
      const status = await repairStatusComment(
        { github, ledger, logger },
        {
          repository: settings.repository,
          runId: result.runId,
          ownLogin,
          preview,
          render: (run, shown) => renderStatusProjection(run, shown, { commandPrefix }),
        },
      );
      summary.push(`Status comment: ${status}.`, '');
    } catch (error: unknown) {
      logger.warning(`status comment not updated: ${failureMessage(error)}`);
      summary.push(`Status comment not updated (${errorCode(error)}); the ${result.kind} stands.`, '');
    }
  }
  return {
    summary: summary.join('\n'),
    outputs: {
      'run-id': result.runId,
      digest: result.run?.plan_digest ?? '',
      epoch: result.epoch,
      'lease-expires-at': '',
      outcome: dryRun ? 'dry-run' : result.kind === 'cancel' ? 'cancelled' : 'reconciled',
      reason: '',
    },
  };
}

/** The consume-approval action: one human comment, re-verified live, consumed once. */
export async function run(): Promise<void> {
  await runAction('consume-approval', {
    inputs: readConsumeApprovalSettings,
    connect: (settings) =>
      connect(
        { apiUrl: settings.apiUrl, repository: settings.repository.full },
        settings.ledger,
        runnerLogger,
        { actionsToken: settings.actionsToken ?? null },
      ),
    stage: consumeApprovalStage,
  });
}
