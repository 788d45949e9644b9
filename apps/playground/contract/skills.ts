// The Skills view's data (SEP-2640), types only: listings, one entry, a load or a file read step by step, directories.
import type { SkillFile, SkillFrontmatter } from '@mcpc/client/types';
import type { ErrorInfo } from './shapes.js';

export type { SkillFile, SkillFrontmatter };

/** Why an entry may not be loaded (`SkillEntryError`): its code, its reason, and the message. */
export interface SkillProblem extends ErrorInfo {
  reason: string;
}

/** One skill as a listing shows it; identity is (server, uri), `label` tells same-named skills apart. */
export interface SkillView {
  server: string;
  uri: string;
  name: string;
  label: string;
  description: string;
  frontmatter: SkillFrontmatter;
  /** The manifest, or `'dynamic'` (no manifest: nothing to verify against). */
  resources: SkillFile[] | 'dynamic';
  fileCount: number;
  totalSize: number;
  problem?: SkillProblem;
}

/** `GET …/skills`: whether the server declared the extension (nothing is asked of it otherwise), and its listing. */
export interface SkillListing {
  declared: boolean;
  /** The server declared `directoryRead` (it answers `resources/directory/read`). */
  directoryRead: boolean;
  skills: SkillView[];
}

/** `GET …/skill?uri=`: the current entry (`skills/get`), what an approval is bound to, and what to show the approver. */
export interface SkillEntryView extends SkillView {
  /**
   * The entry's `resources` set as one string: a load carries it back as the user's approval, and is
   * refused when the entry changed since it was shown.
   */
  approval: string;
  /** The frontmatter's `allowed-tools` as written: shown to the approver, never acted on. */
  allowedTools: unknown;
  /** `SKILL.md` files below the root: nested skills, supporting files until loaded on their own. */
  nested: string[];
}

/** One check of a read: the read itself, then size, digest and (for `SKILL.md`) frontmatter. */
export interface SkillStep {
  step: 'approval' | 'listed' | 'read' | 'size' | 'digest' | 'frontmatter';
  /** `skipped`: not reached, or nothing to check against (a dynamic skill has no manifest). */
  state: 'passed' | 'failed' | 'skipped';
  detail: string;
}

/** A verified read (`load` or `file`): its steps in order; the text only when every step passed. */
export interface SkillRead {
  uri: string;
  outcome: 'verified' | 'refused';
  steps: SkillStep[];
  text?: string;
  mimeType?: string;
  /** The failure's code (`MCPC_SKILL_VERIFICATION_FAILED`, …), reason and message when refused. */
  error?: SkillProblem;
}

/** `POST …/skills/load`: the user's approval of what the page showed. */
export interface SkillLoadRequest {
  uri: string;
  /** The `approval` of the entry the user approved (`GET …/skill`). */
  approval: string;
  /** Load a `"dynamic"` skill (no manifest, no integrity). */
  allowDynamic?: boolean;
}

/** One child of a skill's directory, and where the answer came from (the manifest, or the server's directory read). */
export interface SkillDirectoryView {
  path: string;
  source: 'manifest' | 'server';
  items: { uri: string; name: string; directory: boolean }[];
}
