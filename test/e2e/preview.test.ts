import { describe, expect, it } from '@jest/globals';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { repoRoot, runAction } from '../support/run-action.js';

const examplePath = join(repoRoot, 'examples/roadmap-plan.json');
const example = JSON.parse(readFileSync(examplePath, 'utf8')) as Record<string, unknown>;

function reorderDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reorderDeep);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reorderDeep(v)]),
    );
  }
  return value;
}

describe('the preview bundle run as the runner runs it', () => {
  it('validates the example plan and writes every output, the summary and the preview file', async () => {
    const run = await runAction('preview', { inputs: { 'plan-file': examplePath } });
    expect(run.status).toBe(0);
    expect(run.outputs.outcome).toBe('previewed');
    expect(run.outputs.reason).toBe('');
    expect(run.outputs.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(run.outputs['run-id']).toBe(`run-${run.outputs.digest!.slice(7, 23)}`);
    expect(run.outputs['approve-command']).toBe(
      `writ: approve ${run.outputs['run-id']} ${run.outputs.digest!.slice(7)}`,
    );
    const preview = readFileSync(run.outputs['preview-path']!, 'utf8');
    expect(run.summary).toBe(preview);
    expect(preview).toContain(run.outputs['approve-command']);
  });

  it('gives the same digest to the same plan with keys reordered and whitespace changed, another to a changed value', async () => {
    const base = await runAction('preview', { inputs: { 'plan-file': examplePath } });
    const reordered = join(base.workDir, 'reordered.json');
    writeFileSync(reordered, JSON.stringify(reorderDeep(example), null, '\t').replace(/\n/g, '\r\n'));
    const changed = join(base.workDir, 'changed.json');
    writeFileSync(changed, JSON.stringify({ ...example, title: `${String(example.title)}!` }));
    const [same, other] = await Promise.all([
      runAction('preview', { inputs: { 'plan-file': reordered } }),
      runAction('preview', { inputs: { 'plan-file': changed } }),
    ]);
    expect(same.outputs.digest).toBe(base.outputs.digest);
    expect(other.status).toBe(0);
    expect(other.outputs.digest).not.toBe(base.outputs.digest);
  });

  it('honours run-id and command-prefix', async () => {
    const run = await runAction('preview', {
      inputs: { 'plan-file': examplePath, 'run-id': 'roadmap-2026-11', 'command-prefix': 'roadmap' },
    });
    expect(run.outputs['approve-command']).toMatch(/^roadmap: approve roadmap-2026-11 [0-9a-f]{64}$/);
  });

  it.each([
    ['a malformed plan', '{"schema": 1, "title": ""}', 'malformed-plan'],
    ['a file that is not JSON', '{"schema": 1', 'plan-not-json'],
  ])('refuses %s with its code, one line per problem with its JSON path', async (_name, content, code) => {
    const base = await runAction('preview', { inputs: { 'plan-file': examplePath } });
    const path = join(base.workDir, 'bad.json');
    writeFileSync(path, content);
    const run = await runAction('preview', { inputs: { 'plan-file': path } });
    expect(run.status).toBe(1);
    expect(run.outputs).toMatchObject({ outcome: 'refused', reason: code });
    expect(run.stdout).toContain(`::error::${code}: `);
    if (code === 'malformed-plan') {
      expect(run.stdout).toMatch(/\/title: must NOT have fewer than 1 characters/);
      expect(run.stdout).toMatch(/\/scope: is required/);
    }
    expect(run.outputs.digest).toBeUndefined();
  });

  it('refuses a missing plan file and a bad run-id with their codes', async () => {
    const missing = await runAction('preview', { inputs: { 'plan-file': '/nonexistent/plan.json' } });
    expect(missing.outputs).toMatchObject({ outcome: 'refused', reason: 'plan-file-not-found' });
    const traversal = await runAction('preview', {
      inputs: { 'plan-file': examplePath, 'run-id': '../../etc' },
    });
    expect(traversal.outputs).toMatchObject({ outcome: 'refused', reason: 'invalid-run-id' });
    const noPlan = await runAction('preview', { inputs: { 'plan-file': '' } });
    expect(noPlan.outputs).toMatchObject({ outcome: 'refused', reason: 'invalid-input' });
  });
});

describe('a plan is read only from the workspace or the runner temp directory', () => {
  // The workspace is the repository; RUNNER_TEMP is a fresh directory holding the links.
  const temp = mkdtempSync(join(tmpdir(), 'writ-plan-roots-'));
  const outside = mkdtempSync(join(tmpdir(), 'writ-plan-outside-'));
  const outsidePlan = join(outside, 'plan.json');
  copyFileSync(examplePath, outsidePlan);
  const inside = join(temp, 'plan.json');
  copyFileSync(examplePath, inside);
  mkdirSync(join(temp, 'linked'));
  symlinkSync(outside, join(temp, 'linked', 'dir'));
  const cases: [string, string][] = [
    ['a symlink to a plan outside both roots', linkTo(outsidePlan, 'out.json')],
    ['a symlink to /proc/self/environ', linkTo('/proc/self/environ', 'environ.json')],
    ['a file under a symlinked directory that leads out', join(temp, 'linked', 'dir', 'plan.json')],
    ['a path with .. out of the temp directory', join(temp, '..', basename(outside), 'plan.json')],
    ['a plan outside both roots', outsidePlan],
  ];

  function linkTo(target: string, name: string): string {
    const link = join(temp, name);
    symlinkSync(target, link);
    return link;
  }

  it.each(cases)('refuses %s as invalid-input without echoing the path', async (_name, planFile) => {
    const run = await runAction('preview', { inputs: { 'plan-file': planFile }, env: { RUNNER_TEMP: temp } });
    expect(run.outputs).toMatchObject({ outcome: 'refused', reason: 'invalid-input' });
    expect(run.commands.errors[0]).toMatch(/^invalid-input: input 'plan-file' \(\d+ characters\) /);
    expect(run.stdout).not.toContain(outside);
    expect(run.outputs.digest).toBeUndefined();
  });

  it('refuses a directory as plan-file-not-found', async () => {
    const run = await runAction('preview', {
      inputs: { 'plan-file': join(temp, 'linked') },
      env: { RUNNER_TEMP: temp },
    });
    expect(run.outputs).toMatchObject({ outcome: 'refused', reason: 'plan-file-not-found' });
  });

  it('reads a plan inside the temp directory, and one in the workspace', async () => {
    for (const planFile of [inside, examplePath]) {
      const run = await runAction('preview', {
        inputs: { 'plan-file': planFile },
        env: { RUNNER_TEMP: temp },
      });
      expect(run.outputs).toMatchObject({ outcome: 'previewed', reason: '' });
    }
  });
});
