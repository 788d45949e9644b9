// mcpc: @mcpc/client through its public API, with its stdio and Streamable HTTP transports, the
// latter on undici (installed in this workspace; the transport's default when it is installed).
import { connect as mcpcConnect } from '@mcpc/client';
// The client loads a transport on first connect, and the HTTP transport loads undici on its first
// request; importing them here keeps module loading out of the timed part, as for every other driver
// (cold import time is measured on its own, scenario 7).
import '@mcpc/transport-stdio';
import '@mcpc/transport-streamable-http';
import 'undici';

export const label = 'mcpc';

/** @param {{ transport: 'stdio', command: string, args: string[] } | { transport: 'http', url: string }} target */
export async function connect(target) {
  const options = { clientInfo: { name: 'mcpc-bench', version: '1.0.0' }, name: 'bench', timeout: 120_000 };
  const client =
    target.transport === 'stdio'
      ? await mcpcConnect([target.command, ...target.args], options)
      : await mcpcConnect(target.url, options);
  return {
    async listTools() {
      client.clearCache('tools'); // every list is a real tools/list, with the client's checks of each definition
      return client.listTools();
    },
    callTool: (name, args) => client.callTool(name, args),
    close: () => client.close(),
  };
}
