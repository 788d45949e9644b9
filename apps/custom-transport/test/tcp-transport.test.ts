// The TCP transport example: used through Client against the SDK server, and the Transport contract.
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client, ConnectionError, textOf } from '@mcpc/client';
import {
  ConnectionClosedError,
  JsonRpcEngine,
  MessageTooLargeError,
  TransportError,
  silentLogger,
} from '@mcpc/jsonrpc';
import { TcpTransport, tcp } from '../src/index.js';

const servers: Server[] = [];
const sockets = new Set<Socket>();

/** A TCP server on an ephemeral loopback port that hands each connection to `onConnection`. */
async function listen(onConnection: (socket: Socket) => void): Promise<number> {
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    onConnection(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * The official SDK's McpServer on each connection, through the SDK's own newline framing: its
 * `StdioServerTransport` reads and writes the socket as it would stdin and stdout.
 */
function sdkServer(socket: Socket): void {
  const server = new McpServer({ name: 'tcp-adder', version: '1.0.0' });
  server.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
    ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
    }),
  );
  server.registerTool('hang', { description: 'Never answers' }, () => new Promise(() => {}));
  const transport = new StdioServerTransport(socket, socket);
  socket.once('close', () => void server.close());
  socket.on('error', () => {});
  void server.connect(transport);
}

afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

describe('a custom transport package used through Client', () => {
  it('lists and calls a tool of the official SDK server over TCP', async () => {
    const port = await listen(sdkServer);
    const client = new Client({
      servers: [tcp({ name: 'adder', port })],
      clientInfo: { name: 'tcp-test', version: '1.0.0' },
      logger: silentLogger,
    });
    try {
      const tools = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['add', 'hang']);
      expect(textOf(await client.callTool('add', { a: 2, b: 3 }))).toBe('5');
      expect(client.server('adder').serverInfo?.name).toBe('tcp-adder');
    } finally {
      await client.close();
    }
  });

  it('a refused connection is a ConnectionError from connect(), caused by a network TransportError', async () => {
    const closedPort = await listen(() => {});
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    const client = new Client({ servers: [tcp({ name: 'gone', port: closedPort })], logger: silentLogger });
    try {
      const error = await client.connect().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionError);
      const cause = (error as Error).cause;
      expect(cause).toBeInstanceOf(TransportError);
      expect(cause).toMatchObject({ code: 'MCPC_NETWORK_ERROR' });
    } finally {
      await client.close();
    }
  });
});

describe('the TCP transport honours the Transport contract', () => {
  it('when the server goes away mid-request, the request rejects at once with the cause', async () => {
    const port = await listen(sdkServer);
    const engine = new JsonRpcEngine(new TcpTransport({ port }), { logger: silentLogger });
    await engine.start();
    await engine.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    });
    await engine.notify('notifications/initialized');
    const call = engine.request('tools/call', { name: 'hang', arguments: {} });
    await new Promise((r) => setTimeout(r, 50));
    for (const socket of sockets) socket.destroy();
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as Error).cause).toMatchObject({ code: 'MCPC_NETWORK_ERROR' });
    expect(engine.closed).toBe(true);
  });

  it('a line over maxMessageBytes closes the connection with MessageTooLargeError, holding no more than the limit', async () => {
    // No real server sends a 64 KiB line unprompted: a bare socket does, in pieces, without a newline.
    const port = await listen((socket) => {
      for (let i = 0; i < 64; i++) socket.write('x'.repeat(1024));
    });
    const transport = new TcpTransport({ port, maxMessageBytes: 16 * 1024 });
    const closed = new Promise<Error | undefined>(
      (resolve) => void transport.start({ message: () => {}, error: () => {}, close: resolve }),
    );
    const cause = await closed;
    expect(cause).toBeInstanceOf(MessageTooLargeError);
    expect(cause).toMatchObject({ limitBytes: 16 * 1024 });
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('close() is idempotent, releases the socket, and the sink hears it once with no cause', async () => {
    const port = await listen(sdkServer);
    const transport = new TcpTransport({ port });
    const causes: (Error | undefined)[] = [];
    await transport.start({ message: () => {}, error: () => {}, close: (cause) => causes.push(cause) });
    await Promise.all([transport.close(), transport.close()]);
    await transport.close();
    expect(causes).toEqual([undefined]);
    await expect(transport.start({ message: () => {}, error: () => {}, close: () => {} })).rejects.toBeInstanceOf(
      TransportError,
    );
  });
});
