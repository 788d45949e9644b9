// The host's storage, with whatever it throws reported as OAuthStorageError.
import { OAuthStorageError } from '../errors.js';
import type { OAuthStorage, StoredValue } from './storage.js';

/**
 * The host's storage, with whatever it throws reported as an `OAuthStorageError` naming the operation
 * and the key: storage is the host's code, and its failures must not pass for the provider's.
 */
export class GuardedStorage {
  readonly #storage: OAuthStorage;

  constructor(storage: OAuthStorage) {
    this.#storage = storage;
  }

  get(key: string): Promise<unknown> {
    return guard('read', key, () => this.#storage.get(key));
  }

  set(key: string, value: StoredValue): Promise<void> {
    return guard('write', key, () => this.#storage.set(key, value));
  }

  delete(key: string): Promise<void> {
    return guard('delete', key, () => this.#storage.delete(key));
  }
}

async function guard<T>(operation: string, key: string, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (cause) {
    if (cause instanceof OAuthStorageError) throw cause;
    throw new OAuthStorageError(
      `storage could not ${operation} ${key}: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}
