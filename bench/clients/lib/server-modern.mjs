#!/usr/bin/env node
// The era benchmark server: the official SDK v2 server, speaking MCP 2026-07-28 and the classic handshake, over stdio.
//
// It is @modelcontextprotocol/server 2.4.0, which speaks MCP 2026-07-28 and, through its legacy leg, the classic
// initialize handshake, with `echo` (and `era`, which answers the protocol revision a request came in, or `classic`).
//
//   node server-modern.mjs [--max-lifetime ms]
//
// The same server answers both eras, so a driver's modern/classic ratio is the protocol's cost on it.
// It stops by itself: when stdin ends, when the parent goes away, on SIGTERM, and after --max-lifetime.
import { McpServer, fromJsonSchema } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

// Plain JSON Schemas (the SDK's own `fromJsonSchema`): the bench's zod is 3.x, the SDK's is 4.
const echoInput = fromJsonSchema({
  type: 'object',
  properties: { message: { type: 'string' } },
  required: ['message'],
});

const args = process.argv.slice(2);
const i = args.indexOf('--max-lifetime');
const maxLifetime = i === -1 ? 10 * 60_000 : Number(args[i + 1]);
const stop = (code = 0) => process.exit(code);
setTimeout(() => stop(3), maxLifetime).unref();
const parent = process.ppid;
setInterval(() => process.ppid !== parent && stop(), 250).unref();
for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.once(s, () => stop());
process.stdout.on('error', () => stop());

function factory() {
  const server = new McpServer({ name: 'mcpc-bench-modern', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('echo', { description: 'Echoes its message', inputSchema: echoInput }, async ({ message }) => ({
    content: [{ type: 'text', text: message }],
  }));
  // A second tool: every trial checks that tools/list gave at least echo and blob.
  server.registerTool('blob', { description: 'Unused in the era scenario', inputSchema: echoInput }, async () => ({
    content: [{ type: 'text', text: '' }],
  }));
  // Which era a request came in: the trial asks once before measuring, so a client that fell back to
  // the other era cannot be counted in the wrong column.
  server.registerTool('era', { description: 'The era of this request' }, async (ctx) => ({
    content: [{ type: 'text', text: ctx.mcpReq.envelope?.['io.modelcontextprotocol/protocolVersion'] ?? 'classic' }],
  }));
  return server;
}
serveStdio(factory, { onerror: (e) => console.error('[bench-modern]', e.message) });
process.stdin.once('end', () => stop());
