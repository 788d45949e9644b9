// Runners and their flags say nothing about which server it is: `npx -y @scope/server-x` is "server-x".
const RUNNERS = new Set([
  'npx',
  'node',
  'bun',
  'bunx',
  'deno',
  'python',
  'python3',
  'uv',
  'uvx',
  'pnpm',
  'pnpx',
  'yarn',
  'npm',
  'tsx',
  'ts-node',
  'docker',
  'run',
  'exec',
  'dlx',
  'x',
  '--',
]);

/** A readable server name from a command line or URL (never a secret: query strings and credentials are ignored). */
export function deriveName(label: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(label) && URL.canParse(label)) {
    const url = new URL(label);
    if (url.protocol === 'http:' || url.protocol === 'https:') return clean(url.hostname) || 'server';
  }
  const tokens = label.split(/\s+/).filter((t) => t.length > 0);
  const meaningful = tokens.find((t) => !t.startsWith('-') && !RUNNERS.has(basename(t).toLowerCase()));
  return clean(basename(meaningful ?? tokens[0] ?? '')) || 'server';
}

// File and directory names that say where code lives, not what it is: `…/server-everything/dist/index.js`.
const GENERIC = new Set(['index', 'main', 'cli', 'dist', 'build', 'lib', 'src', 'bin', 'out', '']);

function basename(token: string): string {
  const segments = token.replace(/^stdio:\/\//, '').split(/[\\/]/);
  let i = segments.length - 1;
  while (i > 0 && GENERIC.has(stripExtension(segments[i]!).toLowerCase())) i--;
  let t = segments[i] ?? '';
  // `@scope/name@1.2.3` → `name`; `server.mjs` → `server`.
  const at = t.indexOf('@', 1);
  if (at > 0) t = t.slice(0, at);
  return stripExtension(t);
}

const stripExtension = (s: string): string => s.replace(/\.(m?js|cjs|ts|mts|py|exe|cmd)$/i, '');

const clean = (s: string): string =>
  s
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);

// Path segments that name the protocol or the API's layout, not the server: `/api/v1/mcp`, `/sse`.
const GENERIC_PATH = /^(mcp|sse|rpc|jsonrpc|api|messages?|stream|http|v\d+)$/i;

/**
 * What tells URL servers on the same host apart: the meaningful part of the path (`/weather/mcp` →
 * `weather`, `/tools/github` → `tools-github`), else the port. Undefined for anything but an HTTP URL.
 */
function urlDistinction(label: string): { readonly path: string; readonly port: string } | undefined {
  if (!/^https?:\/\//i.test(label) || !URL.canParse(label)) return undefined;
  const url = new URL(label);
  const path = url.pathname
    .split('/')
    .map((segment) => clean(safeDecode(segment)))
    .filter((segment) => segment !== '' && !GENERIC_PATH.test(segment))
    .join('-');
  return { path: path.slice(0, 64), port: url.port };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Assigns each server a name unique within the client: explicit names must not collide. A derived name
 * is the command's (see `deriveName`) or the URL's host; URL servers that would share a host name are
 * told apart by their path (`127.0.0.1-weather`), else their port (`127.0.0.1-8081`); whatever still
 * collides gets `-2`, `-3`, …
 */
export function assignNames(entries: readonly { readonly name?: string; readonly label: string }[]): string[] {
  const taken = new Set<string>();
  for (const e of entries) {
    if (e.name === undefined) continue;
    if (typeof e.name !== 'string' || e.name.length === 0)
      throw new TypeError('a server name must be a non-empty string');
    if (taken.has(e.name))
      throw new TypeError(`two servers are named "${e.name}"; server names must be unique within a client`);
    taken.add(e.name);
  }
  const bases = entries.map((e) => (e.name === undefined ? deriveName(e.label) : e.name));
  const derived = entries.map((e, i) => {
    if (e.name !== undefined) return e.name;
    const base = bases[i]!;
    const distinction = urlDistinction(e.label);
    // Alone on its host (and not shadowing an explicit name), a URL server keeps the host's name.
    const shared = taken.has(base) || bases.some((b, j) => j !== i && b === base && entries[j]!.name === undefined);
    if (distinction === undefined || !shared) return base;
    const siblings = entries
      .filter((o, j) => j !== i && o.name === undefined && bases[j] === base)
      .map((o) => urlDistinction(o.label));
    if (distinction.path !== '' && !siblings.some((s) => s?.path === distinction.path))
      return `${base}-${distinction.path}`;
    if (distinction.port !== '' && !siblings.some((s) => s?.port === distinction.port))
      return `${base}-${distinction.port}`;
    return distinction.path !== '' ? `${base}-${distinction.path}` : base;
  });
  return derived.map((candidate, i) => {
    if (entries[i]!.name !== undefined) return candidate;
    let name = candidate;
    for (let n = 2; taken.has(name); n++) name = `${candidate}-${n}`;
    taken.add(name);
    return name;
  });
}
