/**
 * The freeze (ledger/freeze.ts): the two-commit forgery that passes the O(1) incremental gate is caught
 * by the recovery sweep's full replay, which freezes the ledger; from then on every gate refuses with
 * `ledger-frozen` naming the forged commit, a second sweep finds it frozen, and an app-token holder who
 * tries to undo the freeze is refused at once (one commit) or re-frozen by the next sweep (two). The
 * freeze commit goes through the one compare-and-set loop: dropped, stale and exhausted commits.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { refusalError } from '../support/code-of.js';
import { bootstrapLedger, verifyLedger } from '../../src/ledger/bootstrap.js';
import type { LedgerContext, TransitionOutcome } from '../../src/ledger/cas.js';
import { freezeLedger } from '../../src/ledger/freeze.js';
import {
  claimStep,
  consumeApproval,
  createLedgerContext,
  readVerifiedRun,
  readVerifiedRuns,
} from '../../src/ledger/ledger.js';
import { PROVENANCE_PATH } from '../../src/ledger/paths.js';
import type { Holder, ProvenanceCheckpoint, RunFile } from '../../src/ledger/types.js';
import type { RecoveryDeps } from '../../src/recovery/recover.js';
import { recoverRuns } from '../../src/recovery/recover.js';
import { recoveryStage, renderRecoverySummary } from '../../src/stages/recovery.js';
import { APP, MemoryLedgerStore, instantClock } from './support/memory-store.js';
import { HOLDER, approvalFor, proposePlanFor, recomputed } from './support/fixtures.js';

const RUN_PATH = 'runs/acme--widgets/run-1.json';
const policy = { leaseMs: 60_000, graceMs: 10_000 };
const me: Holder = { run_id: 'run-1', ...HOLDER };

let store: MemoryLedgerStore;
let ledger: LedgerContext;

beforeEach(async () => {
  store = new MemoryLedgerStore();
  ledger = createLedgerContext(
    { github: store, clock: instantClock },
    { repository: 'acme/widgets', app: APP, policy, seed: 1 },
  );
  await bootstrapLedger(ledger, { apply: true });
});

type Files = Record<string, string>;

function planned(outcome: TransitionOutcome): { files: Files; message: string } {
  const files: Files = {};
  for (const file of outcome.commit.additions) files[file.path] = file.contents;
  return { files, message: `${outcome.commit.headline}\n\n${outcome.commit.body}` };
}

// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- T names the file's shape at each call
function edit<T>(text: string, change: (value: T) => void): string {
  const value = JSON.parse(text) as T;
  change(value);
  return `${JSON.stringify(value, null, 2)}\n`;
}

const ZERO_ID = `${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}`;

/**
 * The forger's second commit: a status record on top of `base` whose checkpoint claims `base` proven
 * (and, when `files` carries the head's checkpoint, drops whatever else it said, a freeze included).
 */
function claimProven(
  base: string,
  checkpointText: string,
  runText: string,
  message: string,
  n: number,
): string {
  const through = edit<ProvenanceCheckpoint>(checkpointText, (checkpoint) => {
    checkpoint.verified_through = base;
    checkpoint.verified_commits += 1;
    delete checkpoint.frozen;
  });
  const run = edit<RunFile>(runText, (file) => {
    // A first reservation, or a pending body on the one already reserved (both legal status records).
    file.status_comment =
      file.status_comment == null
        ? { issue_number: 7 + n, comment_id: null, body_digest: null, pending_digest: null }
        : { ...file.status_comment, pending_digest: `sha256:${n.toString(16).repeat(64)}` };
  });
  return store.append(
    { [RUN_PATH]: run, [PROVENANCE_PATH]: through },
    message
      .replace(/Writ-Transition: \S+/, 'Writ-Transition: status')
      .replace(/Writ-Transition-Id: \S+/, `Writ-Transition-Id: ${ZERO_ID}.${n}`),
  );
}

/** replay.test.ts's two-commit forgery: an illegal claim, then a status record claiming it proven. */
async function twoCommitForgery(): Promise<{ forged: string; files: Files; message: string }> {
  const plan = await proposePlanFor(ledger, 'run-1');
  await consumeApproval(ledger, {
    runId: 'run-1',
    approval: approvalFor(plan),
    plan: recomputed(plan),
    holder: HOLDER,
  });
  const first = planned(
    await claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me }, { dryRun: true }),
  );
  first.files[RUN_PATH] = edit<RunFile>(first.files[RUN_PATH]!, (run) => {
    run.state = 'proposed';
    run.approval = null;
  });
  const forged = store.append(first.files, first.message);
  claimProven(forged, first.files[PROVENANCE_PATH]!, first.files[RUN_PATH], first.message, 1);
  // The O(1) gate passes the forgery; only the full replay catches it.
  await readVerifiedRun(ledger, 'run-1');
  return { forged, ...first };
}

async function sweep(dryRun = false): Promise<ReturnType<typeof recoverRuns>> {
  const deps: RecoveryDeps = {
    // The sweep's full replay runs before any GitHub read besides the ledger: a frozen sweep makes none.
    github: null as unknown as RecoveryDeps['github'],
    ledger,
    logger: { info: () => undefined, warning: () => undefined, debug: () => undefined },
    observe: () => Promise.reject(new Error('not observed')),
  };
  return recoverRuns(deps, {
    repository: { owner: 'acme', repo: 'widgets' },
    serverUrl: 'https://github.com',
    holder: { workflow_run_id: 77, attempt: 1 },
    commandPrefix: 'writ:',
    allowedRoles: ['maintain'],
    requireDistinctApprover: false,
    appBotLogin: `${APP.slug}[bot]`,
    planFile: null,
    dryRun,
  });
}

/** Every gate refuses a frozen ledger with `ledger-frozen`, naming the forged commit. */
async function expectFrozen(forged: string): Promise<void> {
  const gates: Promise<unknown>[] = [
    readVerifiedRun(ledger, 'run-1'),
    readVerifiedRuns(ledger),
    verifyLedger(ledger, { mode: 'incremental' }),
    claimStep(ledger, { runId: 'run-1', stepId: 'step-1', epoch: 1, holder: me }),
    proposePlanFor(ledger, 'run-2'),
  ];
  for (const gate of gates) {
    const error = await refusalError(gate);
    expect(error.code).toBe('ledger-frozen');
    expect(error.message).toContain(forged);
    expect(error.details.commit).toBe(forged);
  }
}

describe('the sweep freezes a ledger the full replay refuses', () => {
  it('passes a proven ledger through and reports how many commits it replayed', async () => {
    await proposePlanFor(ledger, 'run-1');
    const report = await sweep(true);
    expect(report.ledger).toEqual({ proven: true, commits: 2 });
  });

  it('a dry run reports the freeze and writes nothing', async () => {
    const { forged } = await twoCommitForgery();
    const head = store.head;
    const report = await sweep(true);
    expect(report.ledger.proven).toBe(false);
    expect(store.head).toBe(head);
    await readVerifiedRun(ledger, 'run-1');
    expect(renderRecoverySummary(report)).toContain(forged);
  });

  it('freezes: every later gate refuses with the forged commit named, and the summary says so', async () => {
    const { forged } = await twoCommitForgery();
    const report = await sweep();
    if (report.ledger.proven) throw new Error('expected a freeze');
    expect(report.ledger.freeze.action).toBe('frozen');
    expect(report.ledger.freeze.freeze).toMatchObject({ commit: forged, code: 'ledger-provenance-unproven' });
    expect(report.scanned).toBe(0);
    const summary = renderRecoverySummary(report);
    expect(summary).toContain('LEDGER FROZEN');
    expect(summary).toContain(forged);
    expect(summary).toContain('ledger-frozen');
    await expectFrozen(forged);
    // The full check (`writ ledger verify`, doctor) refuses it too, naming the forged commit.
    const full = await refusalError(verifyLedger(ledger, { mode: 'full' }));
    expect(full.code).toBe('ledger-frozen');
    expect(full.message).toContain(forged);
    // The next sweep finds it frozen and writes nothing.
    const head = store.head;
    const again = await sweep();
    if (again.ledger.proven) throw new Error('expected a freeze');
    expect(again.ledger.freeze.action).toBe('already-frozen');
    expect(store.head).toBe(head);
  });

  it('through the recovery stage: refused as ledger-frozen, the freeze commit in the summary', async () => {
    const { forged } = await twoCommitForgery();
    const silent = { info: () => undefined, warning: () => undefined, debug: () => undefined };
    const stage = (dryRun: boolean) =>
      recoveryStage(
        {
          apiUrl: 'https://api.github.com',
          serverUrl: 'https://github.com',
          repository: { owner: 'acme', repo: 'widgets', full: 'acme/widgets' },
          dryRun,
          commandPrefix: 'writ:',
          ledger: { token: 'unused', branch: 'bot/writ-ledger', app: APP, leaseMs: policy.leaseMs },
          actionsToken: null,
          planFile: null,
          planRoots: { workspace: '/nonexistent', runnerTemp: undefined },
          allowedRoles: ['maintain'],
          requireDistinctApprover: false,
          holder: { workflow_run_id: 77, attempt: 1 },
        },
        {
          // A frozen sweep makes no GitHub read besides the ledger.
          github: null as unknown as RecoveryDeps['github'],
          actions: null as unknown as RecoveryDeps['github'],
          ledger,
          clock: instantClock,
          logger: silent,
          ownLogin: `${APP.slug}[bot]`,
          observe: () => Promise.reject(new Error('not observed')),
        },
      );
    const dry = await stage(true);
    expect(dry.outputs).toMatchObject({ outcome: 'refused', reason: 'ledger-frozen', scanned: 0 });
    expect(dry.summary).toContain('A sweep that writes would freeze the ledger (dry run: nothing written)');
    const frozen = await stage(false);
    expect(frozen.outputs).toMatchObject({ outcome: 'refused', reason: 'ledger-frozen', scanned: 0 });
    expect(frozen.summary).toContain(`commit \`${forged}\``);
    expect(frozen.summary).toMatch(/Writ froze the ledger with commit `[0-9a-f]{40}`/);
  });

  it('one commit that drops the freeze is refused at the next gate', async () => {
    const { forged, files, message } = await twoCommitForgery();
    await sweep();
    const frozenHead = store.head!;
    const frozenCheckpoint = store.commits.get(frozenHead)!.files.get(PROVENANCE_PATH)!;
    // Anchored on the freeze commit: refused as frozen.
    claimProven(frozenHead, frozenCheckpoint, files[RUN_PATH]!, message, 2);
    const error = await refusalError(readVerifiedRun(ledger, 'run-1'));
    expect(error.code).toBe('ledger-frozen');
    expect(error.details.commit).toBe(forged);
  });

  it('two commits that drop the freeze pass the O(1) gate until the next sweep, which freezes again', async () => {
    const { forged, files, message } = await twoCommitForgery();
    await sweep();
    const frozenHead = store.head!;
    const frozenCheckpoint = store.commits.get(frozenHead)!.files.get(PROVENANCE_PATH)!;
    const unfreeze = claimProven(frozenHead, frozenCheckpoint, files[RUN_PATH]!, message, 2);
    const written = store.commits.get(unfreeze)!.files;
    claimProven(unfreeze, written.get(PROVENANCE_PATH)!, written.get(RUN_PATH)!, message, 3);
    // The window the sweep bounds: the incremental gate anchors on the forger's claim.
    await readVerifiedRun(ledger, 'run-1');
    const report = await sweep();
    if (report.ledger.proven) throw new Error('expected a freeze');
    expect(report.ledger.freeze.action).toBe('frozen');
    // Still the first forged commit: the history below cannot be rewritten (the append-only ruleset).
    expect(report.ledger.freeze.freeze.commit).toBe(forged);
    await expectFrozen(forged);
  });

  it('does not freeze for a ruleset: a changed pinned ruleset refuses the sweep (and every gate) as it is', async () => {
    await proposePlanFor(ledger, 'run-1');
    const head = store.head;
    store.rulesets.set(1, { ...store.rulesets.get(1)!, enforcement: 'evaluate' });
    store.rules = store.rules.filter((rule) => rule.rulesetId !== 1);
    const error = await refusalError(sweep());
    expect(error.code).toBe('ledger-provenance-unproven');
    expect(error.details.ruleset).toBe(1);
    expect(store.head).toBe(head);
    expect((await refusalError(readVerifiedRun(ledger, 'run-1'))).code).toBe('ledger-provenance-unproven');
  });

  it('freezes on an unanswered commit only after reading back whether it landed', async () => {
    const { forged } = await twoCommitForgery();
    store.faults = ['apply-then-drop'];
    const outcome = await freezeLedger(ledger, await refusalError(verifyLedger(ledger, { mode: 'full' })));
    // The lost-response commit had landed: the read-back finds it and commits no second freeze.
    expect(outcome.action).toBe('already-frozen');
    expect(outcome.freeze.commit).toBe(forged);
    await expectFrozen(forged);
  });
});

describe('freezeLedger commits through the one compare-and-set loop (github/cas-loop.ts)', () => {
  /** Freeze commits on the branch, newest first. */
  function freezeCommits(): string[] {
    const oids: string[] = [];
    for (let oid = store.head; oid !== null; oid = store.commits.get(oid)?.parent ?? null) {
      if (store.commits.get(oid)?.info.message.includes('Writ-Transition: freeze')) oids.push(oid);
    }
    return oids;
  }

  it('re-reads after an unanswered commit that never landed and freezes once', async () => {
    const { forged } = await twoCommitForgery();
    const error = await refusalError(verifyLedger(ledger, { mode: 'full' }));
    store.faults = ['drop-before-apply'];
    const commitsBefore = store.calls.commit;
    const outcome = await freezeLedger(ledger, error);
    expect(outcome.action).toBe('frozen');
    expect(store.calls.commit - commitsBefore).toBe(2);
    expect(freezeCommits()).toEqual([outcome.commitOid]);
    await expectFrozen(forged);
  });

  it('a stale answer for a freeze that landed reads it back as already frozen, with no second freeze', async () => {
    const { forged } = await twoCommitForgery();
    store.faults = ['apply-then-stale'];
    const outcome = await freezeLedger(ledger, await refusalError(verifyLedger(ledger, { mode: 'full' })));
    expect(outcome.action).toBe('already-frozen');
    expect(freezeCommits()).toEqual([outcome.headOid]);
    await expectFrozen(forged);
  });

  it('after its last attempt, one more read finds a freeze that landed unanswered', async () => {
    const { forged } = await twoCommitForgery();
    const error = await refusalError(verifyLedger(ledger, { mode: 'full' }));
    const twice = createLedgerContext(
      { github: store, clock: instantClock },
      { repository: 'acme/widgets', app: APP, policy, seed: 1, maxAttempts: 2 },
    );
    store.faults = ['drop-before-apply', 'apply-then-drop'];
    const readsBefore = store.calls.read;
    const outcome = await freezeLedger(twice, error);
    expect(outcome.action).toBe('already-frozen');
    expect(store.calls.read - readsBefore).toBe(3);
    expect(freezeCommits()).toEqual([outcome.headOid]);
    await expectFrozen(forged);
  });

  it('refuses with ledger-cas-exhausted when no attempt landed, the ledger left as it was', async () => {
    await twoCommitForgery();
    const error = await refusalError(verifyLedger(ledger, { mode: 'full' }));
    const twice = createLedgerContext(
      { github: store, clock: instantClock },
      { repository: 'acme/widgets', app: APP, policy, seed: 1, maxAttempts: 2 },
    );
    const head = store.head;
    store.faults = ['drop-before-apply', 'drop-before-apply'];
    const exhausted = await refusalError(freezeLedger(twice, error));
    expect(exhausted.code).toBe('ledger-cas-exhausted');
    expect(exhausted.message).toContain('Freezing the ledger lost all 2 attempts');
    expect(store.head).toBe(head);
    expect(freezeCommits()).toEqual([]);
  });
});
