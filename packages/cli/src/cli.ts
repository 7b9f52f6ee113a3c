/**
 * `writ` command dispatch. `runCli` takes argv, the environment and output sinks (no side effects at
 * import; tests call it in-process). Every failure prints `<code>: <message>` to stderr and returns 1.
 * The commands are imported only once their command is chosen and GITHUB_API_URL has been checked:
 * `@actions/github` reads GITHUB_API_URL when it is imported, and a malformed one would otherwise end
 * in a stack trace instead of `invalid-input`. The commands share their types with it through the leaf
 * cli-io.ts, never by importing this module, and the demo (packages/cli/demo) is loaded only for
 * `writ demo`.
 */
import { WritError, failureMessage } from '@writ/core/errors.js';
import { validateApiUrl } from '@writ/core/github/api-url.js';
import { explainRequestFailure, tokenKind } from '@writ/core/github/request-failure.js';
import { redact } from '@writ/core/redact.js';
import type { CliEnv, CliIo } from './cli-io.js';
import { DEMO_HELP, LEDGER_HELP, WRIT_VERSION } from './help.js';

export const USAGE = `Usage:
  writ init --github --ref <40-hex commit> [--dry-run] [--json] [--write-conflicts]
  writ doctor --github [--repo <owner/repo>] [--json]
  writ bootstrap [--repo <owner/repo>] [--apply] [--branch <name>] [--app-slug <slug>] [--app-id <id>] [--json]
  writ ledger show [--repo <owner/repo>] [--branch <name>] [--json]
  writ ledger verify [--repo <owner/repo>] [--branch <name>] [--app-slug <slug>] [--app-id <id>] [--incremental] [--json]
  writ probe --repo <sandbox> --confirm-sandbox <sandbox> [--from <owner/repo>] [--apply] (writ probe --help)
  writ probe --explain <evidence-file>
  writ reconcile --run <run_id> [--step <step_id>] [--decision done|failed|retry] [--repo <owner/repo>] [--prefix writ] [--json]
  writ cancel --run <run_id> [--repo <owner/repo>] [--prefix writ] [--json]
  writ recover [--repo <owner/repo>] [--plan-file <plan.json>] [--apply] [--app-slug <slug>] [--app-id <id>] [--json]
  writ tower --github [--repo <owner/repo>] [--out <dir>] [--commits <n>] [--json]
  writ plan from-issue (--issue <number> | --body-file <path>) [--repo <owner/repo>] [--title <text>]
  writ run <stage> [--repo <owner/repo>] [--event payload.json] [--event-name <name>] [--input name=value ...] [--env-file <file>] [--keep <dir>] [--json]
  writ demo
  writ --version

A command that needs a repository takes --repo, else GITHUB_REPOSITORY, else the clone's one GitHub
remote, as writ init finds it (--remote <name> picks one of several; --github-host <host> for GHES).
Every command and subcommand takes --help (writ bootstrap --help, writ run preview --help, ...).

Environment: GITHUB_TOKEN (the ledger app's installation token for writes), GITHUB_API_URL,
GITHUB_REPOSITORY (default --repo; else, as init, the clone's one GitHub remote), WRIT_APP_SLUG / WRIT_APP_ID (default --app-slug / --app-id),
WRIT_BUNDLE_DIR (writ run and writ demo start <dir>/<stage>/index.js instead of dist/; npm test sets it).
Failure codes and what to do about each: docs/errors.md.
`;

const COMMANDS =
  'init, doctor, bootstrap, ledger, probe, reconcile, cancel, recover, tower, plan, run or demo';

function isHelp(argument: string | undefined): boolean {
  return argument === '--help' || argument === '-h' || argument === 'help';
}

async function dispatch(command: string, rest: string[], env: CliEnv, io: CliIo): Promise<number> {
  switch (command) {
    case 'init':
      return (await import('./commands/init.js')).runInit(rest, env, io);
    case 'doctor':
      return (await import('./commands/doctor.js')).runDoctorCommand(rest, env, io);
    case 'bootstrap':
      return (await import('./commands/ledger.js')).runBootstrap(rest, env, io);
    case 'run':
      return (await import('./commands/run.js')).runRunCommand(rest, env, io);
    case 'plan':
      return (await import('./commands/plan.js')).runPlanCommand(rest, env, io);
    case 'probe':
      return (await import('./commands/probe.js')).runProbeCommand(rest, env, io);
    case 'reconcile':
      return (await import('./commands/recovery.js')).runReconcileCommand(rest, env, io);
    case 'cancel':
      return (await import('./commands/recovery.js')).runCancelCommand(rest, env, io);
    case 'recover':
      return (await import('./commands/recovery.js')).runRecoverCommand(rest, env, io);
    case 'tower':
      return (await import('./commands/tower.js')).runTowerCommand(rest, env, io);
    case 'demo': {
      if (isHelp(rest[0])) {
        io.stdout(DEMO_HELP);
        return 0;
      }
      if (rest.length > 0) {
        throw new WritError(
          'invalid-input',
          `writ demo takes no arguments (got ${JSON.stringify(rest[0]?.slice(0, 40))}; see writ demo --help).`,
        );
      }
      return (await import('../demo/demo.js')).printDemo();
    }
    case 'ledger': {
      const [sub, ...args] = rest;
      if (sub === undefined || isHelp(sub)) {
        io.stdout(LEDGER_HELP);
        return sub === undefined ? 1 : 0;
      }
      const ledger = await import('./commands/ledger.js');
      if (sub === 'show') return ledger.runLedgerShow(args, env, io);
      if (sub === 'verify') return ledger.runLedgerVerify(args, env, io);
      throw new WritError(
        'invalid-input',
        `Unknown ledger command ${JSON.stringify(sub.slice(0, 40))}. Expected show or verify (see writ ledger --help).`,
      );
    }
    default:
      throw new WritError(
        'invalid-input',
        `Unknown ${command.startsWith('-') ? 'option' : 'command'} ${JSON.stringify(command.slice(0, 40))}. Expected ${COMMANDS} (see writ --help).`,
      );
  }
}

/** The failure line: the code, the message, and for a failed GitHub request what was tried and the fix. */
function failureLine(error: unknown, argv: readonly string[], env: CliEnv): string {
  const at = argv.indexOf('--repo');
  const inline = argv.find((argument) => argument.startsWith('--repo='));
  const named =
    (at >= 0 ? argv[at + 1] : inline?.slice('--repo='.length)) ?? (env.GITHUB_REPOSITORY || undefined);
  const repository =
    named !== undefined && /^[A-Za-z0-9._-]{1,100}\/[A-Za-z0-9._-]{1,100}$/.test(named) ? named : undefined;
  const apiUrl =
    env.GITHUB_API_URL !== undefined && env.GITHUB_API_URL !== ''
      ? env.GITHUB_API_URL
      : 'https://api.github.com';
  const explained = explainRequestFailure(error, {
    apiUrl,
    tokenKind: tokenKind(env.GITHUB_TOKEN ?? ''),
    ...(repository === undefined ? {} : { repository }),
  });
  if (explained === null) return failureMessage(error);
  if (error instanceof WritError) {
    return failureMessage(new WritError(error.code, `${error.message.replace(/\.$/, '')}. ${explained}`));
  }
  return failureMessage(new WritError('github-request-failed', explained));
}

export async function runCli(argv: readonly string[], env: CliEnv, io: CliIo): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === undefined || isHelp(command)) {
      io.stdout(USAGE);
      return 0;
    }
    if (command === '--version' || command === '-V' || command === 'version') {
      io.stdout(`writ ${WRIT_VERSION}\n`);
      return 0;
    }
    if (env.GITHUB_API_URL !== undefined && env.GITHUB_API_URL !== '') {
      validateApiUrl(env.GITHUB_API_URL, 'GITHUB_API_URL');
    }
    return await dispatch(command, rest, env, io);
  } catch (error: unknown) {
    const line = redact(failureLine(error, argv, env));
    if (argv.includes('--json')) {
      const [code = 'internal-error', ...message] = line.split(': ');
      io.stdout(`${JSON.stringify({ result: 'FAIL', code, message: message.join(': ') }, null, 2)}\n`);
    }
    io.stderr(`${line}\n`);
    return 1;
  }
}
