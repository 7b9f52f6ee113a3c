/**
 * The one rule for Writ's hidden markers on GitHub: a marker counts only on an item Writ's own app
 * wrote (an issue's or comment's `user`, a milestone's `creator`), whatever the resource kind. Every
 * marker lookup goes through `ownMarked` (items already read) or `findOwnMarked` (the idempotency
 * pre-check: read the primary, immediately consistent list endpoint, never search, page by page up to
 * a cap). A failed read or reaching the cap is `inconclusive`: the caller must not create.
 */
import { errorMessage } from '../errors.js';
import { hasMarker } from './key.js';

/** An account as GitHub answers it (`simple-user`): `type` is `Bot` for an app's bot user. */
export interface Author {
  login: string;
  id?: number;
  type?: string;
}

/**
 * An actor as GitHub's GraphQL answers it (`login`, `__typename`, `databaseId` on a Bot), as an
 * `Author`. GraphQL gives a Bot's login without REST's `[bot]` suffix (`writ-ledger`, not
 * `writ-ledger[bot]`): an actor whose `__typename` is `Bot` gets it back, by type, never by name, so
 * `isOwnAuthor` reads GraphQL's actors as it reads REST's users.
 */
export function graphqlAuthor(value: unknown): Author | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const node = value as Record<string, unknown>;
  if (typeof node.login !== 'string') return null;
  const type = typeof node.__typename === 'string' ? node.__typename : undefined;
  return {
    login: type === 'Bot' ? `${node.login}[bot]` : node.login,
    ...(typeof node.databaseId === 'number' ? { id: node.databaseId } : {}),
    ...(type === undefined ? {} : { type }),
  };
}

/** Writ's own identity: its app's bot user, `<app slug>[bot]`, and its numeric ID where known. */
export interface OwnIdentity {
  login: string;
  id?: number;
}

export interface ListedItem {
  id: number;
  number?: number;
  /** An issue's or comment's text. */
  body?: string | null;
  /** A milestone's text. */
  description?: string | null;
  /** An issue's or comment's author. */
  user?: Author | null;
  /** A milestone's author. */
  creator?: Author | null;
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

function identityOf(own: string | OwnIdentity): OwnIdentity {
  return typeof own === 'string' ? { login: own } : own;
}

/**
 * Whether `author` is Writ's own app bot: the same login (GitHub logins are case-insensitive), an
 * account of type `Bot` whenever the answer says its type, and the same numeric ID when Writ knows its
 * own. A deleted account (`null`) is never Writ.
 */
export function isOwnAuthor(author: Author | null | undefined, own: string | OwnIdentity): boolean {
  if (author === null || author === undefined || typeof author.login !== 'string') return false;
  const identity = identityOf(own);
  if (author.login.toLowerCase() !== identity.login.toLowerCase()) return false;
  if (author.type !== undefined && author.type !== 'Bot') return false;
  if (identity.id !== undefined && author.id !== identity.id) return false;
  return true;
}

/** Who wrote an item: an issue's or comment's `user`, a milestone's `creator`. */
export function authorOf(item: ListedItem): Author | null {
  return item.user ?? item.creator ?? null;
}

/** The text a marker lives in: an issue's or comment's body, a milestone's description. */
export function markedText(item: ListedItem): string | null {
  return item.body ?? item.description ?? null;
}

/**
 * Items carrying the exact `marker`, split by authorship: `own` (Writ's app wrote them), oldest first,
 * and `foreign` (anyone else: reported, never counted, never adopted).
 */
export function ownMarked<T extends ListedItem>(
  items: readonly T[],
  marker: string,
  own: string | OwnIdentity,
): { own: T[]; foreign: T[] } {
  const mine: T[] = [];
  const foreign: T[] = [];
  for (const item of items) {
    if (!hasMarker(markedText(item), marker)) continue;
    if (isOwnAuthor(authorOf(item), own)) mine.push(item);
    else foreign.push(item);
  }
  return { own: mine.sort(oldestFirst), foreign };
}

export async function findOwnMarked(
  readPage: PageReader,
  options: { marker: string; ownLogin: string | OwnIdentity; maxPages?: number },
): Promise<PrecheckResult> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
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
    const split = ownMarked(result.items, options.marker, options.ownLogin);
    matches.push(...split.own);
    foreign.push(...split.foreign);
    if (!result.hasNext) break;
  }
  if (matches.length === 0) return { status: 'absent', pagesRead, foreign };
  const [item, ...duplicates] = [...matches].sort(oldestFirst) as [ListedItem, ...ListedItem[]];
  return { status: 'exists', item, duplicates, pagesRead, foreign };
}
