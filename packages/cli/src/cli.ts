/**
 * `writ` command dispatch. `runCli` takes argv, the environment and output sinks (no side effects at
 * import; tests call it in-process). Every failure prints `<code>: <message>` to stderr and returns 1.
 */
import { WritError, failureMessage } from '@writ/core/errors.js';
import { redact } from '@writ/core/redact.js';
import { runDoctorCommand } from './commands/doctor.js';
import { runInit } from './commands/init.js';
import { runBootstrap, runLedgerShow, runLedgerVerify } from './commands/ledger.js';
import { runCancelCommand, runReconcileCommand, runRecoverCommand } from './commands/recovery.js';
import { runRunCommand } from './commands/run.js';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

export type CliEnv = Record<string, string | undefined>;

export const USAGE = `Usage:
  writ init --github --ref <40-hex commit> [--dry-run] [--json] [--write-conflicts] (writ init --help)
  writ doctor --github [--repo <owner/repo>] [--json] (writ doctor --help)
  writ bootstrap --repo <owner/repo> [--apply] [--branch <name>] [--app-slug <slug>] [--app-id <id>] [--json]
  writ ledger show [--repo <owner/repo>] [--branch <name>] [--json]
  writ ledger verify [--repo <owner/repo>] [--branch <name>] [--app-slug <slug>] [--app-id <id>] [--incremental] [--json]
  writ reconcile --run <run_id> [--step <step_id>] [--decision done|failed|retry] [--repo <owner/repo>] [--prefix writ] [--json]
  writ cancel --run <run_id> [--repo <owner/repo>] [--prefix writ] [--json]
  writ recover [--repo <owner/repo>] [--plan-file <plan.json>] [--apply] [--app-slug <slug>] [--app-id <id>] [--json]
  writ run <stage> [--event payload.json] [--event-name <name>] [--input name=value ...] [--env-file <file>] [--json]
  writ demo

Environment: GITHUB_TOKEN (the ledger app's installation token for writes), GITHUB_API_URL,
GITHUB_REPOSITORY (default --repo), WRIT_APP_SLUG / WRIT_APP_ID (default --app-slug / --app-id),
WRIT_BUNDLE_DIR (writ run and writ demo start <dir>/<stage>/index.js instead of dist/; npm test sets it).
`;

export async function runCli(argv: readonly string[], env: CliEnv, io: CliIo): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      io.stdout(USAGE);
      return command === undefined ? 1 : 0;
    }
    if (command === 'init') return runInit(rest, env, io);
    if (command === 'doctor') return await runDoctorCommand(rest, env, io);
    if (command === 'bootstrap') return await runBootstrap(rest, env, io);
    if (command === 'run') return await runRunCommand(rest, env, io);
    if (command === 'reconcile') return await runReconcileCommand(rest, env, io);
    if (command === 'cancel') return await runCancelCommand(rest, env, io);
    if (command === 'recover') return await runRecoverCommand(rest, env, io);
    if (command === 'demo') {
      const { printDemo } = await import('./demo.js');
      return await printDemo();
    }
    if (command === 'ledger') {
      const [sub, ...args] = rest;
      if (sub === 'show') return await runLedgerShow(args, env, io);
      if (sub === 'verify') return await runLedgerVerify(args, env, io);
      throw new WritError(
        'invalid-input',
        `Unknown ledger command ${JSON.stringify(sub ?? '')}. Expected show or verify.`,
      );
    }
    throw new WritError(
      'invalid-input',
      `Unknown command ${JSON.stringify(command.slice(0, 40))}. Expected init, doctor, bootstrap, ledger, reconcile, cancel, recover, run or demo (see writ --help).`,
    );
  } catch (error: unknown) {
    const line = redact(failureMessage(error));
    if (argv.includes('--json')) {
      const [code = 'internal-error', ...message] = line.split(': ');
      io.stdout(`${JSON.stringify({ result: 'FAIL', code, message: message.join(': ') }, null, 2)}\n`);
    }
    io.stderr(`${line}\n`);
    return 1;
  }
}
