import { describe, expect, it } from '@jest/globals';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  REPO_ROOT,
  applyMasks,
  bundlePath,
  formatStageRun,
  inputVariable,
  parseCommandFile,
  parseEnvFile,
  parseWorkflowCommands,
  runStage,
  stageNode,
} from '../src/run-stage.js';

describe('writ run: the runner contract', () => {
  it('names inputs as the runner does: upper-case, spaces to _, hyphens kept', () => {
    expect(inputVariable('plan-file')).toBe('INPUT_PLAN-FILE');
    expect(inputVariable('command prefix')).toBe('INPUT_COMMAND_PREFIX');
  });

  it('parses plain and heredoc outputs, including multi-line values and CRLF files', () => {
    const text = [
      'simple=value=with=equals',
      'multi<<ghadelimiter_1',
      'line one',
      '',
      'line three',
      'ghadelimiter_1',
      'empty<<EOF',
      'EOF',
      '',
    ].join('\r\n');
    expect(parseCommandFile(text)).toEqual({
      simple: 'value=with=equals',
      multi: 'line one\n\nline three',
      empty: '',
    });
    expect(() => parseCommandFile('x<<D\nno end')).toThrow(/unterminated heredoc/);
  });

  it('collects error, warning and mask commands, unescaping their data', () => {
    const stdout =
      'plain line\n::error::malformed-plan: 2 problems%0A  /title: is required\n::warning::careful 100%25\n::add-mask::s3cret\n::debug::hidden\n';
    expect(parseWorkflowCommands(stdout)).toEqual({
      errors: ['malformed-plan: 2 problems\n  /title: is required'],
      warnings: ['careful 100%'],
      masks: ['s3cret'],
    });
    expect(applyMasks('token s3cret here', ['s3cret'])).toBe('token *** here');
  });

  it('reads dotenv files', () => {
    expect(parseEnvFile('# c\nA=1\nB="two words"\n C = \'x\' \n')).toEqual({
      A: '1',
      B: 'two words',
      C: 'x',
    });
    expect(() => parseEnvFile('novalue')).toThrow(/KEY=VALUE/);
  });

  it("runs the working tree's bundles under jest (global setup), the committed dist/ otherwise", () => {
    expect(bundlePath('preview')).toBe(join(REPO_ROOT, '.tmp/test-dist/preview/index.js'));
    const saved = process.env.WRIT_BUNDLE_DIR;
    try {
      delete process.env.WRIT_BUNDLE_DIR;
      expect(bundlePath('preview')).toBe(join(REPO_ROOT, 'dist/preview/index.js'));
      expect(bundlePath('preview', '/elsewhere')).toBe('/elsewhere/dist/preview/index.js');
    } finally {
      process.env.WRIT_BUNDLE_DIR = saved;
    }
  });

  it('refuses an unknown stage and an undeclared input', async () => {
    await expect(runStage({ stage: 'nope' })).rejects.toThrow(/no such stage/);
    await expect(runStage({ stage: '../dist' })).rejects.toThrow(/no such stage/);
    await expect(runStage({ stage: 'preview', inputs: { 'plan-fle': 'x' } })).rejects.toThrow(
      /unexpected input\(s\) plan-fle/,
    );
  });

  it('runs the preview bundle and reports its failure with masks applied', async () => {
    const run = await runStage({
      stage: 'preview',
      inputs: { 'plan-file': '/nonexistent.json' },
      env: { GITHUB_REPOSITORY: 'acme/widgets' },
    });
    expect(run.status).toBe(1);
    expect(run.outputs).toMatchObject({ outcome: 'refused', reason: 'plan-file-not-found' });
    expect(run.commands.errors).toEqual([expect.stringMatching(/^plan-file-not-found: /)]);
    // Every failure message ends with the code's entry in docs/errors.md.
    expect(run.commands.errors[0]).toMatch(/ — https:\/\/\S+\/docs\/errors\.md#plan-file-not-found$/);
    expect(formatStageRun(run)).toContain('reason: plan-file-not-found');
  });

  it('runs the stage on the node binary WRIT_STAGE_NODE names (CI: Node 24), else on the one running writ', async () => {
    const saved = process.env.WRIT_STAGE_NODE;
    const dir = mkdtempSync(join(tmpdir(), 'writ-stage-node-'));
    try {
      delete process.env.WRIT_STAGE_NODE;
      expect(stageNode()).toBe(process.execPath);
      process.env.WRIT_STAGE_NODE = join(dir, 'no-such-node');
      await expect(runStage({ stage: 'preview' })).rejects.toThrow(
        `WRIT_STAGE_NODE names ${join(dir, 'no-such-node')}, which does not exist`,
      );
      // A node of its own: a script (on the real node) that records how it was started, then loads the
      // bundle it was given (a shell wrapper would not do: dash drops INPUT_PLAN-FILE, a name with a hyphen).
      const node = join(dir, 'node');
      const argv = join(dir, 'argv');
      writeFileSync(
        node,
        [
          `#!${process.execPath}`,
          `require('node:fs').writeFileSync(${JSON.stringify(argv)}, process.argv.slice(2).join('\\n'));`,
          "import(require('node:url').pathToFileURL(process.argv[2]).href);",
          '',
        ].join('\n'),
      );
      chmodSync(node, 0o755);
      process.env.WRIT_STAGE_NODE = node;
      const run = await runStage({
        stage: 'preview',
        inputs: { 'plan-file': '/nonexistent.json' },
        env: { GITHUB_REPOSITORY: 'acme/widgets' },
      });
      expect(run.outputs).toMatchObject({ outcome: 'refused', reason: 'plan-file-not-found' });
      expect(readFileSync(argv, 'utf8')).toBe(bundlePath('preview'));
    } finally {
      if (saved === undefined) delete process.env.WRIT_STAGE_NODE;
      else process.env.WRIT_STAGE_NODE = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
