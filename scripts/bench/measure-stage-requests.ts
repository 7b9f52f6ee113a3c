// Counts the API requests and writes each network stage makes, run as the runner runs it (the bundle in
// dist/, or $WRIT_BUNDLE_DIR), against the emulator's request log: preview with its status comment,
// consume-approval, claim and checkpoint, publish-artifact first / changed / unchanged, and a replayed
// (refused) approval. Beside each: the floor issue 16 claims, what the stage must verify at the least.
// Run: npx tsx scripts/bench/measure-stage-requests.ts [--detail] [--json]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestLogEntry } from '@writ/github-emulator/index.js';
import { PEOPLE, planVariant, sliceWorld } from '../../test/support/world.js';

/** Issue 16's floors: the requests each stage must make to verify what it verifies. */
export const FLOORS: Record<string, number> = {
  'preview (status comment)': 4,
  'consume-approval': 8,
  'claim-checkpoint claim': 2,
  'claim-checkpoint checkpoint': 2,
  // publish-artifact: issue 16 claimed 14 / 13 / 10 with the lane read by REST (base ref, branch ref,
  // the file, the pull request list: 4). Those ride in the gate's one ledger read now (GraphQL
  // defaultBranchRef / ref / Commit.file / Ref.compare / Repository.pullRequests), so what is left is
  // what the stage must verify and write: that read, the ledger's ruleset proof (3), the approval
  // comment and the approver's live permission (2); then per write kind: the branch (1), the fence
  // re-read before each later kind of write (1 each), the commit (1), the pull request (1), and the
  // ledger's artifact record (its read and its commit: 2). First: 6 + 1 + 1 + 1 + 1 + 1 + 2 = 13;
  // changed (commit only): 6 + 1 + 2 = 9; unchanged: 6. The ruleset proof's rule list rides in that
  // same read too (GraphQL Ref.rules, used when complete; else REST's rules/branches): it is 2 (each
  // ruleset's bypass actors), so 12 / 8 / 5.
  'publish-artifact first': 12,
  'publish-artifact changed': 8,
  'publish-artifact unchanged': 5,
  'consume-approval replayed (refused)': 2,
};

export interface StageCost {
  stage: string;
  outcome: string;
  requests: number;
  writes: number;
  graphql: number;
  floor: number | null;
  log: string[];
}

const isWrite = (r: RequestLogEntry): boolean =>
  r.method !== 'GET' && r.method !== 'HEAD' && !(r.path === '/graphql' && r.mutations.length === 0);

const describe = (r: RequestLogEntry): string =>
  `${r.method} ${r.path.replace('/repos/acme/widgets', '')}${r.operation ? ` ${r.operation}` : ''}${r.mutations.length ? ` [${r.mutations.join(',')}]` : ''} → ${r.status}`;

export async function measureStages(): Promise<StageCost[]> {
  const world = await sliceWorld({ seed: 16 });
  const dir = mkdtempSync(join(tmpdir(), 'writ-floor-'));
  const costs: StageCost[] = [];
  let seq = 0;
  const mark = (): void => {
    seq = world.emulator.admin.requests().at(-1)?.seq ?? seq;
  };
  const record = (stage: string, outcome: string | undefined): void => {
    const reqs = world.emulator.admin.requests().filter((r) => r.seq > seq);
    costs.push({
      stage,
      outcome: outcome ?? '',
      requests: reqs.length,
      writes: reqs.filter(isWrite).length,
      graphql: reqs.filter((r) => r.path === '/graphql').length,
      floor: FLOORS[stage] ?? null,
      log: reqs.map(describe),
    });
    mark();
  };
  try {
    const planFile = planVariant(dir, 'floor');
    const ledger = { ...world.ledgerInputs(), 'dry-run': 'false' };
    mark();
    const preview = await world.run('preview', {
      ...ledger,
      'plan-file': planFile,
      'status-issue': String(world.statusIssue),
    });
    record('preview (status comment)', preview.outputs.outcome);
    const runId = preview.outputs['run-id'] ?? '';
    const event = await world.comment({ login: PEOPLE.write }, preview.outputs['approve-command'] ?? '');
    mark();
    // One workflow run holds the lease from the approval on: the stages after it run as that run.
    const job = { GITHUB_RUN_ID: '202', RUNNER_TEMP: dir };
    const consume = await world.run(
      'consume-approval',
      { ...ledger, 'plan-file': planFile },
      { event, env: job },
    );
    record('consume-approval', consume.outputs.outcome);
    const epoch = consume.outputs.epoch ?? '';
    const step = { ...ledger, 'run-id': runId, epoch, 'step-id': 'build-artifacts' };
    const claim = await world.run('claim-checkpoint', { ...step, operation: 'claim' }, { env: job });
    record('claim-checkpoint claim', `${claim.outputs.outcome} ${claim.outputs.reason ?? ''}`);
    const checkpoint = await world.run(
      'claim-checkpoint',
      {
        ...step,
        operation: 'checkpoint',
        'step-outcome': 'done',
        'status-code': '202',
      },
      { env: job },
    );
    record('claim-checkpoint checkpoint', checkpoint.outputs.outcome);
    for (const [label, text] of [
      ['first', 'a\n'],
      ['changed', 'b\n'],
      ['unchanged', 'b\n'],
    ] as const) {
      const content = join(dir, `${label}.md`);
      writeFileSync(content, text);
      const run = await world.run(
        'publish-artifact',
        {
          ...ledger,
          'run-id': runId,
          epoch,
          'plan-file': planFile,
          path: 'docs/x.md',
          'content-file': content,
        },
        { env: job },
      );
      record(`publish-artifact ${label}`, run.outputs.outcome);
    }
    const replay = await world.run(
      'consume-approval',
      { ...ledger, 'plan-file': planFile },
      { event, env: { ...job, GITHUB_RUN_ID: '303' } },
    );
    record('consume-approval replayed (refused)', `${replay.outputs.outcome} ${replay.outputs.reason}`);
  } finally {
    await world.close();
  }
  return costs;
}

export function renderCosts(costs: StageCost[]): string {
  const lines = [
    '| stage | outcome | requests | of which GraphQL | writes | floor (issue 16) | over the floor |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const c of costs) {
    lines.push(
      `| ${c.stage} | ${c.outcome} | ${c.requests} | ${c.graphql} | ${c.writes} | ${c.floor ?? '–'} | ${c.floor === null ? '–' : c.requests - c.floor} |`,
    );
  }
  const total = costs.reduce((sum, c) => sum + c.requests, 0);
  const floor = costs.reduce((sum, c) => sum + (c.floor ?? c.requests), 0);
  lines.push(`| all of the above | | ${total} | | | ${floor} | ${total - floor} |`);
  return lines.join('\n');
}

if (process.argv[1]?.endsWith('measure-stage-requests.ts')) {
  const costs = await measureStages();
  if (process.argv.includes('--json')) console.log(JSON.stringify(costs, null, 2));
  else {
    console.log(renderCosts(costs));
    if (process.argv.includes('--detail')) {
      for (const c of costs) {
        console.log(`\n${c.stage} (${c.outcome}):`);
        for (const line of c.log) console.log(`  ${line}`);
      }
    }
  }
}
