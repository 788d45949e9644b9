// Finding configured servers: `--config FILE` alone, else every host's files (mcpc, project, user).
//
// Project files count only once trusted.
import { UsageError } from '../errors.js';
import { isObject, normalizeEntry, type ExpandContext } from './entries.js';
import { anyServers, filesToRead, tilde, type HostFile } from './hosts.js';
import { readConfigFile, type ReadResult } from './read.js';
import { readTrust, trustOf } from './trust.js';
import type { Discovered, DiscoveryOptions, NameConflict, ServerEntry, UntrustedFile } from './types.js';

export type { Discovered, DiscoveryOptions, NameConflict, ServerEntry, UntrustedFile } from './types.js';
export { mcpcConfigPath } from './hosts.js';
export { lookupServer, usableServers, type Lookup } from './lookup.js';

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
    return collect([file], [read], options, expand, {});
  }
  const files = filesToRead(options);
  const [reads, store] = await Promise.all([
    Promise.all(files.map((f) => readConfigFile(f.path, f.maxBytes))),
    options.trustFile === undefined || options.trustProject === true ? {} : readTrust(options.trustFile),
  ]);
  return collect(files, reads, options, expand, store);
}

function collect(
  files: readonly HostFile[],
  reads: readonly ReadResult[],
  options: DiscoveryOptions,
  expand: ExpandContext,
  store: Awaited<ReturnType<typeof readTrust>>,
): Discovered {
  const servers: ServerEntry[] = [];
  const problems: string[] = [];
  const untrusted: UntrustedFile[] = [];
  const byName = new Map<string, ServerEntry[]>();
  files.forEach((file, i) => {
    const read = reads[i]!;
    const where = `(${tilde(file.path, options.home)})`;
    if (read.kind === 'missing') return;
    if (read.kind === 'problem') {
      problems.push(`${file.host} config ${tilde(file.path, options.home)} ${read.message}`);
      return;
    }
    const trust =
      file.project === true && options.trustProject !== true
        ? trustOf(store, file.path, read.digest)
        : { trusted: true, changed: false };
    const names: string[] = [];
    for (const group of file.groups(read.document, where)) {
      if (group.servers === undefined || group.servers === null) continue;
      if (!isObject(group.servers)) {
        problems.push(`${group.label}: the servers are not an object; skipped`);
        continue;
      }
      for (const [name, raw] of Object.entries(group.servers)) {
        if (name.trim() === '') continue;
        const normalized = normalizeEntry(name, raw, group.label, trust.trusted ? expand : undefined);
        if (normalized.entry === undefined) {
          problems.push(...normalized.problems);
          continue;
        }
        const entry: ServerEntry = {
          ...normalized.entry,
          file: file.path,
          ...(!trust.trusted && { untrusted: true as const }),
        };
        names.push(name);
        const same = byName.get(name);
        const twin = same?.findIndex((other) => sameServer(other, entry)) ?? -1;
        if (same !== undefined && twin !== -1) {
          // One server configured twice: the user's own copy stands in for an untrusted project's.
          const other = same[twin]!;
          if (other.untrusted === true && entry.untrusted !== true) {
            same[twin] = entry;
            servers[servers.indexOf(other)] = entry;
          }
          continue;
        }
        if (same === undefined) byName.set(name, [entry]);
        else same.push(entry);
        // What expansion found wrong matters only for an entry that can be used.
        problems.push(...normalized.problems);
        servers.push(entry);
      }
    }
    if (!trust.trusted && names.length > 0)
      untrusted.push({ path: file.path, host: file.host, digest: read.digest, changed: trust.changed, names });
  });
  const conflicts: NameConflict[] = [];
  for (const [name, entries] of byName) if (entries.length > 1) conflicts.push({ name, entries });
  for (const { name, entries } of conflicts)
    problems.push(
      `"${name}" is configured ${entries.length} times, differently: ${entries.map((e) => e.source).join('; ')} ` +
        '(naming it is an error until one is renamed or removed)',
    );
  return { servers, untrusted, conflicts, problems };
}

/** Whether two entries start the same server (the same one configured in two hosts is no conflict). */
function sameServer(a: ServerEntry, b: ServerEntry): boolean {
  const key = ({ name: _n, source: _s, file: _f, untrusted: _u, ...rest }: ServerEntry): string =>
    JSON.stringify(sorted(rest));
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
