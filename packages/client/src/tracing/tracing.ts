// The client's `tracing` option made into what a connection asks for: its observers and hooks, or none.
import type { IncomingObserver, RequestObserver } from '@mcpc/jsonrpc';
import type { InputTracing } from '../server/mrtr.js';
import { transportAttributes } from './conventions.js';
import { tracingLoader } from './load.js';
import { metricAttributes } from './metrics.js';
import { tracingObserver, type ConnectionTrace } from './observer.js';
import { checkTracingOption, type TracingOption } from './options.js';
import { incomingObserver, inputTracing } from './server-spans.js';
import type { TracedConnection } from './traced-connection.js';

/** One connection's tracing: the engine's two observers, the MRTR hooks, and the session's end. */
export interface ConnectionTracing {
  readonly observer: RequestObserver;
  readonly incoming: IncomingObserver;
  readonly inputs: InputTracing;
  /** The connection closed (with its cause when not asked for): records the session's duration. */
  closed(cause: Error | undefined): void;
}

/** Makes a connection's tracing as it opens; resolves undefined when the API is neither given nor installed. */
export type TracingFactory = (connection: TracedConnection) => Promise<ConnectionTracing | undefined>;

/** The factory for a client's `tracing` option (checked here: a bad shape throws a TypeError); undefined when off. */
export function tracingFactory(option: TracingOption | undefined): TracingFactory | undefined {
  checkTracingOption(option);
  if (option === false) return undefined;
  const load = tracingLoader(option);
  return async (connection) => {
    const tracing = await load();
    if (tracing === undefined) return undefined;
    const opened = performance.now();
    const trace: ConnectionTrace = {
      tracing,
      connection,
      fixed: transportAttributes(connection.kind, connection.label),
      asked: new WeakMap(),
      round: undefined,
    };
    let ended = false;
    return {
      observer: tracingObserver(trace),
      incoming: incomingObserver(trace),
      inputs: inputTracing(trace),
      closed(cause) {
        if (ended || tracing.metrics === undefined) return;
        ended = true;
        const point = metricAttributes(trace.fixed);
        const version = connection.protocolVersion();
        if (version !== undefined) point['mcp.protocol.version'] = version;
        if (cause !== undefined) point['error.type'] = (cause as { code?: unknown }).code?.toString() ?? cause.name;
        tracing.metrics.session.record((performance.now() - opened) / 1000, point);
      },
    };
  };
}
