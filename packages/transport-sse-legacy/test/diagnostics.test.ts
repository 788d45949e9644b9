// URLs that are not HTTP+SSE endpoints say what answered, with the HTTP errors of @mcpc/http.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '@mcpc/jsonrpc';
import * as http from '@mcpc/http';
import { HttpError, SseTransport, UnauthorizedError } from '@mcpc/transport-sse-legacy';
import * as legacy from '@mcpc/transport-sse-legacy';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function server(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const s = createServer(handle);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r()))));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}/sse`;
}

const start = (url: string, httpClient: 'undici' | 'node'): Promise<unknown> =>
  new SseTransport({ url, httpClient, logger: silentLogger, deprecationNotice: false })
    .start({ message() {}, error() {}, close() {} })
    .catch((e: unknown) => e);

describe.each(['undici', 'node'] as const)(
  "over %s: a URL that is not an HTTP+SSE endpoint, in the user's words",
  (httpClient) => {
    it('a web page', async () => {
      const url = await server((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>');
      });
      const error = await start(url, httpClient);
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ code: 'MCPC_HTTP_ERROR', status: 200, contentType: 'text/html' });
      // Before: `the server did not open an SSE stream (HTTP 200, text/html)`.
      expect((error as Error).message).toBe(
        `${url} answered 200 text/html, not an HTTP+SSE endpoint (expected text/event-stream) — check the URL`,
      );
    });

    it('a 404', async () => {
      const url = await server((_req, res) => {
        res.writeHead(404);
        res.end();
      });
      const error = await start(url, httpClient);
      expect(error).toMatchObject({ code: 'MCPC_HTTP_ERROR', status: 404 });
      expect((error as Error).message).toBe(
        `${url} answered 404 Not Found (no content type) to the GET that opens the SSE stream, not an HTTP+SSE endpoint — check the URL`,
      );
    });

    it('401 says to pass `auth`', async () => {
      const url = await server((_req, res) => {
        res.writeHead(401, { 'www-authenticate': 'Bearer' });
        res.end();
      });
      const error = await start(url, httpClient);
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect(error).toMatchObject({ code: 'MCPC_UNAUTHORIZED', status: 401, wwwAuthenticate: 'Bearer' });
      expect((error as Error).message).toBe(
        `${url} answered 401 Unauthorized: this server requires authorization — pass \`auth\` (see @mcpc/oauth)`,
      );
    });
  },
);

describe('the HTTP errors, exported from this package', () => {
  it('are the classes of @mcpc/http, so one catch fits this transport and the Streamable HTTP one', () => {
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
      expect(legacy[name], name).toBe(http[name]);
    }
  });
});
