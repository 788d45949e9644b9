// One `mcpServers` entry as the MCP hosts write it, read leniently into a typed entry or a typed error that names it.
import { ConfigEntryError } from './errors/config.js';

/** A server to spawn. */
export interface StdioConfigEntry {
  readonly kind: 'stdio';
  readonly name: string;
  readonly command: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** A server at an http(s) URL. */
export interface UrlConfigEntry {
  readonly kind: 'url';
  readonly name: string;
  readonly url: string;
  /**
   * The transport the entry names, its spellings folded: `streamable-http` for `streamable_http`,
   * `streamableHttp`, … and for the hosts' `http` (Claude Code, VS Code and Cursor mean Streamable HTTP by
   * it); `sse` for the deprecated HTTP+SSE. Absent when the entry names none: the reader chooses.
   */
  readonly transport?: 'streamable-http' | 'sse';
  readonly headers?: Readonly<Record<string, string>>;
}

/** One entry of an `mcpServers` document, normalized. */
export type ConfigEntry = StdioConfigEntry | UrlConfigEntry;

/** An entry read, or why it cannot be. */
export type ConfigEntryResult =
  { readonly ok: true; readonly entry: ConfigEntry } | { readonly ok: false; readonly error: ConfigEntryError };

export interface ReadConfigEntryOptions {
  /**
   * Applied to every value the entry uses (command, args, env and header values, cwd, url) before it is
   * checked: how a host expands `${VAR}`. Without it, values are taken as written.
   */
  readonly expand?: (value: string) => string;
}

/** The `type` (or `transport`) spellings hosts write, lower-cased, as what they mean. */
const TRANSPORTS: Readonly<Record<string, 'stdio' | 'streamable-http' | 'sse'>> = {
  stdio: 'stdio',
  sse: 'sse',
  http: 'streamable-http',
  'streamable-http': 'streamable-http',
  streamable_http: 'streamable-http',
  streamablehttp: 'streamable-http',
  'streamable http': 'streamable-http',
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A scalar as text (hosts' files hold `"port": 8080` as often as `"8080"`); anything else is undefined. */
const scalar = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

/**
 * Reads one `mcpServers` entry (`name` is its key) leniently, as the hosts write it: `type` or `transport`
 * in any of their spellings; `command`, `args`, `env`, `cwd` for a server to spawn; `url` (or `serverUrl`,
 * `httpUrl`) and `headers` for one at a URL, with Codex's `http_headers`, `env_http_headers` and
 * `bearer_token_env_var` as `${VAR}` header values; numbers and booleans as text. What cannot be used is a
 * {@link ConfigEntryError} naming the entry and the field, returned rather than thrown.
 */
export function readConfigEntry(name: string, raw: unknown, options: ReadConfigEntryOptions = {}): ConfigEntryResult {
  try {
    return { ok: true, entry: read(name, raw, options.expand ?? ((value) => value)) };
  } catch (error) {
    if (error instanceof ConfigEntryError) return { ok: false, error };
    throw error;
  }
}

function read(name: string, raw: unknown, x: (value: string) => string): ConfigEntry {
  const fail = (reason: string, field?: string): never => {
    throw new ConfigEntryError(name, reason, field);
  };
  if (!isObject(raw)) return fail('is not an object');
  const typeField = raw.type !== undefined ? 'type' : raw.transport !== undefined ? 'transport' : undefined;
  const written = typeField === undefined ? undefined : raw[typeField];
  if (written !== undefined && typeof written !== 'string')
    return fail(`has a "${typeField}" that is not text`, typeField);
  const transport =
    written === undefined
      ? undefined
      : Object.hasOwn(TRANSPORTS, written.toLowerCase())
        ? TRANSPORTS[written.toLowerCase()]
        : fail(
            `has ${typeField} "${written}", which is no transport mcpc speaks (stdio, streamable-http, http, sse)`,
            typeField,
          );
  const command = text(raw, 'command', fail);
  const urlField = (['url', 'serverUrl', 'httpUrl'] as const).find((f) => raw[f] !== undefined) ?? 'url';
  const url = text(raw, urlField, fail);
  const hasCommand = command !== undefined && command !== '';
  const hasUrl = url !== undefined && url !== '';
  if (transport === 'stdio' && !hasCommand) return fail(`has ${typeField} "stdio" but no "command"`, 'command');
  if (transport !== undefined && transport !== 'stdio' && !hasUrl)
    return fail(`has ${typeField} "${written}" but no "url"`, 'url');

  if (hasCommand && (transport === 'stdio' || transport === undefined)) {
    if (raw.args !== undefined && !Array.isArray(raw.args)) return fail('has "args" that is not an array', 'args');
    const args = (raw.args as unknown[] | undefined)?.map((a) => x(scalar(a) ?? JSON.stringify(a)));
    const env = record(raw, 'env', fail);
    const cwd = text(raw, 'cwd', fail);
    return {
      kind: 'stdio',
      name,
      command: x(command),
      ...(args !== undefined && { args }),
      ...(env !== undefined && { env: mapValues(env, x) }),
      ...(cwd !== undefined && cwd !== '' && { cwd: x(cwd) }),
    };
  }
  if (!hasUrl) return fail('has neither a "command" nor a "url"');
  const expanded = x(url);
  if (!/^https?:\/\//i.test(expanded) || !URL.canParse(expanded))
    return fail(`has "${urlField}" "${expanded}", which is not an http(s) URL`, urlField);
  const headers: Record<string, string> = { ...record(raw, 'headers', fail), ...record(raw, 'http_headers', fail) };
  for (const [header, variable] of Object.entries(record(raw, 'env_http_headers', fail) ?? {}))
    headers[header] = `\${${variable}}`;
  const bearer = text(raw, 'bearer_token_env_var', fail);
  if (bearer !== undefined) headers.Authorization = `Bearer \${${bearer}}`;
  return {
    kind: 'url',
    name,
    url: expanded,
    ...(transport !== undefined && transport !== 'stdio' && { transport }),
    ...(Object.keys(headers).length > 0 && { headers: mapValues(headers, x) }),
  };
}

/** A text field: a scalar as text, absent as undefined, anything else an error. */
function text(raw: Record<string, unknown>, field: string, fail: (reason: string, field: string) => never) {
  const value = raw[field];
  if (value === undefined || value === null) return undefined;
  return scalar(value) ?? fail(`has "${field}" that is not text`, field);
}

/** A map of names to text (`env`, `headers`): its scalar values as text; any other value is an error. */
function record(
  raw: Record<string, unknown>,
  field: string,
  fail: (reason: string, field: string) => never,
): Record<string, string> | undefined {
  const value = raw[field];
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) return fail(`has "${field}" that is not an object of names to text`, field);
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value))
    out[key] = scalar(item) ?? fail(`has "${field}.${key}" that is not text`, `${field}.${key}`);
  return out;
}

function mapValues(record: Record<string, string>, f: (v: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
}
