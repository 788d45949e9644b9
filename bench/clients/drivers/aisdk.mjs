// The Vercel AI SDK's MCP client (@ai-sdk/mcp 2.0.99), with its stdio and HTTP transports.
//
// By default it probes `server/discover` and speaks MCP 2026-07-28 where the server does; in the era scenario the
// classic era is `protocolVersionDiscovery: false` (the initialize handshake), the modern one its default.
import { createMCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport as StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';

export const label = 'ai-sdk';

/** @param {{ transport: 'stdio', command: string, args: string[], era?: 'modern' | 'classic' } | { transport: 'http', url: string }} target */
export async function connect(target) {
  const transport =
    target.transport === 'stdio'
      ? new StdioMCPTransport({ command: target.command, args: target.args, stderr: 'inherit' })
      : { type: 'http', url: target.url };
  const client = await createMCPClient({
    transport,
    clientName: 'mcpc-bench',
    version: '1.0.0',
    ...(target.era === 'classic' && { protocolVersionDiscovery: false }),
  });

  return {
    listTools: async () => (await client.listTools()).tools,
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    close: () => client.close(),
  };
}
