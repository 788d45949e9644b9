// The MCP semantic conventions' names for a request: span name, attributes, and how a failure is recorded on a span.
import type { JsonRpcParams } from '@mcpc/jsonrpc';
import type { Attributes, Span } from '@opentelemetry/api';

const HTTP_KINDS = new Set(['streamable-http', 'http', 'sse']);

/** The attributes fixed for the connection: `network.transport`, and `server.address` / `server.port` for HTTP. */
export function transportAttributes(kind: string, label: string): Attributes {
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
export function requestAttributes(method: string, params: JsonRpcParams | undefined, attributes: Attributes): string {
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

/**
 * Records a failure on the span (status, `error.type`, `rpc.response.status_code` for a JSON-RPC error, the
 * exception), those two attributes also in `attributes` when given (the metric point's). `error.type` is the
 * JSON-RPC code, else the typed code (MCPC_…), else the error's name.
 */
export function recordFailure(span: Span, error: Error, status: number, attributes?: Attributes): void {
  const rpcCode = (error as { rpcCode?: unknown }).rpcCode;
  const code = (error as { code?: unknown }).code;
  let type: string;
  if (typeof rpcCode === 'number') {
    type = String(rpcCode);
    span.setAttribute('rpc.response.status_code', type);
    if (attributes !== undefined) attributes['rpc.response.status_code'] = type;
  } else {
    type = typeof code === 'string' ? code : error.name;
  }
  span.setAttribute('error.type', type);
  if (attributes !== undefined) attributes['error.type'] = type;
  // The SDK records the error's `code` as `exception.type`: the typed code (MCPC_…) the caller can match.
  span.recordException(error);
  span.setStatus({ code: status, message: typeof code === 'string' ? code : error.name });
}

/** The task status a result reports (a task-augmented call's creation, a `tasks/get` answer), if any. */
export function taskStatusOf(method: string, result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const r = result as Record<string, unknown>;
  let status: unknown;
  if (method === 'tools/call') {
    // MCP 2026-07-28 answers `resultType: "task"` with the task inline; 2025-11-25 a CreateTaskResult `{ task }`.
    if (r.resultType === 'task') status = r.status;
    else if (typeof r.task === 'object' && r.task !== null && r.content === undefined)
      status = (r.task as Record<string, unknown>).status;
  } else if (method === 'tasks/get' || method === 'tasks/cancel' || method === 'tasks/update') {
    status = r.status;
  }
  return typeof status === 'string' && TASK_STATUSES.has(status) ? status : undefined;
}

// The statuses both revisions define: anything else is not put on a span (a server chooses the string).
const TASK_STATUSES: ReadonlySet<string> = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);
