/**
 * `writ run <stage>`: executes a committed bundle from dist/ with the runner's contract, so a stage can
 * be run locally (or in tests) exactly as GitHub's runner would start it: a child `node` process,
 * `INPUT_<NAME>` variables (upper-cased, spaces to `_`, hyphens kept) with action.yml defaults for
 * inputs not given, the event payload file, and the runner's file commands, which are parsed back.
 * WRIT_BUNDLE_DIR=<dir> runs `<dir>/<stage>/index.js` instead (the test suite's working-tree build), and
 * WRIT_STAGE_NODE=<path> runs it on that node binary instead of the one running `writ` (CI runs the e2e
 * suites with it naming Node 24, the runtime of the actions' `runs.using: node24`; see stageNode).
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface RunStageOptions {
  stage: string;
  inputs?: Record<string, string>;
  /** The event payload (written to GITHUB_EVENT_PATH). */
  event?: unknown;
  eventName?: string;
  /** Extra environment (GITHUB_API_URL, GITHUB_REPOSITORY, ...), applied after the defaults. */
  env?: Record<string, string>;
  /** Root of the Writ checkout holding actions/ and dist/ (default: this repository). */
  root?: string;
  /** The workspace (the stage's working directory, as GITHUB_WORKSPACE is on a runner). Default: cwd. */
  workspace?: string;
  /** Kill the stage after this many milliseconds (default 120 s). */
  timeoutMs?: number;
  /** Remove the temporary runner folder (workDir) once its files are read (`writ run`, the demo). */
  cleanup?: boolean;
  /** With cleanup: keep the files an output names inside the runner folder (`writ run`); the rest goes. */
  keepOutputFiles?: boolean;
  /**
   * The runner folder (RUNNER_TEMP, GITHUB_OUTPUT, GITHUB_STATE, the step summary, the event payload)
   * to use instead of a fresh temporary one; created if missing and never removed (`writ run --keep`).
   */
  runnerDir?: string;
  /** Called with the stage's process once it is spawned (a kill-point harness kills it mid-request). */
  onSpawn?: (child: ChildProcess) => void;
}

export interface WorkflowCommands {
  errors: string[];
  warnings: string[];
  masks: string[];
}

export interface StageRun {
  stage: string;
  status: number | null;
  outputs: Record<string, string>;
  state: Record<string, string>;
  summary: string;
  commands: WorkflowCommands;
  stdout: string;
  stderr: string;
  workDir: string;
  /** Each output that names a regular file inside workDir → that file's absolute path. */
  outputFiles: Record<string, string>;
}

/** The outputs whose value is the path of a regular file inside `dir` (e.g. preview's `preview-path`). */
export function outputFilesIn(dir: string, outputs: Record<string, string>): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [name, value] of Object.entries(outputs)) {
    if (value === '' || value.includes('\n')) continue;
    const path = resolve(dir, value);
    const inside = relative(dir, path);
    if (inside === '' || inside.startsWith('..') || resolve(dir, inside) !== path) continue;
    try {
      if (lstatSync(path).isFile()) files[name] = path;
    } catch {
      // Not a file (yet or any more): not named.
    }
  }
  return files;
}

/** Removes everything under `dir` but the `keep` paths (and the folders leading to them). */
function removeAllBut(dir: string, keep: readonly string[]): void {
  if (keep.length === 0) {
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (keep.includes(path)) continue;
    if (entry.isDirectory() && keep.some((kept) => kept.startsWith(`${path}/`))) removeAllBut(path, keep);
    else rmSync(path, { recursive: true, force: true });
  }
}

/** Parses a GITHUB_OUTPUT-style file: `name=value` lines and `name<<DELIM … DELIM` heredocs. */
export function parseCommandFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name = '', delimiter] = heredoc;
      const body: string[] = [];
      for (i++; i < lines.length && lines[i] !== delimiter; i++) body.push(lines[i] ?? '');
      if (i >= lines.length) throw new Error(`unterminated heredoc for output '${name}'`);
      values[name] = body.join('\n');
    } else if (line.includes('=')) {
      const at = line.indexOf('=');
      values[line.slice(0, at)] = line.slice(at + 1);
    }
  }
  return values;
}

function unescapeData(value: string): string {
  return value.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
}

/** Collects the workflow commands a stage printed (`::error::`, `::warning::`, `::add-mask::`). */
export function parseWorkflowCommands(stdout: string): WorkflowCommands {
  const commands: WorkflowCommands = { errors: [], warnings: [], masks: [] };
  for (const line of stdout.split(/\r?\n/)) {
    const match = /^::(error|warning|add-mask)(?: [^:]*)?::(.*)$/.exec(line);
    if (!match) continue;
    const value = unescapeData(match[2] ?? '');
    if (match[1] === 'error') commands.errors.push(value);
    else if (match[1] === 'warning') commands.warnings.push(value);
    else commands.masks.push(value);
  }
  return commands;
}

export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}

/** Reads a dotenv-style file: `KEY=VALUE` lines, `#` comments, optional surrounding quotes. */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const at = line.indexOf('=');
    if (at <= 0) throw new Error(`env file line is not KEY=VALUE: ${line.slice(0, 40)}`);
    const value = line.slice(at + 1).trim();
    env[line.slice(0, at).trim()] = /^(["']).*\1$/.test(value) ? value.slice(1, -1) : value;
  }
  return env;
}

/**
 * The one place a stage's bundle is located: `$WRIT_BUNDLE_DIR/<stage>/index.js` when that is set (jest's
 * global setup sets it to .tmp/test-dist/, its build of the working tree), else `<root>/dist/<stage>/index.js`.
 */
export function bundlePath(stage: string, root = REPO_ROOT): string {
  const dir = process.env.WRIT_BUNDLE_DIR;
  return join(dir === undefined || dir === '' ? join(root, 'dist') : resolve(dir), stage, 'index.js');
}

/**
 * The node binary a stage runs on: `$WRIT_STAGE_NODE` when that is set (an absolute path, or a path from
 * the current directory), else the node running this process. A named binary that does not exist is an
 * error here, before anything is spawned.
 */
export function stageNode(): string {
  const named = process.env.WRIT_STAGE_NODE;
  if (named === undefined || named === '') return process.execPath;
  const path = resolve(named);
  if (!existsSync(path)) throw new Error(`WRIT_STAGE_NODE names ${path}, which does not exist`);
  return path;
}

export async function runStage(options: RunStageOptions): Promise<StageRun> {
  const root = options.root ?? REPO_ROOT;
  const actionFile = join(root, 'actions', options.stage, 'action.yml');
  const bundle = bundlePath(options.stage, root);
  if (!/^[a-z][a-z-]*$/.test(options.stage) || !existsSync(actionFile) || !existsSync(bundle)) {
    throw new Error(
      `no such stage '${options.stage}' (expected actions/<stage>/action.yml and dist/<stage>/index.js)`,
    );
  }
  const action = parse(readFileSync(actionFile, 'utf8')) as { inputs?: Record<string, { default?: string }> };
  const declared = action.inputs ?? {};
  const unknown = Object.keys(options.inputs ?? {}).filter((name) => !(name in declared));
  if (unknown.length > 0) {
    throw new Error(
      `unexpected input(s) ${unknown.join(', ')}; valid inputs are ${Object.keys(declared).join(', ')}`,
    );
  }

  const node = stageNode();
  let workDir: string;
  if (options.runnerDir === undefined) {
    workDir = mkdtempSync(join(tmpdir(), `writ-run-${options.stage}-`));
  } else {
    workDir = resolve(options.runnerDir);
    mkdirSync(workDir, { recursive: true });
  }
  const files = {
    output: join(workDir, 'output'),
    state: join(workDir, 'state'),
    summary: join(workDir, 'summary.md'),
    event: join(workDir, 'event.json'),
  };
  for (const file of [files.output, files.state, files.summary]) writeFileSync(file, '');
  writeFileSync(files.event, JSON.stringify(options.event ?? {}));

  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    GITHUB_ACTIONS: 'true',
    CI: 'true',
    GITHUB_OUTPUT: files.output,
    GITHUB_STATE: files.state,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_EVENT_NAME: options.eventName ?? 'workflow_dispatch',
    GITHUB_RUN_ID: '1',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_WORKSPACE: options.workspace ?? process.cwd(),
    RUNNER_TEMP: workDir,
    ...options.env,
  };
  for (const [name, input] of Object.entries(declared)) env[inputVariable(name)] = input.default ?? '';
  for (const [name, value] of Object.entries(options.inputs ?? {})) env[inputVariable(name)] = value;

  const child = spawn(node, [bundle], {
    cwd: options.workspace ?? process.cwd(),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.onSpawn?.(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  let outputFiles: Record<string, string> = {};
  try {
    const outputs = parseCommandFile(readFileSync(files.output, 'utf8'));
    outputFiles = outputFilesIn(workDir, outputs);
    return {
      stage: options.stage,
      status,
      outputs,
      state: parseCommandFile(readFileSync(files.state, 'utf8')),
      summary: readFileSync(files.summary, 'utf8'),
      commands: parseWorkflowCommands(stdout),
      stdout,
      stderr,
      workDir,
      outputFiles,
    };
  } finally {
    if (options.cleanup === true && options.runnerDir === undefined) {
      removeAllBut(workDir, options.keepOutputFiles === true ? Object.values(outputFiles) : []);
    }
  }
}

/** Replaces every value the stage asked the runner to mask, as the runner's log would. */
export function applyMasks(text: string, masks: readonly string[]): string {
  let out = text;
  for (const mask of masks) if (mask.length > 0) out = out.split(mask).join('***');
  return out;
}

/** A readable report of a stage run: outputs, failures, warnings, `extra` lines, then the job summary. */
export function formatStageRun(run: StageRun, extra: readonly string[] = []): string {
  const mask = (text: string) => applyMasks(text, run.commands.masks);
  const lines = [`writ run ${run.stage}: exit ${String(run.status)}`, '', 'outputs:'];
  for (const [name, value] of Object.entries(run.outputs)) lines.push(`  ${name}: ${mask(value)}`);
  for (const error of run.commands.errors) lines.push(`error: ${mask(error)}`);
  for (const warning of run.commands.warnings) lines.push(`warning: ${mask(warning)}`);
  if (extra.length > 0) lines.push('', ...extra.map(mask));
  if (run.summary.trim() !== '') lines.push('', '--- job summary', mask(run.summary));
  return `${lines.join('\n')}\n`;
}
