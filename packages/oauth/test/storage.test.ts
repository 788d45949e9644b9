// Storage: keys per MCP and authorization server, MemoryStorage copies, FileStorage on disk.
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileStorage, MemoryStorage, OAuthStorageError, storageKey } from '../src/index.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpc-oauth-storage-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('storage keys', () => {
  it('keep registration state and tokens per MCP server and per authorization server', () => {
    const keys = new Set([
      storageKey.client('https://mcp.a/mcp', 'https://as1'),
      storageKey.client('https://mcp.a/mcp', 'https://as2'),
      storageKey.client('https://mcp.b/mcp', 'https://as1'),
      storageKey.tokens('https://mcp.a/mcp', 'https://as1'),
    ]);
    expect(keys.size).toBe(4);
  });
});

describe('MemoryStorage', () => {
  it('copies values in and out', () => {
    const s = new MemoryStorage();
    const value = { a: [1] };
    s.set('k', value);
    value.a.push(2);
    const out = s.get('k') as { a: number[] };
    out.a.push(3);
    expect(s.get('k')).toEqual({ a: [1] });
  });
});

describe('FileStorage', () => {
  it('persists across instances, in a file only its owner can read, written by rename', async () => {
    const path = join(dir, 'sub', 'tokens.json');
    const a = new FileStorage(path);
    await a.set('k', { secret: 'x' });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'sub'))).mode & 0o777).toBe(0o700);
    expect(await new FileStorage(path).get('k')).toEqual({ secret: 'x' });
    await a.delete('k');
    expect(await a.get('k')).toBeUndefined();
    expect((await readdir(join(dir, 'sub'))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('replaces a file with wider permissions by a 0600 one', async () => {
    const path = join(dir, 'wide.json');
    await writeFile(path, JSON.stringify({ version: 1, entries: {} }), { mode: 0o644 });
    await new FileStorage(path).set('k', 1);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('loses no update when two instances on one path write at once', async () => {
    const path = join(dir, 'concurrent.json');
    const a = new FileStorage(path);
    const b = new FileStorage(path);
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).set(`k${i}`, i)));
    const entries = (JSON.parse(await readFile(path, 'utf8')) as { entries: object }).entries;
    expect(Object.keys(entries)).toHaveLength(20);
  });

  it('refuses to overwrite a file it cannot read', async () => {
    const path = join(dir, 'corrupt.json');
    await writeFile(path, '{ not json', { mode: 0o600 });
    await expect(new FileStorage(path).set('k', 1)).rejects.toBeInstanceOf(OAuthStorageError);
    expect(await readFile(path, 'utf8')).toBe('{ not json');
  });
});
