import { describe, expect, it } from '@jest/globals';
import {
  hasMarker,
  idempotencyKey,
  idempotencyMarker,
  statusMarker,
  withMarker,
} from '../../src/idempotency/key.js';
import type { ListedItem, PageReader } from '../../src/idempotency/precheck.js';
import { findOwnMarked, graphqlAuthor, isOwnAuthor, ownMarked } from '../../src/idempotency/precheck.js';

const KEY = idempotencyKey({
  method: 'POST',
  pathTemplate: '/repos/{owner}/{repo}/issues',
  body: { title: 't', body: 'b' },
});
const MARKER = idempotencyMarker(KEY);

function item(
  id: number,
  body: string | null,
  login = 'writ-app[bot]',
  created = `2026-11-30T08:00:${String(id % 60).padStart(2, '0')}Z`,
): ListedItem {
  return { id, number: id, body, user: { login }, created_at: created };
}

function pages(all: ListedItem[][]): PageReader & { reads: number[] } {
  const reads: number[] = [];
  const reader = (page: number) => {
    reads.push(page);
    return Promise.resolve({ items: all[page - 1] ?? [], hasNext: page < all.length });
  };
  return Object.assign(reader, { reads });
}

describe('idempotency key and marker', () => {
  it('depends only on method, path template and body, in canonical form', () => {
    const again = idempotencyKey({
      method: 'POST',
      pathTemplate: '/repos/{owner}/{repo}/issues',
      body: { body: 'b', title: 't' },
    });
    expect(again).toBe(KEY);
    expect(
      idempotencyKey({
        method: 'POST',
        pathTemplate: '/repos/{owner}/{repo}/issues',
        body: { title: 't', body: 'c' },
      }),
    ).not.toBe(KEY);
    expect(MARKER).toMatch(/^<!-- writ-idempotency-key: sha256:[0-9a-f]{64} -->$/);
    expect(withMarker('hello', MARKER)).toBe(`hello\n\n${MARKER}`);
    expect(statusMarker('run-1')).toBe('<!-- writ-status run=run-1 -->');
  });

  it('matches the exact marker substring only', () => {
    expect(hasMarker(`x ${MARKER} y`, MARKER)).toBe(true);
    expect(hasMarker(MARKER.replace('-->', ' -->'), MARKER)).toBe(false);
    expect(hasMarker(MARKER.slice(0, -5), MARKER)).toBe(false);
    expect(hasMarker(null, MARKER)).toBe(false);
  });
});

describe('findOwnMarked', () => {
  it('finds a marked item on a later page', async () => {
    const reader = pages([
      [item(1, 'a'), item(2, null)],
      [item(3, 'b'), item(4, withMarker('x', MARKER))],
    ]);
    const result = await findOwnMarked(reader, { marker: MARKER, ownLogin: 'writ-app[bot]' });
    expect(result).toMatchObject({ status: 'exists', item: { id: 4 }, duplicates: [], pagesRead: 2 });
    expect(reader.reads).toEqual([1, 2]);
  });

  it('ignores the marker on an item another account wrote (a spoof cannot block or redirect a create), and reports it', async () => {
    const reader = pages([[item(1, MARKER, 'mallory')]]);
    expect(await findOwnMarked(reader, { marker: MARKER, ownLogin: 'writ-app[bot]' })).toEqual({
      status: 'absent',
      pagesRead: 1,
      foreign: [expect.objectContaining({ id: 1 })],
    });
  });

  it('reports the oldest of duplicates as the winner and the rest for retirement', async () => {
    const reader = pages([
      [
        item(9, MARKER, 'writ-app[bot]', '2026-11-30T08:00:02Z'),
        item(5, MARKER, 'WRIT-APP[bot]', '2026-11-30T08:00:01Z'),
      ],
    ]);
    const result = await findOwnMarked(reader, { marker: MARKER, ownLogin: 'writ-app[bot]' });
    expect(result).toMatchObject({ status: 'exists', item: { id: 5 }, duplicates: [{ id: 9 }] });
  });

  it('is inconclusive when a page read fails, never absent', async () => {
    const reader: PageReader = (page) =>
      page === 2
        ? Promise.reject(new Error('HTTP 502'))
        : Promise.resolve({ items: [item(1, 'a')], hasNext: true });
    expect(await findOwnMarked(reader, { marker: MARKER, ownLogin: 'writ-app[bot]' })).toEqual({
      status: 'inconclusive',
      reason: 'read-failed',
      detail: 'HTTP 502',
      pagesRead: 1,
    });
  });

  it('is inconclusive at the page cap, never absent', async () => {
    const reader = pages(Array.from({ length: 5 }, (_, i) => [item(i + 1, 'x')]));
    expect(
      await findOwnMarked(reader, { marker: MARKER, ownLogin: 'writ-app[bot]', maxPages: 3 }),
    ).toMatchObject({
      status: 'inconclusive',
      reason: 'page-cap',
      pagesRead: 3,
    });
  });
});

describe("the one marker rule: only what Writ's app wrote counts (issue 26, class 2)", () => {
  const OWN = 'writ-app[bot]';

  it('is Writ only for its bot login, of type Bot, with its ID when known', () => {
    expect(isOwnAuthor({ login: 'writ-app[bot]', type: 'Bot', id: 7 }, OWN)).toBe(true);
    expect(isOwnAuthor({ login: 'WRIT-APP[BOT]' }, OWN)).toBe(true);
    expect(isOwnAuthor({ login: 'writ-app[bot]', type: 'User' }, OWN)).toBe(false);
    expect(isOwnAuthor({ login: 'writ-app[bot]', type: 'Bot', id: 8 }, { login: OWN, id: 7 })).toBe(false);
    expect(isOwnAuthor({ login: 'writ-app[bot]', type: 'Bot', id: 7 }, { login: OWN, id: 7 })).toBe(true);
    for (const login of ['mallory', 'github-actions[bot]', 'other-app[bot]', 'writ-app'])
      expect(isOwnAuthor({ login, type: login.endsWith('[bot]') ? 'Bot' : 'User' }, OWN)).toBe(false);
    expect(isOwnAuthor(null, OWN)).toBe(false);
    expect(isOwnAuthor(undefined, OWN)).toBe(false);
  });

  it('applies to a milestone through its creator and description', () => {
    const milestone = (id: number, login: string): ListedItem => ({
      id,
      number: id,
      description: `notes\n\n${MARKER}`,
      creator: { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' },
      created_at: `2026-11-30T08:00:0${id}Z`,
    });
    const split = ownMarked(
      [milestone(3, OWN), milestone(1, 'mallory'), milestone(2, 'github-actions[bot]'), milestone(4, OWN)],
      MARKER,
      OWN,
    );
    expect(split.own.map((m) => m.id)).toEqual([3, 4]);
    expect(split.foreign.map((m) => m.id)).toEqual([1, 2]);
  });

  it('reports an item with the marker but a deleted author as foreign', async () => {
    const orphan: ListedItem = { id: 1, body: MARKER, user: null, created_at: '2026-11-30T08:00:00Z' };
    expect(await findOwnMarked(pages([[orphan]]), { marker: MARKER, ownLogin: OWN })).toEqual({
      status: 'absent',
      pagesRead: 1,
      foreign: [orphan],
    });
  });
});

describe('graphqlAuthor: a GraphQL actor read as isOwnAuthor reads a REST user', () => {
  const own = { login: 'writ-ledger[bot]', id: 77 };

  it('gives a Bot its `[bot]` suffix back, by type, with its database ID', () => {
    const author = graphqlAuthor({ __typename: 'Bot', login: 'writ-ledger', databaseId: 77 });
    expect(author).toEqual({ login: 'writ-ledger[bot]', id: 77, type: 'Bot' });
    expect(isOwnAuthor(author, own)).toBe(true);
  });

  it('never by name: a user or organization called like the app, or another bot, is not Writ', () => {
    for (const actor of [
      { __typename: 'User', login: 'writ-ledger[bot]' },
      { __typename: 'User', login: 'writ-ledger' },
      { __typename: 'Organization', login: 'writ-ledger[bot]' },
      { __typename: 'Bot', login: 'writ-ledger', databaseId: 78 },
      { __typename: 'Bot', login: 'other-app', databaseId: 77 },
      { login: 'writ-ledger' },
    ]) {
      expect(isOwnAuthor(graphqlAuthor(actor), own)).toBe(false);
    }
  });

  it('reads nothing from an actor that is not one (a deleted account is null)', () => {
    for (const value of [null, undefined, 'writ-ledger[bot]', [], {}, { login: 7, __typename: 'Bot' }]) {
      expect(graphqlAuthor(value)).toBeNull();
    }
  });
});
