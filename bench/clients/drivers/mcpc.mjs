// mcpc as the default install runs it: @mcpc/client through its public API, over stdio and Streamable HTTP.
//
// Its Streamable HTTP transport runs on Node's own `node:http` (`httpClient: 'node'`: what the transport's `'auto'`
// picks when undici is not installed, as in a plain `npm install`).
import * as mcpc from '@mcpc/client';
// The client loads a transport on first connect; importing them here keeps module loading out of the
// timed part, as for every other driver (cold import is measured on its own, scenario 7).
import '@mcpc/transport-stdio';
import '@mcpc/transport-streamable-http';
import 'node:http';

export const label = 'mcpc';

/**
 * @param {{ transport: 'stdio', command: string, args: string[], era?: 'modern' | 'classic' } | { transport: 'http', url: string }} target
 * `era` pins the protocol (`'modern'`: MCP 2026-07-28, `'classic'`: the initialize handshake); without
 * it the client's own default (`'auto'`: a `server/discover` probe, then the fallback) runs.
 *
 * `tracing: false`: the default install has no `@opentelemetry/api`, so its client installs no request
 * observer; in this workspace the API resolves (a devDependency of packages/client), and `false` is the
 * same per-call path as its absence (scenario 9 measures both, and the API's no-op tracer, side by side).
 */
export function connect(target, httpClient = 'node') {
  return connectWith(mcpc, target, { httpClient, tracing: false });
}

/**
 * Connects with a given copy of `@mcpc/client` (the workspace's, or one installed elsewhere) and client options.
 * @param {typeof mcpc} lib
 * @param {{ httpClient?: string, tracing?: false | object }} [how] `tracing` undefined: the client's default.
 */
export async function connectWith(lib, target, { httpClient, tracing } = {}) {
  const options = {
    clientInfo: { name: 'mcpc-bench', version: '1.0.0' },
    timeout: 120_000,
    ...(tracing !== undefined && { tracing }),
  };
  const protocol = target.era === undefined ? undefined : target.era === 'modern' ? 'modern' : 'legacy';
  const config =
    target.transport === 'stdio'
      ? lib.stdio({ command: target.command, args: target.args, name: 'bench', ...(protocol && { protocol }) })
      : lib.streamableHttp({ url: target.url, name: 'bench', ...(httpClient && { httpClient }) });
  const client = await lib.connect(config, options);
  return {
    async listTools() {
      client.clearCache('tools'); // every list is a real tools/list, with the client's checks of each definition
      return client.listTools();
    },
    callTool: (name, args) => client.callTool(name, args),
    close: () => client.close(),
  };
}
