import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WritError } from '../../src/errors.js';
import {
  MAX_SUMMARY_BYTES,
  failStep,
  logGroup,
  quoted,
  runnerLogger,
  stageIo,
  writeSummary,
} from '../../src/io/action-io.js';
import { clearRegisteredSecrets } from '../../src/redact.js';
import { codeOf } from '../support/code-of.js';

const saved = { ...process.env };
let stdout: string[] = [];

beforeEach(() => {
  stdout = [];
  jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout.push(String(chunk));
    return true;
  });
});

afterEach(() => {
  jest.restoreAllMocks();
  process.env = { ...saved };
  clearRegisteredSecrets();
});

describe('stageIo', () => {
  it('reads declared inputs, trimmed, with registry defaults when the runner supplied none', () => {
    process.env['INPUT_PLAN-FILE'] = '  plan.json \n';
    delete process.env['INPUT_COMMAND-PREFIX'];
    const io = stageIo('preview');
    expect(io.input('plan-file')).toBe('plan.json');
    expect(io.input('command-prefix')).toBe('writ');
    expect(io.input('run-id')).toBe('');
  });

  it('refuses a missing required input with invalid-input', () => {
    process.env['INPUT_PLAN-FILE'] = '   ';
    expect(codeOf(() => stageIo('preview').input('plan-file'))).toBe('invalid-input');
  });

  it('accepts only true/false spellings for booleans and positive integers for numbers', () => {
    const io = stageIo('preview');
    for (const [value, expected] of [
      ['true', true],
      ['FALSE', false],
      ['True', true],
    ] as const) {
      process.env['INPUT_RUN-ID'] = value;
      expect(io.booleanInput('run-id')).toBe(expected);
    }
    for (const junk of ['yes', '1', 'on']) {
      process.env['INPUT_RUN-ID'] = junk;
      expect(codeOf(() => io.booleanInput('run-id'))).toBe('invalid-input');
    }
    process.env['INPUT_RUN-ID'] = '42';
    expect(io.integerInput('run-id')).toBe(42);
    process.env['INPUT_RUN-ID'] = '';
    expect(io.integerInput('run-id')).toBeUndefined();
    for (const junk of ['0', '-1', '1.5', '1e3', '99999999999999999']) {
      process.env['INPUT_RUN-ID'] = junk;
      expect(codeOf(() => io.integerInput('run-id'))).toBe('invalid-input');
    }
  });

  it('holds an integer input to the bounds its action.yml declares, edges included', () => {
    const io = stageIo('persist');
    for (const [value, expected] of [
      ['1', 1],
      ['999', 999],
      ['', 1000],
    ] as const) {
      process.env['INPUT_MAX-STEPS'] = value;
      expect(io.boundedInput('max-steps')).toBe(expected);
    }
    process.env['INPUT_MAX-STEPS'] = '1001';
    expect(() => io.boundedInput('max-steps')).toThrow(
      new WritError('invalid-input', "input 'max-steps' must be an integer from 1 to 1000 (got 1001)"),
    );
    // The format check comes first, as for every integer input.
    process.env['INPUT_MAX-STEPS'] = '0';
    expect(() => io.boundedInput('max-steps')).toThrow(/^input 'max-steps' must be a positive integer/);
    expect(io.bounded('lease-seconds', 30)).toBe(30);
    expect(io.bounded('lease-seconds', 21_600)).toBe(21_600);
    for (const value of [29, 21_601, undefined]) {
      expect(codeOf(() => io.bounded('lease-seconds', value))).toBe('invalid-input');
    }
    expect(() => io.bounded('lease-seconds', undefined)).toThrow(/from 30 to 21600 \(got nothing\)$/);
  });

  it('takes a keyword its action.yml allows instead of a number, or an integer within the bounds', () => {
    const io = stageIo('persist');
    for (const [value, expected] of [
      ['', 'auto'],
      ['auto', 'auto'],
      ['1', 1],
      ['50', 50],
    ] as const) {
      process.env['INPUT_CLAIM-WINDOW'] = value;
      expect(io.boundedOrKeywordInput('claim-window')).toBe(expected);
    }
    for (const junk of ['0', '51', '07', '1.5', 'Auto', ' auto1', 'max']) {
      process.env['INPUT_CLAIM-WINDOW'] = junk;
      expect(() => io.boundedOrKeywordInput('claim-window')).toThrow(
        new WritError(
          'invalid-input',
          `input 'claim-window' must be auto or an integer from 1 to 50 (got ${JSON.stringify(junk.trim())})`,
        ),
      );
    }
    // An input that may take a keyword is never read as a bare integer: that is a type error.
    process.env['INPUT_CLAIM-WINDOW'] = 'auto';
    // @ts-expect-error: claim-window declares a keyword, so it is not a BoundedInputName
    expect(() => io.boundedInput('claim-window')).toThrow(/must be a positive integer \(got "auto"\)/);
    // An input that declares no keywords is a programming error, not a user's.
    expect(() => (io.boundedOrKeywordInput as (name: string) => unknown)('max-steps')).toThrow(
      "input 'max-steps' declares no keywords",
    );
  });

  it('holds a string input to the values its action.yml declares, the default among them', () => {
    const io = stageIo('publish-artifact');
    delete process.env['INPUT_ON-CLOSED-PR'];
    expect(io.choiceInput('on-closed-pr')).toBe('report');
    process.env['INPUT_ON-CLOSED-PR'] = 'open-new';
    expect(io.choiceInput('on-closed-pr')).toBe('open-new');
    for (const junk of ['Open-New', 'reopen', 'report,open-new']) {
      process.env['INPUT_ON-CLOSED-PR'] = junk;
      expect(() => io.choiceInput('on-closed-pr')).toThrow(
        new WritError(
          'invalid-input',
          `input 'on-closed-pr' must be one of report, open-new (got ${quoted(junk)})`,
        ),
      );
    }
  });

  it('refuses to hold an input to limits it does not declare (a programming error, not a refusal)', () => {
    const io = stageIo('persist') as unknown as {
      boundedInput(name: string): number;
      choiceInput(name: string): string;
    };
    process.env.INPUT_EPOCH = '3';
    expect(() => io.boundedInput('epoch')).toThrow("input 'epoch' declares no bounds");
    expect(() => io.choiceInput('epoch')).toThrow("input 'epoch' declares no allowed values");
  });

  it('writes only declared outputs, redacted', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'writ-io-')), 'output');
    writeFileSync(file, '');
    process.env.GITHUB_OUTPUT = file;
    const io = stageIo('preview');
    io.setOutputs({ outcome: 'previewed', reason: `leaked ghp_${'a'.repeat(36)}`, digest: undefined });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('previewed');
    expect(text).not.toContain('ghp_');
    expect(text).not.toContain('digest');
    const untyped: Record<string, string> = { bogus: 'x' };
    expect(() => {
      io.setOutputs(untyped);
    }).toThrow(/not declared/);
  });

  it('masks a secret input through the runner before any input is read', () => {
    process.env.INPUT_TOKEN = 'not-a-real-token-value';
    stageIo('preview');
    expect(stdout.join('')).toContain('::add-mask::not-a-real-token-value');
  });

  it('names the input, the value and the expected spellings for a junk boolean', () => {
    process.env['INPUT_DRY-RUN'] = 'yes please';
    expect(() => stageIo('preview').booleanInput('dry-run')).toThrow(
      'input \'dry-run\' must be true or false (got "yes please")',
    );
  });
});

describe('the runner log, groups, summary and failure', () => {
  it('logs plain lines, warnings and debug lines, redacted, and wraps a group', () => {
    const token = `ghp_${'b'.repeat(36)}`;
    runnerLogger.info(`read with ${token}`);
    runnerLogger.warning('careful');
    runnerLogger.debug('detail');
    expect(logGroup('the rendered file', () => 7)).toBe(7);
    const text = stdout.join('');
    expect(text).toContain('read with');
    expect(text).not.toContain(token);
    expect(text).toContain('::warning::careful');
    expect(text).toContain('::debug::detail');
    expect(text).toContain('::group::the rendered file');
    expect(text).toContain('::endgroup::');
  });

  it('appends the summary redacted and bounded, and does nothing outside a runner', async () => {
    delete process.env.GITHUB_STEP_SUMMARY;
    await writeSummary('ignored');
    const file = join(mkdtempSync(join(tmpdir(), 'writ-summary-')), 'summary.md');
    writeFileSync(file, '');
    process.env.GITHUB_STEP_SUMMARY = file;
    await writeSummary(`## Run\n\ntoken ghp_${'c'.repeat(36)}\n`);
    expect(readFileSync(file, 'utf8')).toMatch(/^## Run\n\ntoken (?!ghp_)/);
    writeFileSync(file, '');
    await writeSummary('é'.repeat(MAX_SUMMARY_BYTES));
    const long = readFileSync(file, 'utf8');
    expect(Buffer.byteLength(long, 'utf8')).toBeLessThan(MAX_SUMMARY_BYTES + 200);
    expect(long).toContain(`_(summary truncated at ${MAX_SUMMARY_BYTES} bytes)_`);
    expect(long).not.toContain('\ufffd');
  });

  it('fails the step with the code first, and internal-error for anything that is not coded', () => {
    const saved = process.exitCode;
    try {
      expect(failStep(new WritError('fenced', 'epoch 1 is stale'))).toBe('fenced');
      expect(failStep(new Error('boom'))).toBe('internal-error');
      const text = stdout.join('');
      expect(text).toContain('::error::fenced: epoch 1 is stale');
      expect(text).toContain('::error::internal-error: boom');
      expect(process.exitCode).toBe(1);
    } finally {
      process.exitCode = saved;
    }
  });

  it('quotes a value redacted and short', () => {
    expect(quoted(`ghp_${'d'.repeat(36)}`)).not.toContain('ghp_');
    expect(quoted('x'.repeat(100))).toBe(JSON.stringify('x'.repeat(40)));
  });
});
