// `HeaderParams`: the `x-mcp-header` validation and the `Mcp-Param-*` headers of a call, for hosts.
//
// It is the seed's MCPClient::HeaderParams.
import { paramHeaders, readParamHeaders, type ParamHeader } from './param-headers.js';

export type { ParamHeader };

/** What a tool's `x-mcp-header` annotations are: usable (the headers they map), or why the tool is invalid. */
export type HeaderParamsCheck =
  | { readonly valid: true; readonly headers: readonly ParamHeader[] }
  | { readonly valid: false; readonly reason: string };

/**
 * The validation the client applies to every tool of a 2026-07-28 server (a tool whose annotations are
 * invalid is left out of `listTools()` with a warning), and the headers it sends on `tools/call`, for a
 * host that builds requests itself or shows why a tool was left out.
 */
export const HeaderParams = Object.freeze({
  /**
   * Checks an input schema's `x-mcp-header` annotations: non-empty HTTP tokens, unique (case-insensitive),
   * on string / integer / boolean properties reachable through `properties` alone. Bounded in the work a
   * hostile schema can cause.
   */
  validate(inputSchema: unknown): HeaderParamsCheck {
    const read = readParamHeaders(inputSchema);
    return typeof read === 'string' ? { valid: false, reason: read } : { valid: true, headers: read };
  },
  /**
   * The `Mcp-Param-*` headers (lower-cased names) a call with `args` carries for that schema; throws a
   * `TypeError` for a schema `validate` refuses.
   */
  headersFor(inputSchema: unknown, args: Readonly<Record<string, unknown>> | undefined): Record<string, string> {
    const read = readParamHeaders(inputSchema);
    if (typeof read === 'string') throw new TypeError(`invalid x-mcp-header annotations: ${read}`);
    return paramHeaders(read, args) ?? {};
  },
});
