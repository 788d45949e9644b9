// Capabilities: the server capability each request needs, and the client capabilities the host's handlers imply.
import type { ClientCapabilities, ServerCapabilities } from '../types/protocol.js';
import type { ElicitationMode } from '../types/host.js';

/**
 * The server capability each request needs (the lifecycle forbids using one that was not negotiated).
 * Requests not listed (`ping`, vendor methods) need none.
 */
const METHOD_CAPABILITY: ReadonlyMap<string, string> = new Map([
  ['tools/list', 'tools'],
  ['tools/call', 'tools'],
  ['prompts/list', 'prompts'],
  ['prompts/get', 'prompts'],
  ['resources/list', 'resources'],
  ['resources/templates/list', 'resources'],
  ['resources/read', 'resources'],
  ['resources/subscribe', 'resources.subscribe'],
  ['resources/unsubscribe', 'resources.subscribe'],
  ['logging/setLevel', 'logging'],
  ['completion/complete', 'completions'],
]);
// Task methods are gated by the task module: their capability depends on the revision (2025-11-25's
// `tasks.*`, MCP 2026-07-28's tasks extension).

export const requiredCapability = (method: string): string | undefined => METHOD_CAPABILITY.get(method);

/** Whether `capabilities` offers the capability at `path`: present and not `false` at every step. */
export function hasCapability(capabilities: ServerCapabilities, path: string): boolean {
  let node: unknown = capabilities;
  for (const key of path.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return false;
    node = (node as Record<string, unknown>)[key];
    if (node === false || node === null || node === undefined) return false;
  }
  return true;
}

export interface HostRegistrations {
  readonly elicitation: boolean;
  readonly elicitationModes: readonly ElicitationMode[];
  readonly sampling: boolean;
  readonly samplingSupportsTools: boolean;
  readonly roots: boolean;
}

/**
 * The client capabilities a session can honour when the server has no channel to send requests on
 * (plain JSON HTTP in the classic era): roots, sampling and elicitation are served only through server
 * requests, so declaring them would promise what can never be delivered.
 */
export function withoutServerRequests(capabilities: ClientCapabilities): ClientCapabilities {
  const { roots: _roots, sampling: _sampling, elicitation: _elicitation, ...rest } = capabilities;
  return rest;
}

/** The client capabilities to declare: exactly what the host registered, nothing hard-coded. */
export function deriveClientCapabilities(host: HostRegistrations): ClientCapabilities {
  const capabilities: { -readonly [K in keyof ClientCapabilities]: ClientCapabilities[K] } = {};
  if (host.roots) capabilities.roots = { listChanged: true };
  if (host.sampling) capabilities.sampling = host.samplingSupportsTools ? { tools: {} } : {};
  if (host.elicitation && host.elicitationModes.length > 0) {
    const modes: { form?: Record<string, unknown>; url?: Record<string, unknown> } = {};
    for (const mode of host.elicitationModes) modes[mode] = {};
    capabilities.elicitation = modes;
  }
  return capabilities;
}
