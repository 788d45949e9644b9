// A fetched SKILL.md's YAML frontmatter parsed (the `yaml` package, loaded on first use) and compared field by field.

/** The YAML between the leading `---` lines of a `SKILL.md`, or undefined when it does not begin with one. */
export function frontmatterBlock(text: string): string | undefined {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return /^---\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/.exec(body)?.[1];
}

/**
 * The frontmatter as a JSON object, or a string saying why there is none. YAML 1.2's core schema (no
 * dates, no custom tags), unique keys, and a bound on aliases, so a hostile file cannot expand without end.
 */
export async function parseFrontmatter(text: string): Promise<Record<string, unknown> | string> {
  const block = frontmatterBlock(text);
  if (block === undefined) return 'SKILL.md does not begin with a --- delimited YAML frontmatter block';
  const { parse } = await import('yaml');
  let value: unknown;
  try {
    value = parse(block, { schema: 'core', uniqueKeys: true, maxAliasCount: 100, prettyErrors: false });
  } catch (error) {
    return `its frontmatter is not valid YAML (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'its frontmatter is not a mapping';
  return value as Record<string, unknown>;
}

/** The fields whose values differ between the file's frontmatter and the entry's (either side's extra fields too). */
export function differingFields(file: Record<string, unknown>, entry: Record<string, unknown>): string[] {
  const fields = new Set([...Object.keys(file), ...Object.keys(entry)]);
  return [...fields].filter((f) => !Object.hasOwn(file, f) || !Object.hasOwn(entry, f) || !sameJson(file[f], entry[f]));
}

/** Equality of JSON values: objects by their keys regardless of order, arrays in order, numbers by value. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((v, i) => sameJson(v, other[i]));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => Object.hasOwn(y, k) && sameJson(x[k], y[k]));
}
