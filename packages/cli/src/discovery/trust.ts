// The trust store: which project config files the user trusted, by absolute path and content digest.
//
// A changed file asks again.
import { createHash } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

/** What the store holds per file: the digest trusted and when. */
export interface TrustRecord {
  readonly digest: string;
  readonly trustedAt: string;
}

/** The store's document: `{ "version": 1, "files": { "/abs/.mcp.json": { digest, trustedAt } } }`. */
type Store = Record<string, TrustRecord>;

/** A store larger than this is not ours (a few hundred bytes per trusted file). */
const MAX_STORE_BYTES = 1024 * 1024;

/** `sha256:<hex>` of a file's bytes: what a trust is recorded against. */
export function digestOf(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** The trusted files; an absent, unreadable or malformed store trusts nothing (never throws). */
export async function readTrust(storePath: string): Promise<Store> {
  try {
    const handle = await open(storePath, 'r');
    try {
      const stat = await handle.stat();
      if (!stat.isFile() || stat.size > MAX_STORE_BYTES) return {};
      const document = JSON.parse(await handle.readFile('utf8')) as unknown;
      return recordsOf(document);
    } finally {
      await handle.close();
    }
  } catch {
    return {};
  }
}

function recordsOf(document: unknown): Store {
  const files = typeof document === 'object' && document !== null ? (document as { files?: unknown }).files : undefined;
  if (typeof files !== 'object' || files === null || Array.isArray(files)) return {};
  const out: Store = Object.create(null) as Store;
  for (const [path, record] of Object.entries(files)) {
    const { digest, trustedAt } = (record ?? {}) as Partial<TrustRecord>;
    if (typeof digest === 'string' && /^sha256:[0-9a-f]{64}$/.test(digest))
      out[path] = { digest, trustedAt: typeof trustedAt === 'string' ? trustedAt : '' };
  }
  return out;
}

/** Records (or, with `digest` undefined, removes) the trust of one file; written whole, mode 0600, by rename. */
export async function writeTrust(storePath: string, file: string, digest: string | undefined): Promise<void> {
  const store = await readTrust(storePath);
  if (digest === undefined) delete store[file];
  else store[file] = { digest, trustedAt: new Date().toISOString() };
  await mkdir(dirname(storePath), { recursive: true, mode: 0o700 });
  const temporary = `${storePath}.${process.pid}.${Date.now()}.tmp`;
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify({ version: 1, files: store }, null, 2)}\n`);
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, storePath);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Whether `file` as read now (its digest) is the version the user trusted; `changed` when another was. */
export function trustOf(store: Store, file: string, digest: string): { trusted: boolean; changed: boolean } {
  const record = store[file];
  if (record === undefined) return { trusted: false, changed: false };
  return record.digest === digest ? { trusted: true, changed: false } : { trusted: false, changed: true };
}
