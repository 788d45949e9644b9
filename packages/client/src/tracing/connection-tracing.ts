// One connection's tracing made (loaded with the API, never with the client): observers, MRTR hooks, session's end.
import { transportAttributes } from './conventions.js';
import { metricAttributes } from './metrics.js';
import { tracingObserver, type ConnectionTrace } from './observer.js';
import type { OtelApi } from './load.js';
import type { TracingOptions } from './options.js';
import { resolveTracing, type Tracing } from './resolve.js';
import { incomingObserver, inputTracing } from './server-spans.js';
import type { TracedConnection } from './traced-connection.js';
import type { ConnectionTracer, ConnectionTracing } from './tracing.js';

/** The tracing of one connection as it opens, on the client's resolved tracing. */
function connectionTracing(tracing: Tracing, connection: TracedConnection): ConnectionTracing {
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
}

/** A client's tracing, resolved once from the API found and the option: makes each connection's. */
export function connectionTracer(otel: OtelApi, option: TracingOptions): ConnectionTracer {
  const tracing = resolveTracing(otel, option);
  return (connection) => connectionTracing(tracing, connection);
}
