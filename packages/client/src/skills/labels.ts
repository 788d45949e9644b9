// Skill names are labels: same-named skills shown apart (server and path), and a name resolved without guessing.
import { AmbiguousNameError, NotFoundError } from '../errors.js';
import type { SkillEntry } from './types.js';

/** `server:skill-path`: what tells two skills apart (the URI without its scheme and `/SKILL.md`). */
const qualified = (e: SkillEntry): string =>
  `${e.server}:${e.uri.replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//, '').replace(/\/SKILL\.md$/, '')}`;

/**
 * The entries with their `label`: the name where it is unique in `entries`, else `server:skill-path`,
 * else (two schemes serving one path) `server:uri`. Order is kept; nothing is dropped or preferred.
 */
export function withLabels(entries: readonly SkillEntry[]): SkillEntry[] {
  const byName = new Map<string, number>();
  for (const e of entries) byName.set(e.name, (byName.get(e.name) ?? 0) + 1);
  const byQualified = new Map<string, number>();
  for (const e of entries) byQualified.set(qualified(e), (byQualified.get(qualified(e)) ?? 0) + 1);
  return entries.map((e) => {
    const label =
      byName.get(e.name) === 1 && e.name !== ''
        ? e.name
        : byQualified.get(qualified(e)) === 1
          ? qualified(e)
          : `${e.server}:${e.uri}`;
    return label === e.label ? e : Object.freeze({ ...e, label });
  });
}

/**
 * The one entry a name (or a label) means: a label first, then a name. Several skills by that name is
 * an `AmbiguousNameError` listing their labels; none is a `NotFoundError` that says a listing may be
 * partial (a skill reached by URI is loaded by its URI).
 */
export function resolveSkillName(name: string, entries: readonly SkillEntry[], servers: readonly string[]): SkillEntry {
  const labelled = withLabels(entries);
  const byLabel = labelled.filter((e) => e.label === name);
  if (byLabel.length === 1) return byLabel[0]!;
  const byName = labelled.filter((e) => e.name === name);
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1)
    throw new AmbiguousNameError(
      'skill',
      name,
      byName.map((e) => e.label),
    );
  throw new NotFoundError(
    'skill',
    name,
    `no skill named "${name}" in the listings of ${servers.length === 0 ? 'no servers' : servers.map((s) => `"${s}"`).join(', ')}; ` +
      'a listing may be partial: load a skill known by URI with loadSkill(uri, { server })',
  );
}
