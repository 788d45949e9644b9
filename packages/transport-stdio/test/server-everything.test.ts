// The stdio transport against server-everything: initialize, tools, progress.
import { afterEach, describe, expect, it } from 'vitest';
import { JsonRpcEngine, ServerError, silentLogger } from '@mcpc/jsonrpc';
import { SERVER_EVERYTHING, capturingLogger, cleanup, signalLines, transport } from './helpers.js';

interface Tool {
  name: string;
  inputSchema: { properties?: Record<string, unknown> };
}

afterEach(cleanup);

// The reference server, unmodified, spoken to through the engine the client is built on.
describe('against @modelcontextprotocol/server-everything over stdio', () => {
  it('initializes, lists tools, calls echo, and routes progress of a long-running operation', async () => {
    const stderr: string[] = [];
    const logger = capturingLogger();
    // A stdin-close wait far beyond the server's exit on a loaded machine: waiting it out would show.
    const shutdownTimeouts = { stdinCloseMs: 10_000 };
    const t = transport({
      command: process.execPath,
      args: [SERVER_EVERYTHING, 'stdio'],
      onStderr: (s) => void stderr.push(s),
      logger,
      shutdownTimeouts,
    });
    const engine = new JsonRpcEngine(t, { logger: silentLogger, requestTimeout: 20_000 });
    await engine.start();
    expect(t.pid).toBeTypeOf('number');

    const init = await engine.request<{
      protocolVersion: string;
      serverInfo: { name: string };
      capabilities: Record<string, unknown>;
    }>('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'mcpc-test', version: '0.0.0' },
    });
    expect(init.protocolVersion).toBe('2025-11-25');
    expect(init.serverInfo.name).toContain('everything');
    expect(init.capabilities).toHaveProperty('tools');
    await engine.notify('notifications/initialized');

    const { tools } = await engine.request<{ tools: Tool[] }>('tools/list', {});
    const names = tools.map((tool) => tool.name);
    expect(names).toContain('echo');
    const longRunning = tools.find((tool) => /long.?running/i.test(tool.name));
    expect(longRunning, `a long-running tool among ${names.join(', ')}`).toBeDefined();

    const echoed = await engine.request<{ content: { type: string; text: string }[] }>('tools/call', {
      name: 'echo',
      arguments: { message: 'hello über stdio ✓' },
    });
    expect(echoed.content[0]).toEqual({ type: 'text', text: 'Echo: hello über stdio ✓' });

    const progress: { progress: number; total?: number }[] = [];
    const done = await engine.request<{ content: { text: string }[] }>(
      'tools/call',
      { name: longRunning!.name, arguments: { duration: 0.3, steps: 3 } },
      { onProgress: (p) => void progress.push(p) },
    );
    expect(done.content[0]?.text).toMatch(/completed/i);
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);
    expect(progress.every((p) => p.total === 3)).toBe(true);

    // A server error travels back as a ServerError, and the connection stays usable.
    await expect(engine.request('no/such-method', {})).rejects.toBeInstanceOf(ServerError);
    await expect(engine.request('ping')).resolves.toEqual({});

    const started = Date.now();
    await engine.close();
    // It exits when its stdin closes: no escalation to signals was needed.
    expect(Date.now() - started).toBeLessThan(shutdownTimeouts.stdinCloseMs);
    expect(signalLines(logger)).toEqual([]);
    expect(stderr.join('')).toContain('Starting default (STDIO) server');
  });
});
