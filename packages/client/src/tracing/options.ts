// The public shape of the `tracing` option (OpenTelemetry API, tracer or provider, propagator, meter), and its check.
//
// Structural, so this package's types never name `@opentelemetry/api`, an optional peer a host may not install.

/** What the client uses of an OpenTelemetry `Tracer` (any `Tracer` fits). */
export interface TracerLike {
  startSpan(name: string, options?: object, context?: object): object;
}

/** What the client uses of an OpenTelemetry `TracerProvider` (any `TracerProvider` fits). */
export interface TracerProviderLike {
  getTracer(name: string, version?: string, options?: object): TracerLike;
}

/** What the client uses of an OpenTelemetry `MeterProvider` (any `MeterProvider` fits). */
export interface MeterProviderLike {
  getMeter(name: string, version?: string, options?: object): object;
}

/** What the client uses of an OpenTelemetry `TextMapPropagator` (any propagator fits). */
export interface PropagatorLike {
  inject(context: object, carrier: unknown, setter: object): void;
  extract(context: object, carrier: unknown, getter: object): object;
  fields(): string[];
}

/** The `@opentelemetry/api` module itself, as `import * as api from '@opentelemetry/api'` gives it. */
export interface OpenTelemetryApiLike {
  readonly trace: object;
  readonly context: object;
  readonly propagation: object;
  readonly metrics: object;
}

/**
 * Tracing and metrics of every request (OpenTelemetry, MCP semantic conventions): a CLIENT span per
 * request, its context carried in the request's `_meta`, SERVER spans for the server's requests to us,
 * and the `mcp.client.*.duration` histograms. Needs `@opentelemetry/api`: installed (Node, Deno, Bun load
 * it on the first connect) or given as `api` (how a browser or Worker bundle turns tracing on).
 */
export interface TracingOptions {
  /** The `@opentelemetry/api` module to use instead of loading it (required where no module is loaded). */
  readonly api?: OpenTelemetryApiLike;
  /** The tracer spans start on. Default: `tracerProvider`'s, else the global provider's (`@mcpc/client`). */
  readonly tracer?: TracerLike;
  /** The provider the tracer comes from, when no `tracer` is given. */
  readonly tracerProvider?: TracerProviderLike;
  /** Writes and reads the context in `_meta`. Default: the global propagator, or W3C trace context and baggage. */
  readonly propagator?: PropagatorLike;
  /** Where the duration histograms are recorded. Default: the global meter provider (none: no metrics). */
  readonly meterProvider?: MeterProviderLike;
}

/** `false` turns tracing off even when `@opentelemetry/api` is installed. */
export type TracingOption = TracingOptions | false;

const KEYS = ['api', 'tracer', 'tracerProvider', 'propagator', 'meterProvider'];
const isObject = (value: unknown): value is Record<string, unknown> =>
  (typeof value === 'object' || typeof value === 'function') && value !== null;
const hasMethods = (value: unknown, names: readonly string[]): boolean =>
  isObject(value) && names.every((name) => typeof value[name] === 'function');

/** Checks the option's shape at construction; throws a TypeError naming what is wrong. */
export function checkTracingOption(option: unknown): asserts option is TracingOption | undefined {
  if (option === undefined || option === false) return;
  if (!isObject(option) || Array.isArray(option))
    throw new TypeError(`tracing must be false or an object { ${KEYS.join(', ')} }`);
  const unknown = Object.keys(option).filter((key) => !KEYS.includes(key));
  if (unknown.length > 0)
    throw new TypeError(`tracing has unknown keys (${unknown.join(', ')}); it takes ${KEYS.join(', ')}`);
  const { api, tracer, tracerProvider, propagator, meterProvider } = option;
  const fail = (key: string, what: string): never => {
    throw new TypeError(`tracing.${key} must be ${what}`);
  };
  if (
    api !== undefined &&
    !(isObject(api) && ['trace', 'context', 'propagation', 'metrics'].every((k) => isObject(api[k])))
  )
    fail('api', 'the @opentelemetry/api module (with trace, context, propagation and metrics)');
  if (tracer !== undefined && !hasMethods(tracer, ['startSpan'])) fail('tracer', 'an OpenTelemetry Tracer (startSpan)');
  if (tracerProvider !== undefined && !hasMethods(tracerProvider, ['getTracer']))
    fail('tracerProvider', 'an OpenTelemetry TracerProvider (getTracer)');
  if (tracer !== undefined && tracerProvider !== undefined)
    throw new TypeError('tracing takes a tracer or a tracerProvider, not both');
  if (propagator !== undefined && !hasMethods(propagator, ['inject', 'extract', 'fields']))
    fail('propagator', 'an OpenTelemetry TextMapPropagator (inject, extract, fields)');
  if (meterProvider !== undefined && !hasMethods(meterProvider, ['getMeter']))
    fail('meterProvider', 'an OpenTelemetry MeterProvider (getMeter)');
}
