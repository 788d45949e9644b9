// Server configs from an `mcpServers` document or file: stdio commands and HTTP URLs with their headers.
import { http, sse, streamableHttp } from './http-configs.js';
import { stdio, type ServerConfig } from './server-configs.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const isStringRecord = (v: unknown): v is Record<string, string> =>
  isObject(v) && Object.values(v).every((s) => typeof s === 'string');

const HTTP_TYPES: Readonly<Record<string, typeof streamableHttp>> = {
  streamable_http: streamableHttp,
  'streamable-http': streamableHttp,
  streamableHttp,
  http,
  sse,
};

/**
 * Server configs from a server-definition document, the `{ "mcpServers": { name: { … } } }` shape
 * most MCP hosts share. A stdio entry has `command` (and optionally `args`, `env`, `cwd`; `type` is
 * `"stdio"` or absent). HTTP entries have `type` `streamable_http`, `http` or `sse` (a `url` alone means
 * Streamable HTTP), a `url`, and optionally `headers`.
 * A malformed entry is a `TypeError` naming it.
 */
export function serversFromConfig(document: unknown): ServerConfig[] {
  const servers = isObject(document) ? document.mcpServers : undefined;
  if (!isObject(servers)) throw new TypeError('a server definition document needs an "mcpServers" object');
  return Object.entries(servers).map(([name, entry]) => {
    if (!isObject(entry)) throw new TypeError(`mcpServers["${name}"] must be an object`);
    const type = entry.type ?? (typeof entry.url === 'string' ? 'streamable_http' : 'stdio');
    if (type === 'stdio') {
      if (typeof entry.command !== 'string' || entry.command.length === 0)
        throw new TypeError(`mcpServers["${name}"] needs a "command"`);
      if (entry.args !== undefined && !isStringArray(entry.args))
        throw new TypeError(`mcpServers["${name}"].args must be an array of strings`);
      if (entry.env !== undefined && !isStringRecord(entry.env))
        throw new TypeError(`mcpServers["${name}"].env must map names to strings`);
      if (entry.cwd !== undefined && typeof entry.cwd !== 'string')
        throw new TypeError(`mcpServers["${name}"].cwd must be a string`);
      return stdio({
        name,
        command: entry.command,
        ...(entry.args !== undefined && { args: entry.args }),
        ...(entry.env !== undefined && { env: entry.env }),
        ...(entry.cwd !== undefined && { cwd: entry.cwd }),
      });
    }
    const factory = typeof type === 'string' && Object.hasOwn(HTTP_TYPES, type) ? HTTP_TYPES[type] : undefined;
    if (factory === undefined)
      throw new TypeError(`mcpServers["${name}"] has an unknown type; use "stdio", "streamable_http", "http" or "sse"`);
    if (typeof entry.url !== 'string' || !URL.canParse(entry.url))
      throw new TypeError(`mcpServers["${name}"] needs a "url" that is an http(s) URL`);
    const url = new URL(entry.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError(`mcpServers["${name}"].url must be an http: or https: URL`);
    if (entry.headers !== undefined && !isStringRecord(entry.headers))
      throw new TypeError(`mcpServers["${name}"].headers must map names to strings`);
    return factory({ name, url, ...(entry.headers !== undefined && { headers: entry.headers }) });
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
