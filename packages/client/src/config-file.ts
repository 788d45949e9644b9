// Server configs from an `mcpServers` document or file: each entry read by readConfigEntry, made a config.
import { readConfigEntry } from './config-entry.js';
import { httpConfig } from './http-choice.js';
import { stdio, type ServerConfig } from './server-configs.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Server configs from a server-definition document, the `{ "mcpServers": { name: { … } } }` shape
 * most MCP hosts share, each entry read as {@link readConfigEntry} reads it. A stdio entry has `command`
 * (and optionally `args`, `env`, `cwd`); an HTTP entry has a `url` and optionally `headers` and a `type`:
 * `sse` for HTTP+SSE, else Streamable HTTP (`streamable_http`, `http` as the hosts write it, or none).
 * A document without an `mcpServers` object is a `TypeError`; a malformed entry a `ConfigEntryError` naming it.
 */
export function serversFromConfig(document: unknown): ServerConfig[] {
  const servers = isObject(document) ? document.mcpServers : undefined;
  if (!isObject(servers)) throw new TypeError('a server definition document needs an "mcpServers" object');
  return Object.entries(servers).map(([name, raw]) => {
    const read = readConfigEntry(name, raw);
    if (!read.ok) throw read.error;
    const { entry } = read;
    if (entry.kind === 'stdio') {
      const { kind: _kind, ...options } = entry;
      return stdio(options);
    }
    return httpConfig(entry.transport ?? 'streamable-http', {
      name,
      url: entry.url,
      ...(entry.headers !== undefined && { headers: entry.headers }),
    });
  });
}

/** Reads a server definition file (JSON) into server configs; see {@link serversFromConfig}. */
export async function readServerConfigFile(path: string | URL): Promise<ServerConfig[]> {
  // Loaded on demand from this runtime's platform module: the entry point imports no Node-only module, and
  // a browser's bundle takes none (`#platform` is platform-web.ts there).
  const text = await (await import('#platform')).readTextFile(path);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (cause) {
    throw new TypeError(`${String(path)} is not valid JSON`, { cause });
  }
  return serversFromConfig(document);
}
