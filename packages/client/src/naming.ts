// Runners and their flags say nothing about which server it is: `npx -y @scope/server-x` is "server-x".
const RUNNERS = new Set(['npx', 'node', 'bun', 'bunx', 'deno', 'python', 'python3', 'uv', 'uvx', 'pnpm', 'pnpx', 'yarn', 'npm', 'tsx', 'ts-node', 'docker', 'run', 'exec', 'dlx', 'x', '--']);

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

const clean = (s: string): string => s.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64);

/** Assigns each server a name unique within the client: explicit names must not collide; derived ones get `-2`, `-3`, … */
export function assignNames(entries: readonly { readonly name?: string; readonly label: string }[]): string[] {
  const taken = new Set<string>();
  for (const e of entries) {
    if (e.name === undefined) continue;
    if (typeof e.name !== 'string' || e.name.length === 0) throw new TypeError('a server name must be a non-empty string');
    if (taken.has(e.name)) throw new TypeError(`two servers are named "${e.name}"; server names must be unique within a client`);
    taken.add(e.name);
  }
  return entries.map((e) => {
    if (e.name !== undefined) return e.name;
    const base = deriveName(e.label);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
    taken.add(name);
    return name;
  });
}
