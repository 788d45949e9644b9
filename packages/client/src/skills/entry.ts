// Skill entries: read from a server's answer and checked (shape, completeness, digests, name, limits) before any fetch.
import { SkillEntryError } from '../errors/skills.js';
import type { SkillEntry, SkillFile, SkillFrontmatter } from './types.js';
import { parseSkillUri, pathWithin, validSkillName } from './uri.js';

/** A host must accept up to these (SEP-2640 Limits) and declines beyond them, saying why. */
export const MAX_SKILL_FILES = 512;
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;

const DIGEST = /^sha256:[0-9a-f]{64}$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One entry of `skills/list` or `skills/get`: undefined when it cannot even be named (no string `uri`:
 * nothing to key it on, reported by the caller), otherwise the entry, with `problem` when it may not be loaded.
 */
export function readSkillEntry(raw: unknown, server: string): SkillEntry | undefined {
  if (!isObject(raw) || typeof raw.uri !== 'string') return undefined;
  const uri = raw.uri;
  const fm = raw.frontmatter;
  const frontmatter: SkillFrontmatter = isObject(fm)
    ? (Object.freeze({ ...fm }) as SkillFrontmatter)
    : Object.freeze({ name: '', description: '' });
  const name = typeof frontmatter.name === 'string' ? frontmatter.name : '';
  const description = typeof frontmatter.description === 'string' ? frontmatter.description : '';
  const refuse = (reason: ConstructorParameters<typeof SkillEntryError>[0], detail: string) =>
    new SkillEntryError(reason, server, uri, detail);
  const base = { server, uri, name, label: name, description, frontmatter };
  const invalid = (problem: SkillEntryError): SkillEntry =>
    Object.freeze({ ...base, resources: Object.freeze([]), fileCount: 0, totalSize: 0, problem });

  if (!isObject(fm) || typeof fm.name !== 'string' || typeof fm.description !== 'string')
    return invalid(refuse('shape', 'frontmatter is not an object with string "name" and "description"'));
  const location = parseSkillUri(uri);
  if (typeof location === 'string') return invalid(refuse('uri', location));
  if (location.name !== name)
    return invalid(refuse('name', `the final path segment "${location.name}" is not frontmatter.name "${name}"`));
  if (!validSkillName(name))
    return invalid(refuse('name', `"${name}" breaks the Agent Skills naming rules (a-z, 0-9, single hyphens, 1-64)`));
  if (!Object.hasOwn(raw, 'resources')) return invalid(refuse('resources-missing', 'the entry has no "resources"'));
  if (raw.resources === 'dynamic')
    return Object.freeze({ ...base, resources: 'dynamic' as const, fileCount: 0, totalSize: 0 });
  if (!Array.isArray(raw.resources))
    return invalid(refuse('resources-invalid', `"resources" is neither an array nor "dynamic"`));
  // Counted before anything else is read of it: a 100 000-item manifest is refused at its length.
  if (raw.resources.length > MAX_SKILL_FILES)
    return invalid(refuse('too-many-files', `${raw.resources.length} files; a host must accept ${MAX_SKILL_FILES}`));

  const files: SkillFile[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (const [i, item] of raw.resources.entries()) {
    if (!isObject(item) || typeof item.uri !== 'string')
      return invalid(refuse('resources-invalid', `resources[${i}] is not an object with a string "uri"`));
    const path = item.uri === uri ? 'SKILL.md' : pathWithin(location.root, item.uri);
    if (path === undefined)
      return invalid(refuse('outside', `resources[${i}] "${item.uri}" is not a file within ${location.root}/`));
    if (typeof item.digest !== 'string' || !DIGEST.test(item.digest))
      return invalid(refuse('digest', `resources[${i}] digest is not "sha256:" and 64 lowercase hex digits`));
    if (typeof item.size !== 'number' || !Number.isSafeInteger(item.size) || item.size < 0)
      return invalid(refuse('digest', `resources[${i}] size is not a whole number of bytes`));
    if (seen.has(item.uri)) return invalid(refuse('incomplete', `resources lists "${item.uri}" twice`));
    seen.add(item.uri);
    total += item.size;
    files.push(Object.freeze({ uri: item.uri, path, digest: item.digest, size: item.size }));
  }
  if (!seen.has(uri)) return invalid(refuse('incomplete', 'resources has no item for the SKILL.md itself'));
  if (total > MAX_SKILL_BYTES)
    return invalid(refuse('too-large', `${total} bytes in all; a host must accept ${MAX_SKILL_BYTES} (16 MiB)`));
  return Object.freeze({ ...base, resources: Object.freeze(files), fileCount: files.length, totalSize: total });
}

/**
 * What an approval binds to: every (uri, digest) pair of the set, order aside. `undefined` for a
 * dynamic skill, which cannot be content-bound.
 */
export function fingerprint(entry: SkillEntry): string | undefined {
  if (entry.resources === 'dynamic') return undefined;
  return JSON.stringify(entry.resources.map((f) => [f.uri, f.digest]).sort(([a], [b]) => (a! < b! ? -1 : 1)));
}
