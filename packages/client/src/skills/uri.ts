// Skill URIs: `<scheme>://<skill-path>/SKILL.md` taken apart, files placed in a skill, relative references resolved.

/** A skill's `SKILL.md` URI, taken apart. */
export interface SkillLocation {
  readonly scheme: string;
  /** The skill's root directory: the URI without `/SKILL.md` (no trailing slash). */
  readonly root: string;
  /** The `<skill-path>` segments (the first is the authority). */
  readonly segments: readonly string[];
  /** The final segment: must equal `frontmatter.name`. */
  readonly name: string;
}

const SCHEMED = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/(.*)$/s;
// Agent Skills naming rules: 1-64 characters, lowercase letters, digits and hyphens, no hyphen at either
// end nor two in a row.
const NAME = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A segment a path could be made of: not empty, not `.` or `..` (encoded or not), no separators or controls. */
export function safeSegment(segment: string): boolean {
  if (segment.length === 0 || segment.length > 255) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\\?#\u0000-\u001f\u007f]/.test(segment)) return false;
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return false;
  }
  if (decoded === '.' || decoded === '..' || decoded.length === 0) return false;
  // eslint-disable-next-line no-control-regex
  return !/[/\\\u0000-\u001f\u007f]/.test(decoded);
}

/** A skill URI taken apart, or why it is not one. */
export function parseSkillUri(uri: string): SkillLocation | string {
  const match = SCHEMED.exec(uri);
  if (match === null) return 'not an absolute URI (<scheme>://<skill-path>/SKILL.md)';
  const segments = match[2]!.split('/');
  if (segments.length < 2 || segments[segments.length - 1] !== 'SKILL.md') return 'does not end in /SKILL.md';
  const path = segments.slice(0, -1);
  const bad = path.find((s) => !safeSegment(s));
  if (bad !== undefined) return `unsafe path segment "${bad}"`;
  return {
    scheme: match[1]!.toLowerCase(),
    root: uri.slice(0, -'/SKILL.md'.length),
    segments: path,
    name: path.at(-1)!,
  };
}

/** Whether a skill name keeps the Agent Skills naming rules. */
export const validSkillName = (name: string): boolean => NAME.test(name);

/** The path of `uri` within the skill at `root` (`references/FORMS.md`), or undefined when it is not within it. */
export function pathWithin(root: string, uri: string): string | undefined {
  if (!uri.startsWith(`${root}/`)) return undefined;
  const rest = uri.slice(root.length + 1);
  const segments = rest.split('/');
  return segments.every(safeSegment) ? rest : undefined;
}

/**
 * A reference from the skill's text resolved as a filesystem path would be, against the skill's root
 * (the directory holding its `SKILL.md`): `references/GUIDE.md`, `./a/../b.md`. Undefined for what
 * cannot be a file of the skill: an absolute path or URI, or one that climbs out of the root.
 */
export function resolveReference(root: string, reference: string): string | undefined {
  if (reference.length === 0 || reference.startsWith('/') || SCHEMED.test(reference) || /^[a-zA-Z]:/.test(reference))
    return undefined;
  const out: string[] = [];
  for (const segment of reference.split(/[?#]/)[0]!.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(segment);
  }
  if (out.length === 0 || !out.every(safeSegment)) return undefined;
  return `${root}/${out.join('/')}`;
}
