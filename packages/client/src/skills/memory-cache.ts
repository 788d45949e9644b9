// The default skill content cache: verified files in memory, keyed by (server, uri, digest), bounded in bytes.
import type { SkillContentCache } from './types.js';

const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

/** Oldest-first eviction past `maxBytes`; copies in and out, so no caller can change what is held. */
export class MemorySkillCache implements SkillContentCache {
  readonly #entries = new Map<string, { server: string; bytes: Uint8Array }>();
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxBytes = DEFAULT_MAX_BYTES) {
    this.#maxBytes = maxBytes;
  }

  get(server: string, uri: string, digest: string): Uint8Array | undefined {
    const key = JSON.stringify([server, uri, digest]);
    const hit = this.#entries.get(key);
    if (hit === undefined) return undefined;
    // Most recently used last.
    this.#entries.delete(key);
    this.#entries.set(key, hit);
    return hit.bytes.slice();
  }

  set(server: string, uri: string, digest: string, bytes: Uint8Array): void {
    if (bytes.byteLength > this.#maxBytes) return;
    const key = JSON.stringify([server, uri, digest]);
    this.#drop(key);
    this.#entries.set(key, { server, bytes: bytes.slice() });
    this.#bytes += bytes.byteLength;
    for (const old of this.#entries.keys()) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#drop(old);
    }
  }

  clear(server?: string): void {
    for (const [key, entry] of [...this.#entries]) if (server === undefined || entry.server === server) this.#drop(key);
  }

  #drop(key: string): void {
    const held = this.#entries.get(key);
    if (held === undefined) return;
    this.#bytes -= held.bytes.byteLength;
    this.#entries.delete(key);
  }
}
