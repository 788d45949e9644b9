// The logins of a profile: which servers `mcpc login` signed in to, and their OAuth storage.
//
// The list of servers holds no secrets; the OAuth storage is a FileStorage (mode 0600).
import { mkdir, open, readFile, rename, rm, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { FileStorage, type OAuthStorage, type StoredValue } from '@mcpc/oauth';
import { loginsPath, profileDir, storagePath } from './paths.js';

/** What `mcpc login` remembers of one server: how to get tokens again, never the tokens. */
export interface LoginRecord {
  /** The server URL as canonical text (no fragment, no trailing `/` on a bare origin). */
  readonly url: string;
  readonly issuer?: string;
  readonly grant: 'authorization_code' | 'client_credentials';
  readonly clientId?: string;
  /** For private_key_jwt: the key file (the key itself is read each time, never copied). */
  readonly privateKeyFile?: string;
  readonly scope?: string;
  readonly at: number;
}

interface LoginsFile {
  version: 1;
  logins: Record<string, LoginRecord>;
}

/** A server URL as the OAuth storage keys it (the same rule as @mcpc/oauth: no fragment, a bare origin without `/`). */
export function canonicalUrl(url: string): string {
  const u = new URL(url);
  u.hash = '';
  const text = u.href;
  return u.pathname === '/' && u.search === '' ? text.slice(0, -1) : text;
}

/** One profile on disk. */
export class Profile {
  readonly name: string;
  readonly dir: string;
  readonly storage: FileStorage;

  constructor(env: NodeJS.ProcessEnv, name: string) {
    this.name = name;
    this.dir = profileDir(env, name);
    this.storage = new FileStorage(storagePath(this.dir));
  }

  async logins(): Promise<Record<string, LoginRecord>> {
    let text: string;
    try {
      text = await readFile(loginsPath(this.dir), 'utf8');
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return {};
      throw error;
    }
    const parsed = JSON.parse(text) as Partial<LoginsFile> | null;
    if (parsed?.version !== 1 || typeof parsed.logins !== 'object' || parsed.logins === null) return {};
    return parsed.logins;
  }

  /** The login for `url`: the same URL, else one on the same origin. */
  async find(url: string): Promise<LoginRecord | undefined> {
    const logins = await this.logins();
    const key = canonicalUrl(url);
    if (logins[key] !== undefined) return logins[key];
    const origin = new URL(url).origin;
    return Object.values(logins).find((l) => URL.canParse(l.url) && new URL(l.url).origin === origin);
  }

  async record(login: LoginRecord): Promise<void> {
    const logins = await this.logins();
    logins[login.url] = login;
    await this.#writeLogins(logins);
  }

  /** Forgets a server: its tokens (registrations are kept, so the next login reuses its client id) and its record. */
  async forget(url: string): Promise<boolean> {
    const key = canonicalUrl(url);
    const logins = await this.logins();
    const had = logins[key] !== undefined;
    delete logins[key];
    await this.#writeLogins(logins);
    let removed = 0;
    for (const entry of await this.#storageKeys()) {
      const parts = parseKey(entry);
      if (parts?.[0] === 'tokens' && parts[1] === key) {
        await this.storage.delete(entry);
        removed++;
      }
    }
    return had || removed > 0;
  }

  /** Removes the whole profile directory. */
  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }

  /** The keys in the storage file (FileStorage keeps one JSON object: `{ version: 1, entries }`). */
  async #storageKeys(): Promise<string[]> {
    try {
      const parsed = JSON.parse(await readFile(this.storage.path, 'utf8')) as { entries?: Record<string, unknown> };
      return Object.keys(parsed.entries ?? {});
    } catch {
      return [];
    }
  }

  async #writeLogins(logins: Record<string, LoginRecord>): Promise<void> {
    const path = loginsPath(this.dir);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify({ version: 1, logins } satisfies LoginsFile, null, 2)}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path).catch(async (error: unknown) => {
      await unlink(tmp).catch(() => {});
      throw error;
    });
  }
}

function parseKey(key: string): unknown[] | undefined {
  try {
    const parsed: unknown = JSON.parse(key);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The profile's storage seen from another URL on the same origin: the keys of `from` are read and
 * written as those of `to` (the URL that was logged in to), so its tokens and refresh token are used.
 */
export function aliasedStorage(storage: OAuthStorage, from: string, to: string): OAuthStorage {
  if (from === to) return storage;
  const map = (key: string): string => {
    const parts = parseKey(key);
    if (parts === undefined || parts[1] !== from) return key;
    return JSON.stringify([parts[0], to, ...parts.slice(2)]);
  };
  return {
    get: (key) => storage.get(map(key)),
    set: (key, value: StoredValue) => storage.set(map(key), value),
    delete: (key) => storage.delete(map(key)),
  };
}
