/**
 * The persist step machine (persist/machine.ts) as tables: each case is a plan, the run file the gate
 * reads, and what each action observed; the case pins the actions the machine asks for, in order, and
 * how it finishes. Pure: no client, no ledger, no emulator (the executor's requests are pinned by
 * persist.test.ts, pre-state.test.ts and the e2e persist suites).
 */
import { describe, expect, it } from '@jest/globals';
import type { RunFile, RunStep, StepStatus } from '../../src/ledger/types.js';
import type {
  Action,
  Decision,
  MachineConfig,
  Observation,
  PersistState,
  Reading,
} from '../../src/persist/machine.js';
import { claimWindowFor, next, start, summaryOf } from '../../src/persist/machine.js';
import type { Plan, PlanStep } from '../../src/plan/types.js';

const EPOCH = 3;
const CONSUMED = '2026-11-25T10:00:00.000Z';
const CLAIM_TIME = Date.parse('2026-11-25T10:05:00.000Z');

const labels = (id: string, issue: number): PlanStep => ({ id, kind: 'issue.labels', issue, add: ['x'] });
const upsert = (id: string, key: string): PlanStep => ({ id, kind: 'milestone.upsert', key, title: key });
const create = (id: string): PlanStep => ({ id, kind: 'issue.create', title: id });
const external = (id: string): PlanStep => ({ id, kind: 'external', target: 'deploy' });

function planOf(steps: PlanStep[]): Plan {
  return { schema: 1, title: 'machine', scope: { repository: 'o/r' }, bounds: { max_steps: 50 }, steps };
}

type Marks = Record<string, StepStatus | [StepStatus, number | null]>;

function runOf(plan: Plan, marks: Marks = {}, state: RunFile['state'] = 'running'): RunFile {
  const steps: RunStep[] = plan.steps.map((step) => {
    const mark = marks[step.id] ?? 'pending';
    const [status, epoch] = Array.isArray(mark) ? mark : [mark, mark === 'pending' ? null : EPOCH];
    return {
      id: step.id,
      kind: step.kind,
      status,
      epoch,
      pre_state_digest: status === 'claimed' ? `sha256:${step.id}` : null,
      evidence: null,
      resources: status === 'done' ? [7] : [],
      reconciled_by: null,
    };
  });
  return {
    schema: 1,
    repository: 'o/r',
    run_id: 'run-1',
    plan_digest: 'sha256:plan',
    evidence_digest: null,
    scope: { repository: 'o/r', digest: 'sha256:scope' },
    bounds: { max_steps: 50 },
    state,
    approval: {
      actor_login: 'maintainer',
      actor_id: 1,
      role_name: 'admin',
      comment_id: 1,
      comment_url: 'https://example.test/c/1',
      digest: 'sha256:plan',
      consumed_at: CONSUMED,
      epoch: EPOCH,
    },
    owner: null,
    steps,
    stop_reason: null,
    blockers: [],
    proposed_at: CONSUMED,
  };
}

/** The run after a commit that marked `marks` (the ledger's answer the machine adopts). */
function after(run: RunFile, marks: Marks): RunFile {
  return {
    ...run,
    steps: run.steps.map((step) => {
      const mark = marks[step.id];
      if (mark === undefined) return step;
      const status = Array.isArray(mark) ? mark[0] : mark;
      return {
        ...step,
        status,
        epoch: EPOCH,
        pre_state_digest: status === 'claimed' ? `sha256:${step.id}` : step.pre_state_digest,
        resources: status === 'done' ? [7] : step.resources,
      };
    }),
  };
}

function reading(partial: Partial<Reading> = {}, id = ''): Reading {
  return {
    desired: false,
    resources: [],
    diff: [],
    inconclusive: null,
    notes: [],
    duplicates: [],
    digest: `sha256:${id}`,
    write: 'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
    receipt: null,
    ...partial,
  };
}

const gate = (run: RunFile, open = true): Observation => ({
  kind: 'gate',
  open,
  code: open ? null : 'github-conditional-mutation-not-proven',
  closed: open ? [] : [{ kind: 'issue.labels', why: 'not proven' }],
  run,
});
const pre = (id: string, partial: Partial<Reading> = {}): Observation => ({
  kind: 'read',
  reading: reading(partial, id),
});
const readFailed = (status?: number): Observation => ({ kind: 'read-failed', status, message: 'boom' });
const claimed = (run: RunFile | null): Observation => ({ kind: 'claimed', run, serverTime: CLAIM_TIME });
const answered = (status = 200, resource: number | null = 9): Observation => ({
  kind: 'write-answered',
  status,
  resource,
});
const refused = (status = 422): Observation => ({ kind: 'write-refused', status });
const ambiguous = (status?: number): Observation => ({ kind: 'write-ambiguous', status });
/**
 * A step's post-read verdict. The machine asks for a window's post-reads at once (`verify-window`) and
 * its pre-reads at once (`read-window`); the trace groups the per-step observations the cases list.
 */
type StepVerdict = { kind: 'verified'; observed: boolean } | { kind: 'verify-failed'; message: string };
type Fed = Observation | StepVerdict;
const verified = (observed = true): StepVerdict => ({ kind: 'verified', observed });
const verifyFailed = (): StepVerdict => ({ kind: 'verify-failed', message: 'x' });
const checkpointed = (run: RunFile | null): Observation => ({ kind: 'checkpointed', run });

/** One action, in a line: its kind and what distinguishes it. */
function show(action: Action): string {
  switch (action.kind) {
    case 'read':
      return `read ${action.purpose} ${action.stepId}${action.context.precheck ? ' precheck' : ''}`;
    case 'read-window':
      return `read pre-read ${action.stepIds.join(',')}`;
    case 'verify-window':
      return `verify ${action.entries.map((entry) => entry.stepId).join(',')}`;
    case 'claim':
      return `claim ${action.stepIds.join(',')}`;
    case 'write':
      return `write ${action.stepId} #${action.attempt}`;
    case 'retire-duplicates':
      return `retire ${action.duplicates.join(',')} keep ${action.keep}`;
    case 'checkpoint': {
      const steps = action.steps.map((step) => `${step.stepId}:${step.outcome}`).join(',');
      const finish = action.finish === null ? '' : ` finish ${action.finish.state}`;
      return `checkpoint ${steps}${finish}`.trimEnd();
    }
    case 'finish':
      return `finish ${action.outcome} ${action.reason}`.trimEnd();
    default:
      return action.kind;
  }
}

interface Trace {
  actions: Action[];
  shown: string[];
  state: PersistState;
  finish: Extract<Action, { kind: 'finish' }>;
}

/**
 * The observation a window action gets from the per-step ones listed next: a `read-window` takes one
 * read per step, up to and including the first that failed (the executor stops there); a
 * `verify-window` one verdict per entry.
 */
function grouped(action: Action, fed: Fed[]): { observation: Observation; used: number } {
  const first = fed[0] as Fed;
  if (action.kind === 'read-window') {
    const readings: Extract<Observation, { kind: 'window-read' }>['readings'] = [];
    for (const item of fed.slice(0, action.stepIds.length)) {
      if (item.kind === 'read') readings.push(item.reading);
      else if (item.kind === 'read-failed') {
        readings.push({ failed: true, status: item.status, message: item.message });
        break;
      } else break;
    }
    return { observation: { kind: 'window-read', readings }, used: readings.length };
  }
  if (action.kind === 'verify-window') {
    const results = fed
      .slice(0, action.entries.length)
      .map((item) =>
        item.kind === 'verified'
          ? { observed: item.observed }
          : { failed: item.kind === 'verify-failed' ? item.message : item.kind },
      );
    return { observation: { kind: 'window-verified', results }, used: results.length };
  }
  if (first.kind === 'verified' || first.kind === 'verify-failed')
    throw new Error(`a ${first.kind} fed to ${action.kind}`);
  return { observation: first, used: 1 };
}

/** Feeds the observations in, one per action; the machine must finish exactly when they run out. */
function trace(config: Partial<MachineConfig> & { plan: Plan }, observations: Fed[]): Trace {
  let decision: Decision = start({
    runId: 'run-1',
    epoch: EPOCH,
    maxSteps: 50,
    claimWindow: 1,
    dryRun: false,
    timeBudgetMs: null,
    ...config,
  });
  const actions: Action[] = [decision.action];
  let fed = observations;
  while (fed.length > 0) {
    if (decision.action.kind === 'finish')
      throw new Error(`finished before ${(fed[0] as Fed).kind}: ${actions.map(show).join(' | ')}`);
    const { observation, used } = grouped(decision.action, fed);
    fed = fed.slice(used);
    decision = next(decision.state, observation);
    actions.push(decision.action);
  }
  const finish = decision.action;
  if (finish.kind !== 'finish') throw new Error(`unfinished: ${actions.map(show).join(' | ')}`);
  return { actions, shown: actions.map(show), state: decision.state, finish };
}

const ONE = planOf([labels('a', 1)]);
const FRESH = runOf(ONE, {}, 'approved');
const CLAIMED_A = after(FRESH, { a: 'claimed' });
const DONE_A = after(FRESH, { a: 'done' });

interface Case {
  name: string;
  plan: Plan;
  config?: Partial<MachineConfig>;
  observations: Fed[];
  actions: string[];
  reason?: string;
}

describe('the persist step machine', () => {
  const gateCases: Case[] = [
    {
      name: 'gate closed: nothing is read or claimed',
      plan: ONE,
      observations: [gate(FRESH, false)],
      actions: ['read-gate', 'finish gate-closed github-conditional-mutation-not-proven'],
    },
    {
      name: 'run already completed',
      plan: ONE,
      observations: [gate(runOf(ONE, { a: 'done' }, 'completed'))],
      actions: ['read-gate', 'finish completed'],
    },
    {
      name: 'run needs reconciliation',
      plan: ONE,
      observations: [gate(runOf(ONE, { a: 'claimed' }, 'needs-reconciliation'))],
      actions: ['read-gate', 'finish stopped needs-reconciliation'],
    },
    {
      name: 'run cancelled (a stop was requested)',
      plan: ONE,
      observations: [gate(runOf(ONE, {}, 'cancelled'))],
      actions: ['read-gate', 'finish stopped invalid-transition'],
    },
  ];

  const writeCases: Case[] = [
    {
      name: 'fresh step: pre-read, claim, write, verify, checkpoint that completes the run',
      plan: ONE,
      observations: [gate(FRESH), pre('a'), claimed(CLAIMED_A), answered(), verified(), checkpointed(DONE_A)],
      actions: [
        'read-gate',
        'read pre-read a',
        'claim a',
        'write a #1',
        'verify a',
        'checkpoint a:done finish completed',
        'finish completed',
      ],
    },
    {
      name: 'desired already: done with no write',
      plan: ONE,
      observations: [
        gate(FRESH),
        pre('a', { desired: true, write: null }),
        claimed(CLAIMED_A),
        checkpointed(DONE_A),
      ],
      actions: [
        'read-gate',
        'read pre-read a',
        'claim a',
        'checkpoint a:done finish completed',
        'finish completed',
      ],
    },
    {
      name: 'pre-read differs from expect: conflict, no write',
      plan: ONE,
      observations: [
        gate(FRESH),
        pre('a', { diff: ['labels differ'] }),
        claimed(CLAIMED_A),
        checkpointed(null),
      ],
      actions: [
        'read-gate',
        'read pre-read a',
        'claim a',
        'checkpoint a:conflict finish failed',
        'finish stopped conflict',
      ],
    },
    {
      name: 'write refused (4xx): failed',
      plan: ONE,
      observations: [gate(FRESH), pre('a'), claimed(CLAIMED_A), refused(), checkpointed(null)],
      actions: [
        'read-gate',
        'read pre-read a',
        'claim a',
        'write a #1',
        'checkpoint a:failed finish failed',
        'finish stopped github-request-failed',
      ],
    },
    {
      name: 'write answered but the post-read shows nothing changed: silently dropped',
      plan: ONE,
      observations: [
        gate(FRESH),
        pre('a'),
        claimed(CLAIMED_A),
        answered(),
        verified(false),
        checkpointed(null),
      ],
      actions: [
        'read-gate',
        'read pre-read a',
        'claim a',
        'write a #1',
        'verify a',
        'checkpoint a:failed finish failed',
        'finish stopped write-silently-dropped',
      ],
    },
    {
      name: 'post-read failed: outcome unknown, the step stays claimed, no checkpoint',
      plan: ONE,
      observations: [gate(FRESH), pre('a'), claimed(CLAIMED_A), answered(), verifyFailed()],
      actions: [
        'read-gate',
        'read pre-read a',
        'claim a',
        'write a #1',
        'verify a',
        'finish stopped write-outcome-unknown',
      ],
    },
    {
      name: 'no answer, the read-back shows it landed: done',
      plan: ONE,
      observations: [
        gate(FRESH),
        pre('a'),
        claimed(CLAIMED_A),
        ambiguous(502),
        pre('a', { desired: true }),
        checkpointed(DONE_A),
      ],
      actions: [
        'read-gate',
        'read pre-read a',
        'claim a',
        'write a #1',
        'read read-back a precheck',
        'checkpoint a:done finish completed',
        'finish completed',
      ],
    },
    {
      name: 'no answer, the read-back shows the pre-state: sent once more, then answered',
      plan: ONE,
      observations: [
        gate(FRESH),
        pre('a'),
        claimed(CLAIMED_A),
        ambiguous(),
        pre('a'),
        answered(),
        verified(),
        checkpointed(DONE_A),
      ],
      actions: [
        'read-gate',
        'read pre-read a',
        'claim a',
        'write a #1',
        'read read-back a precheck',
        'write a #2',
        'verify a',
        'checkpoint a:done finish completed',
        'finish completed',
      ],
    },
    {
      name: 'no answer twice: outcome unknown after the second read-back',
      plan: ONE,
      observations: [gate(FRESH), pre('a'), claimed(CLAIMED_A), ambiguous(), pre('a'), ambiguous(), pre('a')],
      actions: [
        'read-gate',
        'read pre-read a',
        'claim a',
        'write a #1',
        'read read-back a precheck',
        'write a #2',
        'read read-back a precheck',
        'finish stopped write-outcome-unknown',
      ],
    },
    {
      name: 'no answer, the read-back conflicts: outcome unknown, never sent again',
      plan: ONE,
      observations: [gate(FRESH), pre('a'), claimed(CLAIMED_A), ambiguous(), pre('a', { diff: ['changed'] })],
      actions: [
        'read-gate',
        'read pre-read a',
        'claim a',
        'write a #1',
        'read read-back a precheck',
        'finish stopped write-outcome-unknown',
      ],
    },
    {
      name: 'no answer, the read-back drifted from the recorded pre-state: outcome unknown',
      plan: ONE,
      observations: [
        gate(FRESH),
        pre('a'),
        claimed(CLAIMED_A),
        ambiguous(),
        pre('a', { digest: 'sha256:other' }),
      ],
      actions: [
        'read-gate',
        'read pre-read a',
        'claim a',
        'write a #1',
        'read read-back a precheck',
        'finish stopped write-outcome-unknown',
      ],
    },
    {
      name: 'no answer, the read-back failed: outcome unknown',
      plan: ONE,
      observations: [gate(FRESH), pre('a'), claimed(CLAIMED_A), ambiguous(), readFailed(500)],
      actions: [
        'read-gate',
        'read pre-read a',
        'claim a',
        'write a #1',
        'read read-back a precheck',
        'finish stopped write-outcome-unknown',
      ],
    },
    {
      name: 'marker search inconclusive: nothing is created',
      plan: planOf([create('c')]),
      observations: [
        gate(runOf(planOf([create('c')]))),
        pre('c', { inconclusive: 'page-cap' }),
        claimed(null),
      ],
      actions: ['read-gate', 'read pre-read c', 'claim c', 'finish stopped precheck-inconclusive'],
    },
    {
      name: 'a step with no write to make: internal error',
      plan: ONE,
      observations: [gate(FRESH), pre('a', { write: null }), claimed(CLAIMED_A), checkpointed(null)],
      actions: [
        'read-gate',
        'read pre-read a',
        'claim a',
        'checkpoint a:failed finish failed',
        'finish stopped internal-error',
      ],
    },
    {
      name: 'the pre-read failed: stopped before claiming',
      plan: ONE,
      observations: [gate(FRESH), readFailed(503)],
      actions: ['read-gate', 'read pre-read a', 'finish stopped github-request-failed'],
    },
  ];

  const TWO = planOf([labels('a', 1), labels('b', 2)]);
  const TWO_RUN = runOf(TWO);
  const SAME_ISSUE = planOf([labels('a', 1), labels('b', 1)]);
  const SAME_RUN = runOf(SAME_ISSUE);
  const windowCases: Case[] = [
    {
      name: 'a window of two: pre-read together, one claim, writes, post-read together, one checkpoint',
      plan: TWO,
      config: { claimWindow: 10 },
      observations: [
        gate(TWO_RUN),
        pre('a'),
        pre('b'),
        claimed(after(TWO_RUN, { a: 'claimed', b: 'claimed' })),
        answered(),
        answered(),
        verified(),
        verified(),
        checkpointed(after(TWO_RUN, { a: 'done', b: 'done' })),
      ],
      actions: [
        'read-gate',
        'read pre-read a,b',
        'claim a,b',
        'write a #1',
        'write b #1',
        'verify a,b',
        'checkpoint a:done,b:done finish completed',
        'finish completed',
      ],
    },
    {
      name: 'a step that reads what an earlier one writes waits for the next window',
      plan: SAME_ISSUE,
      config: { claimWindow: 10 },
      observations: [
        gate(SAME_RUN),
        pre('a'),
        claimed(after(SAME_RUN, { a: 'claimed' })),
        answered(),
        verified(),
        checkpointed(after(SAME_RUN, { a: 'done' })),
        pre('b'),
        claimed(after(SAME_RUN, { a: 'done', b: 'claimed' })),
        answered(),
        verified(),
        checkpointed(after(SAME_RUN, { a: 'done', b: 'done' })),
      ],
      actions: [
        'read-gate',
        'read pre-read a',
        'claim a',
        'write a #1',
        'verify a',
        'checkpoint a:done',
        'read pre-read b',
        'claim b',
        'write b #1',
        'verify b',
        'checkpoint b:done finish completed',
        'finish completed',
      ],
    },
    {
      name: 'the second pre-read failed: the window is the first step only',
      plan: TWO,
      config: { claimWindow: 10 },
      observations: [
        gate(TWO_RUN),
        pre('a'),
        readFailed(),
        claimed(after(TWO_RUN, { a: 'claimed' })),
        answered(),
        verified(),
        checkpointed(after(TWO_RUN, { a: 'done' })),
        readFailed(),
      ],
      actions: [
        'read-gate',
        'read pre-read a,b',
        'claim a',
        'write a #1',
        'verify a',
        'checkpoint a:done',
        'read pre-read b',
        'finish stopped github-request-failed',
      ],
    },
    {
      name: 'a failure stops the window: the rest is checkpointed as not attempted',
      plan: TWO,
      config: { claimWindow: 10 },
      observations: [
        gate(TWO_RUN),
        pre('a'),
        pre('b'),
        claimed(after(TWO_RUN, { a: 'claimed', b: 'claimed' })),
        refused(),
        checkpointed(null),
      ],
      actions: [
        'read-gate',
        'read pre-read a,b',
        'claim a,b',
        'write a #1',
        'checkpoint a:failed,b:failed finish failed',
        'finish stopped github-request-failed',
      ],
    },
    {
      name: 'budget spent (max-steps 1): stopped after one window, no reason',
      plan: TWO,
      config: { claimWindow: 10, maxSteps: 1 },
      observations: [
        gate(TWO_RUN),
        pre('a'),
        claimed(after(TWO_RUN, { a: 'claimed' })),
        answered(),
        verified(),
        checkpointed(after(TWO_RUN, { a: 'done' })),
      ],
      actions: [
        'read-gate',
        'read pre-read a',
        'claim a',
        'write a #1',
        'verify a',
        'checkpoint a:done',
        'finish stopped',
      ],
    },
    {
      name: 'an external step next: waiting, nothing claimed',
      plan: planOf([external('e'), labels('a', 1)]),
      observations: [gate(runOf(planOf([external('e'), labels('a', 1)])))],
      actions: ['read-gate', 'finish waiting-external'],
    },
    {
      name: 'an external step ends a window before it',
      plan: planOf([labels('a', 1), external('e')]),
      config: { claimWindow: 10 },
      observations: [
        gate(runOf(planOf([labels('a', 1), external('e')]))),
        pre('a'),
        claimed(null),
        answered(),
        verified(),
        checkpointed(runOf(planOf([labels('a', 1), external('e')]), { a: 'done' })),
      ],
      actions: [
        'read-gate',
        'read pre-read a',
        'claim a',
        'write a #1',
        'verify a',
        'checkpoint a:done',
        'finish waiting-external',
      ],
    },
    {
      name: 'every step done but the run not completed: complete-run',
      plan: ONE,
      observations: [gate(runOf(ONE, { a: 'done' })), { kind: 'completed', run: null }],
      actions: ['read-gate', 'complete-run', 'finish completed'],
    },
    {
      name: 'a failed step and nothing pending: the run cannot complete',
      plan: TWO,
      observations: [gate(runOf(TWO, { a: 'done', b: 'failed' }))],
      actions: ['read-gate', 'finish stopped invalid-transition'],
    },
  ];

  const resumeCases: Case[] = [
    {
      name: 'resume after a crash between claim and write: read with the pre-check, then written',
      plan: ONE,
      observations: [gate(CLAIMED_A), pre('a'), answered(), verified(), checkpointed(DONE_A)],
      actions: [
        'read-gate',
        'read read a precheck',
        'write a #1',
        'verify a',
        'checkpoint a:done finish completed',
        'finish completed',
      ],
    },
    {
      name: 'resume after a crash between write and checkpoint: the read finds it done, no write',
      plan: ONE,
      observations: [gate(CLAIMED_A), pre('a', { desired: true }), checkpointed(DONE_A)],
      actions: [
        'read-gate',
        'read read a precheck',
        'checkpoint a:done finish completed',
        'finish completed',
      ],
    },
    {
      name: 'resume after a crash between checkpoint and the next claim: the next step is claimed',
      plan: TWO,
      observations: [
        gate(runOf(TWO, { a: 'done' })),
        pre('b'),
        claimed(null),
        answered(),
        verified(),
        checkpointed(runOf(TWO, { a: 'done', b: 'done' })),
      ],
      actions: [
        'read-gate',
        'read pre-read b',
        'claim b',
        'write b #1',
        'verify b',
        'checkpoint b:done finish completed',
        'finish completed',
      ],
    },
    {
      name: 'resume: the pre-state drifted from the one the claim recorded',
      plan: ONE,
      observations: [gate(CLAIMED_A), pre('a', { digest: 'sha256:changed' })],
      actions: ['read-gate', 'read read a precheck', 'finish stopped pre-state-drift'],
    },
    {
      name: 'resume: what it reads differs from expect, for a repository writer to reconcile',
      plan: ONE,
      observations: [gate(CLAIMED_A), pre('a', { diff: ['changed'] })],
      actions: ['read-gate', 'read read a precheck', 'finish stopped needs-reconciliation'],
    },
    {
      name: 'resume: the read failed',
      plan: ONE,
      observations: [gate(CLAIMED_A), readFailed()],
      actions: ['read-gate', 'read read a precheck', 'finish stopped github-request-failed'],
    },
    {
      name: 'resume: claimed by another epoch',
      plan: ONE,
      observations: [gate(runOf(ONE, { a: ['claimed', EPOCH - 1] }))],
      actions: ['read-gate', 'finish stopped needs-reconciliation'],
    },
    {
      name: 'resume: a claimed external step is waiting',
      plan: planOf([external('e')]),
      observations: [gate(runOf(planOf([external('e')]), { e: 'claimed' }))],
      actions: ['read-gate', 'finish waiting-external'],
    },
    {
      name: 'resume of a create: the claim time is read first',
      plan: planOf([create('c')]),
      observations: [
        gate(runOf(planOf([create('c')]), { c: 'claimed' })),
        { kind: 'claim-time', at: CLAIM_TIME },
        pre('c', { desired: true, resources: [12] }),
        checkpointed(runOf(planOf([create('c')]), { c: 'done' })),
      ],
      actions: [
        'read-gate',
        'read-claim-time',
        'read read c precheck',
        'checkpoint c:done finish completed',
        'finish completed',
      ],
    },
    {
      name: 'desired with later duplicates: they are retired, oldest wins',
      plan: planOf([create('c')]),
      observations: [
        gate(runOf(planOf([create('c')]), { c: 'claimed' })),
        { kind: 'claim-time', at: null },
        pre('c', { desired: true, resources: [12], duplicates: [13, 14] }),
        { kind: 'retired', left: [14] },
        checkpointed(null),
      ],
      actions: [
        'read-gate',
        'read-claim-time',
        'read read c precheck',
        'retire 13,14 keep 12',
        'checkpoint c:done finish completed',
        'finish completed',
      ],
    },
  ];

  const dryCases: Case[] = [
    {
      name: 'dry run: one read per open step, nothing claimed or written',
      plan: TWO,
      config: { dryRun: true },
      observations: [gate(TWO_RUN), pre('a'), pre('b', { desired: true })],
      actions: ['read-gate', 'read dry-run a', 'read dry-run b', 'finish dry-run'],
    },
    {
      name: 'dry run within the budget, up to an external step',
      plan: planOf([labels('a', 1), external('e'), labels('b', 2)]),
      config: { dryRun: true, maxSteps: 5 },
      observations: [gate(runOf(planOf([labels('a', 1), external('e'), labels('b', 2)]))), pre('a')],
      actions: ['read-gate', 'read dry-run a', 'finish dry-run'],
    },
    {
      name: 'dry run: max-steps 1 reads one step',
      plan: TWO,
      config: { dryRun: true, maxSteps: 1 },
      observations: [gate(TWO_RUN), pre('a')],
      actions: ['read-gate', 'read dry-run a', 'finish dry-run'],
    },
  ];

  const limited = (retryAfterSeconds: number | null = 60): Observation => ({
    kind: 'write-limited',
    status: 403,
    retryAfterSeconds,
  });
  const clock = (now: number): Observation => ({ kind: 'clock', now });
  const scaleCases: Case[] = [
    {
      name: 'a write refused after another was answered: the answered one is still post-read',
      plan: TWO,
      config: { claimWindow: 10 },
      observations: [
        gate(TWO_RUN),
        pre('a'),
        pre('b'),
        claimed(after(TWO_RUN, { a: 'claimed', b: 'claimed' })),
        answered(),
        refused(),
        verified(),
        checkpointed(null),
      ],
      actions: [
        'read-gate',
        'read pre-read a,b',
        'claim a,b',
        'write a #1',
        'write b #1',
        'verify a',
        'checkpoint a:done,b:failed finish failed',
        'finish stopped github-request-failed',
      ],
    },
    {
      name: 'the window post-read: a silently dropped write stops the run at it, the later one is done',
      plan: TWO,
      config: { claimWindow: 10 },
      observations: [
        gate(TWO_RUN),
        pre('a'),
        pre('b'),
        claimed(after(TWO_RUN, { a: 'claimed', b: 'claimed' })),
        answered(),
        answered(),
        verified(false),
        verified(),
        checkpointed(null),
      ],
      actions: [
        'read-gate',
        'read pre-read a,b',
        'claim a,b',
        'write a #1',
        'write b #1',
        'verify a,b',
        'checkpoint a:failed,b:done finish failed',
        'finish stopped write-silently-dropped',
      ],
      reason: 'write-silently-dropped',
    },
    {
      name: 'the window post-read failed for one step: it stays claimed, the other is checkpointed',
      plan: TWO,
      config: { claimWindow: 10 },
      observations: [
        gate(TWO_RUN),
        pre('a'),
        pre('b'),
        claimed(after(TWO_RUN, { a: 'claimed', b: 'claimed' })),
        answered(),
        answered(),
        verified(),
        verifyFailed(),
        checkpointed(null),
      ],
      actions: [
        'read-gate',
        'read pre-read a,b',
        'claim a,b',
        'write a #1',
        'write b #1',
        'verify a,b',
        'checkpoint a:done',
        'finish stopped write-outcome-unknown',
      ],
    },
    {
      name: 'the secondary rate limit: read back, then sent again (not counted as a resend), then done',
      plan: ONE,
      observations: [
        gate(FRESH),
        pre('a'),
        claimed(CLAIMED_A),
        limited(),
        pre('a'),
        ambiguous(),
        pre('a'),
        answered(),
        verified(),
        checkpointed(DONE_A),
      ],
      actions: [
        'read-gate',
        'read pre-read a',
        'claim a',
        'write a #1',
        'read read-back a precheck',
        'write a #2',
        'read read-back a precheck',
        'write a #3',
        'verify a',
        'checkpoint a:done finish completed',
        'finish completed',
      ],
    },
    {
      name: 'the secondary rate limit, and the read-back shows the write landed after all: done, never resent',
      plan: ONE,
      observations: [
        gate(FRESH),
        pre('a'),
        claimed(CLAIMED_A),
        limited(),
        pre('a', { desired: true }),
        checkpointed(DONE_A),
      ],
      actions: [
        'read-gate',
        'read pre-read a',
        'claim a',
        'write a #1',
        'read read-back a precheck',
        'checkpoint a:done finish completed',
        'finish completed',
      ],
    },
    {
      name: 'the secondary rate limit again and again: the step stays claimed and the run stops, resumable',
      plan: ONE,
      observations: [
        gate(FRESH),
        pre('a'),
        claimed(CLAIMED_A),
        limited(),
        pre('a'),
        limited(),
        pre('a'),
        limited(),
        pre('a'),
        limited(),
      ],
      actions: [
        'read-gate',
        'read pre-read a',
        'claim a',
        'write a #1',
        'read read-back a precheck',
        'write a #2',
        'read read-back a precheck',
        'write a #3',
        'read read-back a precheck',
        'write a #4',
        'finish stopped secondary-rate-limit',
      ],
    },
    {
      name: 'the time budget: a window is claimed while the time spent plus the longest window fits',
      plan: TWO,
      config: { timeBudgetMs: 1_000 },
      observations: [
        gate(TWO_RUN),
        clock(5_000),
        pre('a'),
        claimed(after(TWO_RUN, { a: 'claimed' })),
        answered(),
        verified(),
        checkpointed(after(TWO_RUN, { a: 'done' })),
        clock(5_400),
        pre('b'),
        claimed(after(TWO_RUN, { a: 'done', b: 'claimed' })),
        answered(),
        verified(),
        checkpointed(after(TWO_RUN, { a: 'done', b: 'done' })),
      ],
      actions: [
        'read-gate',
        'read-clock',
        'read pre-read a',
        'claim a',
        'write a #1',
        'verify a',
        'checkpoint a:done',
        'read-clock',
        'read pre-read b',
        'claim b',
        'write b #1',
        'verify b',
        'checkpoint b:done finish completed',
        'finish completed',
      ],
    },
    {
      name: 'the time budget spent: handed over before the next window, nothing claimed',
      plan: TWO,
      config: { timeBudgetMs: 1_000 },
      observations: [
        gate(TWO_RUN),
        clock(5_000),
        pre('a'),
        claimed(after(TWO_RUN, { a: 'claimed' })),
        answered(),
        verified(),
        checkpointed(after(TWO_RUN, { a: 'done' })),
        clock(5_600),
      ],
      actions: [
        'read-gate',
        'read-clock',
        'read pre-read a',
        'claim a',
        'write a #1',
        'verify a',
        'checkpoint a:done',
        'read-clock',
        'finish handover',
      ],
    },
  ];

  describe.each([
    ['at scale: window post-reads, the secondary rate limit, the time budget', scaleCases],
    ['the gate and the run state', gateCases],
    ['one step: claim, write, read-back', writeCases],
    ['windows, budget, external steps', windowCases],
    ['resume after a crash', resumeCases],
    ['dry run', dryCases],
  ])('%s', (_title, cases) => {
    it.each(cases.map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => {
      const run = trace({ plan: entry.plan, ...entry.config }, entry.observations);
      expect(run.shown).toEqual(entry.actions);
    });
  });

  it.each([
    [1, null, 1],
    [7, null, 3],
    [50, null, 8],
    [200, null, 15],
    [362, null, 20],
    [1000, null, 20],
    [1000, 5, 5],
  ])('claims windows of claimWindowFor(%i steps, setting %p) = %i', (steps, setting, window) => {
    const plan = planOf(Array.from({ length: steps }, (_, at) => labels(`s${at}`, at + 1)));
    expect(claimWindowFor(plan, setting)).toBe(window);
  });

  it('warns of the handover with the budget and the steps left', () => {
    const run = trace({ plan: TWO, timeBudgetMs: 60_000 }, [
      gate(TWO_RUN),
      { kind: 'clock', now: 0 },
      pre('a'),
      claimed(after(TWO_RUN, { a: 'claimed' })),
      answered(),
      verified(),
      checkpointed(after(TWO_RUN, { a: 'done' })),
      { kind: 'clock', now: 60_000 },
    ]);
    expect(run.finish).toMatchObject({ outcome: 'handover', reason: '', refusal: null });
    expect(run.finish.warnings).toEqual([
      'the time budget (1 min) is spent with 1 of 2 steps left: handing over',
    ]);
  });

  it('finishes with the refusal the action reports: code, message and the step it stopped at', () => {
    const run = trace({ plan: ONE }, [
      gate(FRESH),
      pre('a'),
      claimed(CLAIMED_A),
      refused(403),
      checkpointed(null),
    ]);
    expect(run.finish.refusal).toEqual({
      code: 'github-request-failed',
      message:
        'run run-1 stopped at step a: GitHub refused PATCH /repos/{owner}/{repo}/issues/{issue_number} with HTTP 403',
    });
    expect(run.state.reports).toEqual([
      {
        id: 'a',
        kind: 'issue.labels',
        result: 'failed',
        write: 'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
        statusCode: 403,
        errorCode: 'http-403',
        resources: [],
        diff: ['GitHub refused PATCH /repos/{owner}/{repo}/issues/{issue_number} with HTTP 403'],
        notes: [],
        writes: 1,
        receipt: null,
      },
    ]);
    const checkpoint = run.actions.find((action) => action.kind === 'checkpoint');
    expect(checkpoint).toMatchObject({
      steps: [{ stepId: 'a', outcome: 'failed', evidence: { status_code: 403, error_code: 'http-403' } }],
      finish: { state: 'failed', stopReason: 'github-request-failed' },
    });
  });

  it('the gate closed names each closed kind', () => {
    const run = trace({ plan: ONE }, [gate(FRESH, false)]);
    expect(run.finish.refusal?.message).toBe(
      'the persistence gate is closed for issue.labels (not proven); nothing was written',
    );
  });

  it('an unanswered write that landed reports its status code; the read-back is not counted as a write', () => {
    const run = trace({ plan: ONE }, [
      gate(FRESH),
      pre('a'),
      claimed(CLAIMED_A),
      ambiguous(502),
      pre('a', { desired: true, resources: [1] }),
      checkpointed(DONE_A),
    ]);
    expect(run.state.reports[0]).toMatchObject({
      result: 'done',
      statusCode: 502,
      writes: 1,
      resources: [1],
    });
    const noResponse = trace({ plan: ONE }, [
      gate(FRESH),
      pre('a'),
      claimed(CLAIMED_A),
      ambiguous(),
      pre('a'),
      ambiguous(),
      pre('a', { desired: true }),
      checkpointed(DONE_A),
    ]);
    expect(noResponse.state.reports[0]).toMatchObject({ result: 'done', statusCode: null, writes: 2 });
  });

  it('warns of a failed pre-read, an unanswered write and a failed post-read before the next action', () => {
    const preRead = trace({ plan: ONE }, [gate(FRESH), readFailed(503)]);
    expect(preRead.finish.warnings).toEqual(['step a: reading its pre-state failed: boom']);
    expect(preRead.finish.refusal?.message).toBe(
      'run run-1 stopped before claiming step a: reading its pre-state failed (http-503)',
    );
    const unanswered = trace({ plan: ONE }, [
      gate(FRESH),
      pre('a'),
      claimed(CLAIMED_A),
      ambiguous(),
      pre('a', { desired: true }),
      checkpointed(DONE_A),
    ]);
    expect(unanswered.actions[4]?.warnings).toEqual([
      'step a: PATCH /repos/{owner}/{repo}/issues/{issue_number} had no definite answer (no-response); reading back',
    ]);
    const postRead = trace({ plan: ONE }, [
      gate(FRESH),
      pre('a'),
      claimed(CLAIMED_A),
      answered(),
      { kind: 'verify-failed', message: 'gone' },
    ]);
    expect(postRead.finish.warnings).toEqual(['step a: the post-read failed: gone']);
  });

  it("reads a create's marker pre-check from the approval, then from the window's claim time", () => {
    const plan = planOf([create('c'), create('d')]);
    const run = runOf(plan);
    const traced = trace({ plan, claimWindow: 1 }, [
      gate(run),
      pre('c'),
      claimed(after(run, { c: 'claimed' })),
      answered(201, 40),
      verified(),
      checkpointed(after(run, { c: 'done' })),
      pre('d'),
      claimed(after(run, { c: 'done', d: 'claimed' })),
      answered(201, 41),
      verified(),
      checkpointed(after(run, { c: 'done', d: 'done' })),
    ]);
    const reads = traced.actions.filter((action) => action.kind === 'read-window');
    expect(reads.map((action) => action.context.createdAfter)).toEqual([
      CONSUMED,
      new Date(CLAIM_TIME).toISOString(),
    ]);
    expect(summaryOf(traced.state)).toMatchObject({
      created: { c: 7, d: 7 },
      stepsDone: 2,
      ledgerCommits: 4,
    });
  });

  it("learns a milestone upsert's number for the marker keys of later reads", () => {
    const plan = planOf([upsert('m', 'roadmap:v1'), labels('a', 1)]);
    const run = runOf(plan);
    const traced = trace({ plan }, [
      gate(run),
      pre('m'),
      claimed(after(run, { m: 'claimed' })),
      answered(201, 5),
      verified(),
      checkpointed(after(run, { m: 'done' })),
      pre('a'),
      claimed(null),
      answered(),
      verified(),
      checkpointed(null),
    ]);
    const reads = traced.actions.filter((action) => action.kind === 'read-window');
    expect(reads.map((action) => [...action.context.milestoneKeys])).toEqual([[], [['roadmap:v1', 5]]]);
  });

  it('is pure: a decision leaves the state it was given as it was', () => {
    const first = start({
      runId: 'run-1',
      epoch: EPOCH,
      plan: ONE,
      maxSteps: 5,
      claimWindow: 1,
      dryRun: false,
      timeBudgetMs: null,
    });
    const frozen = JSON.stringify(first.state);
    const second = next(first.state, gate(FRESH));
    expect(JSON.stringify(first.state)).toBe(frozen);
    const window: Observation = { kind: 'window-read', readings: [reading({}, 'a')] };
    const third = next(second.state, window);
    const again = next(second.state, window);
    expect(again).toEqual(third);
    expect(() => next(third.state, answered())).toThrow('expected a claimed observation');
  });
});

describe("a create's receipt", () => {
  const C = planOf([create('c')]);
  const KEY = 'sha256:c0ffee';
  const key = (found: boolean, scope: 'repository' | 'run' = 'repository'): Reading['receipt'] => ({
    key: KEY,
    scope,
    found,
  });
  const withReceipt = (run: RunFile, receipt: RunStep['receipt']): RunFile => ({
    ...run,
    steps: run.steps.map((step) => (receipt === undefined ? step : { ...step, receipt })),
  });
  const checkpointOf = (t: Trace) => t.actions.find((action) => action.kind === 'checkpoint');
  const claimOf = (t: Trace) => t.actions.find((action) => action.kind === 'claim');

  it('a fresh create that finds nothing: the claim records the key to be created, the checkpoint `created`', () => {
    const fresh = runOf(C, {}, 'approved');
    const claimedRun = withReceipt(after(fresh, { c: 'claimed' }), {
      idempotency_key: KEY,
      key_scope: 'repository',
      outcome: null,
    });
    const t = trace({ plan: C }, [
      gate(fresh),
      pre('c', { receipt: key(false), write: 'POST /repos/{owner}/{repo}/issues' }),
      claimed(claimedRun),
      answered(201, 9),
      verified(),
      checkpointed(after(claimedRun, { c: 'done' })),
    ]);
    expect(t.finish.outcome).toBe('completed');
    expect(claimOf(t)).toMatchObject({
      receipts: { c: { idempotency_key: KEY, key_scope: 'repository', outcome: null } },
    });
    expect(checkpointOf(t)).toMatchObject({
      steps: [
        { stepId: 'c', receipt: { idempotency_key: KEY, key_scope: 'repository', outcome: 'created' } },
      ],
    });
    expect(t.state.reports[0]?.receipt?.outcome).toBe('created');
    expect(summaryOf(t.state).receipts).toEqual([
      {
        step: 'c',
        kind: 'issue.create',
        idempotency_key: KEY,
        key_scope: 'repository',
        outcome: 'created',
        resource: 7,
      },
    ]);
  });

  it("a fresh create that finds Writ's own earlier item: `exists`, no write", () => {
    const fresh = runOf(C, {}, 'approved');
    const t = trace({ plan: C }, [
      gate(fresh),
      pre('c', { receipt: key(true), desired: true, resources: [4], digest: null }),
      claimed(after(fresh, { c: 'claimed' })),
      checkpointed(after(fresh, { c: 'done' })),
    ]);
    expect(t.shown).not.toContain('write c #1');
    expect(claimOf(t)).toMatchObject({ receipts: { c: { outcome: 'exists' } } });
    expect(checkpointOf(t)).toMatchObject({ steps: [{ stepId: 'c', receipt: { outcome: 'exists' } }] });
  });

  it('an inconclusive pre-check: the claim records `inconclusive`, nothing is written, the run stops', () => {
    const fresh = runOf(C, {}, 'approved');
    const t = trace({ plan: C }, [
      gate(fresh),
      pre('c', { receipt: key(false), inconclusive: 'page-cap' }),
      claimed(after(fresh, { c: 'claimed' })),
    ]);
    expect(t.shown).toEqual([
      'read-gate',
      'read pre-read c',
      'claim c',
      'finish stopped precheck-inconclusive',
    ]);
    expect(claimOf(t)).toMatchObject({ receipts: { c: { outcome: 'inconclusive' } } });
    expect(t.state.reports[0]?.receipt?.outcome).toBe('inconclusive');
    expect(summaryOf(t.state).receipts[0]?.outcome).toBe('inconclusive');
  });

  it("the policy's key scope reaches a fresh window's pre-reads", () => {
    const fresh = runOf(C, {}, 'approved');
    const t = trace({ plan: C }, [
      { ...gate(fresh), keyScope: 'run' } as Observation,
      pre('c', { receipt: key(false, 'run'), inconclusive: 'read-failed' }),
      claimed(after(fresh, { c: 'claimed' })),
    ]);
    const read = t.actions.find((action) => action.kind === 'read-window');
    expect(read).toMatchObject({ context: { keyScope: 'run', precheck: false } });
    expect(claimOf(t)).toMatchObject({ receipts: { c: { key_scope: 'run', outcome: 'inconclusive' } } });
  });

  const resumed = (recorded: RunStep['receipt'], policy: 'repository' | 'run' = 'repository'): Trace => {
    const claimedRun = withReceipt(runOf(C, { c: 'claimed' }), recorded);
    return trace({ plan: C }, [
      { ...gate(claimedRun), keyScope: policy } as Observation,
      { kind: 'claim-time', at: CLAIM_TIME },
      pre('c', { receipt: key(true, recorded?.key_scope ?? 'repository'), desired: true, resources: [4] }),
      checkpointed(after(claimedRun, { c: 'done' })),
    ]);
  };

  it('a resumed create found after a claim that expected to create it: `created` (an earlier invocation sent it)', () => {
    const t = resumed({ idempotency_key: KEY, key_scope: 'run', outcome: null }, 'repository');
    // The claimed step is read with the scope its claim recorded, not the policy's.
    expect(t.actions.find((action) => action.kind === 'read')).toMatchObject({
      context: { keyScope: 'run', precheck: true },
    });
    expect(checkpointOf(t)).toMatchObject({ steps: [{ receipt: { key_scope: 'run', outcome: 'created' } }] });
  });

  it('a resumed create found after an inconclusive or exists claim: `exists` (nothing was sent for it)', () => {
    for (const outcome of ['inconclusive', 'exists'] as const) {
      const t = resumed({ idempotency_key: KEY, key_scope: 'repository', outcome });
      expect(checkpointOf(t)).toMatchObject({ steps: [{ receipt: { outcome: 'exists' } }] });
    }
  });

  it('a resumed create claimed before receipts existed: read with the repository scope, `created` when found', () => {
    // Even under a `run` policy now: its key was derived, and its item marked, the repository way.
    const t = resumed(undefined, 'run');
    expect(t.actions.find((action) => action.kind === 'read')).toMatchObject({
      context: { keyScope: 'repository' },
    });
    expect(checkpointOf(t)).toMatchObject({ steps: [{ receipt: { outcome: 'created' } }] });
  });

  it("an upsert that found Writ's own item and rewrote it: `exists` (an update, not a create)", () => {
    const U = planOf([upsert('u', 'roadmap')]);
    const fresh = runOf(U, {}, 'approved');
    const t = trace({ plan: U }, [
      gate(fresh),
      pre('u', { receipt: { key: 'roadmap', scope: 'repository', found: true }, resources: [2] }),
      claimed(after(fresh, { u: 'claimed' })),
      answered(200, 2),
      verified(),
      checkpointed(after(fresh, { u: 'done' })),
    ]);
    expect(checkpointOf(t)).toMatchObject({
      steps: [{ receipt: { idempotency_key: 'roadmap', outcome: 'exists' } }],
    });
  });

  it('a step that creates nothing has no receipt; a dry run reports what the pre-read found', () => {
    const t = trace({ plan: ONE }, [
      gate(FRESH),
      pre('a'),
      claimed(CLAIMED_A),
      answered(),
      verified(),
      checkpointed(DONE_A),
    ]);
    expect(checkpointOf(t)).toMatchObject({ steps: [{ stepId: 'a' }] });
    expect((checkpointOf(t) as { steps: { receipt?: unknown }[] }).steps[0]?.receipt).toBeUndefined();
    expect(summaryOf(t.state).receipts).toEqual([]);
    const dry = trace({ plan: C, dryRun: true }, [
      gate(runOf(C, {}, 'approved')),
      pre('c', { receipt: key(true), desired: true }),
    ]);
    expect(dry.state.reports[0]).toMatchObject({ result: 'no-op', receipt: { outcome: 'exists' } });
  });
});
