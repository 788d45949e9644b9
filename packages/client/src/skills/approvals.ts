// Skill approvals: asked of the host hook, bound to (server, uri) and the entry's resources set; a new set revokes.
import { SkillApprovalError } from '../errors/skills.js';
import { fingerprint } from './entry.js';
import type { SkillApprovalHook, SkillEntry } from './types.js';

const keyOf = (server: string, uri: string): string => JSON.stringify([server, uri]);

/** The approvals a client holds, one per skill identity, each bound to the set it was given for. */
export class SkillApprovals {
  readonly #hook: SkillApprovalHook | undefined;
  /** (server, uri) → the fingerprint of the approved `resources` set. */
  readonly #approved = new Map<string, string>();
  /** Skills whose approval was revoked by a changed set: the next request says so. */
  readonly #revoked = new Set<string>();

  constructor(hook: SkillApprovalHook | undefined) {
    this.#hook = hook;
  }

  /** A fresh entry was seen (listing or `skills/get`): a different set than the approved one revokes it. */
  observe(entry: SkillEntry): void {
    const key = keyOf(entry.server, entry.uri);
    const held = this.#approved.get(key);
    if (held !== undefined && held !== fingerprint(entry)) {
      this.#approved.delete(key);
      this.#revoked.add(key);
    }
  }

  /**
   * Resolves when the skill may be loaded: no hook (the host's call is its decision), an approval held
   * for this very set, or the hook says yes now. Throws `SkillApprovalError` otherwise.
   */
  async require(entry: SkillEntry): Promise<void> {
    if (this.#hook === undefined) return;
    this.observe(entry);
    const key = keyOf(entry.server, entry.uri);
    const print = fingerprint(entry);
    if (print !== undefined && this.#approved.get(key) === print) return;
    let approved: boolean;
    try {
      approved =
        (await this.#hook(
          Object.freeze({
            server: entry.server,
            uri: entry.uri,
            name: entry.name,
            description: entry.description,
            frontmatter: entry.frontmatter,
            allowedTools: entry.frontmatter['allowed-tools'],
            resources: entry.resources,
            changed: this.#revoked.has(key),
          }),
        )) === true;
    } catch (error) {
      throw new SkillApprovalError(entry.server, entry.uri, error);
    }
    if (!approved) throw new SkillApprovalError(entry.server, entry.uri);
    this.#revoked.delete(key);
    // A dynamic skill cannot be content-bound: it is asked again on every load.
    if (print !== undefined) this.#approved.set(key, print);
  }
}
