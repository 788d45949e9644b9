// Shared helpers of the stdio tests: fixture paths, server-everything, a recording sink.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JsonRpcMessage, Logger, MessageInfo, TransportSink } from '@mcpc/jsonrpc';
import { StdioTransport, type StdioTransportOptions } from '@mcpc/transport-stdio';

export const FIXTURES = fileURLToPath(new URL('../../../tooling/fixtures/stdio/', import.meta.url));
export const fixture = (name: string): string => `${FIXTURES}${name}`;

/** The entry of @modelcontextprotocol/server-everything, as installed for the fixtures package. */
export const SERVER_EVERYTHING = (() => {
  const require = createRequire(new URL('../../../tooling/fixtures/package.json', import.meta.url));
  return join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
})();

export interface RecordingSink extends TransportSink {
  readonly messages: JsonRpcMessage[];
  readonly infos: (MessageInfo | undefined)[];
  readonly errors: Error[];
  /** Every call of close, with its argument: the contract says there is exactly one. */
  readonly closes: (Error | undefined)[];
  readonly closed: Promise<Error | undefined>;
}

export function recordingSink(): RecordingSink {
  let onClose!: (cause: Error | undefined) => void;
  const closed = new Promise<Error | undefined>((resolve) => (onClose = resolve));
  const messages: JsonRpcMessage[] = [];
  const infos: (MessageInfo | undefined)[] = [];
  const errors: Error[] = [];
  const closes: (Error | undefined)[] = [];
  return {
    messages,
    infos,
    errors,
    closes,
    closed,
    message(message, info) {
      messages.push(message);
      infos.push(info);
    },
    error(error) {
      errors.push(error);
    },
    close(cause) {
      closes.push(cause);
      onClose(cause);
    },
  };
}

export interface CapturingLogger extends Logger {
  readonly lines: { level: string; message: string }[];
}

export function capturingLogger(): CapturingLogger {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (message: string) => void lines.push({ level, message });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** The lines where close() escalated to a signal: none when the server left on its stdin closing. */
export const signalLines = (logger: CapturingLogger): string[] =>
  logger.lines.map((l) => l.message).filter((m) => /sending SIG/.test(m));

const transports = new Set<StdioTransport>();
const pids = new Set<number>();

/** A transport that `cleanup()` closes, for any test that fails half-way. */
export function transport(options: StdioTransportOptions): StdioTransport {
  const t = new StdioTransport({ logger: capturingLogger(), ...options });
  transports.add(t);
  return t;
}

/** A node process running a fixture. */
export function node(
  name: string,
  args: readonly string[] = [],
  options: Omit<StdioTransportOptions, 'command' | 'args'> = {},
): StdioTransport {
  return transport({ command: process.execPath, args: [fixture(name), ...args], ...options });
}

/** A pid a fixture reported, which `cleanup()` kills if the test left it alive. */
export function trackPid(pid: number): number {
  pids.add(pid);
  return pid;
}

/** For afterEach: closes every transport made here and kills any reported fixture pid still running. */
export async function cleanup(): Promise<void> {
  const open = [...transports];
  transports.clear();
  await Promise.allSettled(open.map((t) => t.close()));
  for (const pid of open.map((t) => t.pid)) if (pid !== undefined) pids.add(pid);
  for (const pid of pids) {
    if (isAlive(pid) && isFixture(pid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone in between.
      }
    }
  }
  pids.clear();
}

/**
 * Whether a process still runs. A zombie does not: it has exited and waits to be reaped, and an
 * orphaned one may wait for ever in a container whose init never reaps (this one's does not).
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Only our own processes are ever killed by pid: a recycled pid may belong to anything. */
function isFixture(pid: number): boolean {
  if (process.platform !== 'linux') return true;
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.includes('fixtures');
  } catch {
    return false;
  }
}

/** Polls `condition` every `intervalMs` until it holds; throws after `timeoutMs`. */
export async function waitFor(
  condition: () => boolean,
  timeoutMs = 5_000,
  what = 'the condition',
  intervalMs = 10,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Collects what a transport's onStderr receives. */
export function stderrCollector(): {
  onStderr: (text: string) => void;
  readonly text: string;
  readonly chunks: string[];
} {
  const chunks: string[] = [];
  return {
    chunks,
    onStderr: (text) => void chunks.push(text),
    get text() {
      return chunks.join('');
    },
  };
}

export const request = (id: number | string, method: string, params?: Record<string, unknown>): JsonRpcMessage =>
  params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
