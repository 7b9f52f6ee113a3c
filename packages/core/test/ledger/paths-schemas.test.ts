import { describe, expect, it } from '@jest/globals';
import { WritError } from '../../src/errors.js';
import { formatMessage, parseTrailers } from '../../src/ledger/message.js';
import {
  isLedgerPath,
  ledgerLocation,
  parseRepository,
  runFilePath,
  validateBranch,
} from '../../src/ledger/paths.js';
import { LEASE_FILE, RUN_FILE, parseLedgerFile, serializeLedgerFile } from '../../src/ledger/schemas.js';
import { propose } from '../../src/ledger/transitions.js';
import { FREE_LEASE } from '../../src/ledger/transitions.js';
import { planFor, proposalOf } from './support/fixtures.js';

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error: unknown) {
    if (error instanceof WritError) return error.code;
    throw error;
  }
  return 'no error';
}

describe('ledger paths', () => {
  it('builds runs/<owner>--<repo>/<run_id>.json', () => {
    expect(runFilePath('acme/widgets', 'run-1')).toBe('runs/acme--widgets/run-1.json');
    expect(runFilePath('a/b--c', 'r')).toBe('runs/a--b--c/r.json');
    expect(isLedgerPath('runs/a--b--c/r.json')).toBe(true);
    expect(isLedgerPath('runs/a--b/../x.json')).toBe(false);
  });

  it.each(['../x', 'a/b', 'a.b', '', 'x'.repeat(65), 'run\n1', '-run'])('refuses the run ID %j', (runId) => {
    expect(codeOf(() => runFilePath('acme/widgets', runId))).toBe('invalid-run-id');
  });

  it.each([
    'acme',
    'acme/widgets/x',
    '../widgets',
    'acme/..',
    'acme/.',
    'ac--me/widgets',
    '-acme/w',
    'acme/w w',
  ])('refuses the repository %j', (repository) => {
    expect(codeOf(() => parseRepository(repository))).toBe('invalid-input');
  });

  it.each(['main', 'bot//x', 'bot/../x', 'bot/x.lock', '/bot', 'bot/', 'bot x'])(
    'refuses the branch %j',
    (branch) => {
      expect(codeOf(() => validateBranch(branch))).toBe('invalid-input');
    },
  );

  it('accepts the default location', () => {
    expect(ledgerLocation('acme/widgets', 'bot/writ-ledger')).toEqual({
      owner: 'acme',
      repo: 'widgets',
      branch: 'bot/writ-ledger',
    });
  });
});

describe('ledger file schemas', () => {
  const plan = planFor('p');
  const run = propose(
    { serverTime: Date.parse('2026-11-30T09:00:00Z'), lease: FREE_LEASE, run: null },
    { repository: 'acme/widgets', ...proposalOf(plan, 'run-1') },
  ).run!;

  it('round-trips a run file through its schema', () => {
    const text = serializeLedgerFile(RUN_FILE, 'r.json', run);
    expect(parseLedgerFile(RUN_FILE, 'r.json', text)).toEqual(run);
  });

  it('fails closed on a corrupt file and on a schema-invalid one', () => {
    expect(codeOf(() => parseLedgerFile(RUN_FILE, 'r.json', '{not json'))).toBe('ledger-file-corrupt');
    expect(codeOf(() => parseLedgerFile(LEASE_FILE, 'lease.json', '{"schema":1,"epoch":-1}'))).toBe(
      'ledger-file-invalid',
    );
  });

  it('refuses free text where only codes, IDs and digests belong', () => {
    const withBody = { ...run, stop_reason: 'The milestone was renamed by someone' };
    expect(codeOf(() => serializeLedgerFile(RUN_FILE, 'r.json', withBody))).toBe('ledger-file-invalid');
    const withExtra = { ...run, comment_body: 'writ: approve' };
    expect(codeOf(() => serializeLedgerFile(RUN_FILE, 'r.json', withExtra))).toBe('ledger-file-invalid');
  });
});

describe('commit message trailers', () => {
  it('round-trips the transition, run, epoch, comment and transition ID', () => {
    const trailers = {
      transition: 'consume' as const,
      runId: 'run-1',
      repository: 'acme/widgets',
      epoch: 3,
      transitionId: '123e4567-e89b-12d3-a456-426614174000.2',
      commentId: 99,
    };
    const message = formatMessage(trailers);
    expect(parseTrailers(`${message.headline}\n\n${message.body}`)).toEqual(trailers);
  });

  it('ignores a message without well-formed trailers', () => {
    expect(parseTrailers('fix things')).toBeNull();
    expect(parseTrailers('Writ-Transition: consume\nWrit-Epoch: x\nWrit-Transition-Id: a')).toBeNull();
  });
});
