// Skills (SEP-2640) refused: an entry that may not be loaded, a read that did not verify, a load not approved.
import { McpError, escapeForLog } from '@mcpc/jsonrpc';
import { brand } from '../brand.js';
import { ClientErrorCode } from '../codes.js';

/** Why an entry was refused before anything of it was fetched: a closed set. */
export type SkillEntryReason =
  /** The entry is not an object with a string `uri` and a `frontmatter` object with `name` and `description`. */
  | 'shape'
  /** `uri` is not `<scheme>://<skill-path>/SKILL.md` with safe segments (no `.`, `..`, empty, `\`, `?`, `#`). */
  | 'uri'
  /** The final `<skill-path>` segment is not `frontmatter.name`, or the name breaks the Agent Skills rules. */
  | 'name'
  /** `resources` is missing. */
  | 'resources-missing'
  /** `resources` is neither an array nor `"dynamic"`, or one of its items is not `{ uri, digest, size }`. */
  | 'resources-invalid'
  /** The array has no item for the `SKILL.md` itself, or lists one file twice. */
  | 'incomplete'
  /** An item's `uri` is not within the skill's directory (another skill, `../`, another scheme or host). */
  | 'outside'
  /** A digest is not `sha256:` and 64 lowercase hex digits, or a size is not a whole number of bytes. */
  | 'digest'
  /** More than 512 files. */
  | 'too-many-files'
  /** More than 16 MiB (16 777 216 bytes) in total. */
  | 'too-large'
  /** `resources` is `"dynamic"` (no manifest, no integrity) and the host did not opt in (`allowDynamic`). */
  | 'dynamic';

const ENTRY_CODES: Partial<Record<SkillEntryReason, ClientErrorCode>> = {
  'too-many-files': ClientErrorCode.SkillTooLarge,
  'too-large': ClientErrorCode.SkillTooLarge,
  dynamic: ClientErrorCode.SkillDynamicRefused,
};

/**
 * A skill entry (from `skills/list` or `skills/get`) the client will not load: `reason` says why and
 * `detail` what was seen. Nothing of the skill was fetched. Listings carry it as the entry's `problem`.
 */
export class SkillEntryError extends McpError {
  static {
    brand(this, 'SkillEntryError');
  }
  readonly reason: SkillEntryReason;
  readonly server: string;
  /** The entry's `uri` (server text: escape before printing), or `''` when it had none. */
  readonly uri: string;
  readonly detail: string;

  constructor(reason: SkillEntryReason, server: string, uri: string, detail: string) {
    super(
      `skill "${escapeForLog(uri, 200)}" on server "${server}" was refused (${reason}): ${escapeForLog(detail, 400)}`,
      { code: ENTRY_CODES[reason] ?? ClientErrorCode.SkillEntryInvalid },
    );
    this.reason = reason;
    this.server = server;
    this.uri = uri;
    this.detail = detail;
  }
}

/** Why a read did not verify against the held entry: a closed set. */
export type SkillVerificationReason =
  /** The bytes read are not the entry's `size` (checked before the digest). */
  | 'size'
  /** The bytes' SHA-256 is not the entry's `digest`. */
  | 'digest'
  /** The `SKILL.md` frontmatter differs from the entry's `frontmatter` (or cannot be parsed). */
  | 'frontmatter'
  /** The file is not in the held entry's `resources`: an unlisted file is a change to the skill. */
  | 'unlisted'
  /** The `resources/read` result has no contents for the URI (or more than one). */
  | 'no-content'
  /** A `"dynamic"` skill's reads went past 16 MiB in total. */
  | 'limit';

/**
 * A file of a skill did not match the entry the client holds: the content was not returned and not
 * cached. The skill may have changed since it was listed: call `getSkill(uri, { server })` for the
 * current entry (a changed `resources` set asks for approval again) and load it anew.
 */
export class SkillVerificationError extends McpError {
  static {
    brand(this, 'SkillVerificationError');
  }
  readonly reason: SkillVerificationReason;
  readonly server: string;
  /** The skill's `SKILL.md` URI. */
  readonly skill: string;
  /** The file whose read failed. */
  readonly uri: string;
  readonly detail: string;

  constructor(reason: SkillVerificationReason, server: string, skill: string, uri: string, detail: string) {
    super(
      `${escapeForLog(uri, 200)} of skill "${escapeForLog(skill, 200)}" on server "${server}" failed verification ` +
        `(${reason}): ${escapeForLog(detail, 400)}; its content was not used. The skill may have changed: ` +
        `call getSkill("${escapeForLog(skill, 200)}", { server: "${server}" }) and load it again`,
      { code: ClientErrorCode.SkillVerificationFailed },
    );
    this.reason = reason;
    this.server = server;
    this.skill = skill;
    this.uri = uri;
    this.detail = detail;
  }
}

/** The host's `onSkillApproval` did not approve the skill (for this `resources` set); nothing was read. */
export class SkillApprovalError extends McpError {
  static {
    brand(this, 'SkillApprovalError');
  }
  readonly server: string;
  readonly uri: string;

  constructor(server: string, uri: string, cause?: unknown) {
    super(
      `loading skill "${escapeForLog(uri, 200)}" from server "${server}" was not approved` +
        (cause === undefined
          ? ''
          : ` (onSkillApproval failed: ${cause instanceof Error ? cause.message : String(cause)})`),
      { code: ClientErrorCode.SkillNotApproved, cause },
    );
    this.server = server;
    this.uri = uri;
  }
}
