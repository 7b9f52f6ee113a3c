/**
 * The edges of the idempotency pre-check and its markers (idempotency/key.ts, precheck.ts): exact marker
 * shapes, who counts as Writ, oldest-first order, and the page loop's bounds.
 */
import { describe, expect, it } from '@jest/globals';
import {
  hasMarker,
  idempotencyMarker,
  speaksMarkerLanguage,
  statusMarker,
  withMarker,
} from '../../src/idempotency/key.js';
import type { ListedItem, PageReader } from '../../src/idempotency/precheck.js';
import {
  DEFAULT_MAX_PAGES,
  authorOf,
  findOwnMarked,
  isOwnAuthor,
  markedText,
  oldestFirst,
} from '../../src/idempotency/precheck.js';

const BOT = 'writ-app[bot]';
const MARKER = idempotencyMarker(`sha256:${'c'.repeat(64)}`);

function item(id: number, created: string, body: string | null = MARKER, login = BOT): ListedItem {
  return { id, number: id, body, user: { login, type: 'Bot' }, created_at: created };
}

describe('markers', () => {
  it('are spelled exactly, and the body puts the marker after a blank line (alone for an empty text)', () => {
    expect(MARKER).toBe(`<!-- writ-idempotency-key: sha256:${'c'.repeat(64)} -->`);
    expect(statusMarker('run-9')).toBe('<!-- writ-status run=run-9 -->');
    expect(withMarker('', MARKER)).toBe(MARKER);
    expect(withMarker('Body', MARKER)).toBe(`Body\n\n${MARKER}`);
    expect(hasMarker(`x${MARKER}y`, MARKER)).toBe(true);
    expect(hasMarker(MARKER.toUpperCase(), MARKER)).toBe(false);
    expect(hasMarker(null, MARKER)).toBe(false);
    expect(hasMarker(undefined, MARKER)).toBe(false);
  });

  it('decodes named entities in any case and leaves unknown or out-of-range ones as they are', () => {
    expect(speaksMarkerLanguage('&LT;!-- writ-key: k -->')).toBe(true);
    expect(speaksMarkerLanguage('&lt&excl;&dash;&hyphen; writ-key: k -->')).toBe(true);
    expect(speaksMarkerLanguage('<!&minus;&#x2D;&nbsp;writ-key: k -->')).toBe(true);
    expect(speaksMarkerLanguage('&#X3C;!-- writ-key: k -->')).toBe(true);
    // Not decoded: an unknown name, a code point past U+10FFFF.
    expect(speaksMarkerLanguage('&bogus;!-- writ-key: k -->')).toBe(false);
    expect(speaksMarkerLanguage('&#x110000;!-- writ-key: k -->')).toBe(false);
    expect(speaksMarkerLanguage('&#1114112;!-- writ-key: k -->')).toBe(false);
    // Decoded up to three rounds: &amp;amp;lt; is < after three.
    expect(speaksMarkerLanguage('&amp;amp;lt;!-- writ-key: k -->')).toBe(true);
    expect(speaksMarkerLanguage('&amp;amp;amp;lt;!-- writ-key: k -->')).toBe(false);
    // Control and format characters inside are removed before looking; other letters are not.
    expect(speaksMarkerLanguage('<!--\u0007writ-key: k -->')).toBe(true);
    expect(speaksMarkerLanguage('<!--\u00adw\u200drit-key: k -->')).toBe(true);
    expect(speaksMarkerLanguage('<!-- wxrit-key: k -->')).toBe(false);
  });
});

describe('who wrote an item, and where its marker lives', () => {
  it("is Writ only for its bot's login (any case), a Bot when the type is given, with its ID when known", () => {
    expect(isOwnAuthor({ login: 'WRIT-APP[BOT]' }, BOT)).toBe(true);
    expect(isOwnAuthor({ login: BOT, type: 'Bot' }, { login: BOT })).toBe(true);
    expect(isOwnAuthor({ login: BOT, type: 'User' }, BOT)).toBe(false);
    expect(isOwnAuthor({ login: BOT, type: 'Bot', id: 5 }, { login: BOT, id: 5 })).toBe(true);
    expect(isOwnAuthor({ login: BOT, type: 'Bot', id: 6 }, { login: BOT, id: 5 })).toBe(false);
    expect(isOwnAuthor({ login: BOT, type: 'Bot' }, { login: BOT, id: 5 })).toBe(false);
    expect(isOwnAuthor({ login: 'writ-app' }, BOT)).toBe(false);
    expect(isOwnAuthor(null, BOT)).toBe(false);
    expect(isOwnAuthor(undefined, BOT)).toBe(false);
    expect(isOwnAuthor({ login: 7 } as unknown as { login: string }, BOT)).toBe(false);
  });

  it("reads an issue's or comment's user and body, a milestone's creator and description", () => {
    const user = { login: 'a' };
    const creator = { login: 'b' };
    expect(authorOf({ id: 1, created_at: '', user, creator })).toBe(user);
    expect(authorOf({ id: 1, created_at: '', creator })).toBe(creator);
    expect(authorOf({ id: 1, created_at: '' })).toBeNull();
    expect(markedText({ id: 1, created_at: '', body: 'b', description: 'd' })).toBe('b');
    expect(markedText({ id: 1, created_at: '', body: null, description: 'd' })).toBe('d');
    expect(markedText({ id: 1, created_at: '' })).toBeNull();
  });

  it('orders oldest first by creation time, then by ID', () => {
    const early = item(9, '2026-11-30T08:00:00Z');
    const late = item(1, '2026-11-30T08:00:01Z');
    const twin = item(3, '2026-11-30T08:00:00Z');
    expect(oldestFirst(early, late)).toBe(-1);
    expect(oldestFirst(late, early)).toBe(1);
    expect(oldestFirst(twin, early)).toBeLessThan(0);
    expect(oldestFirst(early, twin)).toBeGreaterThan(0);
    expect(oldestFirst(early, early)).toBe(0);
    expect([late, early, twin].sort(oldestFirst).map((i) => i.id)).toEqual([3, 9, 1]);
  });
});

describe('findOwnMarked: the page loop', () => {
  function endless(items: ListedItem[] = []): PageReader & { reads: number[] } {
    const reads: number[] = [];
    return Object.assign(
      (page: number) => {
        reads.push(page);
        return Promise.resolve({ items, hasNext: true });
      },
      { reads },
    );
  }

  it('stops at 20 pages by default and at maxPages when given, inconclusive, having read exactly that many', async () => {
    expect(DEFAULT_MAX_PAGES).toBe(20);
    const reader = endless([item(1, '2026-11-30T08:00:00Z')]);
    const capped = await findOwnMarked(reader, { marker: MARKER, ownLogin: BOT });
    expect(capped).toEqual({
      status: 'inconclusive',
      reason: 'page-cap',
      detail: 'stopped after 20 pages',
      pagesRead: 20,
    });
    expect(reader.reads).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const three = endless();
    expect(await findOwnMarked(three, { marker: MARKER, ownLogin: BOT, maxPages: 3 })).toMatchObject({
      detail: 'stopped after 3 pages',
      pagesRead: 3,
    });
  });

  it('reads the last allowed page when it is the last page: no cap reached', async () => {
    const reads: number[] = [];
    const reader: PageReader = (page) => {
      reads.push(page);
      return Promise.resolve({ items: [], hasNext: page < 2 });
    };
    expect(await findOwnMarked(reader, { marker: MARKER, ownLogin: BOT, maxPages: 2 })).toEqual({
      status: 'absent',
      pagesRead: 2,
      foreign: [],
    });
    expect(reads).toEqual([1, 2]);
  });

  it('reports a failed read with its reason and the pages read before it', async () => {
    const reader: PageReader = (page) =>
      page < 3
        ? Promise.resolve({ items: [], hasNext: true })
        : Promise.reject(new Error('HTTP 502 on page 3'));
    expect(await findOwnMarked(reader, { marker: MARKER, ownLogin: BOT })).toEqual({
      status: 'inconclusive',
      reason: 'read-failed',
      detail: 'HTTP 502 on page 3',
      pagesRead: 2,
    });
  });

  it('gathers own and foreign marked items across pages: the oldest wins, the rest are duplicates', async () => {
    const all: ListedItem[][] = [
      [item(5, '2026-11-30T08:00:05Z'), item(6, '2026-11-30T08:00:00Z', MARKER, 'mallory')],
      [item(2, '2026-11-30T08:00:02Z'), item(7, '2026-11-30T08:00:01Z', 'no marker')],
      [item(4, '2026-11-30T08:00:02Z')],
    ];
    const reader: PageReader = (page) =>
      Promise.resolve({ items: all[page - 1] ?? [], hasNext: page < all.length });
    const found = await findOwnMarked(reader, { marker: MARKER, ownLogin: BOT });
    expect(found.status).toBe('exists');
    if (found.status !== 'exists') return;
    expect(found.item.id).toBe(2);
    expect(found.duplicates.map((d) => d.id)).toEqual([4, 5]);
    expect(found.foreign?.map((f) => f.id)).toEqual([6]);
    expect(found.pagesRead).toBe(3);
  });
});
