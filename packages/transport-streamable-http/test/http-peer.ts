// A scripted HTTP peer for the transport tests, recording what it was sent, with JSON and SSE helpers.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe } from 'vitest';
import { JsonRpcEngine, type JsonRpcMessage, type Logger } from '@mcpc/jsonrpc';
import { StreamableHttpTransport, type StreamableHttpTransportOptions } from '@mcpc/transport-streamable-http';

export interface Seen {
  readonly method: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: JsonRpcMessage | undefined;
}

export type Handler = (
  req: IncomingMessage,
  res: ServerResponse,
  body: JsonRpcMessage | undefined,
  seen: Seen[],
) => unknown;

/**
 * A scripted HTTP server on 127.0.0.1 for the cases no real MCP server produces (bombs, cut streams,
 * expired sessions, flaky 5xx). Each test gives the handler; every request is recorded.
 */
export async function startPeer(
  handler: Handler,
): Promise<{ url: string; seen: Seen[]; server: Server; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text === '' ? undefined : (JSON.parse(text) as JsonRpcMessage);
      seen.push({ method: req.method ?? '', headers: req.headers, body });
      Promise.resolve(handler(req, res, body, seen)).catch((e: unknown) => {
        res.destroy(e instanceof Error ? e : new Error(String(e)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const json = (
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
};

export const sseHead = (res: ServerResponse, headers: Record<string, string> = {}): void => {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
};

export const sseEvent = (res: ServerResponse, message: unknown, id?: string): void => {
  res.write(`${id === undefined ? '' : `id: ${id}\n`}event: message\ndata: ${JSON.stringify(message)}\n\n`);
};

export const result = (body: JsonRpcMessage | undefined, value: unknown): unknown => ({
  jsonrpc: '2.0',
  id: body !== undefined && 'id' in body ? body.id : null,
  result: value,
});

export const rpcMethod = (body: JsonRpcMessage | undefined): string | undefined =>
  body !== undefined && 'method' in body ? body.method : undefined;

export const initializeResult = {
  protocolVersion: '2025-11-25',
  capabilities: {},
  serverInfo: { name: 'scripted', version: '1' },
};

/** A logger that keeps lines for assertions. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (m: string): void => void lines.push(m);
  return { lines, debug: push, info: push, warn: push, error: push };
}

/** The transport's two HTTP clients, which must behave the same. */
export const HTTP_CLIENTS = ['undici', 'node', 'fetch'] as const;
export type HttpClientUnderTest = (typeof HTTP_CLIENTS)[number];
let underTest: HttpClientUnderTest = 'undici';

/** The HTTP client of the suite now running (see {@link forEachHttpClient}). */
export const httpClientUnderTest = (): HttpClientUnderTest => underTest;

/**
 * Runs the tests `body` declares once over each HTTP client: every transport `connectEngine` makes
 * (and any test that reads `httpClientUnderTest()`) uses the one of the suite running.
 */
export function forEachHttpClient(body: () => void): void {
  describe.each(HTTP_CLIENTS)('over %s', (client) => {
    beforeAll(() => {
      underTest = client;
    });
    body();
  });
}

/** An engine over a StreamableHttpTransport, started, closed by the test. */
export async function connectEngine(url: string, options: Partial<StreamableHttpTransportOptions> = {}) {
  const logger = recordingLogger();
  const transport = new StreamableHttpTransport({
    url,
    logger,
    httpClient: underTest,
    retryDelay: { initialMs: 10, maxMs: 40 },
    reconnectDelay: { initialMs: 20, maxMs: 100 },
    minRetryIntervalMs: 20,
    ...options,
  });
  const engine = new JsonRpcEngine(transport, { logger, requestTimeout: 10_000 });
  await engine.start();
  return { engine, transport, logger };
}

/** initialize + initialized through the engine, the way a client does it. */
export async function handshake(engine: JsonRpcEngine): Promise<unknown> {
  const init = await engine.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 't', version: '1' },
  });
  await engine.notify('notifications/initialized');
  return init;
}
