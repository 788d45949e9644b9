// The public shape of the `tracing` option: an OpenTelemetry tracer and propagator, described structurally.
//
// Structural, so this package's types never name `@opentelemetry/api`, an optional peer a host may not install.

/** What the client uses of an OpenTelemetry `Tracer` (any `Tracer` fits). */
export interface TracerLike {
  startSpan(name: string, options?: object, context?: object): object;
}

/** What the client uses of an OpenTelemetry `TextMapPropagator` (any propagator fits). */
export interface PropagatorLike {
  inject(context: object, carrier: unknown, setter: object): void;
  fields(): string[];
}

/**
 * Tracing of every request (OpenTelemetry, MCP semantic conventions): a CLIENT span per request, its
 * context carried in the request's `_meta`. Needs `@opentelemetry/api` installed; without it, nothing.
 */
export interface TracingOptions {
  /** The tracer spans start on. Default: the global tracer provider's, named `@mcpc/client`. */
  readonly tracer?: TracerLike;
  /** Writes the context into `_meta`. Default: the global propagator, or W3C trace context and baggage. */
  readonly propagator?: PropagatorLike;
}

/** `false` turns tracing off even when `@opentelemetry/api` is installed. */
export type TracingOption = TracingOptions | false;
