// mcpc without undici: the same client, with the Streamable HTTP transport on Node's own `node:http`
// (`httpClient: 'node'`), which is what a minimal install (no undici) runs on. stdio is the same as
// the mcpc driver's.
import { connect as mcpcConnect, streamableHttp } from '@mcpc/client';
import '@mcpc/transport-stdio';
import '@mcpc/transport-streamable-http';
// The transport loads node:http on its first request; loaded here, out of the timed part.
import 'node:http';
import 'node:https';

export const label = 'mcpc (node:http)';

/** @param {{ transport: 'stdio', command: string, args: string[] } | { transport: 'http', url: string }} target */
export async function connect(target) {
  const options = { clientInfo: { name: 'mcpc-bench', version: '1.0.0' }, name: 'bench', timeout: 120_000 };
  // The transport option passes through the client's server config to the transport as given.
  const client =
    target.transport === 'stdio'
      ? await mcpcConnect([target.command, ...target.args], options)
      : await mcpcConnect(streamableHttp({ url: target.url, name: 'bench', httpClient: 'node' }), options);
  return {
    async listTools() {
      client.clearCache('tools');
      return client.listTools();
    },
    callTool: (name, args) => client.callTool(name, args),
    close: () => client.close(),
  };
}
