// What a server entry is made from: the page's `POST /api/servers` body or an `mcpServers` document, checked.
import type { AuthProvider } from '@mcpc/client';
import { readConfigEntry, type ConfigEntry, type HttpTransportName } from '@mcpc/client/config';
import type { AddServer } from '../contract/api.js';
import { ApiError, isRecord, isStringArray, need, stringValues } from './http.js';

type PageTransport = NonNullable<Extract<AddServer, { kind: 'url' }>['transport']>;
/** The page's names (contract/api.ts spells them out) are `httpConfig`'s: a name one of them lacks fails here. */
const TRANSPORTS = ['auto', 'streamable-http', 'http', 'sse'] as const satisfies readonly (HttpTransportName &
  PageTransport)[];

export interface StdioSpec {
  kind: 'stdio';
  name?: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

export interface UrlSpec {
  kind: 'url';
  name?: string;
  url: string;
  transport?: HttpTransportName;
  headers?: Record<string, string>;
  /** Signs in on connect (the demo's protected endpoint). */
  auth?: AuthProvider;
  /** Registered but not connected until a reconnect. */
  dormant?: boolean;
}

export type ServerSpec = StdioSpec | UrlSpec;

/** The specs a `POST /api/servers` body names: one for a command or a URL, each entry of a config document. */
export function specsFromBody(body: unknown): ServerSpec[] {
  need(isRecord(body), 'a JSON object is required');
  const name = typeof body.name === 'string' ? { name: body.name } : {};
  switch (body.kind) {
    case 'stdio':
      need(typeof body.command === 'string' && body.command.length > 0, '"command" (a string) is required');
      need(body.args === undefined || isStringArray(body.args), '"args" must be an array of strings');
      need(body.env === undefined || isRecord(body.env), '"env" must be an object');
      return [
        {
          kind: 'stdio',
          command: body.command,
          ...(body.args !== undefined && { args: body.args }),
          ...(body.env !== undefined && { env: stringValues(body.env) }),
          ...name,
        },
      ];
    case 'url': {
      need(typeof body.url === 'string' && /^https?:\/\//i.test(body.url), '"url" (http or https) is required');
      const transport = body.transport ?? 'auto';
      need(
        TRANSPORTS.some((t) => t === transport),
        '"transport" is auto, streamable-http, http or sse',
      );
      need(body.headers === undefined || isRecord(body.headers), '"headers" must be an object');
      return [
        {
          kind: 'url',
          url: body.url,
          transport: transport as HttpTransportName,
          ...(body.headers !== undefined && { headers: stringValues(body.headers) }),
          ...name,
        },
      ];
    }
    case 'config':
      need(body.document !== undefined, '"document" is required');
      return specsFromConfig(body.document);
    default:
      throw new ApiError(400, 'bad_request', '"kind" is stdio, url or config');
  }
}

/**
 * The entries of an `mcpServers` document (an object, or its JSON text), each read by the client's own
 * `readConfigEntry`, as `mcpc` and `serversFromConfig` read it: the hosts' `type: "http"` is Streamable HTTP,
 * and an entry that names no transport is Streamable HTTP too. The first entry that cannot be read is a 400.
 */
export function specsFromConfig(document: unknown): ServerSpec[] {
  const doc: unknown = typeof document === 'string' ? parseJson(document) : document;
  const servers = isRecord(doc) ? doc.mcpServers : undefined;
  if (!isRecord(servers))
    throw new ApiError(400, 'bad_config', 'a server definition document needs an "mcpServers" object');
  return Object.entries(servers).map(([name, raw]) => {
    const read = readConfigEntry(name, raw);
    if (!read.ok) throw new ApiError(400, 'bad_config', read.error.message);
    return specOf(read.entry);
  });
}

/** A config entry as the playground holds it. */
function specOf(entry: ConfigEntry): ServerSpec {
  if (entry.kind === 'stdio')
    return {
      kind: 'stdio',
      name: entry.name,
      command: entry.command,
      ...(entry.args !== undefined && { args: [...entry.args] }),
      ...(entry.env !== undefined && { env: { ...entry.env } }),
      ...(entry.cwd !== undefined && { cwd: entry.cwd }),
    };
  return {
    kind: 'url',
    name: entry.name,
    url: entry.url,
    transport: entry.transport ?? 'streamable-http',
    ...(entry.headers !== undefined && { headers: { ...entry.headers } }),
  };
}

/** A name for a spec that gives none: the script a command runs, or a URL's host. */
export function derivedName(spec: ServerSpec): string {
  if (spec.kind === 'url') {
    try {
      return new URL(spec.url).host.replace(':', '-');
    } catch {
      return 'server';
    }
  }
  const words = [spec.command, ...(spec.args ?? [])].filter((w) => !w.startsWith('-'));
  const pick = words.find((w, i) => i > 0 && (/[@/]/.test(w) || /\.(m?js|cjs|py|ts)$/.test(w))) ?? words[0] ?? 'server';
  return pick
    .replace(/\/(dist|build|src)\/(index|main|server|cli)\.(m?js|cjs|ts)$/, '')
    .replace(/^.*\//, '')
    .replace(/\.(m?js|cjs|py|ts)$/, '');
}

/** What the page shows as the entry's target: the command line (shell-quoted words) or the URL. */
export function targetOf(spec: ServerSpec): string {
  return spec.kind === 'stdio' ? [spec.command, ...(spec.args ?? [])].map(quote).join(' ') : spec.url;
}

function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ApiError(400, 'bad_config', `the config document is not JSON: ${(error as Error).message}`);
  }
}
