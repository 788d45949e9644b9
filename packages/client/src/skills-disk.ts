// `@mcpc/client/skills-disk`: a skill content cache on disk (Node only), at paths that encode server and URI.
import { constants } from 'node:fs';
import { lstat, mkdir, open, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { SkillContentCache } from './skills/types.js';

/**
 * A path component for any string: every byte but `A-Z a-z 0-9 _ -` percent-encoded, so no component is
 * `.` or `..`, holds a separator, or is empty; the original is recoverable (`decodeURIComponent`).
 */
const encode = (s: string): string =>
  Array.from(new TextEncoder().encode(s), (b) =>
    /[A-Za-z0-9_-]/.test(String.fromCharCode(b))
      ? String.fromCharCode(b)
      : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
  ).join('');

const MAX_COMPONENT = 200;

/**
 * The components under the cache's root for (server, uri): the server, the scheme, each path segment
 * of the URI, and the file's own name with `.f` after it (no encoded component has a dot, so a file
 * never collides with a directory). Undefined for a URI that cannot be placed (no scheme, an empty
 * segment, a component too long): such a file is simply not cached.
 */
export function cachePath(server: string, uri: string): string[] | undefined {
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/(.+)$/s.exec(uri);
  if (match === null || server === '') return undefined;
  const segments = match[2]!.split('/');
  if (segments.some((s) => s === '')) return undefined;
  const parts = [encode(server), encode(match[1]!.toLowerCase()), ...segments.map(encode)];
  parts[parts.length - 1] += '.f';
  return parts.every((p) => p.length <= MAX_COMPONENT) ? parts : undefined;
}

export interface DiskSkillCacheOptions {
  /**
   * The cache's directory: the host's own, outside every directory a filesystem-skill loader searches
   * (content here arrived over MCP and keeps that standing after a restart).
   */
  readonly dir: string;
}

/**
 * A `SkillContentCache` on disk under `dir/<server>/<scheme>/<path…>/<file>.f`, each component encoded.
 * Nothing beneath `dir` that is a symbolic link is followed: such a path is a miss and is not written.
 * Files are replaced by rename, never edited in place; every hit is re-hashed by the client before use.
 */
export function diskSkillCache(options: DiskSkillCacheOptions): SkillContentCache {
  const root = resolve(options.dir);

  /** Whether every directory from the root down to (not including) the last part is a real directory. */
  async function realDirs(parts: readonly string[], create: boolean): Promise<boolean> {
    let at = root;
    for (const part of parts.slice(0, -1)) {
      at = join(at, part);
      const info = await lstat(at).catch(() => undefined);
      if (info === undefined) {
        if (!create) return false;
        await mkdir(at, { mode: 0o700 }).catch(() => {});
        const made = await lstat(at).catch(() => undefined);
        if (made === undefined || !made.isDirectory()) return false;
      } else if (!info.isDirectory()) return false;
    }
    return true;
  }

  return {
    async get(server, uri) {
      const parts = cachePath(server, uri);
      if (parts === undefined || !(await realDirs(parts, false))) return undefined;
      // O_NOFOLLOW: a link put in the file's place is refused, not read through.
      const handle = await open(join(root, ...parts), constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
      if (handle === undefined) return undefined;
      try {
        if (!(await handle.stat()).isFile()) return undefined;
        return new Uint8Array(await handle.readFile());
      } finally {
        await handle.close();
      }
    },

    async set(server, uri, _digest, bytes) {
      const parts = cachePath(server, uri);
      if (parts === undefined) return;
      await mkdir(root, { recursive: true, mode: 0o700 });
      if (!(await realDirs(parts, true))) return;
      const target = join(root, ...parts);
      const existing = await lstat(target).catch(() => undefined);
      if (existing !== undefined && !existing.isFile()) return;
      const temp = `${target}.${Math.random().toString(36).slice(2)}.tmp`;
      const handle = await open(
        temp,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o600,
      );
      try {
        await handle.writeFile(bytes);
      } finally {
        await handle.close();
      }
      await rename(temp, target);
    },

    async clear(server) {
      const target = server === undefined ? root : join(root, encode(server));
      const info = await lstat(target).catch(() => undefined);
      // rm does not follow links within; a link in the server's place is removed, not what it points at.
      if (info !== undefined) await rm(target, { recursive: true, force: true });
    },
  };
}
