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
}

/** What discovery found: the servers (first source wins a name), and files it could not use. */
export interface Discovered {
  readonly servers: readonly ServerEntry[];
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
  /** `--config FILE`: only this file is read. */
  readonly configFile?: string;
}
