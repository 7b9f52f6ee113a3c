/**
 * The runner's side of a stage, in-process: `INPUT_*` variables, the runner context, the output and
 * summary files @actions/core writes, and stdout captured (workflow commands and log lines). Every
 * change is undone by `restore()`, including the exit code a failed step sets.
 */
import { jest } from '@jest/globals';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearRegisteredSecrets } from '../../../src/redact.js';

export interface RunnerEnv {
  dir: string;
  stdout: string[];
  /** The outputs written to GITHUB_OUTPUT, by name. */
  outputs(): Record<string, string>;
  summary(): string;
  restore(): void;
}

/**
 * @actions/core's summary keeps the first GITHUB_STEP_SUMMARY it resolved for the process, so every
 * runner environment in one test file shares this file, emptied each time.
 */
const SUMMARY_FILE = join(mkdtempSync(join(tmpdir(), 'writ-summary-')), 'summary');

/** Parses @actions/core's `name<<delimiter` blocks. */
function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const pattern = /^([^\n<]+)<<(ghadelimiter_[0-9a-f-]+)\n([\s\S]*?)\n\2$/gm;
  for (const match of text.matchAll(pattern)) outputs[match[1] ?? ''] = match[3] ?? '';
  return outputs;
}

/**
 * Sets the runner's environment: the given inputs (as `INPUT_<NAME>`), a repository, a run ID, the
 * event (written to GITHUB_EVENT_PATH) and anything in `env`.
 */
export function runnerEnv(
  inputs: Record<string, string>,
  options: { event?: unknown; eventName?: string; env?: Record<string, string | undefined> } = {},
): RunnerEnv {
  const saved = { ...process.env };
  const dir = mkdtempSync(join(tmpdir(), 'writ-runner-'));
  const files = {
    GITHUB_OUTPUT: join(dir, 'output'),
    GITHUB_STEP_SUMMARY: SUMMARY_FILE,
    GITHUB_EVENT_PATH: join(dir, 'event.json'),
  };
  for (const file of Object.values(files)) writeFileSync(file, '');
  writeFileSync(files.GITHUB_EVENT_PATH, JSON.stringify(options.event ?? {}));
  for (const name of Object.keys(process.env))
    if (name.startsWith('INPUT_')) Reflect.deleteProperty(process.env, name);
  Object.assign(process.env, files, {
    GITHUB_REPOSITORY: 'acme/widgets',
    GITHUB_RUN_ID: '4242',
    GITHUB_RUN_ATTEMPT: '2',
    GITHUB_EVENT_NAME: options.eventName ?? 'workflow_dispatch',
    GITHUB_WORKSPACE: dir,
    RUNNER_TEMP: dir,
  });
  delete process.env.GITHUB_API_URL;
  delete process.env.GITHUB_ACTOR_ID;
  for (const [name, value] of Object.entries(inputs)) process.env[`INPUT_${name.toUpperCase()}`] = value;
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) Reflect.deleteProperty(process.env, name);
    else process.env[name] = value;
  }
  const stdout: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout.push(String(chunk));
    return true;
  });
  return {
    dir,
    stdout,
    outputs: () => parseOutputs(readFileSync(files.GITHUB_OUTPUT, 'utf8')),
    summary: () => readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8'),
    restore() {
      spy.mockRestore();
      process.env = saved;
      process.exitCode = undefined;
      clearRegisteredSecrets();
    },
  };
}
