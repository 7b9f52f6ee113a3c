import { afterAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { WritError } from '../../src/errors.js';
import { readInputFile } from '../../src/io/input-file.js';
import { codeOf } from '../support/code-of.js';

const workspace = mkdtempSync(join(tmpdir(), 'writ-ws-'));
const runnerTemp = mkdtempSync(join(tmpdir(), 'writ-temp-'));
const outside = mkdtempSync(join(tmpdir(), 'writ-outside-'));
const roots = { workspace, runnerTemp };
writeFileSync(join(workspace, 'page.md'), 'in the workspace\n');
writeFileSync(join(runnerTemp, 'page.md'), 'in the temp dir\n');
writeFileSync(join(outside, 'credentials'), 'aws_secret_access_key=wJalrXUtnFEMI\n');
mkdirSync(join(workspace, 'sub'));
symlinkSync(join(workspace, 'page.md'), join(runnerTemp, 'to-workspace'));
symlinkSync('/proc/self/environ', join(workspace, 'environ'));
symlinkSync(join(outside, 'credentials'), join(workspace, 'creds'));
symlinkSync(join(workspace, 'creds'), join(workspace, 'chain-1'));
symlinkSync(join(workspace, 'chain-1'), join(workspace, 'chain-2'));
symlinkSync(outside, join(workspace, 'linked-dir'));
symlinkSync(join(workspace, 'missing'), join(workspace, 'dangling'));
symlinkSync(join(workspace, 'loop-b'), join(workspace, 'loop-a'));
symlinkSync(join(workspace, 'loop-a'), join(workspace, 'loop-b'));
execFileSync('mkfifo', [join(workspace, 'fifo')]);

afterAll(() => {
  for (const dir of [workspace, runnerTemp, outside]) rmSync(dir, { recursive: true, force: true });
});

function messageOf(path: string): string {
  try {
    readInputFile(path, 'content-file', roots, 1024);
  } catch (error: unknown) {
    return error instanceof WritError ? error.message : 'not-a-writ-error';
  }
  return '';
}

describe('readInputFile', () => {
  it('reads a regular file in the workspace or the runner temp directory', () => {
    expect(readInputFile(join(workspace, 'page.md'), 'content-file', roots, 1024).toString()).toBe(
      'in the workspace\n',
    );
    expect(readInputFile(join(runnerTemp, 'page.md'), 'content-file', roots, 1024).toString()).toBe(
      'in the temp dir\n',
    );
  });

  it('follows a symlink whose target is inside a root', () => {
    expect(readInputFile(join(runnerTemp, 'to-workspace'), 'content-file', roots, 1024).toString()).toBe(
      'in the workspace\n',
    );
  });

  it.each([
    ['/proc/self/environ', '/proc/self/environ', 'outside'],
    ['a symlink to /proc/self/environ', join(workspace, 'environ'), 'outside'],
    ['a symlink to a credentials file', join(workspace, 'creds'), 'outside'],
    ['a chain of symlinks out', join(workspace, 'chain-2'), 'outside'],
    ['a file under a symlinked parent directory', join(workspace, 'linked-dir', 'credentials'), 'outside'],
    ['.. out of the workspace', join(workspace, '..', basename(outside), 'credentials'), 'outside'],
    ['a relative path out', `../../../../../../../../..${outside}/credentials`, 'outside'],
    ['/etc/passwd', '/etc/passwd', 'outside'],
    ['/dev/zero', '/dev/zero', 'outside'],
    ['a root itself', workspace, 'outside'],
    ['a directory', join(workspace, 'sub'), 'a directory'],
    ['a FIFO', join(workspace, 'fifo'), 'a FIFO'],
    ['a missing file', join(workspace, 'nope.md'), 'ENOENT'],
    ['a dangling symlink', join(workspace, 'dangling'), 'ENOENT'],
    ['a symlink loop', join(workspace, 'loop-a'), 'ELOOP'],
    ['an empty path', '', 'empty'],
    ['a path with NUL', `${join(workspace, 'page.md')}\u0000.txt`, 'NUL'],
  ])('refuses %s', (_name, path, why) => {
    expect(codeOf(() => readInputFile(path, 'content-file', roots, 1024))).toBe('invalid-input');
    const message = messageOf(path);
    expect(message).toContain(why);
    expect(message).toContain("input 'content-file'");
    if (path !== '') expect(message).not.toContain(path);
  });

  it('refuses a file over the size limit before reading it', () => {
    writeFileSync(join(runnerTemp, 'big.md'), 'x'.repeat(2048));
    expect(codeOf(() => readInputFile(join(runnerTemp, 'big.md'), 'content-file', roots, 1024))).toBe(
      'invalid-input',
    );
  });

  it('treats a root of / as no root at all', () => {
    expect(
      codeOf(() => readInputFile(join(outside, 'credentials'), 'content-file', { workspace: '/' }, 1024)),
    ).toBe('invalid-input');
  });

  it('treats a root that does not exist as no root at all', () => {
    const gone = { workspace: join(outside, 'no-such-workspace'), runnerTemp: join(outside, 'no-such-temp') };
    expect(codeOf(() => readInputFile(join(workspace, 'page.md'), 'content-file', gone, 1024))).toBe(
      'invalid-input',
    );
  });

  it('has no temp root when the runner gives none', () => {
    expect(
      codeOf(() => readInputFile(join(runnerTemp, 'page.md'), 'pr-body-file', { workspace }, 1024)),
    ).toBe('invalid-input');
  });
});
