/**
 * The lane read's answer, parsed: what GitHub's answer does not prove reads as the cautious case (no
 * adoption of a pull request from another head, no trust in a comparison of other heads, REST past
 * one page of pull requests, no overwrite of a non-file).
 */
import { describe, expect, it } from '@jest/globals';
import type { LaneRequest } from '../../src/artifact/lane-read.js';
import { laneSelection, parseLane } from '../../src/artifact/lane-read.js';

const lane: LaneRequest = {
  repository: { owner: 'acme', repo: 'widgets' },
  branch: 'bot/writ-artifact',
  base: null,
  path: 'docs/x.md',
};
const BASE = 'a'.repeat(40);
const HEAD = 'b'.repeat(40);
const FILE = 'c'.repeat(40);

function commit(oid: string, file: unknown = null, root: unknown = null): Record<string, unknown> {
  return { target: { oid, writRoot: root, writFile: file } };
}

function pull(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    number: 7,
    url: 'https://github.com/acme/widgets/pull/7',
    title: 'docs: refresh docs/x.md',
    body: '',
    state: 'OPEN',
    isCrossRepository: false,
    headRefName: 'bot/writ-artifact',
    baseRefName: 'main',
    headRepository: { nameWithOwner: 'acme/widgets' },
    ...overrides,
  };
}

function answer(
  options: {
    compare?: unknown;
    head?: unknown;
    pulls?: unknown[];
    hasNextPage?: boolean;
  } = {},
): Record<string, unknown> {
  return {
    writLaneDefault: {
      name: 'main',
      ...commit(BASE),
      writCompare:
        options.compare === undefined
          ? { status: 'AHEAD', behindBy: 0, baseTarget: { oid: BASE }, headTarget: { oid: HEAD } }
          : options.compare,
    },
    writLaneHead:
      options.head === undefined
        ? commit(HEAD, { mode: 0o100644, object: { oid: FILE, text: 'a\n', isTruncated: false } })
        : options.head,
    writLanePulls: {
      pageInfo: { hasNextPage: options.hasNextPage ?? false },
      nodes: options.pulls ?? [pull()],
    },
  };
}

describe('the lane read', () => {
  it('selects the default branch when no base is given, and the named base otherwise', () => {
    expect(laneSelection(lane)).toContain('writLaneDefault: defaultBranchRef { name target');
    const named = laneSelection({ ...lane, base: 'release' });
    expect(named).toContain('writLaneBase: ref(qualifiedName: "refs/heads/release")');
    expect(named).toContain('baseRefName: "release"');
  });

  it('reads the heads, the file and the open pull request of its own branch', () => {
    const state = parseLane(answer(), lane);
    expect(state).toMatchObject({
      defaultBranch: 'main',
      base: 'main',
      baseHead: { oid: BASE, holdsLedgerRoot: false, fileOid: null },
      head: { oid: HEAD, fileOid: FILE, fileText: 'a\n', notAFile: false },
      headHoldsBase: true,
      pulls: { open: { number: 7 }, closedUnmerged: null },
    });
  });

  it('never adopts a pull request from a fork, another head repository, or a head it cannot see', () => {
    for (const other of [
      pull({ isCrossRepository: true, headRepository: { nameWithOwner: 'mallory/widgets' } }),
      pull({ isCrossRepository: true }),
      pull({ headRepository: null }),
      pull({ headRepository: { nameWithOwner: 'acme/other' } }),
      pull({ headRefName: 'bot/writ-artifact-2' }),
      pull({ baseRefName: 'release' }),
      pull({ isCrossRepository: null }),
    ]) {
      expect(parseLane(answer({ pulls: [other] }), lane).pulls).toEqual({ open: null, closedUnmerged: null });
    }
  });

  it('keeps the newest open and the newest closed-unmerged pull request; a merged one is neither', () => {
    const state = parseLane(
      answer({
        pulls: [
          pull({ number: 9, state: 'MERGED' }),
          pull({ number: 8, state: 'CLOSED' }),
          pull({ number: 5, state: 'CLOSED' }),
        ],
      }),
      lane,
    );
    expect(state.pulls).toEqual({
      open: null,
      closedUnmerged: { number: 8, html_url: 'https://github.com/acme/widgets/pull/7' },
    });
  });

  it('leaves more than one page of pull requests to the REST read', () => {
    expect(parseLane(answer({ hasNextPage: true }), lane).pulls).toBeNull();
  });

  it('trusts a comparison only of exactly the two heads it read, and only when not behind', () => {
    const holds = (compare: unknown): boolean => parseLane(answer({ compare }), lane).headHoldsBase;
    const exact = { baseTarget: { oid: BASE }, headTarget: { oid: HEAD } };
    expect(holds({ ...exact, status: 'IDENTICAL', behindBy: 0 })).toBe(true);
    expect(holds({ ...exact, status: 'BEHIND', behindBy: 2 })).toBe(false);
    expect(holds({ ...exact, status: 'DIVERGED', behindBy: 1 })).toBe(false);
    expect(holds({ ...exact, headTarget: { oid: 'd'.repeat(40) }, status: 'AHEAD', behindBy: 0 })).toBe(
      false,
    );
    expect(holds({ ...exact, baseTarget: { oid: 'd'.repeat(40) }, status: 'AHEAD', behindBy: 0 })).toBe(
      false,
    );
    expect(holds(null)).toBe(false);
  });

  it('marks a directory, a symlink or a submodule at the path as not a file, and a truncated text as empty', () => {
    for (const mode of [0o040000, 0o120000, 0o160000]) {
      const head = commit(HEAD, { mode, object: { oid: FILE, text: 'x' } });
      expect(parseLane(answer({ head }), lane).head).toMatchObject({ notAFile: true, fileOid: null });
    }
    const big = commit(HEAD, { mode: 0o100755, object: { oid: FILE, text: 'partial', isTruncated: true } });
    expect(parseLane(answer({ head: big }), lane).head).toMatchObject({ fileOid: FILE, fileText: '' });
  });

  it('sees a ledger root on either head, and an absent bot branch', () => {
    const state = parseLane(answer({ head: commit(HEAD, null, { oid: FILE }) }), lane);
    expect(state.head?.holdsLedgerRoot).toBe(true);
    expect(parseLane(answer({ head: null }), lane)).toMatchObject({ head: null, headHoldsBase: false });
  });

  it('refuses an empty repository (no default branch) as invalid input', () => {
    expect(() => parseLane({ writLaneDefault: null }, lane)).toThrow(
      expect.objectContaining({ code: 'invalid-input' }),
    );
  });
});
