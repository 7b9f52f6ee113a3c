/**
 * The idempotency pre-check: read the primary (immediately consistent) list endpoint, never search,
 * page by page up to a cap, and look for the exact marker on an item authored by Writ's own identity.
 * A failed read or reaching the cap is `inconclusive`: the caller must not create.
 */
import { errorMessage } from '../errors.js';
import { hasMarker } from './key.js';

export interface ListedItem {
  id: number;
  number?: number;
  body?: string | null;
  user: { login: string } | null;
  created_at: string;
  html_url?: string;
}

export interface ListedPage {
  items: readonly ListedItem[];
  /** Whether the endpoint reported a next page (`Link: rel="next"`). */
  hasNext: boolean;
}

/** Reads one page (1-based) of the list endpoint, unfiltered. */
export type PageReader = (page: number) => Promise<ListedPage>;

export type PrecheckResult =
  | { status: 'absent'; pagesRead: number; foreign?: ListedItem[] }
  | {
      status: 'exists';
      item: ListedItem;
      duplicates: ListedItem[];
      pagesRead: number;
      foreign?: ListedItem[];
    }
  | { status: 'inconclusive'; reason: 'read-failed' | 'page-cap'; detail: string; pagesRead: number };

export const DEFAULT_MAX_PAGES = 20;

/** Oldest first: earliest creation, then lowest ID (IDs grow with time on GitHub). */
export function oldestFirst(a: ListedItem, b: ListedItem): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  return a.id - b.id;
}

export async function findMarked(
  readPage: PageReader,
  options: { marker: string; ownLogin: string; maxPages?: number },
): Promise<PrecheckResult> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const own = options.ownLogin.toLowerCase();
  const matches: ListedItem[] = [];
  /** Items carrying the exact marker that Writ did not author: reported, never counted. */
  const foreign: ListedItem[] = [];
  let pagesRead = 0;
  for (let page = 1; ; page++) {
    if (page > maxPages) {
      return {
        status: 'inconclusive',
        reason: 'page-cap',
        detail: `stopped after ${maxPages} pages`,
        pagesRead,
      };
    }
    let result: ListedPage;
    try {
      result = await readPage(page);
    } catch (error: unknown) {
      return { status: 'inconclusive', reason: 'read-failed', detail: errorMessage(error), pagesRead };
    }
    pagesRead += 1;
    for (const item of result.items) {
      if (!hasMarker(item.body, options.marker)) continue;
      if (item.user?.login.toLowerCase() === own) matches.push(item);
      else foreign.push(item);
    }
    if (!result.hasNext) break;
  }
  if (matches.length === 0) return { status: 'absent', pagesRead, foreign };
  const [item, ...duplicates] = [...matches].sort(oldestFirst) as [ListedItem, ...ListedItem[]];
  return { status: 'exists', item, duplicates, pagesRead, foreign };
}
