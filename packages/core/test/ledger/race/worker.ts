/**
 * One race-campaign process: its own real client (retry installed) with 0..maxLatencyMs of seeded random
 * latency before every request, consuming the approval the coordinator names, reporting the outcome.
 */
import { WritError } from '../../../src/errors.js';
import { createGitHubClient, loopbackTimings } from '../../../src/github/client.js';
import { seededRandom } from '../../../src/seeded-random.js';
import { consumeApproval, createLedgerContext } from '../../../src/ledger/ledger.js';
import type { ConsumeApprovalInput } from '../../../src/ledger/ledger.js';
import type { LedgerApp } from '../../../src/ledger/types.js';

export interface WorkerInit {
  type: 'init';
  index: number;
  url: string;
  token: string;
  repository: string;
  branch: string;
  app: LedgerApp;
  seed: number;
  maxLatencyMs: number;
  policy: { leaseMs: number; graceMs: number };
}

export interface WorkerConsume {
  type: 'consume';
  trial: number;
  input: ConsumeApprovalInput;
}

export interface WorkerReport {
  trial: number;
  index: number;
  ok: boolean;
  code: string | null;
  recovered: boolean;
  attempts: number;
  commitOid: string | null;
  requests: number;
}

let context: ReturnType<typeof createLedgerContext> | null = null;
let index = -1;

function send(message: unknown): void {
  process.send?.(message);
}

process.on('message', (message: WorkerInit | WorkerConsume | { type: 'exit' }) => {
  if (message.type === 'exit') {
    process.disconnect();
    return;
  }
  if (message.type === 'init') {
    index = message.index;
    const random = seededRandom(message.seed);
    const github = createGitHubClient(message.token, {
      baseUrl: message.url,
      retries: 3,
      ...loopbackTimings(5),
      throttleId: `race-${message.index}`,
    });
    github.hook.before(
      'request',
      () =>
        new Promise<void>((resolve) =>
          setTimeout(resolve, Math.floor(random() * (message.maxLatencyMs + 1))),
        ),
    );
    context = createLedgerContext(
      { github, random: seededRandom(message.seed ^ 0x5bd1e995) },
      {
        repository: message.repository,
        branch: message.branch,
        app: message.app,
        policy: message.policy,
        maxAttempts: 12,
      },
    );
    send({ type: 'ready', index });
    return;
  }
  const ledger = context;
  if (ledger === null) return;
  consumeApproval(ledger, message.input).then(
    (outcome) =>
      send({
        trial: message.trial,
        index,
        ok: true,
        code: null,
        recovered: outcome.recoveredLostResponse,
        attempts: outcome.attempts,
        commitOid: outcome.commitOid,
        requests: outcome.requests,
      } satisfies WorkerReport),
    (error: unknown) =>
      send({
        trial: message.trial,
        index,
        ok: false,
        code:
          error instanceof WritError
            ? error.code
            : `uncoded: ${error instanceof Error ? error.message : String(error)}`,
        recovered: false,
        attempts: 0,
        commitOid: null,
        requests: 0,
      } satisfies WorkerReport),
  );
});
