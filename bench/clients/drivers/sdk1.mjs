// The official TypeScript SDK v1 client (@modelcontextprotocol/sdk 1.32.2).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const label = 'sdk v1';
// The SDK's stdio transport refuses a message over 10 MiB by default: raised (like mcpc's own
// bound) so the 16 MiB blob scenario can run.
const MAX_MESSAGE = 64 * 1024 * 1024;
const options = { timeout: 120_000 };

/** @param {{ transport: 'stdio', command: string, args: string[] } | { transport: 'http', url: string }} target */
export async function connect(target) {
  const client = new Client({ name: 'mcpc-bench', version: '1.0.0' });
  const transport =
    target.transport === 'stdio'
      ? new StdioClientTransport({
          command: target.command,
          args: target.args,
          stderr: 'inherit',
          maxBufferSize: MAX_MESSAGE,
        })
      : new StreamableHTTPClientTransport(new URL(target.url));
  await client.connect(transport, options);
  return {
    listTools: async () => (await client.listTools(undefined, options)).tools,
    callTool: (name, args) => client.callTool({ name, arguments: args }, undefined, options),
    close: () => client.close(),
  };
}
