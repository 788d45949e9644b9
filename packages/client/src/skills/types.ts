// The public shapes of skills (SEP-2640): entries, files, the approval request, the options and the content cache.
import type { SkillEntryError } from '../errors/skills.js';

/** The extension's identifier, as servers declare it in `capabilities.extensions`. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** A skill's `SKILL.md` frontmatter as the entry carries it (server text: untrusted). */
export interface SkillFrontmatter {
  readonly name: string;
  readonly description: string;
  readonly [field: string]: unknown;
}

/** One file of a skill's manifest: its URI, its path within the skill, and what its bytes must be. */
export interface SkillFile {
  readonly uri: string;
  /** The path relative to the skill's root (`SKILL.md`, `references/FORMS.md`). */
  readonly path: string;
  /** `sha256:` and 64 lowercase hex digits. */
  readonly digest: string;
  /** Bytes. */
  readonly size: number;
}

/**
 * One skill as a listing (or `getSkill`) reports it. Its identity is (`server`, `uri`); `name` is a
 * label that other skills may share, and `label` is unique within the listing it came in.
 */
export interface SkillEntry {
  /** The host's name for the server (never the server's self-reported name). */
  readonly server: string;
  /** The URI of the skill's `SKILL.md`. */
  readonly uri: string;
  /** `frontmatter.name` (a label: not unique). */
  readonly name: string;
  /**
   * Unique within the listing: the name when no other skill in it has that name, otherwise
   * `server:skill-path` (the server's name and the skill's path, which tell same-named skills apart).
   */
  readonly label: string;
  readonly description: string;
  readonly frontmatter: SkillFrontmatter;
  /** The manifest, or `'dynamic'` (no manifest: no integrity, loaded only with `allowDynamic`). */
  readonly resources: readonly SkillFile[] | 'dynamic';
  /** The number of files (0 for a dynamic skill). */
  readonly fileCount: number;
  /** The sum of the files' sizes in bytes (0 for a dynamic skill). */
  readonly totalSize: number;
  /** Why the entry may not be loaded, when it may not (listed all the same: never silently dropped). */
  readonly problem?: SkillEntryError;
}

/** What `onSkillApproval` is asked: the skill, and the `resources` set the approval will be bound to. */
export interface SkillApprovalRequest {
  readonly server: string;
  readonly uri: string;
  readonly name: string;
  readonly description: string;
  readonly frontmatter: SkillFrontmatter;
  /**
   * The frontmatter's `allowed-tools`, as the server wrote it: a request for elevated access, shown
   * here for the user to judge. The client grants nothing from it, approved or not.
   */
  readonly allowedTools: unknown;
  readonly resources: readonly SkillFile[] | 'dynamic';
  /** True when this skill was approved before with another `resources` set: the approval was revoked. */
  readonly changed: boolean;
}

/**
 * Asked before a skill is loaded, once per (server, uri, `resources` set): true approves. A later entry
 * with another set revokes the approval and asks again. A dynamic skill is asked on every load.
 */
export type SkillApprovalHook = (request: SkillApprovalRequest) => boolean | Promise<boolean>;

/** Where verified skill files are kept between reads. Keyed by server, URI and digest; every hit is re-verified. */
export interface SkillContentCache {
  get(server: string, uri: string, digest: string): Promise<Uint8Array | undefined> | Uint8Array | undefined;
  set(server: string, uri: string, digest: string, bytes: Uint8Array): Promise<void> | void;
  /** Drops what is kept for a server (all of it without `server`). */
  clear?(server?: string): Promise<void> | void;
}

/** The client's `skills` option. */
export interface SkillOptions {
  /** Load skills whose `resources` is `"dynamic"` (no manifest, no integrity; reads capped at 16 MiB). */
  readonly allowDynamic?: boolean;
  /** Where verified files are kept (default: in memory, 32 MiB). `@mcpc/client/skills-disk` has a disk one. */
  readonly cache?: SkillContentCache;
  /** The most entries `listSkills` collects from one server before failing with `PaginationError` (10 000). */
  readonly maxListItems?: number;
}

/** What `loadSkill` takes besides the skill. */
export interface LoadSkillOptions {
  /** The server, for a name or a URI (an entry names its own). */
  readonly server?: string;
  /** Overrides the client's `skills.allowDynamic` for this load. */
  readonly allowDynamic?: boolean;
}

/** One file of a loaded skill, verified against the held entry. */
export interface SkillFileContent {
  readonly uri: string;
  readonly path: string;
  readonly bytes: Uint8Array;
  /** The bytes as UTF-8 (replacement characters where they are not). */
  readonly text: string;
  readonly mimeType: string | undefined;
}
