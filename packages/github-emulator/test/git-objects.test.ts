/** Git objects byte for byte: blobs, trees and commits hash and read back as git's own tools do. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { GitStore, hashObject } from '@writ/github-emulator/git.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'writ-emu-git-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('git objects', () => {
  it('hashes a blob exactly as git hash-object does', () => {
    const dir = tempDir();
    const content = 'hello\nworld\n\u00e9';
    writeFileSync(join(dir, 'f'), content);
    const expected = execFileSync('git', ['hash-object', join(dir, 'f')], { encoding: 'utf8' }).trim();
    expect(hashObject('blob', Buffer.from(content))).toBe(expected);
  });

  it('writes trees and commits that git reads back with the same ids and passes fsck --strict', () => {
    const store = new GitStore();
    const changes = new Map<string, { mode: string; sha: string } | null>([
      ['a.txt', { mode: '100644', sha: store.putBlob(Buffer.from('a')) }],
      ['a-b/c.txt', { mode: '100644', sha: store.putBlob(Buffer.from('c')) }],
      ['a/z.sh', { mode: '100755', sha: store.putBlob(Buffer.from('#!/bin/sh\n')) }],
    ]);
    const tree = store.applyChanges(null, changes);
    const identity = { name: 'A U Thor', email: 'a@example.com', time: 1700000000, tz: '+0000' };
    const root = store.putCommit({
      tree,
      parents: [],
      author: identity,
      committer: identity,
      message: 'root\n',
    });
    const tree2 = store.applyChanges(tree, new Map([['a/z.sh', null]]));
    const child = store.putCommit({
      tree: tree2,
      parents: [root],
      author: identity,
      committer: identity,
      message: 'child',
    });
    const dir = join(tempDir(), 'bare.git');
    return store.exportBare(dir, new Map([['refs/heads/main', child]]), 'refs/heads/main').then(() => {
      execFileSync('git', ['-C', dir, 'fsck', '--strict', '--no-dangling'], { stdio: 'pipe' });
      const log = execFileSync('git', ['-C', dir, 'log', '--format=%H %T', 'main'], {
        encoding: 'utf8',
      }).trim();
      expect(log.split('\n')).toEqual([`${child} ${tree2}`, `${root} ${tree}`]);
      const listing = execFileSync('git', ['-C', dir, 'ls-tree', '-r', '--name-only', root], {
        encoding: 'utf8',
      });
      expect(listing.trim().split('\n')).toEqual(['a-b/c.txt', 'a.txt', 'a/z.sh']);
      expect(store.tree(tree2).map((entry) => entry.name)).toEqual(['a-b', 'a.txt']);
    });
  });

  it('orders history newest first and knows ancestry', () => {
    const store = new GitStore();
    const tree = store.applyChanges(null, new Map());
    const at = (time: number) => ({ name: 'x', email: 'x@example.com', time, tz: '+0000' });
    const a = store.putCommit({ tree, parents: [], author: at(1), committer: at(1), message: 'a' });
    const b = store.putCommit({ tree, parents: [a], author: at(2), committer: at(2), message: 'b' });
    const c = store.putCommit({ tree, parents: [b], author: at(3), committer: at(3), message: 'c' });
    expect(store.history(c)).toEqual([c, b, a]);
    expect(store.isAncestor(a, c)).toBe(true);
    expect(store.isAncestor(c, a)).toBe(false);
  });
});
