// The server's stderr: streamed as text, drained, a bounded tail, listeners that throw.
import { afterEach, describe, expect, it } from 'vitest';
import { JsonRpcEngine, silentLogger } from '@mcpc/jsonrpc';
import { StderrTail } from '../src/stderr-tail.js';
import { capturingLogger, cleanup, node, stderrCollector, waitFor } from './helpers.js';

afterEach(cleanup);

async function engineFor(options: Parameters<typeof node>[2]) {
  const t = node('stderr.mjs', [], options);
  const engine = new JsonRpcEngine(t, { logger: silentLogger, requestTimeout: 20_000 });
  await engine.start();
  return { t, engine };
}

describe("the server's stderr", () => {
  it('streams to onStderr as text, keeping multi-byte characters whole when they arrive a byte at a time', async () => {
    const text = 'héllo wörld ✓ 🎉 日本\n';
    const stderr = stderrCollector();
    const { engine } = await engineFor({ onStderr: stderr.onStderr });
    await engine.request('spell', { text });
    await waitFor(() => stderr.text.length >= text.length, 5_000, 'the spelled text');
    expect(stderr.text).toBe(text);
    expect(stderr.chunks.length).toBeGreaterThan(5); // it really did arrive in pieces
    expect(stderr.text).not.toContain('\ufffd');
    await engine.close();
  });

  it('keeps only the last stderrTailBytes as the tail', async () => {
    const { t, engine } = await engineFor({ stderrTailBytes: 1024, onStderr: () => {} });
    await engine.request('bulk', { bytes: 100_000 });
    await waitFor(() => t.stderrTail.endsWith('LAST LINE\n'), 5_000, 'the last line in the tail');
    expect(Buffer.byteLength(t.stderrTail)).toBeLessThanOrEqual(1024);
    expect(Buffer.byteLength(t.stderrTail)).toBeGreaterThan(900);
    expect(t.stderrTail).not.toContain('line 0 ');
    await engine.close();
  });

  it('is drained without an onStderr, so a server writing megabytes to it is never blocked', async () => {
    // Far beyond a pipe's 64 KiB: were stderr not read, the server would block before it answers.
    const { t, engine } = await engineFor({});
    await engine.request('bulk', { bytes: 2 * 1024 * 1024 }, { timeout: 10_000 });
    await waitFor(() => t.stderrTail.endsWith('LAST LINE\n'), 5_000, 'the last line in the tail');
    expect(Buffer.byteLength(t.stderrTail)).toBeLessThanOrEqual(8 * 1024);
    await engine.close();
  });

  it('survives an onStderr that throws, and logs it', async () => {
    const logger = capturingLogger();
    const { engine } = await engineFor({
      logger,
      onStderr: () => {
        throw new Error('listener bug');
      },
    });
    await engine.request('spell', { text: 'ab' });
    await expect(engine.request('ping')).resolves.toEqual({});
    await waitFor(
      () => logger.lines.some((l) => l.level === 'error' && l.message.includes('onStderr threw: listener bug')),
      5_000,
      'the log line',
    );
    await engine.close();
  });
});

describe('StderrTail', () => {
  it('drops a character the bound cut in half rather than showing a replacement character', () => {
    const tail = new StderrTail(4);
    tail.push(Buffer.from('ab€cd')); // € is three bytes; the last four start inside it
    expect(tail.text).toBe('cd');
    tail.push(Buffer.from('€'));
    tail.push(Buffer.from('x'));
    expect(tail.text).toBe('€x');
    tail.push(Buffer.from('y'.repeat(20)));
    expect(tail.text).toBe('yyyy');
  });

  it('keeps nothing with a zero limit', () => {
    const tail = new StderrTail(0);
    tail.push(Buffer.from('anything'));
    expect(tail.text).toBe('');
  });
});
