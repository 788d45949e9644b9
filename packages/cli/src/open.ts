// Opening the server a command names: its config (headers, auth, timeouts, era), the host handlers, the client.
import { Client, splitCommandLine, stdio, type ClientOptions, type ServerConfig } from '@mcpc/client';
import { httpConfig, type HttpTransportName } from '@mcpc/client/config';
import { headerFlags, intFlag } from './args.js';
import { authFor } from './auth/provider.js';
import type { CliContext, Connection } from './context.js';
import { configuredServer } from './configured.js';
import type { ServerEntry } from './discovery/types.js';
import { UsageError } from './errors.js';
import { hostOptions } from './interact/host.js';
import { withSpinner } from './interact/spinner.js';
import { safe } from './output.js';
import type { Target } from './target.js';
import { traced } from './trace.js';
import { VERSION } from './version.js';
import { cliLogger } from './log.js';

const PROTOCOLS = new Set(['auto', 'modern', 'legacy']);
const TRANSPORTS: readonly string[] = ['auto', 'streamable-http', 'http', 'sse', 'stdio'] satisfies (
  HttpTransportName | 'stdio'
)[];
const isTransport = (name: string): name is HttpTransportName | 'stdio' => TRANSPORTS.includes(name);

/** The server entry a target names (a configured name is looked up; a URL or command is taken as is). */
export async function entryFor(ctx: CliContext, target: Target): Promise<ServerEntry> {
  switch (target.kind) {
    case 'url':
      return { name: hostName(target.url), source: 'the command line', url: target.url };
    case 'command': {
      const [command, ...args] = target.argv;
      return { name: commandName(target.argv), source: 'the command line', command: command!, args };
    }
    case 'name':
      return configuredServer(ctx, target.name);
    case 'session':
      throw new UsageError(`${target.text} is a session: its commands run in it`);
  }
}

/** The client config for an entry, with the command line's headers, auth, timeout and era. */
export async function configFor(ctx: CliContext, entry: ServerEntry): Promise<ServerConfig> {
  const { flags, out } = ctx;
  const protocol = flags.protocol ?? 'auto';
  if (!PROTOCOLS.has(protocol)) throw new UsageError(`--protocol is auto, modern or legacy, not "${protocol}"`);
  const transport = flags.transport ?? entry.type ?? 'auto';
  if (!isTransport(transport))
    throw new UsageError(`--transport is auto, streamable-http, http, sse or stdio, not "${transport}"`);
  const requestTimeout = intFlag(flags, 'timeout');
  const common = {
    name: entry.name,
    protocol: protocol as 'auto' | 'modern' | 'legacy',
    ...(requestTimeout !== undefined && { requestTimeout }),
  };
  if (entry.command !== undefined) {
    if (transport !== 'auto' && transport !== 'stdio')
      throw new UsageError(`"${entry.name}" is a command to spawn; --transport ${transport} is for URLs`);
    return stdio({
      ...common,
      command: entry.command,
      ...(entry.args !== undefined && { args: entry.args }),
      ...(entry.env !== undefined && { env: entry.env }),
      ...(entry.cwd !== undefined && { cwd: entry.cwd }),
      // Server stderr: dimmed on ours with -v, hidden otherwise (the transport keeps a tail for errors).
      onStderr: (chunk) => {
        out.infoChunk(safe(chunk, 10_000));
      },
    });
  }
  if (entry.url === undefined) throw new UsageError(`"${entry.name}" has neither a command nor a url`);
  const headers = { ...entry.headers, ...headerFlags(flags) };
  const auth =
    headers.Authorization === undefined && headers.authorization === undefined
      ? await authFor(ctx, entry.url)
      : undefined;
  const options = {
    ...common,
    url: entry.url,
    ...(Object.keys(headers).length > 0 && { headers }),
    ...(auth !== undefined && { auth }),
  };
  if (transport === 'stdio') throw new UsageError('--transport stdio is for commands (--stdio "cmd"), not URLs');
  return httpConfig(transport, options);
}

/** The client options every command shares: logging, tasks, the host's answers to server requests. */
export function clientOptions(ctx: CliContext, config: ServerConfig): ClientOptions {
  return {
    // -vv: the frames themselves, with their payloads (capped) and protocol headers.
    servers: [ctx.out.verbose >= 2 ? traced(config, ctx.out) : config],
    logger: cliLogger(ctx),
    clientInfo: { name: 'mcpc', version: VERSION },
    extensions: ['io.modelcontextprotocol/tasks'],
    // The library's deprecation notices speak to a program's author (`onSampling`, …), not to the person
    // at the terminal: shown with -vv only.
    deprecationNotices: ctx.out.verbose >= 2,
    // Off unless the run is traced: the client then loads no @opentelemetry/api (which the CLI installs).
    tracing: ctx.telemetry === undefined ? false : {},
    ...hostOptions(ctx),
  };
}

/** Connects to the server a target names (with a spinner on a terminal). */
export async function openConnection(ctx: CliContext, target: Target): Promise<Connection> {
  const entry = await entryFor(ctx, target);
  const config = await configFor(ctx, entry);
  const client = new Client(clientOptions(ctx, config));
  // -v: the connection's steps, whatever the transport (over HTTP nothing else is said at this level).
  const { out } = ctx;
  out.info(
    `connecting to ${safe(entry.name, 100)}: ${safe(entry.url ?? [entry.command, ...(entry.args ?? [])].join(' '), 500)}`,
  );
  const started = performance.now();
  try {
    const connecting = ctx.telemetry?.step('connect', () => client.connect()) ?? client.connect();
    await withSpinner(ctx, `connecting to ${entry.name}`, connecting);
  } catch (error) {
    out.info(`could not connect after ${Math.round(performance.now() - started)} ms`);
    await client.close();
    throw error;
  }
  const server = client.servers[0]!;
  if (out.verbose >= 1)
    out.info(
      `connected in ${Math.round(performance.now() - started)} ms over ${server.transportKind ?? 'an unknown transport'}: ` +
        `MCP ${safe(server.protocolVersion, 40)} (${server.protocolEra === 'modern' ? 'stateless' : 'initialize handshake'}), ` +
        `server ${safe(server.serverInfo.name, 100)} ${safe(server.serverInfo.version, 40)}`,
    );
  return { client, server, target: target.text };
}

/** A server name from a URL: its host (and port). */
function hostName(url: string): string {
  const u = new URL(url);
  return u.host;
}

/** A server name from a command line: the package or script it runs. */
function commandName(argv: readonly string[]): string {
  const words = argv.filter((w) => !w.startsWith('-'));
  const last = words.find((w, i) => i > 0 && (/[@/]/.test(w) || /\.(m?js|py|ts)$/.test(w))) ?? words[0] ?? 'server';
  return (
    last
      .replace(/^.*\//, '')
      .replace(/\.(m?js|py|ts)$/, '')
      .slice(0, 64) || 'server'
  );
}

export { splitCommandLine };
