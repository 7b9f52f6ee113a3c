/** `writ run <stage> [--event payload.json] [--event-name name] [--input name=value …] [--env-file f] [--json]` */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { WritError, errorMessage } from '@writ/core/errors.js';
import { validateApiUrl } from '@writ/core/github/api-url.js';
import type { CliEnv, CliIo } from '../cli.js';
import { formatStageRun, parseEnvFile, runStage } from '../run-stage.js';

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

export async function runRunCommand(argv: readonly string[], env: CliEnv, io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      event: { type: 'string' },
      'event-name': { type: 'string' },
      input: { type: 'string', multiple: true },
      'env-file': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const [stage, ...extra] = positionals;
  if (stage === undefined || extra.length > 0) {
    throw new WritError('invalid-input', 'Expected exactly one stage: writ run <stage> [options].');
  }
  const inputs: Record<string, string> = {};
  for (const pair of values.input ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0)
      throw new WritError(
        'invalid-input',
        `--input must be name=value (got ${JSON.stringify(pair.slice(0, 40))})`,
      );
    inputs[pair.slice(0, at)] = pair.slice(at + 1);
  }
  const stageEnv: Record<string, string> = {};
  for (const name of PASSED_THROUGH) {
    const value = env[name];
    if (value !== undefined && value !== '') stageEnv[name] = value;
  }
  if (values['env-file'] !== undefined) {
    let text: string;
    try {
      text = readFileSync(values['env-file'], 'utf8');
    } catch (error: unknown) {
      throw new WritError(
        'invalid-input',
        `--env-file ${values['env-file']} is unreadable (${errorMessage(error)})`,
      );
    }
    Object.assign(stageEnv, parseEnvFile(text));
  }
  // Refused here too, so a credentialed URL never reaches the stage's environment or a printed run.
  if (stageEnv.GITHUB_API_URL !== undefined) validateApiUrl(stageEnv.GITHUB_API_URL, 'GITHUB_API_URL');
  const event = values.event === undefined ? undefined : readJson(values.event, '--event');
  let run;
  try {
    run = await runStage({
      stage,
      inputs,
      env: stageEnv,
      ...(event === undefined ? {} : { event }),
      eventName:
        values['event-name'] ??
        stageEnv.GITHUB_EVENT_NAME ??
        (event === undefined ? 'workflow_dispatch' : 'issue_comment'),
    });
  } catch (error: unknown) {
    throw new WritError('invalid-input', errorMessage(error));
  }
  if (values.json) {
    io.stdout(
      `${JSON.stringify({ stage, status: run.status, outputs: run.outputs, errors: run.commands.errors, warnings: run.commands.warnings }, null, 2)}\n`,
    );
  } else {
    io.stdout(formatStageRun(run));
  }
  return run.status === 0 ? 0 : 1;
}
