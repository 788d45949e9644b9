// The client's duration histograms against the real metrics SDK: operation and session, their attributes and units.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '@opentelemetry/api';
import { metrics } from '@opentelemetry/api';
import { fileURLToPath } from 'node:url';
import { Client, stdio, streamableHttp, type ClientOptions } from '@mcpc/client';
import { startFixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { durationHistograms } from '../src/tracing/metrics.js';
import { everything, sdkModern } from './helpers.js';
import { exporter, histogram, installGlobalTracing, meters, spanNamed, spansNamed } from './tracing-otel.js';

beforeAll(installGlobalTracing);

const CRASHING = fileURLToPath(new URL('../../../tooling/fixtures/stdio/crash-mid-request.mjs', import.meta.url));
const OPERATION = 'mcp.client.operation.duration';
const SESSION = 'mcp.client.session.duration';

/** Resolves once `predicate` holds, polling; rejects after 5 s. */
async function until(predicate: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function open(options: ClientOptions): Promise<Client> {
  const client = new Client({ deprecationNotices: false, ...options });
  await client.connect();
  return client;
}

describe('mcp.client.operation.duration and mcp.client.session.duration', () => {
  it('are made only on a meter that records: none on the API no-op meter (no cost per call)', () => {
    expect(durationHistograms(api, api.createNoopMeter())).toBeUndefined();
    expect(durationHistograms(api, meters().provider.getMeter('m'))).toBeDefined();
  });

  it('classic over stdio: a point per request in seconds, without ids; error.type on failure; the session on close', async () => {
    const { provider, reader } = meters();
    const client = await open({ servers: [everything()], tracing: { meterProvider: provider } });
    await client.callTool('echo', { message: 'x' });
    await client.callTool('echo', { message: 'y' });
    await client.getPrompt('no-such-prompt').catch(() => {});
    const operation = await histogram(reader, OPERATION);
    expect(operation.unit).toBe('s');
    const call = operation.points.find((p) => p.attributes['mcp.method.name'] === 'tools/call')!;
    expect(call.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'mcp.protocol.version': '2025-11-25',
      'gen_ai.tool.name': 'echo',
      'gen_ai.operation.name': 'execute_tool',
      'network.transport': 'pipe',
    });
    expect(call.count).toBe(2);
    expect(call.sum).toBeGreaterThan(0);
    expect(call.sum).toBeLessThan(10); // seconds, not milliseconds
    const failed = operation.points.find((p) => p.attributes['mcp.method.name'] === 'prompts/get')!;
    expect(failed.attributes).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
    expect(failed.attributes['gen_ai.prompt.name']).toBe('no-such-prompt');
    expect(operation.points.find((p) => p.attributes['mcp.method.name'] === 'initialize')?.count).toBe(1);
    expect((await histogram(reader, SESSION)).points).toEqual([]);

    await client.close();
    const session = await histogram(reader, SESSION);
    expect(session.unit).toBe('s');
    expect(session.points).toEqual([
      {
        attributes: { 'network.transport': 'pipe', 'mcp.protocol.version': '2025-11-25' },
        count: 1,
        sum: expect.any(Number),
      },
    ]);
  });

  it('modern over Streamable HTTP: server address and port on the points, a tool_error by its type', async () => {
    const { provider, reader } = meters();
    const server = await startFixture('../modern/sdk-server.mjs', ['http']);
    const client = await open({
      servers: [streamableHttp({ name: 'm', url: server.url })],
      tracing: { meterProvider: provider },
    });
    try {
      await client.callTool('add', { a: 1, b: 2 });
      // Arguments the server's schema refuses: it answers with a result marked isError.
      await client.callTool('add', { a: 'x', b: 2 } as never);
      const { points } = await histogram(reader, OPERATION);
      const url = new URL(server.url);
      const ok = points.find((p) => p.attributes['gen_ai.tool.name'] === 'add' && !('error.type' in p.attributes))!;
      expect(ok.attributes).toMatchObject({
        'mcp.protocol.version': '2026-07-28',
        'network.transport': 'tcp',
        'server.address': url.hostname,
        'server.port': Number(url.port),
      });
      expect(ok.count).toBe(1);
      const bad = points.find((p) => p.attributes['error.type'] === 'tool_error')!;
      expect(bad.attributes).toMatchObject({ 'gen_ai.tool.name': 'add', 'network.transport': 'tcp' });
      expect(bad.count).toBe(1);
    } finally {
      await client.close();
      await server.stop();
    }
    expect((await histogram(reader, SESSION)).points[0]?.attributes).toMatchObject({
      'server.port': Number(new URL(server.url).port),
    });
  });

  it('classic over Streamable HTTP with a session: mcp.session.id is on the span, never on the point', async () => {
    const { provider, reader } = meters();
    const server = await startFixture('sdk-server.mjs', ['--mode', 'session']);
    const client = await open({
      servers: [streamableHttp({ name: 's', url: server.url })],
      tracing: { meterProvider: provider },
    });
    try {
      await client.callTool('echo', { message: 'x' });
      expect(spansNamed('tools/call echo').at(-1)?.attributes['mcp.session.id']).toMatch(/\S/);
      const { points } = await histogram(reader, OPERATION);
      const call = points.find((p) => p.attributes['gen_ai.tool.name'] === 'echo')!;
      expect(call.attributes['network.transport']).toBe('tcp');
      expect(points.every((p) => !('mcp.session.id' in p.attributes) && !('jsonrpc.request.id' in p.attributes))).toBe(
        true,
      );
    } finally {
      await client.close();
      await server.stop();
    }
  });

  it('a session that ends in an error carries its error.type', async () => {
    const { provider, reader } = meters();
    const crashing = stdio({ name: 'c', command: process.execPath, args: [CRASHING], protocol: 'legacy' });
    const client = await open({ servers: [crashing], tracing: { meterProvider: provider } });
    try {
      // It dies on the first tools/call without answering: the connection closes with a cause.
      await expect(client.callTool('anything')).rejects.toThrow();
      await until(async () => (await histogram(reader, SESSION)).points.length > 0);
      const [point] = (await histogram(reader, SESSION)).points;
      expect(point?.attributes['error.type']).toMatch(/^MCPC_/);
      expect(point?.attributes['network.transport']).toBe('pipe');
    } finally {
      await client.close();
    }
  });

  it('the global meter provider when none is given; spans and metrics from one request', async () => {
    const { provider, reader } = meters();
    metrics.setGlobalMeterProvider(provider);
    try {
      exporter.reset();
      const client = await open({ servers: [sdkModern()] });
      await client.callTool('add', { a: 1, b: 2 });
      await client.close();
      const { points } = await histogram(reader, OPERATION);
      expect(points.find((p) => p.attributes['gen_ai.tool.name'] === 'add')?.count).toBe(1);
      expect(spanNamed('tools/call add').attributes['jsonrpc.request.id']).toMatch(/^\d+$/);
      expect((await histogram(reader, SESSION)).points).toHaveLength(1);
    } finally {
      metrics.disable();
    }
  });
});

afterAll(() => metrics.disable());
