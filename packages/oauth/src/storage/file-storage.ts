// FileStorage: one JSON file, written atomically with mode 0600, writers in one process serialized.
import type * as FsPromises from 'node:fs/promises';
import type * as Path from 'node:path';
import { OAuthStorageError } from '../errors.js';
import { nodeModule } from '../node-modules.js';
import type { OAuthStorage, StoredValue } from './storage.js';

interface FileShape {
  version: 1;
  entries: Record<string, StoredValue>;
}

// Every FileStorage on one path in this process shares one queue, so two instances cannot interleave
// their read-modify-write cycles and lose each other's updates.
const queues = new Map<string, Promise<unknown>>();

function serialized<T>(path: string, op: () => Promise<T>): Promise<T> {
  const previous = queues.get(path) ?? Promise.resolve();
  const next = previous.then(op, op);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  queues.set(path, settled);
  void settled.then(() => {
    if (queues.get(path) === settled) queues.delete(path);
  });
  return next;
}

const fs = (): typeof FsPromises => nodeModule('node:fs/promises', 'FileStorage');
const paths = (): typeof Path => nodeModule('node:path', 'FileStorage');

/** `bytes` random bytes as hex: a temporary file name no other writer picks. */
function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * One JSON file holding every record, readable by its owner only (mode 0600, in a directory created
 * 0700). Each write goes to a temporary file in the same directory, is flushed, and is renamed over the
 * old one, so a crash leaves the old file or the new one, never half of either. Writers in this process
 * are serialized; other processes sharing the file are not locked out (last rename wins).
 */
export class FileStorage implements OAuthStorage {
  readonly path: string;

  constructor(path: string) {
    this.path = paths().resolve(path);
  }

  async #read(): Promise<FileShape> {
    let text: string;
    try {
      text = await fs().readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return { version: 1, entries: {} };
      throw new OAuthStorageError(`cannot read ${this.path}: ${(error as Error).message}`, { cause: error });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      // Never overwrite a file we cannot read: it may hold someone's only refresh token.
      throw new OAuthStorageError(`${this.path} is not valid JSON; fix or remove it`, { cause: error });
    }
    const p = parsed as Partial<FileShape> | null;
    if (
      typeof p !== 'object' ||
      p === null ||
      p.version !== 1 ||
      typeof p.entries !== 'object' ||
      p.entries === null ||
      Array.isArray(p.entries)
    ) {
      throw new OAuthStorageError(`${this.path} is not an @mcpc/oauth storage file (version 1)`);
    }
    return { version: 1, entries: Object.assign(Object.create(null) as Record<string, StoredValue>, p.entries) };
  }

  async #write(data: FileShape): Promise<void> {
    const { mkdir, open, rename, unlink } = fs();
    const dir = paths().dirname(this.path);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = `${this.path}.${randomHex(8)}.tmp`;
    let handle;
    try {
      handle = await open(tmp, 'wx', 0o600);
      await handle.writeFile(JSON.stringify(data, null, 2) + '\n', 'utf8');
      await handle.sync();
      await handle.close();
      handle = undefined;
      await rename(tmp, this.path);
    } catch (error) {
      await handle?.close().catch(() => {});
      await unlink(tmp).catch(() => {});
      throw new OAuthStorageError(`cannot write ${this.path}: ${(error as Error).message}`, { cause: error });
    }
  }

  get(key: string): Promise<unknown> {
    return serialized(this.path, async () => (await this.#read()).entries[key]);
  }

  set(key: string, value: StoredValue): Promise<void> {
    return serialized(this.path, async () => {
      const data = await this.#read();
      data.entries[key] = value;
      await this.#write(data);
    });
  }

  delete(key: string): Promise<void> {
    return serialized(this.path, async () => {
      const data = await this.#read();
      if (!(key in data.entries)) return;
      delete data.entries[key];
      await this.#write(data);
    });
  }
}
