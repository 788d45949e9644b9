// Connects to a real MCP server over stdio and prints its tools.
//
//   node list-tools.mjs                      the installed @modelcontextprotocol/server-everything
//   node list-tools.mjs npx -y some-server   any stdio server
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { JsonRpcEngine } from '@mcpc/jsonrpc';
import { StdioTransport } from '@mcpc/transport-stdio';

const require = createRequire(import.meta.url);
const everything = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const [command, ...args] = process.argv.length > 2 ? process.argv.slice(2) : [process.execPath, everything, 'stdio'];

const transport = new StdioTransport({ command, args });
const engine = new JsonRpcEngine(transport, { requestTimeout: 30_000 });
await engine.start();
try {
  const init = await engine.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'mcpc-example', version: '0.1.0' },
  });
  await engine.notify('notifications/initialized');
  console.log(`${init.serverInfo.name} ${init.serverInfo.version}, protocol ${init.protocolVersion}`);
  const { tools } = await engine.request('tools/list');
  for (const tool of tools) console.log(`  ${tool.name.padEnd(32)} ${(tool.description ?? '').split('\n')[0].slice(0, 80)}`);
} finally {
  await engine.close();
}
