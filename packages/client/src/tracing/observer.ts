// One connection's request observer: a CLIENT span per request, its context in `_meta`, its events and duration metric.
import type { JsonRpcId, JsonRpcParams, Progress, RequestObservation, RequestObserver } from '@mcpc/jsonrpc';
import type { Attributes, Span } from '@opentelemetry/api';
import { recordFailure, requestAttributes, taskStatusOf } from './conventions.js';
import type { Tracing } from './resolve.js';
import { metricAttributes } from './metrics.js';
import type { TracedConnection } from './traced-connection.js';

/** What the CLIENT and SERVER sides of one connection's tracing share. */
export interface ConnectionTrace {
  readonly tracing: Tracing;
  readonly connection: TracedConnection;
  /** The attributes fixed for the connection (transport, server address). */
  readonly fixed: Attributes;
  /** Each `input_required` answer's `inputRequests`, to the CLIENT span of the round that asked (MRTR). */
  readonly asked: WeakMap<object, Span>;
  /**
   * The round number of the multi round-trip request being sent, set only while its send runs: the engine
   * calls `start` synchronously within it. A field rather than a context value, so no context manager is needed.
   */
  round: number | undefined;
}

/** The request observer that traces one connection's requests. */
export function tracingObserver(trace: ConnectionTrace): RequestObserver {
  const { api, tracer, inject, metrics } = trace.tracing;
  const { connection, fixed } = trace;
  const idle = metrics === undefined ? trace.tracing.noSdk : undefined;
  return {
    start(id: JsonRpcId, method: string, params: JsonRpcParams | undefined): RequestObservation | undefined {
      // The API's no-op tracer, no metrics, no span to continue: nothing would come of the work below.
      if (idle?.() === true && api.trace.getSpan(api.context.active()) === undefined) return undefined;
      const attributes: Attributes = { 'mcp.method.name': method, 'jsonrpc.request.id': String(id) };
      for (const key in fixed) attributes[key] = fixed[key];
      const version = connection.protocolVersion();
      if (version !== undefined) attributes['mcp.protocol.version'] = version;
      const session = connection.sessionId();
      if (session !== undefined) attributes['mcp.session.id'] = session;
      const name = requestAttributes(method, params, attributes);
      const parent = api.context.active();
      const span = tracer.startSpan(name, { kind: api.SpanKind.CLIENT, attributes }, parent);
      const recording = span.isRecording();
      // Nothing recorded, nothing measured, no context to carry: the request goes out as it was.
      if (!recording && metrics === undefined && !api.isSpanContextValid(span.spanContext())) return undefined;
      const carrier: Record<string, string> = {};
      inject(api.trace.setSpan(parent, span), carrier);
      const sent = withTraceMeta(params, carrier);
      return new ClientObservation(trace, span, recording, method, attributes, trace.round ?? 0, sent);
    },
  };
}

/** One traced request: its span, its events as they come, its end and its duration. */
class ClientObservation implements RequestObservation {
  readonly #started = performance.now();
  readonly progress: ((progress: Progress) => void) | undefined;

  constructor(
    readonly trace: ConnectionTrace,
    readonly span: Span,
    readonly recording: boolean,
    readonly method: string,
    readonly attributes: Attributes,
    /** Which round of a multi round-trip request this is (0: the first send). */
    readonly round: number,
    readonly params: JsonRpcParams | undefined,
  ) {
    // Only a recorded span takes events: the engine skips an observation without `progress`.
    if (recording) this.progress = (p) => this.#progress(p);
  }

  #progress(progress: Progress): void {
    // The numbers only: a progress message is the server's text, a payload.
    const event: Attributes = { 'mcp.progress.value': progress.progress };
    if (progress.total !== undefined) event['mcp.progress.total'] = progress.total;
    this.span.addEvent('mcp.progress', event);
  }

  answered(result: unknown): void {
    const { span, method, recording } = this;
    const r = typeof result === 'object' && result !== null ? (result as Record<string, unknown>) : undefined;
    if (r?.resultType === 'input_required') this.#inputRound(r);
    else if (method === 'tools/call' && r?.isError === true) {
      // A tool that failed answers with a result, not an error: the conventions call it `tool_error`.
      this.attributes['error.type'] = 'tool_error';
      span.setAttribute('error.type', 'tool_error');
      span.setStatus({ code: this.trace.tracing.api.SpanStatusCode.ERROR });
    }
    const status = recording ? taskStatusOf(method, r) : undefined;
    if (status !== undefined) span.addEvent('mcp.task.status', { 'mcp.task.status': status });
    this.#end();
  }

  failed(error: Error): void {
    recordFailure(this.span, error, this.trace.tracing.api.SpanStatusCode.ERROR, this.attributes);
    this.#end();
  }

  /** An `input_required` answer (MRTR): the round it starts, what it asks for, and this span as its inputs' parent. */
  #inputRound(result: Record<string, unknown>): void {
    const requests = result.inputRequests;
    const asked = typeof requests === 'object' && requests !== null ? (requests as Record<string, unknown>) : {};
    if (asked === requests) this.trace.asked.set(asked, this.span);
    if (!this.recording) return;
    const methods = new Set<string>();
    for (const key in asked) {
      const m = (asked[key] as { method?: unknown } | null)?.method;
      if (typeof m === 'string') methods.add(m);
    }
    this.span.addEvent('mcp.input_required', {
      'mcp.input.round': this.round + 1,
      'mcp.input.methods': [...methods],
    });
  }

  #end(): void {
    this.span.end();
    // The span's attributes, with error.type and rpc.response.status_code when it failed, less the identifiers.
    this.trace.tracing.metrics?.operation.record(
      (performance.now() - this.#started) / 1000,
      metricAttributes(this.attributes),
    );
  }
}

/** The params with the carrier's keys in `_meta`; keys already there (the host's, the caller's) are kept as they are. */
function withTraceMeta(params: JsonRpcParams | undefined, carrier: Record<string, string>): JsonRpcParams | undefined {
  if (Object.keys(carrier).length === 0) return undefined;
  const own = params?._meta;
  const meta = typeof own === 'object' && own !== null && !Array.isArray(own) ? { ...carrier, ...own } : carrier;
  return { ...params, _meta: meta };
}
