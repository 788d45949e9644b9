// What a configured server is, wherever it was configured: the `mcpServers` entry shape plus where it came from.

/** A server from a config file: a command to spawn, or a URL, and the file it came from. */
export interface ServerEntry {
  readonly name: string;
  /** Where it was found, for people: `Claude Desktop (~/.config/Claude/claude_desktop_config.json)`. */
  readonly source: string;
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly url?: string;
  /** How to reach `url`; detected when absent. */
  readonly type?: 'stdio' | 'streamable-http' | 'http' | 'sse';
  readonly headers?: Readonly<Record<string, string>>;
  /** The config file it was read from (absent for the command line). */
  readonly file?: string;
  /**
   * True for an entry of a project file (`.mcp.json`, …) the user has not trusted: listed, never started
   * or contacted, and its `${VAR}`s left as written (a cloned repository must not read the user's secrets).
   */
  readonly untrusted?: true;
}

/** A project-scoped config file the user has not trusted (or has trusted in another version). */
export interface UntrustedFile {
  readonly path: string;
  /** The host whose file it is: `Claude Code`, `Cursor`, `VS Code`. */
  readonly host: string;
  /** `sha256:<hex>` of the bytes read: what `mcpc trust` records. */
  readonly digest: string;
  /** Whether an earlier version of it was trusted (it changed since). */
  readonly changed: boolean;
  /** The names it defines. */
  readonly names: readonly string[];
}

/** One name that two configured servers that differ both carry: naming it is an error, never a pick. */
export interface NameConflict {
  readonly name: string;
  readonly entries: readonly ServerEntry[];
}

/** What discovery found: the servers, the project files not trusted, the names two servers claim, and files it could not use. */
export interface Discovered {
  /** Every server found, the untrusted and the conflicting ones included (each marked), in file order. */
  readonly servers: readonly ServerEntry[];
  readonly untrusted: readonly UntrustedFile[];
  readonly conflicts: readonly NameConflict[];
  /** One line per file that exists but could not be read or parsed. */
  readonly problems: readonly string[];
}

export interface DiscoveryOptions {
  readonly env: NodeJS.ProcessEnv;
  /** The project directory (project-level configs: `.mcp.json`, `.cursor/mcp.json`, `.vscode/mcp.json`). */
  readonly cwd: string;
  /** The home directory (`HOME` / `USERPROFILE`). */
  readonly home: string;
  readonly platform: NodeJS.Platform;
  /** `--config FILE`: only this file is read (the user named it: trusted). */
  readonly configFile?: string;
  /** The trust store: project files trusted, by path and digest (in the user's own config directory). */
  readonly trustFile?: string;
  /** `--trust-project`: the project's files are trusted for this run (nothing is recorded). */
  readonly trustProject?: boolean;
}
