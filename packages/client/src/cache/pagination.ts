// Paged list results: reading one page of a list kind, and following cursors within a page bound.
import { ErrorCode, ServerError } from '@mcpc/jsonrpc';
import { PaginationError, ValidationError } from '../errors.js';
import { combineHints, type CacheHints } from './list-cache.js';

export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | undefined;
  /** The page's caching hints (stateless servers only). */
  readonly hints?: CacheHints | undefined;
}

/** How to read one kind of list result. */
export interface ListKind<T> {
  readonly method: string;
  /** The array's key in the result: `tools`, `prompts`, `resources`, `resourceTemplates`. */
  readonly key: string;
  /** Singular, for messages. */
  readonly noun: string;
  /** A valid item, or a string saying why the raw item was dropped. */
  readonly read: (raw: unknown, server: string) => T | string;
}

export const DEFAULT_MAX_PAGES = 1000;

/**
 * Reads one page: a result that is not an object, or whose list is not an array, is a
 * `ValidationError` (nothing on it can be trusted); an invalid item is dropped and reported in
 * `dropped`, so one bad tool does not hide the others.
 */
export function readPage<T>(kind: ListKind<T>, raw: unknown, server: string, dropped: string[]): Page<T> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ValidationError(`server "${server}" answered ${kind.method} with something that is not an object`, {
      server,
      method: kind.method,
    });
  }
  const list = (raw as Record<string, unknown>)[kind.key];
  if (!Array.isArray(list)) {
    throw new ValidationError(`server "${server}" answered ${kind.method} without a "${kind.key}" array`, {
      server,
      method: kind.method,
      issues: [`"${kind.key}" is ${list === null ? 'null' : typeof list}`],
    });
  }
  const items: T[] = [];
  for (let i = 0; i < list.length; i++) {
    const item = kind.read(list[i], server);
    if (typeof item === 'string') dropped.push(`${kind.noun} #${i}: ${item}`);
    else items.push(item);
  }
  const next = (raw as Record<string, unknown>).nextCursor;
  // An empty cursor can only mean "no more": treat it as the end rather than ask for page "".
  const nextCursor = typeof next === 'string' && next.length > 0 ? next : undefined;
  if (next !== undefined && next !== null && typeof next !== 'string')
    dropped.push(`nextCursor is not a string; stopped after this page`);
  return { items, nextCursor };
}

/**
 * Follows `nextCursor` to the complete set. A cursor the server already returned means a loop, and
 * more than `maxPages` pages means a list that does not end: both throw a `PaginationError` carrying the
 * items read so far, rather than returning a list that is silently incomplete.
 */
export async function collectPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  context: { readonly server: string; readonly method: string; readonly maxPages: number },
): Promise<{ items: T[]; hints: CacheHints | undefined }> {
  for (let restarted = false; ; restarted = true) {
    try {
      return await collect(fetchPage, context);
    } catch (error) {
      // A cursor the server no longer accepts (-32602) ends that page sequence: start over, once
      // (SEP-2549: discard the pages and re-fetch from the beginning).
      if (restarted || !(error instanceof RejectedCursor)) throw error instanceof RejectedCursor ? error.cause : error;
    }
  }
}

class RejectedCursor extends Error {}

async function collect<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  context: { readonly server: string; readonly method: string; readonly maxPages: number },
): Promise<{ items: T[]; hints: CacheHints | undefined }> {
  const all: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  let hints: CacheHints | undefined;
  for (let pages = 0; ;) {
    let page: Page<T>;
    try {
      page = await fetchPage(cursor);
    } catch (error) {
      if (cursor !== undefined && error instanceof ServerError && error.rpcCode === ErrorCode.InvalidParams)
        throw new RejectedCursor('cursor rejected', { cause: error });
      throw error;
    }
    pages++;
    if (page.hints !== undefined) hints = combineHints(hints, page.hints);
    // A list that fits one page (the usual case) is that page's array: no copy of it.
    if (page.nextCursor === undefined && pages === 1) return { items: page.items, hints };
    for (const item of page.items) all.push(item);
    if (page.nextCursor === undefined) return { items: all, hints };
    if (seen.has(page.nextCursor)) throw new PaginationError('cursor-loop', context.server, context.method, pages, all);
    if (pages >= context.maxPages) throw new PaginationError('page-limit', context.server, context.method, pages, all);
    seen.add(page.nextCursor);
    cursor = page.nextCursor;
  }
}
