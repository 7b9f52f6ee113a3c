/**
 * Runs a committed bundle from dist/ the way the GitHub runner runs a JavaScript action: a child
 * `node` process with `INPUT_<NAME>` variables (upper-cased, spaces to `_`, hyphens kept), the
 * action.yml defaults for inputs not given, and the runner's file commands.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface RunActionOptions {
  inputs?: Record<string, string>;
  event?: unknown;
  eventName?: string;
  env?: Record<string, string>;
}

export interface ActionRun {
  status: number | null;
  outputs: Record<string, string>;
  summary: string;
  stdout: string;
  stderr: string;
  workDir: string;
}

/** Parses a GITHUB_OUTPUT-style file: `name=value` lines and `name<<DELIM … DELIM` heredocs. */
export function parseCommandFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const body: string[] = [];
      for (i++; i < lines.length && lines[i] !== heredoc[2]; i++) body.push(lines[i]!);
      if (i >= lines.length) throw new Error(`unterminated heredoc for ${heredoc[1]}`);
      values[heredoc[1]!] = body.join('\n');
    } else if (line.includes('=')) {
      const at = line.indexOf('=');
      values[line.slice(0, at)] = line.slice(at + 1);
    }
  }
  return values;
}

export function inputEnvName(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}

export async function runAction(stage: string, options: RunActionOptions = {}): Promise<ActionRun> {
  const workDir = mkdtempSync(join(tmpdir(), `writ-${stage}-`));
  const files = {
    output: join(workDir, 'output'),
    state: join(workDir, 'state'),
    summary: join(workDir, 'summary.md'),
    event: join(workDir, 'event.json'),
  };
  for (const file of [files.output, files.state, files.summary]) writeFileSync(file, '');
  writeFileSync(files.event, JSON.stringify(options.event ?? {}));

  const action = parse(readFileSync(join(repoRoot, 'actions', stage, 'action.yml'), 'utf8')) as {
    inputs?: Record<string, { default?: string }>;
  };
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: files.output,
    GITHUB_STATE: files.state,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_EVENT_NAME: options.eventName ?? 'workflow_dispatch',
    GITHUB_REPOSITORY: 'acme/widgets',
    GITHUB_RUN_ID: '1001',
    GITHUB_RUN_ATTEMPT: '1',
    RUNNER_TEMP: workDir,
    ...options.env,
  };
  for (const [name, input] of Object.entries(action.inputs ?? {})) {
    env[inputEnvName(name)] = options.inputs?.[name] ?? input.default ?? '';
  }
  for (const [name, value] of Object.entries(options.inputs ?? {})) env[inputEnvName(name)] = value;

  const child = spawn(process.execPath, [join(repoRoot, 'dist', stage, 'index.js')], { cwd: workDir, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    status,
    outputs: parseCommandFile(readFileSync(files.output, 'utf8')),
    summary: readFileSync(files.summary, 'utf8'),
    stdout,
    stderr,
    workDir,
  };
}
