import { AmbiguousNameError, PromptNotFoundError, ResourceNotFoundError, ToolNotFoundError } from './errors.js';
import { templateMatches } from './features/resources.js';
import type { Server } from './server/server.js';

// Indexes are keyed by the cached (frozen) list they were built from, so a refreshed list gets a fresh
// index and nothing needs invalidating: lookups cost O(servers), not O(tools).
const indexes = new WeakMap<readonly unknown[], ReadonlySet<string>>();

function indexOf(list: readonly { readonly name?: string; readonly uri?: string }[], key: 'name' | 'uri'): ReadonlySet<string> {
  let index = indexes.get(list);
  if (index === undefined) {
    index = new Set(list.map((item) => item[key] as string));
    indexes.set(list, index);
  }
  return index;
}

const offering = (servers: readonly Server[], capability: string): Server[] => servers.filter((s) => s.supports(capability));

/** The one server offering tool `name`; throws when none or several do. */
export async function routeTool(servers: readonly Server[], name: string): Promise<Server> {
  const candidates = offering(servers, 'tools');
  const lists = await Promise.all(candidates.map((s) => s.listTools()));
  const owners = candidates.filter((_, i) => indexOf(lists[i]!, 'name').has(name));
  return pick(owners, 'tool', name, () => new ToolNotFoundError(name, candidates.map((s) => s.name)));
}

export async function routePrompt(servers: readonly Server[], name: string): Promise<Server> {
  const candidates = offering(servers, 'prompts');
  const lists = await Promise.all(candidates.map((s) => s.listPrompts()));
  const owners = candidates.filter((_, i) => indexOf(lists[i]!, 'name').has(name));
  return pick(owners, 'prompt', name, () => new PromptNotFoundError(name, candidates.map((s) => s.name)));
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
  const matching = candidates.filter((_, i) => templates[i]!.some((t) => t.uriTemplate === uri || templateMatches(t.uriTemplate, uri)));
  return pick(matching, 'resource', uri, () => new ResourceNotFoundError(uri, candidates.map((s) => s.name)));
}

function pick(owners: readonly Server[], kind: 'tool' | 'prompt' | 'resource', name: string, none: () => Error): Server {
  if (owners.length === 1) return owners[0]!;
  if (owners.length === 0) throw none();
  throw new AmbiguousNameError(kind, name, owners.map((s) => s.name));
}
