// A loaded skill: the acting window over the held entry — reads resolve only to its manifest, on its own server.
import { CapabilityError, SkillVerificationError } from '../errors.js';
import { readListedFile, readUnlistedFile, type SkillReadContext } from './file-reader.js';
import type { SkillEntry, SkillFile, SkillFileContent, SkillFrontmatter } from './types.js';
import { pathWithin, resolveReference } from './uri.js';

/** One direct child of a directory of a skill. */
export interface SkillDirectoryItem {
  readonly uri: string;
  readonly name: string;
  readonly directory: boolean;
}

export interface LoadedSkillContext extends SkillReadContext {
  /** `resources/directory/read`, when the server declared `directoryRead` (undefined otherwise). */
  readonly readDirectory: ((uri: string) => Promise<readonly SkillDirectoryItem[]>) | undefined;
  /** Bytes a dynamic skill may still read (shared by its reads: 16 MiB in all). */
  budget: number;
}

/**
 * A skill loaded through `loadSkill`: its `SKILL.md` verified and its frontmatter matched to the entry.
 * Until it is dropped the client acts on the entry it was loaded from: `readFile` reads only files that
 * entry lists, from the skill's own server, each verified. Its content is untrusted server text; use
 * `toModelContext()` to hand it to a model tagged with its origin. `allowedTools` is never acted on.
 */
export class LoadedSkill {
  readonly server: string;
  readonly uri: string;
  readonly name: string;
  /** The skill's root directory (the `SKILL.md` URI without `/SKILL.md`): relative references resolve here. */
  readonly root: string;
  /** The entry the skill was loaded from: what every read is verified against. */
  readonly entry: SkillEntry;
  /** The `SKILL.md` text, verified. */
  readonly text: string;
  readonly #context: LoadedSkillContext;

  constructor(entry: SkillEntry, text: string, context: LoadedSkillContext) {
    this.server = entry.server;
    this.uri = entry.uri;
    this.name = entry.name;
    this.root = entry.uri.slice(0, -'/SKILL.md'.length);
    this.entry = entry;
    this.text = text;
    this.#context = context;
  }

  get frontmatter(): SkillFrontmatter {
    return this.entry.frontmatter;
  }

  /** The frontmatter's `allowed-tools` as written: a request for access the client never grants by itself. */
  get allowedTools(): unknown {
    return this.entry.frontmatter['allowed-tools'];
  }

  /** The manifest's files, or `'dynamic'`. */
  get files(): readonly SkillFile[] | 'dynamic' {
    return this.entry.resources;
  }

  /**
   * `SKILL.md` files below the root: nested skills. Read through this skill they are plain supporting
   * files; acting on one means loading it on its own (`loadSkill(uri, { server })`), with its own approval.
   */
  get nestedSkills(): readonly string[] {
    if (this.entry.resources === 'dynamic') return [];
    return this.entry.resources.filter((f) => f.uri !== this.uri && /(^|\/)SKILL\.md$/.test(f.path)).map((f) => f.uri);
  }

  /** A reference in the skill's text (`references/GUIDE.md`) as the URI it means, against the skill's root. */
  resolve(reference: string): string | undefined {
    return resolveReference(this.root, reference);
  }

  /**
   * A file of the skill, by a path relative to its root or by URI: read from the skill's server (or the
   * verified cache) and checked against the held entry. A file the entry does not list is a
   * `SkillVerificationError` (`'unlisted'`) and is not requested.
   */
  async readFile(pathOrUri: string): Promise<SkillFileContent> {
    return readSkillFile(this.entry, this.#context, pathOrUri);
  }

  /**
   * The direct children of a directory of the skill (`''` for the root). For a skill with a manifest the
   * answer is the manifest's (a directory read never extends it); a dynamic skill's is
   * `resources/directory/read`, which needs the server's `directoryRead` (`CapabilityError` otherwise).
   */
  async listDirectory(path = ''): Promise<readonly SkillDirectoryItem[]> {
    const dir = path === '' || path === '.' ? this.root : this.resolve(path);
    if (dir === undefined) return [];
    if (this.entry.resources !== 'dynamic') {
      const children = new Map<string, SkillDirectoryItem>();
      for (const f of this.entry.resources) {
        if (!f.uri.startsWith(`${dir}/`)) continue;
        const [head, ...rest] = f.uri.slice(dir.length + 1).split('/');
        children.set(head!, { uri: `${dir}/${head}`, name: head!, directory: rest.length > 0 });
      }
      return [...children.values()];
    }
    const read = this.#context.readDirectory;
    if (read === undefined)
      throw new CapabilityError(
        this.server,
        'extensions["io.modelcontextprotocol/skills"].directoryRead',
        'resources/directory/read',
      );
    return read(dir);
  }

  /** The `SKILL.md` for a model's context, fenced and tagged with its origin: untrusted server content. */
  toModelContext(): string {
    const attr = (v: string) => JSON.stringify(v);
    // The closing tag cannot be forged from inside: the text's own `</skill` is broken up.
    const body = this.text.replace(/<\/skill/gi, '<\\/skill');
    return `<skill server=${attr(this.server)} uri=${attr(this.uri)} origin="mcp">\n${body}\n</skill>`;
  }
}

function content(uri: string, path: string, bytes: Uint8Array, mimeType: string | undefined): SkillFileContent {
  return Object.freeze({ uri, path, bytes, text: new TextDecoder().decode(bytes), mimeType });
}

/** A file of the skill `entry` describes: listed and verified, or (dynamic) within its root and the read budget. */
export async function readSkillFile(
  entry: SkillEntry,
  context: LoadedSkillContext,
  pathOrUri: string,
): Promise<SkillFileContent> {
  const root = entry.uri.slice(0, -'/SKILL.md'.length);
  const uri = pathOrUri.includes('://') ? pathOrUri : resolveReference(root, pathOrUri);
  const unlisted = (detail: string) =>
    new SkillVerificationError('unlisted', entry.server, entry.uri, uri ?? pathOrUri, detail);
  if (entry.resources === 'dynamic') {
    const path = uri === undefined ? undefined : pathWithin(root, uri);
    if (uri === undefined || path === undefined) throw unlisted('it is not a file within the skill');
    const read = await readUnlistedFile(context, uri, context.budget);
    context.budget -= read.bytes.byteLength;
    return content(uri, path, read.bytes, read.mimeType);
  }
  const file = entry.resources.find((f) => f.uri === uri);
  if (file === undefined) throw unlisted('the held entry does not list it; refresh the entry with getSkill');
  const read = await readListedFile(context, file);
  return content(file.uri, file.path, read.bytes, read.mimeType);
}
