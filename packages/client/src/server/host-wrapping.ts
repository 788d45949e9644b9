// The host side as one server sees it: no server requests over a one-way transport, and deprecated uses noted.
//
// The deprecated uses noted are those that only a server's request reveals.
import { escapeForLog, safeLog, type Logger, type Transport } from '@mcpc/jsonrpc';
import type { DeprecatedFeature } from '../deprecations.js';
import type { ServerConfig } from '../server-configs.js';
import { withoutServerRequests } from './capabilities.js';
import type { HostBridge } from './era.js';

/**
 * The host side of a classic session. Over a transport the server cannot send requests on (plain JSON
 * HTTP), roots, sampling and elicitation are left out: they reach the host only as server requests.
 */
export function hostForClassic(
  server: string,
  host: HostBridge,
  transport: Transport,
  config: ServerConfig,
  logger: Logger,
): HostBridge {
  if (transport.serverRequests !== false && config.kind !== 'http') return host;
  const capabilities = withoutServerRequests(host.capabilities);
  if (Object.keys(capabilities).length === Object.keys(host.capabilities).length) return host;
  safeLog(
    logger,
    'debug',
    `[mcpc] server "${escapeForLog(server, 100)}": its transport (${config.kind}) cannot carry server requests, so roots, sampling and elicitation are not declared to it`,
  );
  return { ...host, capabilities, elicit: undefined, sample: undefined, listRoots: undefined };
}

/**
 * The host side as this server sees it, noting the deprecated uses only a server's request reveals
 * (answering with roots, a sampling request's `includeContext`) through `note`, against the session's revision.
 */
export function noticing(host: HostBridge, note: (feature: DeprecatedFeature) => void): HostBridge {
  const { listRoots, sample } = host;
  return {
    ...host,
    listRoots:
      listRoots &&
      ((context) => {
        const answer = listRoots(context);
        // An empty answer exposes nothing deprecated: no notice for it.
        const roots = (answer as { roots?: unknown } | undefined)?.roots;
        if (Array.isArray(roots) && roots.length > 0) note('roots');
        return answer;
      }),
    sample:
      sample &&
      ((params, context) => {
        const include = params?.includeContext;
        if (include === 'thisServer' || include === 'allServers') note('sampling-include-context');
        return sample(params, context);
      }),
  };
}
