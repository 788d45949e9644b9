// IndexedDBStorage: the provider's storage in a page or a Worker.
//
// Refresh tokens are held in memory unless asked otherwise, and DPoP key pairs are kept across reloads with their
// private keys non-extractable.
import { generateKeyPair } from 'jose';
import type * as oauth from 'oauth4webapi';
import type { DPoPAlgorithm } from '../dpop/dpop.js';
import type { OAuthStorage, StoredValue } from '../storage/storage.js';
import { IdbStore } from './indexeddb.js';

export interface IndexedDBStorageOptions {
  /** The IndexedDB database (`'mcpc-oauth'`); one object store in it. */
  readonly databaseName?: string;
  /**
   * Where refresh tokens are kept. `'memory'` (default): in this object only, never written to the
   * origin's storage, so a script that runs later in the origin finds none to take; after a reload the
   * user signs in again once the access token has expired. `'indexeddb'`: with the rest, so a session
   * outlives reloads, readable by any script of the origin.
   */
  readonly refreshTokens?: 'memory' | 'indexeddb';
}

type CryptoKeyPair = oauth.CryptoKeyPair;

/** How many token sets keep their refresh token in memory (one per MCP server and authorization server). */
const MEMORY_REFRESH_TOKENS = 64;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTokensKey = (key: string): boolean => key.startsWith('["tokens",');

/** A stored pair: two `CryptoKey`s (IndexedDB gives them back as such), the private one not extractable. */
function isKeyPair(v: unknown): v is CryptoKeyPair {
  const Key = (globalThis as { CryptoKey?: abstract new () => { readonly extractable: boolean } }).CryptoKey;
  return (
    isObject(v) &&
    Key !== undefined &&
    v.privateKey instanceof Key &&
    v.publicKey instanceof Key &&
    v.privateKey.extractable === false
  );
}

/**
 * Keeps client registrations, tokens and authorization requests in IndexedDB, so the authorization code
 * flow survives the redirect away from the page and back, and a session survives a reload. Any script
 * running in the page's origin can read what is stored here (no browser storage is out of its reach):
 * keep the page free of scripts you do not trust, and leave refresh tokens in memory (the default).
 */
export class IndexedDBStorage implements OAuthStorage {
  readonly #store: IdbStore;
  readonly #refreshInMemory: boolean;
  /** Refresh tokens by storage key, when they stay in memory. */
  readonly #refreshTokens = new Map<string, string>();
  readonly #keyPairs = new Map<string, Promise<CryptoKeyPair>>();

  constructor(options: IndexedDBStorageOptions = {}) {
    this.#store = new IdbStore(options.databaseName ?? 'mcpc-oauth');
    this.#refreshInMemory = (options.refreshTokens ?? 'memory') === 'memory';
  }

  async get(key: string): Promise<unknown> {
    const value = await this.#store.get(key);
    const refreshToken = this.#refreshTokens.get(key);
    if (refreshToken !== undefined && isObject(value) && value.refreshToken === undefined)
      return { ...value, refreshToken };
    return value;
  }

  async set(key: string, value: StoredValue): Promise<void> {
    let kept = value;
    this.#refreshTokens.delete(key);
    if (this.#refreshInMemory && isTokensKey(key) && isObject(value) && typeof value.refreshToken === 'string') {
      const { refreshToken, ...rest } = value;
      if (this.#refreshTokens.size >= MEMORY_REFRESH_TOKENS) {
        const oldest = this.#refreshTokens.keys().next().value;
        if (oldest !== undefined) this.#refreshTokens.delete(oldest);
      }
      this.#refreshTokens.set(key, refreshToken as string);
      kept = rest as StoredValue;
    }
    await this.#store.put(key, kept);
  }

  async delete(key: string): Promise<void> {
    this.#refreshTokens.delete(key);
    await this.#store.delete(key);
  }

  /**
   * The DPoP key pair named `name` (`'default'`): made on first use with a non-extractable private key,
   * stored as a `CryptoKey` (which IndexedDB keeps without exposing its private half), and the same pair
   * after a reload — so a stored DPoP-bound token stays usable. Pass it as `dpop: { keyPair }`.
   */
  dpopKeyPair(options: { readonly name?: string; readonly alg?: DPoPAlgorithm } = {}): Promise<CryptoKeyPair> {
    const alg = options.alg ?? 'ES256';
    const key = JSON.stringify(['dpop-key', options.name ?? 'default', alg]);
    let pair = this.#keyPairs.get(key);
    if (pair === undefined) {
      pair = (async () => {
        const stored = await this.#store.get(key);
        if (isKeyPair(stored)) return stored;
        const fresh = await generateKeyPair(alg, { extractable: false });
        // Another tab may have made one meanwhile: the first written wins, in both.
        return this.#store.getOrPut(key, isKeyPair, fresh);
      })();
      this.#keyPairs.set(key, pair);
      pair.catch(() => this.#keyPairs.delete(key));
    }
    return pair;
  }

  /** Closes the database connection (the storage opens it again when used). */
  close(): void {
    this.#store.close();
  }
}
