/**
 * Every mutative call site in packages/core/src is either sent once or a compare-and-set write whose
 * outcome its caller reads back (issue 26, class 1):
 *
 *  - statically: the write sites found in the source equal the reviewed list below, each classified,
 *    so a new write site fails here until it is reviewed; only the reviewed CAS site carries the
 *    marker, and no call site sets its own retries;
 *  - against the emulator, with the real client and its plugins: each write the persist stage and the
 *    preview → consume-approval → publish-artifact flow make is, one at a time, applied and then
 *    answered 502 (`apply-then-status`), and it is never sent again: not at once (a blind retry) and
 *    not more often than in a run without the fault.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateArtifactBranch } from '../../src/artifact/lane.js';
import { validateArtifactPath } from '../../src/artifact/safe-path.js';
import { commitOnBranch } from '../../src/github/commit-on-branch.js';
import type { PlanStep } from '../../src/plan/types.js';
import { consumeApprovalStage } from '../../src/stages/consume-approval.js';
import { previewStage } from '../../src/stages/preview.js';
import { publishArtifactStage } from '../../src/stages/publish-artifact.js';
import type { RequestLogEntry } from '../../../github-emulator/src/state.js';
import { OWNER, REPO, REPOSITORY, emulatorClient } from '../ledger/support/emulator.js';
import type { PersistWorld } from '../persist/support.js';
import {
  ALL_POSITIVE,
  BEST_EFFORT,
  WRITER_TOKEN,
  evidenceFile,
  persistWorld,
  planOf,
} from '../persist/support.js';
import type { StageWorld } from '../stages/support/stage-world.js';
import { recordingLogger, stageWorld } from '../stages/support/stage-world.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '../../src');

type Kind =
  /** A write the client sends once (write-retry.ts); an unknown outcome is read back by its caller. */
  | 'sent once'
  /** The compare-and-set commit (request: CAS_WRITE): retried by the client, read back by cas-loop.ts. */
  | 'cas'
  /** A `POST /graphql` or GraphQL call whose documents are queries here: the client retries it as a read. */
  | 'graphql (classified by its document)';

/** The reviewed write sites: `file: call`, once per occurrence. */
const REVIEWED: [string, Kind][] = [
  ['artifact/lane-read.ts: request POST /graphql', 'graphql (classified by its document)'],
  ['artifact/publish.ts: rest.git.createRef', 'sent once'],
  ['artifact/publish.ts: rest.repos.merge', 'sent once'],
  ['artifact/publish.ts: rest.pulls.create', 'sent once'],
  ['artifact/publish.ts: rest.pulls.update', 'sent once'],
  // A command comment's reaction (received, acted, refused): best-effort, idempotent by GitHub's
  // rule (200 for a reaction the app already added), never read back and never resent.
  ['command/reactions.ts: rest.reactions.createForIssueComment', 'sent once'],
  // GitHub's edit record of a command comment: a GraphQL query (node(id:)), a read.
  ['command/comment.ts: request POST /graphql', 'graphql (classified by its document)'],
  ['github/commit-on-branch.ts: request POST /graphql', 'cas'],
  ['github/commit-on-branch.ts: mutation WritCommitOnBranch', 'cas'],
  ['ledger/read.ts: request POST /graphql', 'graphql (classified by its document)'],
  ['ledger/read.ts: request POST /repos/{owner}/{repo}/git/trees', 'sent once'],
  ['ledger/read.ts: request POST /repos/{owner}/{repo}/git/commits', 'sent once'],
  ['ledger/read.ts: request POST /repos/{owner}/{repo}/git/refs', 'sent once'],
  ['ledger/read.ts: .graphql(', 'graphql (classified by its document)'],
  ['persist/steps.ts: rest.issues.createMilestone', 'sent once'],
  ['persist/steps.ts: rest.issues.updateMilestone', 'sent once'],
  ['persist/steps.ts: rest.issues.updateMilestone', 'sent once'],
  ['persist/steps.ts: rest.issues.update', 'sent once'],
  ['persist/steps.ts: rest.issues.update', 'sent once'],
  ['persist/steps.ts: rest.issues.create', 'sent once'],
  ['persist/steps.ts: rest.issues.createComment', 'sent once'],
  ['persist/steps.ts: rest.issues.updateComment', 'sent once'],
  ['persist/steps.ts: rest.issues.createComment', 'sent once'],
  ['persist/steps.ts: rest.issues.update', 'sent once'],
  // A claim window's issues and milestones read in one GraphQL query: a read.
  ['persist/window-read.ts: request POST /graphql', 'graphql (classified by its document)'],
  ['probe/api.ts: request (dynamic route)', 'sent once'],
  ['probe/cleanup.ts: mutation WritProbeDeleteIssue', 'sent once'],
  ['probe/cleanup.ts: .graphql(', 'sent once'],
  ['probe/primitives.ts: mutation WritProbeUpdateRefs', 'sent once'],
  ['probe/primitives.ts: mutation WritProbeCommit', 'sent once'],
  ['probe/primitives.ts: .graphql(', 'sent once'],
  ['probe/primitives.ts: .graphql(', 'sent once'],
  ['status-comment/sync.ts: rest.issues.deleteComment', 'sent once'],
  ['status-comment/sync.ts: rest.issues.createComment', 'sent once'],
  ['status-comment/sync.ts: rest.issues.updateComment', 'sent once'],
  // The freeze notice on an open run's status comment (read back first: only the app's own, once).
  ['recovery/recover.ts: rest.issues.updateComment', 'sent once'],
  // Issue 33: the optional Projects (v2) projection (projects/sync.ts). Its one `POST /graphql` carries
  // the item listing (a query: a read) and the two mutations, each sent once: a create whose outcome is
  // unknown is adopted by the next follow's listing (never resent), a field write is compared first.
  ['projects/sync.ts: request POST /graphql', 'graphql (classified by its document)'],
  ['projects/sync.ts: mutation WritProjectAddItem', 'sent once'],
  ['projects/sync.ts: mutation WritProjectSetField', 'sent once'],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Source text without its comment lines (what a call site is never written in). */
function code(path: string): string {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(?:\*|\/\/|\/\*)/.test(line))
    .join('\n');
}

/** Every call that may write: REST methods that are not reads, non-GET routes, dynamic routes, GraphQL. */
function writeSites(): string[] {
  const sites: string[] = [];
  for (const path of sourceFiles(SRC).sort()) {
    const file = relative(SRC, path).split('\\').join('/');
    const text = code(path);
    for (const m of text.matchAll(/\brest\.(\w+)\.(\w+)\b/g))
      if (!/^(?:get|list|check|compare)/.test(m[2]!)) sites.push(`${file}: rest.${m[1]}.${m[2]}`);
    for (const m of text.matchAll(/\.request\(\s*'([A-Z]+) ([^']+)'/g))
      if (m[1] !== 'GET' && m[1] !== 'HEAD') sites.push(`${file}: request ${m[1]} ${m[2]}`);
    const dynamic = text.match(/\.request\(\s*(?!['"`\s])/g) ?? [];
    sites.push(...dynamic.map(() => `${file}: request (dynamic route)`));
    for (const m of text.matchAll(/\bmutation\s*(\w*)\s*[({]/g))
      sites.push(`${file}: mutation ${m[1] || '(anonymous)'}`);
    for (const m of text.matchAll(/\.graphql\(/g)) sites.push(`${file}: ${m[0]}`);
  }
  return sites;
}

describe('the write sites of packages/core/src (static)', () => {
  it('are exactly the reviewed list, each classified', () => {
    expect(writeSites().sort()).toEqual(REVIEWED.map(([site]) => site).sort());
  });

  it('the scan finds a write site written the ways a new one would be', () => {
    // The patterns above, on text a new stage might hold: each must be found.
    const probe = [
      'await github.rest.issues.lock({ ...repo, issue_number: 1 });',
      "await github.request('PUT /repos/{owner}/{repo}/contents/{path}', {});",
      'await github.request(route, {});',
      'const M = `mutation { deleteIssue(input: $input) { clientMutationId } }`;',
      'await octokit.graphql(M);',
    ].join('\n');
    const found = [
      ...probe.matchAll(/\brest\.(\w+)\.(\w+)\b/g),
      ...probe.matchAll(/\.request\(\s*'([A-Z]+) ([^']+)'/g),
      ...probe.matchAll(/\.request\(\s*(?!['"`\s])/g),
      ...probe.matchAll(/\bmutation\s*(\w*)\s*[({]/g),
      ...probe.matchAll(/\.graphql\(/g),
    ];
    expect(found).toHaveLength(5);
  });

  it('the CAS marker is set at the reviewed CAS site only, and no call site sets its own retries', () => {
    const marked: string[] = [];
    const retries: string[] = [];
    for (const path of sourceFiles(SRC)) {
      const file = relative(SRC, path).split('\\').join('/');
      const text = code(path);
      if (file !== 'github/write-retry.ts' && /request:\s*CAS_WRITE|writ:\s*['"]cas['"]/.test(text))
        marked.push(file);
      const mechanism = file === 'github/client.ts' || file === 'github/write-retry.ts';
      if (!mechanism && /\bretries\s*:\s*[\w.]+\s*[,}\n]/.test(text)) retries.push(file);
    }
    const casFiles = new Set(
      REVIEWED.filter(([, kind]) => kind === 'cas').map(([site]) => site.split(':')[0]),
    );
    expect(marked.sort()).toEqual([...casFiles].sort());
    expect(retries).toEqual([]);
  });
});

const base = { owner: OWNER, repo: REPO };

/** A request that could write: not a GET and not a GraphQL query. */
function isWrite(entry: RequestLogEntry): boolean {
  return entry.method !== 'GET' && !(entry.path === '/graphql' && entry.mutations.length === 0);
}

/** A write's key: method, path and mutations; `shape` puts `*` for each number in the path. */
function keyOf(entry: RequestLogEntry, shape = false): string {
  const path = shape ? entry.path.replace(/\/\d+(?=\/|$)/g, '/*') : entry.path;
  return `${entry.method} ${path} ${entry.mutations.join(',')}`.trim();
}

function count(entries: readonly RequestLogEntry[], key: string, shape: boolean): number {
  return entries.filter((entry) => keyOf(entry, shape) === key).length;
}

/** The fault for one write: applied, then answered 502, once. */
function applyThen502(key: string) {
  const [method, path] = key.split(' ') as [string, string];
  return {
    match: { method, path },
    fault: { type: 'apply-then-status' as const, status: 502 },
    times: 1,
  };
}

/**
 * The faulted write fired, was applied, and was never sent again: not as the next write (a blind
 * retry), and not more often than in the run without the fault.
 */
function expectSentOnce(
  baseline: readonly RequestLogEntry[],
  faulted: readonly RequestLogEntry[],
  key: string,
  shape = false,
) {
  const at = faulted.findIndex((entry) => entry.fault !== null && keyOf(entry, shape) === key);
  expect({ key, fired: at >= 0 }).toEqual({ key, fired: true });
  const next = faulted.slice(at + 1).find(isWrite);
  expect({ key, next: next === undefined ? null : keyOf(next, shape) }).not.toEqual({ key, next: key });
  expect({ key, sent: count(faulted, key, shape) }).toEqual({
    key,
    sent: Math.min(count(faulted, key, shape), count(baseline, key, shape)),
  });
}

describe('every write persist makes is sent once, even when its answer is a 502 after it applied', () => {
  let world: PersistWorld | undefined;
  const reset = async (): Promise<void> => {
    await world?.close();
    world = undefined;
  };
  afterEach(reset);

  /** A persist run of every step kind (creates and updates), with the client's default retries. */
  async function persistRun(key?: string): Promise<RequestLogEntry[]> {
    world = await persistWorld();
    const current = world;
    await current.commitDefault({
      '.writ/policy.json': JSON.stringify(BEST_EFFORT),
      '.writ/probe-evidence.json': JSON.stringify(
        evidenceFile(current.world.emulator.url, ALL_POSITIVE, new Date().toISOString()),
      ),
    });
    const issue = async (title: string, extra: { labels?: string[]; milestone?: number } = {}) =>
      (await current.owner.rest.issues.create({ ...base, title, ...extra })).data.number;
    const a = await issue('Importer', { labels: ['roadmap'] });
    const b = await issue('Plugins', { labels: ['roadmap', 'needs-triage'], milestone: 1 });
    const tracking = await issue('Roadmap tracking');
    const steps: PlanStep[] = [
      { id: 'm-25', kind: 'milestone.upsert', key: 'roadmap:v2.5', title: 'v2.5', description: 'Plugins.' },
      { id: 'close-23', kind: 'milestone.edit', milestone: { number: 2 }, set: { state: 'closed' } },
      { id: 'assign-a', kind: 'issue.set-milestone', issue: a, milestone: { number: 1 } },
      { id: 'label-b', kind: 'issue.labels', issue: b, add: ['deferred'], remove: ['needs-triage'] },
      { id: 'epic', kind: 'issue.create', title: 'Epic: offline', body: 'Offline mode.', labels: ['epic'] },
      { id: 'summary', kind: 'comment.upsert', issue: tracking, key: 'roadmap:summary', body: 'Refreshed.' },
    ];
    const plan = planOf(steps);
    const { runId } = await current.approve(plan);
    if (key !== undefined) current.world.emulator.admin.addFault(applyThen502(key));
    const seq = current.seq();
    const github = emulatorClient(current.world.emulator, WRITER_TOKEN);
    await current.persist(plan, runId, {}, { github }).catch(() => undefined);
    return current.world.emulator.admin.requests().filter((entry) => entry.seq > seq);
  }

  it('each REST write, faulted in turn', async () => {
    const baseline = await persistRun();
    await reset();
    const keys = [...new Set(baseline.filter(isWrite).map((entry) => keyOf(entry)))].filter(
      (key) => !key.startsWith('POST /graphql'),
    );
    // Every kind of step wrote: milestone create and edit, issue edits, issue create, comment create.
    expect(keys.map((key) => key.replace(/\d+/g, 'N'))).toEqual(
      expect.arrayContaining([
        'POST /repos/acme/widgets/milestones',
        'PATCH /repos/acme/widgets/milestones/N',
        'PATCH /repos/acme/widgets/issues/N',
        'POST /repos/acme/widgets/issues',
        'POST /repos/acme/widgets/issues/N/comments',
      ]),
    );
    for (const key of keys) {
      const faulted = await persistRun(key);
      await reset();
      expectSentOnce(baseline, faulted, key);
    }
  });
});

describe('every write of preview, consume-approval and publish-artifact is sent once, or is the CAS commit', () => {
  let world: StageWorld | undefined;
  const reset = async (): Promise<void> => {
    await world?.close();
    world = undefined;
  };
  afterEach(reset);

  const repository = { owner: OWNER, repo: REPO, full: REPOSITORY };

  /** Proposes (status comment), approves, publishes, moves the base, publishes again with a new title. */
  async function flow(key?: string): Promise<RequestLogEntry[]> {
    world = await stageWorld();
    const current = world;
    if (key !== undefined) current.ledgerWorld.emulator.admin.addFault(applyThen502(key));
    const seq = current.lastSeq();
    const planFile = current.planFile('plan');
    const planRoots = { workspace: current.workspace, runnerTemp: undefined };
    await (async () => {
      const proposed = await previewStage(
        {
          dryRun: false,
          statusIssue: current.statusIssue,
          planFile,
          planRoots,
          runId: '',
          commandPrefix: 'writ',
          outputDir: current.workspace,
          write: () => ({
            apiUrl: current.ledgerWorld.emulator.url,
            repository,
            actorId: undefined,
            ledger: current.ledger,
          }),
        },
        { logger: recordingLogger(), connect: () => Promise.resolve(current.deps()) },
      );
      const commentId = await current.comment(String(proposed.outputs['approve-command']));
      const approved = await consumeApprovalStage(
        {
          apiUrl: current.ledgerWorld.emulator.url,
          repository,
          commentId,
          dryRun: false,
          commandPrefix: 'writ',
          ledger: current.ledger,
          planFile,
          planRoots,
          allowedRoles: ['maintain'],
          requireDistinctApprover: false,
          holder: { workflow_run_id: 77, attempt: 1 },
        },
        current.deps(),
      );
      const settings = {
        apiUrl: current.ledgerWorld.emulator.url,
        repository,
        path: validateArtifactPath('docs/roadmap.md', { allowWorkflowFiles: false }),
        onClosedPr: 'report' as const,
        dryRun: false,
        epoch: Number(approved.outputs.epoch),
        content: Buffer.from('# Roadmap\n'),
        prBody: 'Generated by Writ.',
        ledger: current.ledger,
        runId: String(approved.outputs['run-id']),
        planFile,
        planRoots,
        commandPrefix: 'writ',
        allowedRoles: ['admin', 'maintain', 'write'],
        branch: validateArtifactBranch('bot/writ-artifact', 'branch'),
        base: null,
        prTitle: '',
        holder: { workflow_run_id: 77, attempt: 1 },
      };
      await publishArtifactStage(settings, current.deps());
      // A human moves the base on: the next publish merges it into the bot branch.
      const main = (await current.owner.rest.git.getRef({ ...base, ref: 'heads/main' })).data.object.sha;
      await commitOnBranch(
        current.owner,
        {
          repository: REPOSITORY,
          branch: 'main',
          expectedHeadOid: main,
          headline: 'news',
          body: '',
          additions: [{ path: 'NEWS.md', contents: 'news\n' }],
        },
        'artifact',
      );
      const second = await publishArtifactStage(
        { ...settings, content: Buffer.from('# Roadmap\n\nv2\n'), prTitle: 'docs: roadmap v2' },
        current.deps(),
      );
      // Without a fault, the flow runs through (a faulted run may stop anywhere).
      if (key === undefined) expect(second.outputs).toMatchObject({ outcome: 'updated' });
    })().catch((error: unknown) => {
      if (key === undefined) throw error;
    });
    return current.ledgerWorld.emulator.admin.requests().filter((entry) => entry.seq > seq);
  }

  it('each REST write, faulted in turn (the CAS commit excepted)', async () => {
    const all = await flow();
    await reset();
    // Writ's own requests: those of the actor that commits the ledger (not the humans' of the test).
    const actor = all.find((entry) => entry.mutations.includes('createCommitOnBranch'))?.actor;
    expect(actor).toEqual(expect.any(String));
    const baseline = all.filter((entry) => entry.actor === actor);
    const keys = [...new Set(baseline.filter(isWrite).map((entry) => keyOf(entry, true)))].filter(
      (key) => !key.startsWith('POST /graphql'),
    );
    expect(keys.sort()).toEqual(
      [
        'PATCH /repos/acme/widgets/issues/comments/*',
        'POST /repos/acme/widgets/issues/comments/*/reactions',
        'PATCH /repos/acme/widgets/pulls/*',
        'POST /repos/acme/widgets/git/refs',
        'POST /repos/acme/widgets/issues/*/comments',
        'POST /repos/acme/widgets/merges',
        'POST /repos/acme/widgets/pulls',
      ].sort(),
    );
    for (const key of keys) {
      const faulted = await flow(key);
      await reset();
      expectSentOnce(
        baseline,
        faulted.filter((entry) => entry.actor === actor),
        key,
        true,
      );
    }
  });
});
