/**
 * `writ reconcile` and `writ cancel` print the exact comment command a repository writer posts (the
 * issue-comment workflow consumes it under the approval rules) and the run's claimed steps; they write
 * nothing. `writ recover` runs the recovery stage's core (recovery/recover.ts) for an operator: a dry run
 * unless `--apply`.
 */
import { parseAllowedRoles } from '@writ/core/approval/authorize.js';
import type { ReconcileDecision } from '@writ/core/command/grammar.js';
import {
  RECONCILE_DECISIONS,
  formatCancelCommand,
  formatReconcileCommand,
} from '@writ/core/command/grammar.js';
import { WritError } from '@writ/core/errors.js';
import { createLedgerContext, readRun } from '@writ/core/ledger/ledger.js';
import { parseRepository } from '@writ/core/ledger/paths.js';
import type { RunFile } from '@writ/core/ledger/types.js';
import { DEFAULT_LEDGER_BRANCH } from '@writ/core/ledger/types.js';
import { validateRunId } from '@writ/core/plan/run-id.js';
import { observeStep } from '@writ/core/persist/observe.js';
import { recoverRuns } from '@writ/core/recovery/recover.js';
import { silentLogger } from '@writ/core/redact.js';
import { renderRecoverySummary } from '@writ/core/stages/recovery.js';
import { readServerUrl } from '@writ/core/stages/context.js';
import { COMMAND_PREFIX_PATTERN } from '@writ/core/command/grammar.js';
import { APP_SLUG_PATTERN } from '@writ/core/stages/ledger-inputs.js';
import { parseOptions } from '../args.js';
import type { CliEnv, CliIo } from '../cli-io.js';
import { githubFromEnv } from '../github-env.js';
import { CANCEL_HELP, RECONCILE_HELP, RECOVER_HELP } from '../help.js';
import { REPOSITORY_OPTIONS, repositoryTarget } from '../repository.js';

const COMMON = {
  ...REPOSITORY_OPTIONS,
  branch: { type: 'string' },
  run: { type: 'string' },
  prefix: { type: 'string' },
  json: { type: 'boolean' },
} as const;

function prefixOf(value: string | undefined): string {
  const prefix = value ?? 'writ';
  if (!COMMAND_PREFIX_PATTERN.test(prefix)) {
    throw new WritError(
      'invalid-input',
      'Invalid --prefix. Expected 1-32 characters of [a-z0-9-] starting with a letter.',
    );
  }
  return prefix;
}

async function runOf(
  values: { repo?: string; remote?: string; 'github-host'?: string; branch?: string; run?: string },
  env: CliEnv,
): Promise<RunFile> {
  const target = repositoryTarget(values, env);
  const { repository } = target;
  if (values.run === undefined) throw new WritError('invalid-input', 'Missing --run <run_id>.');
  const runId = validateRunId(values.run);
  const ledger = createLedgerContext(
    { github: githubFromEnv(env, target) },
    { repository, branch: values.branch ?? DEFAULT_LEDGER_BRANCH },
  );
  const { run } = await readRun(ledger, runId);
  if (run === null) throw new WritError('run-not-found', `The ledger holds no run ${runId}.`);
  return run;
}

function claimedLines(run: RunFile): string[] {
  const claimed = run.steps.filter((step) => step.status === 'claimed');
  if (claimed.length === 0) return [`Run ${run.run_id} is ${run.state}; no step is claimed.`];
  return [
    `Run ${run.run_id} is ${run.state}; claimed steps (outcome unknown until a writer checks GitHub):`,
    ...claimed.map(
      (step) =>
        `  ${step.id}  ${step.kind}  epoch ${step.epoch ?? '?'}  reason ${step.evidence?.error_code ?? 'needs-reconciliation'}`,
    ),
  ];
}

export async function runReconcileCommand(args: readonly string[], env: CliEnv, io: CliIo): Promise<number> {
  const values = parseOptions(args, { ...COMMON, step: { type: 'string' }, decision: { type: 'string' } });
  if (values.help === true) {
    io.stdout(RECONCILE_HELP);
    return 0;
  }
  const prefix = prefixOf(values.prefix);
  const decision = values.decision;
  if (decision !== undefined && !(RECONCILE_DECISIONS as readonly string[]).includes(decision)) {
    throw new WritError('invalid-input', 'Invalid --decision. Expected done, failed or retry.');
  }
  const run = await runOf(values, env);
  const claimed = run.steps.filter((step) => step.status === 'claimed');
  if (values.step !== undefined && !claimed.some((step) => step.id === values.step)) {
    throw new WritError(
      'invalid-input',
      `Step ${JSON.stringify(values.step.slice(0, 64))} of run ${run.run_id} is not claimed.`,
    );
  }
  const steps = values.step === undefined ? claimed : claimed.filter((step) => step.id === values.step);
  const decisions: readonly ReconcileDecision[] =
    decision === undefined ? RECONCILE_DECISIONS : [decision as ReconcileDecision];
  const commands = steps.flatMap((step) =>
    decisions.map((choice) => formatReconcileCommand(prefix, run.run_id, step.id, choice)),
  );
  if (values.json === true) {
    io.stdout(
      `${JSON.stringify({ run_id: run.run_id, state: run.state, claimed: claimed.map((step) => step.id), commands }, null, 2)}\n`,
    );
    return 0;
  }
  const lines = [...claimedLines(run)];
  if (commands.length > 0) {
    lines.push(
      '',
      'Check on GitHub what the step did, then post exactly one of these as a comment on the status issue',
      '(done: it happened; failed: it did not and must not be retried; retry: it did not, run it again):',
      ...commands.map((command) => `  ${command}`),
    );
  }
  if (run.state !== 'needs-reconciliation')
    lines.push('', `Note: reconcile needs the run at needs-reconciliation (it is ${run.state}).`);
  io.stdout(`${lines.join('\n')}\n`);
  return 0;
}

export async function runCancelCommand(args: readonly string[], env: CliEnv, io: CliIo): Promise<number> {
  const values = parseOptions(args, COMMON);
  if (values.help === true) {
    io.stdout(CANCEL_HELP);
    return 0;
  }
  const prefix = prefixOf(values.prefix);
  const run = await runOf(values, env);
  const command = formatCancelCommand(prefix, run.run_id);
  if (values.json === true) {
    io.stdout(
      `${JSON.stringify({ run_id: run.run_id, state: run.state, claimed: run.steps.filter((s) => s.status === 'claimed').map((s) => s.id), command }, null, 2)}\n`,
    );
    return 0;
  }
  const lines = [
    ...claimedLines(run),
    '',
    'To cancel the run (it then makes no further write; claimed steps stay as they are), post exactly:',
    `  ${command}`,
  ];
  io.stdout(`${lines.join('\n')}\n`);
  return 0;
}

export async function runRecoverCommand(args: readonly string[], env: CliEnv, io: CliIo): Promise<number> {
  const values = parseOptions(args, {
    ...REPOSITORY_OPTIONS,
    branch: { type: 'string' },
    prefix: { type: 'string' },
    'plan-file': { type: 'string' },
    'allowed-roles': { type: 'string' },
    'app-slug': { type: 'string' },
    'app-id': { type: 'string' },
    apply: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  if (values.help === true) {
    io.stdout(RECOVER_HELP);
    return 0;
  }
  const target = repositoryTarget(values, env);
  const { repository } = target;
  const slug = values['app-slug'] ?? env.WRIT_APP_SLUG ?? '';
  const idText = values['app-id'] ?? env.WRIT_APP_ID ?? '';
  if (!APP_SLUG_PATTERN.test(slug) || !/^[1-9][0-9]{0,15}$/.test(idText)) {
    throw new WritError(
      'invalid-input',
      'writ recover needs the ledger app: --app-slug and --app-id (or WRIT_APP_SLUG and WRIT_APP_ID).',
    );
  }
  const github = githubFromEnv(env, target);
  const ledger = createLedgerContext(
    { github },
    { repository, branch: values.branch ?? DEFAULT_LEDGER_BRANCH, app: { slug, id: Number(idText) } },
  );
  const runId = env.GITHUB_RUN_ID ?? '';
  const report = await recoverRuns(
    { github, ledger, logger: silentLogger, observe: observeStep({ github, ownLogin: `${slug}[bot]` }) },
    {
      repository: parseRepository(repository, '--repo'),
      serverUrl: readServerUrl(env.GITHUB_SERVER_URL),
      // An operator's sweep has no workflow run: 0 (a later sweep sees it as finished once it expires).
      holder: { workflow_run_id: /^[1-9][0-9]{0,15}$/.test(runId) ? Number(runId) : 0, attempt: 1 },
      commandPrefix: prefixOf(values.prefix),
      allowedRoles: parseAllowedRoles(values['allowed-roles'] ?? 'admin,maintain,write'),
      requireDistinctApprover: false,
      appBotLogin: `${slug}[bot]`,
      planFile: values['plan-file'] ?? null,
      dryRun: values.apply !== true,
    },
  );
  io.stdout(values.json === true ? `${JSON.stringify(report, null, 2)}\n` : renderRecoverySummary(report));
  return 0;
}
