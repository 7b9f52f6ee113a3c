/**
 * `writ init --project OWNER/NUMBER`: recorded in .writ/config.json (kept on re-runs, removed with an
 * empty value, refused when malformed) and rendered into the workflows as the `project` input of the
 * stages that follow a run, whose jobs' app tokens then, and only then, ask for
 * `organization-projects: write`.
 */
import { describe, expect, it } from '@jest/globals';
import { WritError } from '../../src/errors.js';
import { CONFIG_PATH, defaultConfig, renderConfig } from '../../src/setup/files.js';
import type { InitRequest, PathState } from '../../src/setup/init.js';
import { planInit } from '../../src/setup/init.js';
import { JOB_PERMISSIONS, projectScope } from '../../src/setup/permissions.js';
import { PLACEHOLDER_REF, renderWorkflows } from '../../src/setup/templates.js';
import { lintWorkflow } from '../../../../scripts/checks/lint-workflows.mjs';

const COMMIT = 'a'.repeat(40);

function request(overrides: Partial<InitRequest> = {}, files: Record<string, string> = {}): InitRequest {
  return {
    ref: COMMIT,
    defaultWritRepository: 'writ-actions/writ',
    versionOf: (ref) => ref.slice(0, 7),
    resolveTag: () => {
      throw new WritError('init-tag-unknown', 'no tags here');
    },
    writeConflicts: false,
    stateOf: (path): PathState => {
      const text = files[path];
      return text === undefined ? { kind: 'missing' } : { kind: 'file', text };
    },
    ...overrides,
  };
}

/** The lines of one job of a rendered workflow (from `  <job>:` to the next job). */
function job(workflow: string, name: string): string {
  const start = workflow.indexOf(`\n  ${name}:\n`);
  expect(start).toBeGreaterThan(0);
  const rest = workflow.slice(start + 1);
  const next = rest.slice(1).search(/\n {2}[a-z-]+:\n/);
  return next < 0 ? rest : rest.slice(0, next + 1);
}

const PIN = { repository: 'writ-actions/writ', ref: PLACEHOLDER_REF, version: 'v0.0.0' };

describe('writ init --project', () => {
  it('records the project in the config, keeps it on a re-run, removes it with an empty value', () => {
    const plan = planInit(request({ project: 'acme/3' }));
    expect(plan.config.project).toEqual({ owner: 'acme', number: 3 });
    const config = plan.operations.find((operation) => operation.path === CONFIG_PATH);
    expect(JSON.parse(config?.contents ?? '{}')).toMatchObject({ project: { owner: 'acme', number: 3 } });
    const files = {
      [CONFIG_PATH]: renderConfig({ ...defaultConfig(), project: { owner: 'acme', number: 3 } }),
    };
    expect(planInit(request({}, files)).config.project).toEqual({ owner: 'acme', number: 3 });
    expect(planInit(request({ project: '' }, files)).config).not.toHaveProperty('project');
    expect(planInit(request()).config).not.toHaveProperty('project');
    expect(() => planInit(request({ project: 'acme' }))).toThrow(
      expect.objectContaining({ code: 'invalid-input' }),
    );
  });

  it('renders the project input and the organization-projects scope only with a project', () => {
    const config = { ...defaultConfig(), project: { owner: 'acme', number: 3 } };
    const withProject = new Map(
      renderWorkflows({ pin: PIN, config }).map((file) => [file.path, file.contents]),
    );
    const without = new Map(
      renderWorkflows({ pin: PIN, config: defaultConfig() }).map((file) => [file.path, file.contents]),
    );
    for (const text of without.values()) {
      expect(text).not.toContain('organization-projects');
      expect(text).not.toMatch(/^ +project: /m);
    }
    const approval = withProject.get('writ-approval.yml') ?? '';
    for (const name of ['approve', 'persist', 'publish', 'release']) {
      const lines = job(approval, name);
      expect(lines).toContain('permission-organization-projects: write');
      expect(lines).toContain('project: acme/3');
    }
    expect(approval).not.toMatch(/^ {2}handover:[\s\S]*organization-projects/m);
    const preview = job(withProject.get('writ-preview.yml') ?? '', 'preview');
    expect(preview).toContain('permission-organization-projects: write');
    expect(preview).toContain('project: acme/3');
    const recovery = withProject.get('writ-recovery.yml') ?? '';
    expect(job(recovery, 'recovery')).toContain('permission-organization-projects: write');
    expect(job(recovery, 'recovery')).toContain('project: acme/3');
    expect(job(recovery, 'persist')).toContain('permission-organization-projects: write');
    expect(job(recovery, 'publish')).toContain('project: acme/3');
  });

  it('the workflows rendered with a project pass actionlint', async () => {
    const config = { ...defaultConfig(), project: { owner: 'acme', number: 3 } };
    for (const file of renderWorkflows({ pin: PIN, config })) {
      expect(await lintWorkflow(file.contents, file.path)).toEqual([]);
    }
  });

  it('gives the scope to exactly the jobs whose stages keep the project item', () => {
    const given = JOB_PERMISSIONS.filter((row) => Object.keys(projectScope(row)).length > 0).map(
      (row) => `${row.workflow} ${row.job}`,
    );
    expect(given).toEqual([
      'writ-preview.yml preview',
      'writ-approval.yml approve',
      'writ-approval.yml persist',
      'writ-approval.yml publish',
      'writ-approval.yml release',
      'writ-recovery.yml recovery',
      'writ-recovery.yml persist',
      'writ-recovery.yml publish',
    ]);
  });
});
