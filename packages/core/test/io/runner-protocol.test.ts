import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import * as core from '@actions/core';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as runner from '../../src/io/runner-protocol.js';

// Writ speaks the runner protocol itself (so a stage does not load @actions/core's HTTP stack at start-up);
// these tests hold it to @actions/core, the reference implementation, byte for byte.

const dir = mkdtempSync(join(tmpdir(), 'writ-protocol-'));
const saved = { ...process.env };
let written: string[] = [];

beforeEach(() => {
  written = [];
  jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
});

afterEach(() => {
  jest.restoreAllMocks();
  process.env = { ...saved };
  process.exitCode = undefined;
});

/** Replaces the random heredoc delimiters so two files can be compared. */
function normalize(text: string): string {
  return text.replace(/ghadelimiter_[0-9a-f-]{36}/g, 'DELIM');
}

const VALUES = [
  'plain',
  'two\nlines',
  'percent % and \r carriage',
  '',
  '  padded  ',
  '::error::not a command',
  'ünï©ødé 😀',
];

describe('runner protocol, held to @actions/core', () => {
  it.each(VALUES)('writes the output %j exactly as core.setOutput does', (value) => {
    const ours = join(dir, `ours-${Math.random()}`);
    const theirs = join(dir, `theirs-${Math.random()}`);
    writeFileSync(ours, '');
    writeFileSync(theirs, '');
    process.env.GITHUB_OUTPUT = ours;
    runner.setOutput('out-name', value);
    process.env.GITHUB_OUTPUT = theirs;
    core.setOutput('out-name', value);
    expect(normalize(readFileSync(ours, 'utf8'))).toBe(normalize(readFileSync(theirs, 'utf8')));
  });

  it.each(VALUES)(
    'issues warning, debug, error and add-mask for %j exactly as @actions/core does',
    (value) => {
      runner.warning(value);
      runner.debug(value);
      runner.error(value);
      runner.setSecret(value);
      runner.info(value);
      const ours = written.join('');
      written = [];
      core.warning(value);
      core.debug(value);
      core.error(value);
      core.setSecret(value);
      core.info(value);
      expect(ours).toBe(written.join(''));
    },
  );

  it('fails the step as core.setFailed does', () => {
    runner.setFailed('malformed-plan: bad\nsecond line');
    const ours = written.join('');
    expect(process.exitCode).toBe(1);
    process.exitCode = undefined;
    written = [];
    core.setFailed('malformed-plan: bad\nsecond line');
    expect(ours).toBe(written.join(''));
    expect(process.exitCode).toBe(1);
  });

  it.each([
    ['plan-file', '  examples/plan.json \n'],
    ['command prefix', 'writ'],
    ['Run-ID', 'r1'],
    ['missing', undefined],
  ])('reads the input %j as core.getInput does', (name, value) => {
    const variable = `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
    if (value === undefined) Reflect.deleteProperty(process.env, variable);
    else process.env[variable] = value;
    expect(runner.getInput(name)).toBe(core.getInput(name));
  });

  it('appends to the job summary file', () => {
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, 'before\n');
    process.env.GITHUB_STEP_SUMMARY = summary;
    runner.appendSummary('## after\n');
    expect(readFileSync(summary, 'utf8')).toBe('before\n## after\n');
  });

  it('refuses a missing output file as core does', () => {
    process.env.GITHUB_OUTPUT = join(dir, 'does-not-exist');
    expect(() => runner.setOutput('a', 'b')).toThrow(/Missing file at path/);
    expect(() => core.setOutput('a', 'b')).toThrow(/Missing file at path/);
  });

  it('falls back to the stdout command outside a runner, as core does', () => {
    delete process.env.GITHUB_OUTPUT;
    runner.setOutput('name', 'a\nb');
    const ours = written.join('');
    written = [];
    core.setOutput('name', 'a\nb');
    expect(ours).toBe(written.join(''));
  });
});
