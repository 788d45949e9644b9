// Reading one skill file from its own server: the verified cache first, else `resources/read`, verified before use.
import { SkillVerificationError } from '../errors/skills.js';
import type { SkillContentCache, SkillFile } from './types.js';
import { sha256, verifyFile } from './verify.js';

/** What reading a skill's files needs: its server alone (reads never cross to another), and the cache. */
export interface SkillReadContext {
  readonly server: string;
  /** The skill's `SKILL.md` URI, for messages. */
  readonly skill: string;
  /** `resources/read` on the skill's own server. */
  readonly read: (uri: string) => Promise<unknown>;
  readonly cache: SkillContentCache;
}

export interface ReadBytes {
  readonly bytes: Uint8Array;
  readonly mimeType: string | undefined;
}

/**
 * A listed file's bytes, verified (size, then digest) against its manifest item. A cached copy is
 * re-hashed on every use and stands in for a fetch only while it still matches.
 */
export async function readListedFile(context: SkillReadContext, file: SkillFile): Promise<ReadBytes> {
  const where = { server: context.server, skill: context.skill };
  const cached = await context.cache.get(context.server, file.uri, file.digest);
  if (cached !== undefined && cached.byteLength === file.size && (await sha256(cached)) === file.digest)
    return { bytes: cached, mimeType: undefined };
  const read = await readRaw(context, file.uri);
  await verifyFile(read.bytes, file, where);
  await context.cache.set(context.server, file.uri, file.digest, read.bytes);
  return read;
}

/** A file's bytes as the server sends them now, unverified (a dynamic skill): refused past `budget` bytes. */
export async function readUnlistedFile(context: SkillReadContext, uri: string, budget: number): Promise<ReadBytes> {
  const read = await readRaw(context, uri);
  if (read.bytes.byteLength > budget)
    throw new SkillVerificationError(
      'limit',
      context.server,
      context.skill,
      uri,
      `${read.bytes.byteLength} bytes would take the skill past 16 MiB read`,
    );
  return read;
}

async function readRaw(context: SkillReadContext, uri: string): Promise<ReadBytes> {
  const raw = (await context.read(uri)) as { contents?: unknown } | null;
  const contents = typeof raw === 'object' && raw !== null && Array.isArray(raw.contents) ? raw.contents : [];
  const items = contents.filter(
    (c): c is Record<string, unknown> => typeof c === 'object' && c !== null && (c as { uri?: unknown }).uri === uri,
  );
  const item = items.length === 1 ? items[0]! : undefined;
  const fail = (detail: string) => new SkillVerificationError('no-content', context.server, context.skill, uri, detail);
  if (item === undefined) throw fail(`the result has ${items.length} contents items for the URI; one was expected`);
  const mimeType = typeof item.mimeType === 'string' ? item.mimeType : undefined;
  if (typeof item.text === 'string') return { bytes: new TextEncoder().encode(item.text), mimeType };
  if (typeof item.blob === 'string') {
    let binary: string;
    try {
      binary = atob(item.blob);
    } catch {
      throw fail('its blob is not base64');
    }
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return { bytes, mimeType };
  }
  throw fail('its contents item has neither "text" nor "blob"');
}
