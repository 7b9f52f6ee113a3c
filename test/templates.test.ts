import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from './support/run-action.js';

const dir = join(repoRoot, 'workflows-templates');
const templates = readdirSync(dir).filter((name) => name.endsWith('.yml'));

interface Step {
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  permissions?: Record<string, string>;
  concurrency?: unknown;
  'timeout-minutes'?: number;
  outputs?: Record<string, string>;
  steps: Step[];
}

/** The one job GITHUB_TOKEN writes with: it starts the recovery workflow after a persist handover. */
const DISPATCH = 'gh workflow run writ-recovery.yml';
const dispatches = (job: Job): boolean => job.steps.some((step) => step.run === DISPATCH);
interface Workflow {
  permissions?: unknown;
  concurrency?: { group: string; 'cancel-in-progress': boolean };
  jobs: Record<string, Job>;
}

describe.each(templates)('workflows-templates/%s', (name) => {
  const text = readFileSync(join(dir, name), 'utf8');
  const workflow = parse(text) as Workflow;

  it('pins every action by a 40-hex commit SHA with a version comment', () => {
    const uses = text.split('\n').filter((line) => /^\s*(-\s+)?uses:/.test(line));
    expect(uses.length).toBeGreaterThan(0);
    for (const line of uses) expect(line).toMatch(/uses: [\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
  });

  it('grants nothing at the top and least privilege per job', () => {
    expect(workflow.permissions).toEqual({});
    for (const job of Object.values(workflow.jobs)) {
      expect(job.permissions).toBeDefined();
      // The handover job starts a workflow: actions: write, and nothing else.
      if (dispatches(job)) {
        expect(job.permissions).toEqual({ actions: 'write' });
        continue;
      }
      for (const [scope, level] of Object.entries(job.permissions ?? {})) {
        // actions: read only where a Writ step reads Actions runs with GITHUB_TOKEN (recovery's liveness).
        const readsActions = job.steps.some((step) => step.with?.['actions-token'] === '${{ github.token }}');
        expect(
          readsActions
            ? ['contents', 'pull-requests', 'issues', 'actions']
            : ['contents', 'pull-requests', 'issues'],
        ).toContain(scope);
        expect(['read', 'write']).toContain(level);
      }
    }
  });

  it('queues only the jobs that write, so an ordinary comment never cancels a waiting approval', () => {
    expect(workflow.concurrency).toBeUndefined();
    for (const job of Object.values(workflow.jobs)) {
      const writes = job.steps.some((step) => /^writ-actions\/writ\/actions\//.test(step.uses ?? ''));
      if (writes) {
        expect(job.concurrency).toEqual({
          group: expect.stringMatching(/^writ-[a-z]+-\$\{\{ github\.repository \}\}$/),
          'cancel-in-progress': false,
        });
      }
    }
  });

  it('gives GITHUB_TOKEN read access at most (the app token writes; the handover job only starts recovery) and reads the app from variables', () => {
    for (const job of Object.values(workflow.jobs)) {
      if (dispatches(job)) continue;
      for (const level of Object.values(job.permissions ?? {})) expect(level).toBe('read');
    }
    expect(text).not.toMatch(/WRIT_APP_ID: '\d+'/);
    if (name === 'writ-probe.yml') {
      // The probe writes only to the sandbox, with the sandbox-only secret: never the production app.
      expect(text).not.toMatch(/WRIT_APP_|create-github-app-token/);
      expect(text).toContain('token: ${{ secrets.WRIT_PROBE_SANDBOX_TOKEN }}');
      return;
    }
    expect(text).toContain('${{ vars.WRIT_APP_ID }}');
    expect(text).toContain('${{ vars.WRIT_APP_SLUG }}');
  });

  it('never interpolates event fields into a shell script and never persists checkout credentials', () => {
    for (const job of Object.values(workflow.jobs)) {
      for (const step of job.steps) {
        if (step.run !== undefined) expect(step.run).not.toMatch(/\$\{\{/);
        if (step.uses?.startsWith('actions/checkout@'))
          expect(step.with?.['persist-credentials']).toBe(false);
      }
    }
  });

  it('hands Writ an app token, never GITHUB_TOKEN (which only reads Actions runs, as actions-token, or starts recovery)', () => {
    const withoutActionsReads = text.replace(/^ {10}actions-token: \$\{\{ github\.token \}\}$/gm, '');
    const handover = Object.values(workflow.jobs).filter(dispatches).length;
    // The handover job's one step hands GITHUB_TOKEN to gh, through the environment.
    const dispatchTokens = withoutActionsReads.match(/^ {10}GH_TOKEN: \$\{\{ github\.token \}\}$/gm) ?? [];
    expect(dispatchTokens).toHaveLength(handover);
    expect(withoutActionsReads.replace(/^ {10}GH_TOKEN: \$\{\{ github\.token \}\}$/gm, '')).not.toMatch(
      /secrets\.GITHUB_TOKEN|github\.token/,
    );
  });
});

describe('the jobs that write for a run', () => {
  const load = (name: string): Record<string, Job & { if?: string; needs?: unknown; strategy?: unknown }> =>
    (parse(readFileSync(join(dir, name), 'utf8')) as { jobs: Record<string, Job & { if?: string }> }).jobs;

  it('writ-approval.yml: persist, publish and release run only after an approval (never for a reconcile or cancel command)', () => {
    const jobs = load('writ-approval.yml');
    for (const job of ['persist', 'publish', 'release']) {
      expect(jobs[job]?.if).toContain("needs.approve.outputs.outcome == 'approved'");
    }
    expect(jobs.persist?.if).toContain("vars.WRIT_PERSISTENCE_ENABLED == 'true'");
  });

  it('writ-recovery.yml: persist then publish each resumable run, as the lease holder recovery made them', () => {
    const jobs = load('writ-recovery.yml');
    for (const job of ['persist', 'publish']) {
      expect(jobs[job]?.strategy).toEqual({
        'max-parallel': 1,
        'fail-fast': false,
        matrix: { run: '${{ fromJSON(needs.recovery.outputs.resumable-runs) }}' },
      });
      const writ = jobs[job]?.steps.find(
        (step) => step.uses?.includes('/actions/') === true && step.uses.includes('writ'),
      );
      expect(writ?.with).toMatchObject({
        'run-id': '${{ matrix.run.run_id }}',
        epoch: '${{ matrix.run.epoch }}',
      });
    }
    expect(jobs.persist?.if).toContain("vars.WRIT_PERSISTENCE_ENABLED == 'true'");
    expect(jobs.publish?.needs).toEqual(['recovery', 'persist']);
    expect(jobs.publish?.if).toMatch(/^always\(\) && needs\.recovery\.result == 'success'/);
  });
});

/** actions/persist/action.yml's default time budget, in minutes. */
function defaultBudget(): number {
  const action = parse(readFileSync(join(repoRoot, 'actions/persist/action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string }>;
  };
  return Number(action.inputs['time-budget-minutes']?.default);
}

describe('a persist job that spends its time budget hands over at once', () => {
  const load = (name: string): Record<string, Job & { if?: string; needs?: unknown; strategy?: unknown }> =>
    (parse(readFileSync(join(dir, name), 'utf8')) as { jobs: Record<string, Job & { if?: string }> }).jobs;
  const persistStep = (job: Job): Step | undefined =>
    job.steps.find((step) => /\/actions\/persist@/.test(step.uses ?? ''));

  it.each(['writ-approval.yml', 'writ-recovery.yml'])(
    "%s: every persist job outlasts its time budget, inside GitHub's 6-hour job limit, in one concurrency group",
    (name) => {
      const jobs = Object.values(load(name)).filter((job) => persistStep(job) !== undefined);
      expect(jobs).toHaveLength(1);
      for (const job of jobs) {
        const budget = Number(persistStep(job)?.with?.['time-budget-minutes'] ?? defaultBudget());
        expect(budget).toBe(defaultBudget());
        expect(job['timeout-minutes']).toBeGreaterThan(budget);
        expect(job['timeout-minutes']).toBeLessThanOrEqual(360);
        // One group for every persist job of both workflows, never cancelled: persist jobs run one at a time.
        expect(job.concurrency).toEqual({
          group: 'writ-persist-${{ github.repository }}',
          'cancel-in-progress': false,
        });
      }
    },
  );

  it.each(['writ-approval.yml', 'writ-recovery.yml'])(
    '%s: the handover job starts the recovery workflow with GITHUB_TOKEN (actions: write only), through the environment',
    (name) => {
      const handover = load(name).handover;
      expect(handover?.permissions).toEqual({ actions: 'write' });
      expect(handover?.if).toMatch(/^always\(\) && /);
      expect(handover?.steps).toEqual([
        {
          name: 'Start the recovery workflow',
          env: { GH_TOKEN: '${{ github.token }}', GH_REPO: '${{ github.repository }}' },
          run: DISPATCH,
        },
      ]);
      // It checks nothing out and runs no action: no code from the repository or elsewhere sees the token.
      expect(handover?.steps.some((step) => step.uses !== undefined)).toBe(false);
    },
  );

  it('writ-recovery.yml can be started by that dispatch', () => {
    const workflow = parse(readFileSync(join(dir, 'writ-recovery.yml'), 'utf8')) as {
      on: Record<string, unknown>;
    };
    expect(Object.keys(workflow.on)).toContain('workflow_dispatch');
  });

  it('writ-approval.yml: the release job frees the lease after a handover, then the handover job dispatches', () => {
    const jobs = load('writ-approval.yml');
    // The release job runs for every approved persist that did not complete: a handover among them.
    expect(jobs.release?.if).toContain("needs.persist.outputs.outcome != 'completed'");
    expect(jobs.release?.if).not.toContain('handover');
    expect(jobs.handover?.needs).toEqual(['persist', 'release']);
    expect(jobs.handover?.if).toBe(
      "always() && needs.persist.outputs.outcome == 'handover' && needs.release.result == 'success'",
    );
  });

  it('writ-recovery.yml: each leg that hands over releases its own lease, and says so to the handover job', () => {
    const jobs = load('writ-recovery.yml');
    const persist = jobs.persist;
    expect(persistStep(persist!)?.id).toBe('persist');
    const release = persist?.steps.find((step) => step.id === 'handover-release');
    expect(release?.if).toBe("steps.persist.outputs.outcome == 'handover'");
    expect(release?.uses).toMatch(/\/actions\/claim-checkpoint@/);
    expect(release?.with).toMatchObject({
      operation: 'release',
      'run-id': '${{ matrix.run.run_id }}',
      epoch: '${{ matrix.run.epoch }}',
      'dry-run': 'false',
    });
    // Legs that did not hand over leave the output empty, which does not overwrite a leg's 'true'.
    expect(persist?.outputs?.handover).toBe(
      "${{ steps.handover-release.outcome == 'success' && 'true' || '' }}",
    );
    // After the publish job too: the dispatched sweep's takeover would fence a publish still running.
    expect(jobs.handover?.needs).toEqual(['persist', 'publish']);
    expect(jobs.handover?.if).toBe("always() && needs.persist.outputs.handover == 'true'");
  });
});
