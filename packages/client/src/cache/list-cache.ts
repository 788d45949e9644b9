// Cached results: a server's lists and resource reads, kept until list_changed or while their caching hints allow.
/** What `server.cacheInfo(kind)` reports. */
export interface CacheInfo {
  readonly cached: boolean;
  /** Number of items held, when cached (lists only). */
  readonly count?: number;
  /** `Date.now()` when the result was received, when cached. */
  readonly fetchedAt?: number;
  /** The server's freshness hint (MCP 2026-07-28), in ms; absent for a classic server's list, which is kept until it changes. */
  readonly ttlMs?: number;
  readonly cacheScope?: 'public' | 'private';
  /** Whether the entry may be served without a request now. */
  readonly fresh?: boolean;
}

/** A stateless server's caching hints for one result (or the strictest over a list's pages). */
export interface CacheHints {
  readonly ttlMs: number;
  readonly scope: 'public' | 'private';
}

/**
 * What a request went out with that its result may depend on: the effective `_meta` (always), and
 * the Authorization it carried (for `private` results). `auth: null` means the transport cannot say,
 * so a private result is never reused.
 */
export interface CacheBinding {
  readonly meta: string;
  readonly auth: string | undefined | null;
}

export interface Fetched<T> {
  readonly value: T;
  /** Undefined for a classic server: the result is kept until invalidated. */
  readonly hints: CacheHints | undefined;
}

interface Entry<T> {
  readonly value: T;
  readonly fetchedAt: number;
  readonly hints: CacheHints | undefined;
  readonly binding: CacheBinding | undefined;
}

export interface CacheOptions {
  /** The binding a request made now would carry (undefined for a classic server, where nothing varies). */
  readonly binding: (needAuth: boolean) => Promise<CacheBinding | undefined>;
  /** Whether a failed re-fetch may serve the stale copy (HTTP, a transient failure, never an auth failure). */
  readonly serveStale: (error: unknown) => boolean;
  readonly warn: (message: string) => void;
  /** For messages. */
  readonly what: string;
}

/**
 * One cached result (a server's whole list, or one resource read). Concurrent readers share one fetch.
 * A classic server's result is kept until `invalidate` (its list_changed notification); a stateless
 * server's is served while fresh (`now < received + ttlMs`) to a request that would carry the same
 * `_meta` — and, when `private`, the same Authorization — as the request that produced it. A fetch in
 * flight when the entry is invalidated still answers its callers but is not stored.
 */
export class ResultCache<T> {
  readonly #fetch: () => Promise<Fetched<T>>;
  readonly #options: CacheOptions;
  #entry: Entry<T> | undefined;
  #generation = 0;
  #inflight: Promise<T> | undefined;

  constructor(fetch: () => Promise<Fetched<T>>, options: CacheOptions) {
    this.#fetch = fetch;
    this.#options = options;
  }

  async get(): Promise<T> {
    const entry = this.#entry;
    let binding: CacheBinding | undefined;
    if (entry !== undefined) {
      if (entry.hints === undefined) return entry.value;
      binding = await this.#options.binding(entry.hints.scope === 'private');
      if (isFresh(entry) && matches(entry, binding)) return entry.value;
    }
    this.#inflight ??= this.#load(entry, binding);
    return this.#inflight;
  }

  async #load(previous: Entry<T> | undefined, known: CacheBinding | undefined): Promise<T> {
    const generation = this.#generation;
    try {
      // Taken before the request goes out: what this result will be bound to.
      const binding = known ?? (await this.#options.binding(true));
      let fetched: Fetched<T>;
      try {
        fetched = await this.#fetch();
      } catch (error) {
        // "Clients MAY serve stale responses if errors occur during re-fetching" — never across bindings.
        if (
          previous !== undefined &&
          previous.hints !== undefined &&
          binding !== undefined &&
          matches(previous, binding) &&
          this.#options.serveStale(error)
        ) {
          this.#options.warn(
            `re-fetching ${this.#options.what} failed (${error instanceof Error ? error.message : String(error)}); serving the stale copy`,
          );
          return previous.value;
        }
        throw error;
      }
      const value = Object.isFrozen(fetched.value) ? fetched.value : Object.freeze(fetched.value);
      if (generation === this.#generation)
        this.#entry = {
          value,
          fetchedAt: Date.now(),
          hints: fetched.hints,
          binding: fetched.hints === undefined ? undefined : binding,
        };
      return value;
    } finally {
      if (generation === this.#generation) this.#inflight = undefined;
    }
  }

  /** The cached value, without fetching, fresh or not. */
  peek(): T | undefined {
    return this.#entry?.value;
  }

  invalidate(): void {
    this.#generation++;
    this.#entry = undefined;
    this.#inflight = undefined;
  }

  info(count?: (value: T) => number): CacheInfo {
    const e = this.#entry;
    if (e === undefined) return { cached: false };
    const base = { cached: true, fetchedAt: e.fetchedAt, ...(count !== undefined && { count: count(e.value) }) };
    if (e.hints === undefined) return { ...base, fresh: true };
    return { ...base, ttlMs: e.hints.ttlMs, cacheScope: e.hints.scope, fresh: isFresh(e) };
  }
}

const isFresh = (e: Entry<unknown>): boolean => e.hints === undefined || Date.now() < e.fetchedAt + e.hints.ttlMs;

function matches(entry: Entry<unknown>, now: CacheBinding | undefined): boolean {
  const then = entry.binding;
  if (then === undefined || now === undefined) return then === now;
  if (then.meta !== now.meta) return false;
  if (entry.hints?.scope !== 'private') return true;
  return then.auth !== null && now.auth !== null && then.auth === now.auth;
}

/** A result's caching hints: an absent, negative or malformed ttlMs is 0; a missing or unknown scope is private. */
export function readHints(raw: unknown): CacheHints {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as { ttlMs?: unknown; cacheScope?: unknown };
  const ttl = r.ttlMs;
  return {
    ttlMs: typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0 ? ttl : 0,
    scope: r.cacheScope === 'public' ? 'public' : 'private',
  };
}

/** The strictest of several pages' hints: the shortest life, and private if any page is. */
export function combineHints(a: CacheHints | undefined, b: CacheHints): CacheHints {
  if (a === undefined) return b;
  return {
    ttlMs: Math.min(a.ttlMs, b.ttlMs),
    scope: a.scope === 'private' || b.scope === 'private' ? 'private' : 'public',
  };
}
