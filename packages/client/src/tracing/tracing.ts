// The client's `tracing` option made into what a connection asks for: its observers and hooks, or none.
import type { IncomingObserver, RequestObserver } from '@mcpc/jsonrpc';
import type { InputTracing } from '../server/mrtr.js';
import { openTelemetryApi } from './load.js';
import { checkTracingOption, type TracingOption } from './options.js';
import type { TracedConnection } from './traced-connection.js';

/** One connection's tracing: the engine's two observers, the MRTR hooks, and the session's end. */
export interface ConnectionTracing {
  readonly observer: RequestObserver;
  readonly incoming: IncomingObserver;
  readonly inputs: InputTracing;
  /** The connection closed (with its cause when not asked for): records the session's duration. */
  closed(cause: Error | undefined): void;
}

/** Makes a connection's tracing, once the API is found. */
export type ConnectionTracer = (connection: TracedConnection) => ConnectionTracing;

/** Makes a connection's tracing as it opens; resolves undefined when the API is neither given nor installed. */
export type TracingFactory = (connection: TracedConnection) => Promise<ConnectionTracing | undefined>;

/**
 * The factory for a client's `tracing` option (checked here: a bad shape throws a TypeError); undefined when off.
 * The tracing code itself is a chunk loaded once the API is found, so the client's cold import does not carry it.
 */
export function tracingFactory(option: TracingOption | undefined): TracingFactory | undefined {
  checkTracingOption(option);
  if (option === false) return undefined;
  let loaded: Promise<ConnectionTracer | undefined> | undefined;
  const load = () =>
    (loaded ??= openTelemetryApi(option?.api).then(async (otel) =>
      otel === undefined ? undefined : (await import('./connection-tracing.js')).connectionTracer(otel, option ?? {}),
    ));
  return async (connection) => {
    const tracer = await load();
    return tracer?.(connection);
  };
}
