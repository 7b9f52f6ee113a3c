/** `writ run <stage> --repo o/r [--event payload.json] [--event-name name] [--input name=value …] [--env-file f] [--keep dir] [--json]` */
import { lstatSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { WritError, errorMessage } from '@writ/core/errors.js';
import { validateApiUrl } from '@writ/core/github/api-url.js';
import { STAGES } from '@writ/core/io/registry.js';
import { Problems, parseOptionsInto } from '../args.js';
import type { CliEnv, CliIo } from '../cli-io.js';
import { RUN_HELP, stageHelp } from '../help.js';
import { REPOSITORY_OPTIONS, repositoryTarget } from '../repository.js';
import { formatStageRun, parseEnvFile, runStage } from '../run-stage.js';
import type { StageRun } from '../run-stage.js';

const PASSED_THROUGH = [
  'GITHUB_API_URL',
  'GITHUB_REPOSITORY',
  'GITHUB_RUN_ID',
  'GITHUB_RUN_ATTEMPT',
  'GITHUB_ACTOR_ID',
  'GITHUB_EVENT_NAME',
  'RUNNER_TEMP',
] as const;

function readJson(path: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (error: unknown) {
    throw new WritError('invalid-input', `${what} ${path} is not readable JSON (${errorMessage(error)})`);
  }
}

const OPTIONS = {
  ...REPOSITORY_OPTIONS,
  event: { type: 'string' },
  'event-name': { type: 'string' },
  input: { type: 'string', multiple: true },
  'env-file': { type: 'string' },
  keep: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** `--input name=value` pairs as the stage's inputs (a malformed pair is a problem). */
function readInputs(pairs: readonly string[], problems: Problems): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) problems.add(`--input must be name=value (got ${JSON.stringify(pair.slice(0, 40))})`);
    else inputs[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return inputs;
}

/**
 * The stage's environment: the runner variables passed through from `env`, then the --env-file's, then
 * the repository it acts on and that repository's API URL (validated, so a credentialed URL never
 * reaches the stage's environment or a printed run).
 */
function stageEnvironment(
  values: { 'env-file'?: string | undefined } & Parameters<typeof repositoryTarget>[0],
  env: CliEnv,
  problems: Problems,
): Record<string, string> {
  const stageEnv: Record<string, string> = {};
  for (const name of PASSED_THROUGH) {
    const value = env[name];
    if (value !== undefined && value !== '') stageEnv[name] = value;
  }
  const envFile = values['env-file'];
  if (envFile !== undefined) {
    let text: string | undefined;
    try {
      text = readFileSync(envFile, 'utf8');
    } catch (error: unknown) {
      problems.add(`--env-file ${envFile} is unreadable (${errorMessage(error)})`);
    }
    if (text !== undefined) {
      const file = text;
      problems.check(() => {
        try {
          Object.assign(stageEnv, parseEnvFile(file));
        } catch (error: unknown) {
          throw new WritError('invalid-input', `--env-file ${envFile}: ${errorMessage(error)}`);
        }
      });
    }
  }
  // Never a repository assumed: the stage acts on the one named here (--repo, --remote,
  // GITHUB_REPOSITORY or --env-file, else the clone's one GitHub remote, found as writ init finds it).
  const target = problems.check(() =>
    repositoryTarget(values, {
      GITHUB_REPOSITORY: stageEnv.GITHUB_REPOSITORY,
      PWD: env.PWD,
    }),
  );
  if (target !== undefined) {
    stageEnv.GITHUB_REPOSITORY = target.repository;
    if (stageEnv.GITHUB_API_URL === undefined && target.apiUrl !== null) {
      stageEnv.GITHUB_API_URL = target.apiUrl;
    }
  }
  // Refused here too, so a credentialed URL never reaches the stage's environment or a printed run.
  if (stageEnv.GITHUB_API_URL !== undefined) {
    const url = stageEnv.GITHUB_API_URL;
    problems.check(() => validateApiUrl(url, 'GITHUB_API_URL'));
  }
  return stageEnv;
}

/** The --keep directory, resolved (a path that exists and is no directory is a problem). */
function keepDirectory(value: string | undefined, problems: Problems): string | undefined {
  const keep = value === undefined ? undefined : resolve(value);
  if (keep !== undefined) {
    try {
      if (!lstatSync(keep).isDirectory()) problems.add(`--keep ${value ?? ''} exists and is not a directory`);
    } catch {
      // Missing: the runner folder is created there.
    }
  }
  return keep;
}

/** The finished run, as JSON or as the readable report, with where the files its outputs name are. */
function printRun(run: StageRun, keep: string | undefined, json: boolean, io: CliIo): void {
  // Where the files the outputs name are: the kept runner folder, or each file kept from the temporary one.
  const kept = { dir: run.workDir, whole: keep !== undefined, files: run.outputFiles };
  if (json) {
    io.stdout(
      `${JSON.stringify({ stage: run.stage, status: run.status, outputs: run.outputs, errors: run.commands.errors, warnings: run.commands.warnings, kept }, null, 2)}\n`,
    );
    return;
  }
  const lines: string[] = [];
  if (kept.whole) {
    lines.push(`runner folder kept: ${kept.dir} (RUNNER_TEMP, output, state, summary.md, event.json)`);
  }
  const named = Object.entries(kept.files);
  if (named.length > 0) {
    lines.push(
      kept.whole ? 'files the outputs name:' : 'kept (the rest of the runner folder was removed):',
      ...named.map(([name, path]) => `  ${name}: ${path}`),
    );
  }
  io.stdout(formatStageRun(run, lines));
}

export async function runRunCommand(argv: readonly string[], env: CliEnv, io: CliIo): Promise<number> {
  const problems = new Problems('writ run');
  const { values, positionals } = parseOptionsInto(argv, OPTIONS, problems, 1);
  const [stage] = positionals;
  if (values.help === true) {
    const help = stage === undefined ? RUN_HELP : stageHelp(stage);
    if (help === null) {
      throw new WritError(
        'invalid-input',
        `No stage ${JSON.stringify(stage?.slice(0, 40))}. Expected one of ${Object.keys(STAGES).join(', ')} (see writ run --help).`,
      );
    }
    io.stdout(help);
    return 0;
  }
  if (stage === undefined) problems.add('expected a stage: writ run <stage> [options]');
  else if (!Object.hasOwn(STAGES, stage)) {
    problems.add(
      `no stage ${JSON.stringify(stage.slice(0, 40))} (expected one of ${Object.keys(STAGES).join(', ')})`,
    );
  }
  const inputs = readInputs(values.input ?? [], problems);
  const stageEnv = stageEnvironment(values, env, problems);
  const event =
    values.event === undefined ? undefined : problems.check(() => readJson(values.event ?? '', '--event'));
  if (values.event !== undefined && event === undefined && problems.count === 0) {
    problems.add('--event file is empty');
  }
  const keep = keepDirectory(values.keep, problems);
  problems.done();
  let run;
  try {
    run = await runStage({
      stage: stage ?? '',
      inputs,
      env: stageEnv,
      ...(event === undefined ? {} : { event }),
      eventName:
        values['event-name'] ??
        stageEnv.GITHUB_EVENT_NAME ??
        (event === undefined ? 'workflow_dispatch' : 'issue_comment'),
      cleanup: true,
      keepOutputFiles: true,
      ...(keep === undefined ? {} : { runnerDir: keep }),
    });
  } catch (error: unknown) {
    throw new WritError('invalid-input', errorMessage(error));
  }
  printRun(run, keep, values.json === true, io);
  return run.status === 0 ? 0 : 1;
}
