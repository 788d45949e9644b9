// Where each MCP host keeps its servers, per platform, and which key of its file holds them, in precedence order.
import { isAbsolute, join, resolve } from 'node:path';
import { isObject } from './entries.js';
import type { DiscoveryOptions } from './types.js';

/** One group of servers inside a file, with the label its entries get. */
export interface Group {
  readonly label: string;
  readonly servers: unknown;
}

/** A config file a host reads, and how to find its servers in it. */
export interface HostFile {
  /** The host, for people: `Claude Desktop`. */
  readonly host: string;
  readonly path: string;
  /** A larger bound than the default (`~/.claude.json` also keeps every project's history). */
  readonly maxBytes?: number;
  /** A file a repository carries (`.mcp.json`, …): untrusted until the user trusts it. */
  readonly project?: true;
  /** The server groups of the parsed document; `where` is `(~/path)`. */
  readonly groups: (document: unknown, where: string) => Group[];
}

/** `document[key]` when the document is an object. */
const at = (document: unknown, key: string): unknown => (isObject(document) ? document[key] : undefined);

/** `mcpServers` (most hosts), `servers` (VS Code), `mcp_servers` (Codex) or VS Code settings' `mcp.servers`. */
export function anyServers(document: unknown): unknown {
  return (
    at(document, 'mcpServers') ??
    at(document, 'servers') ??
    at(document, 'mcp_servers') ??
    at(at(document, 'mcp'), 'servers') ??
    at(document, 'mcp.servers')
  );
}

const one =
  (pick: (document: unknown) => unknown) =>
  (host: string) =>
  (document: unknown, where: string): Group[] => [{ label: `${host} ${where}`, servers: pick(document) }];

const mcpServers = one((d) => at(d, 'mcpServers'));
const vscodeServers = one((d) => at(d, 'servers'));
const vscodeSettings = one((d) => at(at(d, 'mcp'), 'servers') ?? at(d, 'mcp.servers'));
const codexServers = one((d) => at(d, 'mcp_servers'));

/** `~/.claude.json`: the servers local to this project (`projects[cwd]`) first, then the user's. */
function claudeCode(cwd: string, platform: NodeJS.Platform) {
  const same = (a: string, b: string): boolean => {
    const norm = (p: string): string => {
      const r = resolve(p).replace(/[\\/]+$/, '');
      return platform === 'win32' ? r.replace(/\\/g, '/').toLowerCase() : r;
    };
    return norm(a) === norm(b);
  };
  return (document: unknown, where: string): Group[] => {
    const projects = at(document, 'projects');
    const key = isObject(projects) ? Object.keys(projects).find((k) => same(k, cwd)) : undefined;
    return [
      ...(key === undefined
        ? []
        : [{ label: `Claude Code, this project ${where}`, servers: at(at(projects, key), 'mcpServers') }]),
      { label: `Claude Code ${where}`, servers: at(document, 'mcpServers') },
    ];
  };
}

/** mcpc's own config file: `$MCPC_CONFIG`, else under the user's config directory. */
export function mcpcConfigPath(options: DiscoveryOptions): string {
  const { env, home, platform, cwd } = options;
  if (env.MCPC_CONFIG) return resolve(cwd, env.MCPC_CONFIG);
  if (platform === 'win32') return join(appData(options), 'mcpc', 'config.json');
  const xdg = env.XDG_CONFIG_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.config'), 'mcpc', 'config.json');
}

function appData({ env, home }: DiscoveryOptions): string {
  return env.APPDATA || join(home, 'AppData', 'Roaming');
}

/** The directory a desktop app keeps its per-user data in. */
function appDir(options: DiscoveryOptions, app: string): string {
  const { home, platform, env } = options;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', app);
  if (platform === 'win32') return join(appData(options), app);
  const xdg = env.XDG_CONFIG_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.config'), app);
}

/** Every file discovery reads, first to last (the order servers are listed in). */
export function hostFiles(options: DiscoveryOptions): HostFile[] {
  const { cwd, home, env, platform } = options;
  const codeUser = join(appDir(options, 'Code'), 'User');
  const codexHome = env.CODEX_HOME && isAbsolute(env.CODEX_HOME) ? env.CODEX_HOME : join(home, '.codex');
  return [
    { host: 'mcpc', path: mcpcConfigPath(options), groups: one(anyServers)('mcpc') },
    // Project-level: the files a repository carries.
    { host: 'Claude Code', path: join(cwd, '.mcp.json'), project: true, groups: mcpServers('Claude Code') },
    { host: 'Cursor', path: join(cwd, '.cursor', 'mcp.json'), project: true, groups: mcpServers('Cursor') },
    { host: 'VS Code', path: join(cwd, '.vscode', 'mcp.json'), project: true, groups: vscodeServers('VS Code') },
    // User-level.
    {
      host: 'Claude Code',
      path: join(home, '.claude.json'),
      maxBytes: 64 * 1024 * 1024,
      groups: claudeCode(cwd, platform),
    },
    {
      host: 'Claude Desktop',
      path: join(appDir(options, 'Claude'), 'claude_desktop_config.json'),
      groups: mcpServers('Claude Desktop'),
    },
    { host: 'Cursor', path: join(home, '.cursor', 'mcp.json'), groups: mcpServers('Cursor') },
    {
      host: 'Windsurf',
      path: join(home, '.codeium', 'windsurf', 'mcp_config.json'),
      groups: mcpServers('Windsurf'),
    },
    { host: 'VS Code', path: join(codeUser, 'mcp.json'), groups: vscodeServers('VS Code') },
    { host: 'VS Code', path: join(codeUser, 'settings.json'), groups: vscodeSettings('VS Code') },
    { host: 'Codex', path: join(codexHome, 'config.toml'), groups: codexServers('Codex') },
  ];
}

/**
 * The files discovery reads, each once: a file two hosts share is read once, and one that is also a
 * user-level file (the project is the home directory) is the user's own, not a repository's.
 */
export function filesToRead(options: DiscoveryOptions): HostFile[] {
  const all = hostFiles(options);
  const userPaths = new Set(all.filter((f) => f.project !== true).map((f) => f.path));
  const seen = new Set<string>();
  return all
    .filter((f) => !seen.has(f.path) && seen.add(f.path))
    .map(({ project, ...f }): HostFile => (project === true && !userPaths.has(f.path) ? { ...f, project } : f));
}

/** A path for people: the home directory shown as `~`. */
export function tilde(path: string, home: string): string {
  if (home === '' || home === '/') return path;
  const base = home.replace(/[\\/]+$/, '');
  if (path === base) return '~';
  if (path.startsWith(base) && (path[base.length] === '/' || path[base.length] === '\\'))
    return `~${path.slice(base.length)}`;
  return path;
}
