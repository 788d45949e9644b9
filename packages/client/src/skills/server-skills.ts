// One server's skills: the capability gate, `skills/list` (bounded, cached), `skills/get`, and the loading path.
import { ErrorCode, ServerError, escapeForLog } from '@mcpc/jsonrpc';
import { ResultCache, combineHints, readHints, type CacheHints, type CacheInfo } from '../cache/list-cache.js';
import { collectPages, type Page } from '../cache/pagination.js';
import { CapabilityError, NotFoundError, PaginationError, ValidationError } from '../errors.js';
import { SkillEntryError, SkillVerificationError } from '../errors/skills.js';
import type { Connection } from '../server/connection.js';
import type { SkillApprovals } from './approvals.js';
import { MAX_SKILL_BYTES, readSkillEntry } from './entry.js';
import { differingFields, parseFrontmatter } from './frontmatter.js';
import { withLabels } from './labels.js';
import { LoadedSkill, readSkillFile, type LoadedSkillContext, type SkillDirectoryItem } from './loaded-skill.js';
import { SKILLS_EXTENSION, type SkillContentCache, type SkillEntry } from './types.js';

/** What every server of a client shares for skills. */
export interface SkillsShared {
  readonly approvals: SkillApprovals;
  readonly cache: SkillContentCache;
  readonly allowDynamic: boolean;
  readonly maxListItems: number;
}

export interface ServerSkillsContext {
  readonly connection: Connection;
  readonly maxPages: number;
  readonly shared: SkillsShared;
  readonly warn: (message: string) => void;
}

export const DEFAULT_MAX_LIST_ITEMS = 10_000;

/** A server's skills. Nothing here reads a skill's files except `load`, and a loaded skill's own reads. */
export class ServerSkills {
  readonly #context: ServerSkillsContext;
  readonly #listing: ResultCache<SkillEntry[]>;

  constructor(context: ServerSkillsContext) {
    this.#context = context;
    const { connection } = context;
    this.#listing = new ResultCache(() => this.#fetchAll(), {
      what: 'skills/list',
      binding: (needAuth) => connection.cacheBinding(needAuth),
      serveStale: () => false,
      warn: context.warn,
    });
  }

  /** The extension's settings as the server declared them, or undefined when it did not declare it. */
  settings(): Readonly<Record<string, unknown>> | undefined {
    const extensions = (this.#context.connection.facts?.capabilities as { extensions?: unknown } | undefined)
      ?.extensions;
    if (typeof extensions !== 'object' || extensions === null) return undefined;
    const settings = (extensions as Record<string, unknown>)[SKILLS_EXTENSION];
    return typeof settings === 'object' && settings !== null && !Array.isArray(settings)
      ? (settings as Record<string, unknown>)
      : undefined;
  }

  /** Every entry the server lists, every page, cached by the listing's `ttlMs` / `cacheScope`. */
  async list(): Promise<readonly SkillEntry[]> {
    await this.#gate('skills/list');
    const entries = await this.#listing.get();
    for (const entry of entries) this.#context.shared.approvals.observe(entry);
    return entries;
  }

  info(): CacheInfo {
    return this.#listing.info((entries) => entries.length);
  }

  /** `skills/get`: the current entry for one skill (a skill known only by URI is confirmed this way). */
  async get(uri: string): Promise<SkillEntry> {
    await this.#gate('skills/get');
    const { connection } = this.#context;
    let raw: unknown;
    try {
      raw = await connection.request('skills/get', { uri });
    } catch (error) {
      if (error instanceof ServerError && error.rpcCode === ErrorCode.InvalidParams)
        throw new NotFoundError(
          'skill',
          uri,
          `server "${connection.name}" serves no skill at "${escapeForLog(uri, 200)}"`,
        );
      throw error;
    }
    const skill = (raw as { skill?: unknown } | null)?.skill;
    const entry = readSkillEntry(skill, connection.name);
    if (entry === undefined || entry.uri !== uri)
      throw new ValidationError(
        `server "${connection.name}" answered skills/get for "${escapeForLog(uri, 200)}" without that skill's entry`,
        {
          server: connection.name,
          method: 'skills/get',
        },
      );
    this.#context.shared.approvals.observe(entry);
    return withLabels([entry])[0]!;
  }

  /**
   * The loading path, the only one that activates a skill: the entry checked, approved, its `SKILL.md`
   * read and verified, its frontmatter matched field by field to the entry's. Nothing else is read.
   */
  async load(entry: SkillEntry, allowDynamic: boolean | undefined): Promise<LoadedSkill> {
    const { connection, shared } = this.#context;
    if (entry.server !== connection.name)
      throw new TypeError(`the entry is of server "${entry.server}", not "${connection.name}"`);
    if (entry.problem !== undefined) throw entry.problem;
    if (entry.resources === 'dynamic' && !(allowDynamic ?? shared.allowDynamic))
      throw new SkillEntryError(
        'dynamic',
        entry.server,
        entry.uri,
        'its resources are "dynamic" (no manifest, no integrity); pass allowDynamic to load it',
      );
    await this.#gate('resources/read');
    await shared.approvals.require(entry);
    const context = this.#readContext(entry);
    const { text } = await readSkillFile(entry, context, entry.uri);
    const parsed = await parseFrontmatter(text);
    const fail = (detail: string) =>
      new SkillVerificationError('frontmatter', entry.server, entry.uri, entry.uri, detail);
    if (typeof parsed === 'string') throw fail(parsed);
    const differ = differingFields(parsed, entry.frontmatter);
    if (differ.length > 0)
      throw fail(`the file's frontmatter differs from the entry's in ${differ.map((f) => `"${f}"`).join(', ')}`);
    return new LoadedSkill(entry, text, context);
  }

  invalidate(): void {
    this.#listing.invalidate();
  }

  #readContext(entry: SkillEntry): LoadedSkillContext {
    const { connection, shared, maxPages } = this.#context;
    const directoryRead = this.settings()?.directoryRead === true;
    return {
      server: connection.name,
      skill: entry.uri,
      cache: shared.cache,
      // Every read a skill drives goes to the skill's own server, whatever its text names.
      read: (uri) => connection.request('resources/read', { uri }),
      readDirectory: directoryRead
        ? async (uri) => {
            const { items } = await collectPages((cursor) => this.#directoryPage(uri, cursor), {
              server: connection.name,
              method: 'resources/directory/read',
              maxPages,
            });
            return items;
          }
        : undefined,
      budget: MAX_SKILL_BYTES,
    };
  }

  async #directoryPage(uri: string, cursor: string | undefined): Promise<Page<SkillDirectoryItem>> {
    const raw = (await this.#context.connection.request(
      'resources/directory/read',
      cursor === undefined ? { uri } : { uri, cursor },
    )) as { resources?: unknown; nextCursor?: unknown } | null;
    const list = Array.isArray(raw?.resources) ? raw.resources : [];
    const items: SkillDirectoryItem[] = [];
    for (const r of list as { uri?: unknown; name?: unknown; mimeType?: unknown }[])
      if (typeof r?.uri === 'string')
        items.push({
          uri: r.uri,
          name: typeof r.name === 'string' ? r.name : r.uri,
          directory: r.mimeType === 'inode/directory',
        });
    const next = raw?.nextCursor;
    return { items, nextCursor: typeof next === 'string' && next !== '' ? next : undefined };
  }

  async #gate(method: string): Promise<void> {
    const { connection } = this.#context;
    await connection.connect();
    if (this.settings() === undefined)
      throw new CapabilityError(connection.name, `extensions["${SKILLS_EXTENSION}"]`, method);
  }

  async #fetchAll(): Promise<{ value: SkillEntry[]; hints: CacheHints }> {
    const { connection, maxPages, shared } = this.#context;
    let count = 0;
    let pages = 0;
    let hints: CacheHints | undefined;
    const { items } = await collectPages(
      async (cursor): Promise<Page<SkillEntry>> => {
        // The bound is checked on a page's length, before any of its entries is read.
        const page = await this.#fetchPage(cursor, (length) => {
          pages++;
          count += length;
          if (count > shared.maxListItems)
            throw new PaginationError('item-limit', connection.name, 'skills/list', pages, []);
        });
        hints = combineHints(hints, page.hints ?? { ttlMs: 0, scope: 'private' });
        return page;
      },
      { server: connection.name, method: 'skills/list', maxPages },
    );
    return { value: withLabels(items), hints: hints ?? { ttlMs: 0, scope: 'private' } };
  }

  async #fetchPage(cursor: string | undefined, admit: (length: number) => void): Promise<Page<SkillEntry>> {
    const { connection, warn } = this.#context;
    const raw = await connection.request('skills/list', cursor === undefined ? {} : { cursor });
    const list = (raw as { skills?: unknown } | null)?.skills;
    if (!Array.isArray(list))
      throw new ValidationError(`server "${connection.name}" answered skills/list without a "skills" array`, {
        server: connection.name,
        method: 'skills/list',
      });
    admit(list.length);
    const items: SkillEntry[] = [];
    let unnamed = 0;
    for (const item of list) {
      const entry = readSkillEntry(item, connection.name);
      if (entry === undefined) unnamed++;
      else items.push(entry);
    }
    if (unnamed > 0)
      warn(`dropped from skills/list: ${unnamed} entries without a string "uri" (nothing to name them by)`);
    const next = (raw as { nextCursor?: unknown }).nextCursor;
    return { items, nextCursor: typeof next === 'string' && next !== '' ? next : undefined, hints: readHints(raw) };
  }
}
