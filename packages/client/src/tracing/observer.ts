// One connection's request observer: a CLIENT span per request (MCP semantic conventions), its context in `_meta`.
import type { JsonRpcId, JsonRpcParams, RequestObservation, RequestObserver } from '@mcpc/jsonrpc';
import type { Attributes, Span } from '@opentelemetry/api';
import type { Tracing } from './load.js';

/** What the span attributes need of the connection, read as each request starts (the session changes). */
export interface TracedConnection {
  /** The transport's kind (`'stdio'`, `'streamable-http'`, …) and its label (the URL for HTTP). */
  readonly kind: string;
  readonly label: string;
  readonly protocolVersion: () => string | undefined;
  readonly sessionId: () => string | undefined;
}

const HTTP_KINDS = new Set(['streamable-http', 'http', 'sse']);

/** The attributes fixed for the connection: `network.transport`, and `server.address` / `server.port` for HTTP. */
function transportAttributes(kind: string, label: string): Attributes {
  if (kind === 'stdio') return { 'network.transport': 'pipe' };
  if (!HTTP_KINDS.has(kind)) return {};
  const attributes: Attributes = { 'network.transport': 'tcp' };
  try {
    const url = new URL(label);
    attributes['server.address'] = url.hostname;
    attributes['server.port'] = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  } catch {
    // A label that is no URL (a custom HTTP config): no address to give.
  }
  return attributes;
}

const stringParam = (params: JsonRpcParams | undefined, key: string): string | undefined =>
  typeof params?.[key] === 'string' ? params[key] : undefined;

/** The request's own attributes, and the span name's target (a tool or prompt name; never a URI, by the conventions). */
function requestAttributes(method: string, params: JsonRpcParams | undefined, attributes: Attributes): string {
  if (method === 'tools/call') {
    const name = stringParam(params, 'name');
    attributes['gen_ai.operation.name'] = 'execute_tool';
    if (name === undefined) return method;
    attributes['gen_ai.tool.name'] = name;
    return `${method} ${name}`;
  }
  if (method === 'prompts/get') {
    const name = stringParam(params, 'name');
    if (name === undefined) return method;
    attributes['gen_ai.prompt.name'] = name;
    return `${method} ${name}`;
  }
  const uri = stringParam(params, 'uri');
  if (uri !== undefined && method.startsWith('resources/')) attributes['mcp.resource.uri'] = uri;
  return method;
}

/** The request observer that traces one connection's requests. */
export function tracingObserver(tracing: Tracing, connection: TracedConnection): RequestObserver {
  const { api, tracer, inject } = tracing;
  const fixed = transportAttributes(connection.kind, connection.label);
  return {
    start(id: JsonRpcId, method: string, params: JsonRpcParams | undefined): RequestObservation | undefined {
      const attributes: Attributes = { 'mcp.method.name': method, 'jsonrpc.request.id': String(id), ...fixed };
      const version = connection.protocolVersion();
      if (version !== undefined) attributes['mcp.protocol.version'] = version;
      const session = connection.sessionId();
      if (session !== undefined) attributes['mcp.session.id'] = session;
      const name = requestAttributes(method, params, attributes);
      const parent = api.context.active();
      const span = tracer.startSpan(name, { kind: api.SpanKind.CLIENT, attributes }, parent);
      // Nothing recorded and no context to carry (no SDK, no incoming trace): the request goes out as it was.
      if (!span.isRecording() && !api.isSpanContextValid(span.spanContext())) return undefined;
      const carrier: Record<string, string> = {};
      inject(api.trace.setSpan(parent, span), carrier);
      return {
        params: withTraceMeta(params, carrier),
        answered: (result) => answered(span, method, result, api.SpanStatusCode.ERROR),
        failed: (error) => failed(span, error, api.SpanStatusCode.ERROR),
      };
    },
  };
}

/** The params with the carrier's keys in `_meta`; keys already there (the host's, the caller's) are kept as they are. */
function withTraceMeta(params: JsonRpcParams | undefined, carrier: Record<string, string>): JsonRpcParams | undefined {
  if (Object.keys(carrier).length === 0) return undefined;
  const own = params?._meta;
  const meta = typeof own === 'object' && own !== null && !Array.isArray(own) ? { ...carrier, ...own } : carrier;
  return { ...params, _meta: meta };
}

function answered(span: Span, method: string, result: unknown, error: number): void {
  // A tool that failed answers with a result, not an error: the conventions call it `tool_error`.
  if (method === 'tools/call' && (result as { isError?: unknown } | null)?.isError === true) {
    span.setAttribute('error.type', 'tool_error');
    span.setStatus({ code: error });
  }
  span.end();
}

function failed(span: Span, error: Error, status: number): void {
  const rpcCode = (error as { rpcCode?: unknown }).rpcCode;
  const code = (error as { code?: unknown }).code;
  if (typeof rpcCode === 'number') {
    span.setAttribute('rpc.response.status_code', String(rpcCode));
    span.setAttribute('error.type', String(rpcCode));
  } else {
    span.setAttribute('error.type', typeof code === 'string' ? code : error.name);
  }
  // The SDK records the error's `code` as `exception.type`: the typed code (MCPC_…) the caller can match.
  span.recordException(error);
  span.setStatus({ code: status, message: typeof code === 'string' ? code : error.name });
  span.end();
}

/** The transport's session id, where it has one (Streamable HTTP's `Mcp-Session-Id`). */
export function sessionIdOf(transport: object): string | undefined {
  const id = (transport as { sessionId?: unknown }).sessionId;
  return typeof id === 'string' ? id : undefined;
}
