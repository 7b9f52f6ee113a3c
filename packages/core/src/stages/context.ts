/**
 * What a stage learns from the runner's environment, read once in `run()` (never at import): the
 * repository, this workflow run's identity, the triggering event and the API endpoint.
 */
import { realpathSync } from 'node:fs';
import { WritError } from '../errors.js';
import { validateApiUrl } from '../github/api-url.js';
import { readRegularFile } from '../io/input-file.js';
import type { RepositoryName } from '../ledger/paths.js';
import { parseRepository } from '../ledger/paths.js';

export interface RunnerContext {
  repository: RepositoryName & { full: string };
  workflowRunId: number;
  attempt: number;
  eventName: string;
  /** The event payload: untrusted, used only for IDs that are then re-read from the API. */
  payload: unknown;
  apiUrl: string;
  /** The numeric ID of the account that triggered the workflow, when the runner provides it. */
  actorId: number | undefined;
  /** GITHUB_WORKSPACE (else the working directory) and RUNNER_TEMP: where input files may live. */
  workspace: string;
  runnerTemp: string | undefined;
}

function positiveInteger(name: string, fallback?: number): number {
  const raw = process.env[name];
  if ((raw === undefined || raw === '') && fallback !== undefined) return fallback;
  if (raw === undefined || !/^[1-9][0-9]{0,15}$/.test(raw)) {
    throw new WritError('invalid-input', `environment variable ${name} must be a positive integer`);
  }
  return Number(raw);
}

/** GitHub caps a webhook payload at 25 MB; the event file the runner writes holds one. */
export const MAX_EVENT_BYTES = 25 * 1024 * 1024;

/**
 * The event payload at GITHUB_EVENT_PATH: a regular file (never a FIFO or device waited on), bounded,
 * JSON. Anything else is `invalid-input` naming the variable, never the file's text.
 */
export function readEventPayload(eventPath: string): unknown {
  const refuse = (why: string): never => {
    throw new WritError('invalid-input', `the event payload at GITHUB_EVENT_PATH is unreadable: it ${why}`);
  };
  let real = eventPath;
  try {
    real = realpathSync.native(eventPath);
  } catch (error: unknown) {
    const code = (error as { code?: unknown }).code;
    refuse(`names no readable file (${typeof code === 'string' ? code : 'unreadable'})`);
  }
  const bytes = readRegularFile(real, MAX_EVENT_BYTES, refuse);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return refuse('is not JSON (not UTF-8)');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // The parser's message quotes the text: never echoed (the payload is untrusted).
    return refuse('is not JSON (a syntax error)');
  }
}

export function readRunnerContext(): RunnerContext {
  const full = process.env.GITHUB_REPOSITORY ?? '';
  const repository = parseRepository(full, 'GITHUB_REPOSITORY');
  let payload: unknown = {};
  const eventPath = process.env.GITHUB_EVENT_PATH;
  if (eventPath) payload = readEventPayload(eventPath);
  const actor = process.env.GITHUB_ACTOR_ID;
  return {
    repository: { ...repository, full },
    workflowRunId: positiveInteger('GITHUB_RUN_ID'),
    attempt: positiveInteger('GITHUB_RUN_ATTEMPT', 1),
    eventName: process.env.GITHUB_EVENT_NAME ?? '',
    payload,
    apiUrl: validateApiUrl(process.env.GITHUB_API_URL || 'https://api.github.com', 'GITHUB_API_URL'),
    actorId: actor !== undefined && /^[1-9][0-9]{0,15}$/.test(actor) ? Number(actor) : undefined,
    workspace: process.env.GITHUB_WORKSPACE || process.cwd(),
    runnerTemp: process.env.RUNNER_TEMP || undefined,
  };
}

/** GITHUB_SERVER_URL: https://<host>, nothing else (github.com when the runner does not set it). */
export function readServerUrl(value: string | undefined): string {
  const url = value === undefined || value === '' ? 'https://github.com' : value.replace(/\/$/, '');
  if (!/^https:\/\/[A-Za-z0-9.-]+$/.test(url)) {
    throw new WritError('invalid-input', 'environment variable GITHUB_SERVER_URL must be https://<host>');
  }
  return url;
}
