// The first handshake's one time budget (detection and initialize together), and its failures described for the user.
import type { JsonRpcEngine, Transport } from '@mcpc/jsonrpc';
import { ConnectionError } from '../errors.js';
import { DEFAULT_HANDSHAKE_TIMEOUT, describeHandshakeFailure } from './handshake.js';

export interface HandshakeBudget {
  /** What is left of the budget, in ms (at least 1); undefined when the handshake is not bounded. */
  left(): number | undefined;
  /** A handshake failure described for the user, when it is one that can be (a process exit, a timeout…). */
  failure(error: unknown): ConnectionError | undefined;
}

/**
 * One bound on the whole first handshake: a stdio server that prints a banner or never answers fails in
 * seconds, not after the probe's and initialize's timeouts added up. Over HTTP the first request may
 * wait on an interactive OAuth login, so by default each step has the request timeout there, as any
 * request does. The clock starts now.
 */
export function handshakeBudget(
  server: string,
  handshakeTimeout: number | undefined,
  engine: JsonRpcEngine,
  transport: Transport,
  kind: string,
): HandshakeBudget {
  const budgetMs = handshakeTimeout ?? (kind === 'stdio' ? DEFAULT_HANDSHAKE_TIMEOUT : 0);
  const deadline = performance.now() + budgetMs;
  return {
    left: () => (budgetMs > 0 ? Math.max(1, Math.ceil(deadline - performance.now())) : undefined),
    failure: (error) => {
      const described = describeHandshakeFailure(error, { engine, transport, kind, budgetMs });
      return described === undefined
        ? undefined
        : new ConnectionError(server, described.message, { cause: error, code: described.code });
    },
  };
}
