// Which server answers a tool, prompt or resource name, and the close names a not-found error suggests.
import { AmbiguousNameError, PromptNotFoundError, ResourceNotFoundError, ToolNotFoundError } from './errors.js';
import { templateMatches } from './features/resources.js';
import type { Server } from './server/server.js';

// Indexes are keyed by the cached (frozen) list they were built from, so a refreshed list gets a fresh
// index and nothing needs invalidating: lookups cost O(servers), not O(tools).
const indexes = new WeakMap<readonly unknown[], ReadonlySet<string>>();

function indexOf(
  list: readonly { readonly name?: string; readonly uri?: string }[],
  key: 'name' | 'uri',
): ReadonlySet<string> {
  let index = indexes.get(list);
  if (index === undefined) {
    index = new Set(list.map((item) => item[key] as string));
    indexes.set(list, index);
  }
  return index;
}

const offering = (servers: readonly Server[], capability: string): Server[] =>
  servers.filter((s) => s.supports(capability));

/** The one server offering tool `name`; throws when none or several do. */
export async function routeTool(servers: readonly Server[], name: string): Promise<Server> {
  const candidates = offering(servers, 'tools');
  const lists = await Promise.all(candidates.map((s) => s.listTools()));
  const owners = candidates.filter((_, i) => indexOf(lists[i]!, 'name').has(name));
  return pick(
    owners,
    'tool',
    name,
    () =>
      new ToolNotFoundError(
        name,
        candidates.map((s) => s.name),
        closeNames(
          name,
          lists.flat().map((t) => t.name),
        ),
      ),
  );
}

/** How many close names a not-found error lists. */
const MAX_SUGGESTIONS = 5;
/** Names longer than this are not compared (the edit distance is quadratic; tool names are short). */
const MAX_COMPARED_LENGTH = 128;

/**
 * The listed names closest to `name`, best first: those that differ only in case, contain it or are
 * contained in it, or are within a small edit distance (a third of the name's length, at least 2).
 * Bounded: long names are skipped, and the distance stops once past the threshold.
 */
export function closeNames(name: string, names: Iterable<string>): string[] {
  if (name.length === 0 || name.length > MAX_COMPARED_LENGTH) return [];
  const wanted = name.toLowerCase();
  const threshold = Math.max(2, Math.floor(name.length / 3));
  const scored: { name: string; score: number }[] = [];
  const seen = new Set<string>();
  for (const candidate of names) {
    if (seen.has(candidate) || candidate === name || candidate.length > MAX_COMPARED_LENGTH) continue;
    seen.add(candidate);
    const lower = candidate.toLowerCase();
    let score: number | undefined;
    if (lower === wanted) score = 0;
    else if (wanted.length >= 3 && (lower.includes(wanted) || wanted.includes(lower))) score = 1;
    else {
      const distance = editDistance(wanted, lower, threshold);
      if (distance <= threshold) score = 1 + distance;
    }
    if (score !== undefined) scored.push({ name: candidate, score });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, MAX_SUGGESTIONS)
    .map((s) => s.name);
}

/** Levenshtein distance, or `limit + 1` once it must exceed `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      current.push(value);
      if (value < best) best = value;
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

export async function routePrompt(servers: readonly Server[], name: string): Promise<Server> {
  const candidates = offering(servers, 'prompts');
  const lists = await Promise.all(candidates.map((s) => s.listPrompts()));
  const owners = candidates.filter((_, i) => indexOf(lists[i]!, 'name').has(name));
  return pick(
    owners,
    'prompt',
    name,
    () =>
      new PromptNotFoundError(
        name,
        candidates.map((s) => s.name),
      ),
  );
}

/**
 * The server to read `uri` from: one that lists it, or else one with a template that matches it.
 * Servers that fail to list are left out rather than failing the read.
 */
export async function routeResource(servers: readonly Server[], uri: string): Promise<Server> {
  const candidates = offering(servers, 'resources');
  const lists = await Promise.all(candidates.map((s) => s.listResources().catch(() => [] as const)));
  const listed = candidates.filter((_, i) => indexOf(lists[i]!, 'uri').has(uri));
  if (listed.length > 0) return pick(listed, 'resource', uri, () => new ResourceNotFoundError(uri, []));
  const templates = await Promise.all(candidates.map((s) => s.listResourceTemplates().catch(() => [] as const)));
  const matching = candidates.filter((_, i) =>
    templates[i]!.some((t) => t.uriTemplate === uri || templateMatches(t.uriTemplate, uri)),
  );
  return pick(
    matching,
    'resource',
    uri,
    () =>
      new ResourceNotFoundError(
        uri,
        candidates.map((s) => s.name),
      ),
  );
}

function pick(
  owners: readonly Server[],
  kind: 'tool' | 'prompt' | 'resource',
  name: string,
  none: () => Error,
): Server {
  if (owners.length === 1) return owners[0]!;
  if (owners.length === 0) throw none();
  throw new AmbiguousNameError(
    kind,
    name,
    owners.map((s) => s.name),
  );
}
