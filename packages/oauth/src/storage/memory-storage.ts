// MemoryStorage: the default storage, in this process, values copied in and out.
import type { OAuthStorage, StoredValue } from './storage.js';

/**
 * Keeps everything in this process, for as long as the object lives. Values are copied in and out, so
 * neither the caller nor the provider can change a stored record by editing an object it holds.
 */
export class MemoryStorage implements OAuthStorage {
  readonly #entries = new Map<string, StoredValue>();

  get(key: string): unknown {
    const v = this.#entries.get(key);
    return v === undefined ? undefined : structuredClone(v);
  }

  set(key: string, value: StoredValue): void {
    this.#entries.set(key, structuredClone(value));
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  /** The keys held (for inspection and tests). */
  keys(): string[] {
    return [...this.#entries.keys()];
  }
}
