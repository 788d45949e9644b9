// URLs that are not MCP endpoints say what answered and what to do, with peer text escaped.
import { afterEach, describe, expect, it } from 'vitest';
import * as http from '@mcpc/http';
import { HttpError, ResponseStreamClosedError, UnauthorizedError } from '@mcpc/transport-streamable-http';
import * as streamable from '@mcpc/transport-streamable-http';
import { connectEngine, forEachHttpClient, json, startPeer, type Handler } from './http-peer.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const initialize = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } };

async function initializeAgainst(handler: Handler, path = '/mcp'): Promise<{ error: unknown; url: string }> {
  const peer = await startPeer(handler);
  cleanups.push(peer.close);
  const url = peer.url.replace(/\/mcp$/, path);
  const { engine } = await connectEngine(url, { listen: false });
  cleanups.push(() => engine.close());
  const error = await engine.request('initialize', initialize).catch((e: unknown) => e);
  return { error, url: url.replace(/\?.*$/, '') };
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

forEachHttpClient(() => {
  describe("a URL that is not an MCP endpoint, in the user's words", () => {
    it('a web page: says what answered and that the URL is not an MCP endpoint (HttpError, status 200, contentType)', async () => {
      const { error, url } = await initializeAgainst((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>Welcome</title>');
      });
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ code: 'MCPC_HTTP_ERROR', status: 200, contentType: 'text/html' });
      // Before: `the server answered with an unexpected content type "text/html"`.
      expect((error as Error).message).toBe(
        `${url} answered 200 text/html, not an MCP endpoint (expected application/json or text/event-stream) — check the URL`,
      );
    });

    it('a 404 page: names the status and says to check the URL, keeping the code the client falls back on', async () => {
      const { error, url } = await initializeAgainst((_req, res) => {
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end('<h1>Not Found</h1>');
      });
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ code: 'MCPC_HTTP_ERROR', status: 404, contentType: 'text/html' });
      // Before: `the server answered initialize with HTTP 404`.
      expect((error as Error).message).toBe(
        `${url} answered 404 Not Found (text/html) to initialize, not a JSON-RPC answer — check the URL`,
      );
    });

    it('a JSON API that answers something else: says the JSON was not the answer, not that a stream closed', async () => {
      const { error, url } = await initializeAgainst((_req, res) => json(res, 200, { status: 'ok', items: [] }));
      expect(error).toBeInstanceOf(ResponseStreamClosedError);
      expect(error).toMatchObject({ code: 'MCPC_RESPONSE_STREAM_CLOSED' });
      // Before: `the response stream of initialize closed before the result arrived: the response carried no answer`.
      expect((error as Error).message).toMatch(
        new RegExp(
          `^${escapeRe(url)} answered 200 application/json to initialize, but not with its JSON-RPC answer \\(.+\\) — is this an MCP endpoint\\? check the URL$`,
        ),
      );
    });

    it('401: says the server requires authorization and to pass `auth` (see @mcpc/oauth)', async () => {
      const { error, url } = await initializeAgainst((_req, res) => {
        res.writeHead(401, {
          'www-authenticate': 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"',
        });
        res.end();
      });
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect(error).toMatchObject({ code: 'MCPC_UNAUTHORIZED', status: 401 });
      // Before: `the server refused the request with HTTP 401: credentials are required`.
      expect((error as Error).message).toBe(
        `${url} answered 401 Unauthorized: this server requires authorization — pass \`auth\` (see @mcpc/oauth)`,
      );
    });

    it('peer text in a message is escaped and capped; the query of the URL (which may hold a key) is not shown', async () => {
      // U+202E (right-to-left override) as the UTF-8 bytes a client reads as latin1, then padding.
      const hostile = `text/html\u00e2\u0080\u00ae${'x'.repeat(400)}`;
      const { error } = await initializeAgainst((_req, res) => {
        res.writeHead(200, { 'content-type': hostile });
        res.end('<html>');
      }, '/mcp?api_key=SECRET');
      expect(error).toBeInstanceOf(HttpError);
      const message = (error as Error).message;
      expect(message).not.toContain('SECRET');
      expect(message).toContain('\\u0080');
      expect(message).not.toMatch(/[\u0080-\u009f\u202e]/);
      expect(message.length).toBeLessThan(400);
    });
  });
});

describe('the HTTP errors, exported from this package', () => {
  it('are the classes of @mcpc/http (moved there; user code that imports them from here keeps working)', () => {
    for (const name of [
      'HttpError',
      'UnauthorizedError',
      'TransientServerError',
      'NetworkError',
      'ResponseTooLargeError',
      'ResponseStreamClosedError',
      'HttpClientUnavailableError',
      'ProxyConfigError',
      'ProxyConnectError',
      'ReplyQueueFullError',
    ] as const) {
      expect(streamable[name], name).toBe(http[name]);
    }
    expect(new streamable.SessionExpiredError('tools/list')).toBeInstanceOf(http.HttpError);
  });
});
