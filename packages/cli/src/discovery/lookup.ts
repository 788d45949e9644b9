// Naming a configured server: the one entry with that name, or why none can be used.
//
// A name can be unknown, claimed twice, or untrusted.
import type { Discovered, NameConflict, ServerEntry, UntrustedFile } from './types.js';

/** What a name finds among the discovered servers. */
export type Lookup =
  | { readonly kind: 'found'; readonly entry: ServerEntry }
  | { readonly kind: 'untrusted'; readonly entry: ServerEntry; readonly file: UntrustedFile }
  | { readonly kind: 'conflict'; readonly conflict: NameConflict }
  | { readonly kind: 'missing' };

/** The server `name` names. Two differing entries with that name are a conflict, never a pick. */
export function lookupServer(discovered: Discovered, name: string): Lookup {
  const conflict = discovered.conflicts.find((c) => c.name === name);
  if (conflict !== undefined) return { kind: 'conflict', conflict };
  const entry = discovered.servers.find((s) => s.name === name);
  if (entry === undefined) return { kind: 'missing' };
  if (entry.untrusted !== true) return { kind: 'found', entry };
  const file = discovered.untrusted.find((f) => f.path === entry.file);
  return file === undefined ? { kind: 'missing' } : { kind: 'untrusted', entry, file };
}

/** The servers that may be started or contacted: neither from an untrusted file nor sharing a name. */
export function usableServers(discovered: Discovered): ServerEntry[] {
  const claimed = new Set(discovered.conflicts.map((c) => c.name));
  return discovered.servers.filter((s) => s.untrusted !== true && !claimed.has(s.name));
}
