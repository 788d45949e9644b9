// The demo server over HTTP: the 2026-07-28 handler, 2025-11-25 sessions, CORS, and /mcp-protected with --oauth.
//
// The modern leg is the SDK's `createMcpHandler` (per-request instances) and the legacy leg a sessionful
// `WebStandardStreamableHTTPServerTransport` routed with `isLegacyRequest` (the SDK's documented pattern), so
// 2025-11-25 clients get sessions, the GET stream, resources/subscribe updates, elicitation and sampling.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isLegacyRequest,
} from '@modelcontextprotocol/server';
import { exitWithParent, listenLoopback } from '../../../tooling/fixtures/http/_common.mjs';
import { build } from './definition.mjs';
import { state, track } from './state.mjs';

/**
 * Serves `/mcp` on a free loopback port for `era` (`both`, `modern` or `legacy`), and with `oauth` also the
 * protected endpoint (oauth.mjs); prints `listening <url>` (and `authorization-server <issuer>`).
 */
export async function serveHttp({ era, oauth: withOAuth }) {
  const modern = createMcpHandler((ctx) => build(ctx.era), { legacy: 'reject', onerror: () => {} });
  state.notifier = modern.notify;
  /** 2025-11-25 sessions: id → transport. */
  const sessions = new Map();
  const MAX_SESSIONS = 256;
  async function legacyLeg(request) {
    const id = request.headers.get('mcp-session-id');
    if (id) {
      const transport = sessions.get(id);
      if (!transport)
        return Response.json(
          { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null },
          { status: 404 },
        );
      return transport.handleRequest(request);
    }
    if (request.method !== 'POST')
      return Response.json(
        { jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null },
        { status: 400 },
      );
    if (sessions.size >= MAX_SESSIONS) {
      const [oldest] = sessions.keys();
      await sessions
        .get(oldest)
        ?.close()
        .catch(() => {});
      sessions.delete(oldest);
    }
    const server = build('legacy');
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        sessions.set(sid, transport);
        track(server, 'legacy');
      },
      onsessionclosed: (sid) => {
        sessions.delete(sid);
        state.live.delete(server);
      },
    });
    await server.connect(transport);
    return transport.handleRequest(request);
  }
  async function mcp(request) {
    if (era === 'legacy') return legacyLeg(request);
    if (era === 'both' && (await isLegacyRequest(request))) return legacyLeg(request);
    return modern.fetch(request);
  }
  const oauth = withOAuth ? await import('./oauth.mjs') : undefined;
  const http = createServer(async (req, res) => {
    // A public MCP server that browsers may use allows any origin (CORS), and exposes what a client reads:
    // the session id, the protocol version and the OAuth challenge. Credentials are bearer tokens, never cookies.
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-expose-headers', 'mcp-session-id, mcp-protocol-version, www-authenticate');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
        'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
        'access-control-max-age': '600',
      });
      return void res.end();
    }
    try {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const body = Buffer.concat(chunks);
      const controller = new AbortController();
      res.once('close', () => controller.abort());
      const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
      const request = new Request(url, {
        method: req.method,
        headers: Object.entries(req.headers).flatMap(([k, v]) =>
          Array.isArray(v) ? v.map((x) => [k, x]) : v === undefined ? [] : [[k, v]],
        ),
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
        signal: controller.signal,
      });
      let response;
      if (url.pathname === '/mcp') response = await mcp(request);
      else if (oauth) response = (await oauth.handle(request, url, mcp)) ?? new Response('not found', { status: 404 });
      else response = new Response('not found', { status: 404 });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body === null) return res.end();
      Readable.fromWeb(response.body)
        .on('error', () => res.destroy())
        .pipe(res);
    } catch (e) {
      console.error('[demo] request failed:', e?.message ?? e);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('internal error');
    }
  });
  if (oauth) {
    // The authorization server first: its issuer is printed, and the protected resource names it.
    await oauth.start();
  }
  const { origin } = await listenLoopback(http, '/mcp');
  if (oauth) {
    oauth.setOrigin(origin);
    process.stdout.write(`authorization-server ${oauth.issuer()}\n`);
  }
  exitWithParent('demo', async () => {
    await modern.close().catch(() => {});
    for (const transport of sessions.values()) await transport.close().catch(() => {});
    await oauth?.stop();
    http.close();
  });
}
