// mcpc as the default install runs it: @mcpc/client through its public API, over stdio and Streamable HTTP.
//
// Its Streamable HTTP transport runs on Node's own `node:http` (`httpClient: 'node'`: what the transport's `'auto'`
// picks when undici is not installed, as in a plain `npm install`).
import { connect as mcpcConnect, stdio, streamableHttp } from '@mcpc/client';
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
 */
export async function connect(target, httpClient = 'node') {
  const options = { clientInfo: { name: 'mcpc-bench', version: '1.0.0' }, timeout: 120_000 };
  const protocol = target.era === undefined ? undefined : target.era === 'modern' ? 'modern' : 'legacy';
  const config =
    target.transport === 'stdio'
      ? stdio({ command: target.command, args: target.args, name: 'bench', ...(protocol && { protocol }) })
      : streamableHttp({ url: target.url, name: 'bench', ...(httpClient && { httpClient }) });
  const client = await mcpcConnect(config, options);
  return {
    async listTools() {
      client.clearCache('tools'); // every list is a real tools/list, with the client's checks of each definition
      return client.listTools();
    },
    callTool: (name, args) => client.callTool(name, args),
    close: () => client.close(),
  };
}
