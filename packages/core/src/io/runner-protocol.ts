/**
 * The GitHub runner's protocol for JavaScript actions: inputs from `INPUT_<NAME>` variables, outputs,
 * state and summaries through the files named by `GITHUB_OUTPUT` / `GITHUB_STATE` /
 * `GITHUB_STEP_SUMMARY`, and workflow commands (`::error::…`) on stdout.
 *
 * This is the exact wire format @actions/core writes (a differential test holds the two together), in
 * a module that loads nothing else: @actions/core's entry point also evaluates its OIDC client, the
 * HTTP client and undici at start-up, which tripled the cold start of a stage that never calls GitHub.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync } from 'node:fs';
import { EOL } from 'node:os';

/** Reads an input the way the runner names it: upper-cased, spaces to `_`, hyphens kept; trimmed. */
export function getInput(name: string): string {
  return (process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

function escapeData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Writes a workflow command (`::name::message`) to stdout. */
export function issueCommand(command: string, message: string): void {
  process.stdout.write(`::${command}::${escapeData(message)}${EOL}`);
}

function appendFileCommand(variable: 'GITHUB_OUTPUT' | 'GITHUB_STATE', key: string, value: string): boolean {
  const path = process.env[variable];
  if (!path) return false;
  if (!existsSync(path)) throw new Error(`Missing file at path: ${path}`);
  const delimiter = `ghadelimiter_${randomUUID()}`;
  if (key.includes(delimiter) || value.includes(delimiter)) {
    throw new Error(`Unexpected input: name or value contains the delimiter "${delimiter}"`);
  }
  appendFileSync(path, `${key}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`, { encoding: 'utf8' });
  return true;
}

/** Sets a step output (heredoc form in GITHUB_OUTPUT; the legacy stdout command outside a runner). */
export function setOutput(name: string, value: string): void {
  if (!appendFileCommand('GITHUB_OUTPUT', name, value)) {
    process.stdout.write(EOL);
    process.stdout.write(
      `::set-output name=${name.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/:/g, '%3A').replace(/,/g, '%2C')}::${escapeData(value)}${EOL}`,
    );
  }
}

/** Saves state for a later phase of the same action. */
export function saveState(name: string, value: string): void {
  if (!appendFileCommand('GITHUB_STATE', name, value)) issueCommand(`save-state name=${name}`, value);
}

/** Asks the runner to mask a value in every log line from now on. */
export function setSecret(value: string): void {
  issueCommand('add-mask', value);
}

export function info(message: string): void {
  process.stdout.write(`${message}${EOL}`);
}

export function warning(message: string): void {
  issueCommand('warning', message);
}

export function debug(message: string): void {
  issueCommand('debug', message);
}

export function error(message: string): void {
  issueCommand('error', message);
}

/** Fails the step: an error annotation and exit code 1. */
export function setFailed(message: string): void {
  process.exitCode = 1;
  error(message);
}

/** Appends Markdown to the job summary; a no-op outside a runner. */
export function appendSummary(markdown: string): void {
  const path = process.env.GITHUB_STEP_SUMMARY;
  if (!path) return;
  appendFileSync(path, markdown, { encoding: 'utf8' });
}
