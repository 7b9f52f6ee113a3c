import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { WritError } from '../packages/core/src/errors.js';
import { defaultConfig } from '../packages/core/src/setup/files.js';
import { APP_PERMISSIONS } from '../packages/core/src/setup/owner-steps.js';
import type { JobPermissions } from '../packages/core/src/setup/permissions.js';
import {
  appTokenInputs,
  JOB_PERMISSIONS,
  jobPermissions,
  PERMISSIONS_END,
  PERMISSIONS_START,
  renderPermissionsTable,
  withPermissionsTable,
} from '../packages/core/src/setup/permissions.js';
import { validateEnvironmentName } from '../packages/core/src/setup/environment-name.js';
import { PLACEHOLDER_REF, renderWorkflows } from '../packages/core/src/setup/templates.js';
import { lintWorkflow } from '../scripts/checks/lint-workflows.mjs';
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

/**
 * What each Writ stage calls with the app token, stated here on its own (from the stages' code: see
 * packages/core/src/setup/permissions.ts) so that a job's token scope is checked against its stages, not
 * against itself: every stage commits to the ledger (contents write) and keeps the status comment or
 * writes issues (issues write); all but preview and claim-checkpoint prove the ledger (the rulesets'
 * bypass actors: administration write); only publish-artifact opens and updates a pull request.
 */
const STAGE_NEEDS: Record<string, Record<string, 'read' | 'write'>> = {
  preview: { contents: 'write', issues: 'write' },
  'consume-approval': { administration: 'write', contents: 'write', issues: 'write' },
  persist: { administration: 'write', contents: 'write', issues: 'write' },
  'claim-checkpoint': { contents: 'write', issues: 'write' },
  recovery: { administration: 'write', contents: 'write', issues: 'write' },
  'publish-artifact': {
    administration: 'write',
    contents: 'write',
    issues: 'write',
    'pull-requests': 'write',
  },
};

/** The `permission-<name>` inputs Writ uses, as actions/create-github-app-token v1.12.0's action.yml declares them. */
const APP_TOKEN_PERMISSION_INPUTS = [
  'permission-administration',
  'permission-contents',
  'permission-issues',
  'permission-metadata',
  'permission-pull-requests',
];

const APP_TOKEN_ACTION = /^actions\/create-github-app-token@[0-9a-f]{40} # v(\d+)\.(\d+)\.(\d+)$/;

const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
/** The pin scripts/build/generate-templates.ts renders the reference copies with. */
const PIN = { repository: 'writ-actions/writ', ref: PLACEHOLDER_REF, version: `v${version}` };
const render = (environment?: string): Map<string, string> =>
  new Map(
    renderWorkflows({
      pin: PIN,
      config: defaultConfig(),
      ...(environment === undefined ? {} : { environment }),
    }).map((file) => [file.path, file.contents]),
  );

type FullJob = Job & { environment?: unknown };
const jobsOf = (text: string): Record<string, FullJob> =>
  (parse(text) as { jobs: Record<string, FullJob> }).jobs;

/** A job's app token: the `permission-*` inputs of its create-github-app-token step, or null when it mints none. */
function appTokenScope(job: Job): Record<string, unknown> | null {
  const steps = job.steps.filter(
    (step) => step.uses?.startsWith('actions/create-github-app-token@') === true,
  );
  expect(steps.length).toBeLessThanOrEqual(1);
  const step = steps[0];
  if (step === undefined) return null;
  return Object.fromEntries(
    Object.entries(step.with ?? {})
      .filter(([input]) => input.startsWith('permission-'))
      .map(([input, access]) => [input.slice('permission-'.length), access]),
  );
}

describe('each job mints its app token with exactly its stages’ scopes (permissions.ts)', () => {
  const row = (workflow: string, job: string): JobPermissions | undefined =>
    JOB_PERMISSIONS.find((entry) => entry.workflow === workflow && entry.job === job);

  it.each(templates)('%s: every job is in the table, and every job of the table is in it', (name) => {
    const jobs = Object.keys(jobsOf(readFileSync(join(dir, name), 'utf8')));
    expect(jobs.sort()).toEqual(
      // The pages job is rendered only with `writ init --pages` (tested below).
      JOB_PERMISSIONS.filter((entry) => entry.workflow === name && entry.only === undefined)
        .map((entry) => entry.job)
        .sort(),
    );
  });

  it.each(templates)(
    "%s: each job's token scope and GITHUB_TOKEN permissions are the table's, and a token without scopes fails",
    (name) => {
      for (const [jobName, job] of Object.entries(jobsOf(readFileSync(join(dir, name), 'utf8')))) {
        const entry = row(name, jobName);
        expect(entry).toBeDefined();
        expect([jobName, job.permissions]).toEqual([jobName, entry?.githubToken]);
        const scope = appTokenScope(job);
        if (entry?.app === null) {
          expect([jobName, scope]).toEqual([jobName, null]);
          continue;
        }
        // An app token minted without permission inputs inherits the installation's every permission.
        expect([jobName, scope === null ? 0 : Object.keys(scope).length]).not.toEqual([jobName, 0]);
        expect([jobName, scope]).toEqual([jobName, entry?.app]);
      }
    },
  );

  it.each(
    JOB_PERMISSIONS.filter((entry) => entry.app !== null).map(
      (entry) => [entry.workflow, entry.job, entry] as const,
    ),
  )(
    '%s %s: the token holds what its stages call, and nothing more (metadata read, which every app token has)',
    (_workflow, _job, entry) => {
      expect(entry.stages.length).toBeGreaterThan(0);
      const needed: Record<string, string> = { metadata: 'read' };
      for (const stage of entry.stages) {
        for (const [scope, access] of Object.entries(STAGE_NEEDS[stage] ?? {})) {
          if (needed[scope] !== 'write') needed[scope] = access;
        }
      }
      expect(entry.app).toEqual(needed);
    },
  );

  it('each job names the Writ stages it runs', () => {
    for (const name of templates) {
      for (const [jobName, job] of Object.entries(jobsOf(readFileSync(join(dir, name), 'utf8')))) {
        const stages = new Set(
          job.steps.flatMap((step) => /\/actions\/([a-z-]+)@/.exec(step.uses ?? '')?.[1] ?? []),
        );
        expect([name, jobName, [...stages].sort()]).toEqual([
          name,
          jobName,
          [...(row(name, jobName)?.stages ?? [])].sort(),
        ]);
      }
    }
  });

  it('asks only for permission inputs create-github-app-token has, from a release that has them (v1.12.0 on)', () => {
    for (const name of templates) {
      const text = readFileSync(join(dir, name), 'utf8');
      for (const line of text.split('\n').filter((entry) => entry.includes('create-github-app-token@'))) {
        const [, major = '0', minor = '0'] =
          APP_TOKEN_ACTION.exec(line.replace(/^\s*(-\s+)?uses: /, '')) ?? [];
        expect([line, Number(major) > 1 || (Number(major) === 1 && Number(minor) >= 12)]).toEqual([
          line,
          true,
        ]);
      }
      for (const job of Object.values(jobsOf(text))) {
        for (const step of job.steps) {
          if (step.uses?.startsWith('actions/create-github-app-token@') !== true) continue;
          for (const [input, access] of Object.entries(step.with ?? {})) {
            if (!input.startsWith('permission-')) continue;
            expect(APP_TOKEN_PERMISSION_INPUTS).toContain(input);
            expect(['read', 'write']).toContain(access);
          }
        }
      }
    }
  });

  it("no job's token exceeds what the owner grants the app's installation (APP_PERMISSIONS), and together they need all of it", () => {
    const granted = new Map(
      APP_PERMISSIONS.map((entry) => [entry.permission.replace(/_/g, '-'), entry.access] as const),
    );
    const used = new Map<string, string>();
    for (const entry of JOB_PERMISSIONS) {
      for (const [scope, access] of Object.entries(entry.app ?? {})) {
        const grant = granted.get(scope);
        expect([entry.workflow, entry.job, scope, grant === 'write' || grant === access]).toEqual([
          entry.workflow,
          entry.job,
          scope,
          true,
        ]);
        if (used.get(scope) !== 'write') used.set(scope, access);
      }
    }
    expect(Object.fromEntries(used)).toEqual(Object.fromEntries(granted));
  });

  it('a job the table does not hold, or an app token for a job that mints none, is a template bug', () => {
    expect(() => jobPermissions('writ-preview.yml', 'deploy')).toThrow(
      'template bug: no permissions for writ-preview.yml job deploy',
    );
    expect(() => appTokenInputs(jobPermissions('writ-approval.yml', 'handover'))).toThrow(
      'template bug: writ-approval.yml job handover mints no app token',
    );
  });

  it("docs/setup.md's hand-copy workflows mint each job's token with the table's scopes", () => {
    const setup = readFileSync(join(repoRoot, 'docs/setup.md'), 'utf8');
    const blocks = [...setup.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
    const files: Record<string, string> = {
      'Writ preview': 'writ-preview.yml',
      'Writ approval': 'writ-approval.yml',
    };
    let checked = 0;
    for (const block of blocks) {
      const workflow = parse(block) as { name: string; jobs: Record<string, Job> };
      for (const [jobName, job] of Object.entries(workflow.jobs)) {
        const entry = row(files[workflow.name] ?? '', jobName);
        expect([workflow.name, jobName, appTokenScope(job)]).toEqual([workflow.name, jobName, entry?.app]);
        checked += 1;
      }
    }
    expect(checked).toBe(3);
  });

  it('renders the README table from the same table, fresh (npm run check-dist regenerates it)', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const table = renderPermissionsTable();
    for (const entry of JOB_PERMISSIONS) {
      expect(table).toContain(`| \`${entry.workflow}\` | \`${entry.job}\` |`);
    }
    const region = (text: string): string =>
      text.slice(text.indexOf(PERMISSIONS_START), text.indexOf(PERMISSIONS_END)).replace(/ +/g, ' ');
    // README holds the table prettier aligned: the same cells, the padding aside.
    expect(region(readme).replace(/\| -+/g, '| ---')).toBe(
      region(withPermissionsTable(readme)).replace(/\| -+/g, '| ---'),
    );
    expect(() => withPermissionsTable('no markers')).toThrow(/no <!-- writ:job-permissions/);
  });
});

describe('an optional GitHub Environment on the jobs that write (writ init --environment)', () => {
  const plain = render();
  const staged = render('production');

  it('puts persist and publish, in both workflows, in the Environment, and no other job', () => {
    for (const [name, text] of staged) {
      for (const [jobName, job] of Object.entries(jobsOf(text))) {
        const writes =
          ['writ-approval.yml', 'writ-recovery.yml'].includes(name) &&
          ['persist', 'publish'].includes(jobName);
        expect([name, jobName, job.environment]).toEqual([name, jobName, writes ? 'production' : undefined]);
      }
    }
    expect(jobsOf(staged.get('writ-approval.yml') ?? '').persist?.environment).toBe('production');
  });

  it('changes nothing else: without it the workflows are the reference copies, token scopes included', () => {
    for (const [name, text] of plain) {
      expect(text.replace(/^# Reference copy.*\n/m, '')).toBe(
        readFileSync(join(dir, name), 'utf8').replace(/^# Reference copy.*\n/m, ''),
      );
      const withEnvironment = staged.get(name) ?? '';
      const stripped = withEnvironment
        .split('\n')
        .filter(
          (line) =>
            !/^ {4}environment: production$/.test(line) &&
            // The preview states the Environment its writing jobs wait in (its gate).
            !/^ {10}environment: production$/.test(line) &&
            !/^ {4}# The Environment's protection rules/.test(line) &&
            !/^# The persist and publish jobs run in the GitHub Environment production/.test(line) &&
            !/^# after its protection rules pass/.test(line),
        )
        .join('\n');
      expect(stripped).toBe(text);
      for (const [jobName, job] of Object.entries(jobsOf(withEnvironment))) {
        const entry = JOB_PERMISSIONS.find((row) => row.workflow === name && row.job === jobName);
        expect([jobName, appTokenScope(job)]).toEqual([jobName, entry?.app ?? null]);
      }
    }
  });

  it("tells the preview its gate: the approving roles always, the writing jobs' Environment when set", () => {
    const withEnvironment = staged.get('writ-preview.yml') ?? '';
    expect(withEnvironment).toMatch(/^ {10}environment: production$/m);
    expect(withEnvironment).toMatch(/^ {10}allowed-roles: 'admin,maintain,write'$/m);
    expect(plain.get('writ-preview.yml')).not.toMatch(/^ {10}environment:/m);
  });

  it('quotes a name YAML would read as another type', () => {
    const jobs = jobsOf(render('true').get('writ-approval.yml') ?? '');
    expect(jobs.persist?.environment).toBe('true');
    expect(jobsOf(render('2024').get('writ-recovery.yml') ?? '').publish?.environment).toBe('2024');
  });

  it.each([
    ['empty', ''],
    ['a space', 'prod env'],
    ['an expression', '${{ secrets.WRIT_APP_PRIVATE_KEY }}'],
    ['a newline', 'prod\n    runs-on: evil'],
    ['a leading dash', '-prod'],
    ['a leading dot', '.prod'],
    ['a leading underscore', '_x'],
    ['a colon', 'prod: x'],
    ['a quote', "prod'"],
    ['too long', 'e'.repeat(256)],
  ])('refuses a name with %s (environment-name-invalid), before rendering anything', (_what, name) => {
    let thrown: unknown;
    try {
      render(name);
    } catch (error: unknown) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(WritError);
    expect((thrown as WritError).code).toBe('environment-name-invalid');
    // The message counts the name's characters; it never repeats it.
    expect((thrown as WritError).message).not.toContain(name === '' ? '\u0000' : name);
  });

  it.each(['production', 'writ_persist', 'Prod.2', 'x_', 'e'.repeat(255)])('accepts %s', (name) => {
    expect(validateEnvironmentName(name)).toBe(name);
  });

  it.each([
    ['without an Environment', undefined],
    ['with an Environment', 'production'],
  ])('every rendered workflow passes actionlint, %s', async (_what, environment) => {
    for (const [name, text] of render(environment)) {
      const pinned = text.replace(new RegExp(PLACEHOLDER_REF, 'g'), 'a'.repeat(40));
      expect([name, await lintWorkflow(pinned, name)]).toEqual([name, []]);
    }
  });
});

describe('the Pages control tower in the recovery workflow (writ init --pages)', () => {
  const withPages = (pages: boolean): string =>
    renderWorkflows({ pin: PIN, config: { ...defaultConfig(), pages } }).find(
      (file) => file.path === 'writ-recovery.yml',
    )?.contents ?? '';

  it('renders tower-dir on the sweep, the Pages artifact upload after it, and a pages job with only pages: write and id-token: write', () => {
    const text = withPages(true);
    const jobs = jobsOf(text);
    const recovery = jobs.recovery!;
    const sweep = recovery.steps.findIndex((step) => /\/actions\/recovery@/.test(step.uses ?? ''));
    expect(recovery.steps[sweep]?.with?.['tower-dir']).toBe('${{ runner.temp }}/writ-tower');
    const upload = recovery.steps[sweep + 1];
    expect(upload?.uses).toBe(
      'actions/upload-pages-artifact@fc324d3547104276b827a68afc52ff2a11cc49c9 # v5.0.0'.split(' #')[0],
    );
    expect(upload?.with).toEqual({ path: '${{ runner.temp }}/writ-tower' });
    // Only a tower the stage wrote is uploaded and deployed: one it could not write fails no job.
    expect(upload?.if).toBe("steps.recovery.outputs.tower == 'written'");
    expect(recovery.outputs?.tower).toBe('${{ steps.recovery.outputs.tower }}');
    // The recovery job's GITHUB_TOKEN is unchanged: uploading an artifact needs no scope.
    expect(recovery.permissions).toEqual(jobPermissions('writ-recovery.yml', 'recovery').githubToken);
    const pages = jobs.pages as FullJob & { needs?: unknown };
    expect(pages.needs).toBe('recovery');
    expect((pages as { if?: string }).if).toBe("needs.recovery.outputs.tower == 'written'");
    expect(pages.concurrency).toEqual({
      group: 'writ-pages-${{ github.repository }}',
      'cancel-in-progress': false,
    });
    expect(pages.permissions).toEqual({ pages: 'write', 'id-token': 'write' });
    expect(pages.permissions).toEqual(jobPermissions('writ-recovery.yml', 'pages').githubToken);
    expect(pages.environment).toEqual({
      name: 'github-pages',
      url: '${{ steps.deployment.outputs.page_url }}',
    });
    expect(appTokenScope(pages)).toBeNull();
    expect(pages.steps.map((step) => step.uses)).toEqual([
      'actions/deploy-pages@cd2ce8fcbc39b97be8ca5fce6e763baed58fa128',
    ]);
    expect(text).toMatch(
      /uses: actions\/upload-pages-artifact@fc324d3547104276b827a68afc52ff2a11cc49c9 # v5\.0\.0$/m,
    );
    expect(text).toMatch(/uses: actions\/deploy-pages@cd2ce8fcbc39b97be8ca5fce6e763baed58fa128 # v5\.0\.0$/m);
    // Every job of the table for this workflow is rendered, the pages job included.
    expect(Object.keys(jobs).sort()).toEqual(
      JOB_PERMISSIONS.filter((entry) => entry.workflow === 'writ-recovery.yml')
        .map((entry) => entry.job)
        .sort(),
    );
  });

  it('leaves every workflow as the reference copies without it', () => {
    for (const pages of [false, undefined]) {
      const config = pages === undefined ? defaultConfig() : { ...defaultConfig(), pages };
      for (const file of renderWorkflows({ pin: PIN, config })) {
        expect([file.path, file.contents]).toEqual([file.path, readFileSync(join(dir, file.path), 'utf8')]);
        expect(file.contents).not.toMatch(/tower-dir|pages|id-token/);
      }
    }
  });

  it('passes actionlint with the pages job', async () => {
    const pinned = withPages(true).replace(new RegExp(PLACEHOLDER_REF, 'g'), 'a'.repeat(40));
    expect(await lintWorkflow(pinned, 'writ-recovery.yml')).toEqual([]);
  });
});
