// The official TypeScript SDK v2 client (@modelcontextprotocol/client 2.4.0).
//
// It runs in its default (legacy, initialize-handshake) version negotiation, which is what an SDK 1.x server speaks; in
// the era scenario it is pinned to MCP 2026-07-28 (`versionNegotiation: { mode: { pin } }`) or to the legacy handshake.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

export const label = 'sdk v2';

// The SDK's stdio transport refuses a message over 10 MiB by default: raised (like mcpc's own
// bound) so the 16 MiB blob scenario can run.
const MAX_MESSAGE = 64 * 1024 * 1024;
/** @param {{ transport: 'stdio', command: string, args: string[], era?: 'modern' | 'classic' } | { transport: 'http', url: string }} target */
export async function connect(target) {
  const versionNegotiation =
    target.era === 'modern'
      ? { mode: { pin: '2026-07-28' } }
      : target.era === 'classic'
        ? { mode: 'legacy' }
        : undefined;
  const client = new Client({ name: 'mcpc-bench', version: '1.0.0' }, versionNegotiation && { versionNegotiation });
  const transport =
    target.transport === 'stdio'
      ? new StdioClientTransport({
          command: target.command,
          args: target.args,
          stderr: 'inherit',
          maxBufferSize: MAX_MESSAGE,
        })
      : new StreamableHTTPClientTransport(new URL(target.url));
  await client.connect(transport, { timeout: 120_000 });
  return {
    // 'refresh': the v2 client caches lists; every list here is a real tools/list.
    listTools: async () => (await client.listTools(undefined, { cacheMode: 'refresh', timeout: 120_000 })).tools,
    callTool: (name, args) => client.callTool({ name, arguments: args }, { timeout: 120_000 }),
    close: () => client.close(),
  };
}
