/**
 * What a stage learns from the runner's environment, read once in `run()` (never at import): the
 * repository, this workflow run's identity, the triggering event and the API endpoint.
 */
import { readFileSync } from 'node:fs';
import { WritError, errorMessage } from '../errors.js';
import { validateApiUrl } from '../github/api-url.js';
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

export function readRunnerContext(): RunnerContext {
  const full = process.env.GITHUB_REPOSITORY ?? '';
  const repository = parseRepository(full, 'GITHUB_REPOSITORY');
  let payload: unknown = {};
  const eventPath = process.env.GITHUB_EVENT_PATH;
  if (eventPath) {
    try {
      payload = JSON.parse(readFileSync(eventPath, 'utf8')) as unknown;
    } catch (error: unknown) {
      throw new WritError(
        'invalid-input',
        `the event payload at GITHUB_EVENT_PATH is unreadable: ${errorMessage(error)}`,
      );
    }
  }
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
