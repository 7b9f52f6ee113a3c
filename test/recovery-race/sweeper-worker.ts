/**
 * One sweeper process of the concurrent-sweepers campaign: its own real client and ledger context,
 * running the recovery core when the coordinator says so and reporting what it did to each run.
 */
import { WritError } from '@writ/core/errors.js';
import { createGitHubClient } from '@writ/core/github/client.js';
import { seededRandom } from '@writ/core/seeded-random.js';
import { createLedgerContext } from '@writ/core/ledger/ledger.js';
import type { LedgerApp } from '@writ/core/ledger/types.js';
import { observeStep } from '@writ/core/persist/observe.js';
import { recoverRuns } from '@writ/core/recovery/recover.js';
import { silentLogger } from '@writ/core/redact.js';

export interface SweeperInit {
  type: 'init';
  index: number;
  url: string;
  token: string;
  repository: string;
  app: LedgerApp;
  seed: number;
}

export interface SweeperSweep {
  type: 'sweep';
  trial: number;
  holder: { workflow_run_id: number; attempt: number };
  planFile: string | null;
}

export interface SweeperReport {
  trial: number;
  index: number;
  runs: { runId: string; action: string; reason: string | null; after: string; status: string }[];
  error: string | null;
}

let deps: Parameters<typeof recoverRuns>[0] | null = null;
let index = -1;
let repository = { owner: '', repo: '' };

process.on('message', (message: SweeperInit | SweeperSweep | { type: 'exit' }) => {
  if (message.type === 'exit') {
    process.disconnect();
    return;
  }
  if (message.type === 'init') {
    index = message.index;
    const [owner = '', repo = ''] = message.repository.split('/');
    repository = { owner, repo };
    const github = createGitHubClient(message.token, {
      baseUrl: message.url,
      retries: 3,
      retryBaseMs: 5,
      rateLimitBaseMs: 5,
      pacing: false,
      throttleId: `sweeper-${message.index}`,
    });
    const ledger = createLedgerContext(
      { github, random: seededRandom(message.seed) },
      { repository: message.repository, app: message.app, maxAttempts: 12 },
    );
    const logger = process.env.WRIT_RACE_DEBUG
      ? {
          ...silentLogger,
          info: (line: string) => process.stderr.write(`sweeper ${message.index}: ${line}\n`),
        }
      : silentLogger;
    deps = { github, ledger, logger, observe: observeStep({ github, ownLogin: `${message.app.slug}[bot]` }) };
    process.send?.({ type: 'ready', index });
    return;
  }
  if (deps === null) return;
  recoverRuns(deps, {
    repository,
    serverUrl: 'https://github.com',
    holder: message.holder,
    commandPrefix: 'writ',
    allowedRoles: ['admin', 'maintain', 'write'],
    requireDistinctApprover: false,
    appBotLogin: 'writ[bot]',
    planFile: message.planFile,
    dryRun: false,
  }).then(
    (report) =>
      process.send?.({
        trial: message.trial,
        index,
        runs: report.runs.map((run) => ({
          runId: run.runId,
          action: run.action,
          reason: run.reason,
          after: run.after,
          status: run.status,
        })),
        error: null,
      } satisfies SweeperReport),
    (error: unknown) =>
      process.send?.({
        trial: message.trial,
        index,
        runs: [],
        error: error instanceof WritError ? error.code : `uncoded: ${String(error)}`,
      } satisfies SweeperReport),
  );
});
