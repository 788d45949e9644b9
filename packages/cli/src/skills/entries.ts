// Skill entries for the CLI: found by URI or name on one server, shown as JSON, and their paths on disk.
import { NotFoundError, type Server } from '@mcpc/client';
import type { SkillEntry } from '@mcpc/client/types';
import { UsageError } from '../errors.js';

/** A refused entry's error as JSON: what it is and why (an Error's own fields do not survive JSON.stringify). */
export function problemJson(problem: NonNullable<SkillEntry['problem']>): Record<string, unknown> {
  return { code: problem.code, reason: problem.reason, detail: problem.detail, message: problem.message };
}

/** An entry as --json shows it: the protocol's fields and the client's label and totals, never its classes. */
export function skillJson(entry: SkillEntry): Record<string, unknown> {
  return {
    server: entry.server,
    uri: entry.uri,
    name: entry.name,
    label: entry.label,
    description: entry.description,
    frontmatter: entry.frontmatter,
    fileCount: entry.fileCount,
    totalSize: entry.totalSize,
    resources: entry.resources,
    ...(entry.problem !== undefined && { problem: problemJson(entry.problem) }),
  };
}

/**
 * The entry a word names on this server: a URI is asked with `skills/get` (a listing may be partial), a
 * name or a label is looked up in the listing. A name that several skills carry is refused, naming them.
 */
export async function findSkill(server: Server, word: string, command: string): Promise<SkillEntry> {
  if (word.includes('://')) return server.getSkill(word);
  const entries = await server.listSkills();
  const byLabel = entries.filter((e) => e.label === word);
  if (byLabel.length === 1) return byLabel[0]!;
  const byName = entries.filter((e) => e.name === word);
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1)
    throw new UsageError(
      `${byName.length} skills are named "${word}": ` +
        `${byName.map((e) => `${e.label} (${e.uri})`).join(', ')}; name one by its label or URI`,
      command,
    );
  throw new NotFoundError(
    'skill',
    word,
    `no skill named "${word}" in the listing of ${server.name} ` +
      '(a listing may be partial: a skill known by URI is named by its URI)',
  );
}

/** Bytes for people: `512 B`, `1.5 KiB`, `2.0 MiB`. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
