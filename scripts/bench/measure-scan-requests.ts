// The scan cost of the status comment's ambiguous-POST reconciliation: an issue with N comments, a
// status comment POST that landed but whose answer was lost (the emulator's apply-then-drop), then the
// next sync, which must find the landed comment by its marker before posting again. Counted on the
// emulator's request log: the comment-list pages it read, all its requests, and how it ended.
// Two threads: `older` (the N comments were written an hour before the run was proposed, as on a busy
// issue: the read-back lists with since = the reservation less the skew, so it reads one page whatever
// N is) and `in the window` (all N written in the minutes around the reservation, so since= filters
// none out: the page cap bounds it, and past 20 pages the answer is precheck-inconclusive).
// Run: npx tsx scripts/bench/measure-scan-requests.ts [N ...]   (default 10 500 2500)
import { errorCode } from '@writ/core/errors.js';
import { syncStatusComment } from '@writ/core/status-comment/sync.js';
import { silentLogger } from '@writ/core/redact.js';
import { Octokit } from '@octokit/core';
import {
  LEDGER_TOKEN,
  OWNER,
  OWNER_TOKEN,
  REPO,
  emulatorClient,
  ledgerWorld,
} from '../../packages/core/test/ledger/support/emulator.js';
import { proposePlanFor } from '../../packages/core/test/ledger/support/fixtures.js';

export type Thread = 'older' | 'in the window';

export interface ScanCost {
  comments: number;
  thread: Thread;
  outcome: string;
  list_pages: number;
  requests: number;
}

export async function measureScan(comments: number, thread: Thread = 'older'): Promise<ScanCost> {
  const world = await ledgerWorld({
    appPermissions: { contents: 'write', administration: 'write', issues: 'write' },
  });
  try {
    const repository = { owner: OWNER, repo: REPO };
    const github = emulatorClient(world.emulator, LEDGER_TOKEN);
    const ledger = world.context();
    // A plain client seeds the thread (no plugins: nothing here is under test).
    const seed = new Octokit({ baseUrl: world.emulator.url, auth: OWNER_TOKEN });
    const { data: issue } = await seed.request('POST /repos/{owner}/{repo}/issues', {
      ...repository,
      title: 'A busy issue',
    });
    for (let i = 0; i < comments; i++) {
      await seed.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        ...repository,
        issue_number: issue.number,
        body: `comment ${i}`,
      });
    }
    if (thread === 'older') world.emulator.admin.clock({ advance_ms: 60 * 60_000 });
    // The proposal carries the status comment's first reservation (reserved_at, the server's time).
    await proposePlanFor(ledger, 'run-1');
    const sync = () =>
      syncStatusComment(
        { github, ledger, logger: silentLogger },
        {
          repository,
          runId: 'run-1',
          issueNumber: issue.number,
          project: (run) => `run ${run.run_id} is ${run.state}`,
          ownLogin: 'writ-ledger[bot]',
        },
      );
    world.emulator.admin.addFault({
      match: { method: 'POST', path: `/repos/${OWNER}/${REPO}/issues/${issue.number}/comments` },
      fault: { type: 'apply-then-drop' },
      times: 1,
    });
    await sync().catch(() => undefined); // the POST lands; its answer never comes
    const before = world.emulator.admin.requests().at(-1)?.seq ?? 0;
    const outcome = await sync().then(
      (result) => result?.action ?? 'none',
      (error: unknown) => errorCode(error),
    );
    const requests = world.emulator.admin.requests().filter((r) => r.seq > before);
    return {
      comments,
      thread,
      outcome,
      list_pages: requests.filter((r) => r.method === 'GET' && /\/issues\/\d+\/comments/.test(r.path)).length,
      requests: requests.length,
    };
  } finally {
    await world.close();
  }
}

export function renderScan(rows: ScanCost[]): string {
  return [
    "status comment: reconciling an ambiguous first POST, by the thread's length",
    '| comments on the issue | written | outcome | comment-list pages | requests |',
    '|---:|---|---|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.comments} | ${r.thread === 'older' ? 'an hour before the proposal' : 'around the reservation'} | ${r.outcome} | ${r.list_pages} | ${r.requests} |`,
    ),
  ].join('\n');
}

if (process.argv[1]?.endsWith('measure-scan-requests.ts')) {
  const sizes = process.argv.slice(2).map(Number).filter(Number.isFinite);
  const rows: ScanCost[] = [];
  for (const thread of ['older', 'in the window'] as const) {
    for (const n of sizes.length > 0 ? sizes : [10, 500, 2500]) rows.push(await measureScan(n, thread));
  }
  console.log(renderScan(rows));
}
