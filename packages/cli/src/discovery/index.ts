// Finding configured servers: `--config FILE` alone, else every host's files (mcpc, project, user), first name wins.
import { UsageError } from '../exit.js';
import { isObject, normalizeEntry, type ExpandContext } from './entries.js';
import { anyServers, hostFiles, tilde, type HostFile } from './hosts.js';
import { readConfigFile } from './read.js';
import type { Discovered, DiscoveryOptions, ServerEntry } from './types.js';

export type { Discovered, DiscoveryOptions, ServerEntry } from './types.js';
export { mcpcConfigPath } from './hosts.js';

/** The servers configured for this user and project (or in `--config FILE` alone). Never throws on a bad file. */
export async function discoverServers(options: DiscoveryOptions): Promise<Discovered> {
  const expand: ExpandContext = { env: options.env, home: options.home, cwd: options.cwd };
  if (options.configFile !== undefined) {
    const file: HostFile = {
      host: '--config',
      path: options.configFile,
      groups: (document, where) => [{ label: `--config ${where}`, servers: anyServers(document) }],
    };
    const read = await readConfigFile(file.path);
    if (read.kind === 'missing') throw new UsageError(`--config ${options.configFile}: no such file`);
    return collect([file], [read], options, expand);
  }
  // A file two hosts share (the project is the home directory) is read once.
  const seen = new Set<string>();
  const files = hostFiles(options).filter((f) => !seen.has(f.path) && seen.add(f.path));
  const reads = await Promise.all(files.map((f) => readConfigFile(f.path, f.maxBytes)));
  return collect(files, reads, options, expand);
}

function collect(
  files: readonly HostFile[],
  reads: readonly Awaited<ReturnType<typeof readConfigFile>>[],
  options: DiscoveryOptions,
  expand: ExpandContext,
): Discovered {
  const servers: ServerEntry[] = [];
  const problems: string[] = [];
  const byName = new Map<string, ServerEntry>();
  files.forEach((file, i) => {
    const read = reads[i]!;
    const where = `(${tilde(file.path, options.home)})`;
    if (read.kind === 'missing') return;
    if (read.kind === 'problem') {
      problems.push(`${file.host} config ${tilde(file.path, options.home)} ${read.message}`);
      return;
    }
    for (const group of file.groups(read.document, where)) {
      if (group.servers === undefined || group.servers === null) continue;
      if (!isObject(group.servers)) {
        problems.push(`${group.label}: the servers are not an object; skipped`);
        continue;
      }
      for (const [name, raw] of Object.entries(group.servers)) {
        if (name.trim() === '') continue;
        const { entry, problems: found } = normalizeEntry(name, raw, group.label, expand);
        if (entry === undefined) {
          problems.push(...found);
          continue;
        }
        const first = byName.get(name);
        if (first === undefined) {
          // What expansion found wrong matters only for the entry that is used.
          problems.push(...found);
          byName.set(name, entry);
          servers.push(entry);
        } else if (!sameServer(first, entry)) {
          problems.push(
            `"${name}" in ${entry.source} is shadowed by "${name}" in ${first.source} (the first one wins)`,
          );
        }
      }
    }
  });
  return { servers, problems };
}

/** Whether two entries start the same server (the same one configured in two hosts is no conflict). */
function sameServer(a: ServerEntry, b: ServerEntry): boolean {
  const key = ({ name: _n, source: _s, ...rest }: ServerEntry): string => JSON.stringify(sorted(rest));
  return key(a) === key(b);
}

/** A value with its object keys in order, for comparing. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sorted(value[k])]),
  );
}
