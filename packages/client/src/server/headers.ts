// The MCP request headers mirrored from a request (`Mcp-Method`, `Mcp-Name`), with their value encoding.
import type { JsonRpcParams } from '@mcpc/jsonrpc';

// Visible ASCII and space (RFC 9110 field values, less tab: a tab is legal but invites trouble).
const SAFE = /^[\x20-\x7e]*$/;
const SENTINEL = /^=\?base64\?.*\?=$/s;
const UTF8 = new TextEncoder();

/**
 * A value as an HTTP header may carry it (MCP 2026-07-28 "Value Encoding"): as is when it is plain
 * visible ASCII without leading or trailing whitespace, otherwise — and whenever it would read as the
 * sentinel itself — as `=?base64?…?=` of its UTF-8 bytes.
 */
export function encodeHeaderValue(value: string): string {
  if (SAFE.test(value) && value.trim() === value && !SENTINEL.test(value)) return value;
  // TextEncoder and btoa, not Buffer: the root entry loads outside Node too.
  let binary = '';
  for (const byte of UTF8.encode(value)) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}

/** The request field `Mcp-Name` mirrors, for the methods that have one. */
function nameOf(method: string, params: JsonRpcParams | undefined): unknown {
  if (method === 'tools/call' || method === 'prompts/get') return params?.name;
  if (method === 'resources/read') return params?.uri;
  // The tasks extension: intermediaries route a task's requests to the instance holding it.
  if (method === 'tasks/get' || method === 'tasks/update' || method === 'tasks/cancel') return params?.taskId;
  return undefined;
}

/**
 * The standard request headers of the stateless HTTP binding — `MCP-Protocol-Version` (equal to the
 * `_meta` revision), `Mcp-Method`, and `Mcp-Name` where the method has a name — plus `extra` (the
 * `Mcp-Param-*` headers of a tools/call). Names are lower-case, as the transport keys them.
 */
export function requestHeaders(
  version: string,
  method: string,
  params: JsonRpcParams | undefined,
  extra: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {
    ...extra,
    'mcp-protocol-version': version,
    'mcp-method': encodeHeaderValue(method),
  };
  const name = nameOf(method, params);
  if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
  return headers;
}
