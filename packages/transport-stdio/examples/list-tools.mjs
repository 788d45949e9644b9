// @ts-check
// Starts an MCP server over stdio, initializes, lists its tools and calls one, then shuts it down.
//
//   node packages/transport-stdio/examples/list-tools.mjs [command args…]
//   (default: npx -y @modelcontextprotocol/server-everything; build first: npx tsc -p tsconfig.build.json in
//   packages/jsonrpc and packages/transport-stdio)
//
// Run it from the repository root. The server inherits the working directory, and inside
// packages/transport-stdio npx finds server-everything among the fixtures' dependencies, tries that
// copy, and fails on its missing bin link ("mcp-server-everything: not found").
import { JsonRpcEngine } from '@mcpc/jsonrpc';
import { StdioTransport } from '@mcpc/transport-stdio';

const [command = 'npx', ...args] =
  process.argv.length > 2 ? process.argv.slice(2) : ['npx', '-y', '@modelcontextprotocol/server-everything'];

const transport = new StdioTransport({
  command,
  args,
  onStderr: (text) => process.stderr.write(`[server] ${text}`),
});
// The first run of npx downloads the server, hence the generous timeout.
const engine = new JsonRpcEngine(transport, { requestTimeout: 120_000 });
await engine.start();
try {
  /** @type {{ serverInfo: { name: string, version: string }, protocolVersion: string }} */
  const init = await engine.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'mcpc-example', version: '1.0.0' },
  });
  console.log(
    `connected to ${init.serverInfo.name} ${init.serverInfo.version} (protocol ${init.protocolVersion}), pid ${transport.pid}`,
  );
  await engine.notify('notifications/initialized');

  /** @type {{ tools: { name: string, description?: string }[] }} */
  const { tools } = await engine.request('tools/list', {});
  for (const tool of tools) console.log(`- ${tool.name}: ${tool.description ?? ''}`);

  if (tools.some((tool) => tool.name === 'echo')) {
    /** @type {{ content: { type: string, text?: string }[] }} */
    const result = await engine.request('tools/call', { name: 'echo', arguments: { message: 'hello from mcpc' } });
    console.log(result.content[0].text);
  }
} finally {
  await engine.close(); // stdin closed, then SIGTERM, then SIGKILL, to the whole process tree
}
