import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from './support/run-action.js';

const dir = join(repoRoot, 'workflows-templates');
const templates = readdirSync(dir).filter((name) => name.endsWith('.yml'));

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Job {
  permissions?: Record<string, string>;
  concurrency?: unknown;
  steps: Step[];
}
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

  it('gives GITHUB_TOKEN read access at most (the app token writes) and reads the app from variables', () => {
    for (const job of Object.values(workflow.jobs)) {
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

  it('hands Writ an app token, never GITHUB_TOKEN (which only reads Actions runs, as actions-token)', () => {
    const withoutActionsReads = text.replace(/^ {10}actions-token: \$\{\{ github\.token \}\}$/gm, '');
    expect(withoutActionsReads).not.toMatch(/secrets\.GITHUB_TOKEN|github\.token/);
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
