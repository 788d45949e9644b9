// Skills across a client's servers: one listing labelled as a whole, and a skill found by entry, URI or name.
import { AmbiguousNameError } from '../errors.js';
import type { ServerSet } from '../client-servers.js';
import type { Server } from '../server/server.js';
import { resolveSkillName, withLabels } from './labels.js';
import type { LoadedSkill } from './loaded-skill.js';
import type { LoadSkillOptions, SkillEntry } from './types.js';

/** The servers that declared the skills extension, connected (one that cannot connect fails the call). */
async function skillServers(servers: ServerSet): Promise<readonly Server[]> {
  return (await servers.connected()).filter((s) => s.skillsExtension !== undefined);
}

/**
 * Every listing (or `{ server }`'s), labelled across servers: a name two servers share is shown as
 * `server:skill-path` for both, never resolved to one of them.
 */
export async function listSkillsAcross(servers: ServerSet, server: string | undefined): Promise<readonly SkillEntry[]> {
  if (server !== undefined) return servers.byName(server).listSkills();
  const lists = await Promise.all((await skillServers(servers)).map((s) => s.listSkills()));
  return lists.length === 1 ? lists[0]! : withLabels(lists.flat());
}

/** A skill's server for a URI: `{ server }`, else the only server with skills (a URI is scoped to its server). */
async function serverForUri(servers: ServerSet, uri: string, server: string | undefined): Promise<Server> {
  if (server !== undefined) return servers.byName(server);
  const candidates = await skillServers(servers);
  if (candidates.length === 1) return candidates[0]!;
  throw new AmbiguousNameError(
    'skill',
    uri,
    candidates.map((s) => s.name),
  );
}

/** Loads an entry on its own server, a URI on its server, or a name (or label) from the listings. */
export async function loadSkillAcross(
  servers: ServerSet,
  skill: SkillEntry | string,
  options: LoadSkillOptions,
): Promise<LoadedSkill> {
  if (typeof skill !== 'string') return servers.byName(skill.server).loadSkill(skill, options);
  if (skill.includes('://')) return (await serverForUri(servers, skill, options.server)).loadSkill(skill, options);
  const entries = await listSkillsAcross(servers, options.server);
  const names = options.server !== undefined ? [options.server] : (await skillServers(servers)).map((s) => s.name);
  const entry = resolveSkillName(skill, entries, names);
  return servers.byName(entry.server).loadSkill(entry, options);
}

/** `skills/get` on the URI's server. */
export async function getSkillAcross(servers: ServerSet, uri: string, server: string | undefined): Promise<SkillEntry> {
  return (await serverForUri(servers, uri, server)).getSkill(uri);
}
