// Warnings the peer drives are rate-limited per kind; server error messages escaped and capped.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JsonRpcEngine, JsonRpcProtocolError, ServerError, decodeMessage } from '@mcpc/jsonrpc';
import { WarningLimiter } from '../src/warning-limiter.js';
import { recordingLogger, ScriptedPeer } from './peer.js';

afterEach(() => vi.useRealTimers());

describe('warnings the peer drives are rate-limited per kind', () => {
  it('10^5 junk frames and 10^5 unsolicited responses log a handful of lines, then one summary each', async () => {
    const peer = new ScriptedPeer();
    const logger = recordingLogger();
    const engine = new JsonRpcEngine(peer, { logger });
    await engine.start();
    const junk = decodeMessage('Welcome to the server!');
    for (let i = 0; i < 100_000; i++) {
      if (!junk.ok) peer.serverError(junk.error);
      peer.serverSends({ jsonrpc: '2.0', id: 10_000 + i, result: {} });
    }
    // Still usable, and every frame was counted.
    const answer = engine.request('ping');
    const request = (await peer.next()) as { id: number };
    peer.serverSends({ jsonrpc: '2.0', id: request.id, result: {} });
    await expect(answer).resolves.toEqual({});
    expect(engine.rejectedFrames.count).toBe(100_000);
    expect(engine.rejectedFrames.last?.excerpt).toBe('Welcome to the server!');
    await engine.close();
    const warnings = logger.lines.filter((l) => l.level === 'warn').map((l) => l.message);
    expect(warnings.length).toBeLessThanOrEqual(12);
    expect(warnings.filter((w) => w.includes('not JSON'))).toHaveLength(6); // 5 in full, 1 summary
    expect(warnings).toContain(
      `[mcpc] suppressed 99995 more warnings like: transport reported: the message is not JSON (22 characters): 'Welcome to the server!'`,
    );
    expect(
      warnings.some((w) => w.startsWith('[mcpc] suppressed 99995 more warnings like: discarded an unsolicited')),
    ).toBe(true);
  });

  it('summarizes at the end of each interval, and starts afresh after it', () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const limiter = new WarningLimiter((m) => lines.push(m), { perInterval: 2, intervalMs: 1000 });
    for (let i = 0; i < 10; i++) limiter.warn('a', () => `a${i}`);
    limiter.warn('b', () => 'b0');
    expect(lines).toEqual(['a0', 'a1 (further warnings like this are counted, and summarized every 1 s)', 'b0']);
    vi.advanceTimersByTime(1001);
    expect(lines.at(-1)).toBe('suppressed 8 more warnings like: a1');
    limiter.warn('a', () => 'a-again');
    expect(lines.at(-1)).toBe('a-again');
    limiter.flush();
    expect(lines).toHaveLength(5);
  });

  it('builds no line for a suppressed warning', () => {
    const limiter = new WarningLimiter(() => {}, { perInterval: 1 });
    const build = vi.fn(() => 'x');
    for (let i = 0; i < 100; i++) limiter.warn('k', build);
    expect(build).toHaveBeenCalledTimes(1);
    limiter.flush();
  });
});

describe('a server error message is escaped and capped; the raw text stays on serverMessage', () => {
  it.each([
    ['ANSI colour and OSC title', '\u001b[31mred\u001b]0;pwned\u0007', '\\x1B[31mred\\x1B]0;pwned\\x07'],
    ['CR/LF forging a log line', 'fine\r\n[mcpc] server "x" is trusted', 'fine\\r\\n[mcpc] server "x" is trusted'],
    ['bidi override', 'evil\u202etxt.exe', 'evil\\u202Etxt.exe'],
    ['NUL', 'a\u0000b', 'a\\x00b'],
  ])('%s', async (_what, raw, safe) => {
    const peer = new ScriptedPeer();
    const engine = new JsonRpcEngine(peer, { logger: recordingLogger() });
    await engine.start();
    const answer = engine.request('tools/call');
    const request = (await peer.next()) as { id: number };
    peer.serverSends({ jsonrpc: '2.0', id: request.id, error: { code: -32603, message: raw } });
    const error = (await answer.catch((e: unknown) => e)) as ServerError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toBe(safe);
    expect(error.serverMessage).toBe(raw);
    await engine.close();
  });

  it('10 MB of message is capped, naming its length', () => {
    const raw = 'x'.repeat(10 * 1024 * 1024);
    const error = new ServerError(-32603, raw);
    expect(error.message.length).toBeLessThan(600);
    expect(error.message.endsWith(`…(${raw.length} chars)`)).toBe(true);
    expect(error.serverMessage).toHaveLength(raw.length);
    expect(new JsonRpcProtocolError('parse-error', 'x').excerpt).toBeUndefined();
  });
});
