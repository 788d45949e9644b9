// A pulled skill on disk: safe path segments, a staging directory, exclusive creates, one rename into place.
import { constants } from 'node:fs';
import { lstat, mkdir, mkdtemp, open, realpath, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { safe } from '../output.js';

/** One verified file of a skill: its path within the skill (`references/GUIDE.md`) and its bytes. */
export interface PulledFile {
  readonly path: string;
  readonly bytes: Uint8Array;
}

// eslint-disable-next-line no-control-regex -- a segment with a control character is refused
const UNSAFE = /[/\\\u0000-\u001f\u007f]/;

/** Whether a server's path segment may name a file or directory: not empty, `.`, `..`, no separators or controls. */
export function safeSegment(segment: string): boolean {
  return segment.length > 0 && segment.length <= 255 && segment !== '.' && segment !== '..' && !UNSAFE.test(segment);
}

/** A name the host chose (the server's) as one directory name: anything but `A-Za-z0-9._-` percent-encoded. */
export function diskSegment(name: string): string {
  const encoded = [...new TextEncoder().encode(name)]
    .map((b) =>
      /[A-Za-z0-9._-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
  return encoded === '' || encoded === '.' || encoded === '..' ? encoded.replace(/\./g, '%2E') || '%00' : encoded;
}

const refuse = (what: string): CliError =>
  new CliError(`refused to write the skill: ${what}`, ExitCode.Validation, 'nothing was written');

/** The `<skill-path>` of a skill URI (`skill://acme/billing/refunds/SKILL.md` → acme, billing, refunds), checked. */
export function skillSegments(uri: string): string[] {
  const match = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/(.+)\/SKILL\.md$/s.exec(uri);
  if (match === null) throw refuse(`"${safe(uri, 200)}" is not <scheme>://<skill-path>/SKILL.md`);
  const segments = match[1]!.split('/');
  const bad = segments.find((s) => !safeSegment(s));
  if (bad !== undefined) throw refuse(`"${safe(uri, 200)}" has an unsafe path segment "${safe(bad, 100)}"`);
  return segments;
}

/** A file's path within its skill, as segments, checked: relative, no `.` or `..`, nothing absolute. */
export function fileSegments(path: string): string[] {
  const segments = path.split('/');
  if (!segments.every(safeSegment)) throw refuse(`the file path "${safe(path, 200)}" is not a plain relative path`);
  return segments;
}

/** A directory that is one, not a symbolic link (or anything else). */
async function isRealDirectory(path: string): Promise<boolean> {
  const stat = await lstat(path).catch(() => undefined);
  return stat !== undefined && stat.isDirectory() && !stat.isSymbolicLink();
}

/** `mkdir` one level (0755 or tighter, by the umask), accepting a directory that is there and is no link. */
async function directoryAt(path: string): Promise<void> {
  try {
    await mkdir(path, { mode: 0o755 });
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
  }
  if (!(await isRealDirectory(path))) throw refuse(`${path} is not a directory (or is a symbolic link)`);
}

const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/**
 * Writes the files under `root/<parts…>` as one step: first into a staging directory beside them (fresh,
 * every file created exclusively, 0644; directories 0755), then renamed into place — a pull that fails
 * leaves nothing. A skill already there is replaced. No symbolic link on the way is followed: each
 * directory is checked, and the place's real path must be the path asked for. Returns the skill's directory.
 */
export async function writeSkillTree(
  root: string,
  parts: readonly string[],
  files: readonly PulledFile[],
): Promise<string> {
  const checked = files.map((f) => ({ segments: fileSegments(f.path), bytes: f.bytes }));
  await mkdir(root, { recursive: true, mode: 0o755 });
  const base = await realpath(root);
  const staging = await mkdtemp(join(base, '.mcpc-pull-'));
  try {
    const tree = join(staging, 'skill');
    await mkdir(tree, { mode: 0o755 });
    for (const file of checked) {
      let dir = tree;
      for (const segment of file.segments.slice(0, -1)) await directoryAt((dir = join(dir, segment)));
      const handle = await open(join(dir, file.segments.at(-1)!), CREATE, 0o644);
      try {
        await handle.writeFile(file.bytes);
      } finally {
        await handle.close();
      }
    }
    let at = base;
    for (const part of parts.slice(0, -1)) await directoryAt((at = join(at, part)));
    if ((await realpath(at)) !== at) throw refuse(`${at} resolves elsewhere (a symbolic link on the way)`);
    const place = join(at, parts.at(-1)!);
    const there = await lstat(place).catch(() => undefined);
    if (there !== undefined) {
      if (!there.isDirectory() || there.isSymbolicLink()) throw refuse(`${place} is there and is not a directory`);
      await rename(place, join(staging, 'previous'));
    }
    await rename(tree, place);
    return place;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
