/** The release workflow: actionlint-clean, every action pinned by full SHA, least privilege, dist/ checked fresh. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { lintWorkflow } from '../scripts/lint-workflows.mjs';
import { repoRoot } from './support/run-action.js';

const path = '.github/workflows/release.yml';
const text = readFileSync(join(repoRoot, path), 'utf8');
const workflow = parse(text) as {
  permissions: unknown;
  jobs: Record<string, { permissions?: Record<string, string>; steps: { uses?: string; run?: string }[] }>;
};

describe('the release workflow', () => {
  it('passes actionlint', async () => {
    expect(await lintWorkflow(text, path)).toEqual([]);
  });

  it('pins every action by its full commit SHA with a version comment', () => {
    const uses = text.split('\n').filter((line) => /^\s*-?\s*uses:/.test(line));
    expect(uses.length).toBeGreaterThan(0);
    for (const line of uses) expect(line).toMatch(/uses: [\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
  });

  it('grants nothing at the top and contents: write only to the job that tags', () => {
    expect(workflow.permissions).toEqual({});
    const writers = Object.entries(workflow.jobs)
      .filter(([, job]) => Object.values(job.permissions ?? {}).includes('write'))
      .map(([name, job]) => [name, job.permissions]);
    expect(writers).toEqual([['tag', { contents: 'write' }]]);
    expect(workflow.jobs.tag?.steps.some((step) => step.uses !== undefined)).toBe(false);
  });

  it('checks that dist/ is what the source builds, and the tests pass, before tagging', () => {
    const runs = workflow.jobs.check?.steps.map((step) => step.run ?? '') ?? [];
    for (const command of ['npm ci', 'npm run lint', 'npm test', 'npm run check-dist']) {
      expect(runs).toContain(command);
    }
    expect(text).toMatch(/needs: check/);
    // The version input reaches scripts only through the environment, never expanded into a script.
    for (const job of Object.values(workflow.jobs)) {
      for (const step of job.steps) expect(step.run ?? '').not.toMatch(/\$\{\{/);
    }
  });
});
