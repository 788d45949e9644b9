#!/usr/bin/env node
// The benchmark server: the official SDK's low-level `Server`, with `echo`, `blob` and N filler tools.
//
// The SDK is @modelcontextprotocol/sdk 1.32.2; it serves over stdio or Streamable HTTP on 127.0.0.1.
//
//   node server.mjs --transport stdio [--tools N] [--max-lifetime ms]
//   node server.mjs --transport http  [--json] [--tools N] [--max-lifetime ms]
//        prints `listening http://127.0.0.1:<port>/mcp` on stdout once ready.
//
// HTTP runs in session mode, one Server and transport per session. By default each POST is answered
// with an SSE stream, as the SDK's server does out of the box (what a user's client meets); `--json`
// turns on `enableJsonResponse` (a plain JSON body), the second, labelled variant.
//
// It stops by itself: when stdin (a pipe from the parent) ends, when the parent process goes away, on
// SIGTERM/SIGINT, and after --max-lifetime ms (default 10 minutes) whatever happens.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { fstatSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
const transportKind = flag('transport', 'stdio');
const fillerCount = Number(flag('tools', '0'));
const jsonResponses = args.includes('--json');
const maxLifetime = Number(flag('max-lifetime', String(10 * 60_000)));
const MAX_BLOB = 64 * 1024 * 1024;
if (
  !['stdio', 'http'].includes(transportKind) ||
  !Number.isInteger(fillerCount) ||
  fillerCount < 0 ||
  !(maxLifetime > 0)
) {
  console.error('usage: server.mjs --transport stdio|http [--json] [--tools N] [--max-lifetime ms]');
  process.exit(2);
}

// ---------- stopping by itself ----------
let stopping = false;
function stop(why, code = 0) {
  if (stopping) return;
  stopping = true;
  if (process.env.BENCH_SERVER_DEBUG) console.error(`[bench-server ${process.pid}] exiting: ${why}`);
  process.exit(code);
}
setTimeout(() => stop(`max lifetime ${maxLifetime} ms`, 3), maxLifetime).unref();
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop(`parent ${parent} is gone`);
}, 250).unref();
process.once('SIGTERM', () => stop('SIGTERM'));
process.once('SIGINT', () => stop('SIGINT'));
process.once('SIGHUP', () => stop('SIGHUP'));
process.stdout.on('error', () => stop('stdout closed'));

// ---------- tools ----------
const echoTool = {
  name: 'echo',
  description: 'Returns the message it is given.',
  inputSchema: {
    type: 'object',
    properties: { message: { type: 'string', description: 'The text to echo back.' } },
    required: ['message'],
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};
const blobTool = {
  name: 'blob',
  description: 'Returns one text content block of exactly `bytes` ASCII bytes.',
  inputSchema: {
    type: 'object',
    properties: { bytes: { type: 'integer', minimum: 0, maximum: MAX_BLOB } },
    required: ['bytes'],
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};
/** A filler tool shaped like a real one: a description, a few typed and described properties. */
const filler = (i) => ({
  name: `filler_${String(i).padStart(4, '0')}`,
  title: `Filler ${i}`,
  description: `Filler tool number ${i}. Searches an imaginary catalogue for items matching a query and returns at most \`limit\` of them, optionally filtered by tags.`,
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What to look for.', minLength: 1 },
      limit: {
        type: 'integer',
        description: 'How many items to return at most.',
        minimum: 1,
        maximum: 100,
        default: 10,
      },
      tags: { type: 'array', description: 'Only items with all of these tags.', items: { type: 'string' } },
      sort: { type: 'string', enum: ['relevance', 'newest', 'oldest'] },
    },
    required: ['query'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
});
const tools = [echoTool, blobTool];
for (let i = 0; i < fillerCount; i++) tools.push(filler(i));
const listResult = { tools };

const blobs = new Map();
/** ASCII text of exactly n bytes (a repeating line pattern: no escaping needed in JSON). */
function blobText(n) {
  let text = blobs.get(n);
  if (text === undefined) {
    const line =
      'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 the quick brown fox jumps over.\n'.replace(
        '\n',
        ' ',
      );
    text = line.repeat(Math.ceil(n / line.length)).slice(0, n);
    blobs.clear(); // keep one
    blobs.set(n, text);
  }
  return text;
}

function makeServer() {
  const server = new Server({ name: 'mcpc-bench-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => listResult);
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const { name, arguments: a = {} } = request.params;
    if (name === 'echo') return { content: [{ type: 'text', text: String(a.message ?? '') }] };
    if (name === 'blob') {
      const n = Number(a.bytes);
      if (!Number.isInteger(n) || n < 0 || n > MAX_BLOB)
        return { isError: true, content: [{ type: 'text', text: `bytes must be an integer in 0..${MAX_BLOB}` }] };
      return { content: [{ type: 'text', text: blobText(n) }] };
    }
    if (name.startsWith('filler_')) return { content: [{ type: 'text', text: '[]' }] };
    return { isError: true, content: [{ type: 'text', text: `unknown tool ${name}` }] };
  });
  return server;
}

function stdinIsPipe() {
  try {
    const st = fstatSync(0);
    return st.isFIFO() || st.isSocket();
  } catch {
    return false;
  }
}

// ---------- stdio ----------
if (transportKind === 'stdio') {
  const server = makeServer();
  process.stdin.once('end', () => stop('stdin ended'));
  process.stdin.once('close', () => stop('stdin closed'));
  server.onclose = () => stop('transport closed');
  await server.connect(new StdioServerTransport());
} else {
  // ---------- Streamable HTTP, session mode, SSE answers (JSON ones with --json) ----------
  /** @type {Map<string, StreamableHTTPServerTransport>} */
  const sessions = new Map();
  const readBody = (req) =>
    new Promise((resolve, reject) => {
      const chunks = [];
      let size = 0;
      req.on('data', (c) => {
        size += c.length;
        if (size > 4 * 1024 * 1024) {
          reject(Object.assign(new Error('too large'), { status: 413 }));
          req.destroy();
        } else chunks.push(c);
      });
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });
  const fail = (res, status, code, message) => {
    if (res.headersSent) return res.end();
    res
      .writeHead(status, { 'content-type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
  };

  const http = createServer(async (req, res) => {
    try {
      const path = (req.url ?? '/').split('?')[0];
      if (path !== '/mcp') return fail(res, 404, -32000, 'not found');
      const sid = req.headers['mcp-session-id'];
      if (req.method === 'POST') {
        let body;
        try {
          body = JSON.parse(await readBody(req));
        } catch (e) {
          return fail(res, e?.status ?? 400, -32700, 'Parse error');
        }
        if (typeof sid === 'string') {
          const transport = sessions.get(sid);
          if (!transport) return fail(res, 404, -32001, 'Session not found');
          return await transport.handleRequest(req, res, body);
        }
        const messages = Array.isArray(body) ? body : [body];
        if (!messages.some((m) => isInitializeRequest(m)))
          return fail(res, 400, -32000, 'Bad Request: No valid session ID provided');
        const server = makeServer();
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          enableJsonResponse: jsonResponses,
          onsessioninitialized: (id) => sessions.set(id, transport),
          onsessionclosed: (id) => sessions.delete(id),
        });
        server.onclose = () => {
          if (transport.sessionId) sessions.delete(transport.sessionId);
        };
        await server.connect(transport);
        return await transport.handleRequest(req, res, body);
      }
      if (req.method === 'GET' || req.method === 'DELETE') {
        if (typeof sid !== 'string') return fail(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
        const transport = sessions.get(sid);
        if (!transport) return fail(res, 404, -32001, 'Session not found');
        return await transport.handleRequest(req, res);
      }
      res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
    } catch (e) {
      console.error('[bench-server] request failed:', e?.stack ?? e);
      fail(res, 500, -32603, 'Internal error');
    }
  });
  // No connection churn inside a trial: idle keep-alive connections stay open for a minute.
  http.keepAliveTimeout = 60_000;
  http.headersTimeout = 65_000;
  http.requestTimeout = 0;
  http.listen(0, '127.0.0.1', () => {
    const { port } = /** @type {import('node:net').AddressInfo} */ (http.address());
    process.stdout.write(`listening http://127.0.0.1:${port}/mcp\n`);
  });
  if (stdinIsPipe()) {
    process.stdin.on('data', () => {});
    process.stdin.once('end', () => stop('stdin ended'));
    process.stdin.once('close', () => stop('stdin closed'));
  }
}
