#!/usr/bin/env node
// server.mjs: the playground's embedded demo MCP server (tools, prompts, resources, tasks, an MCP App, OAuth).
//
//   node server.mjs stdio|http [--era both|modern|legacy] [--oauth]
//
// Built on the official TypeScript SDK v2 server (@modelcontextprotocol/server 2.4.0): one factory
// (definition.mjs) serves MCP 2026-07-28 (server/discover, per-request _meta, input_required rounds,
// subscriptions/listen) and, through the SDK's legacy leg, the 2025-11-25 initialize handshake, where the SDK's
// shim turns the same input_required returns into real server→client requests (elicitation/create,
// sampling/createMessage). Each feature is a table of its own: tools.mjs, prompts.mjs, resources.mjs, and the
// tasks extension (io.modelcontextprotocol/tasks, 2026-07-28) in tasks.mjs, with @modelcontextprotocol/ext-tasks
// 0.2.2's wire schemas and its own in-memory task table (neither package ships a task runtime). This module
// reads the flags and serves: stdio here, HTTP in http.mjs. `http` prints `listening <url>` (the /mcp
// endpoint); `--oauth` also serves /mcp-protected behind bearer tokens of the oidc-provider fixture
// (tooling/fixtures/oauth), started as a child, and prints `authorization-server <issuer>`. The tools, resources
// and prompts are listed in README.md.
import { parseFlags } from '../../../tooling/fixtures/http/_common.mjs';
import { build } from './definition.mjs';
import { serveHttp } from './http.mjs';
import { startCounter, track } from './state.mjs';

const USAGE = 'usage: server.mjs stdio|http [--era both|modern|legacy] [--oauth]';
const flags = parseFlags(process.argv.slice(2), { era: 'string', oauth: 'boolean' }, USAGE);
const mode = flags._[0];
const era = flags.era ?? 'both';
if ((mode !== 'stdio' && mode !== 'http') || !['both', 'modern', 'legacy'].includes(era)) {
  console.error(USAGE);
  process.exit(2);
}
if (flags.oauth && mode !== 'http') {
  console.error('--oauth needs http');
  process.exit(2);
}

startCounter();

if (mode === 'stdio') {
  const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
  if (era === 'legacy') {
    // Legacy only: a hand-wired 2025-era connection (server/discover is not answered as a modern server).
    const { StdioServerTransport } = await import('@modelcontextprotocol/server/stdio');
    const server = track(build('legacy'), 'legacy');
    await server.connect(new StdioServerTransport());
  } else {
    serveStdio((ctx) => track(build(ctx.era), ctx.era), {
      legacy: era === 'modern' ? 'reject' : 'serve',
      onerror: (e) => console.error('[demo]', e.message),
    });
  }
  process.stdin.once('end', () => process.exit(0));
} else {
  await serveHttp({ era, oauth: flags.oauth });
}
