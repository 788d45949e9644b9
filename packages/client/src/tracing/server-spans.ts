// SERVER spans for the server's requests the client answers: classic JSON-RPC requests and MRTR input requests.
import type { IncomingObservation, IncomingObserver, JsonRpcId, JsonRpcParams } from '@mcpc/jsonrpc';
import type { Attributes, Context, Span } from '@opentelemetry/api';
import type { InputTracing } from '../server/mrtr.js';
import { recordFailure } from './conventions.js';
import type { ConnectionTrace } from './observer.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The observer of the server's JSON-RPC requests (classic era): parent from their `_meta`, else a trace of their own. */
export function incomingObserver(trace: ConnectionTrace): IncomingObserver {
  return {
    start(id: JsonRpcId, method: string, params: JsonRpcParams | undefined): IncomingObservation | undefined {
      return serverSpan(trace, method, params, String(id), undefined);
    },
  };
}

/** The MRTR hooks: each round's number carried to its CLIENT span, each input request under a SERVER span. */
export function inputTracing(trace: ConnectionTrace): InputTracing {
  return {
    round(round, send) {
      trace.round = round;
      try {
        return send();
      } finally {
        trace.round = undefined;
      }
    },
    input: (requests, _key, method, params) => serverSpan(trace, method, params, undefined, trace.asked.get(requests)),
  };
}

/** A SERVER span for one request the client answers; its parent is `askedBy` (an MRTR round), else `_meta`'s context. */
function serverSpan(
  trace: ConnectionTrace,
  method: string,
  params: JsonRpcParams | undefined,
  id: string | undefined,
  askedBy: Span | undefined,
): IncomingObservation | undefined {
  const { api, tracer, extract } = trace.tracing;
  // An incoming request's context is the one it carries, as for any SERVER span: never the context its
  // transport happened to read it in (over stdio, that of whoever called connect(), however long ago).
  const root = api.ROOT_CONTEXT;
  const meta = params?._meta;
  const parent =
    askedBy !== undefined
      ? api.trace.setSpan(api.context.active(), askedBy)
      : isObject(meta)
        ? extract(root, meta)
        : root;
  const attributes: Attributes = { 'mcp.method.name': method };
  if (id !== undefined) attributes['jsonrpc.request.id'] = id;
  const version = trace.connection.protocolVersion();
  if (version !== undefined) attributes['mcp.protocol.version'] = version;
  const session = trace.connection.sessionId();
  if (session !== undefined) attributes['mcp.session.id'] = session;
  const transport = trace.fixed['network.transport'];
  if (transport !== undefined) attributes['network.transport'] = transport;
  const span = tracer.startSpan(method, { kind: api.SpanKind.SERVER, attributes }, parent);
  if (!span.isRecording() && !api.isSpanContextValid(span.spanContext())) return undefined;
  return new ServerObservation(trace, span, api.trace.setSpan(parent, span));
}

/** One answered request: the host's handler runs with its span current, so the host's own spans are its children. */
class ServerObservation implements IncomingObservation {
  constructor(
    readonly trace: ConnectionTrace,
    readonly span: Span,
    readonly context: Context,
  ) {}

  run<T>(handler: () => T): T {
    return this.trace.tracing.api.context.with(this.context, handler);
  }

  answered(): void {
    this.span.end();
  }

  failed(error: Error): void {
    recordFailure(this.span, error, this.trace.tracing.api.SpanStatusCode.ERROR);
    this.span.end();
  }
}
