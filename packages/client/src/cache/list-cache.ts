/** What `server.cacheInfo(kind)` reports. */
export interface CacheInfo {
  readonly cached: boolean;
  /** Number of items held, when cached. */
  readonly count?: number;
  /** `Date.now()` when the list was fetched, when cached. */
  readonly fetchedAt?: number;
}

/**
 * One server's cached list (tools, prompts, …). Concurrent readers share one fetch. `invalidate` bumps
 * a generation: a fetch that was in flight when the list changed still answers its callers, but is not
 * stored, and the next reader fetches afresh.
 */
export class ListCache<T> {
  readonly #fetch: () => Promise<readonly T[]>;
  #items: readonly T[] | undefined;
  #fetchedAt = 0;
  #generation = 0;
  #inflight: Promise<readonly T[]> | undefined;

  constructor(fetch: () => Promise<readonly T[]>) {
    this.#fetch = fetch;
  }

  get(): Promise<readonly T[]> {
    if (this.#items !== undefined) return Promise.resolve(this.#items);
    if (this.#inflight !== undefined) return this.#inflight;
    const generation = this.#generation;
    const promise = this.#fetch().then(
      (items) => {
        // Frozen (the fetch made the array, so no copy is needed): every caller gets the same one.
        const frozen = Object.isFrozen(items) ? items : Object.freeze(items as T[]);
        if (generation === this.#generation) {
          this.#items = frozen;
          this.#fetchedAt = Date.now();
          this.#inflight = undefined;
        }
        return frozen;
      },
      (error: unknown) => {
        if (generation === this.#generation) this.#inflight = undefined;
        throw error;
      },
    );
    this.#inflight = promise;
    return promise;
  }

  /** The cached items, without fetching. */
  peek(): readonly T[] | undefined {
    return this.#items;
  }

  invalidate(): void {
    this.#generation++;
    this.#items = undefined;
    this.#inflight = undefined;
  }

  info(): CacheInfo {
    return this.#items === undefined ? { cached: false } : { cached: true, count: this.#items.length, fetchedAt: this.#fetchedAt };
  }
}
