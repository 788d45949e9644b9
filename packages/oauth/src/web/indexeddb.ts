// One IndexedDB object store as promises: open once, get, put, delete, and get-or-put in one transaction.
//
// Typed structurally: the DOM library is not part of this package's types, which Node hosts load too.
import { OAuthConfigError, OAuthStorageError } from '../errors.js';

interface IdbRequest<T> {
  readonly result: T;
  readonly error: unknown;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
}
interface IdbOpenRequest extends IdbRequest<IdbDatabase> {
  onupgradeneeded: (() => void) | null;
  onblocked: (() => void) | null;
}
interface IdbObjectStore {
  get(key: string): IdbRequest<unknown>;
  put(value: unknown, key: string): IdbRequest<unknown>;
  delete(key: string): IdbRequest<unknown>;
}
interface IdbTransaction {
  readonly error: unknown;
  objectStore(name: string): IdbObjectStore;
  oncomplete: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
}
interface IdbDatabase {
  readonly objectStoreNames: { contains(name: string): boolean };
  createObjectStore(name: string): unknown;
  transaction(store: string, mode: 'readonly' | 'readwrite'): IdbTransaction;
  close(): void;
  onversionchange: (() => void) | null;
}
interface IdbFactory {
  open(name: string, version?: number): IdbOpenRequest;
}

const STORE = 'records';

/** A key-value store in one IndexedDB database; values are structured clones (a `CryptoKey` included). */
export class IdbStore {
  readonly #name: string;
  #db: Promise<IdbDatabase> | undefined;

  constructor(databaseName: string) {
    if ((globalThis as { indexedDB?: unknown }).indexedDB === undefined)
      throw new OAuthConfigError('IndexedDB is not available here (a page or a Worker has it; use MemoryStorage)');
    this.#name = databaseName;
  }

  get(key: string): Promise<unknown> {
    return this.#run('readonly', 'read', (store, done) => {
      const request = store.get(key);
      request.onsuccess = () => done(request.result);
    });
  }

  put(key: string, value: unknown): Promise<void> {
    return this.#run('readwrite', 'write', (store, done) => {
      store.put(value, key).onsuccess = () => done(undefined);
    });
  }

  delete(key: string): Promise<void> {
    return this.#run('readwrite', 'delete', (store, done) => {
      store.delete(key).onsuccess = () => done(undefined);
    });
  }

  /** The value under `key` when `keep` accepts it, else `fresh`, written: one transaction, so two tabs agree. */
  getOrPut<T>(key: string, keep: (value: unknown) => value is T, fresh: T): Promise<T> {
    return this.#run<T>('readwrite', 'write', (store, done) => {
      const request = store.get(key);
      request.onsuccess = () => {
        if (keep(request.result)) return done(request.result);
        store.put(fresh, key).onsuccess = () => done(fresh);
      };
    });
  }

  /** Closes the connection (a later call opens it again). */
  close(): void {
    const db = this.#db;
    this.#db = undefined;
    void db?.then((d) => d.close()).catch(() => {});
  }

  #open(): Promise<IdbDatabase> {
    this.#db ??= new Promise<IdbDatabase>((resolve, reject) => {
      const request = (globalThis as unknown as { indexedDB: IdbFactory }).indexedDB.open(this.#name, 1);
      request.onupgradeneeded = () => {
        if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE);
      };
      request.onsuccess = () => {
        const db = request.result;
        // Another tab upgrading the database: let it, and open again on the next call.
        db.onversionchange = () => this.close();
        resolve(db);
      };
      request.onerror = () => reject(failure('open', request.error));
      request.onblocked = () => reject(failure('open', new Error('another tab holds an older version open')));
    });
    this.#db.catch(() => (this.#db = undefined));
    return this.#db;
  }

  /** One transaction on the store; resolves with what `body` passed to `done` once the transaction commits. */
  async #run<T>(
    mode: 'readonly' | 'readwrite',
    what: string,
    body: (store: IdbObjectStore, done: (value: T) => void) => void,
  ): Promise<T> {
    const db = await this.#open();
    return new Promise<T>((resolve, reject) => {
      let value: T;
      let tx: IdbTransaction;
      try {
        tx = db.transaction(STORE, mode);
        body(tx.objectStore(STORE), (v) => (value = v));
      } catch (e) {
        return reject(failure(what, e));
      }
      tx.oncomplete = () => resolve(value);
      tx.onerror = () => reject(failure(what, tx.error));
      tx.onabort = () => reject(failure(what, tx.error ?? new Error('the transaction was aborted')));
    });
  }
}

function failure(what: string, cause: unknown): OAuthStorageError {
  const detail = cause instanceof Error || (typeof cause === 'object' && cause !== null && 'message' in cause);
  return new OAuthStorageError(
    `IndexedDB could not ${what}${detail ? `: ${String((cause as { message: unknown }).message)}` : ''}`,
    { cause },
  );
}
