/**
 * persist's fault matrix through its bundle and the emulator (issue 12): every step kind × {expect
 * matches, conflict, identical (no write), silent drop, 5xx before the write, apply-then-drop on the
 * write, crash between claim and write, crash between write and checkpoint}. Each cell approves its own
 * run on fresh objects (a tag per cell) in one emulator per kind, with faults cleared and the lease
 * released between cells, runs the persist bundle, asserts the exact outcome and reason, counts the
 * writes GitHub applied and the objects on the emulator (nothing written twice), and re-runs the bundle:
 * it completes, or, for a run a conflict or a dropped write ended, writes nothing. The crash cells kill
 * the bundle's process from outside, at a crash point on the emulator: once the commit claiming the
 * step, or the step's write, was applied, before the process hears back.
 *
 * The silent-drop column runs the persist stage in-process with a read-level user's token as the
 * writing client: the bundle has one token, the app's installation token, which writes the ledger and
 * so always has push access, and GitHub drops milestone and label writes only from callers without it.
 * Cells that cannot apply to a kind are listed in NOT_APPLICABLE with the reason, never skipped silently.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitOnBranch } from '@writ/core/github/commit-on-branch.js';
import { keyMarker } from '@writ/core/persist/steps.js';
import { withMarker } from '@writ/core/idempotency/key.js';
import { checkpointStep, claimStep, readRun, releaseLease } from '@writ/core/ledger/ledger.js';
import { loadPlanFile } from '@writ/core/plan/load.js';
import type { PlanStep, StepKind } from '@writ/core/plan/types.js';
import { silentLogger } from '@writ/core/redact.js';
import { connect } from '@writ/core/stages/connect.js';
import { consumeApprovalStage } from '@writ/core/stages/consume-approval.js';
import type { LedgerSettings } from '@writ/core/stages/ledger-inputs.js';
import { persistStage } from '@writ/core/stages/persist.js';
import type { StageRun } from '../../packages/cli/src/run-stage.js';
import type { RequestMatch } from '../support/crash-points.js';
import { CrashPoints, claimOf, requestTo } from '../support/crash-points.js';
import type { SliceWorld } from '../support/world.js';
import {
  APP_SLUG,
  APP_TOKEN,
  OWNER,
  PEOPLE,
  REPO,
  REPOSITORY,
  client,
  patOf,
  proposePlan,
  sliceWorld,
} from '../support/world.js';

const CELLS = [
  'expect matches',
  'conflict',
  'identical (no write)',
  'silent drop (read-level token)',
  '5xx before the write',
  'apply-then-drop on the write',
  'crash between claim and write',
  'crash between write and checkpoint',
] as const;
type Cell = (typeof CELLS)[number];

const NOT_APPLICABLE: Partial<Record<StepKind, Partial<Record<Cell, string>>>> = {
  'milestone.upsert': {
    'silent drop (read-level token)':
      'GitHub refuses (403) a milestone write from a caller without push access; nothing is dropped silently',
  },
  'milestone.edit': {
    'silent drop (read-level token)':
      'GitHub refuses (403) a milestone write from a caller without push access; nothing is dropped silently',
  },
  'issue.create': {
    conflict:
      "a create's only expectation is that it does not exist yet, and a step never claimed was never attempted, so nothing of it can exist to differ (a claimed create is the crash cells' marker pre-check)",
    'identical (no write)':
      'for the same reason, an unclaimed create has no earlier result to find; the claimed-and-written case is the crash-between-write-and-checkpoint cell',
  },
  'comment.upsert': {
    'silent drop (read-level token)':
      'a comment has no field GitHub drops silently: a caller that may comment has it written, one that may not is refused',
  },
  external: {
    conflict: 'persist never reads an external step: the workflow performs and compares it',
    'identical (no write)': 'persist never reads an external step: the workflow performs and compares it',
    'silent drop (read-level token)':
      'persist never writes an external step: the workflow performs it under claim-checkpoint',
    '5xx before the write':
      'persist never writes an external step: the workflow performs it under claim-checkpoint',
    'apply-then-drop on the write':
      'persist never writes an external step: the workflow performs it under claim-checkpoint',
    'crash between write and checkpoint':
      "persist cannot observe an external side effect: a crash after the workflow's claim, whatever it wrote, is the crash-between-claim cell (persist waits, writing nothing)",
  },
};

const KINDS: StepKind[] = [
  'milestone.upsert',
  'milestone.edit',
  'issue.set-milestone',
  'issue.labels',
  'issue.create',
  'comment.upsert',
  'external',
];

const JOB = { GITHUB_RUN_ID: '8001', GITHUB_RUN_ATTEMPT: '1' };
const HOLDER = { workflow_run_id: 8001, attempt: 1 };
const base = { owner: OWNER, repo: REPO };
const BEST_EFFORT = {
  schema: 1,
  kinds: Object.fromEntries(KINDS.filter((k) => k !== 'external').map((k) => [k, 'best-effort'])),
};

/** One cell's step, the write it makes (to count what GitHub applied) and the objects it must leave. */
interface CellCase {
  step: PlanStep;
  /** The step's write: method and path (the target's own, so status-comment traffic never counts). */
  write: { method: string; path: RegExp };
  /** Objects carrying the step's desired state (or its target), counted on the emulator. */
  count(): Promise<number>;
  /** Objects there must be after the cell. */
  objects: number;
}

interface KindWorld {
  world: SliceWorld;
  /** Where a crash cell kills the persist process (the emulator applies the request, then it dies). */
  crash: CrashPoints;
  dir: string;
  ledger: LedgerSettings;
  /** Milestones every issue.set-milestone cell uses: the target and another. */
  target: number;
  other: number;
}

const admin = (k: KindWorld) => client(k.world.emulator, patOf(PEOPLE.admin));
const app = (k: KindWorld) => client(k.world.emulator, APP_TOKEN);
const reader = (k: KindWorld) => client(k.world.emulator, patOf(PEOPLE.read));

function labelNames(labels: (string | { name?: string })[]): string[] {
  return labels.map((l) => (typeof l === 'string' ? l : (l.name ?? ''))).sort();
}

/** The step and fixtures of `kind` in `cell`, on objects of their own (`tag`). */
async function prepare(k: KindWorld, kind: StepKind, cell: Cell, tag: string): Promise<CellCase> {
  const silent = cell === 'silent drop (read-level token)';
  switch (kind) {
    case 'milestone.upsert': {
      const key = `matrix:${tag}`;
      const title = `M ${tag}`;
      if (cell === 'conflict') await admin(k).rest.issues.createMilestone({ ...base, title });
      // Writ's own earlier milestone: a marker counts only on what Writ's app created (issue 26).
      if (cell === 'identical (no write)')
        await app(k).rest.issues.createMilestone({
          ...base,
          title,
          description: withMarker('Plan notes.', keyMarker(key)),
        });
      return {
        step: { id: 'step', kind, key, title, description: 'Plan notes.', expect: { exists: false } },
        write: { method: 'POST', path: /^\/repos\/acme\/widgets\/milestones$/ },
        count: async () =>
          (await admin(k).paginate(admin(k).rest.issues.listMilestones, { ...base, state: 'all' })).filter(
            (m) => m.description?.includes(keyMarker(key)) === true,
          ).length,
        objects: cell === 'conflict' ? 0 : 1,
      };
    }
    case 'milestone.edit': {
      const title = `E ${tag}`;
      const { data } = await admin(k).rest.issues.createMilestone({
        ...base,
        title,
        ...(cell === 'identical (no write)' ? { description: 'Edited.' } : {}),
      });
      if (cell === 'conflict')
        await admin(k).rest.issues.updateMilestone({
          ...base,
          milestone_number: data.number,
          title: `${title}!`,
        });
      return {
        step: {
          id: 'step',
          kind,
          milestone: { number: data.number },
          set: { description: 'Edited.' },
          expect: { title },
        },
        write: { method: 'PATCH', path: new RegExp(`^/repos/acme/widgets/milestones/${data.number}$`) },
        count: async () =>
          (await admin(k).rest.issues.getMilestone({ ...base, milestone_number: data.number })).data
            .description === 'Edited.'
            ? 1
            : 0,
        objects: cell === 'conflict' ? 0 : 1,
      };
    }
    case 'issue.set-milestone': {
      const author = silent ? reader(k) : admin(k);
      const milestone =
        cell === 'conflict' ? k.other : cell === 'identical (no write)' ? k.target : undefined;
      const { data } = await author.rest.issues.create({
        ...base,
        title: `S ${tag}`,
        ...(milestone === undefined ? {} : { milestone }),
      });
      return {
        step: {
          id: 'step',
          kind,
          issue: data.number,
          milestone: { number: k.target },
          expect: { milestone: null },
        },
        write: { method: 'PATCH', path: new RegExp(`^/repos/acme/widgets/issues/${data.number}$`) },
        count: async () =>
          (await admin(k).rest.issues.get({ ...base, issue_number: data.number })).data.milestone?.number ===
          k.target
            ? 1
            : 0,
        objects: cell === 'conflict' || silent ? 0 : 1,
      };
    }
    case 'issue.labels': {
      const author = silent ? reader(k) : admin(k);
      const { data } = await author.rest.issues.create({ ...base, title: `L ${tag}` });
      const start = cell === 'identical (no write)' ? ['matrix', 'deferred'] : ['matrix'];
      await admin(k).rest.issues.addLabels({ ...base, issue_number: data.number, labels: start });
      if (cell === 'conflict')
        await admin(k).rest.issues.addLabels({ ...base, issue_number: data.number, labels: ['surprise'] });
      return {
        step: { id: 'step', kind, issue: data.number, add: ['deferred'], expect: { labels: ['matrix'] } },
        write: { method: 'PATCH', path: new RegExp(`^/repos/acme/widgets/issues/${data.number}$`) },
        count: async () =>
          labelNames(
            (await admin(k).rest.issues.get({ ...base, issue_number: data.number })).data.labels,
          ).includes('deferred')
            ? 1
            : 0,
        objects: cell === 'conflict' || silent ? 0 : 1,
      };
    }
    case 'issue.create': {
      const title = `C ${tag}`;
      return {
        step: { id: 'step', kind, title, body: 'Created by the matrix.', labels: ['epic'] },
        write: { method: 'POST', path: /^\/repos\/acme\/widgets\/issues$/ },
        count: async () =>
          (await admin(k).paginate(admin(k).rest.issues.listForRepo, { ...base, state: 'all' })).filter(
            (i) => i.title === title,
          ).length,
        objects: 1,
      };
    }
    case 'comment.upsert': {
      const key = `matrix:${tag}`;
      const { data: issue } = await admin(k).rest.issues.create({ ...base, title: `T ${tag}` });
      if (cell === 'conflict' || cell === 'identical (no write)')
        await app(k).rest.issues.createComment({
          ...base,
          issue_number: issue.number,
          body: withMarker(cell === 'conflict' ? 'An older summary.' : 'Summary.', keyMarker(key)),
        });
      return {
        step: { id: 'step', kind, issue: issue.number, key, body: 'Summary.', expect: { exists: false } },
        write: { method: 'POST', path: new RegExp(`^/repos/acme/widgets/issues/${issue.number}/comments$`) },
        count: async () =>
          (
            await admin(k).paginate(admin(k).rest.issues.listComments, {
              ...base,
              issue_number: issue.number,
            })
          ).filter((c) => c.body?.includes(keyMarker(key)) === true).length,
        objects: 1,
      };
    }
    case 'external':
      return {
        step: { id: 'step', kind, target: 'release-planner' },
        write: { method: 'NONE', path: /^$/ },
        count: () => Promise.resolve(0),
        objects: 0,
      };
  }
}

/** The fault a cell injects on the step's write, once. */
function faultFor(cell: Cell, write: CellCase['write'], kind: StepKind) {
  const path =
    kind === 'issue.set-milestone' || kind === 'issue.labels'
      ? '/repos/acme/widgets/issues/*'
      : kind === 'milestone.edit'
        ? '/repos/acme/widgets/milestones/*'
        : kind === 'comment.upsert'
          ? '/repos/acme/widgets/issues/*/comments'
          : kind === 'milestone.upsert'
            ? '/repos/acme/widgets/milestones'
            : '/repos/acme/widgets/issues';
  if (cell === '5xx before the write')
    return {
      match: { method: write.method, path },
      fault: { type: 'status' as const, status: 502 },
      times: 1,
    };
  if (cell === 'apply-then-drop on the write')
    return { match: { method: write.method, path }, fault: { type: 'apply-then-drop' as const }, times: 1 };
  return null;
}

/** Writes GitHub applied since `seq` for `write`: answered 2xx, or applied and their answer dropped. */
function applied(k: KindWorld, seq: number, write: CellCase['write']): number {
  return k.world.emulator.admin
    .requests()
    .filter(
      (r) =>
        r.seq > seq &&
        r.method === write.method &&
        write.path.test(r.path.replace(/\?.*$/, '')) &&
        ((typeof r.status === 'number' && r.status >= 200 && r.status < 300) ||
          (r.status === 'dropped' && r.fault === 'apply-then-drop')),
    ).length;
}

function lastSeq(k: KindWorld): number {
  return k.world.emulator.admin.requests().at(-1)?.seq ?? 0;
}

/** Requests since `seq` that could write GitHub outside the ledger (not a GET, not GraphQL). */
function writesSince(k: KindWorld, seq: number): string[] {
  return k.world.emulator.admin
    .requests()
    .filter((r) => r.seq > seq && r.method !== 'GET' && r.path !== '/graphql')
    .map((r) => `${r.method} ${r.path}`);
}

async function approve(k: KindWorld, step: PlanStep, tag: string) {
  const planFile = join(k.dir, `${tag}.json`);
  writeFileSync(
    planFile,
    JSON.stringify({
      schema: 1,
      title: `Matrix ${tag}`,
      scope: { repository: REPOSITORY },
      bounds: { max_steps: 5 },
      steps: [step],
    }),
  );
  const proposed = await proposePlan(k.world, planFile);
  const event = await k.world.comment({ login: PEOPLE.write }, proposed.command);
  const deps = connect({ apiUrl: k.world.emulator.url, repository: REPOSITORY }, k.ledger, silentLogger);
  const consumed = await consumeApprovalStage(
    {
      apiUrl: k.world.emulator.url,
      repository: { ...base, full: REPOSITORY },
      commentId: (event.comment as { id: number }).id,
      dryRun: false,
      commandPrefix: 'writ',
      ledger: k.ledger,
      planFile,
      planRoots: { workspace: k.dir, runnerTemp: undefined },
      allowedRoles: ['admin', 'maintain', 'write'],
      requireDistinctApprover: false,
      holder: HOLDER,
    },
    deps,
  );
  return { runId: proposed.runId, epoch: Number(consumed.outputs.epoch), planFile };
}

/** The persist bundle on `run`; with `crashAt`, its process is killed once that request was applied. */
async function runPersist(
  k: KindWorld,
  run: { runId: string; epoch: number; planFile: string },
  crashAt?: RequestMatch,
): Promise<StageRun & { crashed: boolean }> {
  try {
    const result = await k.world.run(
      'persist',
      {
        'run-id': run.runId,
        'plan-file': run.planFile,
        epoch: String(run.epoch),
        'persistence-enabled': 'true',
        'dry-run': 'false',
        ...k.world.ledgerInputs(),
      },
      {
        env: JOB,
        ...(crashAt === undefined
          ? {}
          : { onSpawn: (child) => k.crash.arm(crashAt, () => child.kill('SIGKILL')) }),
      },
    );
    return { ...result, crashed: k.crash.disarm() };
  } finally {
    k.crash.disarm();
  }
}

/** The persist stage in-process, writing with a read-level user's token (the silent-drop column). */
async function persistAsReader(k: KindWorld, run: { runId: string; epoch: number; planFile: string }) {
  const deps = connect({ apiUrl: k.world.emulator.url, repository: REPOSITORY }, k.ledger, silentLogger);
  return persistStage(
    {
      apiUrl: k.world.emulator.url,
      repository: { ...base },
      runId: run.runId,
      plan: loadPlanFile(run.planFile),
      epoch: run.epoch,
      persistenceEnabled: true,
      policyPath: '.writ/policy.json',
      evidencePath: '.writ/probe-evidence.json',
      maxSteps: 100,
      timeBudgetMs: 300 * 60_000,
      claimWindow: 1,
      pageCap: 20,
      commandPrefix: 'writ',
      allowedRoles: ['admin', 'maintain', 'write'],
      dryRun: false,
      ledger: k.ledger,
      holder: HOLDER,
    },
    { ...deps, github: reader(k) },
  );
}

async function stepStatus(k: KindWorld, runId: string): Promise<string | undefined> {
  return (await readRun(k.world.ledger, runId)).run?.steps[0]?.status;
}

/** A re-run of an ended run: its approval no longer opens the gate, so the bundle refuses, writing nothing. */
function expectEnded(rerun: StageRun, state: string): void {
  expect(rerun.outputs).toMatchObject({ outcome: 'refused', reason: 'stale-or-mismatched-approval' });
  expect(rerun.commands.errors.join('\n')).toContain(`is ${state}`);
}

/** Frees the lease a cell's run still holds (a run a conflict or a dropped write ended keeps it). */
async function releaseIfHeld(k: KindWorld, run: { runId: string; epoch: number }): Promise<void> {
  k.world.emulator.admin.clearFaults();
  const { lease } = await readRun(k.world.ledger, run.runId);
  if (lease.holder?.run_id === run.runId)
    await releaseLease(k.world.ledger, {
      runId: run.runId,
      epoch: run.epoch,
      holder: { run_id: run.runId, ...HOLDER },
    });
}

const rows = KINDS.flatMap((kind) => CELLS.map((cell) => [kind, cell] as const));

describe.each(KINDS)('persist matrix: %s', (kind) => {
  let k: KindWorld;
  let serial = 0;

  beforeAll(async () => {
    const crash = new CrashPoints();
    const world = await sliceWorld({ onRequest: crash.onRequest });
    crash.attach(world.emulator.admin);
    const owner = client(world.emulator, patOf(PEOPLE.admin));
    const head = (await owner.rest.git.getRef({ ...base, ref: 'heads/main' })).data.object.sha;
    await commitOnBranch(
      owner,
      {
        repository: REPOSITORY,
        branch: 'main',
        expectedHeadOid: head,
        headline: 'Writ policy: best-effort',
        body: '',
        additions: [{ path: '.writ/policy.json', contents: JSON.stringify(BEST_EFFORT) }],
      },
      'artifact',
    );
    const target = (await owner.rest.issues.createMilestone({ ...base, title: 'matrix target' })).data.number;
    const other = (await owner.rest.issues.createMilestone({ ...base, title: 'matrix other' })).data.number;
    k = {
      world,
      crash,
      dir: mkdtempSync(join(tmpdir(), 'writ-matrix-')),
      ledger: {
        token: APP_TOKEN,
        branch: 'bot/writ-ledger',
        app: { slug: APP_SLUG, id: world.appId },
        leaseMs: 600_000,
      },
      target,
      other,
    };
  });

  afterAll(async () => {
    await k.world.close();
  });

  const cells = rows.filter(([rowKind]) => rowKind === kind).map(([, cell]) => cell);
  const applicable = cells.filter((cell) => NOT_APPLICABLE[kind]?.[cell] === undefined);
  const excluded = cells.filter((cell) => NOT_APPLICABLE[kind]?.[cell] !== undefined);

  if (excluded.length > 0) {
    it.each(excluded)('%s: not applicable, with the reason', (cell) => {
      expect(NOT_APPLICABLE[kind]?.[cell]?.length).toBeGreaterThan(40);
    });
  }

  it.each(applicable)('%s', async (cell) => {
    serial += 1;
    const tag = `${kind.replace('.', '-')}-${serial}`;
    const fixture = await prepare(k, kind, cell, tag);
    const run = await approve(k, fixture.step, tag);
    const seq = lastSeq(k);
    try {
      if (kind === 'external') {
        await externalCell(k, cell, run, seq);
        return;
      }
      const fault = faultFor(cell, fixture.write, kind);
      if (fault !== null) k.world.emulator.admin.addFault(fault);

      if (cell === 'silent drop (read-level token)') {
        const dropped = await persistAsReader(k, run);
        expect(dropped.outputs).toMatchObject({ outcome: 'stopped', reason: 'write-silently-dropped' });
        expect(dropped.refusal?.code).toBe('write-silently-dropped');
        expect(await stepStatus(k, run.runId)).toBe('failed');
        // Sent once, answered 200, changed nothing that counts; the re-run of the ended run writes nothing.
        expect(applied(k, seq, fixture.write)).toBe(1);
        const again = lastSeq(k);
        const rerun = await runPersist(k, run);
        expectEnded(rerun, 'failed');
        expect(writesSince(k, again)).toEqual([]);
        expect(await fixture.count()).toBe(fixture.objects);
        return;
      }

      // The crash cells kill the process once the claim commit, or the step's write, was applied.
      const crashAt =
        cell === 'crash between claim and write'
          ? claimOf('step')
          : cell === 'crash between write and checkpoint'
            ? requestTo(fixture.write.method, fixture.write.path)
            : undefined;
      const first = await runPersist(k, run, crashAt);
      expect(first.crashed).toBe(crashAt !== undefined);

      switch (cell) {
        case 'expect matches':
        case '5xx before the write':
        case 'apply-then-drop on the write': {
          expect(first.outputs).toMatchObject({ outcome: 'completed', reason: '', 'steps-done': '1' });
          expect(applied(k, seq, fixture.write)).toBe(1);
          // Sent twice only after a 5xx that GitHub never applied (read back first); once otherwise.
          const sent = writesSince(k, seq).filter((w) => {
            const [method = '', path = ''] = w.split(' ');
            return method === fixture.write.method && fixture.write.path.test(path.replace(/\?.*$/, ''));
          });
          expect(sent).toHaveLength(cell === '5xx before the write' ? 2 : 1);
          break;
        }
        case 'conflict':
          expect(first.outputs).toMatchObject({
            outcome: 'stopped',
            reason: 'conflict',
            'next-step': 'step',
          });
          expect(first.summary).toMatch(/Step `step`:/);
          expect(await stepStatus(k, run.runId)).toBe('conflict');
          expect(applied(k, seq, fixture.write)).toBe(0);
          break;
        case 'identical (no write)':
          expect(first.outputs).toMatchObject({ outcome: 'completed', reason: '', 'steps-done': '1' });
          expect(applied(k, seq, fixture.write)).toBe(0);
          break;
        case 'crash between claim and write':
          expect(first.status).toBeNull();
          expect(await stepStatus(k, run.runId)).toBe('claimed');
          expect(applied(k, seq, fixture.write)).toBe(0);
          break;
        case 'crash between write and checkpoint':
          expect(first.status).toBeNull();
          expect(await stepStatus(k, run.runId)).toBe('claimed');
          expect(applied(k, seq, fixture.write)).toBe(1);
          break;
      }

      const again = lastSeq(k);
      const rerun = await runPersist(k, run);
      if (cell === 'conflict') {
        // A conflict ends the run: its re-run writes nothing (the planner re-plans from what it reads now).
        expectEnded(rerun, 'failed');
        expect(writesSince(k, again)).toEqual([]);
      } else {
        expect(rerun.outputs).toMatchObject({ outcome: 'completed', reason: '', 'steps-done': '1' });
        expect((await readRun(k.world.ledger, run.runId)).run?.state).toBe('completed');
      }
      // Nothing written twice: across the cell GitHub applied the step's write at most once.
      expect(applied(k, seq, fixture.write)).toBe(
        cell === 'conflict' || cell === 'identical (no write)' ? 0 : 1,
      );
      expect(await fixture.count()).toBe(fixture.objects);
    } finally {
      await releaseIfHeld(k, run);
    }
  });
});

/** External steps: persist waits for the workflow (claim-checkpoint), writing nothing itself. */
async function externalCell(
  k: KindWorld,
  cell: Cell,
  run: { runId: string; epoch: number; planFile: string },
  seq: number,
): Promise<void> {
  const holder = { run_id: run.runId, ...HOLDER };
  const waiting = await runPersist(k, run);
  expect(waiting.outputs).toMatchObject({ outcome: 'waiting-external', reason: '', 'next-step': 'step' });
  // The workflow claims the external step (claim-checkpoint); in this cell it crashes before its write.
  await claimStep(k.world.ledger, { runId: run.runId, stepId: 'step', epoch: run.epoch, holder });
  if (cell === 'crash between claim and write') {
    const stillWaiting = await runPersist(k, run);
    expect(stillWaiting.outputs).toMatchObject({ outcome: 'waiting-external', 'next-step': 'step' });
    expect(await stepStatus(k, run.runId)).toBe('claimed');
  }
  await checkpointStep(k.world.ledger, {
    runId: run.runId,
    stepId: 'step',
    epoch: run.epoch,
    holder,
    outcome: 'done',
    evidence: { status_code: 200, error_code: null },
  });
  const done = await runPersist(k, run);
  expect(done.outputs).toMatchObject({ outcome: 'completed', reason: '', 'steps-done': '1' });
  expect(writesSince(k, seq)).toEqual([]);
}
