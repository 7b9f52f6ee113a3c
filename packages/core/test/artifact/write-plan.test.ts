/** The publisher's one write plan, pure: what the dry run lists is what the live path would write. */
import { describe, expect, it } from '@jest/globals';
import { describeWrites, hasWrites, planWrites, pullWrite } from '../../src/artifact/publish.js';

const wanted = { fileOid: 'b'.repeat(40), prTitle: 'docs: refresh x.md', prBody: 'body' };
const openPull = {
  number: 7,
  html_url: 'https://github.com/acme/widgets/pull/7',
  title: wanted.prTitle,
  body: 'body',
};
const where = { repository: { owner: 'acme', repo: 'widgets' }, branch: 'bot/a', base: 'main', path: 'x.md' };

describe('the publish write plan', () => {
  it('a first publish creates the branch, commits the file and opens the pull request', () => {
    const plan = planWrites({ headOid: null, fileOid: null, openPull: null }, wanted);
    expect(plan).toEqual({ createBranch: true, commitFile: true, pull: { kind: 'open' } });
    expect(describeWrites(plan, where)).toEqual([
      'POST /repos/acme/widgets/git/refs (create bot/a at main)',
      'POST /graphql createCommitOnBranch (x.md on bot/a)',
      'POST /repos/acme/widgets/pulls (bot/a → main)',
      'POST /graphql createCommitOnBranch (ledger: artifact record)',
    ]);
  });

  it('the same file and pull request text: no writes', () => {
    const plan = planWrites({ headOid: 'a'.repeat(40), fileOid: wanted.fileOid, openPull }, wanted);
    expect(hasWrites(plan)).toBe(false);
  });

  it('a changed title or body updates the open pull request, by number', () => {
    expect(pullWrite({ ...openPull, body: null }, wanted)).toEqual({ kind: 'update', number: 7 });
    expect(pullWrite({ ...openPull, title: 'other' }, wanted)).toEqual({ kind: 'update', number: 7 });
    expect(pullWrite({ ...openPull, body: null }, { ...wanted, prBody: '' })).toEqual({ kind: 'none' });
    const plan = planWrites(
      { headOid: 'a'.repeat(40), fileOid: wanted.fileOid, openPull: { ...openPull, title: 'old' } },
      wanted,
    );
    expect(hasWrites(plan)).toBe(true);
    expect(describeWrites(plan, where)).toEqual([
      'PATCH /repos/acme/widgets/pulls/7',
      'POST /graphql createCommitOnBranch (ledger: artifact record)',
    ]);
  });

  it('a changed file on an existing branch is one commit, then the ledger record', () => {
    const plan = planWrites({ headOid: 'a'.repeat(40), fileOid: 'c'.repeat(40), openPull }, wanted);
    expect(plan).toEqual({ createBranch: false, commitFile: true, pull: { kind: 'none' } });
    expect(describeWrites(plan, where)).toEqual([
      'POST /graphql createCommitOnBranch (x.md on bot/a)',
      'POST /graphql createCommitOnBranch (ledger: artifact record)',
    ]);
  });
});
