// Shared helpers of the client tests: server-everything, fixture servers and the revisions they speak.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stdio, textOf, type Client, type Logger, type ServerConfig, type Transport } from '@mcpc/client';
import type { JsonRpcMessage, JsonRpcRequest, TransportSendOptions, TransportSink } from '@mcpc/jsonrpc';
import { StdioTransport } from '@mcpc/transport-stdio';

const fixtures = (path: string): string => fileURLToPath(new URL(`../../../tooling/fixtures/${path}`, import.meta.url));

export const EVERYTHING = fixtures('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
export type Revision = (typeof REVISIONS)[number];

export const everything = (name = 'everything'): ServerConfig =>
  stdio({ name, command: process.execPath, args: [EVERYTHING, 'stdio'] });

export const fixture = (file: string, args: readonly string[] = [], name?: string): ServerConfig =>
  stdio({
    ...(name !== undefined && { name }),
    command: process.execPath,
    args: [fixtures(`servers/${file}`), ...args],
  });

export const revision = (version: Revision, name = `rev-${version}`): ServerConfig =>
  fixture('revision-server.mjs', [version], name);

/** A logger that records every line, for asserting what was (and was not) logged. */
export function recordingLogger(): Logger & {
  lines: { level: string; message: string }[];
  text(level?: string): string;
} {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (message: string) => void lines.push({ level, message });
  return {
    lines,
    text: (level?: string) =>
      lines
        .filter((l) => level === undefined || l.level === level)
        .map((l) => l.message)
        .join('\n'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  };
}

/** The non-empty lines of a file a fixture appends to; none while it does not exist yet. */
export function linesOf(file: string): string[] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
  } catch {
    return [];
  }
}

export const tick = (ms = 0): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Resolves once `predicate` holds, polling; rejects after `timeout`. */
export async function until(predicate: () => boolean, timeout = 5000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await tick(10);
  }
}

/** Whether a process with this pid is still running. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A real transport with a tap: forwards everything to `inner` and records what the client sent, so a
 * test can assert what went on the wire (and what did not).
 */
export class RecordingTransport implements Transport {
  readonly inner: Transport;
  readonly sent: JsonRpcMessage[] = [];
  closed = false;

  constructor(inner: Transport) {
    this.inner = inner;
  }
  start(sink: TransportSink): Promise<void> {
    return this.inner.start(sink);
  }
  send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    this.sent.push(message);
    return this.inner.send(message, options);
  }
  async close(): Promise<void> {
    this.closed = true;
    await this.inner.close();
  }
  /** The methods sent, in order. */
  methods(): string[] {
    return this.sent.flatMap((m) => ('method' in m ? [m.method] : []));
  }
  requests(method: string): JsonRpcRequest[] {
    return this.sent.filter((m): m is JsonRpcRequest => 'method' in m && 'id' in m && m.method === method);
  }
}

/** A stdio transport to a fixture server, tapped. */
export function tapped(
  file: string,
  args: readonly string[] = [],
): RecordingTransport & { readonly stdio: StdioTransport } {
  const stdio = new StdioTransport({ command: process.execPath, args: [fixtures(file), ...args] });
  return Object.assign(new RecordingTransport(stdio), { stdio });
}

const SCRIPTED = fileURLToPath(new URL('./fixtures/scripted-server.mjs', import.meta.url));

/** The scripted server (test/fixtures/scripted-server.mjs): it does what the test tells it to. */
export const scripted = (name = 'scripted'): ServerConfig =>
  stdio({ name, command: process.execPath, args: [SCRIPTED] });

/** Has the scripted server send `method` to the client, and returns the client's JSON-RPC answer. */
export async function ask(
  client: Client,
  method: string,
  params?: unknown,
): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  return JSON.parse(textOf(await client.callTool('ask', { method, params })));
}

const modernFixtures = (path: string): string =>
  fileURLToPath(new URL(`../../../tooling/fixtures/modern/${path}`, import.meta.url));
export const MODERN_SDK_SERVER = modernFixtures('sdk-server.mjs');

/** The official SDK v2 server (dual-era) over stdio. */
export const sdkModern = (name = 'modern', extra: Partial<Parameters<typeof stdio>[0]> = {}): ServerConfig =>
  stdio({ name, command: process.execPath, args: [MODERN_SDK_SERVER, 'stdio'], ...extra });

/** A hand-written modern fixture (tooling/fixtures/modern/<file>) over stdio. */
export const modernFixture = (
  file: string,
  args: readonly string[] = [],
  extra: Partial<Parameters<typeof stdio>[0]> = {},
): ServerConfig =>
  stdio({ name: extra.name ?? 'modern', command: process.execPath, args: [modernFixtures(file), ...args], ...extra });

/** The path of a modern fixture, for spawning it over HTTP with startFixture. */
export const modernFixturePath = modernFixtures;
