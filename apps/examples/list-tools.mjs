// Connects to a real MCP server over stdio and prints its tools.
//
//   node list-tools.mjs                      the installed @modelcontextprotocol/server-everything
//   node list-tools.mjs npx -y some-server   any stdio server (or an http(s) URL)

// @ts-check
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { connect } from '@mcpc/client';

const require = createRequire(import.meta.url);
const everything = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);
const given = process.argv.slice(2);
const target = given.length === 0 ? [process.execPath, everything, 'stdio'] : given.length === 1 ? given[0] : given;

const client = await connect(target, {
  clientInfo: { name: 'mcpc-example', version: '0.1.0' },
  requestTimeout: 30_000,
});
try {
  for (const server of client.servers) {
    console.log(`${server.serverInfo.name} ${server.serverInfo.version}, protocol ${server.protocolVersion}`);
  }
  for (const tool of await client.listTools()) {
    console.log(`  ${tool.name.padEnd(32)} ${(tool.description ?? '').split('\n')[0].slice(0, 80)}`);
  }
} finally {
  await client.close();
}
