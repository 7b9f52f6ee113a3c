import { describe, expect, it } from '@jest/globals';
import { parseCodeowners, ruleFor } from '../../src/setup/codeowners.js';

/** The owners GitHub would request for `path` under `text`: null when no line matches. */
function ownersOf(text: string, path: string): string[] | null {
  return ruleFor(parseCodeowners(text), path)?.owners ?? null;
}

describe('CODEOWNERS patterns (GitHub: gitignore rules, last match wins)', () => {
  it.each<[string, string, boolean]>([
    // A pattern without a slash matches at any depth, file or directory.
    ['*', '.writ/config.json', true],
    ['*.yml', '.github/workflows/writ-preview.yml', true],
    ['*.yml', '.github/workflows/writ-preview.yaml', false],
    ['config.json', '.writ/config.json', true],
    ['.writ', '.writ/config.json', true],
    ['workflows/', '.github/workflows/a.yml', true],
    ['workflows/', 'workflows', false],
    // A leading or inner slash anchors at the root.
    ['/.writ/', '.writ/config.json', true],
    ['/.writ/', 'sub/.writ/config.json', false],
    ['/.writ', '.writ/deep/x', true],
    ['.github/workflows', '.github/workflows/a.yml', true],
    ['.github/workflows', 'x/.github/workflows/a.yml', false],
    ['/.github/', '.github/workflows/a.yml', true],
    // `dir/*` is the directory's own files, not deeper ones.
    ['/.github/workflows/*', '.github/workflows/a.yml', true],
    ['/.github/workflows/*', '.github/workflows/sub/a.yml', false],
    ['/.github/*', '.github/workflows/a.yml', false],
    // `**`: leading, inner, trailing.
    ['**/workflows/*.yml', '.github/workflows/a.yml', true],
    ['/.github/**/a.yml', '.github/workflows/a.yml', true],
    ['/.github/**/a.yml', '.github/a.yml', true],
    ['/.writ/**', '.writ/config.json', true],
    ['/.writ/**', '.writ', false],
    ['**', 'anything/at/all', true],
    ['/**', 'README.md', true],
    // `?` is one character, not a slash; paths are case-sensitive.
    ['/.writ/config.jso?', '.writ/config.json', true],
    ['/.writ/config.js?', '.writ/config.json', false],
    ['/.WRIT/', '.writ/config.json', false],
    ['/.git?ub/workflows/', '.github/workflows/a.yml', true],
    ['/.github?workflows/', '.github/workflows/a.yml', false],
    // Regular-expression characters are literal.
    ['/a+b(c)$/', 'a+b(c)$/x', true],
    ['/a.b/', 'axb/x', false],
    // An escaped blank belongs to the pattern.
    ['/my\\ dir/', 'my dir/x', true],
  ])('%s on %s: %s', (pattern, path, expected) => {
    expect(ownersOf(`${pattern} @owner\n`, path) !== null).toBe(expected);
  });

  it('lets the last matching line win, and a line without owners unown its paths', () => {
    const text = ['* @everyone', '/.writ/ @security', '/.writ/probe-evidence.json', ''].join('\n');
    expect(ownersOf(text, '.writ/config.json')).toEqual(['@security']);
    expect(ownersOf(text, '.writ/probe-evidence.json')).toEqual([]);
    expect(ownersOf(text, 'src/index.ts')).toEqual(['@everyone']);
    expect(ownersOf('/.writ/ @security\n* @everyone\n', '.writ/config.json')).toEqual(['@everyone']);
  });

  it('skips comments, blank lines and the lines GitHub skips, and reports them', () => {
    const text = [
      '# owners',
      '',
      '   ',
      '!/.writ/ @nobody',
      '/.writ/[abc] @nobody',
      '\\#file @nobody',
      '/a***b @nobody',
      '/a//b @nobody',
      '/.writ/ @acme/security alice@example.com # the security team',
      '/.github/ not-an-owner @ok',
    ].join('\r\n');
    const parsed = parseCodeowners(text);
    expect(parsed.rules.map((rule) => [rule.line, rule.pattern, rule.owners])).toEqual([
      [9, '/.writ/', ['@acme/security', 'alice@example.com']],
      [10, '/.github/', ['@ok']],
    ]);
    expect(parsed.problems.map((problem) => problem.line)).toEqual([4, 5, 6, 7, 8, 10]);
    expect(parsed.problems[0]?.why).toMatch(/negation/);
    expect(parsed.problems[5]?.why).toMatch(/ignored/);
  });

  it('matches hostile patterns in linear time, not by backtracking', () => {
    const stars = `/${'*?'.repeat(2000)}x @o\n`;
    const path = 'a'.repeat(3000);
    expect(ownersOf(stars, path)).toBeNull();
    const deep = `/${'**/a/'.repeat(200)} @o\n`;
    expect(ownersOf(deep, `${'b/'.repeat(300)}c`)).toBeNull();
  });

  it('treats control characters and odd bytes in a pattern as literal characters', () => {
    expect(ownersOf('/\u001b[31m/ @o\n', '\u001b[31m/x')).toBeNull();
    expect(ownersOf('/\u202eevil/ @o\n', '\u202eevil/x')).toEqual(['@o']);
    expect(parseCodeowners('/x @o @\u001b\n').problems).toHaveLength(1);
  });
});
