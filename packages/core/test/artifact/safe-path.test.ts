import { describe, expect, it } from '@jest/globals';
import { WritError } from '../../src/errors.js';
import { foldSegment, validateArtifactPath } from '../../src/artifact/safe-path.js';
import { codeOf } from '../support/code-of.js';

const strict = { allowWorkflowFiles: false };

function messageOf(path: string): string {
  try {
    validateArtifactPath(path, strict);
  } catch (error: unknown) {
    return error instanceof WritError ? error.message : 'not-a-writ-error';
  }
  return '';
}

describe('validateArtifactPath', () => {
  it.each([
    'docs/reference/roadmap.md',
    'README.md',
    'docs/My Notes.md',
    'docs/café.md',
    '.github/CODEOWNERS',
    '.github/workflows-notes.md',
    'docs/.gitkeep',
    'docs/.gitignore',
    'docs/git~notes.md',
    '.gitattributes',
    'a/b/c/d/e.txt',
  ])('accepts %j', (path) => {
    expect(validateArtifactPath(path, strict)).toBe(path);
  });

  const dotGit = [
    '.git',
    '.git/config',
    '.GIT/config',
    '.Git/hooks/pre-commit',
    'docs/.git',
    'docs/.gIt/HEAD',
    '.git./config', // NTFS drops a trailing dot
    '.git /config', // … and a trailing space
    '.git. ./config',
    'git~1/config', // NTFS 8.3 short name
    'GIT~1/config',
    'Git~2/config',
    '.git::$INDEX_ALLOCATION/config', // NTFS alternate data stream
    '.git:stream',
    '.g\u200cit/config', // HFS ignores U+200C…
    '\u200c.git/config',
    '.git\u200d/config',
    '.gi\u200et/config',
    '.git\u206a/config',
    '.git\ufeff/config',
    '.\u202egit/config',
    '.ｇｉｔ/config', // fullwidth letters fold to ASCII
    '.gıt/config', // dotless i upper-cases to I
    '.git\\config', // a backslash is a separator on Windows
  ];
  it.each(dotGit)('refuses .git or an alias of it: %j', (path) => {
    expect(codeOf(() => validateArtifactPath(path, strict))).toBe('invalid-input');
  });

  it.each([
    ['', 'empty'],
    ['..', '. or ..'],
    ['.', '. or ..'],
    ['../x.md', '. or ..'],
    ['docs/../x.md', '. or ..'],
    ['docs/./x.md', '. or ..'],
    ['./x.md', '. or ..'],
    ['a//b.md', 'empty'],
    ['docs/', 'empty'],
    ['/abs.md', 'absolute'],
    ['//server/share.md', 'absolute'],
    ['C:/x.md', 'NTFS'],
    ['C:x.md', 'NTFS'],
    ['c:\\x.md', 'NTFS'],
    ['docs\\..\\x.md', 'NTFS'],
    ['docs/a*b.md', 'NTFS'],
    ['docs/a?b.md', 'NTFS'],
    ['docs/a<b>.md', 'NTFS'],
    ['docs/a|b.md', 'NTFS'],
    ['docs/a"b.md', 'NTFS'],
    ['docs/x.', 'dot or a space'],
    ['docs/x ', 'dot or a space'],
    ['docs./x.md', 'dot or a space'],
    ['docs/nul', 'DOS device'],
    ['docs/CON.md', 'DOS device'],
    ['aux/x.md', 'DOS device'],
    ['docs/com1.txt', 'DOS device'],
    ['docs/LPT9', 'DOS device'],
    ['docs/x\u0000.md', 'control'],
    ['docs/x\u0001.md', 'control'],
    ['docs/x\t.md', 'control'],
    ['docs/x\n.md', 'control'],
    ['docs/x\r.md', 'control'],
    ['docs/x\u001b[31m.md', 'control'],
    ['docs/x\u007f.md', 'control'],
    ['docs/x\u0085.md', 'control'],
    ['docs/\u202egpj.md', 'format'], // right-to-left override
    ['docs/x\u2066.md', 'format'], // left-to-right isolate
    ['docs/x\u200b.md', 'format'], // zero-width space
    ['docs/x\u00ad.md', 'format'], // soft hyphen
    ['docs/x\u2028.md', 'format'],
    ['docs/\u00a0x.md', 'invisible'],
    ['docs/x\u3000.md', 'invisible'],
    ['docs/x\u3164.md', 'invisible'], // Hangul filler
    ['docs/x\ufe0f.md', 'invisible'], // variation selector
    ['docs/x\ue000.md', 'format'], // private use
    ['docs/\ud800.md', 'surrogate'],
    [`docs/${'a'.repeat(256)}`, 'longer'],
  ])('refuses %j (%s)', (path, rule) => {
    expect(codeOf(() => validateArtifactPath(path, strict))).toBe('invalid-input');
    expect(messageOf(path)).toContain(rule);
  });

  it.each([
    '.github/workflows/evil.yml',
    '.github/workflows/sub/evil.yaml',
    '.GitHub/Workflows/evil.yml',
    '.github/WORKFLOWS/evil.yml',
    '.github/workflowſ/evil.yml', // long s folds to s
    '.github/workflows',
  ])('refuses %j under .github/workflows/ unless workflow files are allowed', (path) => {
    expect(codeOf(() => validateArtifactPath(path, strict))).toBe('invalid-input');
    expect(messageOf(path)).toContain('allow-workflow-files');
    expect(validateArtifactPath(path, { allowWorkflowFiles: true })).toBe(path);
  });

  it('still refuses .git under an allowed workflow directory', () => {
    expect(
      codeOf(() => validateArtifactPath('.github/workflows/.git/config', { allowWorkflowFiles: true })),
    ).toBe('invalid-input');
  });

  it('never echoes the path in its message', () => {
    for (const path of ['docs/\u202egpj.md', 'docs/x\u001b]0;pwned\u0007.md', '.git/<img src=x>']) {
      const message = messageOf(path);
      expect(message).not.toContain(path);
      expect(message).not.toMatch(/[\u0000-\u001f\u202a-\u202e]/);
    }
  });

  it('folds case and compatibility forms the way case-insensitive checkouts do', () => {
    expect(foldSegment('.GIT')).toBe('.git');
    expect(foldSegment('.ｇｉｔ')).toBe('.git');
    expect(foldSegment('WORKFLOWſ')).toBe('workflows');
    expect(foldSegment('wor\u212aflows')).toBe('workflows'); // Kelvin sign
  });
});
