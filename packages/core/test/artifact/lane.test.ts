import { describe, expect, it } from '@jest/globals';
import {
  MAX_TITLE_LENGTH,
  checkLane,
  sanitizeTitle,
  validateArtifactBranch,
} from '../../src/artifact/lane.js';
import { codeOf } from '../support/code-of.js';

const LEDGER = 'bot/writ-ledger';

describe('validateArtifactBranch', () => {
  it.each(['bot/writ-artifact', 'bot/roadmap', 'main', 'release/v2.5', 'docs_refresh'])(
    'accepts %j',
    (name) => {
      expect(validateArtifactBranch(name, 'branch')).toBe(name);
    },
  );

  it.each([
    'refs/heads/bot/writ-ledger',
    'REFS/heads/bot/writ-ledger',
    'heads/bot/writ-ledger',
    'refs/tags/v1',
    'HEAD',
    'head',
    'bot//x',
    'bot/x/',
    '/bot/x',
    'bot/../writ-ledger',
    'bot/x.lock',
    'bot/x.lock/y',
    'bot/x.',
    'bot/x y',
    'bot/x\u202e',
    'bot/x\n',
    'bot/x:y',
    'bot/x~1',
    'bot/x^',
    'bot/@{1}',
    '-bot',
    '',
    'b'.repeat(201),
  ])('refuses %j', (name) => {
    expect(codeOf(() => validateArtifactBranch(name, 'branch'))).toBe('invalid-input');
    expect(codeOf(() => validateArtifactBranch(name, 'base'))).toBe('invalid-input');
  });
});

describe('checkLane', () => {
  const lane =
    (branch: string, base = 'main', ledgerBranch = LEDGER, defaultBranch = 'main') =>
    () =>
      checkLane({ branch, base, defaultBranch, ledgerBranches: [ledgerBranch, LEDGER] });

  it.each([
    ['the ledger as branch', lane(LEDGER)],
    ['the ledger as branch in another case', lane('Bot/Writ-Ledger')],
    ['the ledger as branch upper-cased', lane('BOT/WRIT-LEDGER')],
    ['the ledger as base', lane('bot/writ-artifact', LEDGER)],
    ['the ledger as base in another case', lane('bot/writ-artifact', 'bot/WRIT-ledger')],
    ['a custom ledger branch as branch', lane('ops/ledger', 'main', 'ops/ledger')],
    ['the default branch as branch', lane('main', 'release')],
    ['the default branch as branch in another case', lane('Main', 'release')],
    ['a renamed default branch as branch', lane('trunk', 'release', LEDGER, 'trunk')],
    ['the base as branch', lane('release', 'release')],
    ['the base as branch in another case', lane('Release', 'release')],
  ])('refuses %s', (_name, call) => {
    expect(codeOf(call)).toBe('invalid-input');
  });

  it('guards every write: only the lane branch passes', () => {
    const guard = checkLane({
      branch: 'bot/writ-artifact',
      base: 'main',
      defaultBranch: 'main',
      ledgerBranches: [LEDGER],
    });
    expect(guard.target('bot/writ-artifact')).toBe('bot/writ-artifact');
    for (const other of [LEDGER, 'main', 'refs/heads/bot/writ-artifact', 'Bot/Writ-Artifact']) {
      expect(codeOf(() => guard.target(other))).toBe('not-a-writ-error');
    }
  });

  it('accepts a bot branch off a base that is not the default branch', () => {
    expect(codeOf(lane('bot/writ-artifact', 'release'))).toBeUndefined();
  });
});

describe('sanitizeTitle', () => {
  it('keeps an ordinary title as it is', () => {
    expect(sanitizeTitle('docs: roadmap for v2.5 — café')).toBe('docs: roadmap for v2.5 — café');
  });

  it.each([
    ['docs: \u202egnp.exe', 'docs: \ufffdgnp.exe'],
    ['docs: a\nb\r\nc\td', 'docs: a b c d'],
    ['docs: \u001b[31mred\u001b[0m', 'docs: \ufffd[31mred\ufffd[0m'],
    ['docs: \u001b]8;;https://evil\u0007link', 'docs: \ufffd]8;;https://evil\ufffdlink'],
    ['a\u200bb\u2066c\ufeffd', 'a\ufffdb\ufffdc\ufffdd'],
    ['a\u2028b', 'a b'],
    ['x\ud800y', 'x\ufffdy'],
  ])('shows control, bidi and format characters of %j as U+FFFD', (title, shown) => {
    expect(sanitizeTitle(title)).toBe(shown);
  });

  it(`truncates to ${MAX_TITLE_LENGTH} characters`, () => {
    const title = sanitizeTitle('é'.repeat(1000));
    expect(Array.from(title)).toHaveLength(MAX_TITLE_LENGTH);
    expect(title.endsWith('…')).toBe(true);
  });
});
