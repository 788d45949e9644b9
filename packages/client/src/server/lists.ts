// One server's lists (tools, prompts, resources, templates): fetching, caching, staleness, and read results.
import { JsonRpcErrorCode, TransportErrorCode, escapeForLog } from '@mcpc/jsonrpc';
import { ResultCache, readHints, type CacheBinding, type CacheHints, type CacheInfo } from '../cache/list-cache.js';
import { collectPages, readPage, type ListKind, type Page } from '../cache/pagination.js';
import { PROMPTS } from '../features/prompts.js';
import { RESOURCES, TEMPLATES } from '../features/resources.js';
import { TOOLS } from '../features/tools.js';
import type { Connection } from './connection.js';

export type ListKindName = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

const KINDS: { readonly [K in ListKindName]: ListKind<unknown> } = {
  tools: TOOLS,
  prompts: PROMPTS,
  resources: RESOURCES,
  resourceTemplates: TEMPLATES,
};

/** Failures after which a stale copy may stand in (HTTP only): the server was not reached, or failed. */
const TRANSIENT: ReadonlySet<unknown> = new Set([
  TransportErrorCode.NetworkError,
  TransportErrorCode.TransientServerError,
  JsonRpcErrorCode.RequestTimeout,
  TransportErrorCode.ResponseStreamClosed,
]);

/** The most `resources/read` results kept per server: the peer chooses how many URIs there are. */
const MAX_READS = 256;

export interface ListsContext {
  readonly connection: Connection;
  readonly maxPages: number;
  readonly warn: (message: string) => void;
  /** A filter on items after they were read (tools with invalid `x-mcp-header` annotations). */
  readonly screen: (kind: ListKindName, items: unknown[], dropped: string[]) => unknown[];
}

/**
 * A server's cached results: the four lists, and `resources/read` by URI (MCP 2026-07-28 only, and
 * only with a positive `ttlMs`). See `ResultCache` for what is served when.
 */
export class ServerLists {
  readonly #context: ListsContext;
  readonly #lists: { readonly [K in ListKindName]: ResultCache<unknown[]> };
  readonly #reads = new Map<string, ResultCache<unknown>>();

  constructor(context: ListsContext) {
    this.#context = context;
    const make = (name: ListKindName): ResultCache<unknown[]> =>
      new ResultCache(() => this.#fetchAll(name), this.#cacheOptions(`${KINDS[name].method}`));
    this.#lists = {
      tools: make('tools'),
      prompts: make('prompts'),
      resources: make('resources'),
      resourceTemplates: make('resourceTemplates'),
    };
  }

  /** The whole list (every page), cached. */
  all(name: ListKindName): Promise<readonly unknown[]> {
    return this.#lists[name].get();
  }

  peek(name: ListKindName): readonly unknown[] | undefined {
    return this.#lists[name].peek();
  }

  info(name: ListKindName): CacheInfo {
    return this.#lists[name].info((items) => items.length);
  }

  readInfo(uri: string): CacheInfo {
    return this.#reads.get(uri)?.info() ?? { cached: false };
  }

  invalidate(name?: ListKindName): void {
    if (name !== undefined) return this.#lists[name].invalidate();
    for (const cache of Object.values(this.#lists)) cache.invalidate();
    this.#reads.clear();
  }

  invalidateRead(uri: string): void {
    this.#reads.get(uri)?.invalidate();
    this.#reads.delete(uri);
  }

  /** One explicit page (not cached: a cursor is the caller's). A rejected cursor also drops the cached list. */
  async page(name: ListKindName, cursor: string | undefined): Promise<Page<unknown>> {
    try {
      return await this.#fetchPage(name, cursor);
    } catch (error) {
      if (cursor !== undefined) this.#lists[name].invalidate();
      throw error;
    }
  }

  /**
   * A `resources/read` result, served from the cache while fresh. `read` makes the request and says
   * whether its answer may be cached (not one that took input_required rounds).
   */
  async read(uri: string, read: () => Promise<{ raw: unknown; cacheable: boolean }>): Promise<unknown> {
    if (!this.#context.connection.isModern) return (await read()).raw;
    let cache = this.#reads.get(uri);
    if (cache === undefined) {
      cache = new ResultCache(
        async () => {
          const { raw, cacheable } = await read();
          const hints = readHints(raw);
          // Kept only with a positive ttlMs: a read is not worth an entry the next read must replace.
          if (!cacheable || hints.ttlMs === 0) queueMicrotask(() => this.invalidateRead(uri));
          return { value: raw as object, hints };
        },
        this.#cacheOptions(`resources/read ${escapeForLog(uri, 100)}`),
      );
      if (this.#reads.size >= MAX_READS) this.#reads.delete(this.#reads.keys().next().value!);
      this.#reads.set(uri, cache);
    }
    return cache.get();
  }

  async #fetchAll(name: ListKindName): Promise<{ value: unknown[]; hints: CacheHints | undefined }> {
    const kind = KINDS[name];
    const { items, hints } = await collectPages((cursor) => this.#fetchPage(name, cursor), {
      server: this.#context.connection.name,
      method: kind.method,
      maxPages: this.#context.maxPages,
    });
    return {
      value: items,
      hints: this.#context.connection.isModern ? (hints ?? { ttlMs: 0, scope: 'private' }) : undefined,
    };
  }

  async #fetchPage(name: ListKindName, cursor: string | undefined): Promise<Page<unknown>> {
    const kind = KINDS[name];
    const { connection } = this.#context;
    const raw = await connection.request(kind.method, cursor === undefined ? undefined : { cursor });
    const dropped: string[] = [];
    const page = readPage(kind, raw, connection.name, dropped);
    const items = this.#context.screen(name, page.items, dropped);
    if (dropped.length > 0) {
      const more = dropped.length > 5 ? ` (and ${dropped.length - 5} more)` : '';
      this.#context.warn(`dropped from ${kind.method}: ${escapeForLog(dropped.slice(0, 5).join('; '), 1000)}${more}`);
    }
    return { items, nextCursor: page.nextCursor, hints: connection.isModern ? readHints(raw) : undefined };
  }

  #cacheOptions(what: string) {
    const { connection } = this.#context;
    return {
      what,
      binding: (needAuth: boolean): Promise<CacheBinding | undefined> => connection.cacheBinding(needAuth),
      serveStale: (error: unknown): boolean =>
        connection.isHttp && error instanceof Error && TRANSIENT.has((error as { code?: unknown }).code),
      warn: this.#context.warn,
    };
  }
}
