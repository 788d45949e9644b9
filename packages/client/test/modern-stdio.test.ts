// Era detection on stdio (`server/discover` probe, then the handshake) and request meta per era.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, ConnectionError, textOf } from '@mcpc/client';
import type { ElicitationRequest } from '@mcpc/client/types';
import { StdioTransport } from '@mcpc/transport-stdio';
import {
  MODERN_SDK_SERVER,
  RecordingTransport,
  modernFixture,
  recordingLogger,
  revision,
  scripted,
} from './helpers.js';

const tappedModern = (): RecordingTransport =>
  new RecordingTransport(new StdioTransport({ command: process.execPath, args: [MODERN_SDK_SERVER, 'stdio'] }));

describe('era detection on stdio', () => {
  it('a 2026-07-28 server is found by server/discover: no initialize, the facts come from the discovery result', async () => {
    const transport = tappedModern();
    const client = new Client({ servers: [{ name: 'm', transport }] });
    try {
      await client.connect();
      const server = client.server('m');
      expect(server.protocolEra).toBe('modern');
      // One getter says which era: the others it replaced are gone.
      expect(server).not.toHaveProperty('isModern');
      expect(server).not.toHaveProperty('era');
      expect(server.protocolVersion).toBe('2026-07-28');
      expect(server.serverInfo).toEqual({ name: 'sdk-modern', version: '2.4.0' });
      expect(server.instructions).toBe('A dual-era fixture server');
      expect(server.supports('tools')).toBe(true);
      expect(transport.methods()).toEqual(['server/discover']);
    } finally {
      await client.close();
    }
  });

  it('a classic server answers the probe with an error and gets the initialize handshake', async () => {
    const client = new Client({ servers: [revision('2025-11-25', 'c')] });
    try {
      await client.connect();
      expect(client.server('c').protocolEra).toBe('legacy');
      expect(client.server('c').protocolVersion).toBe('2025-11-25');
    } finally {
      await client.close();
    }
  });

  it('a classic server that stays silent to the probe gets the handshake once discoverTimeout passes', async () => {
    const client = new Client({
      servers: [modernFixture('silent-probe.mjs', [], { name: 'q', discoverTimeout: 300 })],
      logger: recordingLogger(),
    });
    try {
      const started = Date.now();
      await client.connect();
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(client.server('q').protocolEra).toBe('legacy');
      expect(textOf(await client.callTool('hello'))).toBe('hello');
    } finally {
      await client.close();
    }
  });

  it("protocol: 'legacy' sends no probe; protocol: 'modern' refuses a classic server", async () => {
    const transport = tappedModern();
    const legacy = new Client({ servers: [{ name: 'm', transport, protocol: 'legacy' }] });
    try {
      await legacy.connect();
      expect(transport.methods()[0]).toBe('initialize');
      expect(legacy.server('m').protocolEra).toBe('legacy');
    } finally {
      await legacy.close();
    }
    const strict = new Client({ servers: [{ ...revision('2025-11-25', 'c'), protocol: 'modern' }] });
    try {
      const error = await strict.connect().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as Error).message).toContain('server/discover probe failed');
    } finally {
      await strict.close();
    }
  });
});

describe('requestMeta on a classic server', () => {
  it("is merged into every request after the handshake, under the caller's own _meta", async () => {
    const client = new Client({
      servers: [scripted('c')],
      requestMeta: { 'example.com/tenant': 't1', 'example.com/x': 'host' },
    });
    try {
      const seen = JSON.parse(textOf(await client.callTool('params', { _meta: { 'example.com/x': 'caller' } })));
      expect(client.server('c').protocolEra).toBe('legacy');
      expect(seen._meta).toEqual({ 'example.com/tenant': 't1', 'example.com/x': 'caller' });
    } finally {
      await client.close();
    }
  });
});

describe('declared extensions', () => {
  it('ride in clientCapabilities.extensions of every modern request', async () => {
    const client = new Client({
      servers: [{ name: 'm', transport: tappedModern() }],
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
    try {
      const seen = JSON.parse(textOf(await client.callTool('meta')));
      expect(seen.envelope['io.modelcontextprotocol/clientCapabilities']).toEqual({
        extensions: { 'io.modelcontextprotocol/tasks': {} },
      });
    } finally {
      await client.close();
    }
  });
});

describe('a modern server over stdio', () => {
  let client: Client;
  let transport: RecordingTransport;
  const logger = recordingLogger();
  let counter = 0;
  const asked: ElicitationRequest[] = [];

  beforeAll(async () => {
    transport = tappedModern();
    client = new Client({
      servers: [{ name: 'm', transport }],
      logger,
      clientInfo: { name: 'tester', version: '9.9.9' },
      requestMeta: () => ({ 'example.com/request': ++counter }),
      onElicitation: (request) => {
        asked.push(request);
        return { name: 'Ada' };
      },
      onSampling: () => ({ model: 'm1', content: { type: 'text', text: 'pong' } }),
      roots: [{ uri: 'file:///work' }],
    });
    await client.connect();
  });
  afterAll(() => client.close());

  it("every request's _meta carries the revision, the client's identity and capabilities, and the host's requestMeta evaluated per request", async () => {
    const seen = JSON.parse(textOf(await client.callTool('meta')));
    expect(seen.envelope).toMatchObject({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'tester', version: '9.9.9' },
      'io.modelcontextprotocol/clientCapabilities': {
        elicitation: { form: {} },
        sampling: {},
        roots: { listChanged: true },
      },
    });
    const first = seen._meta['example.com/request'];
    const again = JSON.parse(textOf(await client.callTool('meta')));
    expect(again._meta['example.com/request']).toBe(first + 1);
    for (const request of transport.sent) {
      if (!('method' in request) || !('id' in request)) continue;
      expect(request.params?._meta).toMatchObject({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28' });
    }
  });

  it('calls tools', async () => {
    expect(textOf(await client.callTool('add', { a: 2, b: 3 }))).toBe('5');
  });

  it('an input_required result is fulfilled with the elicitation handler and re-sent under a new id with inputResponses and the requestState', async () => {
    const before = transport.requests('tools/call').length;
    expect(textOf(await client.callTool('confirm'))).toBe('hello Ada (state round-1)');
    const calls = transport.requests('tools/call').slice(before);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.id).not.toBe(calls[1]!.id);
    expect(calls[0]!.params).not.toHaveProperty('inputResponses');
    expect(calls[1]!.params).toMatchObject({
      name: 'confirm',
      requestState: 'round-1',
      inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } },
    });
    expect(asked.at(-1)).toMatchObject({ mode: 'form', message: 'Who are you?' });
  });

  it('sampling and roots inside input_required go to the sampling handler and the configured roots', async () => {
    expect(textOf(await client.callTool('sample'))).toBe('model said pong');
    expect(JSON.parse(textOf(await client.callTool('roots')))).toEqual(['file:///work']);
  });

  it('ping maps to server/discover; setLogLevel sends nothing and rides on later requests', async () => {
    const before = transport.methods().length;
    await client.ping();
    expect(transport.methods().slice(before)).toEqual(['server/discover']);
    await client.server('m').setLogLevel('debug');
    const seen = JSON.parse(textOf(await client.callTool('meta')));
    expect(seen.envelope['io.modelcontextprotocol/logLevel']).toBe('debug');
    expect(transport.methods()).not.toContain('logging/setLevel');
  });

  it('prompts and resources work', async () => {
    const prompt = await client.getPrompt('greet', { name: 'Bo' });
    expect(prompt.messages[0]!.content).toEqual({ type: 'text', text: 'Hello, Bo!' });
    const [contents] = await client.readResource('config://app', { server: 'm' });
    expect(contents!.isText()).toBe(true);
  });
});
