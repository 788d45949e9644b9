// The client's `tracing` option made into what a connection asks for: a request observer per connection, or none.
import type { RequestObserver } from '@mcpc/jsonrpc';
import { tracingLoader } from './load.js';
import { tracingObserver, type TracedConnection } from './observer.js';
import type { TracingOption } from './options.js';

/** Makes a connection's request observer; resolves undefined when tracing is off or the API is not installed. */
export type ObserverFactory = (connection: TracedConnection) => Promise<RequestObserver | undefined>;

/** The factory for a client's `tracing` option; undefined when the option turns tracing off. */
export function observerFactory(option: TracingOption | undefined): ObserverFactory | undefined {
  if (option === false) return undefined;
  const load = tracingLoader(option);
  return async (connection) => {
    const tracing = await load();
    return tracing && tracingObserver(tracing, connection);
  };
}
