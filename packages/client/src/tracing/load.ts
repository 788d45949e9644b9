// Loads `@opentelemetry/api` on first connect, only when tracing is wanted and the package is installed.
import type * as OpenTelemetryApi from '@opentelemetry/api';
import type { Context, Tracer } from '@opentelemetry/api';
import { VERSION } from '../version.js';
import type { TracingOption } from './options.js';
import { injectW3c } from './w3c.js';

export type OtelApi = typeof OpenTelemetryApi;

/** Tracing resolved for a client: the API, the tracer, and how context is written into a carrier. */
export interface Tracing {
  readonly api: OtelApi;
  readonly tracer: Tracer;
  readonly inject: (context: Context, carrier: Record<string, string>) => void;
}

let api: Promise<OtelApi | undefined> | undefined;

/** The API module, or undefined when it is not installed or this runtime loads none (looked for once per process). */
function loadApi(): Promise<OtelApi | undefined> {
  api ??= import('#platform')
    .then((platform) => platform.loadOpenTelemetryApi())
    .then(
      // Named exports from its ESM build; a bundler's CommonJS interop may put them on `default` instead.
      (module) =>
        module === undefined ? undefined : ((module.trace === undefined ? module.default : module) as OtelApi),
      () => undefined,
    );
  return api;
}

/** A loader for the client's tracing, memoized: undefined when off or when `@opentelemetry/api` is absent. */
export function tracingLoader(option: Exclude<TracingOption, false> | undefined): () => Promise<Tracing | undefined> {
  if (option !== undefined && (typeof option !== 'object' || option === null))
    throw new TypeError('tracing must be false or an object { tracer?, propagator? }');
  let tracing: Promise<Tracing | undefined> | undefined;
  return () => (tracing ??= loadApi().then((otel) => otel && resolveTracing(otel, option ?? {})));
}

function resolveTracing(otel: OtelApi, option: Exclude<TracingOption, false>): Tracing {
  const tracer = (option.tracer as Tracer | undefined) ?? otel.trace.getTracer('@mcpc/client', VERSION);
  const given = option.propagator;
  const setter = otel.defaultTextMapSetter;
  const inject =
    given !== undefined
      ? (context: Context, carrier: Record<string, string>) => given.inject(context, carrier, setter)
      : (context: Context, carrier: Record<string, string>) => {
          // The global propagator once an SDK registers one; until then, W3C trace context and baggage.
          if (otel.propagation.fields().length > 0) otel.propagation.inject(context, carrier, setter);
          else injectW3c(otel, context, carrier);
        };
  return { api: otel, tracer, inject };
}
