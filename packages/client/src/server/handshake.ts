// Owns what a failed first handshake (detection + initialize) tells the user: what happened, and what to do.
import {
  RequestTimeoutError,
  TransportErrorCode,
  escapePeerText,
  type JsonRpcEngine,
  type Transport,
} from '@mcpc/jsonrpc';
import { ClientErrorCode } from '../codes.js';

/** Default bound on a stdio server's first handshake, detection and `initialize` together (`handshakeTimeout`). */
export const DEFAULT_HANDSHAKE_TIMEOUT = 15_000;

/** How much of a server's stderr a handshake failure quotes. */
const STDERR_QUOTE_LIMIT = 300;

/** A stdio server process that exited (duck-typed: `@mcpc/transport-stdio` is an optional peer). */
interface ProcessExit {
  readonly code: typeof TransportErrorCode.ProcessExit;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stderrTail?: unknown;
}

/** The process exit behind an error (itself, or a closed connection's cause), if that is what it was. */
export function processExitOf(error: unknown): ProcessExit | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if ((e as { code?: unknown }).code === TransportErrorCode.ProcessExit) return e as unknown as ProcessExit;
  }
  return undefined;
}

/** The end of a server's stderr, escaped and capped, as `; its stderr ended with: '…'` (empty for none). */
export function stderrQuote(tail: unknown): string {
  if (typeof tail !== 'string') return '';
  const trimmed = tail.trim();
  if (trimmed === '') return '';
  // The end is what says why it failed: keep the last lines, not the first.
  const end = trimmed.length > STDERR_QUOTE_LIMIT ? `…${trimmed.slice(-STDERR_QUOTE_LIMIT)}` : trimmed;
  return `; its stderr ended with: '${escapePeerText(end, STDERR_QUOTE_LIMIT + 1)}'`;
}

export interface HandshakeFailure {
  readonly message: string;
  readonly code: ClientErrorCode;
}

/**
 * Says why the first handshake failed in the user's words, or undefined when the error says it well
 * enough itself: the server process exited during it (with its stderr), or it timed out — after the
 * server printed text that is not JSON-RPC on its protocol stream (a banner, a log line), or in silence.
 */
export function describeHandshakeFailure(
  error: unknown,
  facts: {
    readonly engine: JsonRpcEngine;
    readonly transport: Transport | undefined;
    readonly kind: string;
    readonly budgetMs: number;
  },
): HandshakeFailure | undefined {
  const exit = processExitOf(error);
  if (exit !== undefined) {
    const how = exit.signal === null ? `exited (code ${exit.exitCode ?? 'unknown'})` : `was killed by ${exit.signal}`;
    return {
      message: `the server process ${how} during the handshake${stderrQuote(exit.stderrTail)}; run the command yourself to see why it stops`,
      code: ClientErrorCode.ServerExited,
    };
  }
  if (!(error instanceof RequestTimeoutError)) return undefined;
  const ms = facts.budgetMs > 0 ? facts.budgetMs : error.timeoutMs;
  const stdio = facts.kind === 'stdio';
  const rejected = facts.engine.rejectedFrames.last;
  if (rejected?.excerpt !== undefined) {
    const where = stdio ? 'on stdout' : 'instead of JSON-RPC';
    const fix = stdio ? ' — a stdio server must write only JSON-RPC to stdout (log to stderr)' : '';
    return {
      message: `it did not complete the handshake within ${ms} ms, and the server printed non-JSON ${where}: '${rejected.excerpt}'${fix}`,
      code: ClientErrorCode.HandshakeTimeout,
    };
  }
  const { count } = facts.engine.rejectedFrames;
  if (rejected !== undefined) {
    // JSON, but not JSON-RPC: the server speaks some other protocol, or a broken dialect of this one.
    return {
      message: `it did not complete the handshake within ${ms} ms, and the ${count === 1 ? 'one message' : `${count} messages`} it sent ${count === 1 ? 'was' : 'were'} not valid JSON-RPC (the last: ${escapePeerText(rejected.message, 200)}); check that it is an MCP server`,
      code: ClientErrorCode.HandshakeTimeout,
    };
  }
  const tail = stdio ? stderrQuote((facts.transport as { stderrTail?: unknown } | undefined)?.stderrTail) : '';
  const hint = stdio
    ? 'check that the command starts an MCP server on stdio, or raise handshakeTimeout for a server slow to start (a first `npx` download)'
    : 'check the URL, or raise handshakeTimeout for a server slow to answer';
  return {
    message: `the server did not answer the handshake within ${ms} ms (${error.method} got no answer)${tail}; ${hint}`,
    code: ClientErrorCode.HandshakeTimeout,
  };
}
