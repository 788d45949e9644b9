// A host's server entry as a ServerEntry: read by the client's lenient reader, `${VAR}` expanded from the env.
import { readConfigEntry } from '@mcpc/client/config';
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
 * A raw entry from a host's file (`mcpServers`, `servers`, `mcp_servers`) as a ServerEntry, or why not: read by
 * `@mcpc/client/config`'s lenient reader (every host's spellings), `${VAR}`s expanded as it reads. Without
 * `expand` (a file the user has not trusted) every `${…}` is left as written.
 */
export function normalizeEntry(
  name: string,
  raw: unknown,
  source: string,
  expand: ExpandContext | undefined,
): { entry?: ServerEntry; problems: string[]; disabled?: boolean } {
  const where = `"${name}" in ${source}`;
  if (isObject(raw) && (raw.disabled === true || raw.enabled === false)) return { problems: [], disabled: true };
  const unset = new Set<string>();
  const inputs = new Set<string>();
  const read = readConfigEntry(
    name,
    raw,
    expand === undefined ? {} : { expand: (value) => expandVariables(value, expand, unset, inputs) },
  );
  if (!read.ok) return { problems: [`${where} ${read.error.reason}; skipped`] };
  const { entry } = read;
  const problems: string[] = [];
  for (const variable of unset) problems.push(`${where}: \${${variable}} is not set in the environment; used ""`);
  for (const input of inputs)
    problems.push(`${where}: \${input:${input}} is a VS Code prompt mcpc cannot answer; used "" (set it in the file)`);
  if (entry.kind === 'stdio') {
    const { kind: _kind, name: _name, command, ...fields } = entry;
    return { entry: { name, source, command, type: 'stdio', ...fields }, problems };
  }
  // A host's Streamable HTTP (`http`, `streamable_http`, …) is left to detection, which tries it first and falls
  // back to SSE as VS Code does; only SSE is taken as said. (mcpc's own `--transport http`, plain JSON over HTTP,
  // is never what a host file means.)
  const { kind: _kind, name: _name, transport, url, ...fields } = entry;
  return { entry: { name, source, url, ...(transport === 'sse' && { type: 'sse' as const }), ...fields }, problems };
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
