// One host's server entry as a ServerEntry: its fields by each host's names, `${VAR}` expanded from the environment.
import type { ServerEntry } from './types.js';

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** What expansion may use: the process environment (never the file's own `env`), the home and project dirs. */
export interface ExpandContext {
  readonly env: NodeJS.ProcessEnv;
  readonly home: string;
  readonly cwd: string;
}

/**
 * The transport words hosts write, as mcpc's. The hosts' `http` (Claude Code, VS Code, Cursor) means
 * Streamable HTTP, which mcpc's detection tries first (falling back to SSE), so it is left to detection;
 * mcpc's own `--transport http` (plain JSON over HTTP) is never what a host file means by it.
 */
const TYPES: Readonly<Record<string, ServerEntry['type'] | 'auto'>> = {
  stdio: 'stdio',
  sse: 'sse',
  http: 'auto',
  'streamable-http': 'auto',
  streamable_http: 'auto',
  streamablehttp: 'auto',
  'streamable http': 'auto',
};

/**
 * A raw entry from a host's file (`mcpServers`, `servers`, `mcp_servers`) as a ServerEntry, or why not.
 * Without `expand` (a file the user has not trusted) every `${…}` is left as written.
 */
export function normalizeEntry(
  name: string,
  raw: unknown,
  source: string,
  expand: ExpandContext | undefined,
): { entry?: ServerEntry; problems: string[]; disabled?: boolean } {
  const problems: string[] = [];
  const where = `"${name}" in ${source}`;
  if (!isObject(raw)) return { problems: [`${where} is not an object; skipped`] };
  if (raw.disabled === true || raw.enabled === false) return { problems, disabled: true };

  const unset = new Set<string>();
  const inputs = new Set<string>();
  const x = (value: string): string => (expand === undefined ? value : expandVariables(value, expand, unset, inputs));
  const str = (v: unknown): string | undefined =>
    typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

  const rawType =
    typeof raw.type === 'string' ? raw.type : typeof raw.transport === 'string' ? raw.transport : undefined;
  const mapped = rawType === undefined ? undefined : TYPES[rawType.toLowerCase()];
  if (rawType !== undefined && mapped === undefined) {
    return { problems: [`${where} has type "${rawType}", which mcpc does not speak; skipped`] };
  }
  const command = str(raw.command);
  const url = str(raw.url) ?? str(raw.serverUrl) ?? str(raw.httpUrl);

  const fields: { -readonly [K in Exclude<keyof ServerEntry, 'name' | 'source'>]?: NonNullable<ServerEntry[K]> } = {};
  const hasCommand = command !== undefined && command !== '';
  const hasUrl = url !== undefined && url !== '';
  if (mapped === 'stdio' && !hasCommand) return { problems: [`${where} has type "stdio" but no "command"; skipped`] };
  if (mapped !== undefined && mapped !== 'stdio' && !hasUrl)
    return { problems: [`${where} has type "${rawType}" but no "url"; skipped`] };
  if (hasCommand && (mapped === 'stdio' || mapped === undefined)) {
    fields.command = x(command);
    fields.type = 'stdio';
    if (raw.args !== undefined) {
      if (!Array.isArray(raw.args)) return { problems: [`${where}: "args" is not an array; skipped`] };
      fields.args = raw.args.map((a) => x(str(a) ?? JSON.stringify(a)));
    }
    const env = stringRecord(raw.env);
    if (env !== undefined) fields.env = mapValues(env, x);
    const cwd = str(raw.cwd);
    if (cwd !== undefined && cwd !== '') fields.cwd = x(cwd);
  } else if (hasUrl) {
    fields.url = x(url);
    if (!/^https?:\/\//i.test(fields.url) || !URL.canParse(fields.url))
      return { problems: [`${where}: "${fields.url}" is not an http(s) URL; skipped`] };
    if (mapped === 'sse') fields.type = 'sse';
    const headers: Record<string, string> = {
      ...stringRecord(raw.headers),
      // Codex: `http_headers`, `env_http_headers` (header → variable name), `bearer_token_env_var`.
      ...stringRecord(raw.http_headers),
    };
    const envHeaders = stringRecord(raw.env_http_headers);
    if (envHeaders !== undefined)
      for (const [header, variable] of Object.entries(envHeaders)) headers[header] = `\${${variable}}`;
    if (typeof raw.bearer_token_env_var === 'string') headers.Authorization = `Bearer \${${raw.bearer_token_env_var}}`;
    if (Object.keys(headers).length > 0) fields.headers = mapValues(headers, x);
  } else {
    return { problems: [`${where} has neither a "command" nor a "url"; skipped`] };
  }

  for (const variable of unset) problems.push(`${where}: \${${variable}} is not set in the environment; used ""`);
  for (const input of inputs)
    problems.push(`${where}: \${input:${input}} is a VS Code prompt mcpc cannot answer; used "" (set it in the file)`);
  return { entry: { name, source, ...fields }, problems };
}

/**
 * `${VAR}`, `${env:VAR}` and `${VAR:-default}` from the environment (unset: `""`, noted in `unset`);
 * `${userHome}` and `${workspaceFolder}` (VS Code, Cursor) as the home and project directories;
 * `${input:id}` (a VS Code prompt) as `""`, noted in `inputs`. Anything else is left as written.
 */
export function expandVariables(
  value: string,
  context: ExpandContext,
  unset: Set<string>,
  inputs: Set<string>,
): string {
  return value.replace(/\$\{([^{}]{1,256})\}/g, (whole, inner: string) => {
    if (inner.startsWith('input:')) {
      inputs.add(inner.slice('input:'.length));
      return '';
    }
    if (inner === 'userHome') return context.home;
    if (inner === 'workspaceFolder') return context.cwd;
    const match = /^(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s.exec(inner);
    if (match === null) return whole;
    const [, variable, fallback] = match;
    const raw = context.env[variable!];
    const found = typeof raw === 'string' ? raw : undefined;
    if (fallback !== undefined) return found === undefined || found === '' ? fallback : found;
    if (found === undefined) {
      unset.add(variable!);
      return '';
    }
    return found;
  });
}

/** An object of scalars as strings (anything else in it is dropped); undefined when it is no object. */
function stringRecord(value: unknown): Record<string, string> | undefined {
  if (!isObject(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value))
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
  return out;
}

function mapValues(record: Record<string, string>, f: (v: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
}
