// The API's TracerProvider and Tracer over RecordingSpan: W3C ids, the parent from the context, the sampler's say.
import {
  SpanKind,
  TraceFlags,
  context as contextApi,
  createContextKey,
  isSpanContextValid,
  trace,
  type Context,
  type Span,
  type SpanContext,
  type SpanOptions,
  type Tracer,
  type TracerOptions,
  type TracerProvider,
} from '@opentelemetry/api';
import { DEFAULT_LIMITS, type SpanLimits } from './attributes.js';
import { parentBased, alwaysOn, type Sampler } from './sampler.js';
import { RecordingSpan, type FinishedSpan, type Resource, type Scope } from './span.js';

/** Random bytes as lower-case hex, never all zeros (the W3C invalid id). */
function randomHex(bytes: number): string {
  const buffer = new Uint8Array(bytes);
  do crypto.getRandomValues(buffer);
  while (buffer.every((byte) => byte === 0));
  let hex = '';
  for (const byte of buffer) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** A 16-byte trace id and an 8-byte span id, as W3C trace context writes them. */
export const newTraceId = (): string => randomHex(16);
export const newSpanId = (): string => randomHex(8);

/**
 * The key `suppressTracing()` of `@opentelemetry/core` sets (a `Symbol.for`, so the same symbol here): code that
 * suppresses tracing, an exporter's own HTTP calls say, gets no span from this tracer either.
 */
const SUPPRESS_TRACING = createContextKey('OpenTelemetry SDK Context Key SUPPRESS_TRACING');

/** Where finished spans go: each processor sees every sampled span once, as it ends. */
export interface SpanProcessor {
  onEnd(span: FinishedSpan): void;
  /** Sends what it holds; resolves when it is out (or has failed). */
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

export interface ProviderOptions {
  readonly resource: Resource;
  readonly processors: readonly SpanProcessor[];
  readonly sampler?: Sampler;
  readonly limits?: SpanLimits;
}

export class Recorder implements TracerProvider {
  readonly resource: Resource;
  readonly #processors: readonly SpanProcessor[];
  readonly #sampler: Sampler;
  readonly #limits: SpanLimits;
  readonly #tracers = new Map<string, RecorderTracer>();
  #stopped = false;

  constructor(options: ProviderOptions) {
    this.resource = options.resource;
    this.#processors = options.processors;
    this.#sampler = options.sampler ?? parentBased(alwaysOn);
    this.#limits = options.limits ?? DEFAULT_LIMITS;
  }

  /** One tracer per scope (name, version, schema URL), as the API expects of a provider. */
  getTracer(name: string, version?: string, options?: TracerOptions): Tracer {
    const key = `${name}\n${version ?? ''}\n${options?.schemaUrl ?? ''}`;
    let tracer = this.#tracers.get(key);
    if (tracer === undefined) {
      const scope: Scope = {
        name,
        ...(version !== undefined && { version }),
        ...(options?.schemaUrl !== undefined && { schemaUrl: options.schemaUrl }),
      };
      tracer = new RecorderTracer(this, scope);
      this.#tracers.set(key, tracer);
    }
    return tracer;
  }

  /** A span is made here: the sampler decides, then a recording span or only a context that propagates. */
  start(scope: Scope, name: string, options: SpanOptions, parent: Context): Span {
    if (this.#stopped || parent.getValue(SUPPRESS_TRACING) === true) return trace.wrapSpanContext(INVALID);
    const from = options.root === true ? undefined : trace.getSpanContext(parent);
    const valid = from !== undefined && isSpanContextValid(from) ? from : undefined;
    const traceId = valid?.traceId ?? newTraceId();
    const decision = this.#sampler(options.root === true ? trace.deleteSpan(parent) : parent, traceId);
    const context: SpanContext = {
      traceId,
      spanId: newSpanId(),
      traceFlags: decision === 'sample' ? TraceFlags.SAMPLED : TraceFlags.NONE,
      ...(valid?.traceState !== undefined && { traceState: valid.traceState }),
    };
    if (decision === 'drop') return trace.wrapSpanContext(context);
    return new RecordingSpan({
      name,
      kind: options.kind ?? SpanKind.INTERNAL,
      context,
      parent: valid,
      attributes: options.attributes,
      links: options.links,
      startTime: options.startTime,
      limits: this.#limits,
      resource: this.resource,
      scope,
      onEnd: (span) => {
        for (const processor of this.#processors) processor.onEnd(span);
      },
    });
  }

  async forceFlush(): Promise<void> {
    await Promise.all(this.#processors.map((p) => p.forceFlush()));
  }

  /** No span starts after this; the processors send what they hold. */
  async shutdown(): Promise<void> {
    this.#stopped = true;
    await Promise.all(this.#processors.map((p) => p.shutdown()));
  }
}

const INVALID: SpanContext = { traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: TraceFlags.NONE };

class RecorderTracer implements Tracer {
  readonly #provider: Recorder;
  readonly #scope: Scope;

  constructor(provider: Recorder, scope: Scope) {
    this.#provider = provider;
    this.#scope = scope;
  }

  startSpan(name: string, options: SpanOptions = {}, parent: Context = contextApi.active()): Span {
    return this.#provider.start(this.#scope, name, options, parent);
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, options: SpanOptions, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    options: SpanOptions,
    context: Context,
    fn: F,
  ): ReturnType<F>;
  /** The span is active in `fn` (and what it awaits); `fn` ends it, as the API says. */
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    a: SpanOptions | F,
    b?: Context | F,
    c?: F,
  ): ReturnType<F> {
    const [options, parent, fn] =
      typeof a === 'function'
        ? [{}, contextApi.active(), a]
        : typeof b === 'function'
          ? [a, contextApi.active(), b]
          : [a, b ?? contextApi.active(), c as F];
    const span = this.startSpan(name, options, parent);
    return contextApi.with(trace.setSpan(parent, span), fn as (span: Span) => ReturnType<F>, undefined, span);
  }
}
