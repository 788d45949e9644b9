// A legacy session over plain JSON HTTP: no capability a server could never use is declared.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Client, http, textOf } from '@mcpc/client';
import { recordingLogger } from './helpers.js';

interface Received {
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

/** A classic JSON-only JSON-RPC server over plain HTTP: no SSE, no GET stream, so it can never send the client a request. */
async function plainServer(): Promise<{ url: string; received: Received[]; close(): void }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405);
      return res.end();
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const m = JSON.parse(Buffer.concat(chunks).toString()) as Received & { id?: number };
      received.push({ method: m.method, ...(m.params !== undefined && { params: m.params }) });
      if (m.id === undefined) {
        res.writeHead(202);
        return res.end();
      }
      const reply =
        m.method === 'initialize'
          ? {
              result: {
                protocolVersion: '2025-06-18',
                capabilities: { tools: {} },
                serverInfo: { name: 'plain', version: '1' },
              },
            }
          : m.method === 'tools/list'
            ? { result: { tools: [{ name: 'hello', inputSchema: { type: 'object' } }] } }
            : m.method === 'ping'
              ? { result: {} }
              : m.method === 'tools/call'
                ? { result: { content: [{ type: 'text', text: 'hello back' }] } }
                : { error: { code: -32601, message: 'Method not found' } };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: m.id, ...reply }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`,
    received,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

describe('a classic session over plain JSON HTTP', () => {
  it('declares no roots, sampling or elicitation (the server could never ask), and sends no roots/list_changed', async () => {
    const plain = await plainServer();
    try {
      await using client = new Client({
        servers: [http({ name: 'plain', url: plain.url })],
        logger: recordingLogger(),
        roots: [{ uri: 'file:///srv' }],
        onSampling: () => ({ model: 'm', content: { type: 'text', text: 'x' } }),
        onElicitation: () => ({ action: 'decline' }),
      });
      expect(textOf(await client.callTool('hello', {}))).toBe('hello back');
      const init = plain.received.find((m) => m.method === 'initialize');
      expect(init?.params?.capabilities).toEqual({});
      expect(client.server('plain').clientCapabilities).toEqual({});
      client.roots = [{ uri: 'file:///other' }];
      await client.ping();
      expect(plain.received.map((m) => m.method)).not.toContain('notifications/roots/list_changed');
    } finally {
      plain.close();
    }
  });

  it("any transport that says serverRequests: false gets the same (a third party's own)", async () => {
    const plain = await plainServer();
    try {
      const config = http({ name: 'plain', url: plain.url });
      await using client = new Client({
        servers: [
          {
            ...config,
            kind: 'custom',
            open: async (context) => Object.assign(await config.open(context), { serverRequests: false }),
          },
        ],
        logger: recordingLogger(),
        onSampling: () => ({ model: 'm', content: { type: 'text', text: 'x' } }),
      });
      await client.connect();
      expect(plain.received.find((m) => m.method === 'initialize')?.params?.capabilities).toEqual({});
    } finally {
      plain.close();
    }
  });
});
